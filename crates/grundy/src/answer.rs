//! The library's answers as data: what `--json` prints and the bindings return.
//!
//! One rule everywhere (written down in `docs/json.md`): a position's components and the
//! `"value"` of a position are JSON **strings** of decimal digits (they can pass 2^53, where
//! JSON numbers lose precision in most readers); sequences, tables, counts, periods, indices
//! and sizes are JSON numbers. Components and parts are numbered from 1, as in text.

use crate::sum::{Position, SumMove};
use crate::value::{Outcome, Value};

/// A position: one game's components, or the parts of a sum of games.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PositionReport {
    /// The game, or `"sum"` for a sum of different games.
    pub game: String,
    /// The components in their notation (one game).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub position: Option<Vec<String>>,
    /// The parts (a sum of games).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub parts: Option<Vec<PartReport>>,
}

/// One part of a sum: a game and its components.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PartReport {
    /// The game.
    pub game: String,
    /// Its components in their notation.
    pub position: Vec<String>,
}

impl PositionReport {
    /// The report of `position`.
    pub fn of(position: &Position) -> Self {
        if let [part] = position.parts.as_slice() {
            return PositionReport { game: part.game.spec(), position: Some(part.texts()), parts: None };
        }
        let parts = position.parts.iter().map(|part| PartReport { game: part.game.spec(), position: part.texts() });
        PositionReport { game: "sum".to_owned(), position: None, parts: Some(parts.collect()) }
    }
}

/// A value as JSON carries it: decimal digits, or `null` with the `∞` set and the outcome.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ValueReport {
    /// The Grundy value in decimal digits; `null` for `∞` or a value out of reach.
    pub value: Option<String>,
    /// For `∞(K)`: the set `K`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub infinite: Option<Vec<u64>>,
    /// Who wins.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub outcome: Option<Outcome>,
}

impl ValueReport {
    /// The report of a value, with its outcome.
    pub fn of(value: &Value) -> Self {
        match value {
            Value::Finite(number) => {
                ValueReport { value: Some(number.to_string()), infinite: None, outcome: Some(value.outcome()) }
            }
            Value::Infinite { reachable } => {
                ValueReport { value: None, infinite: Some(reachable.clone()), outcome: Some(value.outcome()) }
            }
        }
    }

    /// Only an outcome (the value is out of reach).
    pub fn outcome_only(outcome: Outcome) -> Self {
        ValueReport { value: None, infinite: None, outcome: Some(outcome) }
    }
}

/// The answer of `value`, `outcome`: the position and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PositionAnswer {
    /// The position.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub position: PositionReport,
    /// Its value and outcome.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub value: ValueReport,
}

/// One move of a position, as `moves` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MoveReport {
    /// The part moved in, from 1 (sums of games only).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub part: Option<usize>,
    /// The component moved in, from 1 (within its part).
    pub component: usize,
    /// The move as a person types it.
    #[cfg_attr(feature = "serde", serde(rename = "move"))]
    pub notation: String,
    /// The component moved in, before the move.
    pub before: String,
    /// What replaces it (none when a heap is taken away, two when it is split).
    pub after: Vec<String>,
    /// The value of what replaces it (the nim-sum of its values), when within reach.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub after_value: Option<String>,
    /// The whole position it leads to: components (one game), or parts (a sum of games); only
    /// for positions of at most [`WHOLE_POSITION_UP_TO`] components and
    /// [`WHOLE_TEXT_UP_TO`] characters, so that the list of moves of a position of 5·10^5 heaps
    /// grows with the moves, not with the moves times the heaps.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub to: Option<ToReport>,
    /// Why it wins (winning moves).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "String::is_empty"))]
    pub explain: String,
}

/// Where a move leads.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(untagged))]
pub enum ToReport {
    /// The components of a one-game position.
    Components(Vec<String>),
    /// The parts of a sum of games.
    Parts(Vec<PartReport>),
}

impl ToReport {
    /// The report of `position`, in the shape of its kind.
    pub fn of(position: &Position) -> Self {
        let report = PositionReport::of(position);
        match (report.position, report.parts) {
            (Some(components), _) => ToReport::Components(components),
            (None, parts) => ToReport::Parts(parts.unwrap_or_default()),
        }
    }
}

/// Past this many components, a move names the component that changes instead of repeating
/// the whole position (in text and in JSON).
pub const WHOLE_POSITION_UP_TO: usize = 20;
/// Likewise past this many characters of the position's text (a long coin row).
pub const WHOLE_TEXT_UP_TO: usize = 4096;

/// Whether a move of `position` is shown with the whole position it leads to.
pub fn shows_whole_position(position: &Position) -> bool {
    position.component_count() <= WHOLE_POSITION_UP_TO && position.to_text().len() <= WHOLE_TEXT_UP_TO
}

impl MoveReport {
    /// The report of `one`, a move of `position`, with the whole position it leads to when
    /// `whole` ([`shows_whole_position`]).
    pub fn of(position: &Position, one: &SumMove, whole: bool) -> Self {
        let game = &position.parts[one.part].game;
        let after_value = one
            .result
            .iter()
            .map(|component| game.value(component))
            .collect::<Result<Vec<Value>, _>>()
            .ok()
            .and_then(|values| crate::sum::sum_of_values(&values).ok())
            .map(|value| value.to_string());
        MoveReport {
            part: (!position.is_single_game()).then_some(one.part + 1),
            component: one.component + 1,
            notation: one.notation.clone(),
            before: game.format_component(&position.parts[one.part].components[one.component]),
            after: one.result.iter().map(|component| game.format_component(component)).collect(),
            after_value,
            to: whole.then(|| ToReport::of(&position.after(one))),
            explain: one.explain.clone(),
        }
    }
}

/// One option of a position with its value, for `moves --all`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct OptionReport {
    /// The move.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub step: MoveReport,
    /// The value of the position it leads to (the whole sum's).
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub value: ValueReport,
    /// Whether it wins (leads to a P-position).
    pub winning: bool,
    /// Where a winning answer to it leads, when it is an N-position.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub reply: Option<ToReport>,
}

/// A pattern `G(n + p) = G(n) + s` from heap `e` on, as JSON carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PatternReport {
    /// `e`.
    pub preperiod: u64,
    /// `p`.
    pub period: u64,
    /// `s`.
    pub saltus: u64,
}

/// The answer of `period`: the proved pattern (numbers), or nulls and what was observed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PeriodAnswer {
    /// The game.
    pub game: String,
    /// `e`, or `null` when nothing is proved.
    pub preperiod: Option<u64>,
    /// `p`, or `null`.
    pub period: Option<u64>,
    /// `s`, or `null`.
    pub saltus: Option<u64>,
    /// Whether a theorem proves it for every heap.
    pub proved: bool,
    /// The last heap the proof (or the search) compared.
    pub checked_to: u64,
    /// When nothing is proved: the pattern seen over the last half of the values, if any.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub observed: Option<Option<PatternReport>>,
}

impl PeriodAnswer {
    /// The answer of `report` for `game`.
    pub fn of(game: String, report: &crate::heap::period::PeriodReport) -> Self {
        let pattern = |period: &crate::heap::period::Period| PatternReport {
            preperiod: period.preperiod,
            period: period.period,
            saltus: period.saltus,
        };
        match &report.proved {
            Some((period, _)) => PeriodAnswer {
                game,
                preperiod: Some(period.preperiod),
                period: Some(period.period),
                saltus: Some(period.saltus),
                proved: true,
                checked_to: period.checked_to,
                observed: None,
            },
            None => PeriodAnswer {
                game,
                preperiod: None,
                period: None,
                saltus: None,
                proved: false,
                checked_to: report.examined.saturating_sub(1),
                observed: Some(report.observed.as_ref().map(pattern)),
            },
        }
    }
}

/// The answer of `table` for a two-heap game: `values[x][y] = G(x, y)`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GridAnswer {
    /// The game.
    pub game: String,
    /// The rows, by `x`.
    pub values: Vec<Vec<u64>>,
}

/// One vertex of a graph game's table.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct VertexReport {
    /// The vertex's name.
    pub name: String,
    /// The value of a token there (`null` where only the outcome is defined) and its outcome.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub value: ValueReport,
}

/// The answer of `table` for a graph game: every vertex.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct VerticesAnswer {
    /// The game.
    pub game: String,
    /// Every vertex, in the file's order.
    pub vertices: Vec<VertexReport>,
}

impl VertexReport {
    /// The report of one table entry.
    pub fn of(entry: &crate::view::VertexEntry) -> Self {
        let value = match &entry.value {
            Some(value) => ValueReport { outcome: Some(entry.outcome), ..ValueReport::of(value) },
            None => ValueReport::outcome_only(entry.outcome),
        };
        VertexReport { name: entry.name.clone(), value }
    }
}
