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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

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
