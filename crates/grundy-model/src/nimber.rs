//! Nimbers: the values of impartial games, and Conway's field arithmetic on them.
//!
//! The nim-sum `a ⊕ b` is bitwise xor. The nim-product `a ⊗ b` is Conway's multiplication
//! (On Numbers and Games, ch. 6): the nimbers below `2^(2^k)` form the field `GF(2^(2^k))`,
//! so the 64-bit nimbers are `GF(2^64)`, closed under both operations — nothing ever wraps.
//!
//! # How the product is computed
//! Write `F = 2^(2^k)` (a *Fermat 2-power*). Every nimber below `F²` is `h ⊗ F ⊕ l` with
//! `h, l < F`, and `F ⊗ F = F ⊕ F/2` (Conway, ONAG Thm. 49). Hence
//!
//! ```text
//! (h₁F ⊕ l₁)(h₂F ⊕ l₂) = ((h₁⊕l₁)(h₂⊕l₂) ⊕ l₁l₂) F  ⊕  (l₁l₂ ⊕ (h₁h₂)(F/2))
//! ```
//!
//! three half-size products and one product by the constant `F/2` (Karatsuba). At 16 bits the
//! recursion stops at log/exp tables of the multiplicative group of `GF(2^16)`, built once.
//! The inverse uses the norm of the quadratic extension: with `conj(hF ⊕ l) = hF ⊕ (h ⊕ l)`,
//! `x ⊗ conj(x) = h²(F/2) ⊕ hl ⊕ l²` lies in the half-size field, so
//! `x⁻¹ = conj(x) ⊗ norm(x)⁻¹`.

use std::fmt;
use std::ops::{Add, AddAssign, Mul, MulAssign};
use std::str::FromStr;
use std::sync::LazyLock;

/// A nimber below `2^64`: an element of the field `GF(2^64)` under nim-addition and
/// nim-multiplication.
///
/// `+` is the nim-sum (xor) and `*` the nim-product; both are closed, so no value ever wraps.
/// Displayed as `*n`; parsed from `*n` or `n`.
///
/// ```
/// use grundy_model::Nimber;
/// let two = Nimber(2);
/// assert_eq!(two * two, Nimber(3));
/// assert_eq!(Nimber(4) * Nimber(4), Nimber(6));
/// assert_eq!(Nimber(16) * Nimber(16), Nimber(24));
/// assert_eq!(Nimber(3) + Nimber(5), Nimber(6));
/// assert_eq!(Nimber(7).to_string(), "*7");
/// assert_eq!("*7".parse::<Nimber>(), Ok(Nimber(7)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(transparent))]
pub struct Nimber(pub u64);

impl Nimber {
    /// The nimber `0`, the value of every P-position.
    pub const ZERO: Nimber = Nimber(0);
    /// The nimber `1` (`*`), the multiplicative identity.
    pub const ONE: Nimber = Nimber(1);

    /// The nim-product `self ⊗ other` in `GF(2^64)`.
    ///
    /// ```
    /// use grundy_model::Nimber;
    /// assert_eq!(Nimber(2).nim_mul(Nimber(3)), Nimber(1));
    /// assert_eq!(Nimber(3).nim_mul(Nimber(5)), Nimber(15));
    /// ```
    pub fn nim_mul(self, other: Nimber) -> Nimber {
        Nimber(nim_mul(self.0, other.0))
    }

    /// The nim-inverse, `None` for zero.
    ///
    /// ```
    /// use grundy_model::Nimber;
    /// assert_eq!(Nimber(2).inverse(), Some(Nimber(3)));
    /// let x = Nimber(0xdead_beef_1234_5678);
    /// assert_eq!(x * x.inverse().unwrap(), Nimber::ONE);
    /// assert_eq!(Nimber::ZERO.inverse(), None);
    /// ```
    pub fn inverse(self) -> Option<Nimber> {
        (self.0 != 0).then(|| Nimber(nim_inverse(self.0)))
    }

    /// The nim-square `self ⊗ self`.
    pub fn square(self) -> Nimber {
        self * self
    }
}

impl fmt::Display for Nimber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "*{}", self.0)
    }
}

/// The error when a text is not a nimber.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a nimber (expected `*n` or `n` with n below 2^64)")]
pub struct ParseNimberError {
    /// The text that failed to parse.
    pub text: String,
}

impl FromStr for Nimber {
    type Err = ParseNimberError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let digits = text.strip_prefix('*').unwrap_or(text);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseNimberError { text: text.to_owned() });
        }
        digits.parse().map(Nimber).map_err(|_| ParseNimberError { text: text.to_owned() })
    }
}

// Nim-addition is xor: that is the point, not a slip.
#[allow(clippy::suspicious_arithmetic_impl)]
impl Add for Nimber {
    type Output = Nimber;
    fn add(self, other: Nimber) -> Nimber {
        Nimber(self.0 ^ other.0)
    }
}

#[allow(clippy::suspicious_op_assign_impl)]
impl AddAssign for Nimber {
    fn add_assign(&mut self, other: Nimber) {
        self.0 ^= other.0;
    }
}

impl Mul for Nimber {
    type Output = Nimber;
    fn mul(self, other: Nimber) -> Nimber {
        self.nim_mul(other)
    }
}

impl MulAssign for Nimber {
    fn mul_assign(&mut self, other: Nimber) {
        *self = *self * other;
    }
}

impl std::iter::Sum for Nimber {
    fn sum<I: Iterator<Item = Nimber>>(iter: I) -> Nimber {
        iter.fold(Nimber::ZERO, Add::add)
    }
}

/// The minimum excludant: the least non-negative integer not in `values`.
///
/// This is the Grundy value of a position whose options have the given values
/// (Sprague 1935, Grundy 1939).
///
/// ```
/// use grundy_model::mex;
/// assert_eq!(mex([0, 1, 2, 4]), 3);
/// assert_eq!(mex([]), 0);
/// assert_eq!(mex([5, 1, 0, 0]), 2);
/// ```
pub fn mex<I: IntoIterator<Item = u64>>(values: I) -> u64 {
    // Only values up to the number of options can matter, so a bitset of that size suffices.
    let values: Vec<u64> = values.into_iter().collect();
    let mut seen = vec![0u64; values.len() / 64 + 1];
    for &value in &values {
        if value <= values.len() as u64 {
            seen[value as usize / 64] |= 1 << (value % 64);
        }
    }
    first_zero_bit(&seen)
}

/// The index of the first zero bit of a bitset (`64 * words.len()` when it is full).
pub fn first_zero_bit(words: &[u64]) -> u64 {
    for (index, word) in words.iter().enumerate() {
        if *word != u64::MAX {
            return index as u64 * 64 + word.trailing_ones() as u64;
        }
    }
    words.len() as u64 * 64
}

/// Log/exp tables of the multiplicative group of `GF(2^16)` (the nimbers below 65536), and the
/// table of products by `2^15` (the `F/2` of the 32-bit level).
struct Tables {
    log: Vec<u16>,
    /// `exp[i] = g^i` for `i < 2·65535`, so a sum of two logs needs no reduction.
    exp: Vec<u16>,
    times_half16: Vec<u16>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(build_tables);

/// The nim-product by Conway's recursive definition, used only to build the tables (and by
/// the tests as the reference).
pub(crate) fn nim_mul_reference(a: u64, b: u64, bits: u32) -> u64 {
    if a < 2 || b < 2 {
        return a * b;
    }
    let half = bits / 2;
    let mask = (1u64 << half) - 1;
    let (a_high, a_low) = (a >> half, a & mask);
    let (b_high, b_low) = (b >> half, b & mask);
    let high_high = nim_mul_reference(a_high, b_high, half);
    let low_low = nim_mul_reference(a_low, b_low, half);
    let cross = nim_mul_reference(a_high ^ a_low, b_high ^ b_low, half) ^ low_low;
    let high_high_times_half = nim_mul_reference(high_high, 1 << (half - 1), half);
    (cross << half) | (low_low ^ high_high_times_half)
}

/// `base` to the power `exponent` under `multiply` (associative, with identity 1), by
/// repeated squaring: the powers of GF(2^16) here and the modular powers of the period
/// search's fingerprints (`heap::period`).
pub fn power_by_squaring(base: u64, exponent: u64, multiply: impl Fn(u64, u64) -> u64) -> u64 {
    let (mut result, mut base, mut exponent) = (1, base, exponent);
    while exponent > 0 {
        if exponent & 1 == 1 {
            result = multiply(result, base);
        }
        base = multiply(base, base);
        exponent >>= 1;
    }
    result
}

fn build_tables() -> Tables {
    let product16 = |a: u64, b: u64| nim_mul_reference(a, b, 16);
    let order = 65535u32;
    // Find a generator of the cyclic group of order 65535 = 3·5·17·257.
    let generator = (2u64..)
        .find(|&g| [3u32, 5, 17, 257].iter().all(|p| power_by_squaring(g, u64::from(order / p), product16) != 1))
        .expect("GF(2^16)* is cyclic");
    let mut log = vec![0u16; 65536];
    let mut exp = vec![0u16; 2 * order as usize];
    let mut x = 1u64;
    for i in 0..order as usize {
        exp[i] = x as u16;
        exp[i + order as usize] = x as u16;
        log[x as usize] = i as u16;
        x = product16(x, generator);
    }
    let mut tables = Tables { log, exp, times_half16: Vec::new() };
    tables.times_half16 = (0..65536u32).map(|a| mul16(&tables, a as u16, 1 << 15)).collect();
    tables
}

#[inline(always)]
fn mul16(tables: &Tables, a: u16, b: u16) -> u16 {
    if a == 0 || b == 0 {
        return 0;
    }
    let index = tables.log[a as usize] as usize + tables.log[b as usize] as usize;
    tables.exp[index]
}

#[inline(always)]
fn mul32(tables: &Tables, a: u32, b: u32) -> u32 {
    let (a_high, a_low) = ((a >> 16) as u16, a as u16);
    let (b_high, b_low) = ((b >> 16) as u16, b as u16);
    let low_low = mul16(tables, a_low, b_low);
    let high_high = mul16(tables, a_high, b_high);
    let cross = mul16(tables, a_high ^ a_low, b_high ^ b_low) ^ low_low;
    let low = low_low ^ tables.times_half16[high_high as usize];
    ((cross as u32) << 16) | low as u32
}

/// `a ⊗ 2^31`, the `F/2` of the 64-bit level: `2^31 = 2^15 ⊗ 2^16`, so with `a = hF ⊕ l`
/// (`F = 2^16`) this is `(h·2^15)F² ⊕ (l·2^15)F`, and `F² = F ⊕ 2^15`.
#[inline(always)]
fn mul32_by_half32(tables: &Tables, a: u32) -> u32 {
    let (high, low) = ((a >> 16) as u16, a as u16);
    let high_half = tables.times_half16[high as usize];
    let low_half = tables.times_half16[low as usize];
    // (high_half)(F ⊕ 2^15) ⊕ (low_half)F
    let upper = high_half ^ low_half;
    let lower = tables.times_half16[high_half as usize];
    ((upper as u32) << 16) | lower as u32
}

/// The nim-product of two 64-bit nimbers.
///
/// ```
/// assert_eq!(grundy_model::nimber::nim_mul(2, 2), 3);
/// assert_eq!(grundy_model::nimber::nim_mul(1 << 32, 1 << 32), (1 << 32) | (1 << 31));
/// ```
pub fn nim_mul(a: u64, b: u64) -> u64 {
    let tables = &*TABLES;
    let (a_high, a_low) = ((a >> 32) as u32, a as u32);
    let (b_high, b_low) = ((b >> 32) as u32, b as u32);
    let low_low = mul32(tables, a_low, b_low);
    let high_high = mul32(tables, a_high, b_high);
    let cross = mul32(tables, a_high ^ a_low, b_high ^ b_low) ^ low_low;
    let low = low_low ^ mul32_by_half32(tables, high_high);
    ((cross as u64) << 32) | low as u64
}

fn inverse16(tables: &Tables, a: u16) -> u16 {
    let log = tables.log[a as usize] as usize;
    tables.exp[(65535 - log) % 65535]
}

fn inverse32(tables: &Tables, a: u32) -> u32 {
    let (high, low) = ((a >> 16) as u16, a as u16);
    // norm = h²·2^15 ⊕ h·l ⊕ l², an element of GF(2^16).
    let norm =
        tables.times_half16[mul16(tables, high, high) as usize] ^ mul16(tables, high, low) ^ mul16(tables, low, low);
    let norm_inverse = inverse16(tables, norm);
    let conjugate_high = mul16(tables, high, norm_inverse);
    let conjugate_low = mul16(tables, high ^ low, norm_inverse);
    ((conjugate_high as u32) << 16) | conjugate_low as u32
}

/// The nim-inverse of a non-zero 64-bit nimber.
///
/// # Panics
/// If `a` is zero (zero has no inverse); [`Nimber::inverse`] returns `None` instead.
pub fn nim_inverse(a: u64) -> u64 {
    assert!(a != 0, "zero has no nim-inverse");
    let tables = &*TABLES;
    let (high, low) = ((a >> 32) as u32, a as u32);
    let norm = mul32_by_half32(tables, mul32(tables, high, high)) ^ mul32(tables, high, low) ^ mul32(tables, low, low);
    let norm_inverse = inverse32(tables, norm);
    let conjugate_high = mul32(tables, high, norm_inverse);
    let conjugate_low = mul32(tables, high ^ low, norm_inverse);
    ((conjugate_high as u64) << 32) | conjugate_low as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn published_products() {
        // Conway, ONAG ch. 6, the nim-multiplication table for 0..16.
        let row_two = [0, 2, 3, 1, 8, 10, 11, 9, 12, 14, 15, 13, 4, 6, 7, 5];
        for (b, expected) in row_two.iter().enumerate() {
            assert_eq!(nim_mul(2, b as u64), *expected, "2 ⊗ {b}");
        }
        assert_eq!(nim_mul(4, 4), 6);
        assert_eq!(nim_mul(8, 8), 13);
        assert_eq!(nim_mul(16, 16), 24);
        assert_eq!(nim_mul(1 << 16, 1 << 16), (1 << 16) | (1 << 15));
        assert_eq!(nim_mul(1 << 32, 1 << 32), (1 << 32) | (1 << 31));
    }

    #[test]
    fn mex_ignores_large_and_duplicate_values() {
        assert_eq!(mex([0, 0, 0]), 1);
        assert_eq!(mex([u64::MAX, 0]), 1);
        assert_eq!(mex(0..1000), 1000);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        #[test]
        fn fast_product_matches_recursive_definition(a: u64, b: u64) {
            prop_assert_eq!(nim_mul(a, b), nim_mul_reference(a, b, 64));
        }

        #[test]
        fn product_is_commutative_and_associative(a: u64, b: u64, c: u64) {
            prop_assert_eq!(nim_mul(a, b), nim_mul(b, a));
            prop_assert_eq!(nim_mul(nim_mul(a, b), c), nim_mul(a, nim_mul(b, c)));
        }

        #[test]
        fn product_distributes_over_nim_sum(a: u64, b: u64, c: u64) {
            prop_assert_eq!(nim_mul(a, b ^ c), nim_mul(a, b) ^ nim_mul(a, c));
        }

        #[test]
        fn inverse_is_inverse(a in 1u64..) {
            prop_assert_eq!(nim_mul(a, nim_inverse(a)), 1);
        }

        #[test]
        fn small_inverse_is_inverse(a in 1u64..70000) {
            prop_assert_eq!(nim_mul(a, nim_inverse(a)), 1);
        }

        #[test]
        fn display_round_trips(a: u64) {
            prop_assert_eq!(Nimber(a).to_string().parse::<Nimber>(), Ok(Nimber(a)));
        }

        #[test]
        fn mex_is_least_missing(values in proptest::collection::vec(0u64..40, 0..40)) {
            let result = mex(values.iter().copied());
            prop_assert!(!values.contains(&result));
            prop_assert!((0..result).all(|v| values.contains(&v)));
        }
    }
}
