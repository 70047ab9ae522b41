//! Misère Nim by Bouton's rule.
//!
//! **Theorem** (Bouton, *Nim, a game with a complete mathematical theory*, Annals of Math.
//! 1901–02, §6; *Winning Ways* ch. 13): under misère play a Nim position is a P-position iff
//! either some heap has two or more counters and the nim-sum (xor) of the heaps is 0, or every
//! heap has at most one counter and the nim-sum is 1 (an odd number of one-counter heaps).
//! Heaps may have any number of digits.

use crate::value::Outcome;
use num_bigint::BigUint;

/// The misère outcome of the Nim position `heaps`, by Bouton's rule.
///
/// ```
/// use grundy::misere::nim::outcome;
/// use grundy::Outcome;
/// let heaps = |sizes: &[u32]| sizes.iter().map(|&size| size.into()).collect::<Vec<_>>();
/// assert_eq!(outcome(&heaps(&[1, 1])), Outcome::N);
/// assert_eq!(outcome(&heaps(&[1, 1, 1])), Outcome::P);
/// assert_eq!(outcome(&heaps(&[2, 2])), Outcome::P);
/// assert_eq!(outcome(&heaps(&[3, 4, 5])), Outcome::N);
/// assert_eq!(outcome(&heaps(&[])), Outcome::N); // no move: the player to move has won
/// ```
pub fn outcome(heaps: &[BigUint]) -> Outcome {
    let nim_sum = heaps.iter().fold(BigUint::ZERO, |sum, heap| sum ^ heap);
    let big_heaps = heaps.iter().filter(|heap| **heap > BigUint::from(1u32)).count();
    outcome_of(&nim_sum, big_heaps)
}

/// Bouton's rule from the nim-sum and the number of heaps with two or more counters.
fn outcome_of(nim_sum: &BigUint, big_heaps: usize) -> Outcome {
    let p = if big_heaps == 0 { *nim_sum == BigUint::from(1u32) } else { *nim_sum == BigUint::ZERO };
    if p { Outcome::P } else { Outcome::N }
}

/// Every misère winning move of the Nim position `heaps`: `(index of the heap, its new size)`,
/// by heap index and then new size. Empty when the position is a misère P-position.
///
/// A move to a P-position leaves either a big heap and nim-sum 0 (new size `heap ⊕ nim-sum`) or
/// only heaps of at most one counter with nim-sum 1 (new size 0 or 1), so those three sizes are
/// the only candidates; each is checked against Bouton's rule.
///
/// ```
/// use grundy::misere::nim::winning_moves;
/// let heaps: Vec<num_bigint::BigUint> = [2u32, 2, 1].map(Into::into).to_vec();
/// // 2 2 1 -> 2 2 0: nim-sum 0 with a heap of two counters, a misère P-position.
/// assert_eq!(winning_moves(&heaps), vec![(2, 0u32.into())]);
/// ```
pub fn winning_moves(heaps: &[BigUint]) -> Vec<(usize, BigUint)> {
    let one = BigUint::from(1u32);
    let nim_sum = heaps.iter().fold(BigUint::ZERO, |sum, heap| sum ^ heap);
    let big_heaps = heaps.iter().filter(|heap| **heap > one).count();
    let mut moves = Vec::new();
    for (index, heap) in heaps.iter().enumerate() {
        let others_sum = &nim_sum ^ heap;
        let others_big = big_heaps - usize::from(*heap > one);
        let mut targets = vec![BigUint::ZERO, one.clone(), others_sum.clone()];
        targets.sort();
        targets.dedup();
        for target in targets {
            if target >= *heap {
                continue;
            }
            let big_after = others_big + usize::from(target > one);
            if outcome_of(&(&others_sum ^ &target), big_after) == Outcome::P {
                moves.push((index, target));
            }
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::misere::search::MisereSearch;
    use proptest::prelude::*;

    fn big(sizes: &[u64]) -> Vec<BigUint> {
        sizes.iter().map(|&size| size.into()).collect()
    }

    fn nim_options(heap: &u64) -> Result<Vec<Vec<u64>>, crate::GameError> {
        Ok((0..*heap).map(|smaller| if smaller == 0 { vec![] } else { vec![smaller] }).collect())
    }

    #[test]
    fn the_issue_examples() {
        assert_eq!(outcome(&big(&[1, 1])), Outcome::N);
        assert_eq!(outcome(&big(&[1, 1, 1])), Outcome::P);
        assert_eq!(outcome(&big(&[2, 2])), Outcome::P);
        assert_eq!(outcome(&big(&[3, 4, 5])), Outcome::N);
        assert_eq!(winning_moves(&big(&[2, 2, 1])), vec![(2, BigUint::ZERO)]);
        // One big heap: reduce it to leave an odd number of ones.
        assert_eq!(winning_moves(&big(&[5, 1, 1])), vec![(0, 1u32.into())]);
        assert_eq!(winning_moves(&big(&[5, 1])), vec![(0, 0u32.into())]);
    }

    #[test]
    fn huge_heaps() {
        let huge: BigUint = "123456789012345678901234567890".parse().unwrap();
        assert_eq!(outcome(&[huge.clone(), huge.clone()]), Outcome::P);
        let moves = winning_moves(&[huge.clone(), huge.clone() + 5u32]);
        assert_eq!(moves, vec![(1, huge)]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Bouton's rule and its winning moves agree with exhaustive misère search.
        #[test]
        fn bouton_matches_exhaustive_search(sizes in prop::collection::vec(0u64..7, 0..6)) {
            let mut search = MisereSearch::new(nim_options, 1_000_000, &crate::control::Control::default());
            prop_assert_eq!(outcome(&big(&sizes)), search.outcome(&sizes).unwrap());
            let mut expected: Vec<(usize, BigUint)> = search
                .winning_moves(&sizes)
                .unwrap()
                .into_iter()
                .map(|found| (found.component, found.replacement.first().copied().unwrap_or(0).into()))
                .collect();
            expected.sort();
            prop_assert_eq!(winning_moves(&big(&sizes)), expected);
        }
    }
}
