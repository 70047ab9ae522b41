//! Helpers for the unit tests: positions of one game read from texts, and where moves lead,
//! as the text a person reads (`Position::after(..).to_text()`).

use crate::error::GameError;
use crate::ruleset::Ruleset;
use crate::sum::{Position, SumMove};
use std::sync::Arc;

/// The position of `game` with these component texts.
pub(crate) fn at(game: &Arc<dyn Ruleset>, texts: &[&str]) -> Result<Position, GameError> {
    Position::parse_single(Arc::clone(game), texts)
}

/// Where each move leads, as text.
pub(crate) fn destinations(position: &Position, moves: &[SumMove]) -> Vec<String> {
    moves.iter().map(|one| position.after(one).to_text()).collect()
}

/// Where each winning move leads, as text.
pub(crate) fn winning_destinations(position: &Position) -> Result<Vec<String>, GameError> {
    Ok(destinations(position, &position.winning_moves()?))
}
