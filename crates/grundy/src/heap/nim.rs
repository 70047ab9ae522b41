//! Nim: take any positive number of counters from one heap.
//!
//! **Closed form.** `G(n) = n`, so a Nim position's value is the xor of its heaps (Bouton,
//! *Nim, a game with a complete mathematical theory*, Annals of Math. 1901–02; seed
//! `000_005bb898a10eaf14.txt`). Heaps may have any number of digits.

use crate::control::Control;
use crate::error::GameError;
use crate::heap::period::KnownPeriod;
use crate::heap::{CompactSequence, Extended, HeapGame, Periodicity, extend_in_chunks};
use num_bigint::BigUint;

/// Nim on one heap: the rules ([`HeapGame::heap_options`]: any smaller heap) and the closed
/// form `G(n) = n`. The registry serves it through [`crate::heap::HeapRules`].
///
/// ```
/// use grundy::heap::HeapGame;
/// use grundy::heap::nim::Nim;
/// assert_eq!(Nim.heap_options(3), vec![vec![2], vec![1], vec![0]]);
/// assert_eq!(Nim.closed_form_value(&9u32.into()), Some(9u32.into()));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Nim;

impl HeapGame for Nim {
    fn spec(&self) -> String {
        "nim".to_owned()
    }

    fn is_nim(&self) -> bool {
        true
    }

    fn extend_sequence(&self, values: &mut CompactSequence, len: usize, control: &Control) -> Extended {
        if len > 1 << 32 {
            return Err(GameError::Unsupported(format!(
                "nim-sequences are tables of 32-bit values; heap {} is past 2^32 - 1",
                len - 1
            )));
        }
        extend_in_chunks("nim", values, len, 1 << 22, control, |values, next| {
            values.extend(values.len() as u32..=(next - 1) as u32);
        })
    }

    /// Moves remove any number of counters: no finite check proves a period (the closed form
    /// does, see [`HeapGame::known_period`]).
    fn periodicity(&self) -> Periodicity {
        Periodicity::Unproved
    }

    /// The rules: a heap of `n` becomes any smaller heap.
    fn heap_options(&self, heap: u64) -> Vec<Vec<u64>> {
        (0..heap).rev().map(|option| vec![option]).collect()
    }

    /// One option at a time (a heap of `n` has `n`).
    fn for_each_heap_option(&self, heap: u64, visit: &mut dyn FnMut(&[u64])) {
        for option in (0..heap).rev() {
            visit(&[option]);
        }
    }

    fn method(&self) -> String {
        "closed form G(n) = n".to_owned()
    }

    /// `G(n + 1) = G(n) + 1` from heap 0: an arithmetic period with saltus 1.
    fn known_period(&self) -> Option<KnownPeriod> {
        Some(KnownPeriod { preperiod: 0, period: 1, saltus: 1, theorem: "G(n) = n (Bouton 1901)".to_owned() })
    }

    fn closed_form_value(&self, heap: &BigUint) -> Option<BigUint> {
        Some(heap.clone())
    }

    /// The options of `n` are exactly `0..n`, each its own value.
    fn closed_form_moves(&self, heap: &BigUint, target: &BigUint) -> Option<Vec<BigUint>> {
        Some(if target < heap { vec![target.clone()] } else { Vec::new() })
    }

    fn option_count(&self, heap: &BigUint) -> Option<BigUint> {
        Some(heap.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::HeapRules;
    use crate::ruleset::ComponentGame;
    use proptest::prelude::*;

    #[test]
    fn sequence_is_the_closed_form_and_the_arithmetic_period_is_proved() {
        let mut values = CompactSequence::from_values(&[0, 1]);
        assert!(Nim.extend_sequence(&mut values, 1000, &Control::default()).unwrap());
        assert!(values.iter().enumerate().all(|(heap, value)| value as usize == heap));
        let report =
            crate::heap::period::find_period(&Nim, &mut values, 999, &Control::default(), &mut |_| {}).unwrap();
        let (period, _) = report.proved.unwrap();
        assert_eq!((period.preperiod, period.period, period.saltus), (0, 1, 1));
    }

    proptest! {
        #[test]
        fn big_heaps_parse_and_move(digits in "[1-9][0-9]{0,200}") {
            let rules = HeapRules::new(Nim);
            let heap = rules.parse_component(&digits).unwrap();
            prop_assert_eq!(rules.format_component(&heap), digits);
            // Listable at any size: the closed form gives the moves, no table is needed.
            prop_assert!(rules.check_moves_listable(&heap).is_ok());
            let moves = ComponentGame::moves_to_value(&rules, &heap, &BigUint::from(7u32)).unwrap();
            prop_assert_eq!(moves.len(), usize::from(heap > BigUint::from(7u32)));
        }
    }
}
