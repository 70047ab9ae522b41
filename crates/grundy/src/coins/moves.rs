//! Finding moves: the sets of other coins a move with a given rightmost coin may turn, all of
//! them or those whose values xor to a target.
//!
//! The generic finder walks the rule's sets using the value table (a run per count for
//! consecutive rules; subsets of the window, the last coin found by value lookup, otherwise).
//! The named rules also have closed-form finders, so that coins near `10^18` answer at once:
//! Turtles and Twins need one coin of a given value, Ruler one run (the prefix xor is the Gray
//! code, a bijection), Mock Turtles one coin or a pair of odious values counted and listed by a
//! digit recursion. Both finders are checked against each other in the tests.

use crate::coins::CoinEngine;
use crate::coins::rule::NamedRule;
use crate::coins::values::{closed_form, ruler_prefix_index, ruler_prefix_xor};
use crate::error::GameError;
use rustc_hash::FxHashMap;

/// The most winning moves one answer lists.
pub const MAX_LISTED_MOVES: usize = 100_000;
/// The most steps the search for moves may take.
pub const MAX_SEARCH_STEPS: u64 = 50_000_000;
/// The most coins one listed move may turn.
pub const MAX_TURNED_COINS: u64 = 1_000_000;

/// What a search for moves may still spend: steps and listed moves.
#[derive(Clone, Debug)]
pub struct Budget {
    steps: u64,
    moves: usize,
    move_limit: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { steps: MAX_SEARCH_STEPS, moves: MAX_LISTED_MOVES, move_limit: MAX_LISTED_MOVES }
    }
}

impl Budget {
    /// The default steps, and at most `moves` moves.
    pub fn with_move_limit(moves: usize) -> Self {
        Budget { moves, move_limit: moves, ..Budget::default() }
    }

    /// Spends `count` steps.
    ///
    /// # Errors
    /// [`GameError::Unsupported`] when the steps run out.
    pub fn step(&mut self, count: u64) -> Result<(), GameError> {
        self.steps = self.steps.checked_sub(count).ok_or_else(|| {
            GameError::Unsupported(format!(
                "finding the winning moves would take more than {MAX_SEARCH_STEPS} steps: the coins are too far right to list every move"
            ))
        })?;
        Ok(())
    }

    /// Counts `count` moves found.
    ///
    /// # Errors
    /// [`GameError::Unsupported`] past [`MAX_LISTED_MOVES`].
    pub fn found(&mut self, count: u128) -> Result<(), GameError> {
        match usize::try_from(count).ok().and_then(|count| self.moves.checked_sub(count)) {
            Some(left) => {
                self.moves = left;
                Ok(())
            }
            None => {
                Err(GameError::Unsupported(format!("there are more than {} moves, too many to list", self.move_limit)))
            }
        }
    }
}

/// The sets of other coins (each increasing, all left of `n`) that a move with rightmost coin
/// `n` may turn, restricted to those whose values xor to `target` when it is given.
///
/// # Errors
/// As the value table, and when the budget runs out.
pub fn other_sets(
    engine: &CoinEngine,
    n: u64,
    target: Option<u64>,
    budget: &mut Budget,
) -> Result<Vec<Vec<u64>>, GameError> {
    if let (Some(named), Some(target)) = (engine.named(), target) {
        return named_other_sets(named, n, target, budget);
    }
    match engine.named() {
        Some(named) => {
            let value = |coin: u64| closed_form(named, coin).expect("coins left of a valued coin have values");
            generic_other_sets(engine, &value, n, target, budget)
        }
        None => {
            let table = engine.table_through(n)?;
            generic_other_sets(engine, &|coin: u64| table[coin as usize], n, target, budget)
        }
    }
}

fn generic_other_sets(
    engine: &CoinEngine,
    value: &dyn Fn(u64) -> u64,
    n: u64,
    target: Option<u64>,
    budget: &mut Budget,
) -> Result<Vec<Vec<u64>>, GameError> {
    let rule = engine.rule();
    let mut sets = Vec::new();
    let matches = |xor: u64| target.is_none_or(|target| target == xor);
    if rule.consecutive() {
        let longest = rule.max_count().map_or(n, |max| max.min(n));
        let mut xor = 0;
        for count in 1..=longest {
            budget.step(1)?;
            if count >= 2 {
                xor ^= value(n - count + 1);
            }
            if rule.allows_count(count) && matches(xor) {
                budget.found(1)?;
                budget.step(count)?;
                sets.push((n - count + 1..n).collect());
            }
        }
        return Ok(sets);
    }
    let start = rule.window_start(n);
    let window = n - start;
    let mut by_value: FxHashMap<u64, Vec<u64>> = FxHashMap::default();
    if target.is_some() {
        budget.step(window)?;
        for coin in start..n {
            by_value.entry(value(coin)).or_default().push(coin);
        }
    }
    let largest = rule.max_count().map_or(window, |max| (max - 1).min(window));
    let mut search =
        SubsetSearch { value, by_value: &by_value, end: n, target, budget, sets: &mut sets, chosen: Vec::new() };
    for size in 0..=largest {
        if rule.allows_count(size + 1) {
            search.subsets(start, size, 0)?;
        }
    }
    Ok(sets)
}

struct SubsetSearch<'a> {
    value: &'a dyn Fn(u64) -> u64,
    by_value: &'a FxHashMap<u64, Vec<u64>>,
    /// Coins are below this.
    end: u64,
    target: Option<u64>,
    budget: &'a mut Budget,
    sets: &'a mut Vec<Vec<u64>>,
    chosen: Vec<u64>,
}

impl SubsetSearch<'_> {
    /// Every way to add `size` coins from `first..end` to `chosen` (whose xor is `xor`).
    fn subsets(&mut self, first: u64, size: u64, xor: u64) -> Result<(), GameError> {
        self.budget.step(1)?;
        if size == 0 {
            if self.target.is_none_or(|target| target == xor) {
                self.budget.found(1)?;
                self.sets.push(self.chosen.clone());
            }
            return Ok(());
        }
        if size == 1
            && let Some(target) = self.target
        {
            // The last coin is the one (or ones) with the missing value.
            let coins = self.by_value.get(&(target ^ xor)).map_or(&[][..], Vec::as_slice);
            let from = coins.partition_point(|&coin| coin < first);
            for &coin in &coins[from..] {
                self.budget.found(1)?;
                let mut set = self.chosen.clone();
                set.push(coin);
                self.sets.push(set);
            }
            return Ok(());
        }
        let Some(last_first) = self.end.checked_sub(size) else { return Ok(()) };
        for coin in first..=last_first {
            self.chosen.push(coin);
            let result = self.subsets(coin + 1, size - 1, xor ^ (self.value)(coin));
            self.chosen.pop();
            result?;
        }
        Ok(())
    }
}

/// The closed-form finder of a named rule: the sets of other coins, left of `n`, whose values
/// xor to `target`.
///
/// # Errors
/// When a set is too long or the sets too many to list.
pub fn named_other_sets(
    named: NamedRule,
    n: u64,
    target: u64,
    budget: &mut Budget,
) -> Result<Vec<Vec<u64>>, GameError> {
    let mut sets = Vec::new();
    match named {
        NamedRule::Turtles => {
            if target == 0 {
                sets.push(Vec::new());
            }
            if (1..n).contains(&target) {
                sets.push(vec![target]);
            }
        }
        NamedRule::Twins => {
            if let Some(coin) = target.checked_add(1)
                && coin < n
            {
                sets.push(vec![coin]);
            }
        }
        NamedRule::Ruler => {
            // The run j+1 ..= n−1 is worth X(n−1) ⊕ X(j), and X is the Gray code, one-to-one.
            let j = ruler_prefix_index(ruler_prefix_xor(n - 1) ^ target);
            if j < n {
                let length = n - 1 - j;
                if length + 1 > MAX_TURNED_COINS {
                    return Err(GameError::Unsupported(format!(
                        "the winning move from coin {n} turns {} coins, too many to list",
                        length + 1
                    )));
                }
                budget.step(length)?;
                sets.push((j + 1..n).collect());
            }
        }
        NamedRule::MockTurtles => {
            if target == 0 {
                sets.push(Vec::new());
            }
            // Values are increasing in the coin, and coin c has the odious value 2(c−1) or 2(c−1)+1.
            if target.count_ones() % 2 == 1 && target / 2 + 1 < n {
                sets.push(vec![target / 2 + 1]);
            }
            if target != 0 && target.count_ones().is_multiple_of(2) {
                let bound = closed_form(named, n).expect("the coin has a value");
                let pairs = OdiousPairs::new(bound, target);
                budget.found(pairs.count())?;
                budget.step(64 * pairs.count() as u64)?;
                let mut found = Vec::new();
                pairs.list(64, true, 1, 0, &mut found);
                sets.extend(found.into_iter().map(|low| vec![low / 2 + 1, (low ^ target) / 2 + 1]));
                sets.sort_unstable();
            }
        }
    }
    budget.found(sets.len() as u128)?;
    Ok(sets)
}

/// The pairs `u < w` of odious numbers below `bound` with `u ⊕ w = target` (target evil and
/// not 0, so `w` is odious with `u`). Writing `h` for the top bit of `target`, `u < w` exactly
/// when bit `h` of `u` is 0, and then `w < bound` implies `u < bound`: count the `u` with bit
/// `h` clear, odd parity and `u ⊕ target < bound`, bit by bit from the top.
struct OdiousPairs {
    bound: u64,
    target: u64,
    top: u32,
    /// `ways[i][tight][parity]`: completions of the low `i` bits, `tight` when `w` has matched
    /// `bound` so far, `parity` the parity the remaining bits of `u` must have.
    ways: Vec<[[u128; 2]; 2]>,
}

impl OdiousPairs {
    fn new(bound: u64, target: u64) -> Self {
        let top = 63 - target.leading_zeros();
        let mut pairs = OdiousPairs { bound, target, top, ways: vec![[[0; 2]; 2]; 65] };
        pairs.ways[0] = [[1, 0], [0, 0]];
        for i in 1..=64usize {
            for tight in 0..2 {
                for parity in 0..2 {
                    let ways: u128 = pairs
                        .choices(i as u32 - 1, tight == 1)
                        .map(|(bit, next_tight)| pairs.ways[i - 1][usize::from(next_tight)][parity ^ bit as usize])
                        .sum();
                    pairs.ways[i][tight][parity] = ways;
                }
            }
        }
        pairs
    }

    /// The choices of bit `bit` of `u` with the tightness they leave.
    fn choices(&self, bit: u32, tight: bool) -> impl Iterator<Item = (u64, bool)> + '_ {
        (0..2u64).filter_map(move |u_bit| {
            if bit == self.top && u_bit == 1 {
                return None;
            }
            let w_bit = u_bit ^ (self.target >> bit & 1);
            let bound_bit = self.bound >> bit & 1;
            match (tight, w_bit.cmp(&bound_bit)) {
                (false, _) => Some((u_bit, false)),
                (true, std::cmp::Ordering::Greater) => None,
                (true, std::cmp::Ordering::Equal) => Some((u_bit, true)),
                (true, std::cmp::Ordering::Less) => Some((u_bit, false)),
            }
        })
    }

    fn count(&self) -> u128 {
        self.ways[64][1][1]
    }

    /// Lists the `u` completing `prefix` in the low `remaining` bits (largest `u` first).
    fn list(&self, remaining: u32, tight: bool, parity: usize, prefix: u64, out: &mut Vec<u64>) {
        if remaining == 0 {
            out.push(prefix);
            return;
        }
        let bit = remaining - 1;
        for (u_bit, next_tight) in self.choices(bit, tight) {
            let next_parity = parity ^ u_bit as usize;
            if self.ways[bit as usize][usize::from(next_tight)][next_parity] > 0 {
                self.list(bit, next_tight, next_parity, prefix | u_bit << bit, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// The closed-form finders give exactly the sets the generic one finds from the table.
        #[test]
        fn closed_form_finders_match_the_generic_search(named_index in 0usize..4, n in 1u64..160, target in 0u64..400) {
            let named = NamedRule::ALL[named_index];
            let engine = CoinEngine::new(named.rule());
            let table = crate::coins::values::value_table(&named.rule(), n, &crate::control::Control::default()).unwrap();
            let mut budget = Budget::default();
            let mut generic = generic_other_sets(&engine, &|coin| table[coin as usize], n, Some(target), &mut budget).unwrap();
            let mut closed = named_other_sets(named, n, target, &mut Budget::default()).unwrap();
            generic.sort();
            closed.sort();
            prop_assert_eq!(closed, generic);
        }
    }

    #[test]
    fn mock_turtles_pairs_near_ten_to_the_eighteen_are_counted_not_listed() {
        let n = 1_000_000_000_000_000_000u64;
        let error = named_other_sets(NamedRule::MockTurtles, n, 6, &mut Budget::default()).unwrap_err();
        assert!(error.to_string().contains("too many"), "{error}");
        // Just past a power of two, a target with that top bit leaves a few pairs: listed at once.
        let n = (1u64 << 59) + 3;
        let target = (1u64 << 60) | 1;
        let sets = named_other_sets(NamedRule::MockTurtles, n, target, &mut Budget::default()).unwrap();
        assert!(!sets.is_empty() && sets.len() < 10, "{sets:?}");
        for set in sets {
            let xor = set.iter().map(|&c| closed_form(NamedRule::MockTurtles, c).unwrap()).fold(0, |a, b| a ^ b);
            assert_eq!(xor, target);
            assert!(set.len() == 2 && set[0] < set[1] && set[1] < n);
        }
    }
}
