//! Nim: take any positive number of counters from one heap.
//!
//! **Closed form.** `G(n) = n`, so a Nim position's value is the xor of its heaps (Bouton,
//! *Nim, a game with a complete mathematical theory*, Annals of Math. 1901–02; seed
//! `000_005bb898a10eaf14.txt`). Heaps may have any number of digits.

use crate::error::{GameError, check_memory};
use crate::game::Game;
use crate::heap::period::KnownPeriod;
use crate::heap::{HeapGame, Periodicity, SequenceControl, heap_bar, parse_heap};
use crate::ruleset::{ComponentGame, ComponentMove, too_many_moves};
use crate::value::Value;
use num_bigint::BigUint;
use num_traits::ToPrimitive;

/// The rules of Nim on one heap, for the generic solver.
///
/// ```
/// use grundy::game::Game;
/// use grundy::heap::nim::Nim;
/// assert_eq!(Nim.options(&3), vec![2, 1, 0]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Nim;

impl Game for Nim {
    type Position = u64;
    fn options_into(&self, heap: &u64, out: &mut Vec<u64>) {
        out.extend((0..*heap).rev());
    }
}

impl HeapGame for Nim {
    fn spec(&self) -> String {
        "nim".to_owned()
    }

    fn extend_sequence(&self, values: &mut Vec<u32>, len: usize, control: &SequenceControl) -> Result<bool, GameError> {
        check_memory(|| format!("the nim-sequence of nim up to heap {len}"), len as u128, 4)?;
        // The whole table at once and fallibly: no doubling past the estimate, no abort.
        crate::error::try_reserve_table(values, len.saturating_sub(values.len()), || {
            format!("the nim-sequence of nim up to heap {len}")
        })?;
        if len > 1 << 32 {
            return Err(GameError::Unsupported(format!(
                "nim-sequences are tables of 32-bit values; heap {} is past 2^32 - 1",
                len - 1
            )));
        }
        const CHUNK: usize = 1 << 22;
        while values.len() < len {
            if control.cancelled() {
                return Ok(false);
            }
            let next = len.min(values.len() + CHUNK);
            values.extend(values.len() as u32..=(next - 1) as u32);
            (control.progress)(values.len());
        }
        Ok(true)
    }

    /// Moves remove any number of counters: no finite check proves a period (the closed form
    /// does, see [`HeapGame::known_period`]).
    fn periodicity(&self) -> Periodicity {
        Periodicity::Unproved
    }

    fn heap_options(&self, heap: u64) -> Vec<Vec<u64>> {
        self.options(&heap).into_iter().map(|option| vec![option]).collect()
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
}

/// The closed form: the Grundy value of a Nim heap is its size.
pub fn grundy_value(heap: u64) -> u64 {
    heap
}

/// Nim for the front end: heaps of any size.
#[derive(Clone, Copy, Debug, Default)]
pub struct NimRules;

impl ComponentGame for NimRules {
    type Component = BigUint;

    fn spec(&self) -> String {
        "nim".to_owned()
    }

    fn parse_component(&self, text: &str) -> Result<BigUint, GameError> {
        parse_heap("nim", text)
    }

    fn format_component(&self, heap: &BigUint) -> String {
        heap.to_string()
    }

    fn value(&self, heap: &BigUint) -> Result<Value, GameError> {
        Ok(Value::Finite(heap.clone()))
    }

    fn heap_game(&self) -> Option<&dyn HeapGame> {
        Some(&Nim)
    }

    fn moves_to_value(&self, heap: &BigUint, target: &BigUint) -> Result<Vec<ComponentMove<BigUint>>, GameError> {
        // The options of n are exactly 0..n, each its own value.
        Ok(if target < heap {
            vec![ComponentMove::new(vec![target.clone()], format!("{heap} -> {target}"))]
        } else {
            Vec::new()
        })
    }

    fn options(&self, heap: &BigUint, limit: usize) -> Result<Vec<ComponentMove<BigUint>>, GameError> {
        match heap.to_usize() {
            Some(size) if size <= limit => Ok((0..size as u64)
                .rev()
                .map(|option| ComponentMove::new(vec![option.into()], format!("{heap} -> {option}")))
                .collect()),
            _ => Err(too_many_moves("nim", &heap.to_string(), limit)),
        }
    }

    fn describe_component(&self, heap: &BigUint) -> String {
        heap_bar(heap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::memo::Solver;
    use proptest::prelude::*;

    #[test]
    fn closed_form_matches_definition_on_every_small_heap() {
        let mut solver = Solver::new(Nim);
        for heap in 0..300 {
            assert_eq!(solver.grundy_value(&heap).unwrap().0, grundy_value(heap));
        }
    }

    #[test]
    fn sequence_is_the_closed_form_and_the_arithmetic_period_is_proved() {
        let mut values = vec![0, 1];
        assert!(Nim.extend_sequence(&mut values, 1000, &SequenceControl::default()).unwrap());
        assert!(values.iter().enumerate().all(|(heap, &value)| value as usize == heap));
        let report =
            crate::heap::period::find_period(&Nim, &mut values, 999, &SequenceControl::default(), &mut |_| {}).unwrap();
        let (period, _) = report.proved.unwrap();
        assert_eq!((period.preperiod, period.period, period.saltus), (0, 1, 1));
        assert!(NimRules.heap_game().is_some());
    }

    proptest! {
        #[test]
        fn big_heaps_parse_and_move(digits in "[1-9][0-9]{0,200}") {
            let heap = NimRules.parse_component(&digits).unwrap();
            prop_assert_eq!(NimRules.format_component(&heap), digits);
            let moves = NimRules.moves_to_value(&heap, &BigUint::from(7u32)).unwrap();
            prop_assert_eq!(moves.len(), usize::from(heap > BigUint::from(7u32)));
        }
    }
}
