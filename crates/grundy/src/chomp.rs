//! Chomp (`chomp`): a Young diagram of cells, its bottom-left cell poisoned. A move eats one
//! cell other than the poisoned one, with every cell above it and to its right (a bite from
//! the upper right); the player left with the poisoned cell alone cannot move and loses (the
//! normal-play form of David Gale's game, *A curious Nim-type game*, Amer. Math. Monthly 81,
//! 1974, where eating the poison is the losing move).
//!
//! **Components.** A diagram is its row lengths from the bottom row up, each at most the one
//! below: `5,3,3,1`. A run of `K` equal rows of length `L` may be written `LxK`, so `4x3` is
//! the rectangle 4 columns wide and 3 rows high, and `5,3x2,1` is `5,3,3,1`. Cells are named
//! `x,y`: column `x` from the left, row `y` from the bottom, the poisoned cell `0,0`.
//!
//! **Values** come from a search of every diagram inside the component (the mex over each
//! one's options, smallest first, in a transposition table kept between questions), refused
//! before it starts when the table would pass the run's memory limit. Two closed forms need
//! no search, and are tested against it:
//!
//! - an *L* (one row of `a` cells and a column of `b` rows above its first cell, `a,1x(b−1)`)
//!   is Nim with heaps `a − 1` and `b − 1` (a bite in the row shortens the row, a bite in the
//!   column the column), worth `(a − 1) ⊕ (b − 1)`;
//! - a rectangle other than `1x1` is an N-position by Gale's *strategy-stealing* argument:
//!   if eating the top-right cell lost, the winning reply to it would also be a first move
//!   from the rectangle (every bite eats that cell too), so some first move wins. The
//!   argument names no move; past the search's reach, that is the answer, and the reason
//!   no winning move is given.

use crate::control::Control;
use crate::error::GameError;
use crate::ruleset::{ComponentGame, ComponentMove, too_many_moves};
use crate::value::{Outcome, Value};
use num_bigint::BigUint;
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex};

/// A Young diagram as runs `(length, rows)` from the bottom up, lengths strictly decreasing,
/// every length and count at least 1.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Diagram {
    runs: Arc<[(u64, u64)]>,
}

impl Diagram {
    fn from_runs(runs: Vec<(u64, u64)>) -> Diagram {
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(runs.len());
        for (length, count) in runs {
            match merged.last_mut() {
                Some((last, rows)) if *last == length => *rows += count,
                _ => merged.push((length, count)),
            }
        }
        Diagram { runs: merged.into() }
    }

    /// The diagram of these row lengths (bottom first, non-increasing, positive).
    fn from_rows(rows: &[u32]) -> Diagram {
        Diagram::from_runs(rows.iter().map(|&length| (u64::from(length), 1)).collect())
    }

    /// The runs `(length, rows)`, bottom first.
    pub fn runs(&self) -> &[(u64, u64)] {
        &self.runs
    }

    /// The number of cells.
    fn cells(&self) -> u128 {
        self.runs.iter().map(|&(length, rows)| u128::from(length) * u128::from(rows)).sum()
    }

    fn width(&self) -> u64 {
        self.runs[0].0
    }

    fn height(&self) -> u128 {
        self.runs.iter().map(|&(_, rows)| u128::from(rows)).sum()
    }

    /// Each row's length, when the diagram is small enough to list its rows.
    fn rows(&self) -> Option<Vec<u32>> {
        if self.height() > SEARCH_EDGE || self.width() > SEARCH_EDGE as u64 {
            return None;
        }
        Some(self.runs.iter().flat_map(|&(length, rows)| std::iter::repeat_n(length as u32, rows as usize)).collect())
    }

    /// `(a, b)` when the diagram is an L: a bottom row of `a` cells and `b` rows of one cell
    /// (the bottom row's included).
    fn as_l(&self) -> Option<(u64, u128)> {
        match *self.runs {
            [(width, 1)] => Some((width, 1)),
            [(1, height)] => Some((1, u128::from(height))),
            [(width, 1), (1, above)] => Some((width, u128::from(above) + 1)),
            _ => None,
        }
    }

    fn is_rectangle(&self) -> bool {
        self.runs.len() == 1
    }
}

/// The longest side a diagram whose rows are listed may have (the search's edge).
const SEARCH_EDGE: u128 = 1 << 20;

/// The memory one remembered diagram takes in the transposition table: the key's header and
/// rows, the value, the table's slack.
fn bytes_per_entry(height: usize) -> u128 {
    64 + 4 * height as u128
}

/// How many diagrams lie inside `rows` with the poisoned cell kept, saturating at `cap`; in
/// steps of the number of cells.
fn diagrams_inside(rows: &[u32], cap: u128) -> u128 {
    // ways[v]: the ways to fill the rows above the current one when it is v long (the top
    // row: one way for each length); the row below, of length v, allows any length up to
    // min(v, the bound above) for the current one.
    let mut ways = vec![1u128; rows[rows.len() - 1] as usize + 1];
    for &below in rows[..rows.len() - 1].iter().rev() {
        let mut prefix = Vec::with_capacity(ways.len());
        let mut total = 0u128;
        for &w in &ways {
            total = total.saturating_add(w).min(cap);
            prefix.push(total);
        }
        let last = prefix[prefix.len() - 1];
        ways = (0..=below as usize).map(|v| prefix.get(v).copied().unwrap_or(last)).collect();
    }
    // The bottom row at least 1 long.
    ways.iter().skip(1).fold(0u128, |sum, &w| sum.saturating_add(w).min(cap))
}

/// Chomp: the rules ([`ComponentGame::options`]: a bite from the upper right) and the search.
///
/// ```
/// use grundy::chomp::Chomp;
/// use grundy::ruleset::erase;
/// use grundy::sum::Position;
/// let game = erase(Chomp::new());
/// let at = |diagram: &str| Position::parse_single(game.clone(), &[diagram]).unwrap();
/// // The poisoned cell alone: no move, a P-position.
/// assert_eq!(at("1").value().unwrap().to_string(), "0");
/// // 2x2: eat 1,1 and leave the L 2,1, a P-position (Nim 1 + 1).
/// let square = at("2x2");
/// assert_eq!(square.outcome().unwrap(), grundy::Outcome::N);
/// let moves = square.winning_moves().unwrap();
/// assert_eq!(moves.len(), 1);
/// assert_eq!(square.after(&moves[0]).to_text(), "2,1");
/// // A rectangle too large to search is still an N-position, by strategy stealing.
/// assert_eq!(at("1000x1000").outcome().unwrap(), grundy::Outcome::N);
/// ```
#[derive(Debug)]
pub struct Chomp {
    control: Control,
    /// Values of the diagrams searched so far, by their rows.
    table: Mutex<FxHashMap<Box<[u32]>, u32>>,
}

impl Default for Chomp {
    fn default() -> Self {
        Self::new()
    }
}

impl Chomp {
    /// The game.
    pub fn new() -> Chomp {
        Chomp { control: Control::default(), table: Mutex::new(FxHashMap::default()) }
    }

    /// The game computing under `control` (its memory limit and cancel flag).
    pub fn with_control(mut self, control: Control) -> Chomp {
        self.control = control;
        self
    }

    fn bad(&self, text: &str, reason: String) -> GameError {
        GameError::BadComponent { game: "chomp".to_owned(), text: text.to_owned(), reason }
    }

    /// Why the search cannot value `diagram`, or its rows when it can.
    fn searchable(&self, diagram: &Diagram) -> Result<Vec<u32>, GameError> {
        let shown = self.format_component(diagram);
        let budget = self.control.memory_limit() / bytes_per_entry(diagram.height().min(SEARCH_EDGE) as usize);
        let too_large = |count: String| {
            GameError::OutOfReach(format!(
                "the value of chomp {shown} needs a search of {count} diagrams, more than the memory limit allows \
             (set with --memory-limit){}",
                if diagram.is_rectangle() && diagram.cells() > 1 {
                    "; a rectangle other than 1x1 is an N-position by strategy stealing (Gale 1974), which names no move"
                } else {
                    ""
                }
            ))
        };
        // Each cell but the poisoned one is a bite leaving its own diagram: at least as many
        // diagrams as cells.
        if diagram.cells() > budget {
            return Err(too_large(format!("more than {budget}")));
        }
        let Some(rows) = diagram.rows() else { return Err(too_large(format!("more than {budget}"))) };
        let count = diagrams_inside(&rows, budget.saturating_add(1));
        if count > budget {
            return Err(too_large(format!("more than {budget}")));
        }
        Ok(rows)
    }

    /// The value of the diagram `rows` by the search, every diagram inside it remembered.
    fn search(&self, rows: &[u32]) -> Result<u32, GameError> {
        let mut table = self.table.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(&known) = table.get(rows) {
            return Ok(known);
        }
        let count = diagrams_inside(rows, u128::MAX);
        let bytes = bytes_per_entry(rows.len());
        // The table keeps what earlier questions searched while it and this search fit.
        if (table.len() as u128 + count) * bytes > self.control.memory_limit() {
            table.clear();
        }
        self.control.check_memory(
            || {
                format!(
                    "the search of the {count} diagrams inside chomp {}",
                    self.format_component(&Diagram::from_rows(rows))
                )
            },
            count,
            bytes,
        )?;
        // Every diagram inside `rows`, fewest cells first, so that each one's options are known.
        let mut inside: Vec<(u64, Box<[u32]>)> = Vec::new();
        for_each_inside(rows, &mut |diagram| {
            let cells = diagram.iter().map(|&length| u64::from(length)).sum();
            inside.push((cells, diagram.into()));
        });
        inside.sort_unstable_by_key(|(cells, _)| *cells);
        let mut seen: Vec<bool> = Vec::new();
        for (done, (_, diagram)) in inside.into_iter().enumerate() {
            if done % 4096 == 0 && self.control.cancelled() {
                return Err(GameError::OutOfReach("the search of chomp was cancelled".to_owned()));
            }
            if table.contains_key(&diagram) {
                continue;
            }
            seen.clear();
            for_each_bite(&diagram, &mut |option| {
                let value = table[option] as usize;
                if value >= seen.len() {
                    seen.resize(value + 1, false);
                }
                seen[value] = true;
            });
            let mex = seen.iter().position(|&taken| !taken).unwrap_or(seen.len()) as u32;
            table.insert(diagram, mex);
        }
        Ok(table[rows])
    }

    /// The value of `diagram`: an L's by Nim, any other by the search.
    ///
    /// # Errors
    /// [`GameError::OutOfReach`] when the search would pass the memory limit.
    pub fn diagram_value(&self, diagram: &Diagram) -> Result<BigUint, GameError> {
        if let Some((width, height)) = diagram.as_l() {
            return Ok(BigUint::from(width - 1) ^ BigUint::from(height - 1));
        }
        let rows = self.searchable(diagram)?;
        Ok(BigUint::from(self.search(&rows)?))
    }

    /// The move eating cell `x,y` of `rows`.
    fn bite(&self, rows: &[u32], x: u32, y: usize) -> ComponentMove<Diagram> {
        let after: Vec<u32> = rows
            .iter()
            .enumerate()
            .map(|(row, &length)| if row >= y { length.min(x) } else { length })
            .take_while(|&length| length > 0)
            .collect();
        ComponentMove::new(vec![Diagram::from_rows(&after)], format!("eat {x},{y}"))
    }
}

/// Calls `visit` with every diagram inside `rows` (each row at most its bound and at most the
/// row below, the bottom row at least 1 long), as its non-empty rows; in the order of an
/// odometer, with no recursion (a diagram may have many rows).
fn for_each_inside(rows: &[u32], visit: &mut dyn FnMut(&[u32])) {
    let mut current = vec![0u32; rows.len()];
    current[0] = 1;
    // `height`: the rows of `current` that are not empty.
    let mut height = 1;
    loop {
        visit(&current[..height]);
        // The highest row that can grow (a row may grow to its bound and to the row below;
        // an empty row only just above the last non-empty one), the rows above it emptied.
        let limit = |row: usize, current: &[u32]| if row == 0 { rows[0] } else { rows[row].min(current[row - 1]) };
        let mut row = height.min(rows.len() - 1);
        loop {
            if current[row] < limit(row, &current) {
                break;
            }
            if row == 0 {
                return;
            }
            row -= 1;
        }
        current[row] += 1;
        for above in current[row + 1..height.max(row + 1)].iter_mut() {
            *above = 0;
        }
        height = row + 1;
    }
}

/// Calls `visit` with the rows left by every bite of `rows` (a cell other than `0,0`).
fn for_each_bite(rows: &[u32], visit: &mut dyn FnMut(&[u32])) {
    let mut after = rows.to_vec();
    for y in 0..rows.len() {
        for x in u32::from(y == 0)..rows[y] {
            after.copy_from_slice(rows);
            let mut height = rows.len();
            for (row, length) in after.iter_mut().enumerate().skip(y) {
                *length = (*length).min(x);
                if *length == 0 {
                    height = height.min(row);
                }
            }
            visit(&after[..height]);
        }
    }
}

impl ComponentGame for Chomp {
    type Component = Diagram;

    fn spec(&self) -> String {
        "chomp".to_owned()
    }

    fn component_noun(&self) -> &'static str {
        "diagram"
    }

    /// Row lengths from the bottom up, `L` or `LxK` (`K` rows of `L`), non-increasing.
    fn parse_component(&self, text: &str) -> Result<Diagram, GameError> {
        let number = |word: &str| word.bytes().all(|b| b.is_ascii_digit()).then(|| word.parse::<u64>().ok()).flatten();
        let mut runs = Vec::new();
        for (index, word) in text.split(',').enumerate() {
            let (length, count) = match word.split_once(['x', 'X']) {
                Some((length, count)) => (number(length), number(count)),
                None => (number(word), Some(1)),
            };
            let (Some(length), Some(count)) = (length, count) else {
                return Err(self.bad(
                    text,
                    format!(
                        "row {} `{word}` is not a row length `L` or a run of rows `LxK` (write the rows from the \
                         bottom up: 5,3,3,1; 4x3 is 4 columns by 3 rows)",
                        index + 1
                    ),
                ));
            };
            if length == 0 || count == 0 {
                return Err(self.bad(text, format!("row {} `{word}` is empty: every row holds a cell", index + 1)));
            }
            if let Some(&(below, _)) = runs.last()
                && length > below
            {
                return Err(self.bad(
                    text,
                    format!(
                        "row {} `{word}` is longer than the row below it ({below}): rows go from the bottom up, each at \
                         most as long as the one under it",
                        index + 1
                    ),
                ));
            }
            runs.push((length, count));
        }
        let diagram = Diagram::from_runs(runs);
        if diagram.height() > u128::from(u64::MAX) {
            return Err(self.bad(text, "more than 2^64 - 1 rows".to_owned()));
        }
        Ok(diagram)
    }

    /// Rows from the bottom up; a run of three or more equal rows as `LxK`.
    fn format_component(&self, diagram: &Diagram) -> String {
        let mut words = Vec::new();
        for &(length, rows) in diagram.runs.iter() {
            if rows >= 3 || (diagram.runs.len() == 1 && rows >= 2) {
                words.push(format!("{length}x{rows}"));
            } else {
                words.extend(std::iter::repeat_n(length.to_string(), rows as usize));
            }
        }
        words.join(",")
    }

    fn describe_component(&self, diagram: &Diagram) -> String {
        let cells = diagram.cells();
        format!("{} ({cells} cell{})", self.format_component(diagram), if cells == 1 { "" } else { "s" })
    }

    /// The rules: eat any cell `x,y` but `0,0`, and every cell `x',y'` with `x' >= x`,
    /// `y' >= y`.
    fn options(&self, diagram: &Diagram, limit: usize) -> Result<Vec<ComponentMove<Diagram>>, GameError> {
        if diagram.cells() - 1 > limit as u128 {
            return Err(too_many_moves("chomp", &self.format_component(diagram), limit));
        }
        let rows = diagram.rows().ok_or_else(|| too_many_moves("chomp", &self.format_component(diagram), limit))?;
        let mut moves = Vec::new();
        for (y, &length) in rows.iter().enumerate() {
            for x in u32::from(y == 0)..length {
                moves.push(self.bite(&rows, x, y));
            }
        }
        Ok(moves)
    }

    fn value(&self, diagram: &Diagram) -> Result<Value, GameError> {
        Ok(Value::Finite(self.diagram_value(diagram)?))
    }

    /// By the value where it is in reach; a rectangle other than `1x1` past the search is N
    /// by strategy stealing (Gale 1974).
    fn outcome(&self, diagram: &Diagram) -> Result<Outcome, GameError> {
        match self.diagram_value(diagram) {
            Ok(value) => Ok(Value::Finite(value).outcome()),
            Err(GameError::OutOfReach(_)) if diagram.is_rectangle() && diagram.cells() > 1 => Ok(Outcome::N),
            Err(error) => Err(error),
        }
    }

    /// One search for the diagram and all its options, then the options filtered.
    fn moves_to_value(&self, diagram: &Diagram, target: &BigUint) -> Result<Vec<ComponentMove<Diagram>>, GameError> {
        if diagram.as_l().is_none() {
            self.diagram_value(diagram)?;
        }
        let options = self.options(diagram, crate::ruleset::MOVE_LIMIT)?;
        let mut found = Vec::new();
        for option in options {
            if self.diagram_value(&option.result[0])? == *target {
                found.push(option);
            }
        }
        Ok(found)
    }

    fn p_position_reason(&self, diagram: &Diagram) -> Option<String> {
        let (width, height) = diagram.as_l()?;
        (u128::from(width) == height && width > 1).then(|| {
            format!("an L with arms of {} cells each beside the poisoned cell: Nim with two equal heaps", width - 1)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// The value by the definition: the mex over the options' values, memoized.
    fn by_definition(game: &Chomp, diagram: &Diagram, memo: &mut HashMap<Diagram, BigUint>) -> BigUint {
        if let Some(known) = memo.get(diagram) {
            return known.clone();
        }
        let values: Vec<BigUint> = game
            .options(diagram, usize::MAX)
            .unwrap()
            .iter()
            .map(|one| by_definition(game, &one.result[0], memo))
            .collect();
        let mut mex = BigUint::ZERO;
        while values.contains(&mex) {
            mex += 1u32;
        }
        memo.insert(diagram.clone(), mex.clone());
        mex
    }

    fn diagram_text(mut lengths: Vec<u32>) -> String {
        lengths.sort_unstable_by(|a, b| b.cmp(a));
        lengths.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// The search (and the L's closed form) is the mex over the rules, the moves to each
        /// value are the options of that value, and every diagram prints back as itself.
        #[test]
        fn the_search_is_the_mex_over_the_rules(lengths in proptest::collection::vec(1u32..6, 1..5)) {
            let game = Chomp::new();
            let diagram = game.parse_component(&diagram_text(lengths)).unwrap();
            let mut memo = HashMap::new();
            let expected = by_definition(&game, &diagram, &mut memo);
            prop_assert_eq!(game.diagram_value(&diagram).unwrap(), expected.clone());
            let shown = game.format_component(&diagram);
            prop_assert_eq!(game.parse_component(&shown).unwrap(), diagram.clone(), "{}", shown);
            let options = game.options(&diagram, usize::MAX).unwrap();
            for target in 0u32..8 {
                let target = BigUint::from(target);
                let wanted: Vec<String> = options
                    .iter()
                    .filter(|one| by_definition(&game, &one.result[0], &mut memo) == target)
                    .map(|one| one.notation.clone())
                    .collect();
                let found: Vec<String> =
                    game.moves_to_value(&diagram, &target).unwrap().into_iter().map(|one| one.notation).collect();
                prop_assert_eq!(found, wanted, "{} to {}", shown, target);
            }
        }

        /// An L is Nim with two heaps, searched as the rules say (with a fresh game, so that
        /// nothing is remembered from the closed form).
        #[test]
        fn an_l_is_two_nim_heaps(width in 1u32..9, height in 1u32..9) {
            let game = Chomp::new();
            let mut rows = vec![width];
            rows.extend(std::iter::repeat_n(1, height as usize - 1));
            prop_assert_eq!(game.search(&rows).unwrap(), (width - 1) ^ (height - 1));
        }
    }

    #[test]
    fn rectangles_are_n_positions() {
        // Strategy stealing on every small rectangle, by the search.
        let game = Chomp::new();
        for width in 1..6u64 {
            for height in 1..6u64 {
                let diagram = game.parse_component(&format!("{width}x{height}")).unwrap();
                let expected = if width * height == 1 { Outcome::P } else { Outcome::N };
                assert_eq!(game.outcome(&diagram).unwrap(), expected, "{width}x{height}");
            }
        }
        // Past the memory limit: the outcome by the theorem, the value refused with the reason.
        let small = Chomp::new().with_control(Control::default().with_memory_limit(1 << 20));
        let big = small.parse_component("60x60").unwrap();
        assert_eq!(small.outcome(&big).unwrap(), Outcome::N);
        let error = small.value(&big).unwrap_err().to_string();
        assert!(error.contains("strategy stealing (Gale 1974)"), "{error}");
        let error = small.moves_to_value(&big, &BigUint::ZERO).unwrap_err().to_string();
        assert!(error.contains("strategy stealing"), "{error}");
        // A huge one reads, and is N.
        let huge = small.parse_component("1000000000000x1000000000000").unwrap();
        assert_eq!(small.outcome(&huge).unwrap(), Outcome::N);
        assert_eq!(small.format_component(&huge), "1000000000000x1000000000000");
    }

    #[test]
    fn diagrams_are_counted() {
        // Every diagram inside, once, for a few shapes: the odometer against the count.
        for rows in [vec![1], vec![3], vec![2, 2], vec![4, 4, 4], vec![5, 3, 3, 1], vec![2, 1, 1, 1, 1]] {
            let mut seen = std::collections::BTreeSet::new();
            for_each_inside(&rows, &mut |diagram| {
                assert!(diagram.windows(2).all(|pair| pair[0] >= pair[1] && pair[1] > 0), "{diagram:?}");
                assert!(diagram.iter().zip(&rows).all(|(inside, bound)| inside <= bound), "{diagram:?}");
                assert!(seen.insert(diagram.to_vec()), "{diagram:?} twice");
            });
            assert_eq!(seen.len() as u128, diagrams_inside(&rows, u128::MAX), "{rows:?}");
        }
        // Inside a 2x2: 1; 2; 1,1; 2,1; 2,2 (the poisoned cell always kept).
        assert_eq!(diagrams_inside(&[2, 2], u128::MAX), 5);
        // Inside an a x b rectangle: C(a + b, a) - 1 paths, the empty one aside.
        assert_eq!(diagrams_inside(&[4, 4, 4], u128::MAX), 35 - 1);
        assert_eq!(diagrams_inside(&[1], u128::MAX), 1);
    }

    #[test]
    fn bad_components_are_named() {
        let game = Chomp::new();
        for (text, needle) in [
            ("3,4", "longer than the row below"),
            ("3,0", "empty"),
            ("x", "`x`"),
            ("", "row 1"),
            ("4x", "`4x`"),
            ("2x0", "empty"),
        ] {
            let error = game.parse_component(text).unwrap_err().to_string();
            assert!(error.contains(needle), "{text}: {error}");
        }
        assert_eq!(game.format_component(&game.parse_component("5,3,3,1").unwrap()), "5,3,3,1");
        assert_eq!(game.format_component(&game.parse_component("5,3x3,1").unwrap()), "5,3x3,1");
        assert_eq!(game.format_component(&game.parse_component("4x3").unwrap()), "4x3");
    }
}
