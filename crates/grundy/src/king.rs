//! The corner king (`king`; HDU 2147 "kiki's game"): a coin stands in the top-right corner of an
//! `n × m` board (`n` rows, `m` columns); a move takes it one square left, one square down or
//! one square diagonally left-down; whoever cannot move (the coin in the bottom-left corner)
//! loses. A component `n,m` is such a board: moving the coin left leaves the top-right corner
//! of an `n × (m − 1)` board, so every position of the game is a board `n,m` (`n, m >= 1`), the
//! coin `n − 1` rows above and `m − 1` columns right of the bottom-left corner.
//!
//! # The value
//! **Theorem.** With the distances `x = n − 1`, `y = m − 1`: `G = 0` when `x` and `y` are both
//! even, `2` when both are odd, and when one is odd, `o`, and the other even, `e`: `G = 1` if
//! `e < o`, else `3`. So the board is a P-position iff `n` and `m` are both odd (HDU 2147: the
//! first player loses iff both are odd).
//!
//! *Proof*, by induction on `x + y`; the options of `(x, y)` are `(x − 1, y)`, `(x, y − 1)` and
//! `(x − 1, y − 1)`, those with both distances at least 0.
//! - `x, y` even: `(x − 1, y − 1)` is worth 2 and the other options have one odd distance,
//!   worth 1 or 3: no option is worth 0, so `G = 0` (at `(0, 0)` there is no option).
//! - `x, y` odd (both at least 1): `(x − 1, y − 1)` is worth 0; of `(x − 1, y)` and
//!   `(x, y − 1)` (one odd distance each), the one whose even distance is the smaller number's
//!   predecessor is worth 1 (`x − 1 < y` when `x <= y`, else `y − 1 < x`); no option is worth
//!   2: `G = 2`.
//! - `x` odd, `y` even (the other case is the mirror image): `(x − 1, y)` is worth 0; if
//!   `y = 0` it is the only option and `G = 1` (and `e = 0 < o`). Otherwise `(x, y − 1)` is worth
//!   2 and `(x − 1, y − 1)` (even `x − 1`, odd `y − 1`) is worth 1 if `x − 1 < y − 1`, else 3:
//!   when `y < x` the options are worth `{0, 2, 3}` and `G = 1`; when `y > x`, `{0, 1, 2}` and
//!   `G = 3`. ∎
//!
//! The property tests compare the formula with the mex over the rules.

use crate::error::GameError;
use crate::ruleset::{ComponentGame, ComponentMove, Request};
use crate::value::Value;
use crate::view::{PairTable, PairValues};
use num_bigint::BigUint;
use std::sync::Arc;

/// The spec word of the game.
pub const SPEC: &str = "king";

/// A board of `rows × columns` with the coin in its top-right corner (both at least 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// `n`: the coin is `n − 1` rows above the bottom-left corner.
    pub rows: u64,
    /// `m`: the coin is `m − 1` columns right of the bottom-left corner.
    pub columns: u64,
}

/// The corner king of HDU 2147.
///
/// ```
/// use grundy::registry::parse_sum;
/// // HDU 2147's samples: 5 x 3 is lost for the first player, 5 x 4 and 6 x 6 won.
/// let outcome = |board: &str| parse_sum(&["king", board]).unwrap().outcome().unwrap().to_string();
/// assert_eq!([outcome("5,3"), outcome("5,4"), outcome("6,6")], ["P", "N", "N"]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct CornerKing;

/// `G` of the coin `x` rows and `y` columns from the bottom-left corner (the module doc's theorem).
pub fn grundy_value(x: u64, y: u64) -> u64 {
    match (x % 2, y % 2) {
        (0, 0) => 0,
        (1, 1) => 2,
        (1, _) => {
            if y < x {
                1
            } else {
                3
            }
        }
        _ => {
            if x < y {
                1
            } else {
                3
            }
        }
    }
}

fn format_board(board: &Board) -> String {
    format!("{},{}", board.rows, board.columns)
}

impl PairTable for CornerKing {
    fn first(&self) -> u64 {
        1
    }

    /// The boards `n,m` by the module doc's theorem (the row and the column 0 hold 0).
    fn pair_values(&self, side: u64) -> Result<Vec<Vec<u64>>, GameError> {
        Ok((0..side)
            .map(|n| (0..side).map(|m| if n == 0 || m == 0 { 0 } else { grundy_value(n - 1, m - 1) }).collect())
            .collect())
    }
}

impl ComponentGame for CornerKing {
    type Component = Board;

    fn provide(self: Arc<Self>, request: &mut Request) {
        request.give::<PairValues>(|| self as Arc<dyn PairTable>);
    }

    fn spec(&self) -> String {
        SPEC.to_owned()
    }

    fn component_noun(&self) -> &'static str {
        "board"
    }

    fn parse_component(&self, text: &str) -> Result<Board, GameError> {
        let bad = |reason: &str| GameError::BadComponent {
            game: SPEC.to_owned(),
            text: text.to_owned(),
            reason: format!(
                "{reason}: a king board is its rows and columns written `n,m`, like `5,3` (the coin in the top-right \
                 corner)"
            ),
        };
        let (rows, columns) = text.split_once(',').ok_or_else(|| bad("no comma"))?;
        let side = |part: &str| {
            if part.is_empty() || !part.bytes().all(|byte| byte.is_ascii_digit()) {
                return Err(bad(&format!("`{}` is not a number", crate::error::quote(part))));
            }
            match part.parse::<u64>() {
                Ok(0) => Err(bad("a board side of 0")),
                Ok(size) => Ok(size),
                Err(_) => Err(bad(&format!("`{}` is past 2^64 - 1", crate::error::quote(part)))),
            }
        };
        Ok(Board { rows: side(rows)?, columns: side(columns)? })
    }

    fn format_component(&self, board: &Board) -> String {
        format_board(board)
    }

    /// **The rules**: the coin one square left (one column fewer), down (one row fewer) or
    /// diagonally left-down (both), staying on the board.
    fn options(&self, board: &Board, _limit: usize) -> Result<Vec<ComponentMove<Board>>, GameError> {
        let Board { rows, columns } = *board;
        let mut options = Vec::with_capacity(3);
        let mut step = |after: Board, way: &str| {
            options.push(ComponentMove {
                notation: format!("{} -> {}", format_board(board), format_board(&after)),
                result: vec![after],
                detail: format!(" (the coin one square {way})"),
            });
        };
        if columns > 1 {
            step(Board { rows, columns: columns - 1 }, "left");
        }
        if rows > 1 {
            step(Board { rows: rows - 1, columns }, "down");
        }
        if rows > 1 && columns > 1 {
            step(Board { rows: rows - 1, columns: columns - 1 }, "diagonally left-down");
        }
        Ok(options)
    }

    fn value(&self, board: &Board) -> Result<Value, GameError> {
        Ok(Value::from(grundy_value(board.rows - 1, board.columns - 1)))
    }

    /// The options filtered by the formula's value (at most three).
    fn moves_to_value(&self, board: &Board, target: &BigUint) -> Result<Vec<ComponentMove<Board>>, GameError> {
        Ok(self
            .options(board, 3)?
            .into_iter()
            .filter(|one| {
                let after = one.result[0];
                BigUint::from(grundy_value(after.rows - 1, after.columns - 1)) == *target
            })
            .collect())
    }

    fn p_position_reason(&self, board: &Board) -> Option<String> {
        (board.rows % 2 == 1 && board.columns % 2 == 1).then(|| {
            if board.rows == 1 && board.columns == 1 {
                format!("{}: the coin is in the bottom-left corner, no move", format_board(board))
            } else {
                format!(
                    "{} is a P-position: both sides are odd, and every move makes a side even, from where the coin \
                     can be brought back to two odd sides",
                    format_board(board)
                )
            }
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

    #[test]
    fn the_formula_is_the_mex_over_the_rules_on_every_small_board() {
        let side = 80usize;
        let mut table = vec![vec![0u64; side + 1]; side + 1];
        for rows in 1..=side {
            for columns in 1..=side {
                let board = Board { rows: rows as u64, columns: columns as u64 };
                let options = CornerKing.options(&board, 3).unwrap();
                let reached =
                    options.iter().map(|one| table[one.result[0].rows as usize][one.result[0].columns as usize]);
                table[rows][columns] = crate::nimber::mex(reached);
                assert_eq!(grundy_value(rows as u64 - 1, columns as u64 - 1), table[rows][columns], "{rows},{columns}");
                assert_eq!(
                    CornerKing.p_position_reason(&board).is_some(),
                    table[rows][columns] == 0,
                    "{rows},{columns}: outcome"
                );
                for target in 0..5u64 {
                    let expected: Vec<String> = options
                        .iter()
                        .filter(|one| table[one.result[0].rows as usize][one.result[0].columns as usize] == target)
                        .map(|one| one.notation.clone())
                        .collect();
                    let found: Vec<String> = CornerKing
                        .moves_to_value(&board, &BigUint::from(target))
                        .unwrap()
                        .into_iter()
                        .map(|one| one.notation)
                        .collect();
                    assert_eq!(found, expected, "{rows},{columns} to {target}");
                }
            }
        }
    }

    #[test]
    fn bad_boards_are_refused_in_one_line() {
        for bad in ["5", "0,3", "5,-3", "x,y", "5,3,1", "1,99999999999999999999"] {
            let error = CornerKing.parse_component(bad).unwrap_err().to_string();
            assert!(error.contains("`5,3`") && !error.contains('\n'), "{bad}: {error}");
        }
        let far = CornerKing.parse_component("18446744073709551615,2").unwrap();
        assert_eq!(CornerKing.value(&far).unwrap(), Value::from(3u64));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]

        /// The value is the definition's search over the rules alone.
        #[test]
        fn the_formula_is_the_definition(rows in 1u64..30, columns in 1u64..30) {
            let component = Component::new(Board { rows, columns });
            let by_definition =
                Definition::with_limit(erase(CornerKing), 100_000).value(std::slice::from_ref(&component)).unwrap();
            prop_assert_eq!(by_definition.0, grundy_value(rows - 1, columns - 1));
        }
    }
}
