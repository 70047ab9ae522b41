//! Subtraction games `sub:S`: take `s` counters from one heap, for some `s` in a finite set `S`
//! of positive integers (seed `001_6848388ebec463a2.txt`, AcWing 893 “集合-Nim”).
//!
//! **No closed form in general**; values come from the dynamic programme
//! `G(n) = mex { G(n − s) : s ∈ S, s ≤ n }` over a table sized to the largest heap asked.
//! Every value is at most `|S|` (a mex of at most `|S|` values).

use crate::control::Control;
use crate::error::GameError;
use crate::game::Game;
use crate::heap::{CompactSequence, Extended, HeapGame, Periodicity, extend_in_chunks, parse_positive_list};
use std::fmt;
use std::str::FromStr;

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
}

impl SubtractionGame {
    /// Parses the `S` of `sub:S` (`spec` is the whole game text, for error messages).
    ///
    /// # Errors
    /// [`GameError::BadGame`] naming the bad element.
    pub fn parse(spec: &str, list: &str) -> Result<Self, GameError> {
        Ok(SubtractionGame { set: SubtractionSet(parse_positive_list(spec, list, "subtraction set")?) })
    }

    /// The game with subtraction set `elements`.
    ///
    /// # Errors
    /// As [`SubtractionSet::new`].
    pub fn new(elements: Vec<u64>) -> Result<Self, GameError> {
        Ok(SubtractionGame { set: SubtractionSet::new(elements)? })
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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn table_matches_definition(set in proptest::collection::btree_set(1u64..30, 1..6), len in 1usize..300) {
            let set = SubtractionSet(set.into_iter().collect());
            let mut values = Vec::new();
            extend_sequence(&set, &mut values, len / 2);
            extend_sequence(&set, &mut values, len);
            let game = SubtractionGame { set };
            let mut solver = Solver::new(HeapSum(&game));
            for (heap, &value) in values.iter().enumerate() {
                prop_assert_eq!(u64::from(value), solver.grundy_value(&vec![heap as u64]).unwrap().0);
            }
        }
    }
}
