//! Statistics of a nim-sequence: how often each value occurs among heaps `0..=N`, and exactly
//! how many sums of `K` such heaps are P-positions (seed `003_afa91bf0d059c99d.txt`: a random
//! Bash heap is won by the player to move with probability `M/(M+1)`; a random Nim position of
//! several heaps rarely has xor 0).
//!
//! A sum of heaps is a P-position exactly when the xor of their values is 0 (Sprague–Grundy).
//! The number of `K`-tuples of heaps with xor 0 is entry 0 of the `K`-fold xor-convolution of
//! the value counts `c`. The Walsh–Hadamard transform `ĉ(y) = Σₓ c(x)·(−1)^popcount(x∧y)` turns
//! xor-convolution into pointwise product, so with `2^b` above every value:
//! `P = 2^−b · Σ_y ĉ(y)^K` — exact in big integers, in `O(2^b·b)` plus one power per distinct
//! `ĉ(y)`, instead of enumerating `(N+1)^K` tuples.

use crate::control::Control;
use crate::error::GameError;
use crate::heap::period::Period;
use crate::heap::sequence::CompactSequence;
use crate::heap::sequence::window::{DEFAULT_SPAN, WindowedGrundy};
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};
use rustc_hash::FxHashMap;

/// How many heaps have each value: `counts[v] = #{n : G(n) = v}` over `values`.
///
/// ```
/// use grundy::heap::stats::value_counts;
/// assert_eq!(value_counts([0, 1, 2, 0, 1, 2, 0]), [3, 2, 2]);
/// ```
pub fn value_counts(values: impl IntoIterator<Item = u32>) -> Vec<u64> {
    let mut counts = Vec::new();
    for value in values {
        let value = value as usize;
        if value >= counts.len() {
            counts.resize(value + 1, 0);
        }
        counts[value] += 1;
    }
    counts
}

/// How many heaps of `from..=to` have each value, through a proved `period` without saltus:
/// heaps below the preperiod `e` one by one, the rest by residue,
/// `G(n) = G(e + (n − e) mod p)`, so that `to` may be any `u64` (Bash heaps up to 10^18).
/// `values` must hold the heaps the proof compared (every heap below `e + p`).
///
/// # Errors
/// [`GameError::Unsupported`] for a period with a saltus (its values grow); the
/// [`GameError::OutOfReach`] naming a heap `values` does not hold.
///
/// ```
/// use grundy::heap::CompactSequence;
/// use grundy::heap::period::Period;
/// use grundy::heap::stats::counts_through_the_period;
/// // sub:2,5: 0 0 1 1 0 2 1, then period 7 from heap 0.
/// let values = CompactSequence::from_values(&[0, 0, 1, 1, 0, 2, 1]);
/// let period = Period { preperiod: 0, period: 7, saltus: 0, proved: true, checked_to: 13 };
/// assert_eq!(counts_through_the_period(&period, &values, 0, 13).unwrap(), [6, 6, 2]);
/// assert_eq!(counts_through_the_period(&period, &values, 5, 5).unwrap(), [0, 0, 1]);
/// ```
pub fn counts_through_the_period(
    period: &Period,
    values: &CompactSequence,
    from: u64,
    to: u64,
) -> Result<Vec<u64>, GameError> {
    if period.saltus != 0 {
        return Err(GameError::Unsupported(format!(
            "a period with saltus {} has values growing without bound: they are counted heap by heap",
            period.saltus
        )));
    }
    let (start, length) = (period.preperiod, period.period);
    let value = |heap: u64| {
        usize::try_from(heap)
            .ok()
            .and_then(|heap| values.get(heap))
            .ok_or_else(|| GameError::OutOfReach(format!("heap {heap} was not computed")))
    };
    let mut counts: Vec<u64> = Vec::new();
    let mut add = |value: u32, count: u64| {
        let value = value as usize;
        if value >= counts.len() {
            counts.resize(value + 1, 0);
        }
        counts[value] += count;
    };
    for heap in from..=to.min(start.saturating_sub(1)) {
        if heap < start {
            add(value(heap)?, 1);
        }
    }
    // Heaps `start + r + k·length` in `low..=high`, for each residue r.
    let (low, high) = (from.max(start), to);
    if low <= high {
        // #{n in start..=x : (n − start) mod length = r}
        let up_to = |x: u64, residue: u64| {
            if x < start + residue { 0 } else { (x - start - residue) / length + 1 }
        };
        for residue in 0..length {
            let count = up_to(high, residue) - if low == 0 { 0 } else { up_to(low - 1, residue) };
            if count > 0 {
                add(value(start + residue)?, count);
            }
        }
    }
    Ok(counts)
}

/// The value counts of Grundy's game over `from..=to` counted as the values stream out of a
/// [`WindowedGrundy`] run, never held: what `stats grundys-game` runs where
/// [`windowed_spans`] takes less memory than the whole sequence (2^27 heaps in 160 MiB instead
/// of 256 MiB).
pub struct GrundyCounts {
    /// `counts[v]`: how many heaps of `from..=to` computed have value `v`.
    pub counts: Vec<u64>,
    /// How many heaps were computed: `to + 1` unless cancelled.
    pub computed: u64,
}

/// The first values and the last values a [`WindowedGrundy`] run to `len` heaps keeps, when
/// keeping them takes less memory than the whole sequence (two bytes a value); `None` when it
/// would not. Up to heap 2^30 a window of 2^26 heaps holds the partner of every split with a
/// rare part (Flammenkamp, "Sprague-Grundy Values of Grundy's Game": the rare heaps below 2^30
/// all lie below 48 399 022 < 2^26), and a prefix of 2^24 heaps serves the search for rare
/// candidates, which looks at the smallest parts first; past 2^30, the spans of
/// `sequence --bounded` ([`DEFAULT_SPAN`], which reached 2^32). A run that needs a value
/// outside them stops with [`GameError::OutOfReach`], never a guess.
pub fn windowed_spans(len: u64) -> Option<(u64, u64)> {
    let spans = if len <= 1 << 30 { (1 << 24, 1 << 26) } else { (DEFAULT_SPAN, DEFAULT_SPAN) };
    (WindowedGrundy::memory_for(spans.0, spans.1, len) < 2 * u128::from(len)).then_some(spans)
}

/// Counts the values of Grundy's game over heaps `from..=to` in memory bounded by a window
/// (`spans`: the first values kept and the last, as [`windowed_spans`] chooses): the memory
/// decided once through [`Control::check_memory`] before anything is allocated, the heaps
/// computed reported now and then as the control's [`SEQUENCE_TASK`](crate::heap::SEQUENCE_TASK)
/// task, the control's cancel flag looked at every 2^12 heaps (then `computed` says how far it
/// went).
///
/// # Errors
/// [`GameError::TooLarge`] when the window does not fit the limit; [`GameError::OutOfReach`]
/// when a value needs one the run no longer keeps (a caller may count from the whole sequence
/// instead); [`GameError::Unsupported`] for `from > to`.
pub fn windowed_grundy_counts(
    from: u64,
    to: u64,
    (prefix_len, window_len): (u64, u64),
    control: &Control,
) -> Result<GrundyCounts, GameError> {
    if from > to {
        return Err(GameError::Unsupported(format!("heaps {from}..{to}: the first is above the last")));
    }
    let len = to
        .checked_add(1)
        .ok_or_else(|| GameError::Unsupported(format!("heap {to}: at most 2^64 - 1 heaps are counted")))?;
    let mut run = WindowedGrundy::new(prefix_len, window_len)?;
    run.check_memory(len, control)?;
    let mut counts: Vec<u64> = Vec::new();
    let mut count = |heap: u64, value: u32| {
        if heap >= from {
            let value = value as usize;
            if value >= counts.len() {
                counts.resize(value + 1, 0);
            }
            counts[value] += 1;
        }
    };
    // Stretches of 2^20 heaps, the values known reported between them.
    let task = control.task(crate::heap::SEQUENCE_TASK, len);
    while run.len() < len {
        let next = len.min(run.len().saturating_add(1 << 20));
        let reached = run.extend_to(next, &mut count, &|| control.cancelled())?;
        task.set(run.len());
        if !reached {
            break;
        }
    }
    Ok(GrundyCounts { counts, computed: run.len() })
}

/// The number of `heaps`-tuples of heaps whose values xor to 0, when `counts[v]` heaps have
/// value `v`: the P-positions among all sums of `heaps` heaps.
///
/// # Errors
/// [`GameError::TooLarge`] when the transform would not fit in memory;
/// [`GameError::Unsupported`] when the result would pass 2^26 bits (about 20 million digits).
///
/// ```
/// use grundy::heap::stats::zero_xor_tuples;
/// let control = grundy::control::Control::default();
/// // Nim with heaps 0..7: 64 of the 8^3 = 512 sums of three heaps are P-positions.
/// assert_eq!(zero_xor_tuples(&[1; 8], 3, &control).unwrap(), 64u32.into());
/// // Bash with M = 3, heaps 0..7: values 0 1 2 3 twice each; one heap is P when it is 0.
/// assert_eq!(zero_xor_tuples(&[2, 2, 2, 2], 1, &control).unwrap(), 2u32.into());
/// ```
pub fn zero_xor_tuples(counts: &[u64], heaps: u32, control: &Control) -> Result<BigUint, GameError> {
    check_zero_xor_tuples(counts, heaps, control)?;
    let size = counts.len().max(1).next_power_of_two();
    let mut copy = control.try_table(size, 0, || format!("the Walsh–Hadamard transform of {size} value counts"))?;
    copy[..counts.len()].copy_from_slice(counts);
    zero_xor_tuples_in_place(copy, heaps, control)
}

/// Whether [`zero_xor_tuples`] can answer for these counts: its transform fits the memory
/// limit and its result the digits supported. Cheap: a caller checks before printing anything.
///
/// # Errors
/// As [`zero_xor_tuples`].
pub fn check_zero_xor_tuples(counts: &[u64], heaps: u32, control: &Control) -> Result<(), GameError> {
    if heaps == 0 {
        return Ok(());
    }
    let size = counts.len().max(1).next_power_of_two();
    control.check_memory(|| format!("the Walsh–Hadamard transform of {size} value counts"), size as u128, 8)?;
    let total: u64 = counts.iter().sum();
    let result_bits = u128::from(heaps) * u128::from(64 - total.leading_zeros());
    if result_bits > 1 << 26 {
        return Err(GameError::Unsupported(format!(
            "sums of {heaps} heaps from {total} sizes: the exact counts would have about {} decimal digits, \
             more than the {} digits supported",
            result_bits * 30103 / 100_000,
            (1u128 << 26) * 30103 / 100_000
        )));
    }
    Ok(())
}

/// [`zero_xor_tuples`] in the buffer of `counts` itself (grown to a power of two), so that a
/// long nim-sequence's counts are not copied: `stats nim --to 100000000` holds one table of
/// 2^27 words, not two.
///
/// # Errors
/// As [`zero_xor_tuples`].
pub fn zero_xor_tuples_in_place(counts: Vec<u64>, heaps: u32, control: &Control) -> Result<BigUint, GameError> {
    check_zero_xor_tuples(&counts, heaps, control)?;
    if heaps == 0 {
        return Ok(BigUint::one());
    }
    let size = counts.len().max(1).next_power_of_two();
    let mut transform = counts;
    let missing = size - transform.len();
    control.try_reserve_table(&mut transform, missing, || {
        format!("the Walsh–Hadamard transform of {size} value counts")
    })?;
    transform.resize(size, 0);
    // Counts of a table in memory fit 63 bits: the transform works on them as i64.
    let mut transform: Vec<i64> = transform
        .into_iter()
        .map(|count| i64::try_from(count).expect("counts of a table in memory fit 63 bits"))
        .collect();
    let mut half = 1;
    while half < size {
        for block in transform.chunks_exact_mut(2 * half) {
            let (low, high) = block.split_at_mut(half);
            for (x, y) in low.iter_mut().zip(high.iter_mut()) {
                (*x, *y) = (*x + *y, *x - *y);
            }
        }
        half *= 2;
    }
    // Equal transform values need their power only once.
    let mut multiplicity: FxHashMap<i64, u64> = FxHashMap::default();
    for &value in &transform {
        if value != 0 {
            *multiplicity.entry(value).or_default() += 1;
        }
    }
    // The powers are the slow part (each has up to `result_bits` bits): one unit of progress each.
    let task = control.task(&format!("the P-positions among sums of {heaps} heaps"), multiplicity.len() as u64);
    let mut sum = BigInt::zero();
    for (value, times) in multiplicity {
        sum += BigInt::from(value).pow(heaps) * times;
        task.advance(1);
    }
    let (quotient, remainder) = (sum.magnitude() / size, sum.magnitude() % size);
    debug_assert!(remainder.is_zero() && sum.sign() != num_bigint::Sign::Minus, "a count is a whole number");
    Ok(quotient)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn nim_and_bash_from_the_seed() {
        // Bash, M = 3: with heaps 0..4k−1 a quarter are P: the first player wins 3/4 = M/(M+1).
        let values: Vec<u32> = (0..400).map(|n| n % 4).collect();
        assert_eq!(
            zero_xor_tuples(&value_counts(values.iter().copied()), 1, &Control::default()).unwrap(),
            100u32.into()
        );
        // Nim, heaps 0..2^k−1, K heaps: exactly (2^k)^(K−1) P-positions.
        assert_eq!(zero_xor_tuples(&[1; 16], 5, &Control::default()).unwrap(), BigUint::from(16u32).pow(4));
        assert_eq!(zero_xor_tuples(&[], 3, &Control::default()).unwrap(), BigUint::ZERO);
    }

    #[test]
    fn grundys_game_counted_in_the_window_equals_the_whole_sequence() {
        use crate::heap::HeapGame;
        let game = crate::heap::grundys_game::GrundysGame::new();
        let mut values = CompactSequence::new();
        game.extend_sequence(&mut values, 60_001, &Default::default()).unwrap();
        for (from, to) in [(0, 0), (0, 1), (3, 3), (0, 999), (17, 4_321), (0, 20_000), (12_345, 60_000)] {
            let reported = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
            let seen = std::sync::Arc::clone(&reported);
            let control = Control::default().relaying(crate::heap::SEQUENCE_TASK, move |done| {
                seen.store(done, std::sync::atomic::Ordering::Relaxed)
            });
            // A prefix far shorter than the heaps, as at 2^27 (the window must pass the last rare
            // heap, 36 184 in this range, as 2^26 passes 48 399 022 there).
            let windowed = windowed_grundy_counts(from, to, (2048, 1 << 16), &control).unwrap();
            assert_eq!(windowed.computed, to + 1);
            assert_eq!(reported.load(std::sync::atomic::Ordering::Relaxed), to + 1);
            let whole = value_counts(values.iter().take(to as usize + 1).skip(from as usize));
            assert_eq!(windowed.counts, whole, "heaps {from}..={to}");
        }
        // At 2^27 heaps: 160 MiB, not the whole sequence's 256 MiB; no window below 2^26 heaps.
        let (prefix, window) = windowed_spans((1 << 27) + 1).unwrap();
        assert_eq!(WindowedGrundy::memory_for(prefix, window, (1 << 27) + 1), 160 << 20);
        assert!(window > 48_399_022, "the window holds the partner of every rare heap known");
        assert_eq!(windowed_spans(1 << 26), None);
    }

    #[test]
    fn a_windowed_count_refuses_before_allocating_and_stops_at_the_cancel_flag() {
        let tight = Control::default().with_memory_limit(1000);
        let error = windowed_grundy_counts(0, 100_000, (1024, 2048), &tight).err().expect("refused");
        assert!(matches!(error, GameError::TooLarge { .. }), "{error}");
        // A window shorter than a rare heap's reach is refused, never guessed.
        let short = windowed_grundy_counts(0, 5_000, (64, 512), &Control::default()).err().expect("refused");
        assert!(matches!(short, GameError::OutOfReach(_)), "{short}");
        let cancelled = Control::default();
        cancelled.cancel();
        let stopped = windowed_grundy_counts(0, 100_000, (1 << 16, 1 << 16), &cancelled).unwrap();
        assert!(stopped.computed < 100_001);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Counting through a period equals counting the values it stands for, heap by heap.
        #[test]
        fn counts_through_the_period_equal_the_heaps_counted(
            pre in proptest::collection::vec(0u32..5, 0..6),
            cycle in proptest::collection::vec(0u32..5, 1..6),
            from in 0u64..40,
            span in 0u64..60,
        ) {
            let to = from + span;
            let value = |heap: u64| {
                if (heap as usize) < pre.len() { pre[heap as usize] } else { cycle[(heap as usize - pre.len()) % cycle.len()] }
            };
            let known: Vec<u32> = (0..(pre.len() + cycle.len()) as u64).map(value).collect();
            let period = Period {
                preperiod: pre.len() as u64,
                period: cycle.len() as u64,
                saltus: 0,
                proved: true,
                checked_to: known.len() as u64,
            };
            let counted = counts_through_the_period(&period, &CompactSequence::from_values(&known), from, to).unwrap();
            // Exactly, trailing zeros included: a value no heap of the range has is not counted.
            prop_assert_eq!(counted, value_counts((from..=to).map(value)));
        }

        #[test]
        fn transform_matches_enumeration(values in proptest::collection::vec(0u32..9, 1..14), heaps in 1u32..4) {
            let counts = value_counts(values.iter().copied());
            let mut zero = 0u64;
            let n = values.len();
            for index in 0..n.pow(heaps) {
                let (mut rest, mut xor) = (index, 0);
                for _ in 0..heaps {
                    xor ^= values[rest % n];
                    rest /= n;
                }
                zero += u64::from(xor == 0);
            }
            prop_assert_eq!(zero_xor_tuples(&counts, heaps, &Control::default()).unwrap(), BigUint::from(zero));
        }
    }
}
