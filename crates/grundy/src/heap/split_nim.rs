//! Split-Nim (`split-nim`, 拆分-Nim, AcWing 894): a move takes one heap of `a` counters away
//! and puts down two heaps of `b` and `c` counters, any `0 <= b, c < a` (their total may exceed
//! `a`; a heap of 0 is no heap).
//!
//! **Closed form.** `G(0) = 0` and, for `n >= 1`, `G(n)` is the `n`-th odious number (OEIS
//! A000069, the numbers with an odd count of 1 bits: 1, 2, 4, 7, 8, 11, …), that is
//! `G(n) = 2(n − 1) + [popcount(n − 1) is even]`.
//!
//! *Proof* (by induction on `n`). Each pair `{2j, 2j + 1}` holds exactly one odious number, so
//! the first `n − 1` odious numbers are the odious numbers below `2(n − 1)`, and the values of
//! the heaps below `n` are `V = {0} ∪ {odious x < 2(n − 1)}`. The options of `n` are worth
//! `x xor y` for `x, y` in `V`. Every odious `x < 2(n − 1)` is reached (`x xor 0`), every evil
//! `e` with `0 < e < 2(n − 1)` too (`1 xor (e xor 1)`, both odious and below `2(n − 1)`), and 0
//! (`0 xor 0`). Of the pair `{2(n − 1), 2n − 1}`, the odious member is never reached (a xor of
//! two odious numbers is evil, `x xor 0 = x`), and the evil member `E`, when it is the smaller
//! (`E = 2(n − 1)`, so `n >= 2` and `E` has a second 1 bit below its highest, `2^h`), is
//! `2^h xor (E − 2^h)`, two odious numbers below `E`. So the mex is the odious member: the
//! `n`-th odious number. The property tests compare this with the mex over the rules.

use crate::control::Control;
use crate::error::GameError;
use crate::heap::{CompactSequence, Extended, HeapGame, Periodicity, extend_in_chunks};
use num_bigint::BigUint;
use num_traits::One;

/// Split-Nim: the rules ([`HeapGame::heap_options`]: two smaller heaps) and the closed form
/// (the odious numbers). The registry serves it through [`crate::heap::HeapRules`].
///
/// ```
/// use grundy::heap::HeapGame;
/// use grundy::heap::split_nim::SplitNim;
/// // A heap of 2 becomes 0 + 0, 0 + 1 or 1 + 1 (a heap of 0 is no heap).
/// assert_eq!(SplitNim.heap_options(2), vec![vec![], vec![1], vec![1, 1]]);
/// let mut values = grundy::heap::CompactSequence::new();
/// SplitNim.extend_sequence(&mut values, 8, &Default::default()).unwrap();
/// assert_eq!(values.to_vec(), [0, 1, 2, 4, 7, 8, 11, 13]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct SplitNim;

/// `G(n)`: 0, then the `n`-th odious number.
fn odious(heap: u64) -> u64 {
    match heap {
        0 => 0,
        _ => 2 * (heap - 1) + u64::from((heap - 1).count_ones().is_multiple_of(2)),
    }
}

impl HeapGame for SplitNim {
    fn spec(&self) -> String {
        "split-nim".to_owned()
    }

    fn extend_sequence(&self, values: &mut CompactSequence, len: usize, control: &Control) -> Extended {
        // G(n) < 2n: the values fit 32 bits while the heaps do (below 2^31).
        if len > 1 << 31 {
            return Err(GameError::Unsupported(format!(
                "nim-sequences are tables of 32-bit values; G({}) of split-nim is past 2^32 - 1",
                len - 1
            )));
        }
        extend_in_chunks("split-nim", values, len, 1 << 22, control, |values, next| {
            values.extend((values.len()..next).map(|heap| odious(heap as u64) as u32));
        })
    }

    /// The values grow without bound: no period.
    fn periodicity(&self) -> Periodicity {
        Periodicity::Unproved
    }

    /// The rules: `a` becomes `b + c` for `0 <= b <= c < a`, heaps of 0 left out.
    fn heap_options(&self, heap: u64) -> Vec<Vec<u64>> {
        let mut options = Vec::new();
        self.for_each_heap_option(heap, &mut |option| options.push(option.to_vec()));
        options
    }

    fn for_each_heap_option(&self, heap: u64, visit: &mut dyn FnMut(&[u64])) {
        for small in 0..heap {
            for large in small..heap {
                match (small, large) {
                    (0, 0) => visit(&[]),
                    (0, _) => visit(&[large]),
                    _ => visit(&[small, large]),
                }
            }
        }
    }

    fn method(&self) -> String {
        "closed form: G(n) is the n-th odious number".to_owned()
    }

    fn closed_form_value(&self, heap: &BigUint) -> Option<BigUint> {
        if *heap == BigUint::ZERO {
            return Some(BigUint::ZERO);
        }
        let before: BigUint = heap - 1u32;
        let even_ones = before.count_ones().is_multiple_of(2);
        Some((before << 1u32) + if even_ones { BigUint::one() } else { BigUint::ZERO })
    }

    /// `a(a + 1) / 2` splits of a heap of `a`.
    fn option_count(&self, heap: &BigUint) -> Option<BigUint> {
        Some(heap * (heap + 1u32) / 2u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::sequence_by_definition;

    #[test]
    fn the_closed_form_is_the_mex_over_the_rules() {
        for (heap, by_definition) in (0u64..).zip(sequence_by_definition(&SplitNim, 300)) {
            assert_eq!(odious(heap), by_definition, "heap {heap}");
            assert_eq!(SplitNim.closed_form_value(&heap.into()), Some(BigUint::from(by_definition)));
            assert_eq!(SplitNim.option_count(&heap.into()), Some(BigUint::from(SplitNim.heap_options(heap).len())));
        }
    }

    #[test]
    fn big_heaps_by_the_closed_form() {
        // 2^64 + 1: n − 1 = 2^64 has one 1 bit, so G = 2^65.
        let heap = (BigUint::one() << 64u32) + 1u32;
        assert_eq!(SplitNim.closed_form_value(&heap), Some(BigUint::one() << 65u32));
    }
}
