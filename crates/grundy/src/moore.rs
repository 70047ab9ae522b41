//! Moore's Nim (`moore:K`, Nim_K, K-堆Nim): heaps of counters; a move takes a positive number
//! of counters from each of at least 1 and at most `K` heaps. Whoever cannot move loses. A
//! component is the heaps of one position, `3,5,6`; `moore:1` is Nim.
//!
//! # The outcome
//! **Theorem** (E. H. Moore, *A generalization of the game called Nim*, Annals of Mathematics
//! 11 (1910) 93–94): a position is a P-position iff, for every binary digit, the number of
//! heaps with a 1 in that digit is divisible by `K + 1`.
//!
//! *Proof.* Call such a position balanced. (a) No move joins two balanced positions: a move
//! changes at most `K` heaps, and in the highest digit where any changed heap changes, between
//! 1 and `K` heaps change, so that digit's count changes by a non-zero amount of absolute value
//! at most `K`, and cannot stay divisible by `K + 1`. (b) From an unbalanced position a move
//! reaches a balanced one, built digit by digit from the top ([`MooreNim::balancing_move`]):
//! keep a set `S` of heaps already lowered (their lower digits are free, `m = |S| <= K`). At a
//! digit, let `c` count the ones among the heaps outside `S` and `r = c mod (K + 1)`. If
//! `r = 0`, give the heaps of `S` a 0. If `K + 1 − r <= m`, give `K + 1 − r` heaps of `S` a
//! 1 and the rest a 0. Otherwise `m + r <= K`: lower `r` heaps outside `S` that have a 1 here
//! (they become 0 here, keep their higher digits, and join `S`) and give the old heaps of `S`
//! a 0. Each digit's count ends divisible by `K + 1`, every heap of `S` is lowered (first at the
//! digit where it joined), `|S| <= K`, and `S` is non-empty as some digit has `r ≠ 0`.
//! Positions with no move are balanced (all heaps 0), so by (a) and (b) the balanced
//! positions are exactly the P-positions.
//!
//! # Values
//! The Grundy values have no known closed form for `K >= 2`: [`MooreNim`] computes them by the
//! definition (the mex over the options, on the table of every position below the heaps), while
//! that table stays within [`VALUE_STATE_LIMIT`] positions and [`VALUE_WORK_LIMIT`] options in
//! all and the run's memory limit. Outcomes and winning moves are by the theorem at any size;
//! past the table, a position's winning move is the one the construction above finds.

use crate::control::Control;
use crate::error::GameError;
use crate::nimber::mex;
use crate::ruleset::{ComponentGame, ComponentMove, MOVE_LIMIT, too_many_moves};
use crate::value::{Outcome, Value};
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use std::sync::{Arc, Mutex};

/// The most positions (the product of `heap + 1`) whose values are computed by the definition.
pub const VALUE_STATE_LIMIT: u64 = 1 << 22;

/// The most options, in all, that the definition walks for one table.
pub const VALUE_WORK_LIMIT: u64 = 1 << 28;

/// One position of Moore's Nim: its heaps, as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MooreHeaps(pub Vec<BigUint>);

/// Moore's Nim_K.
///
/// ```
/// use grundy::registry::parse_sum;
/// // K = 2: 1,2,3 has two ones in each of digits 1 and 2 (not divisible by 3): N.
/// let position = parse_sum(&["moore:2", "1,2,3"]).unwrap();
/// assert_eq!(position.outcome().unwrap().to_string(), "N");
/// // 1,2,3,3: the ones digit is 1 in 1,3,3 and the twos digit in 2,3,3, three heaps each: P.
/// assert_eq!(parse_sum(&["moore:2", "1,2,3,3"]).unwrap().outcome().unwrap().to_string(), "P");
/// // Heaps of any size: the outcome and a winning move by Moore's theorem.
/// let far = parse_sum(&["moore:2", "1000000000000,999999999999,5"]).unwrap();
/// let moves = far.winning_moves().unwrap();
/// assert_eq!(far.after(&moves[0]).outcome().unwrap().to_string(), "P");
/// ```
pub struct MooreNim {
    most_heaps: u64,
    /// The last table of values computed: its box (the sorted heaps' bounds) and the values.
    table: Mutex<Option<Arc<ValueTable>>>,
    control: Control,
}

/// The values of every position (sorted heaps) below a box.
struct ValueTable {
    /// The box's sides, sorted ascending: the heaps it covers are at most these, sorted.
    sides: Vec<u64>,
    /// Values indexed by the mixed-radix number of the sorted heaps.
    values: Vec<u32>,
}

impl ValueTable {
    fn index(&self, heaps: &[u64]) -> usize {
        let mut index = 0usize;
        for (heap, side) in heaps.iter().zip(&self.sides) {
            index = index * (*side as usize + 1) + *heap as usize;
        }
        index
    }

    /// Whether sorted `heaps` lie in the box.
    fn covers(&self, heaps: &[u64]) -> bool {
        heaps.len() == self.sides.len() && heaps.iter().zip(&self.sides).all(|(heap, side)| heap <= side)
    }
}

fn format_heaps(heaps: &[BigUint]) -> String {
    heaps.iter().map(BigUint::to_string).collect::<Vec<_>>().join(",")
}

impl MooreNim {
    /// Nim_K: take from at most `most_heaps` heaps at once (`K >= 1`).
    pub fn new(most_heaps: u64) -> Self {
        MooreNim { most_heaps, table: Mutex::new(None), control: Control::default() }
    }

    /// Reads the parameter `K` of `moore:K`.
    ///
    /// # Errors
    /// [`GameError::BadGame`] for anything but a whole number `K >= 1`.
    pub fn parse(text: &str, parameter: &str) -> Result<Self, GameError> {
        let bad = |reason: String| GameError::BadGame { spec: text.to_owned(), reason };
        let most: u64 = parameter
            .parse()
            .map_err(|_| bad(format!("`{parameter}` is not K, a whole number of heaps a move may take from")))?;
        if most == 0 {
            return Err(bad("K = 0: a move takes from at least one heap, so K >= 1".to_owned()));
        }
        Ok(MooreNim::new(most))
    }

    /// This game computing its tables under `control`.
    #[must_use]
    pub fn with_control(mut self, control: Control) -> Self {
        self.control = control;
        self
    }

    /// Moore's criterion: every binary digit's count of ones is divisible by `K + 1`.
    pub fn is_p_position(&self, heaps: &[BigUint]) -> bool {
        let digits = heaps.iter().map(BigUint::bits).max().unwrap_or(0);
        let modulus = u128::from(self.most_heaps) + 1;
        (0..digits).all(|digit| {
            let ones = heaps.iter().filter(|heap| heap.bit(digit)).count() as u128;
            ones.is_multiple_of(modulus)
        })
    }

    /// The heaps a winning move leaves, by the construction of the module doc, or `None` from a
    /// P-position.
    pub fn balancing_move(&self, heaps: &[BigUint]) -> Option<Vec<BigUint>> {
        let digits = heaps.iter().map(BigUint::bits).max().unwrap_or(0);
        let modulus = u128::from(self.most_heaps) + 1;
        let mut lowered: Vec<usize> = Vec::new();
        let mut after: Vec<BigUint> = heaps.to_vec();
        for digit in (0..digits).rev() {
            let outside: Vec<usize> =
                (0..heaps.len()).filter(|index| !lowered.contains(index) && heaps[*index].bit(digit)).collect();
            let remainder = outside.len() as u128 % modulus;
            let free = lowered.len() as u128;
            let ones_in_lowered = if remainder == 0 {
                0
            } else if modulus - remainder <= free {
                (modulus - remainder) as usize
            } else {
                for &index in outside.iter().take(remainder as usize) {
                    after[index].set_bit(digit, false);
                    lowered.push(index);
                }
                // The heaps just lowered are new members, not the old ones given a 0 below.
                let old = lowered.len() - remainder as usize;
                for &index in &lowered[..old] {
                    after[index].set_bit(digit, false);
                }
                continue;
            };
            for (order, &index) in lowered.iter().enumerate() {
                after[index].set_bit(digit, order < ones_in_lowered);
            }
        }
        (!lowered.is_empty()).then_some(after)
    }

    fn move_to(&self, heaps: &[BigUint], after: Vec<BigUint>) -> ComponentMove<MooreHeaps> {
        let taken: Vec<String> = heaps
            .iter()
            .zip(&after)
            .enumerate()
            .filter(|(_, (before, now))| before != now)
            .map(|(index, (before, now))| format!("{} from heap {}", before - now, index + 1))
            .collect();
        ComponentMove {
            notation: format!("{} -> {}", format_heaps(heaps), format_heaps(&after)),
            result: vec![MooreHeaps(after)],
            detail: format!(" (take {})", taken.join(", ")),
        }
    }

    /// The number of options of `heaps`: the sum over sets of 1..K heaps of the product of
    /// their sizes (saturating).
    fn option_count(&self, heaps: &[BigUint]) -> u128 {
        // Elementary symmetric sums e_1..e_K of the heap sizes, saturating at u128::MAX.
        let most = self.most_heaps.min(heaps.len() as u64) as usize;
        let mut sums = vec![0u128; most + 1];
        sums[0] = 1;
        for heap in heaps {
            let heap = heap.to_u128().unwrap_or(u128::MAX);
            for size in (1..=most).rev() {
                sums[size] = sums[size].saturating_add(sums[size - 1].saturating_mul(heap));
            }
        }
        sums[1..].iter().fold(0u128, |total, &sum| total.saturating_add(sum))
    }

    /// The options of every position of the box below `heaps`, in all: for each set `S` of
    /// 1..K heaps, `Π_{i∈S} h_i(h_i + 1)/2 · Π_{i∉S} (h_i + 1)` (saturating). The table walks the
    /// sorted positions only, so this bounds its work.
    fn box_work(&self, heaps: &[u64]) -> u128 {
        let most = self.most_heaps.min(heaps.len() as u64) as usize;
        // sums[s]: the sets of s heaps so far, weighted.
        let mut sums = vec![0u128; most + 1];
        sums[0] = 1;
        for &heap in heaps {
            let (kept, lowered) = (u128::from(heap) + 1, u128::from(heap) * (u128::from(heap) + 1) / 2);
            for size in (0..=most).rev() {
                let stay = sums[size].saturating_mul(kept);
                let join = if size > 0 { sums[size - 1].saturating_mul(lowered) } else { 0 };
                sums[size] = stay.saturating_add(join);
            }
        }
        sums[1..].iter().fold(0u128, |total, &sum| total.saturating_add(sum))
    }

    /// Every option of word-sized `heaps`, each as the heaps it leaves.
    fn for_each_option(&self, heaps: &[u64], visit: &mut dyn FnMut(&[u64])) {
        fn walk(
            heaps: &[u64],
            at: usize,
            left: u64,
            changed: bool,
            current: &mut Vec<u64>,
            visit: &mut dyn FnMut(&[u64]),
        ) {
            if at == heaps.len() {
                if changed {
                    visit(current);
                }
                return;
            }
            current.push(heaps[at]);
            walk(heaps, at + 1, left, changed, current, visit);
            current.pop();
            if left > 0 {
                for smaller in 0..heaps[at] {
                    current.push(smaller);
                    walk(heaps, at + 1, left - 1, true, current, visit);
                    current.pop();
                }
            }
        }
        walk(heaps, 0, self.most_heaps, false, &mut Vec::with_capacity(heaps.len()), visit);
    }

    /// The table of values covering `heaps` (sorted), computed by the definition.
    fn table_covering(&self, heaps: &[BigUint]) -> Result<Arc<ValueTable>, GameError> {
        let out_of_reach = |why: String| {
            let outcome = if self.is_p_position(heaps) { "P" } else { "N" };
            GameError::OutOfReach(format!(
                "the Grundy value of the Moore's Nim position `{}` is out of reach: {why}; its outcome, {outcome}, \
                 is exact by Moore's theorem (`grundy outcome {} {}`)",
                format_heaps(heaps),
                self.spec(),
                format_heaps(heaps)
            ))
        };
        let mut sorted: Vec<u64> = Vec::with_capacity(heaps.len());
        for heap in heaps {
            match heap.to_u64().filter(|&heap| heap < VALUE_STATE_LIMIT) {
                Some(heap) => sorted.push(heap),
                None => {
                    return Err(out_of_reach(format!(
                        "values are computed by the definition only for at most {VALUE_STATE_LIMIT} positions below it \
                         (the product of heap + 1)"
                    )));
                }
            }
        }
        sorted.sort_unstable();
        if let Some(table) = self.table.lock().expect("table lock").as_ref()
            && table.covers(&sorted)
        {
            return Ok(table.clone());
        }
        let states = sorted
            .iter()
            .try_fold(1u64, |product, &heap| product.checked_mul(heap + 1).filter(|&p| p <= VALUE_STATE_LIMIT));
        let Some(states) = states else {
            return Err(out_of_reach(format!(
                "values are computed by the definition only for at most {VALUE_STATE_LIMIT} positions below it (the product of heap + 1)"
            )));
        };
        let work = self.box_work(&sorted);
        if work > u128::from(VALUE_WORK_LIMIT) {
            return Err(out_of_reach(format!(
                "the definition would walk about {work} options (at most {VALUE_WORK_LIMIT} are walked)"
            )));
        }
        self.control.check_memory(
            || format!("the values of {} below {}", self.spec(), format_heaps(heaps)),
            states as u128,
            4,
        )?;
        let mut table = ValueTable { sides: sorted.clone(), values: Vec::new() };
        table.values = self.control.try_table(states as usize, 0u32, || {
            format!("the values of {} below {}", self.spec(), format_heaps(heaps))
        })?;
        let mut current = vec![0u64; sorted.len()];
        let mut seen: Vec<u64> = Vec::new();
        for index in 0..states as usize {
            if self.control.cancelled() {
                return Err(GameError::Unsupported("cancelled".to_owned()));
            }
            // The heaps of `index`, in mixed radix (the value of a position does not depend on
            // the heaps' order).
            let mut rest = index;
            for (slot, side) in current.iter_mut().zip(&sorted).rev() {
                *slot = (rest % (*side as usize + 1)) as u64;
                rest /= *side as usize + 1;
            }
            // Only sorted positions are read (options are looked up sorted).
            if current.windows(2).any(|pair| pair[0] > pair[1]) {
                continue;
            }
            seen.clear();
            let values = &table.values;
            let mut sorted_option = Vec::with_capacity(current.len());
            self.for_each_option(&current, &mut |option| {
                sorted_option.clear();
                sorted_option.extend_from_slice(option);
                sorted_option.sort_unstable();
                // A sorted option of a sorted position in the box lies in the box (each of its
                // order statistics is at most the position's) and comes earlier in the mixed
                // radix order (it is smaller in one of them and larger in none): computed.
                let mut at = 0usize;
                for (heap, side) in sorted_option.iter().zip(&sorted) {
                    at = at * (*side as usize + 1) + *heap as usize;
                }
                seen.push(u64::from(values[at]));
            });
            let value = mex_of(&mut seen);
            table.values[index] = value as u32;
        }
        let table = Arc::new(table);
        *self.table.lock().expect("table lock") = Some(table.clone());
        Ok(table)
    }
}

/// The least value not in `values`.
fn mex_of(values: &mut [u64]) -> u64 {
    mex(values.iter().copied())
}

impl ComponentGame for MooreNim {
    type Component = MooreHeaps;

    fn spec(&self) -> String {
        format!("moore:{}", self.most_heaps)
    }

    fn component_noun(&self) -> &'static str {
        "position"
    }

    fn parse_component(&self, text: &str) -> Result<MooreHeaps, GameError> {
        let mut heaps = Vec::new();
        for heap in text.split(',') {
            if heap.is_empty() || !heap.bytes().all(|b| b.is_ascii_digit()) {
                return Err(GameError::BadComponent {
                    game: self.spec(),
                    text: text.to_owned(),
                    reason:
                        "a Moore's Nim position is its heaps as non-negative integers separated by commas, like `3,5,6`"
                            .to_owned(),
                });
            }
            heaps.push(heap.parse::<BigUint>().expect("decimal digits parse"));
        }
        Ok(MooreHeaps(heaps))
    }

    fn format_component(&self, heaps: &MooreHeaps) -> String {
        format_heaps(&heaps.0)
    }

    /// **The rules**: lower each of 1..K heaps by a positive amount.
    fn options(&self, heaps: &MooreHeaps, limit: usize) -> Result<Vec<ComponentMove<MooreHeaps>>, GameError> {
        if self.option_count(&heaps.0) > limit as u128 {
            return Err(too_many_moves(&self.spec(), &format_heaps(&heaps.0), limit));
        }
        let words: Vec<u64> = heaps.0.iter().map(|heap| heap.to_u64().expect("few options")).collect();
        let mut options = Vec::new();
        self.for_each_option(&words, &mut |option| {
            options.push(self.move_to(&heaps.0, option.iter().map(|&heap| BigUint::from(heap)).collect()));
        });
        Ok(options)
    }

    fn value(&self, heaps: &MooreHeaps) -> Result<Value, GameError> {
        if heaps.0.iter().all(Zero::is_zero) {
            return Ok(Value::from(0u64));
        }
        let table = self.table_covering(&heaps.0)?;
        let mut sorted: Vec<u64> = heaps.0.iter().map(|heap| heap.to_u64().expect("in the table")).collect();
        sorted.sort_unstable();
        Ok(Value::from(u64::from(table.values[table.index(&sorted)])))
    }

    fn outcome(&self, heaps: &MooreHeaps) -> Result<Outcome, GameError> {
        Ok(if self.is_p_position(&heaps.0) { Outcome::P } else { Outcome::N })
    }

    /// Every option that is a P-position by Moore's theorem, while the options can be listed;
    /// past that, the one winning move the construction finds (the module doc).
    fn moves_to_p(&self, heaps: &MooreHeaps) -> Result<Vec<ComponentMove<MooreHeaps>>, GameError> {
        if self.option_count(&heaps.0) <= MOVE_LIMIT as u128 {
            let mut moves = self.options(heaps, MOVE_LIMIT)?;
            moves.retain(|one| self.is_p_position(&one.result[0].0));
            return Ok(moves);
        }
        Ok(self
            .balancing_move(&heaps.0)
            .map(|after| {
                let mut one = self.move_to(&heaps.0, after);
                one.detail.pop();
                one.detail.push_str(
                    "; one winning move, by Moore's construction: the options are too many to search them all)",
                );
                one
            })
            .into_iter()
            .collect())
    }

    fn p_position_reason(&self, heaps: &MooreHeaps) -> Option<String> {
        self.is_p_position(&heaps.0).then(|| {
            format!(
                "{} is a P-position by Moore's theorem: each binary digit has a number of ones divisible by K + 1 = {}",
                format_heaps(&heaps.0),
                u128::from(self.most_heaps) + 1
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

    fn big(heaps: &[u64]) -> Vec<BigUint> {
        heaps.iter().map(|&heap| BigUint::from(heap)).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Moore's criterion is the definition's outcome, the table's values are the
        /// definition's, and the construction's move is an option that reaches a P-position.
        #[test]
        fn moores_theorem_and_the_table_are_the_definition(
            most in 1u64..4,
            heaps in proptest::collection::vec(0u64..6, 1..5),
        ) {
            let game = Arc::new(MooreNim::new(most));
            let rules = erase(MooreNim::new(most));
            let component = crate::position::Component::new(MooreHeaps(big(&heaps)));
            let by_definition =
                Definition::with_limit(rules, 1_000_000).value(std::slice::from_ref(&component)).unwrap();
            let value = game.value(&MooreHeaps(big(&heaps))).unwrap();
            prop_assert_eq!(Value::from(by_definition.0), value, "moore:{} {:?}", most, heaps);
            prop_assert_eq!(game.is_p_position(&big(&heaps)), by_definition.0 == 0, "moore:{} {:?}", most, heaps);
            let options = game.options(&MooreHeaps(big(&heaps)), 1_000_000).unwrap();
            match game.balancing_move(&big(&heaps)) {
                None => prop_assert_eq!(by_definition.0, 0),
                Some(after) => {
                    prop_assert!(game.is_p_position(&after));
                    prop_assert!(options.iter().any(|one| one.result[0].0 == after), "{:?} -> {:?} is no move", heaps, after);
                }
            }
        }

        /// On heaps past any table, the construction's move is legal (1..K heaps lowered) and
        /// balanced.
        #[test]
        fn the_construction_balances_large_heaps(
            most in 1u64..6,
            heaps in proptest::collection::vec(any::<u64>(), 1..9),
        ) {
            let game = MooreNim::new(most);
            let heaps = big(&heaps);
            match game.balancing_move(&heaps) {
                None => prop_assert!(game.is_p_position(&heaps)),
                Some(after) => {
                    prop_assert!(!game.is_p_position(&heaps));
                    prop_assert!(game.is_p_position(&after));
                    let lowered = heaps.iter().zip(&after).filter(|(before, now)| now < before).count();
                    let raised = heaps.iter().zip(&after).filter(|(before, now)| now > before).count();
                    prop_assert!(raised == 0 && lowered >= 1 && lowered as u64 <= most);
                }
            }
        }
    }

    /// The work bound is the options of every position of the box, counted one by one.
    #[test]
    fn box_work_counts_the_options_below() {
        for most in 1..4 {
            let game = MooreNim::new(most);
            for heaps in [vec![3u64], vec![2, 3], vec![1, 2, 3], vec![0, 4, 2, 1]] {
                let mut total = 0u128;
                let mut position = vec![0u64; heaps.len()];
                loop {
                    let mut count = 0u128;
                    game.for_each_option(&position, &mut |_| count += 1);
                    assert_eq!(count, game.option_count(&big(&position)), "{position:?}");
                    total += count;
                    // The next position of the box, in mixed radix.
                    let Some(at) = (0..heaps.len()).rev().find(|&at| position[at] < heaps[at]) else { break };
                    position[at] += 1;
                    position[at + 1..].fill(0);
                }
                assert_eq!(game.box_work(&heaps), total, "moore:{most} {heaps:?}");
            }
        }
    }

    #[test]
    fn large_positions_answer_outcomes_and_refuse_values_clearly() {
        let game = MooreNim::new(2);
        let far = game.parse_component("1000000000000,999999999999,5").unwrap();
        assert_eq!(game.outcome(&far).unwrap(), Outcome::N);
        let error = game.value(&far).unwrap_err().to_string();
        assert!(error.contains("out of reach") && error.contains("outcome, N"), "{error}");
        let moves = game.moves_to_p(&far).unwrap();
        assert_eq!(moves.len(), 1);
        assert!(game.is_p_position(&moves[0].result[0].0));
        assert!(MooreNim::parse("moore:0", "0").err().unwrap().to_string().contains("K >= 1"));
        assert!(game.parse_component("3,,5").unwrap_err().to_string().contains("`3,5,6`"));
    }
}
