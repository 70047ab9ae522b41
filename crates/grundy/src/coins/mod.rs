//! Coin-turning games (`coins:RULE`): Turtles, Mock Turtles, Ruler, Twins and rules written in
//! a small notation ([`rule`]), and their two-dimensional products ([`product`]: `corners`,
//! `product:A*B`).
//!
//! **Rules.** A row of coins numbered 1, 2, 3, … from the left, each heads or tails. A move
//! turns over a set of coins the rule allows, and the rightmost coin turned must go from heads
//! to tails; who cannot move loses.
//!
//! **The sum theorem.** A row is worth the xor of the values of its single heads (seed
//! `002_e2faf50696f52a16.txt`, Theorem 3.2; *Winning Ways* ch. 14): a move on a row is a move
//! on the single heads at its rightmost coin, and turning a coin toggles its value in the xor,
//! two heads on one coin cancelling like two equal nim-heaps. So a position is a set of heads,
//! written as coin numbers (`1 4 6 9`) or whole rows (`THHTH`), all laid on one row: a coin
//! named twice is tails. The tests check the theorem on every row of up to 10 coins for every
//! named rule and for random written rules: a row written in letters moves as one row (the
//! coins turned are toggled), and [`crate::solve::definition::Definition`] searches it by the
//! rules alone.
//!
//! **Single coins** are valued by mex from the rule ([`values::value_table`]). The named rules
//! also have closed forms ([`values::closed_form`]), checked against the mex tables to coin
//! 10^4 and used past it ([`NAMED_MEX_LIMIT`]), so that coins near 10^18 answer at once; their
//! winning moves are found by closed form too ([`moves::named_other_sets`]).

pub mod moves;
pub mod product;
pub mod rule;
pub mod values;

use crate::coins::moves::{Budget, other_sets};
use crate::coins::rule::{CoinRule, NamedRule};
use crate::coins::values::{closed_form, value_table};
use crate::control::Control;
use crate::error::GameError;
use crate::ruleset::{Capability, ComponentGame, ComponentMove, Request, Ruleset};
use crate::value::Value;
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::collections::BTreeSet;
use std::sync::{Arc, RwLock};

/// A row of coins: the heads coins, numbered from 1 on the left, and how the row was written.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CoinRow {
    /// The heads coins, increasing, without repeats (shared: a long row is copied by pointer).
    pub heads: Arc<[u64]>,
    /// `Some(length)` when written as `H`/`T` letters (the row is printed back as that many
    /// letters), `None` when written as one heads coin's number.
    pub letters: Option<u64>,
}

/// The capability of a coin-turning game: the game itself, whose
/// [`CoinGame::values_through`] gives the value of one heads coin at each place.
pub struct CoinLine;
impl Capability for CoinLine {
    type Handle = Arc<CoinGame>;
}

/// Asks any game for its coins' values ([`CoinLine`]).
pub trait CoinValues {
    /// For a coin-turning game, the value of one heads coin at place `n` for `n = 1 ..= last`;
    /// `None` for other games.
    fn coin_values(&self, last: u64) -> Option<Result<Vec<u64>, GameError>>;
}

impl CoinValues for dyn Ruleset + '_ {
    fn coin_values(&self, last: u64) -> Option<Result<Vec<u64>, GameError>> {
        Some(self.capability::<CoinLine>()?.values_through(last))
    }
}

/// Named rules take their values by mex up to this coin (where the tests check their closed
/// forms against the mex tables) and from their closed forms beyond.
pub const NAMED_MEX_LIMIT: u64 = 10_000;

/// A rule with its single-coin values: a table computed by mex and kept, and for the named
/// rules closed forms past [`NAMED_MEX_LIMIT`].
///
/// ```
/// use grundy::coins::CoinEngine;
/// use grundy::coins::rule::CoinRule;
/// let own = CoinEngine::new(CoinRule::parse("coins:turn=1..4", "turn=1..4").unwrap());
/// let values: Vec<u64> = (1..=8).map(|n| own.value(n).unwrap()).collect();
/// assert_eq!(values, [1, 2, 4, 8, 15, 16, 32, 51]);
/// let mock = CoinEngine::new(CoinRule::parse("coins:mock-turtles", "mock-turtles").unwrap());
/// assert_eq!(mock.value(1_000_000_000_000_000_000).unwrap(), 1_999_999_999_999_999_998);
/// ```
pub struct CoinEngine {
    rule: CoinRule,
    named: Option<NamedRule>,
    table: RwLock<Arc<Vec<u64>>>,
    /// The memory limit of its table.
    control: Control,
}

impl CoinEngine {
    /// The engine of `rule`, with an empty table and [`Control::default`].
    pub fn new(rule: CoinRule) -> Self {
        CoinEngine { named: rule.named(), rule, table: RwLock::new(Arc::new(vec![0])), control: Control::default() }
    }

    /// This engine computing its table under `control`.
    #[must_use]
    pub fn with_control(mut self, control: Control) -> Self {
        self.control = control;
        self
    }

    /// The rule.
    pub fn rule(&self) -> &CoinRule {
        &self.rule
    }

    /// The named rule it equals, whose closed forms it uses past [`NAMED_MEX_LIMIT`] and to
    /// find moves.
    pub fn named(&self) -> Option<NamedRule> {
        self.named
    }

    /// The value of a single heads on coin `n ≥ 1`: by mex from the rule, except for a named
    /// rule past coin [`NAMED_MEX_LIMIT`], where its closed form answers at once.
    ///
    /// # Errors
    /// A value past `2^64 − 1`, or a table too large to compute.
    pub fn value(&self, n: u64) -> Result<u64, GameError> {
        match self.named {
            Some(named) if n > NAMED_MEX_LIMIT => closed_form(named, n).ok_or_else(|| {
                GameError::Unsupported(format!("the value of coin {n} under coins:{} passes 2^64 - 1", self.rule))
            }),
            _ => Ok(self.table_through(n)?[n as usize]),
        }
    }

    /// Fills the table as far as the values of coins up to `last` need it, once.
    ///
    /// # Errors
    /// As [`CoinEngine::table_through`].
    pub fn prepare(&self, last: u64) -> Result<(), GameError> {
        let bound = if self.named.is_some() { last.min(NAMED_MEX_LIMIT) } else { last };
        self.table_through(bound).map(drop)
    }

    /// The value table from coin 0 (worth 0) through at least coin `n`, computed by mex.
    ///
    /// # Errors
    /// As [`value_table`].
    pub fn table_through(&self, n: u64) -> Result<Arc<Vec<u64>>, GameError> {
        {
            let table = self.table.read().expect("table lock");
            if (table.len() as u64) > n {
                return Ok(Arc::clone(&table));
            }
        }
        let mut table = self.table.write().expect("table lock");
        if (table.len() as u64) <= n {
            *table = Arc::new(value_table(&self.rule, n, &self.control)?);
        }
        Ok(Arc::clone(&table))
    }
}

/// Reads one component of a coin row: a heads coin's number or a row of `H`/`T` letters.
fn parse_coin_row(game: &str, text: &str) -> Result<CoinRow, GameError> {
    let bad = |reason: String| GameError::BadComponent { game: game.to_owned(), text: text.to_owned(), reason };
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        let coin: u64 = text.parse().map_err(|_| bad("a coin number is at most 2^64 - 1".into()))?;
        if coin == 0 {
            return Err(bad("coins are numbered from 1 (the leftmost)".into()));
        }
        return Ok(CoinRow { heads: Arc::from([coin]), letters: None });
    }
    if text.is_empty() {
        return Err(bad("a component is a heads coin's number or a row of H and T letters".into()));
    }
    if text.strip_prefix('-').is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit())) {
        return Err(bad("coins are numbered from 1 (the leftmost); a coin number cannot be negative".into()));
    }
    if text.len() as u64 > MAX_ROW_LETTERS {
        return Err(bad(format!("a row of more than {MAX_ROW_LETTERS} letters; write far coins by number instead")));
    }
    let mut heads = Vec::new();
    for (place, letter) in text.chars().enumerate() {
        match letter {
            'H' | 'h' => heads.push(place as u64 + 1),
            'T' | 't' => {}
            other => {
                return Err(bad(if text.bytes().any(|b| b.is_ascii_digit()) {
                    "a component is a heads coin's number or a row of H and T letters, not both".into()
                } else {
                    format!(
                        "`{other}` at place {} is neither H nor T (a row is H and T letters, coin 1 leftmost)",
                        place + 1
                    )
                }));
            }
        }
    }
    Ok(CoinRow { heads: heads.into(), letters: Some(text.chars().count() as u64) })
}

/// Past this many heads, a move leaves a row as it is and adds the coins it turns as heads of
/// their own, so that listing a long row's moves never copies it.
const LONG_ROW: usize = 1024;

/// The most letters a row may have.
const MAX_ROW_LETTERS: u64 = 10_000_000;

/// A row in the notation it was read in.
fn format_coin_row(row: &CoinRow) -> String {
    match row.letters {
        None => row.heads.iter().map(u64::to_string).collect::<Vec<_>>().join(" "),
        Some(length) => {
            (1..=length).map(|coin| if row.heads.binary_search(&coin).is_ok() { 'H' } else { 'T' }).collect()
        }
    }
}

/// Coins as a short list: `2,5,7..9` (runs of three or more as `a..b`).
pub(crate) fn coin_list(coins: &[u64]) -> String {
    let mut parts = Vec::new();
    let mut index = 0;
    while index < coins.len() {
        let mut end = index;
        while end + 1 < coins.len() && coins[end + 1] == coins[end] + 1 {
            end += 1;
        }
        if end - index >= 2 {
            parts.push(format!("{}..{}", coins[index], coins[end]));
        } else {
            parts.extend(coins[index..=end].iter().map(u64::to_string));
        }
        index = end + 1;
    }
    parts.join(",")
}

/// The coin-turning game of one rule (`coins:RULE`), its options the rules: each component is
/// a row of coins (or one heads coin), and a position is their sum — a coin heads in two components counts twice, that is tails.
///
/// ```
/// use grundy::coins::CoinGame;
/// use grundy::coins::rule::CoinRule;
/// use grundy::ruleset::erase;
/// use grundy::sum::Position;
/// let mock = erase(CoinGame::new(CoinRule::parse("coins:mock-turtles", "mock-turtles").unwrap()));
/// let row = Position::parse_single(mock.clone(), &["HTTHTHTTH"]).unwrap();
/// assert_eq!(row.value().unwrap().to_string(), "29");
/// let coins = Position::parse_single(mock, &["1", "4", "6", "9"]).unwrap();
/// assert_eq!(coins.value().unwrap().to_string(), "29");
/// // The one winning move: coin 9 (worth 16) to tails, coin 7 (worth 13) to heads; 29 ⊕ 16 ⊕ 13 = 0.
/// let moves = row.winning_moves().unwrap();
/// assert_eq!(moves.len(), 1);
/// assert_eq!(row.after(&moves[0]).to_text(), "HTTHTHHTT");
/// assert_eq!(moves[0].notation, "turn 7,9");
/// ```
pub struct CoinGame {
    engine: CoinEngine,
}

impl CoinGame {
    /// The front end of `rule`.
    pub fn new(rule: CoinRule) -> Self {
        CoinGame { engine: CoinEngine::new(rule) }
    }

    /// This game computing its values under `control` (what the registry's front end lends).
    #[must_use]
    pub fn with_control(self, control: Control) -> Self {
        CoinGame { engine: self.engine.with_control(control) }
    }

    /// The engine (rule and single-coin values).
    pub fn engine(&self) -> &CoinEngine {
        &self.engine
    }

    /// The value of one heads coin at place `n`, for `n = 1 ..= last` (a row's value is the xor
    /// of its heads coins' values): the line `grundy guess` looks at.
    ///
    /// # Errors
    /// The values are past the memory limit, or the run was cancelled.
    pub fn values_through(&self, last: u64) -> Result<Vec<u64>, GameError> {
        self.engine.prepare(last)?;
        (1..=last).map(|coin| self.engine.value(coin)).collect()
    }

    fn coin_values(&self, row: &CoinRow) -> Result<Vec<u64>, GameError> {
        if let Some(&last) = row.heads.last() {
            self.engine.prepare(last)?;
        }
        row.heads.iter().map(|&coin| self.engine.value(coin)).collect()
    }

    /// The moves that turn `coin` (heads) and one of `other_sets`, as options of `row`.
    fn turn(&self, row: &CoinRow, coin: u64, others: Vec<u64>) -> ComponentMove<CoinRow> {
        let mut turned = others.clone();
        turned.push(coin);
        let notation = format!("turn {}", coin_list(&turned));
        let single = |coin: u64| CoinRow { heads: Arc::from([coin]), letters: None };
        let result = match row.letters {
            // A long row is left as it is, with one heads more for each coin turned (the heads
            // coin named twice is tails): the same position in the sum, without copying the row.
            Some(_) if row.heads.len() > LONG_ROW => {
                std::iter::once(row.clone()).chain(turned.into_iter().map(single)).collect()
            }
            // A row written out stays one row: toggle the coins turned.
            Some(_) => {
                let mut heads: BTreeSet<u64> = row.heads.iter().copied().collect();
                for other in turned {
                    if !heads.remove(&other) {
                        heads.insert(other);
                    }
                }
                vec![CoinRow { heads: heads.into_iter().collect(), letters: row.letters }]
            }
            // A single heads coin: it goes, and every other coin turned is one heads more.
            None => others.into_iter().map(single).collect(),
        };
        ComponentMove { result, notation, detail: format!(" ({coin} heads -> tails)") }
    }
}

impl ComponentGame for CoinGame {
    type Component = CoinRow;

    fn provide(self: Arc<Self>, request: &mut Request) {
        request.give::<CoinLine>(|| self);
    }

    fn spec(&self) -> String {
        format!("coins:{}", self.engine.rule)
    }

    fn component_noun(&self) -> &'static str {
        "row"
    }

    fn parse_component(&self, text: &str) -> Result<CoinRow, GameError> {
        parse_coin_row(&self.spec(), text)
    }

    fn format_component(&self, row: &CoinRow) -> String {
        format_coin_row(row)
    }

    fn describe_component(&self, row: &CoinRow) -> String {
        match row.letters {
            Some(length) if length <= 80 => format_coin_row(row),
            _ if row.heads.is_empty() => "no heads".to_owned(),
            _ => format!("heads at coins {}", coin_list(&row.heads)),
        }
    }

    fn options(&self, row: &CoinRow, limit: usize) -> Result<Vec<ComponentMove<CoinRow>>, GameError> {
        self.coin_values(row)?;
        let mut budget = Budget::with_move_limit(limit);
        let mut moves = Vec::new();
        for &coin in row.heads.iter() {
            for others in other_sets(&self.engine, coin, None, &mut budget)? {
                moves.push(self.turn(row, coin, others));
            }
        }
        Ok(moves)
    }

    fn value(&self, row: &CoinRow) -> Result<Value, GameError> {
        Ok(Value::Finite(BigUint::from(self.coin_values(row)?.into_iter().fold(0, |acc, value| acc ^ value))))
    }

    fn moves_to_value(&self, row: &CoinRow, target: &BigUint) -> Result<Vec<ComponentMove<CoinRow>>, GameError> {
        let mut moves = Vec::new();
        self.for_each_move_to_value(row, target, &mut |one| {
            moves.push(one);
            Ok(())
        })?;
        Ok(moves)
    }

    /// Streams the moves: a long row has as many as it has heads, each a whole row.
    fn for_each_move_to_value(
        &self,
        row: &CoinRow,
        target: &BigUint,
        visit: &mut dyn FnMut(ComponentMove<CoinRow>) -> Result<(), GameError>,
    ) -> Result<(), GameError> {
        let Some(target) = target.to_u64() else { return Ok(()) };
        let values = self.coin_values(row)?;
        let total = values.iter().fold(0, |acc, value| acc ^ value);
        let mut budget = Budget::default();
        for (&coin, &value) in row.heads.iter().zip(&values) {
            // Turning coin c and others O leaves total ⊕ G(c) ⊕ (xor of G over O).
            for others in other_sets(&self.engine, coin, Some(target ^ total ^ value), &mut budget)? {
                visit(self.turn(row, coin, others))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coins::rule::CountRange;
    use crate::ruleset::{Ruleset, erase};
    use crate::solve::definition::Definition;
    use crate::testing::{at, destinations, winning_destinations};
    use proptest::prelude::*;

    /// A row of `length` coins in letters, coin `c` heads when bit `c − 1` of `row` is set.
    fn letters(row: u64, length: u64) -> String {
        (0..length).map(|bit| if row >> bit & 1 == 1 { 'H' } else { 'T' }).collect()
    }

    /// The sum theorem on every row of `length` coins: the row, written in letters and searched
    /// by the definition (each move toggles the coins it turns), is worth the xor of the
    /// single-coin values from the mex table.
    fn check_every_row(rule: &CoinRule, length: u64) -> Result<(), TestCaseError> {
        let table = value_table(rule, length, &Control::default()).unwrap();
        let game = erase(CoinGame::new(rule.clone()));
        let mut definition = Definition::new(game.clone());
        for row in 0..1u64 << length {
            let expected =
                (0..length).filter(|bit| row >> bit & 1 == 1).fold(0, |acc, bit| acc ^ table[bit as usize + 1]);
            let component = game.parse_component(&letters(row, length)).unwrap();
            prop_assert_eq!(definition.value(&[component]).unwrap().0, expected, "rule {} row {:b}", rule, row);
        }
        Ok(())
    }

    fn written_rule() -> impl Strategy<Value = CoinRule> {
        (prop::collection::vec((0u64..7, prop::option::of(0u64..4)), 1..3), any::<bool>(), prop::option::of(0u64..6))
            .prop_filter_map("the rule allows a move", |(ranges, consecutive, within)| {
                let counts =
                    ranges.into_iter().map(|(lo, span)| CountRange { lo, hi: span.map(|span| lo + span) }).collect();
                CoinRule::new(counts, consecutive, within).ok()
            })
    }

    #[test]
    fn every_named_rule_obeys_the_sum_theorem_on_rows_of_ten() {
        for named in NamedRule::ALL {
            check_every_row(&named.rule(), 10).unwrap();
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn written_rules_obey_the_sum_theorem(rule in written_rule(), length in 1u64..=10) {
            check_every_row(&rule, length)?;
        }

        /// The winning moves listed are exactly the options of value 0 found by the definition,
        /// each listed once.
        #[test]
        fn winning_moves_are_the_moves_to_zero(rule in written_rule(), row in 1u64..1 << 9) {
            let game = erase(CoinGame::new(rule));
            let position = at(&game, &[&letters(row, 9)]).unwrap();
            let listed = winning_destinations(&position).unwrap();
            let mut definition = Definition::new(game.clone());
            let mut expected: Vec<String> = Vec::new();
            for option in position.options(100_000).unwrap() {
                let after = position.after(&option);
                let components: Vec<_> = after.to_text().split(' ').map(|text| game.parse_component(text).unwrap()).collect();
                if definition.value(&components).unwrap().0 == 0 {
                    expected.push(after.to_text());
                }
            }
            expected.sort();
            expected.dedup();
            let mut sorted = listed.clone();
            sorted.sort();
            sorted.dedup();
            prop_assert_eq!(sorted.len(), listed.len(), "a move listed twice");
            prop_assert_eq!(sorted, expected);
        }
    }

    fn value(game: &Arc<dyn Ruleset>, texts: &[&str]) -> String {
        at(game, texts).unwrap().value().unwrap().to_string()
    }

    #[test]
    fn must_show_values() {
        let mock = erase(CoinGame::new(NamedRule::MockTurtles.rule()));
        assert_eq!(value(&mock, &["HTTHTHTTH"]), "29");
        assert_eq!(value(&mock, &["1", "4", "6", "9"]), "29");
        // A coin named twice is tails: the two components cancel in the xor.
        assert_eq!(value(&mock, &["4", "4"]), "0");
        assert_eq!(value(&mock, &["THHTH", "2"]), value(&mock, &["3", "5"]));
        let far = ["1000000000000000000", "999999999999999999"];
        for named in NamedRule::ALL {
            let rules = erase(CoinGame::new(named.rule()));
            let expected = closed_form(named, 1_000_000_000_000_000_000).unwrap()
                ^ closed_form(named, 999_999_999_999_999_999).unwrap();
            assert_eq!(value(&rules, &far), expected.to_string());
        }
    }

    #[test]
    fn a_move_from_a_single_heads_coin_leaves_the_other_coins_turned_as_components() {
        let mock = erase(CoinGame::new(NamedRule::MockTurtles.rule()));
        // 1 ⊕ 7 ⊕ 11 ⊕ 16 = 29: coin 9 (16) to tails and coin 7 (13) to heads, 29 ⊕ 16 ⊕ 13 = 0.
        let coins = at(&mock, &["1", "4", "6", "9"]).unwrap();
        let moves = coins.winning_moves().unwrap();
        assert_eq!(destinations(&coins, &moves), ["1 4 6 7"]);
        assert_eq!(moves[0].notation, "turn 7,9");
        assert_eq!(coins.after(&moves[0]).value().unwrap().to_string(), "0");
        // Every option of a single coin: the coin goes, each other coin turned is one component.
        let single = at(&mock, &["3"]).unwrap();
        let mut every = destinations(&single, &single.options(100).unwrap());
        every.sort();
        // Mock Turtles turns one to three coins, the rightmost (3) heads to tails.
        assert_eq!(every, ["", "1", "1 2", "2"]);
    }

    #[test]
    fn named_values_by_mex_then_closed_form_agree_across_the_boundary() {
        for named in NamedRule::ALL {
            let engine = CoinEngine::new(named.rule());
            for n in NAMED_MEX_LIMIT - 20..NAMED_MEX_LIMIT + 20 {
                assert_eq!(Some(engine.value(n).unwrap()), closed_form(named, n), "{} coin {n}", named.name());
            }
        }
    }

    #[test]
    fn far_winning_moves_by_closed_form() {
        let turtles = erase(CoinGame::new(NamedRule::Turtles.rule()));
        let far = at(&turtles, &["1000000000000000000", "3", "5"]).unwrap();
        // The one winning move turns the far coin to tails and coin 6 to heads: heads 3, 5, 6.
        assert_eq!(winning_destinations(&far).unwrap(), ["6 3 5"]);
        let ruler = erase(CoinGame::new(NamedRule::Ruler.rule()));
        let moves = at(&ruler, &["1000000000000000000", "3"]).unwrap().winning_moves().unwrap();
        assert!(!moves.is_empty());
    }

    #[test]
    fn bad_components_name_themselves() {
        let mock = erase(CoinGame::new(NamedRule::MockTurtles.rule()));
        for (text, needle) in
            [("HXT", "`X` at place 2"), ("0", "from 1"), ("-3", "negative"), ("H3", "not both"), ("", "heads coin")]
        {
            let error = at(&mock, &[text]).unwrap_err().to_string();
            assert!(error.contains(needle) && error.contains(&format!("`{text}`")), "{text}: {error}");
        }
    }

    #[test]
    fn coin_lists_shorten_runs() {
        assert_eq!(coin_list(&[2, 5, 7, 8, 9]), "2,5,7..9");
        assert_eq!(coin_list(&[1, 2]), "1,2");
    }
}
