//! [`observe`](super::observe) in memory bounded by a window: the same answer (the pattern
//! observed over the last half of the values, or none) for a nim-sequence computed by a run
//! that keeps only its first values and its last `window` (Grundy's game's
//! [`WindowedGrundy`]), or no answer at all when the window cannot decide it — never a
//! different one.
//!
//! **Why a window of half the values is enough.** [`observe`](super::observe) on `n` values
//! returns the smallest `p ≤ n/2` whose tail `G(i + p) = G(i) + s`, `s = G(n − 1) − G(n − 1 − p)
//! ≥ 0`, starts at some `e` with `2e + 2p ≤ n`. The tail starts at or below `⌊n/2⌋ − p` exactly
//! when `d_p(m) = G(m) − G(m − p)` takes one value for every `m` of the last half,
//! `⌊n/2⌋ ≤ m < n`: the same stretch for every `p`. So while the run computes the last half,
//! each `G(m − p)` it needs lies at most `⌊n/2⌋` heaps back, inside a window of at least
//! `⌊n/2⌋` values (the few the window drops during a stretch are copied before). The first
//! stretch of the last half rules out nearly every `p` (Grundy's game to 2^20: 1 705 of the
//! 524 288 candidates agree on two heaps, none on three); the survivors are followed to the
//! end. The one pattern found then needs its preperiod `e`: scanned back through the values
//! still kept, or, when the scan leaves them, by computing the values again from heap 0 and
//! watching `d_p` alone.
//!
//! **The search's budget.** [`observe`](super::observe) gives up (no pattern) once its scans
//! have compared more than `64n + 2^22` values; a scan for `p` compares the length of its tail
//! plus one (one in all when `s < 0`). The tails of every candidate before the pattern are
//! measured at the end, through the window, where most end within a few heaps; a tail that runs
//! out of the window is counted at its largest possible length (it ends inside the last half,
//! or `p` would be a pattern or have `s < 0`). When this bound could exceed the budget the
//! answer is [`WindowedObservation::Undecided`]: the caller computes the whole sequence.

use super::{Period, PeriodReport};
use crate::control::Control;
use crate::error::GameError;
use crate::heap::Periodicity;
use crate::heap::sequence::window::{DEFAULT_SPAN, WindowedGrundy};

/// A nim-sequence computed in order by a run that keeps, at least, its last `window()` values.
pub trait KeptValues {
    /// How many values are computed: `G(0) … G(len − 1)`.
    fn len(&self) -> u64;
    /// Whether no value is computed yet.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// `G(heap)` when the run keeps it: always for `len − window ≤ heap < len`.
    fn kept(&self, heap: u64) -> Option<u32>;
    /// How many of the last values are always kept.
    fn window(&self) -> u64;
    /// How the values are computed and what is kept, for the report (`values computed by: …`).
    fn describe(&self) -> String;
    /// Computes the values up to `len` (exclusive). `Ok(false)` when stopped by the control's
    /// cancel flag (the run stays valid).
    ///
    /// # Errors
    /// The run's, e.g. [`GameError::OutOfReach`] when a value needs one no longer kept.
    fn extend_to(&mut self, len: u64, control: &Control) -> Result<bool, GameError>;
}

impl KeptValues for WindowedGrundy {
    fn len(&self) -> u64 {
        WindowedGrundy::len(self)
    }

    fn kept(&self, heap: u64) -> Option<u32> {
        self.kept_value(heap)
    }

    fn window(&self) -> u64 {
        self.sizes().1
    }

    fn describe(&self) -> String {
        let (prefix, window) = self.sizes();
        // Heap 0 not counted, as the engine counts its rare heaps.
        let rare = self.rare().len().saturating_sub(1);
        format!(
            "rare-value in a window (rare values: bits above the lowest of even parity, {rare} rare heaps; the first \
             {prefix} values and the last {window} kept, 2 bytes each)"
        )
    }

    fn extend_to(&mut self, len: u64, control: &Control) -> Result<bool, GameError> {
        WindowedGrundy::extend_to(self, len, &mut |_, _| {}, &|| control.cancelled())
    }
}

/// What [`observe_in_window`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WindowedObservation {
    /// Exactly what [`observe`](super::observe) returns on the `examined` values.
    Observed {
        /// The pattern over the last half, if any.
        observed: Option<Period>,
        /// How many values: heaps `0 … examined − 1`.
        examined: u64,
        /// How the run computed the values and what it kept ([`KeptValues::describe`]).
        method: String,
    },
    /// The control's cancel flag stopped the run after `computed` values.
    Interrupted {
        /// How many values were computed (by the pass that was stopped).
        computed: u64,
    },
    /// The window cannot decide the answer (the reason, for tests and logs): compute the whole
    /// sequence instead.
    Undecided(String),
}

impl WindowedObservation {
    /// The report [`find_period`](super::find_period) gives for a game under `periodicity`
    /// that proves no period (its search only observes), when the window decided.
    pub fn into_report(self, periodicity: Periodicity) -> Option<PeriodReport> {
        match self {
            WindowedObservation::Observed { observed, examined, .. } => {
                Some(PeriodReport { periodicity, proved: None, observed, examined, interrupted: false })
            }
            _ => None,
        }
    }
}

/// The first values and the last that `period grundys-game` to `len` heaps keeps in a window,
/// when they take less memory than the whole sequence (two bytes a value); `None` when they
/// would not. The window holds the last half of the values (what the search compares) and at
/// least the 2^26 heaps that keep every rare heap's partner up to heap 2^30 (Flammenkamp: the
/// rare heaps below 2^30 all lie below 48 399 022), with the first 2^24 values for the search
/// for rare candidates: the spans of `stats` ([`crate::heap::stats::windowed_spans`]); past
/// 2^30, those of `sequence --bounded` ([`DEFAULT_SPAN`]). To 2^27 heaps: 160 MiB of tables.
///
/// ```
/// use grundy::heap::period::windowed::grundy_period_spans;
/// assert_eq!(grundy_period_spans(1 << 27), Some((1 << 24, 1 << 26)));
/// assert_eq!(grundy_period_spans((1 << 27) + 2), None); // a window of 2^27: no saving
/// assert_eq!(grundy_period_spans(1 << 20), None);
/// ```
pub fn grundy_period_spans(len: u64) -> Option<(u64, u64)> {
    let (prefix, rare_window) = if len <= 1 << 30 { (1 << 24, 1 << 26) } else { (DEFAULT_SPAN, DEFAULT_SPAN) };
    let window = rare_window.max((len / 2).checked_next_power_of_two()?);
    (WindowedGrundy::memory_for(prefix, window, len) < 2 * u128::from(len)).then_some((prefix, window))
}

/// [`observe_in_window`] on Grundy's game to heap `max_heap` with a [`WindowedGrundy`] run of
/// these spans (the first values kept and the last): what `period grundys-game` answers, in
/// memory bounded by the window. Its tables are checked against the control's memory limit
/// before anything is allocated.
///
/// # Errors
/// [`GameError::TooLarge`] when the tables do not fit the limit; [`GameError::OutOfReach`] when
/// a value needs one the run no longer keeps (a caller may search the whole sequence instead);
/// [`GameError::Unsupported`] for a window that is not a power of two.
pub fn windowed_grundy_period(
    max_heap: u64,
    (prefix, window): (u64, u64),
    control: &Control,
) -> Result<WindowedObservation, GameError> {
    let len = max_heap
        .checked_add(1)
        .ok_or_else(|| GameError::Unsupported(format!("heap {max_heap}: at most 2^64 - 1 heaps are searched")))?;
    let run = WindowedGrundy::new(prefix, window)?;
    control.check_memory(
        || format!("the bounded period search of grundys-game to heap {max_heap}"),
        WindowedGrundy::memory_for(prefix, window, len) + 4 * u128::from(STRETCH),
        1,
    )?;
    let mut again = || Ok(Box::new(WindowedGrundy::new(prefix, window)?) as Box<dyn KeptValues>);
    observe_in_window(Box::new(run), len, control, &mut again)
}

/// Heaps computed between two looks at the candidates (and at the cancel flag, and the
/// progress reported).
const STRETCH: u64 = 1 << 16;

/// The candidates left after the first stretch of the last half are followed one by one: past
/// this many, the answer is left to the whole sequence ([`WindowedObservation::Undecided`]).
pub const MOST_FOLLOWED: usize = 1 << 10;

/// A run walked in stretches, with the values each stretch drops from the window copied before.
struct Walk<'r> {
    run: &'r mut dyn KeptValues,
    /// The values of heaps `dropped_from ..` that the last stretch pushed out of the window.
    dropped: Vec<u32>,
    dropped_from: u64,
    task: crate::progress::Task,
}

impl Walk<'_> {
    /// Computes to `len` (at most a window more than now), first copying the values the
    /// window will drop. `Ok(false)` when cancelled.
    fn advance(&mut self, len: u64, control: &Control) -> Result<bool, GameError> {
        let now = self.run.len();
        let window = self.run.window();
        let (from, to) = (now.saturating_sub(window), len.saturating_sub(window));
        self.dropped.clear();
        for heap in from..to {
            match self.run.kept(heap) {
                Some(value) => self.dropped.push(value),
                None => break,
            }
        }
        self.dropped_from = from;
        if control.cancelled() {
            return Ok(false);
        }
        let done = self.run.extend_to(len, control)?;
        self.task.set(self.run.len());
        Ok(done && self.run.len() >= len)
    }

    /// `G(heap)` when kept, or dropped by the last stretch.
    fn value(&self, heap: u64) -> Option<i64> {
        let value = match self.run.kept(heap) {
            Some(value) => value,
            None => *self.dropped.get(usize::try_from(heap.checked_sub(self.dropped_from)?).ok()?)?,
        };
        Some(i64::from(value))
    }
}

/// [`observe`](super::observe) on `G(0) … G(n − 1)` as `run` computes them from heap 0 (`run`
/// empty), keeping what the window needs: see the [module documentation](self). `again` makes
/// a fresh run of the same sequence, for the second pass that finds a pattern's preperiod when
/// the first no longer keeps its values. The values computed are reported as the control's
/// [`SEQUENCE_TASK`](crate::heap::SEQUENCE_TASK) task, and the cancel flag is looked at between
/// stretches (and as often as `run` looks).
///
/// # Errors
/// The run's ([`GameError::OutOfReach`] when it needs a value it no longer keeps).
///
/// ```
/// use grundy::control::Control;
/// use grundy::heap::period::observe;
/// use grundy::heap::period::windowed::{WindowedObservation, observe_in_window};
/// use grundy::heap::sequence::window::WindowedGrundy;
/// use grundy::heap::sequence::{TakeBreakMoves, definition_sequence};
/// // Grundy's game to heap 2999, the first 1500 values and the last 2048 kept.
/// let new_run = || WindowedGrundy::new(1500, 2048);
/// let run = Box::new(new_run().unwrap());
/// let mut again = || Ok(Box::new(new_run()?) as Box<dyn grundy::heap::period::windowed::KeptValues>);
/// let found = observe_in_window(run, 3000, &Control::default(), &mut again).unwrap();
/// let whole = definition_sequence(&TakeBreakMoves::grundys_game(), 3000);
/// let WindowedObservation::Observed { observed, examined, method } = found else { panic!() };
/// assert_eq!((observed, examined), (observe(&whole), 3000));
/// assert!(method.contains("the first 1500 values and the last 2048 kept"), "{method}");
/// ```
pub fn observe_in_window(
    run: Box<dyn KeptValues>,
    n: u64,
    control: &Control,
    again: &mut dyn FnMut() -> Result<Box<dyn KeptValues>, GameError>,
) -> Result<WindowedObservation, GameError> {
    observe_following(run, n, MOST_FOLLOWED, STRETCH, control, again)
}

/// [`observe_in_window`] following at most `most_followed` candidates, in stretches of at most
/// `stretch` heaps.
pub(crate) fn observe_following(
    mut run: Box<dyn KeptValues>,
    n: u64,
    most_followed: usize,
    stretch: u64,
    control: &Control,
    again: &mut dyn FnMut() -> Result<Box<dyn KeptValues>, GameError>,
) -> Result<WindowedObservation, GameError> {
    if !run.is_empty() {
        return Ok(WindowedObservation::Undecided("the run must start at heap 0".to_owned()));
    }
    let half = n / 2;
    if run.window() < half {
        return Ok(WindowedObservation::Undecided(format!(
            "a window of {} values, less than half of {n}",
            run.window()
        )));
    }
    // A stretch never drops a value it computes: the window holds it to the stretch's end.
    let run_window = run.window();
    let stretch = stretch.min(run_window).max(1);
    let task = control.task(crate::heap::SEQUENCE_TASK, n);
    let mut walk = Walk { run: &mut *run, dropped: Vec::new(), dropped_from: 0, task };
    if half == 0 {
        // No candidate period: `observe` finds nothing in fewer than two values.
        return Ok(if walk.advance(n, control)? {
            WindowedObservation::Observed { observed: None, examined: n, method: walk.run.describe() }
        } else {
            WindowedObservation::Interrupted { computed: walk.run.len() }
        });
    }
    let interrupted = |walk: &Walk| Ok(WindowedObservation::Interrupted { computed: walk.run.len() });
    let unkept = |heap: u64| Ok(WindowedObservation::Undecided(format!("G({heap}) is not kept")));
    // The first half: nothing to compare yet.
    while walk.run.len() < half {
        let next = half.min(walk.run.len() + stretch);
        if !walk.advance(next, control)? {
            return interrupted(&walk);
        }
    }
    // The last half: `(p, d_p)` for the candidates whose `d_p` has kept one value so far.
    let mut followed: Vec<(u64, i64)> = Vec::new();
    while walk.run.len() < n {
        let start = walk.run.len();
        // The first stretch of the last half decides which candidates are followed: at least
        // four times as many heaps as the candidates followed at most (within the window), so
        // that a short stretch, given to look at the cancel flag often, does not leave every
        // candidate agreeing on a few heaps.
        let first_look = (4 * most_followed as u64).min(run_window).max(stretch);
        let next = n.min(start + if start == half { first_look } else { stretch });
        if !walk.advance(next, control)? {
            return interrupted(&walk);
        }
        let agrees = |walk: &Walk, p: u64, d: i64, from: u64| -> Result<bool, u64> {
            for m in from..next {
                let here = walk.value(m).ok_or(m)?;
                let back = walk.value(m - p).ok_or(m - p)?;
                if here - back != d {
                    return Ok(false);
                }
            }
            Ok(true)
        };
        if start == half {
            let Some(first) = walk.value(half) else { return unkept(half) };
            for p in 1..=half {
                let Some(back) = walk.value(half - p) else { return unkept(half - p) };
                let d = first - back;
                match agrees(&walk, p, d, half + 1) {
                    Ok(true) => {
                        followed.push((p, d));
                        if followed.len() > most_followed {
                            return Ok(WindowedObservation::Undecided(format!(
                                "more than {most_followed} candidate periods agree on heaps {half}..{}",
                                next - 1
                            )));
                        }
                    }
                    Ok(false) => {}
                    Err(heap) => return unkept(heap),
                }
            }
        } else {
            let mut missing = None;
            followed.retain(|&(p, d)| match agrees(&walk, p, d, start) {
                Ok(agree) => agree,
                Err(heap) => {
                    missing = Some(heap);
                    true
                }
            });
            if let Some(heap) = missing {
                return unkept(heap);
            }
        }
    }
    // `followed` is in increasing `p`: the first with `s ≥ 0` is the pattern, those before it
    // have `s < 0`.
    let pattern = followed.iter().find(|&&(_, d)| d >= 0).copied();
    let searched_to = pattern.map_or(half, |(p, _)| p - 1);
    let budget = 64 * n + (1 << 22);
    let mut work: u64 = 0;
    let Some(last) = walk.value(n - 1) else { return unkept(n - 1) };
    for q in 1..=searched_to {
        let Some(back) = walk.value(n - 1 - q) else { return unkept(n - 1 - q) };
        let saltus = last - back;
        work += if saltus < 0 {
            1
        } else {
            // The tail's length: `G(i + q) − G(i) = saltus` for `i` from `n − 1 − q` down.
            let mut length = 0;
            let mut i = n - 1 - q;
            loop {
                match (walk.value(i + q), walk.value(i)) {
                    (Some(here), Some(back)) if here - back == saltus => {
                        length += 1;
                        if i == 0 {
                            break;
                        }
                        i -= 1;
                    }
                    (Some(_), Some(_)) => break,
                    // Out of the window: at most the last half less one (`d_q` changes there,
                    // since `q` is no pattern and has `s ≥ 0`).
                    _ => {
                        length = n - half - 1;
                        break;
                    }
                }
            }
            length + 1
        };
        if work > budget {
            return Ok(WindowedObservation::Undecided(format!(
                "the scans before period {} may pass the search's budget of {budget} comparisons",
                q + 1
            )));
        }
    }
    let method = walk.run.describe();
    let Some((period, saltus)) = pattern else {
        return Ok(WindowedObservation::Observed { observed: None, examined: n, method });
    };
    // The preperiod: the tail from `⌊n/2⌋ − p` down, through the values kept.
    let mut start = half - period;
    let mut kept = true;
    while start > 0 {
        match (walk.value(start - 1 + period), walk.value(start - 1)) {
            (Some(here), Some(back)) if here - back == saltus => start -= 1,
            (Some(_), Some(_)) => break,
            _ => {
                kept = false;
                break;
            }
        }
    }
    if !kept {
        // The first run's tables go before the second run's are made.
        drop(walk);
        drop(run);
        match tail_start_again(again()?, period, saltus, half, stretch, control)? {
            Some(found) => start = found,
            None => return Ok(WindowedObservation::Interrupted { computed: n }),
        }
    }
    Ok(WindowedObservation::Observed {
        observed: Some(Period { preperiod: start, period, saltus: saltus as u64, proved: false, checked_to: n - 1 }),
        examined: n,
        method,
    })
}

/// The second pass: the smallest `e` with `G(i + p) − G(i) = saltus` for `e ≤ i < half − p`,
/// from a fresh run computed to heap `half`. `None` when cancelled.
fn tail_start_again(
    mut run: Box<dyn KeptValues>,
    period: u64,
    saltus: i64,
    half: u64,
    stretch: u64,
    control: &Control,
) -> Result<Option<u64>, GameError> {
    if !run.is_empty() || run.window() < period {
        return Err(GameError::Unsupported("internal error: the second pass needs a fresh run".to_owned()));
    }
    let stretch = stretch.min(run.window()).max(1);
    let task = control.task(crate::heap::SEQUENCE_TASK, half);
    let mut walk = Walk { run: &mut *run, dropped: Vec::new(), dropped_from: 0, task };
    // One past the last `i` where the difference is another.
    let mut start = 0;
    while walk.run.len() < half {
        let from = walk.run.len();
        let next = half.min(from + stretch);
        if !walk.advance(next, control)? {
            return Ok(None);
        }
        for m in from.max(period)..next {
            let (Some(here), Some(back)) = (walk.value(m), walk.value(m - period)) else {
                return Err(GameError::Unsupported(format!(
                    "internal error: G({}) or G({m}) is not kept in the second pass",
                    m - period
                )));
            };
            if here - back != saltus {
                start = m - period + 1;
            }
        }
    }
    Ok(Some(start))
}

#[cfg(test)]
mod tests;
