//! Lasker's Nim (`lasker`): a move removes any positive number of counters from one heap, or
//! splits one heap into two non-empty heaps (Emanuel Lasker, *Brettspiele der Völker*, 1931;
//! *Winning Ways for your Mathematical Plays*, Berlekamp, Conway and Guy, 1982, ch. 4; the
//! problem HDU 3032 "Nim or not Nim?"). As an octal code, `4.333…`.
//!
//! **Closed form.** `G(0) = 0` and, for `k >= 0`,
//! `G(4k + 1) = 4k + 1`, `G(4k + 2) = 4k + 2`, `G(4k + 3) = 4k + 4`, `G(4k + 4) = 4k + 3`:
//! an arithmetic period `G(n + 4) = G(n) + 4` from heap 1.
//!
//! *Proof* (by induction on `n`; write `g` for the formula). `g` maps each block
//! `{4k + 1, …, 4k + 4}` onto itself, so the heaps `1..n` that a removal leaves are worth
//! `g(1..n)`, and the residues mod 4 of `g` at a positive heap are `1 → 1`, `2 → 2`, `3 → 0`,
//! `0 → 3`. The last two bits of `x ⊕ y` are those of the last two bits of `x` and `y`, so a
//! split `a + b = n` (`a, b >= 1`) is worth, mod 4: for `n ≡ 1`, `(0, 1)` or `(2, 3)` residue
//! pairs, `3 ⊕ 1` or `2 ⊕ 0`: always `2`; for `n ≡ 2`, `(1, 1)`, `(0, 2)` or `(3, 3)`: `0`, `1`
//! or `0`; for `n ≡ 3`, `(1, 2)` or `(0, 3)`: `3`; for `n ≡ 0`, `(1, 3)`, `(2, 2)`, `(0, 0)`:
//! `1`, `0` or `0`. Now, with `n = 4k + r`:
//! - `r = 1`: removals reach `{0, …, 4k}`; splits are `≡ 2`, never `4k + 1`: the mex is `4k + 1`.
//! - `r = 2`: removals reach `{0, …, 4k + 1}`; splits are `≡ 0, 1`, never `4k + 2`: `4k + 2`.
//! - `r = 3`: removals reach `{0, …, 4k + 2}`; the split `1 + (4k + 2)` is worth
//!   `1 ⊕ (4k + 2) = 4k + 3`; `4k + 4 ≡ 0` is no split's value nor a removal's: `4k + 4`.
//! - `r = 0` (`n = 4k + 4`): removals reach `{0, …, 4k + 2} ∪ {4k + 4}`; splits are `≡ 0, 1`,
//!   never `4k + 3`: the mex is `4k + 3`.
//!
//! The property tests compare the formula with the mex over the rules.

use crate::control::Control;
use crate::error::GameError;
use crate::heap::period::KnownPeriod;
use crate::heap::{CompactSequence, Extended, HeapGame, Periodicity, extend_in_chunks};
use num_bigint::BigUint;
use num_traits::ToPrimitive;

/// Lasker's Nim: the rules ([`HeapGame::heap_options`]: a smaller heap, or two non-empty heaps
/// of the same total) and the closed form. The registry serves it through
/// [`crate::heap::HeapRules`].
///
/// ```
/// use grundy::heap::HeapGame;
/// use grundy::heap::lasker::LaskersNim;
/// // A heap of 3 becomes 2, 1 or nothing, or is split into 1 + 2.
/// assert_eq!(LaskersNim.heap_options(3), vec![vec![2], vec![1], vec![0], vec![1, 2]]);
/// let mut values = grundy::heap::CompactSequence::new();
/// LaskersNim.extend_sequence(&mut values, 9, &Default::default()).unwrap();
/// assert_eq!(values.to_vec(), [0, 1, 2, 4, 3, 5, 6, 8, 7]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct LaskersNim;

/// `G(n)` by the closed form.
fn lasker(heap: u64) -> u64 {
    match heap % 4 {
        _ if heap == 0 => 0,
        3 => heap + 1,
        0 => heap - 1,
        _ => heap,
    }
}

impl HeapGame for LaskersNim {
    fn spec(&self) -> String {
        "lasker".to_owned()
    }

    fn extend_sequence(&self, values: &mut CompactSequence, len: usize, control: &Control) -> Extended {
        // G(n) <= n + 1: the values fit 32 bits while the heaps stay below 2^32 - 1.
        if len as u64 > u64::from(u32::MAX) {
            return Err(GameError::Unsupported(format!(
                "nim-sequences are tables of 32-bit values; G({}) of lasker is past 2^32 - 1",
                len - 1
            )));
        }
        extend_in_chunks("lasker", values, len, 1 << 22, control, |values, next| {
            values.extend((values.len()..next).map(|heap| lasker(heap as u64) as u32));
        })
    }

    /// Moves remove any number of counters: no finite check proves a period (the closed form
    /// does, see [`HeapGame::known_period`]).
    fn periodicity(&self) -> Periodicity {
        Periodicity::Unproved
    }

    /// The rules: `n` becomes any smaller heap, or `a + b` with `1 <= a <= b`, `a + b = n`.
    fn heap_options(&self, heap: u64) -> Vec<Vec<u64>> {
        let mut options = Vec::new();
        self.for_each_heap_option(heap, &mut |option| options.push(option.to_vec()));
        options
    }

    fn for_each_heap_option(&self, heap: u64, visit: &mut dyn FnMut(&[u64])) {
        for smaller in (0..heap).rev() {
            visit(&[smaller]);
        }
        for small in 1..=heap / 2 {
            visit(&[small, heap - small]);
        }
    }

    fn method(&self) -> String {
        "closed form: Lasker's Nim, G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3".to_owned()
    }

    /// `G(n + 4) = G(n) + 4` from heap 1.
    fn known_period(&self) -> Option<KnownPeriod> {
        Some(KnownPeriod {
            preperiod: 1,
            period: 4,
            saltus: 4,
            theorem: "Lasker's Nim: G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3 \
                      (Lasker 1931; Winning Ways ch. 4)"
                .to_owned(),
        })
    }

    fn closed_form_value(&self, heap: &BigUint) -> Option<BigUint> {
        if *heap == BigUint::ZERO {
            return Some(BigUint::ZERO);
        }
        let residue = (heap % 4u32).to_u32().unwrap_or(0);
        Some(match residue {
            3 => heap + 1u32,
            0 => heap - 1u32,
            _ => heap.clone(),
        })
    }

    /// `n` removals and `⌊n / 2⌋` splits.
    fn option_count(&self, heap: &BigUint) -> Option<BigUint> {
        Some(heap + (heap >> 1u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::{HeapRules, sequence_by_definition};
    use crate::ruleset::ComponentGame;
    use proptest::prelude::*;

    #[test]
    fn the_closed_form_is_the_mex_over_the_rules() {
        for (heap, by_definition) in (0u64..).zip(sequence_by_definition(&LaskersNim, 600)) {
            assert_eq!(lasker(heap), by_definition, "heap {heap}");
            assert_eq!(LaskersNim.closed_form_value(&heap.into()), Some(BigUint::from(by_definition)));
            assert_eq!(LaskersNim.option_count(&heap.into()), Some(BigUint::from(LaskersNim.heap_options(heap).len())));
        }
    }

    proptest! {
        /// Far heaps by the closed form keep the arithmetic period, and agree with the
        /// 64-bit formula.
        #[test]
        fn big_heaps_keep_the_period(heap in 1u64..u64::MAX / 2, digits in "[1-9][0-9]{20,60}") {
            let big = BigUint::from(heap);
            prop_assert_eq!(LaskersNim.closed_form_value(&big), Some(BigUint::from(lasker(heap))));
            let far: BigUint = digits.parse().unwrap();
            let value = LaskersNim.closed_form_value(&far).unwrap();
            let four_more = LaskersNim.closed_form_value(&(&far + 4u32)).unwrap();
            prop_assert_eq!(four_more, value + 4u32);
            let rules = HeapRules::new(LaskersNim);
            let component = rules.parse_component(&digits).unwrap();
            prop_assert!(rules.value(&component).is_ok());
        }
    }
}
