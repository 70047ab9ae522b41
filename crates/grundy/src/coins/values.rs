//! The value of a single heads coin: by mex from the rule, and by closed form for the named
//! rules.
//!
//! With one heads coin `n`, a move turns `n` to tails and a set `S` of coins left of it; by
//! the sum rule (seed `002_e2faf50696f52a16.txt`, Theorem 3.2) the position left is worth
//! `⊕_{s∈S} G(s)`, so `G(n) = mex { ⊕_{s∈S} G(s) : S allowed }`. [`value_table`] computes that
//! mex for every coin up to a bound without listing the sets one by one:
//! - **consecutive** rules: `S` is a run `n−c+1 … n−1`, worth `X(n−1) ⊕ X(n−c)` with the prefix
//!   xor `X(m) = G(1) ⊕ … ⊕ G(m)`. The allowed `X(n−c)` form sliding windows, kept in a binary
//!   trie that counts distinct leaves; the mex of `{a ⊕ x}` is one walk down the trie (take the
//!   side of `a`'s bit unless that subtree is full). `O(bits)` per coin and range of counts.
//! - other rules with **no window**: the sets `E_d` of xors of `d` distinct earlier coins
//!   (`E_d ← E_d ∪ (G(m) ⊕ E_{d−1})` when coin `m` joins; one bucket “`d` or more” for an
//!   unbounded count) as bitsets, xor-translated a word at a time.
//! - other rules **within `K`**: the same with counts of sets instead of bits, so that a coin
//!   leaving the window can be taken out again (`N_d ← N_d − G(m) ⊕ N_{d−1}`).
//!
//! Every method is checked against the definition (the row game solved by
//! [`crate::solve::memo`]) in the tests, and the closed forms against the tables.

use crate::coins::rule::{CoinRule, NamedRule};
use crate::control::Control;
use crate::error::GameError;

/// The most elementary steps one table may take before it is refused.
pub const WORK_LIMIT: u64 = 4_000_000_000;

/// The most memory the option sets of one table may take (far below the library's general
/// limit: a rule whose values double at every coin should be refused, not swapped for).
pub const OPTION_SET_LIMIT: u128 = 1 << 30;

fn check_option_sets(what: impl FnOnce() -> String, words: u128) -> Result<(), GameError> {
    let bytes_needed = words.saturating_mul(8);
    if bytes_needed > OPTION_SET_LIMIT {
        return Err(GameError::TooLarge { what: what(), bytes_needed, limit: OPTION_SET_LIMIT });
    }
    Ok(())
}

/// The closed form of a named rule: the value of coin `n ≥ 1`, or `None` when it passes
/// `2^64 − 1` (Mock Turtles past coin `2^63`).
///
/// - Turtles: options are 0 (the coin alone) and `G(c) = c` for every `c < n`, so `G(n) = n`.
/// - Twins: options are `G(c)` for `c < n`, so `G(n) = n − 1`.
/// - Ruler: `G(n) = 2^{v₂(n)}` (*Winning Ways* ch. 14, “Ruler”); the prefix xor
///   `X(m) = m ⊕ ⌊m/2⌋` is the Gray code of `m`.
/// - Mock Turtles: `G(n)` is the `n`-th odious number (odd number of 1 bits), `2(n−1)` or
///   `2(n−1)+1` (*Winning Ways* ch. 14, “Mock Turtles”).
///
/// ```
/// use grundy::coins::rule::NamedRule;
/// use grundy::coins::values::closed_form;
/// let mock: Vec<u64> = (1..=6).map(|n| closed_form(NamedRule::MockTurtles, n).unwrap()).collect();
/// assert_eq!(mock, [1, 2, 4, 7, 8, 11]);
/// assert_eq!(closed_form(NamedRule::Ruler, 12), Some(4));
/// assert_eq!(closed_form(NamedRule::Twins, 10), Some(9));
/// ```
pub fn closed_form(named: NamedRule, n: u64) -> Option<u64> {
    debug_assert!(n >= 1, "coins are numbered from 1");
    match named {
        NamedRule::Turtles => Some(n),
        NamedRule::Twins => Some(n - 1),
        NamedRule::Ruler => Some(1 << n.trailing_zeros()),
        NamedRule::MockTurtles => {
            let m = n - 1;
            let doubled = m.checked_mul(2)?;
            Some(doubled | u64::from(m.count_ones().is_multiple_of(2)))
        }
    }
}

/// The Gray code `m ⊕ ⌊m/2⌋`: the xor of the Ruler values of coins `1..=m`.
pub fn ruler_prefix_xor(m: u64) -> u64 {
    m ^ (m >> 1)
}

/// The inverse of the Gray code: the `m` with `ruler_prefix_xor(m) = x`.
pub fn ruler_prefix_index(x: u64) -> u64 {
    let mut m = x;
    let mut shift = 1;
    while shift < 64 {
        m ^= m >> shift;
        shift <<= 1;
    }
    m
}

/// `G(n)` for every coin `n = 1..=last_coin` (index 0 holds 0), by mex from the rule.
///
/// # Errors
/// [`GameError::TooLarge`] past the memory limit, [`GameError::Unsupported`] past
/// [`WORK_LIMIT`] steps.
///
/// ```
/// use grundy::coins::rule::CoinRule;
/// use grundy::coins::values::value_table;
/// let control = grundy::control::Control::default();
/// let mock = CoinRule::parse("coins:turn=1..3", "turn=1..3").unwrap();
/// assert_eq!(value_table(&mock, 8, &control).unwrap(), [0, 1, 2, 4, 7, 8, 11, 13, 14]);
/// let ruler = CoinRule::parse("coins:turn=0..;consecutive", "turn=0..;consecutive").unwrap();
/// assert_eq!(value_table(&ruler, 8, &control).unwrap(), [0, 1, 2, 1, 4, 1, 2, 1, 8]);
/// ```
pub fn value_table(rule: &CoinRule, last_coin: u64, control: &Control) -> Result<Vec<u64>, GameError> {
    let what = || format!("the coin values of coins:{rule} up to coin {last_coin}");
    control.check_memory(what, u128::from(last_coin) + 1, 16)?;
    let len = usize::try_from(last_coin).map_err(|_| control.too_large(what(), u128::from(last_coin) * 16))?;
    if rule.consecutive() {
        return consecutive_table(rule, len, control);
    }
    match rule.within() {
        Some(k) if k.saturating_add(1) < last_coin => windowed_table(rule, len, k),
        _ => spanning_table(rule, len),
    }
}

fn too_much_work(rule: &CoinRule, last_coin: usize) -> GameError {
    GameError::Unsupported(format!(
        "the coin values of coins:{rule} up to coin {last_coin} need more than {WORK_LIMIT} steps; \
         only the named rules (turtles, mock-turtles, ruler, twins) have closed forms for coins that far"
    ))
}

/// A binary trie over `bits`-bit values with multiplicities, counting the distinct values in
/// every subtree (a complete tree in an array: node `i` has children `2i`, `2i + 1`).
struct XorTrie {
    bits: u32,
    distinct: Vec<u32>,
    multiplicity: Vec<u32>,
}

impl XorTrie {
    fn new(bits: u32) -> Self {
        XorTrie { bits, distinct: vec![0; 2 << bits], multiplicity: vec![0; 1 << bits] }
    }

    fn adjust_path(&mut self, value: u64, delta: i32) {
        let mut node = (1usize << self.bits) | value as usize;
        while node >= 1 {
            self.distinct[node] = self.distinct[node].wrapping_add_signed(delta);
            node >>= 1;
        }
    }

    fn insert(&mut self, value: u64) {
        self.multiplicity[value as usize] += 1;
        if self.multiplicity[value as usize] == 1 {
            self.adjust_path(value, 1);
        }
    }

    fn remove(&mut self, value: u64) {
        self.multiplicity[value as usize] -= 1;
        if self.multiplicity[value as usize] == 0 {
            self.adjust_path(value, -1);
        }
    }

    /// `mex { a ⊕ x : x in the trie }`.
    fn mex_xor(&self, a: u64) -> u64 {
        if self.distinct[1] as u64 == 1 << self.bits {
            return 1 << self.bits;
        }
        let (mut node, mut result) = (1usize, 0u64);
        for level in (0..self.bits).rev() {
            let bit = ((a >> level) & 1) as usize;
            // The child holding the x whose bit equals a's gives result bit 0 there.
            let same = 2 * node + bit;
            if u64::from(self.distinct[same]) < 1 << level {
                node = same;
            } else {
                result |= 1 << level;
                node = 2 * node + (bit ^ 1);
            }
        }
        result
    }
}

fn consecutive_table(rule: &CoinRule, len: usize, control: &Control) -> Result<Vec<u64>, GameError> {
    // G(n) ≤ the number of options ≤ n ≤ len < 2^bits, so no xor of values leaves the trie.
    let bits = (usize::BITS - len.leading_zeros()).max(1);
    control.check_memory(|| format!("the trie for coins:{rule} up to coin {len}"), 3u128 << bits, 4)?;
    let steps = (len as u64).saturating_mul(2 * rule.counts().len() as u64 + u64::from(bits));
    if steps > WORK_LIMIT {
        return Err(too_much_work(rule, len));
    }
    let mut trie = XorTrie::new(bits);
    let mut values = vec![0u64; len + 1];
    let mut prefix = vec![0u64; len + 1];
    for n in 1..=len {
        // Counts c in lo..=hi use X(n − c): X(n − lo) enters the window, X(n − 1 − hi) leaves.
        for range in rule.counts() {
            let lo = range.lo as usize;
            if n >= lo {
                trie.insert(prefix[n - lo]);
            }
            if let Some(hi) = range.hi
                && (n - 1) as u64 >= hi
            {
                trie.remove(prefix[n - 1 - hi as usize]);
            }
        }
        values[n] = trie.mex_xor(prefix[n - 1]);
        prefix[n] = prefix[n - 1] ^ values[n];
    }
    Ok(values)
}

/// Xor-translates a bitset: every bit `i` of `source` sets bit `i ⊕ shift` of `target`.
fn or_translated(target: &mut [u64], source: &[u64], shift: u64) {
    const MASKS: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0f0f_0f0f_0f0f_0f0f,
        0x00ff_00ff_00ff_00ff,
        0x0000_ffff_0000_ffff,
        0x0000_0000_ffff_ffff,
    ];
    let word_shift = (shift >> 6) as usize;
    let bit_shift = shift & 63;
    for (index, &word) in source.iter().enumerate() {
        let mut word = word;
        for (level, mask) in MASKS.iter().enumerate() {
            if bit_shift >> level & 1 == 1 {
                let width = 1 << level;
                word = ((word & mask) << width) | ((word >> width) & mask);
            }
        }
        target[index ^ word_shift] |= word;
    }
}

/// The sizes of the sets of *other* coins a rule allows: exact sizes `0..=exact_max`, and
/// every size from `tail` on when the count has no upper end.
struct OtherSizes {
    exact_max: Option<u64>,
    tail: Option<u64>,
}

impl OtherSizes {
    fn of(rule: &CoinRule, cap: Option<u64>) -> Self {
        let last = rule.counts().last().expect("a rule has counts");
        match (last.hi, cap) {
            (None, None) => OtherSizes { exact_max: (last.lo - 1).checked_sub(1), tail: Some(last.lo - 1) },
            (Some(hi), cap) => OtherSizes { exact_max: Some((hi - 1).min(cap.unwrap_or(u64::MAX))), tail: None },
            (None, Some(cap)) => OtherSizes { exact_max: Some(cap), tail: None },
        }
    }
}

fn spanning_table(rule: &CoinRule, len: usize) -> Result<Vec<u64>, GameError> {
    let mut sizes = OtherSizes::of(rule, None);
    // No coin up to `len` has more than `len − 1` coins on its left.
    let most_others = len.saturating_sub(1) as u64;
    sizes.exact_max = sizes.exact_max.map(|max| max.min(most_others));
    if sizes.tail.is_some_and(|tail| tail > most_others) {
        sizes.tail = None;
    }
    let exact_count = sizes.exact_max.map_or(0, |max| max as usize + 1);
    let allowed: Vec<bool> = (0..exact_count as u64).map(|d| rule.allows_count(d + 1)).collect();
    let buckets = exact_count + usize::from(sizes.tail.is_some());
    let mut words = 1usize;
    let mut exact: Vec<Vec<u64>> = vec![vec![0; words]; exact_count];
    let mut tail: Option<Vec<u64>> = sizes.tail.map(|_| vec![0; words]);
    match (&mut tail, sizes.tail) {
        (Some(tail), Some(0)) => tail[0] = 1,
        _ => exact[0][0] = 1,
    }
    let mut scratch = vec![0u64; words];
    let mut values = vec![0u64; len + 1];
    let mut work = 0u64;
    for n in 1..=len {
        if n >= 2 {
            let joining = values[n - 1];
            // Room for every xor of values below the next power of two above `joining`.
            if joining >= 64 * words as u64 {
                let new_words = ((joining + 1).next_power_of_two() / 64) as usize;
                check_option_sets(
                    || format!("the option sets of coins:{rule} (values reach {joining} at coin {})", n - 1),
                    (buckets + 1) as u128 * new_words as u128,
                )?;
                words = new_words;
                exact.iter_mut().chain(tail.iter_mut()).chain(std::iter::once(&mut scratch)).for_each(|set| {
                    set.resize(words, 0);
                });
            }
            if let (Some(tail), Some(start)) = (&mut tail, sizes.tail) {
                scratch.copy_from_slice(tail);
                if start >= 1 {
                    scratch.iter_mut().zip(&exact[start as usize - 1]).for_each(|(s, e)| *s |= e);
                }
                or_translated(tail, &scratch, joining);
            }
            for d in (1..exact_count).rev() {
                let (lower, upper) = exact.split_at_mut(d);
                or_translated(&mut upper[0], &lower[d - 1], joining);
            }
            // Sets only grow, so every later coin costs at least as much as this one.
            let per_coin = (buckets as u64 + 1) * words as u64 * 8;
            work += per_coin;
            if work.saturating_add((len - n) as u64 * per_coin) > WORK_LIMIT {
                return Err(too_much_work(rule, len));
            }
        }
        let mut value = 64 * words as u64;
        for index in 0..words {
            let mut union = tail.as_ref().map_or(0, |tail| tail[index]);
            for (set, &allowed) in exact.iter().zip(&allowed) {
                if allowed {
                    union |= set[index];
                }
            }
            if union != u64::MAX {
                value = index as u64 * 64 + u64::from(union.trailing_ones());
                break;
            }
        }
        values[n] = value;
    }
    Ok(values)
}

fn windowed_table(rule: &CoinRule, len: usize, within: u64) -> Result<Vec<u64>, GameError> {
    if within > 63 {
        return Err(GameError::Unsupported(format!(
            "coins:{rule}: a window wider than 63 coins is tabulated only up to coin {} (its sets would be too many to count)",
            within + 1
        )));
    }
    let within = within as usize;
    let sizes = OtherSizes::of(rule, Some(within as u64));
    let max_size = sizes.exact_max.expect("a window bounds the sizes") as usize;
    let allowed: Vec<bool> = (0..=max_size as u64).map(|d| rule.allows_count(d + 1)).collect();
    // counts[d][x]: how many sets of d coins in the window have values xoring to x. At most
    // C(63, d) < 2^64, so the counts are exact.
    let mut width = 64usize;
    let mut counts: Vec<Vec<u64>> = vec![vec![0; width]; max_size + 1];
    counts[0][0] = 1;
    let mut values = vec![0u64; len + 1];
    let mut work = 0u64;
    for n in 1..=len {
        if n >= 2 {
            if n - 1 > within {
                let leaving = values[n - 1 - within] as usize;
                for d in 1..=max_size {
                    let (lower, upper) = counts.split_at_mut(d);
                    for (x, count) in upper[0].iter_mut().enumerate() {
                        *count = count.wrapping_sub(lower[d - 1][x ^ leaving]);
                    }
                }
            }
            let joining = values[n - 1];
            if joining >= width as u64 {
                let new_width = (joining + 1).next_power_of_two() as usize;
                check_option_sets(
                    || format!("the option counts of coins:{rule} (values reach {joining} at coin {})", n - 1),
                    (max_size + 1) as u128 * new_width as u128,
                )?;
                width = new_width;
                counts.iter_mut().for_each(|set| set.resize(width, 0));
            }
            let joining = joining as usize;
            for d in (1..=max_size).rev() {
                let (lower, upper) = counts.split_at_mut(d);
                for (x, count) in upper[0].iter_mut().enumerate() {
                    *count = count.wrapping_add(lower[d - 1][x ^ joining]);
                }
            }
            // The tables never shrink, so every later coin costs at least as much as this one.
            let per_coin = 2 * (max_size as u64 + 1) * width as u64;
            work += per_coin;
            if work.saturating_add((len - n) as u64 * per_coin) > WORK_LIMIT {
                return Err(too_much_work(rule, len));
            }
        }
        values[n] = (0..width)
            .find(|&x| !counts.iter().zip(&allowed).any(|(set, &allowed)| allowed && set[x] != 0))
            .unwrap_or(width) as u64;
    }
    Ok(values)
}

/// The single-coin values of coins `0..=last_coin` by the definition written out: for every
/// coin, every set of other coins the rule allows, the mex of their xors. Exponential; the
/// reference the fast tables are tested and benchmarked against.
pub fn definition_table(rule: &CoinRule, last_coin: u64) -> Vec<u64> {
    fn subsets(values: &[u64], first: u64, end: u64, size: u64, xor: u64, out: &mut Vec<u64>) {
        if size == 0 {
            out.push(xor);
            return;
        }
        for coin in first..end.saturating_sub(size - 1) {
            subsets(values, coin + 1, end, size - 1, xor ^ values[coin as usize], out);
        }
    }
    let mut values = vec![0u64; last_coin as usize + 1];
    let mut options = Vec::new();
    for n in 1..=last_coin {
        options.clear();
        if rule.consecutive() {
            let mut xor = 0;
            for count in 1..=rule.max_count().map_or(n, |max| max.min(n)) {
                if count >= 2 {
                    xor ^= values[(n - count + 1) as usize];
                }
                if rule.allows_count(count) {
                    options.push(xor);
                }
            }
        } else {
            let start = rule.window_start(n);
            for size in 0..n - start + 1 {
                if rule.allows_count(size + 1) {
                    subsets(&values, start, n, size, 0, &mut options);
                }
            }
        }
        values[n as usize] = crate::nimber::mex(options.iter().copied());
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coins::rule::CountRange;
    use proptest::prelude::*;

    fn written_rule() -> impl Strategy<Value = CoinRule> {
        (prop::collection::vec((0u64..6, prop::option::of(0u64..3)), 1..3), any::<bool>(), prop::option::of(0u64..7))
            .prop_filter_map("the rule allows a move", |(ranges, consecutive, within)| {
                let counts =
                    ranges.into_iter().map(|(lo, span)| CountRange { lo, hi: span.map(|span| lo + span) }).collect();
                CoinRule::new(counts, consecutive, within).ok()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Trie, bitsets and counts against the definition, well past the rows the row-game
        /// test can solve.
        #[test]
        fn fast_tables_match_the_definition(rule in written_rule()) {
            let coins = match (rule.consecutive(), rule.within(), rule.max_count()) {
                (true, _, _) | (false, Some(_), _) => 150,
                (false, None, Some(max)) if max <= 3 => 120,
                (false, None, Some(_)) => 40,
                (false, None, None) => 14,
            };
            prop_assert_eq!(value_table(&rule, coins, &Control::default()).unwrap(), definition_table(&rule, coins), "{}", rule);
        }
    }

    #[test]
    fn closed_forms_match_the_mex_tables_to_ten_thousand() {
        for named in NamedRule::ALL {
            let table = value_table(&named.rule(), 10_000, &Control::default()).unwrap();
            for n in 1..=10_000u64 {
                assert_eq!(Some(table[n as usize]), closed_form(named, n), "{} coin {n}", named.name());
            }
        }
    }

    #[test]
    fn gray_code_is_the_ruler_prefix_xor() {
        let mut prefix = 0;
        for m in 1..5000u64 {
            prefix ^= closed_form(NamedRule::Ruler, m).unwrap();
            assert_eq!(ruler_prefix_xor(m), prefix);
            assert_eq!(ruler_prefix_index(prefix), m);
        }
        assert_eq!(ruler_prefix_index(ruler_prefix_xor(u64::MAX - 5)), u64::MAX - 5);
    }

    #[test]
    fn translation_moves_every_bit() {
        for shift in [0u64, 1, 5, 63, 64, 100, 255] {
            let mut source = vec![0u64; 4];
            for bit in [0u64, 3, 64, 130, 255] {
                source[bit as usize / 64] |= 1 << (bit % 64);
            }
            let mut target = vec![0u64; 4];
            or_translated(&mut target, &source, shift);
            for bit in 0..256u64 {
                let expected = [0u64, 3, 64, 130, 255].contains(&(bit ^ shift));
                assert_eq!(target[bit as usize / 64] >> (bit % 64) & 1 == 1, expected, "shift {shift} bit {bit}");
            }
        }
    }

    #[test]
    fn huge_counts_cost_no_more_than_the_coins_allow() {
        let parse = |text: &str| CoinRule::parse(text, text).unwrap();
        let bounded = value_table(&parse("turn=1..1000000000000"), 20, &Control::default()).unwrap();
        assert_eq!(bounded, value_table(&parse("turn=1.."), 20, &Control::default()).unwrap());
        assert_eq!(bounded[1..8], [1, 2, 4, 8, 16, 32, 64]);
        let far = value_table(&parse("turn=1000000..;consecutive"), 30, &Control::default()).unwrap();
        assert!(far[1..].iter().all(|&value| value == 0));
    }

    #[test]
    fn huge_tables_are_refused_not_attempted() {
        let own = CoinRule::parse("coins:turn=1..5", "turn=1..5").unwrap();
        assert!(matches!(
            value_table(&own, 1_000_000_000_000_000_000, &Control::default()),
            Err(GameError::TooLarge { .. })
        ));
    }
}
