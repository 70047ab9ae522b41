//! Sums of games and the Sprague–Grundy theorem.
//!
//! In a sum, a move is a move in exactly one component. The Sprague–Grundy theorem (Sprague
//! 1935, Grundy 1939; Berlekamp, Conway and Guy, *Winning Ways*, ch. 2) says the value of a
//! sum is the nim-sum (xor) of its components' values. Hence a move wins — leads to value 0 —
//! exactly when it takes some component `i` to an option of value `G(i) ⊕ total`.
//!
//! [`SumGame`] is the sum by the definition (a position is the list of components), which the
//! tests use to check that theorem against the generic solver; [`crate::ruleset::SumOf`] is
//! the fast form every family's command-line evaluation goes through.

use crate::game::Game;

/// The sum of any number of positions of one game, by the definition: a position is the list
/// of components and a move replaces one component by one of its options.
///
/// ```
/// use grundy::heap::nim::Nim;
/// use grundy::solve::memo::grundy_value;
/// use grundy::sum::SumGame;
/// // Bouton: the value of a Nim position is the xor of its heaps.
/// assert_eq!(grundy_value(&SumGame(Nim), &vec![3, 4, 5]).unwrap().0, 3 ^ 4 ^ 5);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SumGame<G>(pub G);

impl<G: Game> Game for SumGame<G> {
    type Position = Vec<G::Position>;

    fn options_into(&self, position: &Self::Position, out: &mut Vec<Self::Position>) {
        let mut component_options = Vec::new();
        for (index, component) in position.iter().enumerate() {
            component_options.clear();
            self.0.options_into(component, &mut component_options);
            for option in component_options.drain(..) {
                let mut next = position.clone();
                next[index] = option;
                out.push(next);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::subtraction::SubtractionGame;
    use crate::solve::memo::Solver;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The SG theorem, checked against the definition on random subtraction-game sums.
        #[test]
        fn sum_value_is_xor_of_parts(
            set in proptest::collection::btree_set(1u64..6, 1..4),
            heaps in proptest::collection::vec(0u64..9, 0..4),
        ) {
            let game = SubtractionGame::new(set.into_iter().collect()).unwrap();
            let mut single = Solver::new(&game);
            let xor = heaps.iter().fold(0, |acc, heap| acc ^ single.grundy_value(heap).unwrap().0);
            let mut sorted = heaps.clone();
            sorted.sort_unstable();
            let sum_value = Solver::new(SumGame(&game)).grundy_value(&heaps).unwrap().0;
            prop_assert_eq!(sum_value, xor);
        }
    }
}
