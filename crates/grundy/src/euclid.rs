//! Euclid's game (`euclid`, 欧几里得游戏): a component is a pair `a,b`; a move subtracts a
//! positive multiple of the smaller number from the larger, leaving it at least 0. A pair with
//! a 0 has no move, so whoever makes a 0 wins. (`a,a` moves to `0,a`.)
//!
//! # The outcome
//! **Theorem** (Cole and Davie, *A game based on the Euclidean algorithm and a winning strategy
//! for it*, Mathematical Gazette 53 (1969) 354–357): with `a >= b > 0`, the player to move
//! loses iff `a ≠ b` and `a/b < φ = (1 + √5)/2`, that is iff `b < a` and `a² < ab + b²` (for
//! `x = a/b > 0`, `x² − x − 1 < 0` iff `x < φ`; `a/b = φ` is irrational, never met). It agrees
//! with the values below (`G(a, b) = 0` iff `q = 1` and `G(b, r) >= 1`); the tests check the
//! criterion against them and against the rules.
//!
//! # The value
//! With `a >= b > 0`, write `a = qb + r`, `0 <= r < b`. The options of `(r + jb, b)` for
//! `j >= 1` are `(r + ib, b)` for `0 <= i < j`, and `(r, b)` is the pair `(b, r)` one step down
//! Euclid's algorithm (worth 0 when `r = 0`: no move). So with `c = G(b, r)` the values along the
//! chain are `v_0 = c`, `v_j = mex{v_0, …, v_{j−1}}`: by induction `v_j = j − 1` for
//! `1 <= j <= c` and `v_j = j` for `j > c`. Hence
//!
//! > `G(a, b) = q − 1` if `q <= G(b, r)`, else `q` (and `G(a, 0) = 0`),
//!
//! computed in the steps of Euclid's algorithm, for numbers of any size. (This recurrence is the
//! definition unrolled along the chain, not a closed form; Nivasch, *The Sprague–Grundy
//! function of the game Euclid*, Discrete Mathematics 306 (2006), gives a closed form for the
//! variant that stops at `a = b`, which is not this game.) The moves to a value `w` are at most
//! three options of the chain, `i ∈ {0, w, w + 1}`. The property tests compare values, outcomes
//! and moves with the mex over the rules.
//!
//! # Steps and remoteness (`--compound every`, `--compound conjunctive`; HDU 3595)
//! The same chain gives Smith's step `s` (Every-SG) and the remoteness `r` (the conjunctive
//! compound), defined in `compound`'s module doc, for numbers of any size. Let `x_j = (r + jb,
//! b)`, `0 <= j <= q`, whose options are the `x_i`, `i < j`, and let `t` be the number of the
//! base `x_0` (the pair one step down Euclid's algorithm; 0 when `r = 0`, no move).
//!
//! **Claim.** For `j >= 1` the number of `x_j` is `t + 1` when `t` is even; when `t` is odd,
//! it is `t + 1` for `j = 1` and `t + 2` for `j >= 2`. The same for the step and for the
//! remoteness.
//!
//! *Proof*, by induction on `j`. If `t` is even, the options of `x_j` with an even number are
//! `x_0` alone (the others have `t + 1` by induction, odd), so both rules give `1 + t`. If `t`
//! is odd: `x_1`'s only option `x_0` is odd, so both rules give `1 + t` (the minimum and the
//! maximum of one number); for `j >= 2` the even options are `x_1` alone (`t + 1`; `x_0` has
//! `t`, the others `t + 2` by induction, odd), so both rules give `t + 2`. ∎
//!
//! So `number(a, b) = t + 1` if `t` is even or `q = 1`, else `t + 2`, down Euclid's algorithm
//! and back up ([`compound_number`]); under the selective compound a component's number is its
//! outcome (1 for N), Cole and Davie's criterion. `compound`'s tests compare all three with
//! the search by the rules.

use crate::compound::{Compound, CompoundNumbers, KnownNumbers};
use crate::error::GameError;
use crate::position::{Component, ComponentKind};
use crate::ruleset::{ComponentGame, ComponentMove, Request, too_many_moves};
use crate::value::{Outcome, Value};
use crate::view::{PairTable, PairValues};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{ToPrimitive, Zero};
use std::sync::Arc;

/// The spec word of the game.
pub const SPEC: &str = "euclid";

/// One pair of Euclid's game, in the order written.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EuclidPair(pub BigUint, pub BigUint);

/// Euclid's game.
///
/// ```
/// use grundy::registry::parse_sum;
/// // 25/7 > φ: the player to move wins, here by leaving 11,7 (11/7 < φ).
/// let position = parse_sum(&["euclid", "25,7"]).unwrap();
/// assert_eq!(position.outcome().unwrap().to_string(), "N");
/// let moves = position.winning_moves().unwrap();
/// assert_eq!(position.after(&moves[0]).to_text(), "11,7");
/// // Numbers of any size.
/// let far = parse_sum(&["euclid", "1000000000000000000000,999999999999999999999"]).unwrap();
/// assert_eq!(far.value().unwrap().to_string(), "0");
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Euclid;

/// `G(a, b)` by the recurrence of the module doc.
pub fn grundy_value(a: &BigUint, b: &BigUint) -> BigUint {
    // Down Euclid's algorithm, keeping the quotients; then the values back up.
    let (mut large, mut small) = if a >= b { (a.clone(), b.clone()) } else { (b.clone(), a.clone()) };
    let mut quotients = Vec::new();
    while !small.is_zero() {
        let (quotient, remainder) = large.div_rem(&small);
        quotients.push(quotient);
        large = small;
        small = remainder;
    }
    let mut value = BigUint::ZERO;
    for quotient in quotients.into_iter().rev() {
        value = if quotient <= value { quotient - 1u32 } else { quotient };
    }
    value
}

/// The step (Every-SG) or remoteness (conjunctive compound) of `(a, b)`, which are equal here,
/// by the claim of the module doc: down Euclid's algorithm keeping whether each quotient is 1,
/// then back up.
pub fn compound_number(a: &BigUint, b: &BigUint) -> u64 {
    let (mut large, mut small) = if a >= b { (a.clone(), b.clone()) } else { (b.clone(), a.clone()) };
    let mut single = Vec::new();
    while !small.is_zero() {
        let (quotient, remainder) = large.div_rem(&small);
        single.push(quotient == BigUint::from(1u32));
        large = small;
        small = remainder;
    }
    let mut number = 0u64;
    for single in single.into_iter().rev() {
        number += if number.is_multiple_of(2) || single { 1 } else { 2 };
    }
    number
}

/// Cole and Davie's criterion: `(a, b)` (both non-zero) is a P-position iff `a ≠ b` and the
/// larger over the smaller is below φ.
pub fn is_p_position(a: &BigUint, b: &BigUint) -> bool {
    if a.is_zero() || b.is_zero() {
        return true;
    }
    let (large, small) = if a >= b { (a, b) } else { (b, a) };
    large != small && large * large < large * small + small * small
}

fn format_pair(pair: &EuclidPair) -> String {
    format!("{},{}", pair.0, pair.1)
}

impl Euclid {
    /// The option of `pair` that subtracts `times` times the smaller from the larger.
    fn subtract(&self, pair: &EuclidPair, times: &BigUint) -> ComponentMove<EuclidPair> {
        let first_larger = pair.0 >= pair.1;
        let after = if first_larger {
            EuclidPair(&pair.0 - times * &pair.1, pair.1.clone())
        } else {
            EuclidPair(pair.0.clone(), &pair.1 - times * &pair.0)
        };
        let (larger, smaller) = if first_larger { ("first", &pair.1) } else { ("second", &pair.0) };
        ComponentMove {
            notation: format!("{} -> {}", format_pair(pair), format_pair(&after)),
            result: vec![after],
            detail: format!(" (subtract {times} × {smaller} from the {larger} number)"),
        }
    }

    /// The options' multiples of `pair` (the larger is `q·smaller + r`): subtracting `q − i`
    /// times leaves the chain's `i`-th pair, worth `v_i` (the module doc). `None` for a pair
    /// with a 0.
    fn chain(&self, pair: &EuclidPair) -> Option<(BigUint, BigUint)> {
        let (large, small) = if pair.0 >= pair.1 { (&pair.0, &pair.1) } else { (&pair.1, &pair.0) };
        if small.is_zero() {
            return None;
        }
        let (quotient, remainder) = large.div_rem(small);
        Some((quotient, grundy_value(small, &remainder)))
    }
}

impl CompoundNumbers for Euclid {
    fn compound_number(&self, compound: Compound, component: &Component) -> Option<u64> {
        let pair = EuclidPair::from_component(component)?;
        Some(match compound {
            Compound::Every | Compound::Conjunctive => compound_number(&pair.0, &pair.1),
            Compound::Selective => u64::from(!is_p_position(&pair.0, &pair.1)),
        })
    }
}

impl PairTable for Euclid {
    fn first(&self) -> u64 {
        0
    }

    /// The recurrence of the module doc, each pair from the one a step down Euclid's algorithm
    /// (already in the table: `(b, r)` with `r < b`).
    fn pair_values(&self, side: u64) -> Result<Vec<Vec<u64>>, GameError> {
        let side = usize::try_from(side).map_err(|_| GameError::OutOfReach(format!("a table of side {side}")))?;
        let mut values = vec![vec![0u64; side]; side];
        for large in 1..side {
            #[allow(clippy::needless_range_loop)] // `values[small]` and `values[large]` both
            for small in 1..=large {
                let (quotient, remainder) = ((large / small) as u64, large % small);
                let below = values[small][remainder];
                let value = if quotient <= below { quotient - 1 } else { quotient };
                values[large][small] = value;
                values[small][large] = value;
            }
        }
        Ok(values)
    }
}

impl ComponentGame for Euclid {
    type Component = EuclidPair;

    fn provide(self: Arc<Self>, request: &mut Request) {
        request.give::<PairValues>(|| self.clone() as Arc<dyn PairTable>);
        request.give::<KnownNumbers>(|| self as Arc<dyn CompoundNumbers>);
    }

    fn spec(&self) -> String {
        SPEC.to_owned()
    }

    fn component_noun(&self) -> &'static str {
        "pair"
    }

    fn parse_component(&self, text: &str) -> Result<EuclidPair, GameError> {
        let bad = || GameError::BadComponent {
            game: SPEC.to_owned(),
            text: text.to_owned(),
            reason: "a Euclid position is a pair of non-negative integers written `a,b`, like `25,7`".to_owned(),
        };
        let (a, b) = text.split_once(',').ok_or_else(bad)?;
        let number = |part: &str| {
            if part.is_empty() || !part.bytes().all(|byte| byte.is_ascii_digit()) {
                return Err(bad());
            }
            Ok(part.parse::<BigUint>().expect("decimal digits parse"))
        };
        Ok(EuclidPair(number(a)?, number(b)?))
    }

    fn format_component(&self, pair: &EuclidPair) -> String {
        format_pair(pair)
    }

    /// **The rules**: subtract `m·smaller` from the larger, `m >= 1`, leaving at least 0.
    fn options(&self, pair: &EuclidPair, limit: usize) -> Result<Vec<ComponentMove<EuclidPair>>, GameError> {
        let Some((quotient, _)) = self.chain(pair) else { return Ok(Vec::new()) };
        let count = quotient.to_usize().filter(|&count| count <= limit);
        let Some(count) = count else { return Err(too_many_moves(SPEC, &format_pair(pair), limit)) };
        Ok((1..=count).map(|times| self.subtract(pair, &BigUint::from(times))).collect())
    }

    fn value(&self, pair: &EuclidPair) -> Result<Value, GameError> {
        Ok(Value::Finite(grundy_value(&pair.0, &pair.1)))
    }

    fn outcome(&self, pair: &EuclidPair) -> Result<Outcome, GameError> {
        Ok(if is_p_position(&pair.0, &pair.1) { Outcome::P } else { Outcome::N })
    }

    /// The chain's pairs `i ∈ {0, w, w + 1}` (`i < q`), those worth `w`.
    fn moves_to_value(&self, pair: &EuclidPair, target: &BigUint) -> Result<Vec<ComponentMove<EuclidPair>>, GameError> {
        let Some((quotient, down)) = self.chain(pair) else { return Ok(Vec::new()) };
        let chain_value = |index: &BigUint| {
            if index.is_zero() {
                down.clone()
            } else if index <= &down {
                index - 1u32
            } else {
                index.clone()
            }
        };
        let mut indices = vec![BigUint::ZERO, target.clone(), target + 1u32];
        indices.sort();
        indices.dedup();
        Ok(indices
            .into_iter()
            .filter(|index| index < &quotient && &chain_value(index) == target)
            .rev()
            .map(|index| self.subtract(pair, &(&quotient - index)))
            .collect())
    }

    fn p_position_reason(&self, pair: &EuclidPair) -> Option<String> {
        let (large, small) = if pair.0 >= pair.1 { (&pair.0, &pair.1) } else { (&pair.1, &pair.0) };
        if small.is_zero() {
            return Some(format!("{} has a 0: no move", format_pair(pair)));
        }
        is_p_position(&pair.0, &pair.1).then(|| {
            format!(
                "{} is a P-position: {large}/{small} is below φ = (1 + √5)/2 (Cole and Davie), so the only move leaves \
                 a ratio above φ",
                format_pair(pair)
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::erase;
    use crate::solve::definition::Definition;
    use proptest::prelude::*;

    /// The mex over the rules, by memo on all pairs below `side`.
    fn definition_table(side: usize) -> Vec<Vec<u64>> {
        let mut table = vec![vec![0u64; side]; side];
        for total in 0..2 * side {
            for a in 0..side.min(total + 1) {
                let b = total - a;
                if b >= side || a == 0 || b == 0 {
                    continue;
                }
                let options: Vec<(usize, usize)> = if a >= b {
                    (1..=a / b).map(|m| (a - m * b, b)).collect()
                } else {
                    (1..=b / a).map(|m| (a, b - m * a)).collect()
                };
                table[a][b] = crate::nimber::mex(options.iter().map(|&(x, y)| table[x][y]));
            }
        }
        table
    }

    #[test]
    fn values_outcomes_and_moves_are_the_rules_on_every_small_pair() {
        let side = 90;
        let table = definition_table(side);
        for a in 0..side {
            for b in 0..side {
                let pair = EuclidPair(BigUint::from(a), BigUint::from(b));
                assert_eq!(grundy_value(&pair.0, &pair.1), BigUint::from(table[a][b]), "{a},{b}");
                assert_eq!(is_p_position(&pair.0, &pair.1), table[a][b] == 0, "{a},{b}: outcome");
                let options = Euclid.options(&pair, 1000).unwrap();
                for target in 0..=table[a][b] + 2 {
                    let expected: Vec<String> = options
                        .iter()
                        .filter(|one| {
                            let to = &one.result[0];
                            table[to.0.to_usize().unwrap()][to.1.to_usize().unwrap()] == target
                        })
                        .map(|one| one.notation.clone())
                        .collect();
                    let found: Vec<String> = Euclid
                        .moves_to_value(&pair, &BigUint::from(target))
                        .unwrap()
                        .into_iter()
                        .map(|one| one.notation)
                        .collect();
                    assert_eq!(found, expected, "{a},{b} to {target}");
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The value is the definition's search over the rules alone.
        #[test]
        fn the_recurrence_is_the_definition(a in 0u64..300, b in 0u64..300) {
            let component = crate::position::Component::new(EuclidPair(a.into(), b.into()));
            let by_definition = Definition::with_limit(erase(Euclid), 100_000).value(std::slice::from_ref(&component)).unwrap();
            prop_assert_eq!(BigUint::from(by_definition.0), grundy_value(&a.into(), &b.into()));
        }

        /// Far out, the criterion and the recurrence agree, and the winning moves reach P.
        #[test]
        fn far_pairs_agree(a in any::<u128>(), b in any::<u128>()) {
            let (a, b) = (BigUint::from(a), BigUint::from(b));
            prop_assert_eq!(is_p_position(&a, &b), grundy_value(&a, &b).is_zero());
            let pair = EuclidPair(a, b);
            for one in Euclid.moves_to_p(&pair).unwrap() {
                prop_assert!(is_p_position(&one.result[0].0, &one.result[0].1));
            }
        }
    }

    #[test]
    fn contest_sizes_answer_at_once() {
        let pair = Euclid.parse_component("1000000,999999").unwrap();
        assert_eq!(Euclid.outcome(&pair).unwrap(), Outcome::P);
        let error = Euclid.parse_component("3").unwrap_err().to_string();
        assert!(error.contains("`25,7`"), "{error}");
        assert!(Euclid.parse_component("3,-1").is_err());
    }
}
