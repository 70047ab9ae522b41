//! Nim: take any positive number of counters from one heap.
//!
//! **Closed form.** `G(n) = n`, so a Nim position's value is the xor of its heaps (Bouton,
//! *Nim, a game with a complete mathematical theory*, Annals of Math. 1901–02; seed
//! `000_005bb898a10eaf14.txt`). Heaps may have any number of digits.

use crate::error::GameError;
use crate::game::Game;
use crate::heap::{heap_bar, parse_heap};
use crate::ruleset::{ComponentGame, ComponentMove, too_many_moves};
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

    fn component_value(&self, heap: &BigUint) -> Result<BigUint, GameError> {
        Ok(heap.clone())
    }

    fn moves_to_value(&self, heap: &BigUint, target: &BigUint) -> Result<Vec<ComponentMove<BigUint>>, GameError> {
        // The options of n are exactly 0..n, each its own value.
        Ok(if target < heap {
            vec![ComponentMove { result: vec![target.clone()], notation: format!("{heap} -> {target}") }]
        } else {
            Vec::new()
        })
    }

    fn component_options(&self, heap: &BigUint, limit: usize) -> Result<Vec<ComponentMove<BigUint>>, GameError> {
        match heap.to_usize() {
            Some(size) if size <= limit => Ok((0..size as u64)
                .rev()
                .map(|option| ComponentMove { result: vec![option.into()], notation: format!("{heap} -> {option}") })
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
