//! Bash's game (巴什博弈): take 1 to `M` counters from one heap.
//!
//! **Closed form.** `G(n) = n mod (M + 1)`. The positions `n ≡ 0 (mod M + 1)` are P: every move
//! leaves a non-multiple, and from a non-multiple taking `n mod (M + 1)` restores a multiple
//! (seed `003_afa91bf0d059c99d.txt`). The option values `(n − k) mod (M + 1)`, `k = 1..M`, are
//! every residue but `n mod (M + 1)` (those whose `k ≤ n`), so the mex is `n mod (M + 1)`.
//! Heaps and `M` may have any number of digits.

use crate::error::GameError;
use crate::game::Game;
use crate::heap::{heap_bar, parse_heap};
use crate::ruleset::{ComponentGame, ComponentMove, too_many_moves};
use num_bigint::BigUint;

/// The rules of Bash's game with a word-sized `M`, for the generic solver.
///
/// ```
/// use grundy::game::Game;
/// use grundy::heap::bash::Bash;
/// assert_eq!(Bash { max_take: 3 }.options(&5), vec![4, 3, 2]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Bash {
    /// The most counters one move may take (`M ≥ 1`).
    pub max_take: u64,
}

impl Game for Bash {
    type Position = u64;
    fn options_into(&self, heap: &u64, out: &mut Vec<u64>) {
        out.extend((1..=self.max_take.min(*heap)).map(|take| heap - take));
    }
}

/// The closed form `n mod (M + 1)`.
///
/// ```
/// assert_eq!(grundy::heap::bash::grundy_value(10, 3), 2);
/// ```
pub fn grundy_value(heap: u64, max_take: u64) -> u64 {
    if max_take == u64::MAX { heap } else { heap % (max_take + 1) }
}

/// Bash's game for the front end: `bash:M`, heaps of any size.
#[derive(Clone, Debug)]
pub struct BashRules {
    max_take: BigUint,
}

impl BashRules {
    /// Parses the `M` of `bash:M`.
    ///
    /// # Errors
    /// [`GameError::BadGame`] unless `M` is a positive integer.
    pub fn parse(spec: &str, max_take: &str) -> Result<Self, GameError> {
        let bad = |reason: &str| GameError::BadGame { spec: spec.to_owned(), reason: reason.to_owned() };
        if max_take.is_empty() || !max_take.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad(&format!("M = `{max_take}` must be a positive integer (bash:M takes 1..M)")));
        }
        let max_take: BigUint = max_take.parse().expect("digits parse");
        if max_take == BigUint::ZERO {
            return Err(bad("M = 0 allows no move; M must be at least 1"));
        }
        Ok(BashRules { max_take })
    }
}

impl ComponentGame for BashRules {
    type Component = BigUint;

    fn spec(&self) -> String {
        format!("bash:{}", self.max_take)
    }

    fn parse_component(&self, text: &str) -> Result<BigUint, GameError> {
        parse_heap(&self.spec(), text)
    }

    fn format_component(&self, heap: &BigUint) -> String {
        heap.to_string()
    }

    fn component_value(&self, heap: &BigUint) -> Result<BigUint, GameError> {
        Ok(heap % (&self.max_take + 1u32))
    }

    fn moves_to_value(&self, heap: &BigUint, target: &BigUint) -> Result<Vec<ComponentMove<BigUint>>, GameError> {
        let modulus = &self.max_take + 1u32;
        let residue = heap % &modulus;
        if target >= &modulus || *target == residue {
            return Ok(Vec::new());
        }
        // The one k in 1..=M with (n - k) ≡ target, if the heap holds k counters.
        let take = (&residue + &modulus - target) % &modulus;
        if &take > heap {
            return Ok(Vec::new());
        }
        let result = heap - &take;
        Ok(vec![ComponentMove { notation: format!("{heap} -> {result}"), result: vec![result] }])
    }

    fn component_options(&self, heap: &BigUint, limit: usize) -> Result<Vec<ComponentMove<BigUint>>, GameError> {
        let most = (&self.max_take).min(heap).clone();
        if most > BigUint::from(limit) {
            return Err(too_many_moves(&self.spec(), &heap.to_string(), limit));
        }
        let mut moves = Vec::new();
        let mut take = BigUint::from(1u32);
        while take <= most {
            let result = heap - &take;
            moves.push(ComponentMove { notation: format!("{heap} -> {result}"), result: vec![result] });
            take += 1u32;
        }
        Ok(moves)
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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn closed_form_matches_definition(max_take in 1u64..20, heap in 0u64..200) {
            let definition = Solver::new(Bash { max_take }).grundy_value(&heap).unwrap().0;
            prop_assert_eq!(grundy_value(heap, max_take), definition);
        }

        #[test]
        fn moves_reach_exactly_the_options_with_the_target_value(max_take in 1u64..12, heap in 0u64..60, target in 0u64..14) {
            let rules = BashRules { max_take: max_take.into() };
            let found: Vec<BigUint> = rules
                .moves_to_value(&heap.into(), &target.into())
                .unwrap()
                .into_iter()
                .map(|m| m.result[0].clone())
                .collect();
            let expected: Vec<BigUint> = Bash { max_take }
                .options(&heap)
                .into_iter()
                .filter(|&option| grundy_value(option, max_take) == target)
                .map(BigUint::from)
                .collect();
            prop_assert_eq!(found, expected);
        }
    }
}
