//! [`HeapRules`]: any [`HeapGame`] as a front-end family, with a cached nim-sequence, and
//! heaps of any size through the sequence's proved period.

use crate::control::{Control, Held};
use crate::error::GameError;
use crate::heap::NimSequence;
use crate::heap::period::{Period, default_max_heap, find_period};
use crate::heap::{CompactSequence, HeapGame, Periodicity, SEQUENCE_TASK, heap_bar, parse_heap};
use crate::progress::Task;
use crate::ruleset::{ComponentGame, ComponentMove, Request, too_many_moves};
use crate::value::Value;
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::sync::{Arc, Mutex, RwLock};

/// Heaps below this are always looked up in the table, computed directly if need be.
const DIRECT_HEAPS: u64 = 1 << 16;
/// The units a table's progress report counts in (its share of the work, in millionths).
const PROGRESS_UNITS: u64 = 1_000_000;

/// How the work of a nim-sequence grows with the heap, for an honest share done.
#[derive(Clone, Copy)]
enum WorkModel {
    /// Each value costs about the same (removals, two-way splits on the fast kernels).
    Linear,
    /// Three-way splits: heap `n` costs about `n² · V` with values `V` growing like `n`.
    Cubic,
}

impl WorkModel {
    fn of(periodicity: Periodicity) -> Self {
        match periodicity {
            Periodicity::Octal { max_parts: 3.., .. } => WorkModel::Cubic,
            _ => WorkModel::Linear,
        }
    }

    /// The share of the work done, in [`PROGRESS_UNITS`], when `done` of `len` values are.
    fn share(self, done: usize, len: usize) -> u64 {
        let fraction = done as f64 / len.max(1) as f64;
        let share = match self {
            WorkModel::Linear => fraction,
            WorkModel::Cubic => fraction.powi(3),
        };
        (share.clamp(0.0, 1.0) * PROGRESS_UNITS as f64) as u64
    }
}

/// Moves are listed option by option from heaps up to this size; beyond it only games whose
/// options are few (no splitting) can list them.
const LISTED_HEAPS: u64 = 1 << 20;

/// A heap game for the front end: components are heap sizes, values come from the game's
/// nim-sequence, computed once as far as needed and kept.
///
/// A heap beyond the table takes its value from the sequence's proved period (see
/// [`crate::heap::period`]): the sequence is computed until the period is proved, then
/// extrapolated. Without a proof the value is computed directly when its table fits in
/// memory, and refused otherwise with the size it would need.
///
/// ```
/// use grundy::heap::HeapRules;
/// use grundy::heap::subtraction::SubtractionGame;
/// let rules = HeapRules::new(SubtractionGame::new(vec![1, 3, 4]).unwrap());
/// assert_eq!(rules.heap_value(7).unwrap(), 0);
/// assert_eq!(rules.heap_value(6).unwrap(), 2);
/// // S = {1, 3, 4} has period 7 (0 1 0 1 2 3 2): 10^30 ≡ 1 (mod 7).
/// let huge: num_bigint::BigUint = "1000000000000000000000000000000".parse().unwrap();
/// assert_eq!(rules.value_of(&huge).unwrap(), 1u32.into());
/// ```
pub struct HeapRules<G> {
    /// Shared: the [`NimSequence`] capability hands it out.
    game: Arc<G>,
    table: RwLock<CompactSequence>,
    /// The proved period, once found.
    period: RwLock<Option<Period>>,
    /// The last heap a search examined without finding a proof.
    searched_without_proof: Mutex<Option<u64>>,
    /// The memory limit, cancel flag and progress sink of everything computed for the game.
    control: Control,
    /// The table's bytes, counted against the run's one memory budget while the table is kept
    /// (every later table of the run sees less room).
    held: Mutex<Option<Held>>,
}

impl<G: HeapGame> HeapRules<G> {
    /// The front end of `game`, with an empty table and [`Control::default`].
    pub fn new(game: G) -> Self {
        HeapRules {
            game: Arc::new(game),
            table: RwLock::new(CompactSequence::new()),
            period: RwLock::new(None),
            searched_without_proof: Mutex::new(None),
            control: Control::default(),
            held: Mutex::new(None),
        }
    }

    /// These rules computing under `control` (what the registry's front end lends).
    #[must_use]
    pub fn with_control(mut self, control: Control) -> Self {
        self.control = control;
        self.held = Mutex::new(None);
        self
    }

    /// Runs `grow` on the table with the table's own bytes out of the run's budget (a growing
    /// table is checked, by whatever allocates it, for its whole new size against what the
    /// rest of the run holds), then holds the table's new size.
    fn growing<T>(&self, table: &mut CompactSequence, grow: impl FnOnce(&mut CompactSequence) -> T) -> T {
        let mut held = self.held.lock().expect("held lock");
        if let Some(held) = held.as_mut() {
            held.set(0);
        }
        let result = grow(table);
        let bytes = (table.len() as u128).saturating_mul(table.width() as u128);
        match held.as_mut() {
            Some(held) => held.set(bytes),
            None => *held = Some(self.control.hold(bytes)),
        }
        result
    }

    /// The rules.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// `G(heap)` from the table, growing it as far as needed.
    ///
    /// # Errors
    /// [`GameError::TooLarge`] when the table would not fit in memory.
    pub fn heap_value(&self, heap: u64) -> Result<u32, GameError> {
        if let Some(value) = self.cached(heap) {
            return Ok(value);
        }
        let len = heap.checked_add(1).and_then(|len| usize::try_from(len).ok()).unwrap_or(usize::MAX);
        // The allocation is checked once, where it is made (`extend_sequence`), against the
        // run's budget.
        let mut table = self.table.write().expect("table lock");
        self.extend_reporting(&mut table, len)?;
        Ok(table.get(heap as usize).expect("the table reaches the heap"))
    }

    /// Extends `table` to `len` values, reporting progress to the front end's sink (a bar on a
    /// terminal once it takes a second: `value hex:0.8F 9000` takes seconds) and stopping at
    /// the control's cancel flag.
    ///
    /// # Errors
    /// The game's, or [`GameError::OutOfReach`] when the cancel flag stopped it.
    fn extend_reporting(&self, table: &mut CompactSequence, len: usize) -> Result<(), GameError> {
        if table.len() >= len {
            return Ok(());
        }
        let spec = self.game.spec();
        let task = self.control.task(&format!("the nim-sequence of {spec} up to heap {}", len - 1), PROGRESS_UNITS);
        let control = self.reporting_values_to(task, len);
        let extended = self.growing(table, |table| self.game.extend_sequence(table, len, &control));
        if !extended? || table.len() < len {
            return Err(GameError::OutOfReach(format!(
                "interrupted while computing the nim-sequence of {spec} (heaps 0..{} done)",
                table.len().saturating_sub(1)
            )));
        }
        Ok(())
    }

    /// The control a computation of the first `len` values runs with: its values known (the
    /// [`SEQUENCE_TASK`] counts) move `task` by the share of the work they cost, when anything
    /// shows progress at all.
    fn reporting_values_to(&self, task: Task, len: usize) -> Control {
        if !self.control.reports_progress() {
            return self.control.clone();
        }
        let cost = WorkModel::of(self.game.periodicity());
        self.control.relaying(SEQUENCE_TASK, move |done| task.set(cost.share(done as usize, len)))
    }

    fn cached(&self, heap: u64) -> Option<u32> {
        let index = usize::try_from(heap).ok()?;
        self.table.read().expect("table lock").get(index)
    }

    /// `G(heap)` for a heap of any size: from the table, from the proved period, or computed
    /// directly.
    ///
    /// # Errors
    /// [`GameError::TooLarge`] when no period is proved (within
    /// [`default_max_heap`]) and the table up to `heap` would not fit in memory.
    pub fn value_of(&self, heap: &BigUint) -> Result<BigUint, GameError> {
        if let Some(value) = self.game.closed_form_value(heap) {
            return Ok(value);
        }
        let small = heap.to_u64();
        if let Some(small) = small {
            if let Some(value) = self.cached(small) {
                return Ok(value.into());
            }
            if small < DIRECT_HEAPS {
                return self.heap_value(small).map(BigUint::from);
            }
        }
        if let Some(period) = self.proved_period(heap)? {
            let table = self.table.read().expect("table lock");
            if let Some(value) = period.value_at(&table, heap) {
                return Ok(value);
            }
        }
        if let Some(small) = small
            && let Some(value) = self.cached(small)
        {
            return Ok(value.into());
        }
        let bytes_needed = (heap + 1u32).to_u128().map_or(u128::MAX, |len| len.saturating_mul(4));
        if bytes_needed > self.control.memory_limit() {
            let searched = *self.searched_without_proof.lock().expect("search lock");
            let spec = self.game.spec();
            // Say which limit was met: no theorem to extrapolate with, or a search that ended.
            let why = match searched {
                _ if self.game.periodicity() == Periodicity::Unproved && self.game.known_period().is_none() => {
                    format!("no periodicity theorem covers {spec}, so heaps past the table cannot take a period")
                }
                Some(searched) => match self.game.periodicity() {
                    // The window argument needs max S values to repeat: past the search's
                    // reach, say so and how to go further.
                    Periodicity::Subtraction { max_take } if searched / 2 < max_take => format!(
                        "{spec} has no period proved on heaps 0..{searched}: its proof needs max S = {max_take} \
                         consecutive values to repeat, so more than {} values (no shorter proof applies to this set: \
                         `grundy period {spec} --max N` searches further)",
                        max_take.saturating_mul(2)
                    ),
                    _ => format!("{spec} has no period proved on heaps 0..{searched}"),
                },
                None => format!("{spec} has no period proved"),
            };
            return Err(self.control.too_large(format!("{why}; its nim-sequence up to heap {heap}"), bytes_needed));
        }
        self.heap_value(small.expect("a heap whose table fits in memory fits 64 bits")).map(BigUint::from)
    }

    /// The proved period of the game's nim-sequence, searched for (once) up to heap
    /// `min(heap, default_max_heap)`; `None` when none is proved there.
    ///
    /// # Errors
    /// [`GameError::TooLarge`] when that search would not fit in memory.
    pub fn proved_period(&self, heap: &BigUint) -> Result<Option<Period>, GameError> {
        if let Some(period) = *self.period.read().expect("period lock") {
            return Ok(Some(period));
        }
        let periodicity = self.game.periodicity();
        if periodicity == Periodicity::Unproved && self.game.known_period().is_none() {
            return Ok(None);
        }
        let mut max_heap =
            heap.to_u64().map_or(default_max_heap(periodicity), |heap| heap.min(default_max_heap(periodicity)));
        if self.game.known_period().is_none() {
            // The search is refused at once when its values up to `max_heap` (and a subtraction
            // game's windows: 5 bytes a heap) would not fit beside what the rest of the run
            // holds: search only as far as they fit (most periods are proved long before).
            let own = self.held.lock().expect("held lock").as_ref().map_or(0, Held::bytes);
            let room = self.control.memory_left().saturating_add(own);
            let fits = u64::try_from(room / 5).unwrap_or(u64::MAX).saturating_sub(1);
            max_heap = max_heap.min(fits);
        }
        let mut searched = self.searched_without_proof.lock().expect("search lock");
        if searched.is_some_and(|searched| searched >= max_heap) {
            return Ok(None);
        }
        let report = {
            let mut table = self.table.write().expect("table lock");
            let spec = self.game.spec();
            let task =
                self.control.task(&format!("the period of {spec}, searched up to heap {max_heap}"), PROGRESS_UNITS);
            let len = usize::try_from(max_heap).unwrap_or(usize::MAX).saturating_add(1);
            let control = self.reporting_values_to(task, len);
            let report =
                self.growing(&mut table, |table| find_period(&*self.game, table, max_heap, &control, &mut |_| {}))?;
            if report.interrupted {
                return Err(GameError::OutOfReach(format!(
                    "interrupted while searching the period of {spec} (heaps 0..{} done)",
                    table.len().saturating_sub(1)
                )));
            }
            report
        };
        match report.proved {
            Some((period, _)) => {
                *self.period.write().expect("period lock") = Some(period);
                Ok(Some(period))
            }
            None => {
                *searched = Some(report.examined.saturating_sub(1));
                Ok(None)
            }
        }
    }

    /// Whether moves from `heap` can be listed at all, decided from the heap alone, before any
    /// value is computed (so `moves grundys-game 5000000` is refused at once, not after the
    /// table up to 5000000 is built). [`HeapRules`]'s move listing gives the same errors.
    ///
    /// # Errors
    /// [`GameError::Unsupported`] naming the heap and the limit.
    pub fn check_moves_listable(&self, heap: &BigUint) -> Result<(), GameError> {
        // A closed form lists the moves to any value of any heap (Nim's heap of 10^30).
        if heap.to_u64().is_some_and(|small| small <= LISTED_HEAPS)
            || self.game.closed_form_moves(heap, &BigUint::ZERO).is_some()
        {
            return Ok(());
        }
        self.options(heap).map(drop)
    }

    /// Every option of `heap`, each as the heaps it leaves. Heaps up to [`LISTED_HEAPS`] list
    /// their options directly; a larger heap only when the game never splits it: then its
    /// options are a fixed set of heaps `heap − k`, read off a small heap beyond every
    /// removal (octal and subtraction rules do not depend on the heap's size there).
    fn options(&self, heap: &BigUint) -> Result<Vec<Vec<BigUint>>, GameError> {
        let to_big = |options: Vec<Vec<u64>>| -> Vec<Vec<BigUint>> {
            options.into_iter().map(|parts| parts.into_iter().map(BigUint::from).collect()).collect()
        };
        if let Some(small) = heap.to_u64().filter(|&small| small <= LISTED_HEAPS) {
            return Ok(to_big(self.game.heap_options(small)));
        }
        let spec = self.game.spec();
        let too_many = || {
            GameError::Unsupported(format!(
                "heap {heap} of {spec} can be split in about {} ways: too many options to list (moves are listed \
                 from heaps up to {LISTED_HEAPS}); `grundy value` still gives its value",
                heap / 2u32
            ))
        };
        let removal = match self.game.periodicity() {
            Periodicity::Subtraction { max_take } => max_take,
            Periodicity::Octal { max_removal, .. } => max_removal,
            Periodicity::Unproved => {
                return Err(GameError::Unsupported(format!(
                    "moves from heap {heap} of {spec}: only heaps up to {LISTED_HEAPS} are searched for moves in a \
                     game whose moves are not bounded; `grundy value` still gives its value"
                )));
            }
        };
        // A heap that is not beyond every removal (`sub:1,1048578` and heap 1048577): its
        // options are its rules' own, and no more than the game has removals.
        if let Some(small) = heap.to_u64().filter(|&small| small <= removal) {
            return Ok(to_big(self.game.heap_options(small)));
        }
        // Two heaps beyond every removal: if their option counts differ, moves split heaps.
        let reference = removal.checked_add(1).ok_or_else(too_many)?;
        let wider = reference.checked_mul(2).and_then(|twice| twice.checked_add(1)).ok_or_else(too_many)?;
        let reference_options = self.game.heap_options(reference);
        if self.game.heap_options(wider).len() != reference_options.len()
            || reference_options.iter().any(|parts| parts.len() != 1)
        {
            return Err(too_many());
        }
        let shift = heap - reference;
        Ok(reference_options.into_iter().map(|parts| vec![BigUint::from(parts[0]) + &shift]).collect())
    }
}

/// The move from `heap` to the heaps `option` leaves: `7 -> 2 + 3`, or `3 -> 0` when none.
fn heap_move(heap: &BigUint, option: Vec<BigUint>) -> ComponentMove<BigUint> {
    let parts: Vec<String> = option.iter().map(BigUint::to_string).collect();
    let notation = if parts.is_empty() { format!("{heap} -> 0") } else { format!("{heap} -> {}", parts.join(" + ")) };
    ComponentMove::new(option, notation)
}

impl<G: HeapGame + 'static> ComponentGame for HeapRules<G> {
    type Component = BigUint;

    fn spec(&self) -> String {
        self.game.spec()
    }

    fn parse_component(&self, text: &str) -> Result<BigUint, GameError> {
        parse_heap(&self.game.spec(), text)
    }

    fn format_component(&self, heap: &BigUint) -> String {
        heap.to_string()
    }

    fn value(&self, heap: &BigUint) -> Result<Value, GameError> {
        self.value_of(heap).map(Value::Finite)
    }

    fn check_moves_listable(&self, heap: &BigUint) -> Result<(), GameError> {
        HeapRules::check_moves_listable(self, heap)
    }

    fn moves_to_value(&self, heap: &BigUint, target: &BigUint) -> Result<Vec<ComponentMove<BigUint>>, GameError> {
        if let Some(options) = self.game.closed_form_moves(heap, target) {
            return Ok(options.into_iter().map(|option| heap_move(heap, vec![option])).collect());
        }
        if target.to_u32().is_none() {
            return Ok(Vec::new());
        }
        let mut moves = Vec::new();
        for option in self.options(heap)? {
            let mut value = BigUint::ZERO;
            for part in &option {
                value ^= self.value_of(part)?;
            }
            if value == *target {
                moves.push(heap_move(heap, option));
            }
        }
        Ok(moves)
    }

    fn for_each_move_to_value(
        &self,
        heap: &BigUint,
        target: &BigUint,
        visit: &mut dyn FnMut(ComponentMove<BigUint>) -> Result<(), GameError>,
    ) -> Result<(), GameError> {
        // A listed heap streams its options and stops when `visit` does, so that one reply
        // to each of a long row's options costs a few options, not the whole list.
        let listed = heap.to_u64().filter(|&small| small <= LISTED_HEAPS);
        let (Some(small), None) = (listed, self.game.closed_form_moves(heap, target)) else {
            return self.moves_to_value(heap, target)?.into_iter().try_for_each(visit);
        };
        let mut outcome = Ok(());
        let _ = self.game.try_for_each_heap_option(small, &mut |parts| {
            let step = (|| {
                let mut value = BigUint::ZERO;
                for &part in parts {
                    value ^= self.value_of(&BigUint::from(part))?;
                }
                if value == *target {
                    visit(heap_move(heap, parts.iter().map(|&part| BigUint::from(part)).collect()))?;
                }
                Ok(())
            })();
            match step {
                Ok(()) => std::ops::ControlFlow::Continue(()),
                Err(error) => {
                    outcome = Err(error);
                    std::ops::ControlFlow::Break(())
                }
            }
        });
        outcome
    }

    fn options(&self, heap: &BigUint, limit: usize) -> Result<Vec<ComponentMove<BigUint>>, GameError> {
        // Refused before anything is listed when the family knows how many there are.
        if self.game.option_count(heap).is_some_and(|count| count > BigUint::from(limit)) {
            return Err(too_many_moves(&self.game.spec(), &heap.to_string(), limit));
        }
        let options = self.options(heap)?;
        if options.len() > limit {
            return Err(too_many_moves(&self.game.spec(), &heap.to_string(), limit));
        }
        Ok(options.into_iter().map(|option| heap_move(heap, option)).collect())
    }

    fn describe_component(&self, heap: &BigUint) -> String {
        heap_bar(heap)
    }

    fn provide(self: Arc<Self>, request: &mut Request) {
        request.give::<NimSequence>(|| Arc::clone(&self.game) as Arc<dyn HeapGame>);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::period::tests::PlainOctal;
    use crate::heap::subtraction::{SubtractionGame, extend_sequence};
    use crate::ruleset::{MOVE_LIMIT, erase};
    use crate::testing::at;
    use proptest::prelude::*;

    fn big(text: &str) -> BigUint {
        text.parse().unwrap()
    }

    #[test]
    fn streamed_moves_to_a_value_are_the_listed_ones_and_stop_early() {
        let rules = HeapRules::new(crate::heap::octal::OctalGame::kayles());
        for heap in [0u32, 1, 7, 30, 71, 200, 1001] {
            let heap = BigUint::from(heap);
            for target in 0u32..10 {
                let target = BigUint::from(target);
                let mut streamed = Vec::new();
                rules
                    .for_each_move_to_value(&heap, &target, &mut |one| {
                        streamed.push(one.result);
                        Ok(())
                    })
                    .unwrap();
                let listed: Vec<Vec<BigUint>> =
                    rules.moves_to_value(&heap, &target).unwrap().into_iter().map(|one| one.result).collect();
                assert_eq!(streamed, listed, "heap {heap}, value {target}");
            }
        }
        // One reply is found among the first options, not after listing 50 000 of them: the
        // visit stops the walk, and an error it returns comes back.
        let heap =
            (100_000u32..).map(BigUint::from).find(|heap| rules.value_of(heap).unwrap() != BigUint::ZERO).unwrap();
        let mut calls = 0;
        // A move to 0 exists: the value is the mex of the options' values, and it is not 0.
        let stopped = rules.for_each_move_to_value(&heap, &BigUint::ZERO, &mut |_| {
            calls += 1;
            Err(GameError::Unsupported("enough".to_owned()))
        });
        assert_eq!(calls, 1);
        assert!(matches!(stopped, Err(GameError::Unsupported(message)) if message == "enough"));
    }

    #[test]
    fn one_budget_for_the_run_counts_the_tables_kept() {
        // Tables of 1.5·2^20 values (computed four bytes each) fit the limit alone, not beside another.
        let control = Control::default().with_memory_limit(7 << 20);
        let first = HeapRules::new(SubtractionGame::new(vec![1, 3, 4]).unwrap()).with_control(control.clone());
        let second = HeapRules::new(SubtractionGame::new(vec![2, 5]).unwrap()).with_control(control.clone());
        first.heap_value((1 << 20) - 1).unwrap();
        assert!(control.held_bytes() >= 1 << 20, "{}", control.held_bytes());
        let error = second.heap_value((1 << 20) + (1 << 19)).unwrap_err().to_string();
        assert!(error.contains("this run already holds") && error.contains("sub:2,5"), "{error}");
        // Growing a table counts it once: the first table grows within the same limit.
        first.heap_value((1 << 20) + (1 << 19)).unwrap();
        drop(first);
        assert_eq!(control.held_bytes(), 0);
        assert_eq!(second.heap_value((1 << 20) + (1 << 19)).unwrap(), 1); // period 0 0 1 1 0 2 1, and 2^20 + 2^19 ≡ 6 (mod 7)
    }

    #[test]
    fn huge_heaps_of_subtraction_games_take_the_period() {
        let rules = HeapRules::new(SubtractionGame::new(vec![1, 2]).unwrap());
        let heap =
            big("1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001");
        assert_eq!(rules.value_of(&heap).unwrap(), (&heap % 3u32));
        let moves = rules.moves_to_value(&heap, &BigUint::ZERO).unwrap();
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].result, [&heap - 2u32]);
        // The table stayed small: the proof needed heaps 0..4.
        assert!(rules.table.read().unwrap().len() < 1 << 17);
    }

    #[test]
    fn kayles_values_of_huge_heaps_and_refused_moves() {
        let rules = HeapRules::new(PlainOctal { digits: vec![0, 7, 7] });
        // Kayles: period 12 from 71; G(n) for n ≡ 4 (mod 12), n ≥ 71, is 1 (Winning Ways).
        let heap = big("1000000000000000000000000"); // 10^24 ≡ 4 (mod 12)
        assert_eq!(rules.value_of(&heap).unwrap(), 1u32.into());
        let error = rules.moves_to_value(&heap, &BigUint::ZERO).unwrap_err().to_string();
        assert!(error.contains("split") && error.contains("grundy value"), "{error}");
        // Through the front end, a sum of two huge heaps.
        let game = erase(HeapRules::new(PlainOctal { digits: vec![0, 7, 7] }));
        let position = at(&game, &[&heap.to_string(), &(heap + 1u32).to_string()]).unwrap();
        assert_eq!(position.value().unwrap().to_string(), "5"); // 1 ⊕ G(n ≡ 5) = 1 ⊕ 4
    }

    #[test]
    fn without_a_proof_huge_heaps_are_refused_with_the_size() {
        struct Unprovable;
        impl HeapGame for Unprovable {
            fn spec(&self) -> String {
                "unprovable".to_owned()
            }
            fn extend_sequence(&self, values: &mut CompactSequence, len: usize, _: &Control) -> crate::heap::Extended {
                while values.len() < len {
                    values.push((values.len() % 5) as u32);
                }
                Ok(true)
            }
            fn periodicity(&self) -> Periodicity {
                Periodicity::Unproved
            }
            fn heap_options(&self, _: u64) -> Vec<Vec<u64>> {
                Vec::new()
            }
        }
        let rules = HeapRules::new(Unprovable);
        assert_eq!(rules.value_of(&big("100000")).unwrap(), 0u32.into());
        let error = rules.value_of(&big("100000000000000000000")).unwrap_err().to_string();
        assert!(
            error.contains("no periodicity theorem covers unprovable") && error.contains("would need about"),
            "{error}"
        );
    }

    /// Heaps near the sizes where the listing changes method (2^20, 2^32) and near 10^9, and
    /// small ones.
    fn awkward_number() -> impl Strategy<Value = u64> {
        let near = |centre: u64| (0u64..6).prop_map(move |offset| centre - 3 + offset);
        prop_oneof![1u64..20, near(LISTED_HEAPS), near(1 << 32), near(1_000_000_000)]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The options of any heap of any subtraction game are its rules' (`heap - s` for every
        /// `s` of the set the heap holds), with elements past the heap and heaps past 2^20 and
        /// 2^32: listing them needs no value and never subtracts past zero.
        #[test]
        fn options_of_awkward_heaps_are_the_rules(
            set in proptest::collection::btree_set(awkward_number(), 1..5),
            heap in awkward_number(),
        ) {
            let game = SubtractionGame::new(set.iter().copied().collect()).unwrap();
            let rules = HeapRules::new(game);
            let heap = BigUint::from(heap);
            let listed: Vec<Vec<BigUint>> =
                ComponentGame::options(&rules, &heap, MOVE_LIMIT).unwrap().into_iter().map(|m| m.result).collect();
            let expected: Vec<Vec<BigUint>> =
                set.iter().filter(|&&take| BigUint::from(take) <= heap).map(|&take| vec![&heap - take]).collect();
            prop_assert_eq!(listed, expected);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]

        #[test]
        fn extrapolated_values_and_moves_match_the_table(
            set in proptest::collection::btree_set(1u64..50, 1..5),
            heaps in proptest::collection::vec(DIRECT_HEAPS..2 * DIRECT_HEAPS, 1..20),
        ) {
            let game = SubtractionGame::new(set.into_iter().collect()).unwrap();
            let mut values = Vec::new();
            extend_sequence(game.set(), &mut values, 2 * DIRECT_HEAPS as usize);
            let rules = HeapRules::new(game.clone());
            for &heap in &heaps {
                prop_assert_eq!(rules.value_of(&heap.into()).unwrap(), BigUint::from(values[heap as usize]));
            }
            // Past the listed heaps, moves come from the shifted reference heap.
            let far = BigUint::from(LISTED_HEAPS) * 1000u32 + heaps[0];
            let target = rules.value_of(&far).unwrap() ^ BigUint::from(1u32);
            let moves = rules.moves_to_value(&far, &target).unwrap();
            let expected: Vec<BigUint> = game.set().elements().iter()
                .map(|&take| &far - take)
                .filter(|option| rules.value_of(option).unwrap() == target)
                .collect();
            let found: Vec<BigUint> = moves.into_iter().map(|m| m.result[0].clone()).collect();
            prop_assert_eq!(found, expected);
        }
    }
}
