//! Wythoff's game (威佐夫博弈): two heaps; a move takes any positive number of counters from one
//! heap, or the same positive number from both. A component is written `x,y`.
//!
//! # The P-positions (closed form)
//! **Theorem** (Wythoff, *A modification of the game of Nim*, Nieuw Archief voor Wiskunde (2)
//! 7 (1907) 199–202). With `φ = (1 + √5)/2`, `a_k = ⌊kφ⌋` and `b_k = ⌊kφ²⌋ = a_k + k`, the
//! P-positions are exactly `(a_k, b_k)` and `(b_k, a_k)`, `k = 0, 1, 2, …`:
//! (0,0), (1,2), (3,5), (4,7), (6,10), (8,13), …
//!
//! **Why** (the Beatty-sequence argument; Berlekamp, Conway and Guy, *Winning Ways for your
//! Mathematical Plays* (1982), "Wyt Queens"; Fraenkel, *How to beat your Wythoff games'
//! opponent on three fronts*, Amer. Math. Monthly 89 (1982) 353–361).
//! 1. *Beatty's theorem* (Rayleigh 1894; Beatty, Amer. Math. Monthly 33 (1926) problem 3173):
//!    for irrational `α, β > 1` with `1/α + 1/β = 1`, the sequences `⌊nα⌋` and `⌊nβ⌋`
//!    (`n ≥ 1`) together hit every positive integer exactly once. (Count the terms below `N`:
//!    `⌊N/α⌋ + ⌊N/β⌋ = N − 1` for every `N`, as the fractional parts of `N/α` and `N/β` are
//!    non-zero and sum to 1.) Since `φ² = φ + 1`, `1/φ + 1/φ² = 1`: `a_k` and `b_k` split the
//!    positive integers, and `b_k − a_k = ⌊kφ + k⌋ − ⌊kφ⌋ = k`.
//! 2. *No move joins two of these pairs*: a move from one heap keeps the other heap, but every
//!    number is in only one pair; a move from both keeps the difference `k`, but the pairs'
//!    differences `k` are all different.
//! 3. *Every other position has a move into one*: take `x ≤ y`. If `x = b_j`, move `y` to
//!    `a_j < x`. If `x = a_j` and `y > b_j`, move `y` to `b_j`. If `x = a_j` and `y < b_j`,
//!    then `k = y − x < j`, so `a_k < a_j = x`: take `x − a_k` from both, reaching
//!    `(a_k, a_k + k) = (a_k, b_k)`. (`x = 0`: move `y` to 0.)
//!
//! So the pairs are the P-positions (the losing positions are those with no move to a losing
//! position, and the set above is the unique such set). [`closed_form`] tests `x = a_{y−x}` in
//! exact integers for heaps of any size and lists every winning move of one pair: by step 1
//! there are at most three (to the partner of either heap, or down the diagonal to the
//! P-position with the same difference), and step 3 shows one exists off the P-positions.
//!
//! # Grundy values
//! `G(x, y)` has no known closed form. [`table::GrundyTable`] computes the table fast, and
//! [`rows::RowPeriodicity`] proves each row additively periodic (Dress, Flammenkamp and Pink
//! 1999; Landman 2002) and evaluates `G(x, y)` for small `x` and any `y`. The front end
//! [`Wythoff`] answers the outcome and the winning moves of one pair by the closed form at
//! any size, and values (so sums of several pairs) where the table or the rows reach.

pub mod closed_form;
pub mod rows;
pub mod table;

use crate::control::Control;
use crate::error::GameError;
use crate::game::Game;
use crate::ruleset::{ComponentGame, ComponentMove, Request, too_many_moves};
use crate::value::{Outcome, Value};
use crate::view::{Chart, Pictured, Table, Tabulate, Tabulation};
use closed_form::{PairMove, Take};
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use rows::RowPeriodicity;
use std::sync::{Arc, Mutex, RwLock};
use table::GrundyTable;

/// **The rules**, on word-sized heaps: every option of `(x, y)` — take any positive number of
/// counters from the first heap, from the second, or the same from both — with which heaps it
/// takes from and how many. [`Wythoff`]'s options and its table-backed moves both walk this
/// list; everything else is checked against it.
fn word_options(x: u64, y: u64) -> impl Iterator<Item = ((u64, u64), Take, u64)> {
    let first = (0..x).map(move |smaller| ((smaller, y), Take::First, x - smaller));
    let second = (0..y).map(move |smaller| ((x, smaller), Take::Second, y - smaller));
    let both = (1..=x.min(y)).map(move |take| ((x - take, y - take), Take::Both, take));
    first.chain(second).chain(both)
}

/// The spec word of the game.
pub const SPEC: &str = "wythoff";

/// Values come from the table while both heaps are below this (the table of this side takes
/// about 1.2 GiB and a few seconds on two cores).
pub const VALUE_TABLE_LIMIT: u64 = 16384;

/// Below this, a pair's value comes from the table (milliseconds) even when its row would do.
const CHEAP_TABLE: u64 = 2048;

/// The table `grundy table wythoff` prints without `--size`.
pub const DEFAULT_TABLE_SIZE: u64 = 10;

/// Parses a component `x,y` (two heaps of any number of decimal digits).
///
/// # Errors
/// [`GameError::BadComponent`] naming the text.
///
/// ```
/// use grundy::wythoff::parse_pair;
/// assert_eq!(parse_pair("4,7").unwrap(), (4u32.into(), 7u32.into()));
/// assert!(parse_pair("4").unwrap_err().to_string().contains("`4`"));
/// assert!(parse_pair("4,-7").is_err());
/// ```
pub fn parse_pair(text: &str) -> Result<(BigUint, BigUint), GameError> {
    let bad = |reason: &str| GameError::BadComponent {
        game: SPEC.to_owned(),
        text: text.to_owned(),
        reason: reason.to_owned(),
    };
    let Some((x, y)) = text.split_once(',') else {
        return Err(bad("a Wythoff position is a pair of heaps written `x,y`, like `4,7`"));
    };
    let heap = |part: &str| {
        let part = part.trim();
        if part.starts_with('-') {
            return Err(bad("a heap cannot be negative"));
        }
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad("each heap of `x,y` is a non-negative integer in decimal digits"));
        }
        Ok(part.parse::<BigUint>().expect("decimal digits parse"))
    };
    Ok((heap(x)?, heap(y)?))
}

/// A pair in the input syntax.
fn format_pair(x: &BigUint, y: &BigUint) -> String {
    format!("{x},{y}")
}

/// Why a P-position is one, in words: `4,7 is the P-position (a_k, b_k) with k = 3 (…)`.
fn p_position_reason(x: &BigUint, y: &BigUint) -> String {
    let (small, large) = if x <= y { (x, y) } else { (y, x) };
    let k = large - small;
    if k.is_zero() {
        return "0,0 is the P-position with no move".to_owned();
    }
    let order = if x <= y { "(a_k, b_k)" } else { "(b_k, a_k)" };
    format!("{x},{y} is the P-position {order} with k = {k} (a_k = ⌊kφ⌋, b_k = a_k + k = ⌊kφ²⌋)")
}

fn describe_take(take: Take, amount: &BigUint) -> String {
    match take {
        Take::First => format!("take {amount} from the first heap"),
        Take::Second => format!("take {amount} from the second heap"),
        Take::Both => format!("take {amount} from both heaps"),
    }
}

/// Wythoff's game: sums of pairs `x,y`. Its options are `word_options` (the rules); the
/// closed form answers outcomes and winning moves at any size, the table and the periodic rows
/// values.
///
/// ```
/// use grundy::ruleset::erase;
/// use grundy::sum::Position;
/// use grundy::wythoff::Wythoff;
/// let rules = erase(Wythoff::new());
/// let position = |texts: &[&str]| Position::parse_single(rules.clone(), texts).unwrap();
/// assert_eq!(position(&["4,7"]).outcome().unwrap().to_string(), "P");
/// assert_eq!(position(&["1,2", "3,3"]).value().unwrap().to_string(), "6");
/// let moves = position(&["4,8"]).winning_moves().unwrap();
/// assert_eq!(position(&["4,8"]).after(&moves[0]).to_text(), "4,7");
/// ```
#[derive(Default)]
pub struct Wythoff {
    table: RwLock<Option<Arc<GrundyTable>>>,
    rows: Mutex<Option<Arc<RowPeriodicity>>>,
    /// The memory limit, cancel flag and progress sink of its tables.
    control: Control,
}

impl Wythoff {
    /// The front end, with nothing computed yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// This game computing its tables under `control` (what the registry's front end lends).
    #[must_use]
    pub fn with_control(mut self, control: Control) -> Self {
        self.control = control;
        self
    }

    /// A table of side at least `size` (computed once and kept; grown when a larger one is
    /// asked).
    ///
    /// # Errors
    /// [`GameError::TooLarge`] when it would not fit in memory.
    pub fn table_covering(&self, size: u64) -> Result<Arc<GrundyTable>, GameError> {
        if let Some(table) = self.table.read().expect("table lock").as_ref()
            && table.size() as u64 >= size
        {
            return Ok(table.clone());
        }
        let mut slot = self.table.write().expect("table lock");
        if let Some(table) = slot.as_ref()
            && table.size() as u64 >= size
        {
            return Ok(table.clone());
        }
        let table = Arc::new(GrundyTable::compute(size, &self.control)?);
        *slot = Some(table.clone());
        Ok(table)
    }

    /// Rows `0 ..= top` proved periodic (kept for later questions).
    ///
    /// # Errors
    /// As [`RowPeriodicity::find`].
    pub fn rows_covering(&self, top: u64) -> Result<Arc<RowPeriodicity>, GameError> {
        let mut slot = self.rows.lock().expect("rows lock");
        if let Some(rows) = slot.as_ref()
            && rows.top() >= top
        {
            return Ok(rows.clone());
        }
        let rows = Arc::new(RowPeriodicity::find(top)?);
        *slot = Some(rows.clone());
        Ok(rows)
    }

    /// How the value of `(x, y)` is found: from the table when both heaps are small, else from
    /// the periodic rows (the smaller heap at most [`rows::MAX_ROW`]), else from the table (both
    /// heaps below [`VALUE_TABLE_LIMIT`]).
    fn source(&self, x: &BigUint, y: &BigUint) -> Result<ValueSource, GameError> {
        let (small, large) = if x <= y { (x, y) } else { (y, x) };
        let in_table = large.to_u64().filter(|&large| large < VALUE_TABLE_LIMIT);
        let table = |large: u64| {
            // A little beyond what is asked, so that nearby questions reuse the table.
            let side = (large + 1).next_multiple_of(256).min(VALUE_TABLE_LIMIT);
            Ok(ValueSource::Table(self.table_covering(side)?))
        };
        if let Some(large) = in_table.filter(|&large| large < CHEAP_TABLE) {
            return table(large);
        }
        // A small heap: its row (proved periodic in milliseconds) beats building a big table.
        if let Some(small) = small.to_u64().filter(|&small| small <= rows::MAX_ROW) {
            match self.rows_covering(small) {
                Ok(rows) => return Ok(ValueSource::Rows(rows)),
                Err(error) if in_table.is_none() => return Err(error),
                Err(_) => {}
            }
        }
        if let Some(large) = in_table {
            return table(large);
        }
        let outcome = if closed_form::is_p_position(x, y) { "P" } else { "N" };
        Err(GameError::OutOfReach(format!(
            "the Grundy value of the Wythoff pair `{}` is out of reach: it has no closed form and is \
             computed only with both heaps below {VALUE_TABLE_LIMIT} (the table) or one heap at most {} \
             (the periodic rows); its outcome, {outcome}, is exact (`grundy outcome wythoff {}`)",
            format_pair(x, y),
            rows::MAX_ROW,
            format_pair(x, y)
        )))
    }

    /// `G(x, y)`.
    ///
    /// # Errors
    /// [`GameError::Unsupported`] naming the pair when neither the table nor the rows reach it.
    ///
    /// ```
    /// use grundy::wythoff::Wythoff;
    /// let rules = Wythoff::new();
    /// assert_eq!(rules.pair_value(&1u32.into(), &8u32.into()).unwrap(), 6u32.into());
    /// let far: num_bigint::BigUint = "1000000000000".parse().unwrap();
    /// assert_eq!(rules.pair_value(&0u32.into(), &far).unwrap(), far);
    /// ```
    pub fn pair_value(&self, x: &BigUint, y: &BigUint) -> Result<BigUint, GameError> {
        Ok(self.source(x, y)?.value(x, y))
    }

    /// Every option of `(x, y)` whose value is `target`.
    fn pair_moves_to_value(&self, x: &BigUint, y: &BigUint, target: &BigUint) -> Result<Vec<PairMove>, GameError> {
        Ok(self.moves_with(&self.source(x, y)?, x, y, target))
    }

    /// Every option of `(x, y)` whose value is `target`, with values from `source` (which must
    /// reach `(x, y)` and so all its options).
    fn moves_with(&self, source: &ValueSource, x: &BigUint, y: &BigUint, target: &BigUint) -> Vec<PairMove> {
        let mut moves = Vec::new();
        let mut consider = |to: (BigUint, BigUint), take: Take, amount: BigUint| {
            if &source.value(&to.0, &to.1) == target {
                moves.push(PairMove { to, take, amount });
            }
        };
        match source {
            ValueSource::Table(_) => {
                // Every option; both heaps are below the table's side.
                let (xs, ys) = (x.to_u64().expect("in the table"), y.to_u64().expect("in the table"));
                for ((to_x, to_y), take, amount) in word_options(xs, ys) {
                    consider((to_x.into(), to_y.into()), take, amount.into());
                }
            }
            ValueSource::Rows(rows) => {
                // One heap is a small row r; the other may be huge. Moves in the small heap and
                // from both are few; in the long heap the row holds each value at most once.
                let small_is_x = x <= y;
                let (small, large) = if small_is_x { (x, y) } else { (y, x) };
                let row = small.to_u64().expect("a row number");
                let orient = |s: BigUint, l: BigUint| if small_is_x { (s, l) } else { (l, s) };
                let (take_small, take_large) =
                    if small_is_x { (Take::First, Take::Second) } else { (Take::Second, Take::First) };
                for smaller in 0..row {
                    consider(orient(smaller.into(), large.clone()), take_small, (row - smaller).into());
                }
                for take in 1..=row {
                    consider(orient((row - take).into(), large - take), Take::Both, take.into());
                }
                if let Some(position) = rows.find_in_row(row, target).filter(|position| position < large) {
                    let amount = large - &position;
                    moves.push(PairMove { to: orient(small.clone(), position), take: take_large, amount });
                }
            }
        }
        moves
    }
}

/// The rules on word-sized pairs as a [`Game`], for the generic solvers (the memo solver, a
/// script's Rust twin): `word_options`, the rules, without the move descriptions.
///
/// ```
/// use grundy::game::Game;
/// use grundy::solve::memo::grundy_value;
/// use grundy::wythoff::Wythoff;
/// assert_eq!(Wythoff::new().options(&(1, 1)), vec![(0, 1), (1, 0), (0, 0)]);
/// assert_eq!(grundy_value(&Wythoff::new(), &(1, 8)).unwrap().0, 6);
/// ```
impl Game for Wythoff {
    type State = (u64, u64);
    fn options_into(&self, &(x, y): &(u64, u64), out: &mut Vec<(u64, u64)>) {
        out.extend(word_options(x, y).map(|(to, ..)| to));
    }
}

/// Where values come from for one question.
enum ValueSource {
    Table(Arc<GrundyTable>),
    Rows(Arc<RowPeriodicity>),
}

impl ValueSource {
    /// `G(x, y)` for a pair the source reaches (every option of the pair it was chosen for).
    fn value(&self, x: &BigUint, y: &BigUint) -> BigUint {
        match self {
            ValueSource::Table(table) => {
                let index = |heap: &BigUint| heap.to_usize().expect("in the table");
                table.get(index(x), index(y)).into()
            }
            ValueSource::Rows(rows) => {
                let (small, large) = if x <= y { (x, y) } else { (y, x) };
                rows.value(small.to_u64().expect("a row number"), large)
            }
        }
    }
}

impl Wythoff {
    fn pair_move(x: &BigUint, y: &BigUint, pair_move: PairMove) -> ComponentMove<(BigUint, BigUint)> {
        let (to_x, to_y) = &pair_move.to;
        ComponentMove {
            notation: format!("{} -> {}", format_pair(x, y), format_pair(to_x, to_y)),
            detail: format!(" ({})", describe_take(pair_move.take, &pair_move.amount)),
            result: vec![pair_move.to],
        }
    }
}

impl ComponentGame for Wythoff {
    fn provide(self: Arc<Self>, request: &mut Request) {
        request.give::<Pictured>(|| Chart::Grid);
        request.give::<Tabulation>(|| self as Arc<dyn Tabulate>);
    }

    type Component = (BigUint, BigUint);

    fn spec(&self) -> String {
        SPEC.to_owned()
    }

    fn component_noun(&self) -> &'static str {
        "pair"
    }

    fn parse_component(&self, text: &str) -> Result<(BigUint, BigUint), GameError> {
        parse_pair(text)
    }

    fn format_component(&self, (x, y): &(BigUint, BigUint)) -> String {
        format_pair(x, y)
    }

    fn options(
        &self,
        (x, y): &(BigUint, BigUint),
        limit: usize,
    ) -> Result<Vec<ComponentMove<(BigUint, BigUint)>>, GameError> {
        let count = x + y + x.min(y);
        let (Some(xs), Some(ys)) = (x.to_u64(), y.to_u64()) else {
            return Err(too_many_moves(SPEC, &format_pair(x, y), limit));
        };
        if count > BigUint::from(limit) {
            return Err(too_many_moves(SPEC, &format_pair(x, y), limit));
        }
        Ok(word_options(xs, ys)
            .map(|((to_x, to_y), take, amount)| {
                Self::pair_move(x, y, PairMove { to: (to_x.into(), to_y.into()), take, amount: amount.into() })
            })
            .collect())
    }

    fn value(&self, (x, y): &(BigUint, BigUint)) -> Result<Value, GameError> {
        self.pair_value(x, y).map(Value::Finite)
    }

    /// A pair that only a table past `CHEAP_TABLE` (2048) reaches (both heaps that large, the smaller
    /// past the rows proved periodic): its outcome and its moves to P-positions are the Beatty
    /// pairs' closed form (Wythoff 1907), in microseconds, where the table takes seconds and
    /// gigabytes.
    fn value_costs_more(&self, (x, y): &(BigUint, BigUint)) -> bool {
        let (small, large) = if x <= y { (x, y) } else { (y, x) };
        *large >= BigUint::from(CHEAP_TABLE) && *small > BigUint::from(rows::MAX_ROW)
    }

    /// The closed form, at any size.
    fn outcome(&self, (x, y): &(BigUint, BigUint)) -> Result<Outcome, GameError> {
        Ok(if closed_form::is_p_position(x, y) { Outcome::P } else { Outcome::N })
    }

    fn moves_to_value(
        &self,
        (x, y): &(BigUint, BigUint),
        target: &BigUint,
    ) -> Result<Vec<ComponentMove<(BigUint, BigUint)>>, GameError> {
        Ok(self.pair_moves_to_value(x, y, target)?.into_iter().map(|one| Self::pair_move(x, y, one)).collect())
    }

    /// The closed form's moves, each landing on a P-position, at any size.
    fn moves_to_p(&self, (x, y): &(BigUint, BigUint)) -> Result<Vec<ComponentMove<(BigUint, BigUint)>>, GameError> {
        Ok(closed_form::winning_moves(x, y).into_iter().map(|one| Self::pair_move(x, y, one)).collect())
    }

    fn p_position_reason(&self, (x, y): &(BigUint, BigUint)) -> Option<String> {
        closed_form::is_p_position(x, y).then(|| p_position_reason(x, y))
    }
}

impl Tabulate for Wythoff {
    fn table(&self, size: Option<u64>) -> Result<Table, GameError> {
        let size = size.unwrap_or(DEFAULT_TABLE_SIZE);
        let what = || format!("the {size}×{size} Wythoff table, printed");
        (self.control.check_memory(what, (size as u128).pow(2), 8 + 4))
            .and_then(|()| GrundyTable::compute(size, &self.control))
            .map(|table| Table::Grid { values: table.to_rows() })
    }
}

#[cfg(test)]
mod tests;
