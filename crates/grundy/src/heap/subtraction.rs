//! Subtraction games `sub:S`: take `s` counters from one heap, for some `s` in a finite set `S`
//! of positive integers (seed `001_6848388ebec463a2.txt`, AcWing 893 “集合-Nim”).
//!
//! **No closed form in general**; values come from the dynamic programme
//! `G(n) = mex { G(n − s) : s ∈ S, s ≤ n }` over a table sized to the largest heap asked.
//! Every value is at most `|S|` (a mex of at most `|S|` values).
//!
//! # Sets with large elements
//! The window argument proves a period from `e + p + max(S)` values, which for `max(S)` near
//! 10^9 is gigabytes per game. Two theorems answer such sets from a short prefix instead
//! ([`Shortcut`]); each is checked against the definition in this module's property tests.
//!
//! - **Redundant elements.** Let `G'` be the nim-sequence of a set `S'` and `k > max(S')`.
//!   Adding `k` changes no value iff `G'(n − k) ≠ G'(n)` for every `n ≥ k`. By induction on `n`:
//!   if `G = G'` below `n`, the options of `n` under `S' ∪ {k}` have the values of its options
//!   under `S'`, whose mex is `G'(n)`, plus `G'(n − k)` when `n ≥ k`; adding a value to a set
//!   changes its mex exactly when the value is the mex. When `G'` has period `p'` from `e'`
//!   (proved by the window argument on `S'`, whose elements are small), `G'(m) ≠ G'(m + k)` for
//!   all `m ≥ 0` follows from checking `0 ≤ m < e' + p'`: for `m ≥ e'` both sides repeat with
//!   period `p'`. Elements are added one at a time in increasing order, each checked against
//!   the same `G'`. So `sub:1,2,k` with `k` not a multiple of 3 has `G(n) = n mod 3`.
//! - **Bash's game and one more move.** For `S = {1, …, a − 1} ∪ {k}` with `a ≥ 2` and `a`
//!   dividing `k` (Codeforces 1194D, “1-2-K Game”, is `a = 3`):
//!   `G(n) = a` when `n mod (k + 1) = k`, and `G(n) = (n mod (k + 1)) mod a` otherwise: period
//!   `k + 1` from heap 0. Proof, writing `f` for the claimed function and `r = n mod (k + 1)`:
//!   below `k` only the moves `1 … a − 1` exist and `G(n) = n mod a` (Bash's game); at `n = k`
//!   the options `k − 1 … k − a + 1` and `0` have the values `a − 1 … 1` and `0`, so `G(k) = a`.
//!   For `n > k` every move exists, and the options' residues are `r − 1, …, r − a + 1` and
//!   `r − k ≡ r + 1 (mod k + 1)`. If `a − 1 ≤ r ≤ k − 2`, these values are the residues mod
//!   `a` other than `r mod a` (the last repeats one of them): the mex is `r mod a`. If
//!   `r = k − 1`: the residues other than `a − 1`, and `a` (from residue `k`): mex `a − 1`. If
//!   `r = k`: `a − 1 … 1` and `0` (residue 0): mex `a`. If `r < a − 1`: `0 … r − 1`, `a` (residue
//!   `k`), `r + 2 … a − 1` (residues `k + 1 + r − j` for `j > r + 1`, as `a` divides `k`) and
//!   `r + 1` (residue `r + 1 ≤ a − 1 < k`): mex `r`. In each case the mex is `f(n)`.

use crate::control::Control;
use crate::error::GameError;
use crate::game::Game;
use crate::heap::period::{KnownPeriod, Period, find_period};
use crate::heap::{CompactSequence, Extended, HeapGame, Periodicity, extend_in_chunks, parse_positive_list};
use num_bigint::BigUint;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// A finite set of positive integers, shown `{1,3,4}` and parsed from `{1,3,4}` or `1,3,4`.
///
/// ```
/// use grundy::heap::subtraction::SubtractionSet;
/// let set: SubtractionSet = "5,2,2".parse().unwrap();
/// assert_eq!(set.to_string(), "{2,5}");
/// assert_eq!(set.to_string().parse::<SubtractionSet>().unwrap(), set);
/// assert!("2,0".parse::<SubtractionSet>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SubtractionSet(Vec<u64>);

impl SubtractionSet {
    /// A set from its elements (any order, repeats dropped).
    ///
    /// # Errors
    /// [`GameError::BadGame`] for an empty set or a zero.
    pub fn new(mut elements: Vec<u64>) -> Result<Self, GameError> {
        elements.sort_unstable();
        elements.dedup();
        let bad = |reason: &str| GameError::BadGame { spec: "sub".to_owned(), reason: reason.to_owned() };
        match elements.first() {
            None => Err(bad("the subtraction set is empty")),
            Some(0) => Err(bad("`0` in the subtraction set: every element must be positive")),
            Some(_) => Ok(SubtractionSet(elements)),
        }
    }

    /// The elements in increasing order.
    pub fn elements(&self) -> &[u64] {
        &self.0
    }

    /// The largest element.
    pub fn max(&self) -> u64 {
        *self.0.last().expect("a subtraction set is not empty")
    }
}

impl fmt::Display for SubtractionSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list: Vec<String> = self.0.iter().map(u64::to_string).collect();
        write!(f, "{{{}}}", list.join(","))
    }
}

impl FromStr for SubtractionSet {
    type Err = GameError;
    fn from_str(text: &str) -> Result<Self, GameError> {
        parse_positive_list(&format!("sub:{text}"), text, "subtraction set").map(SubtractionSet)
    }
}

/// The rules of a subtraction game on one heap, for the generic solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubtractionGame {
    set: SubtractionSet,
    /// A theorem that answers a set with a large element from a short prefix, found when the
    /// game is built (only for sets whose largest element passes [`LARGE_ELEMENT`]).
    shortcut: Option<Arc<Shortcut>>,
}

/// Sets whose largest element is past this look for a [`Shortcut`] when built: below it the
/// window argument's table is at most a few MiB.
pub const LARGE_ELEMENT: u64 = 1 << 16;
/// The elements up to this form the core whose period a [`Shortcut::Redundant`] is proved on.
pub const CORE_ELEMENT: u64 = 1 << 12;
/// The last heap the core's period is searched to.
const CORE_SEARCH: u64 = (1 << 20) - 1;

/// How a set with large elements is answered without a table of `max(S)` values (see the
/// module's proofs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shortcut {
    /// Every element past `core` is redundant: the game's nim-sequence is the core's, period
    /// `period` from `preperiod`.
    Redundant {
        /// The elements up to the core's bound.
        core: SubtractionSet,
        /// The core's values `G'(0) … G'(e' + p' − 1)`.
        values: CompactSequence,
        /// `e'`.
        preperiod: u64,
        /// `p'`.
        period: u64,
    },
    /// `S = {1, …, a − 1} ∪ {k}` with `a` dividing `k`: period `k + 1`.
    BashPlusOne {
        /// `a`.
        below: u64,
        /// `k`.
        max_take: u64,
    },
}

impl Shortcut {
    /// The shortcut of `set` whose core is its elements up to `core_bound`, when a theorem of
    /// the module applies; `None` otherwise (then only the window argument proves a period).
    ///
    /// ```
    /// use grundy::heap::subtraction::{Shortcut, SubtractionSet};
    /// let set: SubtractionSet = "1,2,1000000000".parse().unwrap(); // 10^9 ≡ 1 (mod 3)
    /// let shortcut = Shortcut::find(&set, 4096).unwrap();
    /// assert_eq!(shortcut.value(&999_999_999u64.into()), 0u32.into());
    /// let set: SubtractionSet = "1,2,999999999".parse().unwrap(); // 3 divides 999999999
    /// let shortcut = Shortcut::find(&set, 4096).unwrap();
    /// assert_eq!(shortcut.value(&999_999_999u64.into()), 3u32.into());
    /// assert_eq!(shortcut.value(&1_000_000_000u64.into()), 0u32.into());
    /// ```
    pub fn find(set: &SubtractionSet, core_bound: u64) -> Option<Shortcut> {
        let elements = set.elements();
        let (max_take, below) = (set.max(), elements.len() as u64);
        if below >= 2 && elements[..elements.len() - 1].iter().copied().eq(1..below) && max_take.is_multiple_of(below) {
            return Some(Shortcut::BashPlusOne { below, max_take });
        }
        let split = elements.partition_point(|&take| take <= core_bound);
        if split == 0 || split == elements.len() {
            return None;
        }
        let core = SubtractionSet(elements[..split].to_vec());
        let core_game = SubtractionGame { set: core.clone(), shortcut: None };
        let mut values = CompactSequence::new();
        let search_to = CORE_SEARCH.max(core_bound.saturating_mul(4));
        let report = find_period(&core_game, &mut values, search_to, &Control::default(), &mut |_| {}).ok()?;
        let (period, _) = report.proved?;
        let known = period.preperiod + period.period;
        let at = |heap: u64| -> u32 {
            let index = if heap < known { heap } else { period.preperiod + (heap - period.preperiod) % period.period };
            values.get(index as usize).expect("the core's prefix holds its preperiod and period")
        };
        for &take in &elements[split..] {
            if (0..known).any(|heap| at(heap) == at(heap + take)) {
                return None;
            }
        }
        let prefix: Vec<u32> = (0..known).map(at).collect();
        Some(Shortcut::Redundant {
            core,
            values: CompactSequence::from_values(&prefix),
            preperiod: period.preperiod,
            period: period.period,
        })
    }

    /// `G(heap)` for a heap of any size.
    pub fn value(&self, heap: &BigUint) -> BigUint {
        match self {
            Shortcut::Redundant { values, preperiod, period, .. } => {
                let pattern = Period { preperiod: *preperiod, period: *period, saltus: 0, proved: true, checked_to: 0 };
                pattern.value_at(values, heap).expect("the prefix holds the preperiod and the period")
            }
            Shortcut::BashPlusOne { below, max_take } => {
                let residue = heap % (u128::from(*max_take) + 1);
                if residue == BigUint::from(*max_take) { BigUint::from(*below) } else { residue % *below }
            }
        }
    }

    /// The period it proves.
    pub fn known_period(&self) -> KnownPeriod {
        match self {
            Shortcut::Redundant { core, preperiod, period, .. } => KnownPeriod {
                preperiod: *preperiod,
                period: *period,
                saltus: 0,
                theorem: format!(
                    "the elements past {core} are redundant (G(n - s) differs from G(n) for each of them, checked \
                     over a preperiod and a period of the nim-sequence of {core}), so the values are those of {core}"
                ),
            },
            Shortcut::BashPlusOne { below, max_take } => KnownPeriod {
                preperiod: 0,
                period: max_take + 1,
                saltus: 0,
                theorem: format!(
                    "S = {} with {max_take} a multiple of {below}: G(n) = {below} when n mod {} = {max_take}, \
                     else (n mod {}) mod {below} (Bash's game and one more move, as in Codeforces 1194D)",
                    if *below <= 8 {
                        format!("{{{}{max_take}}}", (1..*below).map(|take| format!("{take},")).collect::<String>())
                    } else {
                        format!("{{1, …, {}, {max_take}}}", below - 1)
                    },
                    max_take + 1,
                    max_take + 1
                ),
            },
        }
    }

    /// The method, in words.
    fn method(&self) -> String {
        match self {
            Shortcut::Redundant { core, .. } => {
                format!(
                    "the period of {core}, whose nim-sequence the larger elements do not change (no table of max(S) values)"
                )
            }
            Shortcut::BashPlusOne { below, max_take } => format!(
                "closed form of Bash's game and one more move: G(n) = {below} at n mod {} = {max_take}, else \
                 (n mod {}) mod {below} (no table of max(S) values)",
                max_take + 1,
                max_take + 1
            ),
        }
    }
}

impl SubtractionGame {
    /// Parses the `S` of `sub:S` (`spec` is the whole game text, for error messages).
    ///
    /// # Errors
    /// [`GameError::BadGame`] naming the bad element.
    pub fn parse(spec: &str, list: &str) -> Result<Self, GameError> {
        Ok(Self::with_set(SubtractionSet(parse_positive_list(spec, list, "subtraction set")?)))
    }

    /// The game on `set`, with its [`Shortcut`] when its largest element passes
    /// [`LARGE_ELEMENT`].
    fn with_set(set: SubtractionSet) -> Self {
        let shortcut = if set.max() > LARGE_ELEMENT { Shortcut::find(&set, CORE_ELEMENT).map(Arc::new) } else { None };
        SubtractionGame { set, shortcut }
    }

    /// The theorem that answers this set without a table of `max(S)` values, if any.
    pub fn shortcut(&self) -> Option<&Shortcut> {
        self.shortcut.as_deref()
    }

    /// The game with subtraction set `elements`.
    ///
    /// # Errors
    /// As [`SubtractionSet::new`].
    pub fn new(elements: Vec<u64>) -> Result<Self, GameError> {
        Ok(Self::with_set(SubtractionSet::new(elements)?))
    }

    /// The subtraction set.
    pub fn set(&self) -> &SubtractionSet {
        &self.set
    }
}

/// The game on one word-sized heap for the generic solvers (a subtraction game never splits a
/// heap): the options of [`HeapGame::heap_options`], each a single heap.
impl Game for SubtractionGame {
    type State = u64;
    fn options_into(&self, heap: &u64, out: &mut Vec<u64>) {
        out.extend(self.heap_options(*heap).into_iter().flatten());
    }
}

/// Extends `values` (the nim-sequence `G(0), G(1), …` computed so far) to `len` values.
///
/// # Complexity
/// Time O(|S|) per new value; space the table.
///
/// ```
/// use grundy::heap::subtraction::{SubtractionSet, extend_sequence};
/// let set: SubtractionSet = "2,5".parse().unwrap();
/// let mut values = Vec::new();
/// extend_sequence(&set, &mut values, 10);
/// assert_eq!(values, [0, 0, 1, 1, 0, 2, 1, 0, 0, 1]);
/// ```
pub fn extend_sequence(set: &SubtractionSet, values: &mut Vec<u32>, len: usize) {
    let elements = set.elements();
    // stamp[v] == n + 1 marks value v as seen among the options of n: no clearing per heap.
    let mut stamp = vec![0usize; elements.len() + 2];
    values.reserve(len.saturating_sub(values.len()));
    for heap in values.len()..len {
        for &take in elements.iter().take_while(|&&take| take as usize <= heap) {
            stamp[values[heap - take as usize] as usize] = heap + 1;
        }
        let value = stamp.iter().position(|&mark| mark != heap + 1).expect("a value is missing");
        values.push(value as u32);
    }
}

impl HeapGame for SubtractionGame {
    fn spec(&self) -> String {
        let list: Vec<String> = self.set.elements().iter().map(u64::to_string).collect();
        format!("sub:{}", list.join(","))
    }

    fn extend_sequence(&self, values: &mut CompactSequence, len: usize, control: &Control) -> Extended {
        extend_in_chunks(&self.spec(), values, len, 1 << 20, control, |values, next| {
            extend_sequence(&self.set, values, next);
        })
    }

    fn periodicity(&self) -> Periodicity {
        Periodicity::Subtraction { max_take: self.set.max() }
    }

    fn method(&self) -> String {
        match &self.shortcut {
            Some(shortcut) => shortcut.method(),
            None => "mex over all options".to_owned(),
        }
    }

    /// The shortcut's period, when the set has one (see the module).
    fn known_period(&self) -> Option<KnownPeriod> {
        self.shortcut.as_ref().map(|shortcut| shortcut.known_period())
    }

    fn closed_form_value(&self, heap: &BigUint) -> Option<BigUint> {
        self.shortcut.as_ref().map(|shortcut| shortcut.value(heap))
    }

    /// The rules: take any element of the set that the heap holds.
    fn heap_options(&self, heap: u64) -> Vec<Vec<u64>> {
        self.set.elements().iter().take_while(|&&take| take <= heap).map(|take| vec![heap - take]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::HeapSum;
    use crate::solve::memo::Solver;
    use proptest::prelude::*;

    #[test]
    fn set_nim_sample_from_the_seed() {
        // AcWing 893: S = {2, 5}, heaps 2 4 7 — the first player wins.
        let game = SubtractionGame::parse("sub:2,5", "2,5").unwrap();
        let mut values = Vec::new();
        extend_sequence(game.set(), &mut values, 8);
        assert_ne!(values[2] ^ values[4] ^ values[7], 0);
    }

    #[test]
    fn bad_sets_name_the_element() {
        for (list, needle) in [("2,0", "`0`"), ("2,-1", "`-1`"), ("2,x", "`x`"), ("", "empty"), ("1,,2", "``")] {
            let error = SubtractionGame::parse("sub", list).unwrap_err().to_string();
            assert!(error.contains(needle), "{list}: {error}");
        }
    }

    /// `G(0) … G(len − 1)` by the table of the definition's recurrence.
    fn table(set: &SubtractionSet, len: usize) -> Vec<u32> {
        let mut values = Vec::new();
        extend_sequence(set, &mut values, len);
        values
    }

    #[test]
    fn bash_and_one_more_move_is_the_definition() {
        for below in 2u64..7 {
            for max_take in (below..=80).filter(|take| take % below == 0) {
                let set = SubtractionSet::new((1..below).chain([max_take]).collect()).unwrap();
                let shortcut = Shortcut::find(&set, 0).unwrap();
                assert!(matches!(shortcut, Shortcut::BashPlusOne { .. }), "{set}");
                for (heap, &value) in table(&set, 4 * max_take as usize + 20).iter().enumerate() {
                    assert_eq!(shortcut.value(&BigUint::from(heap)), BigUint::from(value), "{set} at {heap}");
                }
            }
        }
        // Codeforces 1194D's sample: (n, k) = (0, 3) (3, 3) (3, 4) (4, 4): Bob, Alice, Bob, Alice.
        for (heap, take, first_wins) in [(0u64, 3u64, false), (3, 3, true), (3, 4, false), (4, 4, true)] {
            let game = SubtractionGame::new(vec![1, 2, take]).unwrap();
            let value = Shortcut::find(game.set(), 2).unwrap().value(&heap.into());
            assert_eq!(value != BigUint::ZERO, first_wins, "n = {heap}, k = {take}");
        }
    }

    #[test]
    fn large_sets_take_the_shortcut_through_the_front_end() {
        use crate::heap::HeapRules;
        use crate::heap::period::Proof;
        // k = 3·2^17 (a multiple of 3) and k = 3·2^17 + 1 (not): compared with the table.
        for take in [3u64 << 17, (3 << 17) + 1] {
            let game = SubtractionGame::new(vec![1, 2, take]).unwrap();
            assert!(game.shortcut().is_some(), "{take}");
            let values = table(game.set(), 3 * take as usize + 10);
            let rules = HeapRules::new(game.clone());
            for heap in (0..values.len()).step_by(997).chain(take as usize - 3..take as usize + 5) {
                assert_eq!(
                    rules.value_of(&BigUint::from(heap)).unwrap(),
                    BigUint::from(values[heap]),
                    "{take}: {heap}"
                );
            }
            let report =
                find_period(&game, &mut CompactSequence::new(), 1 << 40, &Control::default(), &mut |_| {}).unwrap();
            let (period, proof) = report.proved.unwrap();
            assert!(matches!(proof, Proof::ClosedForm { .. }));
            assert_eq!(period.period, if take % 3 == 0 { take + 1 } else { 3 });
            // 10^18 through the period: no table past the check's 2^16 values.
            let heap = BigUint::from(10u64.pow(18));
            let expected = if take % 3 == 0 {
                let residue = 10u64.pow(18) % (take + 1);
                if residue == take { 3 } else { residue % 3 }
            } else {
                10u64.pow(18) % 3
            };
            assert_eq!(rules.value_of(&heap).unwrap(), BigUint::from(expected));
        }
        // A large element the core's values forbid: no shortcut, and the sequence does change.
        let game = SubtractionGame::new(vec![2, 5, 7 * 10_000]).unwrap();
        assert!(game.shortcut().is_none());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Whatever shortcut a set gets is its nim-sequence, and a set that gets none changes
        /// its core's sequence by a large element (the redundancy test is an equivalence).
        #[test]
        fn shortcuts_are_the_definition(
            core in proptest::collection::btree_set(1u64..9, 1..4),
            large in proptest::collection::btree_set(9u64..90, 1..3),
        ) {
            let set = SubtractionSet::new(core.iter().chain(&large).copied().collect()).unwrap();
            let core_set = SubtractionSet::new(core.iter().copied().collect()).unwrap();
            let len = 6 * 90 + 200;
            let values = table(&set, len);
            match Shortcut::find(&set, 8) {
                Some(shortcut) => {
                    for (heap, &value) in values.iter().enumerate() {
                        prop_assert_eq!(shortcut.value(&BigUint::from(heap)), BigUint::from(value), "{} at {}", set, heap);
                    }
                    // Far heaps by the period match the table far out too.
                    let far = table(&set, 3000);
                    for heap in (len..3000).step_by(7) {
                        prop_assert_eq!(shortcut.value(&BigUint::from(heap)), BigUint::from(far[heap]));
                    }
                }
                None if large.len() == 1 => {
                    prop_assert_ne!(values, table(&core_set, len), "{} needs no shortcut?", set);
                }
                None => {}
            }
        }
    }

    /// A far element or heap (issue 55): past the small heaps, near 2^20, past 2^32, near 10^9
    /// and 10^18.
    fn far_number() -> impl Strategy<Value = u64> {
        prop_oneof![
            (0u64..40).prop_map(|x| x + 300),
            (0u64..40).prop_map(|x| (1 << 20) - 20 + x),
            (0u64..40).prop_map(|x| (1 << 32) - 20 + x),
            (0u64..40).prop_map(|x| 1_000_000_000 - 20 + x),
            (0u64..40).prop_map(|x| 1_000_000_000_000_000_000 - 20 + x),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(120))]

        /// Subtraction sets whose elements lie past the heap, heaps past 2^20 and 2^32 and
        /// elements near 10^9, through the family's front end under a 16 MiB limit: small heaps
        /// have the definition's values (elements past the heap are no move), every heap's
        /// options are the elements it can take, a value found is the mex of its options' values
        /// where those are found, the moves to P-positions are the options of value 0, and what
        /// is out of reach is refused (too large, out of reach), never a panic.
        #[test]
        fn far_elements_and_far_heaps_are_the_definition_or_refused(
            core in proptest::collection::btree_set(1u64..12, 1..4),
            far in proptest::collection::btree_set(far_number(), 1..3),
            small_heaps in proptest::collection::vec(0u64..260, 1..4),
            far_heaps in proptest::collection::vec(far_number(), 1..3),
        ) {
            use crate::heap::HeapRules;
            use crate::ruleset::{ComponentGame, MOVE_LIMIT};
            use crate::value::Value;
            use num_traits::ToPrimitive;
            let elements: Vec<u64> = core.iter().chain(&far).copied().collect();
            let game = SubtractionGame::new(elements.clone()).unwrap();
            let control = Control::default().with_memory_limit(16 << 20);
            let rules = HeapRules::new(game.clone()).with_control(control);
            let core_only = SubtractionGame::new(core.iter().copied().filter(|&take| take < 300).collect()).unwrap();
            let mut solver = Solver::new(HeapSum(&core_only));
            for &heap in &small_heaps {
                // Every element of `far` is past a heap below 300: the core's definition.
                let expected = solver.grundy_value(&vec![heap]).unwrap().0;
                let big = BigUint::from(heap);
                prop_assert_eq!(rules.value(&big).unwrap(), Value::from(expected), "{} at {}", game.set(), heap);
            }
            let refused = |error: &GameError| matches!(error, GameError::TooLarge { .. } | GameError::OutOfReach(_));
            for &heap in small_heaps.iter().chain(&far_heaps) {
                let big = BigUint::from(heap);
                let options = rules.options(&big, MOVE_LIMIT).unwrap();
                let mut lefts: Vec<BigUint> = options.iter().map(|one| one.result[0].clone()).collect();
                lefts.sort();
                let mut expected: Vec<BigUint> =
                    elements.iter().filter(|&&take| take <= heap).map(|&take| BigUint::from(heap - take)).collect();
                expected.sort();
                prop_assert_eq!(&lefts, &expected, "{} at {}", game.set(), heap);
                let value = match rules.value(&big) {
                    Ok(value) => value,
                    Err(error) => {
                        prop_assert!(refused(&error), "{} at {}: {}", game.set(), heap, error);
                        prop_assert!(!error.to_string().contains('\n'));
                        continue;
                    }
                };
                let option_values: Result<Vec<Value>, GameError> = lefts.iter().map(|left| rules.value(left)).collect();
                match option_values {
                    Ok(values) => {
                        let finite: Vec<u64> = values.iter().map(|value| value.finite().unwrap().to_u64().unwrap()).collect();
                        let mex = (0u64..).find(|candidate| !finite.contains(candidate)).unwrap();
                        prop_assert_eq!(&value, &Value::from(mex), "{} at {}", game.set(), heap);
                        match rules.moves_to_p(&big) {
                            Ok(to_p) => prop_assert_eq!(to_p.len(), finite.iter().filter(|&&v| v == 0).count()),
                            Err(error) => prop_assert!(refused(&error), "{}", error),
                        }
                    }
                    Err(error) => prop_assert!(refused(&error), "{} at {}: {}", game.set(), heap, error),
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn table_matches_definition(set in proptest::collection::btree_set(1u64..30, 1..6), len in 1usize..300) {
            let set = SubtractionSet(set.into_iter().collect());
            let mut values = Vec::new();
            extend_sequence(&set, &mut values, len / 2);
            extend_sequence(&set, &mut values, len);
            let game = SubtractionGame { set, shortcut: None };
            let mut solver = Solver::new(HeapSum(&game));
            for (heap, &value) in values.iter().enumerate() {
                prop_assert_eq!(u64::from(value), solver.grundy_value(&vec![heap as u64]).unwrap().0);
            }
        }
    }
}
