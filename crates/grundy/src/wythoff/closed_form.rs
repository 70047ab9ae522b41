//! The P-positions of Wythoff's game in exact integer arithmetic, and every winning move of a
//! single pair (the proof is in the [module documentation](super)).
//!
//! Every floor of an irrational multiple is computed without floating point: for `n > 0`,
//! `√(5n²)` is irrational, so `⌊(n + √(5n²))/2⌋ = ⌊(n + ⌊√(5n²)⌋)/2⌋` and
//! `⌊(√(5n²) − n)/2⌋ = ⌊(⌊√(5n²)⌋ − n)/2⌋` (adding the fractional part of an irrational `s` to
//! an integer `m` and halving never crosses the next integer). Integer square roots of numbers of
//! hundreds of digits take microseconds.

use num_bigint::BigUint;
use num_traits::Zero;

/// `a_k = ⌊kφ⌋ = ⌊(k + √(5k²))/2⌋`, the smaller heap of the `k`-th P-position.
///
/// ```
/// use grundy::wythoff::closed_form::lower;
/// let a: Vec<String> = (0u32..8).map(|k| lower(&k.into()).to_string()).collect();
/// assert_eq!(a, ["0", "1", "3", "4", "6", "8", "9", "11"]);
/// ```
pub fn lower(k: &BigUint) -> BigUint {
    (k + (k * k * 5u32).sqrt()) >> 1
}

/// `b_k = ⌊kφ²⌋ = a_k + k` (because `φ² = φ + 1`), the larger heap of the `k`-th P-position.
///
/// ```
/// use grundy::wythoff::closed_form::upper;
/// let b: Vec<String> = (0u32..8).map(|k| upper(&k.into()).to_string()).collect();
/// assert_eq!(b, ["0", "2", "5", "7", "10", "13", "15", "18"]);
/// ```
pub fn upper(k: &BigUint) -> BigUint {
    lower(k) + k
}

/// `⌊n/φ⌋ = ⌊(√(5n²) − n)/2⌋` (as `1/φ = φ − 1 = (√5 − 1)/2`).
pub fn floor_over_phi(n: &BigUint) -> BigUint {
    ((n * n * 5u32).sqrt() - n) >> 1
}

/// Where a heap size stands in the two complementary Beatty sequences `a_k = ⌊kφ⌋` and
/// `b_k = ⌊kφ²⌋` (every positive integer is exactly one `a_k` or one `b_k`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BeattyPlace {
    /// The heap is 0: the only P-position with it is `(0, 0)`.
    Zero,
    /// The heap is `a_k` for this `k ≥ 1`; its partner is `b_k`.
    Lower(BigUint),
    /// The heap is `b_k` for this `k ≥ 1`; its partner is `a_k`.
    Upper(BigUint),
}

/// Finds `k` with `n = a_k` or `n = b_k`.
///
/// `n = ⌊kφ⌋` means `kφ ∈ (n, n + 1)`, an interval of length `1/φ < 1` for `k`, so the only
/// candidate is `k = ⌊n/φ⌋ + 1`; likewise `n = ⌊jφ²⌋` has the only candidate
/// `j = ⌊n/φ²⌋ + 1 = n − ⌊n/φ⌋` (since `n/φ² = n − n/φ` and `n/φ` is not an integer).
///
/// ```
/// use grundy::wythoff::closed_form::{BeattyPlace, beatty_place};
/// assert_eq!(beatty_place(&4u32.into()), BeattyPlace::Lower(3u32.into()));
/// assert_eq!(beatty_place(&7u32.into()), BeattyPlace::Upper(3u32.into()));
/// assert_eq!(beatty_place(&0u32.into()), BeattyPlace::Zero);
/// ```
pub fn beatty_place(n: &BigUint) -> BeattyPlace {
    if n.is_zero() {
        return BeattyPlace::Zero;
    }
    let quotient = floor_over_phi(n);
    let k = &quotient + 1u32;
    if &lower(&k) == n {
        return BeattyPlace::Lower(k);
    }
    let j = n - &quotient;
    debug_assert_eq!(&upper(&j), n, "Beatty's theorem: {n} is in one of the two sequences");
    BeattyPlace::Upper(j)
}

/// The heap that makes a P-position with `n`: `b_k` for `n = a_k`, `a_k` for `n = b_k`, 0 for 0.
///
/// ```
/// use grundy::wythoff::closed_form::partner;
/// assert_eq!(partner(&4u32.into()), 7u32.into());
/// assert_eq!(partner(&7u32.into()), 4u32.into());
/// ```
pub fn partner(n: &BigUint) -> BigUint {
    match beatty_place(n) {
        BeattyPlace::Zero => BigUint::ZERO,
        BeattyPlace::Lower(k) => n + k,
        BeattyPlace::Upper(k) => n - k,
    }
}

/// Whether `(x, y)` is a P-position, for heaps of any size: with `x ≤ y` and `k = y − x`, it is
/// one exactly when `x = a_k`.
///
/// ```
/// use grundy::wythoff::closed_form::is_p_position;
/// let big = |text: &str| text.parse().unwrap();
/// assert!(is_p_position(&big("6557470319841"), &big("10610209857722")));
/// assert!(!is_p_position(&big("6557470319841"), &big("10610209857723")));
/// ```
pub fn is_p_position(x: &BigUint, y: &BigUint) -> bool {
    let (small, large) = if x <= y { (x, y) } else { (y, x) };
    &lower(&(large - small)) == small
}

/// No P-position `(a_k, b_k)` with `k` this large has `b_k < 2^64`: `b_k > kφ² − 1 > 2^64`.
/// It is also below `2^64/√5`, so that `5k²` fits in a `u128` for every smaller `k`.
const LARGEST_WORD_DIFFERENCE: u128 = 7_500_000_000_000_000_000;

/// [`is_p_position`] for word-sized heaps, in a few nanoseconds: no square root, only the
/// exact integer form of `a_k < kφ < a_k + 1`, namely `2x − k < k√5 < 2x + 2 − k`, compared
/// by squares in 128 bits.
///
/// ```
/// use grundy::wythoff::closed_form::is_p_position_u64;
/// assert!(is_p_position_u64(1, 2) && is_p_position_u64(7, 4));
/// assert!(!is_p_position_u64(4, 8) && !is_p_position_u64(1, 1));
/// assert!(is_p_position_u64(6557470319841, 10610209857722));
/// ```
#[inline]
pub fn is_p_position_u64(x: u64, y: u64) -> bool {
    let (small, large) = if x <= y { (x as u128, y as u128) } else { (y as u128, x as u128) };
    let k = large - small;
    if k == 0 {
        return small == 0;
    }
    if k >= LARGEST_WORD_DIFFERENCE {
        return false;
    }
    let five_k_squared = 5 * k * k;
    // 2x − k < k√5: automatic when 2x ≤ k; otherwise compare squares (an overflow means larger).
    let below = 2 * small <= k || (2 * small - k).checked_mul(2 * small - k).is_some_and(|sq| sq < five_k_squared);
    // k√5 < 2x + 2 − k: impossible when 2x + 2 ≤ k.
    let above =
        2 * small + 2 > k && (2 * small + 2 - k).checked_mul(2 * small + 2 - k).is_none_or(|sq| sq > five_k_squared);
    below && above
}

/// Which heaps a move takes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Take {
    /// From the first heap of the pair as written.
    First,
    /// From the second heap.
    Second,
    /// The same number from both.
    Both,
}

/// One move of a single pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairMove {
    /// The pair after the move, in the same order as before.
    pub to: (BigUint, BigUint),
    /// Where the counters were taken from.
    pub take: Take,
    /// How many were taken (from each heap, for [`Take::Both`]).
    pub amount: BigUint,
}

/// Every move from `(x, y)` to a P-position (none when `(x, y)` is one). There are at most
/// three: keep `y` and move `x` to `y`'s partner, keep `x` and move `y` to `x`'s partner, or
/// take from both down to the P-position with the same difference. Each is checked with
/// [`is_p_position`] before it is returned.
///
/// ```
/// use grundy::wythoff::closed_form::winning_moves;
/// let moves = winning_moves(&4u32.into(), &8u32.into());
/// assert_eq!(moves.len(), 1);
/// assert_eq!(moves[0].to, (4u32.into(), 7u32.into()));
/// assert!(winning_moves(&4u32.into(), &7u32.into()).is_empty());
/// ```
pub fn winning_moves(x: &BigUint, y: &BigUint) -> Vec<PairMove> {
    let mut moves = Vec::new();
    if is_p_position(x, y) {
        return moves;
    }
    let partner_of_y = partner(y);
    if &partner_of_y < x {
        moves.push(PairMove { amount: x - &partner_of_y, to: (partner_of_y, y.clone()), take: Take::First });
    }
    let partner_of_x = partner(x);
    if &partner_of_x < y {
        moves.push(PairMove { amount: y - &partner_of_x, to: (x.clone(), partner_of_x), take: Take::Second });
    }
    // A move from both keeps the difference k, so it can only reach (a_k, b_k) or (b_k, a_k).
    let (small, large) = if x <= y { (x, y) } else { (y, x) };
    let difference = large - small;
    let target_small = lower(&difference);
    if &target_small < small {
        let amount = small - &target_small;
        moves.push(PairMove { to: (x - &amount, y - &amount), take: Take::Both, amount });
    }
    debug_assert!(moves.iter().all(|m| is_p_position(&m.to.0, &m.to.1)));
    moves.retain(|m| is_p_position(&m.to.0, &m.to.1));
    moves
}
