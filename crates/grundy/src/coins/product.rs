//! Two-dimensional coin games: products of two row games (`product:A*B`) and Turning Corners
//! (`corners`).
//!
//! **Rules.** Coins on a grid, rows and columns numbered from 0 (the literature's convention).
//! A move of the product of row games `A` and `B` takes a move of `A` (a set `S` with
//! rightmost coin `x`) and a move of `B` (a set `T` with rightmost coin `y`) and turns every
//! coin of `S × T`; the corner `(x, y)` must go from heads to tails. Coordinate `x` is coin
//! `x + 1` of the row game, whose coins are numbered from 1.
//!
//! **Tartan theorem** (*Winning Ways* ch. 14; Lenstra): a heads at `(x, y)` is worth
//! `G_A(x) ⊗ G_B(y)`, the nim-product, and a grid is worth the xor of its heads. Turning
//! Corners (turn the four corners of a rectangle whose lower-right corner goes heads to tails)
//! is Twins × Twins: Twins from coin 1 is worth `n − 1`, so `(x, y)` is worth `x ⊗ y`.
//! The tests check both on every grid of up to 12 cells by the definition.

use crate::coins::moves::{Budget, other_sets};
use crate::coins::rule::{CoinRule, NamedRule};
use crate::coins::{CoinEngine, coin_list};
use crate::control::Control;
use crate::error::GameError;
use crate::game::Game;
use crate::nimber::Nimber;
use crate::ruleset::{ComponentGame, ComponentMove, Request};
use crate::value::Value;
use crate::view::{Chart, Pictured, Table, Tabulate, Tabulation};
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::sync::Arc;

/// A move of a product as the coins of each row game it turns (numbered from 1): it turns
/// every cell of `first × second`.
type RectangleMove = (Vec<u64>, Vec<u64>);

/// The product of two coin-turning rules (`corners`, `product:A:B`): a heads coin at a cell
/// `x,y`, its options the rules, its values by the Tartan theorem.
///
/// ```
/// use grundy::coins::product::ProductGame;
/// use grundy::ruleset::ComponentGame;
/// let corners = ProductGame::corners();
/// assert_eq!(corners.value(&(3, 5)).unwrap().to_string(), "15");
/// let tartan = ProductGame::parse("product:ruler:mock-turtles", "ruler:mock-turtles").unwrap();
/// // Ruler coin 4 is worth 4, Mock Turtles coin 3 is worth 4, and 4 ⊗ 4 = 6.
/// assert_eq!(tartan.value(&(3, 2)).unwrap().to_string(), "6");
/// ```
pub struct ProductGame {
    spec: String,
    first: CoinEngine,
    second: CoinEngine,
    /// The memory limit of its tables.
    control: Control,
}

impl ProductGame {
    /// Turning Corners: Twins × Twins, written `corners`.
    pub fn corners() -> Self {
        ProductGame {
            spec: "corners".to_owned(),
            first: CoinEngine::new(NamedRule::Twins.rule()),
            second: CoinEngine::new(NamedRule::Twins.rule()),
            control: Control::default(),
        }
    }

    /// This game computing its values and tables under `control` (what the registry's front
    /// end lends).
    #[must_use]
    pub fn with_control(self, control: Control) -> Self {
        ProductGame {
            spec: self.spec,
            first: self.first.with_control(control.clone()),
            second: self.second.with_control(control.clone()),
            control,
        }
    }

    /// Parses the `A*B` of `product:A*B` (`spec` is the whole game text, for errors).
    ///
    /// # Errors
    /// [`GameError::BadGame`] without exactly one `*`, or naming the part of a rule that does
    /// not parse.
    pub fn parse(spec: &str, factors: &str) -> Result<Self, GameError> {
        let bad = |reason: String| GameError::BadGame { spec: spec.to_owned(), reason };
        // `product:A:B`; the older `product:A*B` needs quotes in a shell but is still read.
        let separator = if factors.contains('*') { '*' } else { ':' };
        let Some((first, second)) = factors.split_once(separator).filter(|(_, second)| !second.contains(separator))
        else {
            let shown = if factors.is_empty() { "nothing".to_owned() } else { format!("`{factors}`") };
            return Err(bad(format!(
                "{shown} is not two row rules joined by one `:` (write product:A:B, e.g. product:ruler:mock-turtles)"
            )));
        };
        for (side, rule) in [("before", first), ("after", second)] {
            if rule.trim().is_empty() {
                return Err(bad(format!("the rule {side} `{separator}` is empty (e.g. product:ruler:mock-turtles)")));
            }
        }
        let first = CoinRule::parse(spec, first)?;
        let second = CoinRule::parse(spec, second)?;
        Ok(ProductGame {
            spec: format!("product:{first}:{second}"),
            first: CoinEngine::new(first),
            second: CoinEngine::new(second),
            control: Control::default(),
        })
    }

    fn cell_value(&self, (x, y): (u64, u64)) -> Result<Nimber, GameError> {
        Ok(Nimber(self.first.value(x + 1)?) * Nimber(self.second.value(y + 1)?))
    }

    /// The moves from the heads at `cell` that change the grid's value by `change`: a move
    /// `S × T` changes it by `(⊕_S G_A) ⊗ (⊕_T G_B)`. Every move of the game with the nearer
    /// coordinate is tried, and the matching moves of the other found by value.
    fn moves_from(
        &self,
        (x, y): (u64, u64),
        change: Nimber,
        budget: &mut Budget,
    ) -> Result<Vec<RectangleMove>, GameError> {
        let (x_value, y_value) = (self.first.value(x + 1)?, self.second.value(y + 1)?);
        let mut found = Vec::new();
        let swap = y < x;
        let (near, near_coin, near_value, far, far_coin, far_value) = if swap {
            (&self.second, y + 1, y_value, &self.first, x + 1, x_value)
        } else {
            (&self.first, x + 1, x_value, &self.second, y + 1, y_value)
        };
        for near_others in other_sets(near, near_coin, None, budget)? {
            let mut near_xor = near_value;
            for &coin in &near_others {
                near_xor ^= near.value(coin)?;
            }
            let Some(inverse) = Nimber(near_xor).inverse() else { continue };
            let far_xor = (change * inverse).0;
            for far_others in other_sets(far, far_coin, Some(far_xor ^ far_value), budget)? {
                let mut near_set = near_others.clone();
                near_set.push(near_coin);
                let mut far_set = far_others;
                far_set.push(far_coin);
                found.push(if swap { (far_set, near_set) } else { (near_set, far_set) });
            }
        }
        found.sort();
        Ok(found)
    }
}

impl ProductGame {
    /// The option of the heads at `(x, y)` that turns `rows × columns` (coins from 1): every
    /// other cell turned is one heads more (two heads on a cell cancel in the sum).
    fn turn(&self, (x, y): (u64, u64), rows: Vec<u64>, columns: Vec<u64>) -> ComponentMove<(u64, u64)> {
        let rows: Vec<u64> = rows.into_iter().map(|coin| coin - 1).collect();
        let columns: Vec<u64> = columns.into_iter().map(|coin| coin - 1).collect();
        let result = rows
            .iter()
            .flat_map(|&row| columns.iter().map(move |&column| (row, column)))
            .filter(|&cell| cell != (x, y))
            .collect();
        ComponentMove {
            result,
            notation: format!("turn {} x {}", coin_list(&rows), coin_list(&columns)),
            detail: format!(" ({x},{y} heads -> tails)"),
        }
    }
}

impl ComponentGame for ProductGame {
    fn provide(self: Arc<Self>, request: &mut Request) {
        request.give::<Pictured>(|| Chart::Grid);
        request.give::<Tabulation>(|| self as Arc<dyn Tabulate>);
    }

    type Component = (u64, u64);

    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn component_noun(&self) -> &'static str {
        "heads"
    }

    fn parse_component(&self, text: &str) -> Result<(u64, u64), GameError> {
        let bad = |reason: &str| GameError::BadComponent {
            game: self.spec.clone(),
            text: text.to_owned(),
            reason: reason.to_owned(),
        };
        let (x, y) = text.split_once(',').ok_or_else(|| bad("a heads is written x,y (row and column from 0)"))?;
        let coordinate = |part: &str| {
            if part.starts_with('-') {
                return Err(bad("coordinates are non-negative: rows and columns are numbered from 0"));
            }
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad("a heads is written x,y with x and y non-negative integers"));
            }
            part.parse::<u64>().ok().filter(|&c| c < u64::MAX).ok_or_else(|| bad("a coordinate is at most 2^64 - 2"))
        };
        Ok((coordinate(x)?, coordinate(y)?))
    }

    fn format_component(&self, (x, y): &(u64, u64)) -> String {
        format!("{x},{y}")
    }

    fn options(&self, &(x, y): &(u64, u64), limit: usize) -> Result<Vec<ComponentMove<(u64, u64)>>, GameError> {
        let mut budget = Budget::with_move_limit(limit);
        let row_sets = other_sets(&self.first, x + 1, None, &mut budget)?;
        let column_sets = other_sets(&self.second, y + 1, None, &mut budget)?;
        budget.found(row_sets.len() as u128 * column_sets.len() as u128)?;
        let mut moves = Vec::new();
        for row_others in &row_sets {
            for column_others in &column_sets {
                let rows: Vec<u64> = row_others.iter().copied().chain([x + 1]).collect();
                let columns: Vec<u64> = column_others.iter().copied().chain([y + 1]).collect();
                budget.step(rows.len() as u64 * columns.len() as u64)?;
                moves.push(self.turn((x, y), rows, columns));
            }
        }
        Ok(moves)
    }

    fn value(&self, &cell: &(u64, u64)) -> Result<Value, GameError> {
        self.first.prepare(cell.0 + 1)?;
        self.second.prepare(cell.1 + 1)?;
        Ok(Value::Finite(BigUint::from(self.cell_value(cell)?.0)))
    }

    fn moves_to_value(
        &self,
        &cell: &(u64, u64),
        target: &BigUint,
    ) -> Result<Vec<ComponentMove<(u64, u64)>>, GameError> {
        let Some(target) = target.to_u64() else { return Ok(Vec::new()) };
        self.first.prepare(cell.0 + 1)?;
        self.second.prepare(cell.1 + 1)?;
        // The heads at `cell` (worth v) becomes the other cells of S × T, worth v ⊕ change.
        let change = self.cell_value(cell)? + Nimber(target);
        let mut budget = Budget::default();
        let mut moves = Vec::new();
        for (rows, columns) in self.moves_from(cell, change, &mut budget)? {
            budget.step(rows.len() as u64 * columns.len() as u64)?;
            moves.push(self.turn(cell, rows, columns));
        }
        Ok(moves)
    }
}

impl Tabulate for ProductGame {
    fn table(&self, size: Option<u64>) -> Result<Table, GameError> {
        let size = size.unwrap_or(16);
        {
            self.control.check_memory(
                || format!("the {size} x {size} table of {}", self.spec),
                u128::from(size).pow(2),
                8,
            )?;
            let mut values = Vec::with_capacity(size as usize);
            for x in 0..size {
                let mut row = Vec::with_capacity(size as usize);
                for y in 0..size {
                    row.push(self.cell_value((x, y))?.0);
                }
                values.push(row);
            }
            Ok(Table::Grid { values })
        }
    }
}

/// A product game on a `width × height` grid read literally, as the coin game it is: a
/// position is the whole grid (cell `(x, y)` at bit `x·height + y`, up to 64 cells), a move
/// takes one of the product's options from one of the heads and turns the heads and the
/// option's cells, and a cell turned twice is tails.
///
/// The options are the product's own [`ComponentGame::options`], the family's one statement of
/// its rules. What this type adds is the grid with no theorem: [`ProductGame`] values a grid as
/// the sum of its heads (*Winning Ways* ch. 14: in a coin-turning game each heads is a game of
/// its own) and each heads by the Tartan theorem (`G_A(x) ⊗ G_B(y)`), and the reference solver
/// on this game, which assumes neither, is what the tests compare both with.
///
/// ```
/// use grundy::coins::product::{GridGame, ProductGame};
/// use grundy::solve::memo::grundy_value;
/// let grid = GridGame::new(&ProductGame::corners(), 4, 6);
/// // One heads at (3, 5): 3 ⊗ 5 = 15.
/// assert_eq!(grundy_value(&grid, &(1 << (3 * 6 + 5))).unwrap().0, 15);
/// ```
#[derive(Clone, Debug)]
pub struct GridGame {
    /// Coordinates `y` are `0..height`.
    height: u64,
    /// For each cell (by its bit), the cells each move from a heads there turns, as masks.
    moves: Vec<Vec<u64>>,
}

impl GridGame {
    /// The grid of `width × height` cells (at most 64) of `product`, its moves listed once.
    ///
    /// # Panics
    /// With more than 64 cells, or a cell with more moves than a list holds.
    pub fn new(product: &ProductGame, width: u64, height: u64) -> Self {
        assert!(width * height <= 64, "a bit mask holds 64 cells");
        let bit = |(x, y): (u64, u64)| 1u64 << (x * height + y);
        // Every cell of a move lies in the grid: no further right or down than the heads.
        let moves = (0..width * height)
            .map(|cell| {
                let heads = (cell / height, cell % height);
                let moves = product.options(&heads, usize::MAX).expect("a small grid's moves are listed");
                moves.iter().map(|one| one.result.iter().fold(bit(heads), |turned, &cell| turned ^ bit(cell))).collect()
            })
            .collect();
        GridGame { height, moves }
    }

    /// The bit of cell `(x, y)`.
    pub fn bit(&self, (x, y): (u64, u64)) -> u64 {
        1 << (x * self.height + y)
    }
}

impl Game for GridGame {
    type State = u64;
    fn options_into(&self, grid: &u64, out: &mut Vec<u64>) {
        for (cell, moves) in self.moves.iter().enumerate() {
            if grid >> cell & 1 == 1 {
                out.extend(moves.iter().map(|turned| grid ^ turned));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::{Ruleset, erase};
    use crate::solve::memo::Solver;
    use crate::testing::{at, destinations, winning_destinations};
    use std::sync::Arc;

    /// The named rules and a few written ones.
    fn rules() -> Vec<String> {
        let mut rules: Vec<String> = NamedRule::ALL.iter().map(|named| named.name().to_owned()).collect();
        rules.extend(["turn=2..3;within=2", "turn=1..;consecutive;within=2", "turn=2,4"].map(str::to_owned));
        rules
    }

    /// Every grid of `width × height` solved by the definition is worth the xor of its heads'
    /// nim-products, the options listed are the definition's, and the listed winning moves are
    /// the options of value 0.
    fn check_grid(product: &Arc<dyn Ruleset>, game: &GridGame, width: u64, height: u64) {
        // A position's heads `x,y` as the grid's bitmask: a cell named twice is tails (xor).
        let as_grid = |text: &String| {
            text.split_whitespace().fold(0u64, |acc, cell| {
                let (x, y) = cell.split_once(',').unwrap();
                acc ^ game.bit((x.parse().unwrap(), y.parse().unwrap()))
            })
        };
        let spec = product.spec();
        let mut solver = Solver::new(game);
        for grid in 0..1u64 << (width * height) {
            let cells: Vec<String> = (0..width * height)
                .filter(|bit| grid >> bit & 1 == 1)
                .map(|bit| format!("{},{}", bit / height, bit % height))
                .collect();
            let texts: Vec<&str> = cells.iter().map(String::as_str).collect();
            let position = at(product, &texts).unwrap();
            let value = position.value().unwrap().to_string();
            assert_eq!(value, solver.grundy_value(&grid).unwrap().0.to_string(), "{spec} grid {cells:?}");
            let mut listed: Vec<u64> = winning_destinations(&position).unwrap().iter().map(as_grid).collect();
            listed.sort_unstable();
            let mut every: Vec<u64> =
                destinations(&position, &position.options(100_000).unwrap()).iter().map(as_grid).collect();
            every.sort_unstable();
            let mut options = game.options(&grid);
            options.sort_unstable();
            assert_eq!(every, options, "{spec} every move from {cells:?}");
            let mut expected: Vec<u64> = game
                .options(&grid)
                .into_iter()
                .filter(|&option| solver.grundy_value(&option).unwrap().0 == 0)
                .collect();
            expected.sort_unstable();
            expected.dedup();
            assert_eq!(listed, expected, "{spec} grid {cells:?}");
        }
    }

    fn value(game: &Arc<dyn Ruleset>, text: &str) -> Result<String, GameError> {
        Ok(at(game, &[text])?.value()?.to_string())
    }

    #[test]
    fn turning_corners_agrees_with_exhaustive_search() {
        let corners = erase(ProductGame::corners());
        let product = ProductGame::corners();
        for (width, height) in [(3, 4), (4, 3), (2, 6)] {
            check_grid(&corners, &GridGame::new(&product, width, height), width, height);
        }
        for x in 0..40u64 {
            for y in 0..40u64 {
                let value = value(&corners, &format!("{x},{y}")).unwrap();
                assert_eq!(value, Nimber(x).nim_mul(Nimber(y)).0.to_string());
            }
        }
    }

    #[test]
    fn tartan_products_agree_with_exhaustive_search() {
        for first_name in rules() {
            for second_name in rules() {
                // The older `A*B` and the current `A:B` read the same game.
                let old = ProductGame::parse("product", &format!("{first_name}*{second_name}")).unwrap();
                let product = ProductGame::parse("product", &format!("{first_name}:{second_name}")).unwrap();
                assert_eq!(old.spec(), product.spec());
                let erased = erase(ProductGame::parse("product", &format!("{first_name}:{second_name}")).unwrap());
                check_grid(&erased, &GridGame::new(&product, 3, 3), 3, 3);
            }
        }
        let product = ProductGame::parse("product", "ruler:mock-turtles").unwrap();
        let erased = erase(ProductGame::parse("product", "ruler:mock-turtles").unwrap());
        check_grid(&erased, &GridGame::new(&product, 3, 4), 3, 4);
    }

    #[test]
    fn far_heads_answer_at_once_and_bad_texts_name_themselves() {
        let corners = erase(ProductGame::corners());
        let x = 1_000_000_000_000_000_000u64;
        let far = value(&corners, &format!("{x},{}", x + 7)).unwrap();
        assert_eq!(far, Nimber(x).nim_mul(Nimber(x + 7)).0.to_string());
        for text in ["3", "3,x", "-1,2", "3,5,7"] {
            let error = value(&corners, text).unwrap_err().to_string();
            assert!(error.contains(&format!("`{text}`")), "{error}");
        }
        for spec in ["ruler", "ruler*ruler*ruler", "ruler*sideways", "ruler:ruler:ruler", "ruler:sideways"] {
            let error = ProductGame::parse(&format!("product:{spec}"), spec).err().unwrap().to_string();
            assert!(error.contains(spec.rsplit(['*', ':']).next().unwrap()), "{error}");
        }
    }
}
