//! E&D (`e-and-d`; Luogu P2148 "\[SDOI2009\] E&D"): the heaps come in pairs; a move picks one
//! pair `a,b`, removes one of its two heaps and splits the other into two non-empty heaps,
//! which become the pair. A pair `1,1` has no move. A component is one pair `a,b`
//! (`a, b >= 1`), or a whole table as the problem gives it, its heaps in order, `1,2,3,1`: the
//! pairs (1st, 2nd), (3rd, 4th), …, worth the nim-sum of the pairs (Sprague–Grundy).
//!
//! # The value
//! **Theorem.** `G(a, b)` is the index of the lowest 0 bit of `(a − 1) | (b − 1)` (bit 0 the
//! lowest): `G(1, 1) = 0`, `G(1, 2) = 1`, `G(3, 3) = 0`, `G(2, 3) = 2`.
//!
//! *Proof.* Write `f(a, b)` for the formula and, for a heap `n >= 1`, `S(n)` for the set of
//! `f(c, d)` over the splits `c + d = n`, `c, d >= 1`.
//!
//! *Lemma: `S(n)` is the set of the positions of the 1 bits of `n − 1`.* A split is
//! `x + y = m` with `x = c − 1`, `y = d − 1 >= 0` and `m = n − 2` (no split when `n = 1`, and
//! `n − 1 = 0` has no 1 bit). `f(c, d) = k` says: bits `0..k` of `x | y` are 1 and bit `k`
//! of both `x` and `y` is 0. Split `x` and `y` at bit `k + 1`: `x = X·2^(k+1) + x₀`,
//! `y = Y·2^(k+1) + y₀` with `x₀, y₀ < 2^k` (bit `k` is 0) and `x₀ | y₀ = 2^k − 1`. Then
//! `x₀ + y₀ = (x₀ | y₀) + (x₀ & y₀)` runs over `[2^k − 1, 2^(k+1) − 2]` (from disjoint to both
//! all ones), below `2^(k+1)`, so `x₀ + y₀ = m mod 2^(k+1)`, and `X + Y` is then any
//! `⌊m / 2^(k+1)⌋ >= 0`. So a split worth `k` exists iff `m mod 2^(k+1)` lies in
//! `[2^k − 1, 2^(k+1) − 2]`, i.e. iff `(m + 1) mod 2^(k+1) >= 2^k`: iff bit `k` of
//! `m + 1 = n − 1` is 1.
//!
//! *The theorem*, by induction on `a + b`: the options of `a,b` are the splits of `a` and the
//! splits of `b` (each part below `a + b`), worth `f` by induction, so `G(a, b)` is the mex of
//! `S(a) ∪ S(b)`, the set of 1 bits of `(a − 1) | (b − 1)` by the lemma: its mex is the lowest
//! 0 bit. ∎
//!
//! The lemma's construction also lists the moves to any value `k` without trying every split:
//! `x₀ = A | T` for `A = m mod 2^(k+1) − (2^k − 1)` (the bits both parts have, `x₀ & y₀`) and
//! `T` any subset of the other bits below `k`, and `X` any of `0..=⌊m / 2^(k+1)⌋`. The
//! property tests compare values and moves with the mex over the rules and the definition's
//! search. (The formula is the one contestants find by tabulating, e.g. in the solutions of
//! Luogu P2148; the proof above is this module's.)

use crate::error::GameError;
use crate::ruleset::{ComponentGame, ComponentMove, MOVE_LIMIT, Request, too_many_moves};
use crate::value::Value;
use crate::view::{PairTable, PairValues};
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::sync::Arc;

/// The spec word of the game.
pub const SPEC: &str = "e-and-d";

/// The heaps of a table of E&D, in the order written, the pairs `(1st, 2nd)`, `(3rd, 4th)`, …
/// (an even number of heaps, each at least 1): one pair `a,b`, or a whole table as Luogu P2148
/// gives it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Heaps(pub Vec<u64>);

/// E&D.
///
/// ```
/// use grundy::registry::parse_sum;
/// // Luogu P2148's first sample: heaps 1 2 3 1 are the pairs 1,2 and 3,1, worth 1 xor 0.
/// let position = parse_sum(&["e-and-d", "1,2", "3,1"]).unwrap();
/// assert_eq!(position.value().unwrap().to_string(), "1");
/// // The same table as one component, as the problem writes it.
/// let table = parse_sum(&["e-and-d", "1,2,3,1"]).unwrap();
/// assert_eq!(table.value().unwrap().to_string(), "1");
/// // Heaps of any size: (10^18 - 1) | (2^40 - 1) ends in 40 ones.
/// let far = parse_sum(&["e-and-d", "1000000000000000000,1099511627776"]).unwrap();
/// assert_eq!(far.value().unwrap().to_string(), "40");
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct EAndD;

/// `G(a, b)`: the index of the lowest 0 bit of `(a − 1) | (b − 1)` (the module doc's theorem).
pub fn grundy_value(a: u64, b: u64) -> u32 {
    ((a - 1) | (b - 1)).trailing_ones()
}

/// The splits `c + d = heap` (`1 <= c <= d`) worth `k`, by increasing `c`, handed to `visit`
/// (the module doc's construction).
fn splits_worth(heap: u64, k: u32, visit: &mut dyn FnMut(u64, u64)) {
    if heap < 2 || k >= 64 || (heap - 1) >> k & 1 == 0 {
        return;
    }
    let m = u128::from(heap - 2);
    let block = 1u128 << (k + 1);
    let low_ones = (1u128 << k) - 1;
    let low_sum = m % block;
    let common = low_sum - low_ones;
    let free = low_ones & !common;
    let high_blocks = m / block;
    for high in 0..=high_blocks {
        // The subsets of `free` in increasing order.
        let mut subset = 0u128;
        loop {
            let x = high * block + (common | subset);
            let y = m - x;
            if x > y {
                return;
            }
            visit(x as u64 + 1, y as u64 + 1);
            if subset == free {
                break;
            }
            subset = (subset.wrapping_sub(free)) & free;
        }
    }
}

/// How many splits `c + d = heap` (`1 <= c <= d`) are worth `k`.
fn count_splits_worth(heap: u64, k: u32) -> u128 {
    if heap < 2 || k >= 64 || (heap - 1) >> k & 1 == 0 {
        return 0;
    }
    let m = u128::from(heap - 2);
    let block = 1u128 << (k + 1);
    let low_ones = (1u128 << k) - 1;
    let common = m % block - low_ones;
    let free = low_ones & !common;
    let ordered = (m / block + 1) << free.count_ones();
    // Ordered pairs (x, y) and (y, x) both counted, except x = y.
    let middle = m % 2 == 0 && grundy_value(m as u64 / 2 + 1, m as u64 / 2 + 1) == k;
    (ordered + u128::from(middle)) / 2
}

fn format_heaps(heaps: &Heaps) -> String {
    heaps.0.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
}

impl EAndD {
    /// The heaps of pair `index` that may be split: `(kept, removed, which)`, one when both
    /// are equal.
    fn sides(heaps: &Heaps, index: usize) -> Vec<(u64, u64, &'static str)> {
        let (a, b) = (heaps.0[2 * index], heaps.0[2 * index + 1]);
        let mut sides = vec![(b, a, "second")];
        if a != b {
            sides.push((a, b, "first"));
        }
        sides
    }

    /// The value of each pair.
    fn pair_values(heaps: &Heaps) -> impl Iterator<Item = u32> + '_ {
        heaps.0.chunks_exact(2).map(|pair| grundy_value(pair[0], pair[1]))
    }

    fn split_move(heaps: &Heaps, index: usize, side: (u64, u64, &str), c: u64, d: u64) -> ComponentMove<Heaps> {
        let (kept, removed, which) = side;
        let mut after = heaps.clone();
        after.0[2 * index] = c;
        after.0[2 * index + 1] = d;
        let pair = if heaps.0.len() > 2 { format!("in the table's pair {}, ", index + 1) } else { String::new() };
        ComponentMove {
            notation: format!("{} -> {}", format_heaps(heaps), format_heaps(&after)),
            result: vec![after],
            detail: format!(" ({pair}remove the heap of {removed}, split the {which} heap, {kept}, into {c} + {d})"),
        }
    }
}

impl PairTable for EAndD {
    fn first(&self) -> u64 {
        1
    }

    /// The pairs `a,b` by the module doc's theorem (the row and the column 0 hold 0).
    fn pair_values(&self, side: u64) -> Result<Vec<Vec<u64>>, GameError> {
        Ok((0..side)
            .map(|a| (0..side).map(|b| if a == 0 || b == 0 { 0 } else { u64::from(grundy_value(a, b)) }).collect())
            .collect())
    }
}

impl ComponentGame for EAndD {
    type Component = Heaps;

    fn provide(self: Arc<Self>, request: &mut Request) {
        request.give::<PairValues>(|| self as Arc<dyn PairTable>);
    }

    fn spec(&self) -> String {
        SPEC.to_owned()
    }

    fn component_noun(&self) -> &'static str {
        "pair"
    }

    fn parse_component(&self, text: &str) -> Result<Heaps, GameError> {
        let bad = |reason: &str| GameError::BadComponent {
            game: SPEC.to_owned(),
            text: text.to_owned(),
            reason: format!(
                "{reason}: an E&D component is a pair of positive heap sizes written `a,b`, like `1,2`, or a table's \
                 heaps in pairs, `1,2,3,1`"
            ),
        };
        let mut heaps = Vec::new();
        for part in text.split(',') {
            if part.is_empty() || !part.bytes().all(|byte| byte.is_ascii_digit()) {
                return Err(bad(&format!("`{}` is not a number", crate::error::quote(part))));
            }
            match part.parse::<u64>() {
                Ok(0) => return Err(bad("a heap of 0")),
                Ok(size) => heaps.push(size),
                Err(_) => return Err(bad(&format!("`{}` is past 2^64 - 1", crate::error::quote(part)))),
            }
        }
        if heaps.len() % 2 == 1 {
            return Err(bad(&format!("{} heaps, an odd number", heaps.len())));
        }
        Ok(Heaps(heaps))
    }

    fn format_component(&self, heaps: &Heaps) -> String {
        format_heaps(heaps)
    }

    /// **The rules**: in one pair, remove one heap and split the other, `n`, into `c + d = n`,
    /// `1 <= c <= d` (the new pair `c,d`); pair by pair, the second heap's splits first.
    fn options(&self, heaps: &Heaps, limit: usize) -> Result<Vec<ComponentMove<Heaps>>, GameError> {
        let pairs = heaps.0.len() / 2;
        let count: u128 =
            (0..pairs).flat_map(|index| Self::sides(heaps, index)).map(|(kept, _, _)| u128::from(kept / 2)).sum();
        if count > limit as u128 {
            return Err(too_many_moves(SPEC, &format_heaps(heaps), limit));
        }
        let mut options = Vec::with_capacity(count as usize);
        for index in 0..pairs {
            for side in Self::sides(heaps, index) {
                for c in 1..=side.0 / 2 {
                    options.push(Self::split_move(heaps, index, side, c, side.0 - c));
                }
            }
        }
        Ok(options)
    }

    /// The nim-sum of the pairs' values.
    fn value(&self, heaps: &Heaps) -> Result<Value, GameError> {
        Ok(Value::from(Self::pair_values(heaps).fold(0u64, |sum, value| sum ^ u64::from(value))))
    }

    /// The splits that make the nim-sum `target`, by the lemma's construction, in the order of
    /// [`ComponentGame::options`].
    fn moves_to_value(&self, heaps: &Heaps, target: &BigUint) -> Result<Vec<ComponentMove<Heaps>>, GameError> {
        let Some(target) = target.to_u64() else { return Ok(Vec::new()) };
        let values: Vec<u32> = Self::pair_values(heaps).collect();
        let total = values.iter().fold(0u64, |sum, &value| sum ^ u64::from(value));
        // Pair `index` must become worth this (none past 63: a split's value is below 64).
        let wanted = |index: usize| u32::try_from(total ^ u64::from(values[index]) ^ target).ok().filter(|&k| k < 64);
        let mut count = 0u128;
        for index in 0..values.len() {
            if let Some(k) = wanted(index) {
                count +=
                    Self::sides(heaps, index).iter().map(|&(kept, _, _)| count_splits_worth(kept, k)).sum::<u128>();
            }
        }
        if count > MOVE_LIMIT as u128 {
            return Err(too_many_moves(SPEC, &format_heaps(heaps), MOVE_LIMIT));
        }
        let mut found = Vec::with_capacity(count as usize);
        for index in 0..values.len() {
            let Some(k) = wanted(index) else { continue };
            for side in Self::sides(heaps, index) {
                splits_worth(side.0, k, &mut |c, d| found.push(Self::split_move(heaps, index, side, c, d)));
            }
        }
        Ok(found)
    }

    fn p_position_reason(&self, heaps: &Heaps) -> Option<String> {
        if heaps.0.iter().all(|&heap| heap == 1) {
            return Some(format!("{}: every heap is 1, no move", format_heaps(heaps)));
        }
        (heaps.0.len() == 2 && Self::pair_values(heaps).all(|value| value == 0)).then(|| {
            format!(
                "{} is a P-position: both heaps are odd, so (a - 1) | (b - 1) is even, and every split of an odd heap \
                 has an even part, whose pair is worth at least 1 (E&D's lowest-0-bit theorem)",
                format_heaps(heaps)
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Component;
    use crate::ruleset::erase;
    use crate::solve::definition::Definition;
    use proptest::prelude::*;

    /// The mex over the rules, on every pair below `side`.
    fn definition_table(side: usize) -> Vec<Vec<u64>> {
        let mut table = vec![vec![0u64; side]; side];
        for total in 2..2 * side {
            for a in 1..side.min(total) {
                let b = total - a;
                if b == 0 || b >= side {
                    continue;
                }
                let splits = |n: usize| (1..n).map(move |c| (c, n - c));
                let reached: Vec<u64> = splits(a).chain(splits(b)).map(|(c, d)| table[c][d]).collect();
                table[a][b] = crate::nimber::mex(reached);
            }
        }
        table
    }

    #[test]
    fn values_and_moves_are_the_rules_on_every_small_pair() {
        let side = 70;
        let table = definition_table(side);
        for a in 1..side {
            for b in 1..side {
                let pair = Heaps(vec![a as u64, b as u64]);
                assert_eq!(u64::from(grundy_value(a as u64, b as u64)), table[a][b], "{a},{b}");
                let options = EAndD.options(&pair, 10_000).unwrap();
                for target in 0..=table[a][b] + 2 {
                    let expected: Vec<String> = options
                        .iter()
                        .filter(|one| table[one.result[0].0[0] as usize][one.result[0].0[1] as usize] == target)
                        .map(|one| one.notation.clone() + &one.detail)
                        .collect();
                    let found: Vec<String> = EAndD
                        .moves_to_value(&pair, &BigUint::from(target))
                        .unwrap()
                        .into_iter()
                        .map(|one| one.notation + &one.detail)
                        .collect();
                    assert_eq!(found, expected, "{a},{b} to {target}");
                }
            }
        }
        // Each heap's splits by value: the lemma, counted.
        for heap in 1..side as u64 {
            for k in 0..10 {
                let by_rules = (1..=heap / 2).filter(|&c| grundy_value(c, heap - c) == k).count() as u128;
                assert_eq!(count_splits_worth(heap, k), by_rules, "heap {heap}, value {k}");
            }
        }
    }

    #[test]
    fn the_samples_and_large_heaps() {
        // Luogu P2148's samples: 1 2 3 1 is won (YES), six 1s lost (NO).
        assert_eq!(grundy_value(1, 2) ^ grundy_value(3, 1), 1);
        assert_eq!(grundy_value(1, 1), 0);
        let pair = EAndD.parse_component("2000000000,1999999999").unwrap();
        assert_eq!(grundy_value(pair.0[0], pair.0[1]), ((1_999_999_999u64) | 1_999_999_998).trailing_ones());
        // Too many moves to list is said, not attempted.
        assert!(matches!(EAndD.moves_to_value(&pair, &BigUint::ZERO), Err(GameError::TooManyMoves { .. })));
        // Far out: the one split of 2^64 - 1 worth 63.
        let far = Heaps(vec![1, u64::MAX]);
        let moves = EAndD.moves_to_value(&far, &BigUint::from(63u32)).unwrap();
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].result, [Heaps(vec![(1 << 63) - 1, 1 << 63])]);
        assert_eq!(grundy_value(moves[0].result[0].0[0], moves[0].result[0].0[1]), 63);
        for bad in ["3", "0,2", "1,-2", "a,b", "1,99999999999999999999", "1,2,3", "1,,2", ""] {
            let error = EAndD.parse_component(bad).unwrap_err().to_string();
            assert!(error.contains("`1,2`"), "{bad}: {error}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]

        /// The value is the definition's search over the rules alone.
        #[test]
        fn the_formula_is_the_definition(a in 1u64..40, b in 1u64..40) {
            let component = Component::new(Heaps(vec![a, b]));
            let by_definition =
                Definition::with_limit(erase(EAndD), 100_000).value(std::slice::from_ref(&component)).unwrap();
            prop_assert_eq!(by_definition.0, u64::from(grundy_value(a, b)));
        }

        /// A table of two pairs is the sum of its pairs: its value and its moves are the
        /// definition's over the table's own rules.
        #[test]
        fn a_table_is_the_sum_of_its_pairs(heaps in proptest::collection::vec(1u64..9, 4)) {
            let table = Heaps(heaps);
            let mut definition = Definition::with_limit(erase(EAndD), 1_000_000);
            let by_definition = definition.value(&[Component::new(table.clone())]).unwrap();
            prop_assert_eq!(EAndD.value(&table).unwrap(), Value::from(by_definition.0));
            let options = EAndD.options(&table, 10_000).unwrap();
            for target in 0..8u64 {
                let mut expected = Vec::new();
                for one in &options {
                    if definition.value(&[Component::new(one.result[0].clone())]).unwrap().0 == target {
                        expected.push(one.notation.clone() + &one.detail);
                    }
                }
                let found: Vec<String> = EAndD
                    .moves_to_value(&table, &BigUint::from(target))
                    .unwrap()
                    .into_iter()
                    .map(|one| one.notation + &one.detail)
                    .collect();
                prop_assert_eq!(found, expected, "to {}", target);
            }
        }

        /// Far out, every move the construction lists is a split of the heap worth the
        /// target; too many to list is refused only when they are.
        #[test]
        fn far_moves_are_splits_worth_the_target(a in 1u64..=u64::MAX, k in 0u32..64) {
            match EAndD.moves_to_value(&Heaps(vec![1, a]), &BigUint::from(k)) {
                Ok(moves) => {
                    prop_assert_eq!(moves.len() as u128, count_splits_worth(a, k));
                    for one in moves {
                        let (c, d) = (one.result[0].0[0], one.result[0].0[1]);
                        prop_assert!(c >= 1 && c <= d && u128::from(c) + u128::from(d) == u128::from(a));
                        prop_assert_eq!(grundy_value(c, d), k);
                    }
                }
                Err(error) => {
                    let too_many = matches!(error, GameError::TooManyMoves { .. });
                    prop_assert!(too_many, "{}", error);
                    prop_assert!(count_splits_worth(a, k) > MOVE_LIMIT as u128);
                }
            }
        }
    }
}
