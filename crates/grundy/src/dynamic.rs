//! The k-times dynamic subtraction game (`dynamic:K`, 动态减法; `fibonacci-nim` is
//! `dynamic:2`, Fibonacci Nim, 斐波那契博弈): one heap; the first move takes 1 to `n − 1`
//! counters (not the whole heap), and after a move that took `t`, the next may take 1 to `K·t`.
//! Whoever cannot move loses (so whoever takes the last counter wins). A component `n` is a
//! fresh heap (a heap of 0 or 1 has no first move); `n,k` is a heap from which at most `k` may
//! be taken now.
//!
//! # The outcomes
//! **Theorem** (Whinihan, *Fibonacci Nim*, Fibonacci Quarterly 1 (1963) 9–13, for `K = 2`;
//! Schwenk, *Take-away games*, Fibonacci Quarterly 8 (1970) 225–234, for any `K`). Let
//! `H_1 = 1` and `H_{i+1} = H_i + H_j` with `j` the least index such that `K·H_j >= H_i`
//! (`K = 1`: the powers of 2; `K = 2`: the Fibonacci numbers 1, 2, 3, 5, 8, …). Write `n` as
//! the greedy sum of terms (take the largest `H_i <= n`, repeat on the rest); its smallest term
//! `s(n)` decides: `n,k` is a P-position iff `k < s(n)` (or `n = 0`). So a fresh heap `n`
//! (`k = n − 1`) is a P-position iff `n` is a term `H_i` (Zeckendorf's theorem for `K = 2`: P
//! iff `n` is a Fibonacci number). The winning moves from `n,k` take the sum of the smallest few
//! terms of `n`'s representation, those sums `t <= k` that leave `k' = K·t` below `s(n − t)`:
//! any winning move leaves `m = n − t` with `K·t < s(m)`, so `t`'s own terms are below
//! `s(m)/K` and `n`'s greedy representation is `m`'s followed by `t`'s.
//!
//! The tests check the criterion and the winning moves against the rules (the mex over
//! [`ComponentGame::options`]) on every `n,k` with `n <= 200` for `K = 1..=6`.
//!
//! # Values
//! The Grundy values have no closed form here: they come from the definition on the table of
//! every `m,j` with `j <= m <= n` (`G(m, j) = mex{G(m − t, min(K·t, m − t)) : 1 <= t <= j}`,
//! row by row with a growing mex), while `n` is at most [`VALUE_HEAP_LIMIT`] and the table
//! within the run's memory limit.

use crate::control::{Control, Held};
use crate::error::GameError;
use crate::ruleset::{ComponentGame, ComponentMove, Request, too_many_moves};
use crate::value::{Outcome, Value};
use crate::view::{PPositionSamples, SamplesPPositions};
use std::sync::{Arc, Mutex};

/// The largest heap whose value is computed by the definition (its table holds about
/// `n²/2` values and takes `n²/2` steps).
pub const VALUE_HEAP_LIMIT: u128 = 8192;

/// The largest heap read: the answers by the theorem are exact up to here (`10^30`).
pub const HEAP_LIMIT: u128 = 1_000_000_000_000_000_000_000_000_000_000;

/// The largest multiplier `K` (the sequence `H` has about `K·ln n` terms below `n`).
pub const MULTIPLIER_LIMIT: u64 = 1_000_000;

/// The most terms of the sequence `H` kept (16 bytes each): for `K = 10^5` the terms below
/// `10^8` (HDU 2486's bounds) are about `7·10^5`.
pub const TERM_LIMIT: usize = 1 << 22;

/// One heap of the game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DynamicHeap {
    /// A fresh heap `n`: the first move takes 1 to `n − 1`.
    Fresh(u128),
    /// `n,k`: a heap of `n` from which 1 to `k` may be taken now.
    Limited(u128, u128),
}

impl DynamicHeap {
    /// The heap's size and the most a move may take now.
    fn size_and_most(&self) -> (u128, u128) {
        match *self {
            DynamicHeap::Fresh(size) => (size, size.saturating_sub(1)),
            DynamicHeap::Limited(size, most) => (size, most.min(size)),
        }
    }
}

/// The k-times dynamic subtraction game with multiplier `K`.
///
/// ```
/// use grundy::registry::parse_sum;
/// // Fibonacci Nim: a fresh heap of 8 (a Fibonacci number) is lost by the player to move.
/// assert_eq!(parse_sum(&["fibonacci-nim", "8"]).unwrap().outcome().unwrap().to_string(), "P");
/// // 10 = 8 + 2: take 2, leaving 8 with at most 4 to take.
/// let position = parse_sum(&["fibonacci-nim", "10"]).unwrap();
/// let moves = position.winning_moves().unwrap();
/// assert_eq!(position.after(&moves[0]).to_text(), "8,4");
/// // Heaps up to 10^30 by the theorem.
/// let far = parse_sum(&["dynamic:3", "1000000000000000000"]).unwrap();
/// assert_eq!(far.outcome().unwrap().to_string(), "N");
/// ```
pub struct DynamicSubtraction {
    multiplier: u64,
    /// The terms `H_1 < H_2 < …` computed so far.
    terms: Mutex<Vec<u128>>,
    /// The last table of values: `table[m(m+1)/2 + j] = G(m, j)`, `j <= m < side`.
    table: Mutex<Option<Arc<Vec<u32>>>>,
    /// The last table's bytes, counted against the run's one memory budget while it is kept.
    table_held: Mutex<Option<Held>>,
    control: Control,
}

impl DynamicSubtraction {
    /// The game with multiplier `K` (`1 <= K <= MULTIPLIER_LIMIT`).
    pub fn new(multiplier: u64) -> Self {
        DynamicSubtraction {
            multiplier: multiplier.clamp(1, MULTIPLIER_LIMIT),
            terms: Mutex::new(vec![1]),
            table: Mutex::new(None),
            table_held: Mutex::new(None),
            control: Control::default(),
        }
    }

    /// Reads the parameter `K` of `dynamic:K`.
    ///
    /// # Errors
    /// [`GameError::BadGame`] unless `1 <= K <= MULTIPLIER_LIMIT`.
    pub fn parse(text: &str, parameter: &str) -> Result<Self, GameError> {
        let bad = |reason: String| GameError::BadGame { spec: text.to_owned(), reason };
        let multiplier: u64 = parameter
            .parse()
            .map_err(|_| bad(format!("`{parameter}` is not K, the whole number a move's take is multiplied by")))?;
        if !(1..=MULTIPLIER_LIMIT).contains(&multiplier) {
            return Err(bad(format!("K = {multiplier}: K is a whole number from 1 to {MULTIPLIER_LIMIT}")));
        }
        Ok(DynamicSubtraction::new(multiplier))
    }

    /// This game computing its tables under `control`.
    #[must_use]
    pub fn with_control(mut self, control: Control) -> Self {
        self.control = control;
        self
    }

    /// The greedy representation of `n` (largest term first) in the sequence `H`.
    ///
    /// # Errors
    /// [`GameError::OutOfReach`] when the terms up to `n` are more than [`TERM_LIMIT`] (a large
    /// `K` with a huge `n`), [`GameError::TooLarge`] past the memory limit.
    pub fn representation(&self, mut n: u128) -> Result<Vec<u128>, GameError> {
        let mut terms = self.terms.lock().expect("terms lock");
        while *terms.last().expect("H_1") <= n {
            if terms.len() >= TERM_LIMIT {
                return Err(GameError::OutOfReach(format!(
                    "{} needs more than {TERM_LIMIT} terms of its sequence H to write {n}: a heap this large with \
                     K = {} is out of reach",
                    self.spec(),
                    self.multiplier
                )));
            }
            if terms.len() == terms.capacity() {
                let more = terms.len();
                self.control.check_memory(|| format!("the sequence H of {}", self.spec()), (2 * more) as u128, 16)?;
                self.control.try_reserve_table(&mut terms, more, || format!("the sequence H of {}", self.spec()))?;
            }
            let last = *terms.last().expect("H_1");
            let multiplier = u128::from(self.multiplier);
            // The least j with K·H_j >= H_i (the terms are increasing: a binary search).
            let j = terms.partition_point(|&term| term * multiplier < last);
            let next = last + terms[j];
            terms.push(next);
        }
        let mut parts = Vec::new();
        for &term in terms.iter().rev() {
            if term <= n {
                parts.push(term);
                n -= term;
            }
        }
        Ok(parts)
    }

    /// The theorem: whether `n,k` is a P-position.
    ///
    /// # Errors
    /// As [`DynamicSubtraction::representation`].
    pub fn is_p_position(&self, size: u128, most: u128) -> Result<bool, GameError> {
        Ok(size == 0 || self.representation(size)?.last().is_some_and(|&smallest| most.min(size) < smallest))
    }

    fn move_of(&self, heap: &DynamicHeap, take: u128) -> ComponentMove<DynamicHeap> {
        let (size, _) = heap.size_and_most();
        let next_most = take * u128::from(self.multiplier);
        let (result, detail) = if take == size {
            (Vec::new(), format!(" (take all {take})"))
        } else {
            (
                vec![DynamicHeap::Limited(size - take, next_most)],
                format!(" (take {take}; the next move takes at most {next_most})"),
            )
        };
        let shown = match result.first() {
            Some(after) => self.format_component(after),
            None => "0".to_owned(),
        };
        ComponentMove { notation: format!("{} -> {shown}", self.format_component(heap)), result, detail }
    }

    /// The table of `G(m, j)` for `j <= m < side`, computed by the definition.
    fn table_covering(&self, size: u128) -> Result<Arc<Vec<u32>>, GameError> {
        let rows = |table: &Vec<u32>| ((8 * table.len() + 1).isqrt() - 1) / 2;
        if let Some(table) = self.table.lock().expect("table lock").as_ref()
            && rows(table) as u128 > size
        {
            return Ok(table.clone());
        }
        if size > VALUE_HEAP_LIMIT {
            return Err(GameError::OutOfReach(format!(
                "the Grundy value of a heap of {size} in {} is out of reach: values are computed by the definition \
                 only for heaps up to {VALUE_HEAP_LIMIT}; its outcome and winning moves are exact by the theorem \
                 (`grundy outcome`, `grundy moves`)",
                self.spec()
            )));
        }
        let side = (size as usize + 1).next_multiple_of(64).min(VALUE_HEAP_LIMIT as usize + 1);
        let entries = side * (side + 1) / 2;
        let what = || format!("the values of {} up to a heap of {}", self.spec(), side - 1);
        self.control.check_memory(what, entries as u128, 4)?;
        let mut table = self.control.try_table(entries, 0u32, what)?;
        let multiplier = self.multiplier as usize;
        let mut seen = vec![false; side + 2];
        for size in 1..side {
            if self.control.cancelled() {
                return Err(GameError::Unsupported("cancelled".to_owned()));
            }
            seen[..=size + 1].fill(false);
            let mut least = 0usize;
            for take in 1..=size {
                let left = size - take;
                let value = table[left * (left + 1) / 2 + (take.saturating_mul(multiplier)).min(left)] as usize;
                if value <= size {
                    seen[value] = true;
                }
                while seen[least] {
                    least += 1;
                }
                table[size * (size + 1) / 2 + take] = least as u32;
            }
        }
        let table = Arc::new(table);
        *self.table.lock().expect("table lock") = Some(table.clone());
        *self.table_held.lock().expect("held lock") = Some(self.control.hold(entries as u128 * 4));
        Ok(table)
    }
}

/// The fresh heaps that are P-positions: `0`, and the terms `H_i` (the module's theorem: a fresh
/// heap `n` is P iff `n` is a term; for Fibonacci Nim, the Fibonacci numbers).
impl PPositionSamples for DynamicSubtraction {
    fn p_positions_up_to(&self, most: u128, limit: usize) -> Result<Vec<String>, GameError> {
        let most = most.min(HEAP_LIMIT);
        self.representation(most)?;
        let terms = self.terms.lock().expect("terms lock");
        let below = terms.partition_point(|&term| term <= most);
        let mut positions: Vec<String> =
            terms[below.saturating_sub(limit)..below].iter().map(u128::to_string).collect();
        if positions.len() < limit {
            positions.insert(0, "0".to_owned());
        }
        Ok(positions)
    }
}

impl ComponentGame for DynamicSubtraction {
    fn provide(self: Arc<Self>, request: &mut Request) {
        request.give::<SamplesPPositions>(|| self as Arc<dyn PPositionSamples>);
    }

    type Component = DynamicHeap;

    fn spec(&self) -> String {
        format!("dynamic:{}", self.multiplier)
    }

    fn parse_component(&self, text: &str) -> Result<DynamicHeap, GameError> {
        let bad = |reason: String| GameError::BadComponent { game: self.spec(), text: text.to_owned(), reason };
        let number = |part: &str, limit: u128| {
            if part.is_empty() || !part.bytes().all(|byte| byte.is_ascii_digit()) {
                return Err(bad(
                    "a heap is `n` (a fresh heap) or `n,k` (at most k may be taken now), whole numbers like `10` or `8,4`"
                        .to_owned(),
                ));
            }
            part.parse::<u128>()
                .ok()
                .filter(|&number| number <= limit)
                .ok_or_else(|| bad(format!("`{part}` is past the largest heap or limit read, {limit}")))
        };
        match text.split_once(',') {
            None => Ok(DynamicHeap::Fresh(number(text, HEAP_LIMIT)?)),
            Some((size, most)) => Ok(DynamicHeap::Limited(
                number(size, HEAP_LIMIT)?,
                number(most, HEAP_LIMIT * u128::from(MULTIPLIER_LIMIT))?,
            )),
        }
    }

    fn format_component(&self, heap: &DynamicHeap) -> String {
        match heap {
            DynamicHeap::Fresh(size) => size.to_string(),
            DynamicHeap::Limited(size, most) => format!("{size},{most}"),
        }
    }

    /// **The rules**: take `t`, `1 <= t <= k` (a fresh heap: `t <= n − 1`), leaving `n − t`
    /// from which at most `K·t` may be taken.
    fn options(&self, heap: &DynamicHeap, limit: usize) -> Result<Vec<ComponentMove<DynamicHeap>>, GameError> {
        let (_, most) = heap.size_and_most();
        if most > limit as u128 {
            return Err(too_many_moves(&self.spec(), &self.format_component(heap), limit));
        }
        Ok((1..=most).map(|take| self.move_of(heap, take)).collect())
    }

    fn value(&self, heap: &DynamicHeap) -> Result<Value, GameError> {
        let (size, most) = heap.size_and_most();
        if most == 0 {
            return Ok(Value::from(0u64));
        }
        let table = self.table_covering(size)?;
        let (size, most) = (size as usize, most as usize);
        Ok(Value::from(u64::from(table[size * (size + 1) / 2 + most])))
    }

    fn outcome(&self, heap: &DynamicHeap) -> Result<Outcome, GameError> {
        let (size, most) = heap.size_and_most();
        Ok(if self.is_p_position(size, most)? { Outcome::P } else { Outcome::N })
    }

    /// The sums of the smallest terms of `n`'s representation that win (the module doc).
    fn moves_to_p(&self, heap: &DynamicHeap) -> Result<Vec<ComponentMove<DynamicHeap>>, GameError> {
        let (size, most) = heap.size_and_most();
        let multiplier = u128::from(self.multiplier);
        let mut moves = Vec::new();
        let mut take = 0u128;
        for term in self.representation(size)?.into_iter().rev() {
            take += term;
            if take > most {
                break;
            }
            if self.is_p_position(size - take, take * multiplier)? {
                moves.push(self.move_of(heap, take));
            }
        }
        Ok(moves)
    }

    fn p_position_reason(&self, heap: &DynamicHeap) -> Option<String> {
        let (size, most) = heap.size_and_most();
        if most == 0 {
            return None;
        }
        let smallest = *self.representation(size).ok()?.last()?;
        (most < smallest).then(|| {
            let terms = self.terms.lock().expect("terms lock");
            let first: Vec<String> = terms.iter().take(6).map(u128::to_string).collect();
            let theorem = if self.multiplier == 2 { "Zeckendorf's representation; Whinihan" } else { "Schwenk" };
            format!(
                "{} is a P-position: the smallest term of {size} written greedily in H = {}, … (H_{{i+1}} = H_i + H_j, \
                 j least with {}·H_j >= H_i) is {smallest}, more than the {most} that may be taken ({theorem})",
                self.format_component(heap),
                first.join(", "),
                self.multiplier
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `n,k` with `k <= n <= side`: whether the player to move wins, by the rules.
    fn wins_by_the_rules(multiplier: usize, side: usize) -> Vec<Vec<bool>> {
        let mut wins = vec![vec![false; side + 1]; side + 1];
        for size in 1..=side {
            for most in 1..=size {
                wins[size][most] = (1..=most).any(|take| !wins[size - take][(take * multiplier).min(size - take)]);
            }
        }
        wins
    }

    #[test]
    fn sampled_p_positions_are_the_fresh_heaps_lost_by_the_rules() {
        let side = 200;
        for multiplier in (1..=6u64).chain([50]) {
            let game = DynamicSubtraction::new(multiplier);
            let wins = wins_by_the_rules(multiplier as usize, side);
            // A fresh heap n may take 1 to n − 1 (n ≥ 2); 0 and 1 have no move.
            let lost: Vec<String> =
                (0..=side).filter(|&size| size < 2 || !wins[size][size - 1]).map(|size| size.to_string()).collect();
            let sampled = game.p_positions_up_to(side as u128, usize::MAX).unwrap();
            assert_eq!(sampled, lost, "K={multiplier}");
            let last_three = game.p_positions_up_to(side as u128, 3).unwrap();
            assert_eq!(last_three, lost[lost.len() - 3..], "K={multiplier}");
            for text in &sampled {
                let heap = game.parse_component(text).unwrap();
                assert_eq!(game.outcome(&heap).unwrap(), Outcome::P, "K={multiplier} {text}");
            }
        }
    }

    #[test]
    fn the_theorem_and_its_winning_moves_are_the_rules() {
        let side = 200;
        for multiplier in (1..=6u64).chain([50, 1000]) {
            let game = DynamicSubtraction::new(multiplier);
            let wins = wins_by_the_rules(multiplier as usize, side);
            for size in 0..=side {
                for most in 0..=size {
                    let heap = DynamicHeap::Limited(size as u128, most as u128);
                    assert_eq!(
                        !game.is_p_position(size as u128, most as u128).unwrap(),
                        wins[size][most],
                        "K={multiplier} {size},{most}"
                    );
                    let expected: Vec<u128> = (1..=most)
                        .filter(|&take| !wins[size - take][(take * multiplier as usize).min(size - take)])
                        .map(|take| take as u128)
                        .collect();
                    let mut found: Vec<u128> = game
                        .moves_to_p(&heap)
                        .unwrap()
                        .iter()
                        .map(|one| size as u128 - one.result.first().map_or(0, |after| after.size_and_most().0))
                        .collect();
                    found.sort_unstable();
                    assert_eq!(found, expected, "K={multiplier} {size},{most}");
                }
            }
        }
    }

    #[test]
    fn the_values_are_the_mex_over_the_rules() {
        for multiplier in 1..=4u64 {
            let game = DynamicSubtraction::new(multiplier);
            let side = 60usize;
            let mut values = vec![vec![0u64; side + 1]; side + 1];
            for size in 1..=side {
                for most in 1..=size {
                    values[size][most] = crate::nimber::mex(
                        (1..=most).map(|take| values[size - take][(take * multiplier as usize).min(size - take)]),
                    );
                    let heap = DynamicHeap::Limited(size as u128, most as u128);
                    assert_eq!(
                        game.value(&heap).unwrap(),
                        Value::from(values[size][most]),
                        "K={multiplier} {size},{most}"
                    );
                }
            }
        }
    }

    #[test]
    fn fibonacci_nim_and_far_heaps() {
        let game = DynamicSubtraction::new(2);
        let fibonacci: Vec<u128> = (1..30).filter(|&n| game.is_p_position(n, n - 1).unwrap()).collect();
        assert_eq!(fibonacci, [1, 2, 3, 5, 8, 13, 21]);
        let far = DynamicHeap::Fresh(1_000_000_000_000_000_000);
        assert_eq!(game.outcome(&far).unwrap(), Outcome::N);
        let moves = game.moves_to_p(&far).unwrap();
        assert!(!moves.is_empty());
        for one in &moves {
            assert_eq!(game.outcome(&one.result[0]).unwrap(), Outcome::P);
        }
        let error = game.value(&far).unwrap_err().to_string();
        assert!(error.contains("out of reach"), "{error}");
        // HDU 2486's sizes: K up to 10^5, n up to 10^8, at once.
        let wide = DynamicSubtraction::new(100_000);
        let heap = DynamicHeap::Fresh(100_000_000);
        for one in wide.moves_to_p(&heap).unwrap() {
            assert_eq!(wide.outcome(&one.result[0]).unwrap(), Outcome::P);
        }
        // Past the sequence's bound: refused in one line.
        let widest = DynamicSubtraction::new(MULTIPLIER_LIMIT);
        let error = widest.outcome(&DynamicHeap::Fresh(HEAP_LIMIT)).unwrap_err().to_string();
        assert!(error.contains("out of reach") && error.contains("terms"), "{error}");
        assert!(game.parse_component("10,x").unwrap_err().to_string().contains("`8,4`"));
        assert!(DynamicSubtraction::parse("dynamic:0", "0").err().unwrap().to_string().contains("K = 0"));
    }
}
