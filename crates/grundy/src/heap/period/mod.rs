//! Periods of nim-sequences: the smallest period `p` and, for it, the smallest preperiod `e`
//! with `G(n + p) = G(n)` for every `n ≥ e`, found on a computed prefix and **proved** by the
//! theorem the game's [`Periodicity`] names — never guessed.
//!
//! # The proofs
//! - **Octal games** ([`Periodicity::Octal`], moves remove at most `t` tokens and leave at most
//!   two heaps). The periodicity theorem (Guy and Smith 1956; *Winning Ways* ch. 4; Siegel,
//!   *Combinatorial Game Theory* IV.2): if `G(n + p) = G(n)` for all `e ≤ n < 2e + p + t`, then
//!   for all `n ≥ e`. In the induction step a two-heap option `a + b` of `N + p` (`b ≥ a`) has
//!   `b − p ≥ e`, so that `b − p` must stay a *non-empty* heap: this module applies the theorem
//!   with `e' = max(e, 1)`, i.e. it checks `e' ≤ n < 2e' + p + t` (two more values when `e = 0`;
//!   periodicity from `e` then follows from periodicity from `e'` and the checked `G(e + p) =
//!   G(e)`). Read with `e = 0`, the theorem is false: 0.4 is `0 0 0 1 …`, and its first three
//!   values would "prove" period 1. The prefix used is `G(0) … G(2e' + 2p + t − 1)`.
//! - **Subtraction games** ([`Periodicity::Subtraction`], largest move `m`): for `n ≥ m`, `G(n)`
//!   is a fixed function of the `m` values before it, so the windows `W(i) = G(i) … G(i + m − 1)`
//!   follow a deterministic state machine. The first window that repeats an earlier one,
//!   `W(b) = W(a)`, gives the minimal period `p = b − a` and the minimal preperiod `e = a` (the
//!   windows `W(a − 1)` and `W(a − 1 + p)` differ, and only in their first value). It is found
//!   with a rolling hash of the last `m` values and a hash table of (a sample of) the windows
//!   seen, every hit checked value by value, in time linear in `e + p + m` — no quadratic scan.
//!   The prefix used is `G(0) … G(e + p + m − 1)`.
//! - **Closed forms** ([`HeapGame::known_period`]): Nim's `G(n) = n` and Bash's
//!   `G(n) = n mod (M + 1)` are theorems; the computed prefix is checked against them.
//!
//! A sequence may instead grow by a fixed amount each period, `G(n + p) = G(n) + s` with
//! saltus `s > 0` (arithmetic periodicity). No theorem here proves that from a finite prefix, so
//! such a pattern is only ever reported as *observed*.
//!
//! # Minimality
//! Any proved period `p` is a multiple of the true minimal period `p*`, and every eventual
//! period has the same minimal preperiod `e*`. For octal games the candidates `p` are tried in
//! increasing order and for each the smallest `e` consistent with the prefix is taken (a scan
//! from the end of the prefix); the first candidate the theorem proves is `p*` with `e*`,
//! because the proof condition for `(e*, p*)` is the weakest among all true pairs.

use crate::control::Control;
use crate::error::GameError;
use crate::heap::sequence::CompactSequence;
use crate::heap::{HeapGame, Periodicity};
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::fmt;

/// A pattern `G(n + period) = G(n) + saltus` for all `n ≥ preperiod`, and how it is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    /// `e`: the pattern holds from heap `e` on.
    pub preperiod: u64,
    /// `p ≥ 1`.
    pub period: u64,
    /// `s`: how much the values grow each period (0 for an ordinary period).
    pub saltus: u64,
    /// Whether a theorem proves the pattern for every heap (otherwise it was only observed on
    /// the prefix).
    pub proved: bool,
    /// The last heap whose value the proof (or the observation) compared.
    pub checked_to: u64,
}

impl Period {
    /// `G(heap)` for a heap of any size, from the values `G(0) … G(e + p − 1)` (or more) and
    /// the pattern. `None` when `values` is too short.
    ///
    /// ```
    /// use grundy::heap::period::Period;
    /// // sub:1,2 has G(n) = n mod 3.
    /// let period = Period { preperiod: 0, period: 3, saltus: 0, proved: true, checked_to: 4 };
    /// let heap: num_bigint::BigUint = "1000000000000000000000000000001".parse().unwrap();
    /// let values = grundy::heap::CompactSequence::from_values(&[0, 1, 2]);
    /// assert_eq!(period.value_at(&values, &heap).unwrap(), 2u32.into()); // 10^30 + 1 ≡ 2 (mod 3)
    /// ```
    pub fn value_at(&self, values: &CompactSequence, heap: &BigUint) -> Option<BigUint> {
        if let Some(value) = heap.to_usize().and_then(|index| values.get(index)) {
            return Some(value.into());
        }
        let start = usize::try_from(self.preperiod).ok()?;
        let period = usize::try_from(self.period).ok()?;
        if values.len() < start.checked_add(period)? || *heap < BigUint::from(self.preperiod) {
            return None;
        }
        let beyond = heap - self.preperiod;
        let offset = (&beyond % self.period).to_usize().expect("a remainder below the period");
        let laps = beyond / self.period;
        Some(BigUint::from(values.get(start + offset)?) + laps * self.saltus)
    }
}

impl fmt::Display for Period {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "period {}, preperiod {}", self.period, self.preperiod)?;
        if self.saltus != 0 {
            write!(f, ", saltus {}", self.saltus)?;
        }
        Ok(())
    }
}

/// The argument that proves a [`Period`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The octal periodicity theorem: `G(n + p) = G(n)` was checked for all `from ≤ n < bound`,
    /// `from = max(e, 1)`, `bound = j·from + (j − 1)·p + t`.
    Octal {
        /// `t`, the most tokens a move removes.
        max_removal: u64,
        /// `j`, the most heaps a move leaves.
        max_parts: u64,
        /// The first `n` compared.
        from: u64,
        /// One past the last `n` compared: `j·from + (j − 1)·p + t`.
        bound: u64,
    },
    /// The window argument: the `max_take` values from heap `e` repeat from heap `e + p`.
    Window {
        /// The largest move, the window's length.
        max_take: u64,
    },
    /// A closed form of the game's values, checked on the prefix computed.
    ClosedForm {
        /// The closed form and its source.
        theorem: String,
    },
}

/// A pattern known from a game's closed form rather than from a finite check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownPeriod {
    /// `e`.
    pub preperiod: u64,
    /// `p ≥ 1`.
    pub period: u64,
    /// `s`.
    pub saltus: u64,
    /// The closed form and its source, e.g. `G(n) = n (Bouton 1901)`.
    pub theorem: String,
}

/// What a period search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeriodReport {
    /// The theorem the game offers.
    pub periodicity: Periodicity,
    /// The proved pattern (`proved == true`), with its proof.
    pub proved: Option<(Period, Proof)>,
    /// When nothing is proved: the smallest pattern the prefix shows over at least half its
    /// length (`2e + 2p ≤` the values examined), reported as observed, never as a result.
    pub observed: Option<Period>,
    /// How many values were examined: heaps `0 … examined − 1`.
    pub examined: u64,
    /// Whether the search stopped early at the control's cancel flag.
    pub interrupted: bool,
}

/// How far `grundy period` looks by default (the last heap computed) when nothing is proved
/// earlier: subtraction games are cheap per value, splitting games are not.
pub fn default_max_heap(periodicity: Periodicity) -> u64 {
    match periodicity {
        Periodicity::Subtraction { .. } => (1 << 24) - 1,
        // Three-way splits cost O(n² · V/64) with values V growing about like n (0.8F to 8191
        // takes about a second): keep the default search to seconds.
        Periodicity::Octal { max_parts: 3.., .. } => (1 << 13) - 1,
        Periodicity::Octal { .. } => (1 << 21) - 1,
        Periodicity::Unproved => (1 << 20) - 1,
    }
}

/// The last heap whose value a proof of `(e, p)` with saltus 0 needs, under `periodicity`.
///
/// ```
/// use grundy::heap::Periodicity;
/// use grundy::heap::period::proof_needs;
/// // Kayles (t = 2), period 12 from 71: G(n + 12) = G(n) for 71 ≤ n < 156, heaps to 167.
/// assert_eq!(proof_needs(Periodicity::Octal { max_removal: 2, max_parts: 2 }, 71, 12), Some(167));
/// assert_eq!(proof_needs(Periodicity::Subtraction { max_take: 2 }, 0, 3), Some(4));
/// assert_eq!(proof_needs(Periodicity::Unproved, 0, 3), None);
/// ```
pub fn proof_needs(periodicity: Periodicity, preperiod: u64, period: u64) -> Option<u64> {
    match periodicity {
        Periodicity::Octal { max_removal, max_parts } => {
            let from = preperiod.max(1);
            from.checked_mul(max_parts)?
                .checked_add(period.checked_mul(max_parts)?)?
                .checked_add(max_removal)?
                .checked_sub(1)
        }
        Periodicity::Subtraction { max_take } => preperiod.checked_add(period)?.checked_add(max_take)?.checked_sub(1),
        Periodicity::Unproved => None,
    }
}

/// Extends `values` (a correct prefix of `game`'s nim-sequence, perhaps empty, perhaps read
/// from a checkpoint) as far as needed, at most to heap `max_heap`, until a period is proved;
/// see the [module documentation](self) for the proofs. `after_segment` is called with the
/// values after each stretch computed (to save a checkpoint, say). The values are kept (and
/// read by the proof) one byte each while they fit, and octal games and Grundy's game extend
/// them in place: for `.354` (proved from 2·10^7 values) a fifth of the memory of `u32`s.
///
/// # Errors
/// [`GameError::TooLarge`] when the values (and, for subtraction games, the window table) to
/// heap `max_heap` would not fit in memory (checked before anything is computed).
///
/// ```
/// use grundy::heap::period::find_period;
/// use grundy::heap::subtraction::SubtractionGame;
/// use grundy::control::Control;
/// use grundy::heap::CompactSequence;
/// // S = {2, 5}: 0 0 1 1 0 2 1 0 0 1 1 0 2 1 … has period 7 from heap 0.
/// let game = SubtractionGame::new(vec![2, 5]).unwrap();
/// let mut values = CompactSequence::new();
/// let report = find_period(&game, &mut values, 1000, &Control::default(), &mut |_| {}).unwrap();
/// let (period, _proof) = report.proved.unwrap();
/// assert_eq!((period.preperiod, period.period, period.saltus), (0, 7, 0));
/// assert_eq!(period.checked_to, 11); // the windows G(0..5) and G(7..12) agree
///
/// // Kayles: period 12 from heap 71 (Guy and Smith 1956), its values one byte each.
/// use grundy::heap::octal::OctalGame;
/// let mut values = CompactSequence::new();
/// let report = find_period(&OctalGame::kayles(), &mut values, 1000, &Control::default(), &mut |_| {}).unwrap();
/// let (period, _proof) = report.proved.unwrap();
/// assert_eq!((period.preperiod, period.period), (71, 12));
/// assert_eq!(values.width(), 1);
/// ```
pub fn find_period(
    game: &dyn HeapGame,
    values: &mut CompactSequence,
    max_heap: u64,
    control: &Control,
    after_segment: &mut dyn FnMut(&CompactSequence),
) -> Result<PeriodReport, GameError> {
    search(game, Store { values, after_segment }, max_heap, control)
}

fn search(game: &dyn HeapGame, store: Store, max_heap: u64, control: &Control) -> Result<PeriodReport, GameError> {
    let cap = usize::try_from(max_heap.saturating_add(1)).unwrap_or(usize::MAX);
    let periodicity = game.periodicity();
    // Refuse at once rather than after hours: the values (and the subtraction games' table of
    // windows, under a byte a value) up to the bound must fit.
    let bytes_each = if matches!(periodicity, Periodicity::Subtraction { .. }) { 5 } else { 4 };
    if game.known_period().is_none() {
        control.check_memory(
            || format!("the nim-sequence of {} up to heap {max_heap} (--max)", game.spec()),
            u128::from(max_heap) + 1,
            bytes_each,
        )?;
    }
    let mut search = Search { game, store, cap, control, periodicity };
    if let Some(known) = game.known_period() {
        return search.closed_form(known);
    }
    match periodicity {
        Periodicity::Subtraction { max_take } => search.window(max_take),
        Periodicity::Octal { max_removal, max_parts } => search.octal(max_removal, max_parts),
        Periodicity::Unproved => search.observe_only(),
    }
}

/// A value of a stored nim-sequence: one, two or four bytes.
trait Stored: Copy + Eq + Into<u32> {}
impl Stored for u8 {}
impl Stored for u16 {}
impl Stored for u32 {}

/// `values`, four bytes each.
fn widened<T: Stored>(values: &[T]) -> Vec<u32> {
    values.iter().map(|&value| value.into()).collect()
}

/// The values a search extends and reads, with what to call after each stretch.
struct Store<'s> {
    values: &'s mut CompactSequence,
    after_segment: &'s mut dyn FnMut(&CompactSequence),
}

/// Evaluates `$body` with `$prefix` bound to the first `$cap` values of `$store` as a slice of
/// their own type (the scans are generic over [`Stored`]).
macro_rules! with_prefix {
    ($store:expr, $cap:expr, |$prefix:ident| $body:expr) => {
        match &*$store.values {
            CompactSequence::Byte(values) => {
                let $prefix = &values[..values.len().min($cap)];
                $body
            }
            CompactSequence::Half(values) => {
                let $prefix = &values[..values.len().min($cap)];
                $body
            }
            CompactSequence::Word(values) => {
                let $prefix = &values[..values.len().min($cap)];
                $body
            }
        }
    };
}

impl Store<'_> {
    fn len(&self) -> usize {
        self.values.len()
    }

    /// Extends the values to `next` with `game`, then calls `after_segment`.
    fn extend(&mut self, game: &dyn HeapGame, next: usize, control: &Control) -> Result<bool, GameError> {
        let done = game.extend_sequence(self.values, next, control)?;
        (self.after_segment)(self.values);
        Ok(done)
    }
}

/// The state of one [`find_period`] call.
struct Search<'s, 'v> {
    game: &'s dyn HeapGame,
    store: Store<'v>,
    cap: usize,
    control: &'s Control,
    periodicity: Periodicity,
}

impl Search<'_, '_> {
    /// How many values the search may look at.
    fn prefix_len(&self) -> usize {
        self.store.len().min(self.cap)
    }

    /// Extends the values to `target` (at most the cap) in stretches, calling `after_segment`
    /// after each. `Ok(false)` when cancelled.
    fn extend_to(&mut self, target: usize) -> Result<bool, GameError> {
        let target = target.min(self.cap);
        while self.store.len() < target {
            if self.control.cancelled() {
                return Ok(false);
            }
            let stretch = (self.store.len() / 32).clamp(1 << 14, 1 << 22);
            let next = target.min(self.store.len().saturating_add(stretch));
            self.control.check_memory(
                || format!("the nim-sequence of {} up to heap {}", self.game.spec(), next - 1),
                next as u128,
                4,
            )?;
            let before = self.store.len();
            let done = self.store.extend(self.game, next, self.control)?;
            if !done {
                return Ok(false);
            }
            if self.store.len() <= before {
                return Err(GameError::Unsupported(format!(
                    "internal error: the sequence of {} did not grow past heap {before}",
                    self.game.spec()
                )));
            }
        }
        Ok(true)
    }

    fn report(&self, proved: Option<(Period, Proof)>, interrupted: bool) -> PeriodReport {
        let observed =
            if proved.is_none() { with_prefix!(&self.store, self.cap, |prefix| observe_in(prefix)) } else { None };
        PeriodReport {
            periodicity: self.periodicity,
            proved,
            observed,
            examined: self.prefix_len() as u64,
            interrupted,
        }
    }

    fn closed_form(&mut self, known: KnownPeriod) -> Result<PeriodReport, GameError> {
        // At least two periods after the preperiod (a long period is checked in part).
        let check_len = known.preperiod.saturating_add(known.period.saturating_mul(2)).clamp(1 << 10, 1 << 16);
        let check_len = usize::try_from(check_len).unwrap_or(usize::MAX).min(self.cap);
        if !self.extend_to(check_len)? {
            return Ok(self.report(None, true));
        }
        // At most 2^16 values: a u32 copy is cheap.
        let prefix: Vec<u32> = with_prefix!(&self.store, check_len, |prefix| widened(prefix));
        let pattern = Period {
            preperiod: known.preperiod,
            period: known.period,
            saltus: known.saltus,
            proved: true,
            checked_to: check_len as u64 - 1,
        };
        let start = (pattern.preperiod + pattern.period).min(check_len as u64) as usize;
        let base = CompactSequence::from_values(&prefix[..start]);
        for (heap, &value) in prefix.iter().enumerate().skip(start) {
            if pattern.value_at(&base, &BigUint::from(heap)) != Some(value.into()) {
                return Err(GameError::Unsupported(format!(
                    "internal error: the closed form {} of {} disagrees with the computed G({heap}) = {value}",
                    known.theorem,
                    self.game.spec()
                )));
            }
        }
        Ok(self.report(Some((pattern, Proof::ClosedForm { theorem: known.theorem })), false))
    }

    fn window(&mut self, max_take: u64) -> Result<PeriodReport, GameError> {
        let Ok(window) = usize::try_from(max_take) else {
            return self.observe_only();
        };
        if window == 0 {
            return self.observe_only();
        }
        let mut prover = WindowProver::new(window);
        loop {
            let mut found = with_prefix!(&self.store, self.cap, |prefix| prover.advance(prefix, self.control))?;
            if found.is_none() && self.store.len() >= self.cap {
                found = with_prefix!(&self.store, self.cap, |prefix| prover.settle(prefix));
            }
            if let Some((first, repeat)) = found {
                let period = Period {
                    preperiod: first as u64,
                    period: (repeat - first) as u64,
                    saltus: 0,
                    proved: true,
                    checked_to: (repeat + window - 1) as u64,
                };
                return Ok(self.report(Some((period, Proof::Window { max_take })), false));
            }
            let len = self.store.len();
            if len >= self.cap {
                return Ok(self.report(None, false));
            }
            // Small steps first, so that small games stop right after their proof.
            let step = len.clamp(1 << 12, 1 << 22);
            if !self.extend_to(len.saturating_add(step))? {
                return Ok(self.report(None, true));
            }
        }
    }

    fn octal(&mut self, max_removal: u64, max_parts: u64) -> Result<PeriodReport, GameError> {
        let (Ok(removal), Ok(parts)) = (usize::try_from(max_removal), usize::try_from(max_parts)) else {
            return self.observe_only();
        };
        let mut next_check = self.store.len().max(64).min(self.cap);
        loop {
            if !self.extend_to(next_check)? {
                return Ok(self.report(None, true));
            }
            let n = self.prefix_len();
            let check = with_prefix!(&self.store, self.cap, |prefix| octal_check(prefix, removal, parts));
            if let Some((preperiod, period)) = check.proved {
                let from = preperiod.max(1);
                let bound = parts * from + (parts - 1) * period + removal;
                let proved = Period {
                    preperiod: preperiod as u64,
                    period: period as u64,
                    saltus: 0,
                    proved: true,
                    checked_to: (bound + period - 1) as u64,
                };
                let proof = Proof::Octal { max_removal, max_parts, from: from as u64, bound: bound as u64 };
                return Ok(self.report(Some((proved, proof)), false));
            }
            if n >= self.cap {
                return Ok(self.report(None, false));
            }
            // Grow geometrically (each check costs about one pass over the prefix), but jump
            // straight to the length a pattern already seen once would need for its proof.
            let growth = n + (n / 8).max(64);
            next_check = match check.next_needed {
                Some(needed) if needed <= growth => needed.max(n + 1),
                _ => growth,
            }
            .min(self.cap);
        }
    }

    fn observe_only(&mut self) -> Result<PeriodReport, GameError> {
        let cap = self.cap;
        let finished = self.extend_to(cap)?;
        Ok(self.report(None, !finished))
    }
}

/// The result of one check of an octal game's prefix.
struct OctalCheck {
    /// `(e, p)` proved by the periodicity theorem.
    proved: Option<(usize, usize)>,
    /// The shortest prefix that would prove a period already seen repeating once.
    next_needed: Option<usize>,
}

fn octal_check<T: Stored>(values: &[T], removal: usize, parts: usize) -> OctalCheck {
    let n = values.len();
    let mut scanner = TailScanner::new(values, u64::MAX);
    let mut next_needed: Option<usize> = None;
    let mut period = 1;
    // The proof of (e, p) needs j·max(e, 1) + j·p + t values.
    let last = values[n - 1];
    // A candidate counts only when its tail (the values repeating at distance `period`) is at
    // least `period` long: to be proved with two parts or more it must cover `n − n/j ≥ n/2 ≥
    // period` values, and to be remembered as seen once, `period`. So from `period ≥ 8` on, the
    // last eight values must repeat: one comparison rules out nearly every candidate before
    // the scanner looks at it (0.16: 484 633 scans for its 70 checks, most a step or two long).
    const REPEATS: usize = 8;
    let last_values: Option<&[T; REPEATS]> =
        if parts >= 2 && n >= REPEATS { values[n - REPEATS..].try_into().ok() } else { None };
    while parts + parts * period + removal <= n {
        // Only an ordinary period can be proved: most candidates fail at the last value.
        let repeats = match last_values {
            Some(last_values) if period >= REPEATS => {
                <&[T; REPEATS]>::try_from(&values[n - REPEATS - period..n - period]).ok() == Some(last_values)
            }
            _ => values[n - 1 - period] == last,
        };
        if repeats && let Some((0, start)) = scanner.tail(period) {
            let needed = parts * start.max(1) + parts * period + removal;
            if needed <= n {
                return OctalCheck { proved: Some((start, period)), next_needed: None };
            }
            if n - period - start >= period {
                next_needed = Some(next_needed.map_or(needed, |best| best.min(needed)));
            }
        }
        period += 1;
    }
    OctalCheck { proved: None, next_needed }
}

/// The smallest pattern `G(n + p) = G(n) + s` (`s ≥ 0`) that holds over at least half of
/// `values` (`2e + 2p ≤ len`), if one can be found with a bounded amount of work.
///
/// ```
/// use grundy::heap::period::observe;
/// let nim: Vec<u32> = (0..100).collect();
/// let pattern = observe(&nim).unwrap();
/// assert_eq!((pattern.preperiod, pattern.period, pattern.saltus, pattern.proved), (0, 1, 1, false));
/// assert!(observe(&[0, 1, 2, 0, 3, 1, 4]).is_none());
/// ```
pub fn observe(values: &[u32]) -> Option<Period> {
    observe_in(values)
}

/// [`observe`] on values of any stored width.
fn observe_in<T: Stored>(values: &[T]) -> Option<Period> {
    let n = values.len();
    // Long runs of equal values can make the scans long; a bound keeps this linear.
    let budget = 64 * n as u64 + (1 << 22);
    let mut scanner = TailScanner::new(values, budget);
    let mut period = 1;
    while 2 * period <= n {
        if let Some((saltus, start)) = scanner.tail(period)
            && 2 * start + 2 * period <= n
        {
            return Some(Period {
                preperiod: start as u64,
                period: period as u64,
                saltus,
                proved: false,
                checked_to: n as u64 - 1,
            });
        }
        if scanner.exhausted() {
            return None;
        }
        period += 1;
    }
    None
}

/// A tail already scanned: `G(i + period) = G(i) + saltus` for `start ≤ i < len − period`.
struct KnownTail {
    period: usize,
    saltus: i64,
    start: usize,
    /// The next multiple of `period` a scan may ask about (candidates come in increasing order).
    next_multiple: usize,
}

/// Scans a prefix from its end, for one candidate period at a time, for the longest stretch on
/// which `G(i + p) − G(i)` is constant.
///
/// A stretch found for `p₀` holds for every multiple `k·p₀` (with saltus `k·s₀`), so scans for
/// multiples resume where it ended: a sequence with a small period and a long preperiod costs
/// one long scan, not one per multiple.
struct TailScanner<'v, T> {
    values: &'v [T],
    known: Vec<KnownTail>,
    work: u64,
    budget: u64,
}

impl<'v, T: Copy + Eq + Into<u32>> TailScanner<'v, T> {
    fn new(values: &'v [T], budget: u64) -> Self {
        TailScanner { values, known: Vec::new(), work: 0, budget }
    }

    fn exhausted(&self) -> bool {
        self.work > self.budget
    }

    /// For `1 ≤ period < len`, asked in increasing order: the saltus `s = G(len − 1) − G(len − 1 − period)` (`None` when
    /// negative) and the smallest `start` with `G(i + period) = G(i) + s` for all
    /// `start ≤ i < len − period`.
    fn tail(&mut self, period: usize) -> Option<(u64, usize)> {
        let values = self.values;
        let n = values.len();
        debug_assert!(period >= 1 && period < n);
        let saltus = i64::from(values[n - 1].into()) - i64::from(values[n - 1 - period].into());
        if saltus < 0 {
            self.work += 1;
            return None;
        }
        let end = n - period;
        let mut start = end;
        let mut covered = false;
        for known in &mut self.known {
            while known.next_multiple < period {
                known.next_multiple += known.period;
            }
            if known.next_multiple == period && saltus == (period / known.period) as i64 * known.saltus {
                start = start.min(known.start);
                covered = true;
            }
        }
        let scanned_from = start;
        if saltus == 0 {
            const CHUNK: usize = 64;
            while start >= CHUNK && values[start - CHUNK..start] == values[start - CHUNK + period..start + period] {
                start -= CHUNK;
            }
        }
        while start > 0 && i64::from(values[start - 1 + period].into()) - i64::from(values[start - 1].into()) == saltus
        {
            start -= 1;
        }
        self.work += (scanned_from - start) as u64 + 1;
        if !covered && end - start >= period.max(32) && self.known.len() < 32 {
            self.known.push(KnownTail { period, saltus, start, next_multiple: 2 * period });
        }
        Some((saltus as u64, start))
    }
}

/// Mersenne prime `2^61 − 1`, the modulus of the rolling hash.
const MODULUS: u64 = (1 << 61) - 1;
/// The rolling hash's base (any number in `2..MODULUS`; every hit is checked exactly).
const BASE: u64 = 0x1d8e_4e27_c47d_124f % MODULUS;

fn mul_mod(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    let sum = (product as u64 & MODULUS) + (product >> 61) as u64;
    if sum >= MODULUS { sum - MODULUS } else { sum }
}

fn add_mod(a: u64, b: u64) -> u64 {
    let sum = a + b;
    if sum >= MODULUS { sum - MODULUS } else { sum }
}

/// Finds the first window of `window` values that repeats an earlier one, as values arrive.
///
/// Every window is looked up, but only every [`SAMPLE`]-th is stored, which keeps the table
/// small enough for the cache (a table of every window is mostly cache and TLB misses). This
/// stays exact: if the first repeat is `W(μ + λ) = W(μ)`, the first stored window `a ≥ μ`
/// (`a < μ + SAMPLE`) is the first one seen again, at `a + λ` — windows before `μ` never
/// recur — so the hit gives `λ` exactly, and `μ` is at most `SAMPLE` steps below `a`. Only a
/// repeat among the last `SAMPLE` windows of a prefix can be missed, which
/// [`WindowProver::settle`] checks by one more pass.
struct WindowProver {
    window: usize,
    /// `BASE^(window − 1)`.
    leading_power: u64,
    /// The start of the next window to look up.
    next_start: usize,
    /// The hash of the window at `next_start − 1` (when `next_start > 0`).
    hash: u64,
    table: WindowTable,
}

/// One window in this many is stored.
const SAMPLE: usize = 64;

impl WindowProver {
    fn new(window: usize) -> Self {
        WindowProver {
            window,
            leading_power: crate::nimber::power_by_squaring(BASE, (window - 1) as u64, mul_mod),
            next_start: 0,
            hash: 0,
            table: WindowTable::new(),
        }
    }

    /// The hash of the window at `start`, from the hash of the one before.
    fn roll<T: Stored>(&self, values: &[T], start: usize, previous: u64) -> u64 {
        let digit = |value: T| u64::from(value.into()) + 1;
        if start == 0 {
            values[..self.window].iter().fold(0, |hash, &value| add_mod(mul_mod(hash, BASE), digit(value)))
        } else {
            let without_first = add_mod(previous, MODULUS - mul_mod(digit(values[start - 1]), self.leading_power));
            add_mod(mul_mod(without_first, BASE), digit(values[start + self.window - 1]))
        }
    }

    /// `(μ, μ + λ)` from a repeat `W(repeat) = W(first)` with `first ≥ μ`: `λ = repeat − first`,
    /// and `μ` by scanning down while the values agree at distance `λ`.
    fn minimal<T: Stored>(values: &[T], first: usize, repeat: usize) -> (usize, usize) {
        let period = repeat - first;
        let mut start = first;
        while start > 0 && values[start - 1] == values[start - 1 + period] {
            start -= 1;
        }
        (start, start + period)
    }

    /// Looks up every new complete window of `values`; `Some((μ, μ + λ))` once a window
    /// repeats a stored one.
    fn advance<T: Stored>(&mut self, values: &[T], control: &Control) -> Result<Option<(usize, usize)>, GameError> {
        let window = self.window;
        while self.next_start + window <= values.len() {
            let start = self.next_start;
            self.hash = self.roll(values, start, self.hash);
            let same = |earlier: usize| values[earlier..earlier + window] == values[start..start + window];
            if let Some(first) = self.table.find(self.hash, same) {
                return Ok(Some(Self::minimal(values, first, start)));
            }
            if start.is_multiple_of(SAMPLE) {
                self.table.reserve_for(self.table.len + 1, control)?;
                self.table.insert(self.hash, start);
            }
            self.next_start += 1;
        }
        Ok(None)
    }

    /// After [`WindowProver::advance`] found nothing in `values`: whether one of the last
    /// windows (those a sampled table can miss) repeats an earlier one, by one pass over all
    /// windows with a small table of the last ones.
    fn settle<T: Stored>(&self, values: &[T]) -> Option<(usize, usize)> {
        let window = self.window;
        let last = values.len().checked_sub(window)?;
        let first_target = (last + 1).saturating_sub(SAMPLE);
        let mut targets = Vec::with_capacity(SAMPLE);
        let mut hash = 0;
        for start in 0..=last {
            hash = self.roll(values, start, hash);
            if start >= first_target {
                targets.push((hash, start));
            }
        }
        let mut best: Option<(usize, usize)> = None;
        hash = 0;
        for start in 0..=last {
            hash = self.roll(values, start, hash);
            for &(target_hash, target) in &targets {
                if target_hash == hash
                    && start < target
                    && best.is_none_or(|(_, repeat)| target < repeat)
                    && values[start..start + window] == values[target..target + window]
                {
                    best = Some((start, target));
                }
            }
        }
        best.map(|(first, repeat)| Self::minimal(values, first, repeat))
    }
}

/// An open-addressing table of window starts keyed by their hash: 8 bytes a slot (32 bits of
/// the hash and the start), at most 70 % full. Equal tags are confirmed by comparing the
/// windows themselves.
struct WindowTable {
    slots: Vec<u64>,
    len: usize,
}

impl WindowTable {
    fn new() -> Self {
        WindowTable { slots: vec![0; 1 << 10], len: 0 }
    }

    fn tag(hash: u64) -> u32 {
        (hash.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as u32
    }

    fn slot_of(&self, tag: u32) -> usize {
        let bits = self.slots.len().trailing_zeros();
        ((u64::from(tag) << 32) >> (64 - bits)) as usize
    }

    /// Grows the table so that `entries` fit.
    fn reserve_for(&mut self, entries: usize, control: &Control) -> Result<(), GameError> {
        if entries * 10 <= self.slots.len() * 7 {
            return Ok(());
        }
        let size = self.slots.len() * 2;
        control.check_memory(|| "the table of windows of the nim-sequence".to_owned(), size as u128, 8)?;
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        for entry in old.into_iter().filter(|&entry| entry != 0) {
            let mut slot = self.slot_of((entry >> 32) as u32);
            while self.slots[slot] != 0 {
                slot = (slot + 1) & (size - 1);
            }
            self.slots[slot] = entry;
        }
        Ok(())
    }

    /// The start of a stored window with this hash that `same` confirms.
    fn find(&self, hash: u64, same: impl Fn(usize) -> bool) -> Option<usize> {
        let tag = Self::tag(hash);
        let mask = self.slots.len() - 1;
        let mut slot = self.slot_of(tag);
        loop {
            let entry = self.slots[slot];
            if entry == 0 {
                return None;
            }
            if (entry >> 32) as u32 == tag {
                let earlier = (entry & 0xffff_ffff) as usize - 1;
                if same(earlier) {
                    return Some(earlier);
                }
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Stores the window at `start` (after [`WindowTable::reserve_for`]).
    fn insert(&mut self, hash: u64, start: usize) {
        let tag = Self::tag(hash);
        let mask = self.slots.len() - 1;
        let mut slot = self.slot_of(tag);
        while self.slots[slot] != 0 {
            slot = (slot + 1) & mask;
        }
        let stored = u32::try_from(start + 1).expect("window starts fit 32 bits");
        self.slots[slot] = (u64::from(tag) << 32) | u64::from(stored);
        self.len += 1;
    }
}

pub mod windowed;

#[cfg(test)]
pub(crate) mod tests;
