//! Staircase Nim (阶梯博弈, `staircase`): counters stand on the steps `1..k` of a staircase; a
//! move takes `t >= 1` counters from one step `i` down to step `i − 1` (from step 1 they leave
//! the staircase). Whoever cannot move (no counter left) loses. A component is the counts on
//! steps `1..k`, bottom step first: `3,0,2,5`.
//!
//! # The value
//! **Theorem** (Staircase Nim; Berlekamp, Conway and Guy, *Winning Ways for your Mathematical
//! Plays* (1982), ch. 16, "Staircase Nim"): the Grundy value is the nim-sum of the counts on
//! the odd-numbered steps, `a_1 ⊕ a_3 ⊕ a_5 ⊕ …`. (Moves on the even steps are reversible: a
//! move from an even step to an odd one is undone by moving the same counters on.)
//!
//! *Proof* (by induction on the total height `Σ i·a_i`, which every move lowers). Let
//! `X = a_1 ⊕ a_3 ⊕ …`. Every move changes exactly one odd-numbered count by a non-zero
//! amount: a move from an odd step `i` lowers `a_i`, and a move from an even step `i` raises
//! `a_{i−1}`, with `i − 1` odd; the other odd counts stay. So no option is worth `X`. And every
//! `w < X` is an option's value, as in Nim (Bouton): some odd step `i` has `a_i ⊕ X ⊕ w < a_i`
//! (the step whose count has the highest bit of `X ⊕ w`), and taking `a_i − (a_i ⊕ X ⊕ w)`
//! counters down from it leaves the odd counts' nim-sum `w`. By the induction hypothesis the
//! options are worth their odd nim-sums, so the value, their mex, is `X`.
//!
//! The moves to a value `w` follow from the same count, at most one per step: from an odd step
//! `i`, to leave `a_i ⊕ X ⊕ w` when it is smaller; from an even step `i`, raising `a_{i−1}` to
//! `a_{i−1} ⊕ X ⊕ w` when that is larger by at most `a_i`. The property tests compare both
//! with the mex over the rules ([`ComponentGame::options`]).

use crate::error::GameError;
use crate::ruleset::{ComponentGame, ComponentMove, too_many_moves};
use crate::value::Value;
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

/// The spec word of the game.
pub const SPEC: &str = "staircase";

/// One staircase: the counts on steps `1..k`, bottom step first.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Steps(pub Vec<BigUint>);

/// Staircase Nim: the rules ([`ComponentGame::options`]) and the value by the theorem of the
/// module doc, for counts of any size.
///
/// ```
/// use grundy::registry::parse_sum;
/// // Odd steps 1 and 3 hold 2 and 3: the value is 2 xor 3 = 1 (AcWing 892's sample, Yes).
/// let position = parse_sum(&["staircase", "2,1,3"]).unwrap();
/// assert_eq!(position.value().unwrap().to_string(), "1");
/// let moves = position.winning_moves().unwrap();
/// let after: Vec<String> = moves.iter().map(|one| position.after(one).to_text()).collect();
/// assert_eq!(after, ["3,0,3", "2,2,2"]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Staircase;

/// The nim-sum of the counts on the odd-numbered steps (index 0, 2, … from the bottom).
pub fn odd_step_xor(steps: &[BigUint]) -> BigUint {
    let mut total = BigUint::ZERO;
    for count in steps.iter().step_by(2) {
        total ^= count;
    }
    total
}

fn format_steps(steps: &[BigUint]) -> String {
    steps.iter().map(BigUint::to_string).collect::<Vec<_>>().join(",")
}

impl Staircase {
    /// The option that moves `take` counters down from step `index + 1`.
    fn move_down(&self, steps: &Steps, index: usize, take: &BigUint) -> ComponentMove<Steps> {
        let mut after = steps.0.clone();
        after[index] -= take;
        let detail = if index == 0 {
            format!(" (take {take} off step 1)")
        } else {
            after[index - 1] += take;
            format!(" (move {take} from step {} to step {index})", index + 1)
        };
        ComponentMove {
            notation: format!("{} -> {}", format_steps(&steps.0), format_steps(&after)),
            result: vec![Steps(after)],
            detail,
        }
    }
}

impl ComponentGame for Staircase {
    type Component = Steps;

    fn spec(&self) -> String {
        SPEC.to_owned()
    }

    fn component_noun(&self) -> &'static str {
        "staircase"
    }

    fn parse_component(&self, text: &str) -> Result<Steps, GameError> {
        let bad = |reason: &str| GameError::BadComponent {
            game: SPEC.to_owned(),
            text: text.to_owned(),
            reason: reason.to_owned(),
        };
        let mut steps = Vec::new();
        for count in text.split(',') {
            if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad(
                    "a staircase is the counts on steps 1, 2, 3, … as non-negative integers separated by commas, like `3,0,2,5`",
                ));
            }
            steps.push(count.parse::<BigUint>().expect("decimal digits parse"));
        }
        Ok(Steps(steps))
    }

    fn format_component(&self, steps: &Steps) -> String {
        format_steps(&steps.0)
    }

    /// **The rules**: `t >= 1` counters from step `i` to step `i − 1` (off the staircase from
    /// step 1).
    fn options(&self, steps: &Steps, limit: usize) -> Result<Vec<ComponentMove<Steps>>, GameError> {
        let total: BigUint = steps.0.iter().sum();
        if total.to_usize().is_none_or(|total| total > limit) {
            return Err(too_many_moves(SPEC, &format_steps(&steps.0), limit));
        }
        let mut options = Vec::new();
        for (index, count) in steps.0.iter().enumerate() {
            let count = count.to_u64().expect("below the limit");
            for take in 1..=count {
                options.push(self.move_down(steps, index, &BigUint::from(take)));
            }
        }
        Ok(options)
    }

    fn value(&self, steps: &Steps) -> Result<Value, GameError> {
        Ok(Value::Finite(odd_step_xor(&steps.0)))
    }

    /// At most one move a step (the module doc): from an odd step, down to `a_i ⊕ X ⊕ w`; from
    /// an even step, as many as raise the odd step below it to `a_{i−1} ⊕ X ⊕ w`.
    fn moves_to_value(&self, steps: &Steps, target: &BigUint) -> Result<Vec<ComponentMove<Steps>>, GameError> {
        let change = odd_step_xor(&steps.0) ^ target;
        if change.is_zero() {
            return Ok(Vec::new());
        }
        // First the (step, counters) of each move: cheap, so that a list too long to write out
        // (each move is a whole staircase again) is refused before it is built.
        let mut moves = Vec::new();
        for (index, count) in steps.0.iter().enumerate() {
            if count.is_zero() {
                continue;
            }
            if index % 2 == 0 {
                let left = count ^ &change;
                if &left < count {
                    moves.push((index, count - &left));
                }
            } else {
                let below = &steps.0[index - 1];
                let raised = below ^ &change;
                if &raised > below && &(&raised - below) <= count {
                    moves.push((index, &raised - below));
                }
            }
        }
        let numbers = moves.len().saturating_mul(steps.0.len());
        if numbers > MOST_NUMBERS_LISTED {
            return Err(GameError::OutOfReach(format!(
                "a staircase of {} steps has {} such moves, each a whole staircase again: about {numbers} numbers, \
                 more than the {MOST_NUMBERS_LISTED} a list of moves may hold; `grundy value` and `grundy outcome` answer it",
                steps.0.len(),
                moves.len()
            )));
        }
        Ok(moves.into_iter().map(|(index, take)| self.move_down(steps, index, &take)).collect())
    }
}

/// The most step counts a list of moves may hold in all (each move repeats the staircase, and
/// its notation twice more): about a gigabyte, so that no list outgrows the machine.
const MOST_NUMBERS_LISTED: usize = 1 << 24;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::erase;
    use crate::solve::definition::Definition;
    use proptest::prelude::*;

    fn steps(counts: &[u64]) -> Steps {
        Steps(counts.iter().map(|&count| BigUint::from(count)).collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// The value is the definition's (the mex searched over the rules alone, no theorem),
        /// on small staircases; the moves to each value are the options filtered.
        #[test]
        fn the_odd_steps_nim_sum_is_the_definition(counts in proptest::collection::vec(0u64..4, 1..5)) {
            let game = erase(Staircase);
            let component = crate::position::Component::new(steps(&counts));
            let by_definition = Definition::with_limit(game.clone(), 200_000).value(std::slice::from_ref(&component)).unwrap();
            let value = Staircase.value(&steps(&counts)).unwrap();
            prop_assert_eq!(Value::from(by_definition.0), value.clone(), "{:?}", counts);
            let options = Staircase.options(&steps(&counts), 10_000).unwrap();
            for target in 0u64..8 {
                let expected: Vec<String> = options
                    .iter()
                    .filter(|one| odd_step_xor(&one.result[0].0) == BigUint::from(target))
                    .map(|one| one.notation.clone())
                    .collect();
                let mut found: Vec<String> = Staircase
                    .moves_to_value(&steps(&counts), &BigUint::from(target))
                    .unwrap()
                    .into_iter()
                    .map(|one| one.notation)
                    .collect();
                let mut expected = expected;
                expected.sort();
                found.sort();
                prop_assert_eq!(found, expected, "{:?} to {}", counts, target);
            }
        }
    }

    #[test]
    fn large_counts_and_bad_text() {
        let game = Staircase;
        let far = game.parse_component("1000000000000000000000,7,5").unwrap();
        assert_eq!(game.value(&far).unwrap().to_string(), "1000000000000000000005");
        assert!(matches!(game.options(&far, 1000), Err(GameError::TooManyMoves { .. })));
        let to_p = game.moves_to_value(&far, &BigUint::ZERO).unwrap();
        assert_eq!(to_p.len(), 1, "{to_p:?}");
        assert_eq!(to_p[0].notation, "1000000000000000000000,7,5 -> 5,7,5");
        // A long staircase's winning moves are refused before they are built, not listed into
        // gigabytes (each move is the whole staircase again).
        let long =
            Steps((0..20_000u64).map(|step| BigUint::from((step * step * 31 + 7 * step) % 1_000_003 + 1)).collect());
        let refusal = game.moves_to_value(&long, &BigUint::ZERO).unwrap_err().to_string();
        assert!(refusal.contains("20000 steps") && refusal.contains("grundy value"), "{refusal}");
        let short = Steps(long.0[..1000].to_vec());
        assert!(!game.moves_to_value(&short, &BigUint::ZERO).unwrap().is_empty());
        for text in ["", "3,,2", "3,-1", "a", "3 2"] {
            let error = game.parse_component(text).unwrap_err().to_string();
            assert!(error.contains("`3,0,2,5`"), "{text}: {error}");
        }
    }
}
