//! `--compound every|conjunctive|selective` of `outcome`, `moves` and `play`: the flag's
//! parser and the JSON of the library's compound answers (`grundy::compound`).

use grundy::answer::{PositionReport, ToReport};
use grundy::compound::{Compound, CompoundMove, Evaluation, after};
use grundy::sum::Position;
use serde_json::{Value as Json, json};

/// Reads the flag's value.
pub fn parse(text: &str) -> Result<Compound, String> {
    Compound::parse(text).map_err(|error| error.to_string())
}

/// The position object with the compound's fields: `"compound"`, `"outcome"`, and the
/// numbers that decide it (`"step"` and `"steps"`, `"remoteness"` and `"remotenesses"`, or
/// `"outcomes"` for the selective compound), components in the order of the position.
pub fn evaluation_json(position: &Position, evaluation: &Evaluation) -> anyhow::Result<Json> {
    let mut object = serde_json::to_value(PositionReport::of(position))?;
    object["compound"] = evaluation.compound.name().into();
    object["outcome"] = evaluation.outcome.to_string().into();
    let numbers: Vec<u64> = evaluation.numbers.iter().flatten().copied().collect();
    match evaluation.compound {
        Compound::Every => {
            object["step"] = evaluation.number.into();
            object["steps"] = numbers.into();
        }
        Compound::Conjunctive => {
            object["remoteness"] = evaluation.number.into();
            object["remotenesses"] = numbers.into();
        }
        Compound::Selective => {
            let outcomes: Vec<&str> = numbers.iter().map(|&number| if number == 1 { "N" } else { "P" }).collect();
            object["outcomes"] = outcomes.into();
        }
    }
    Ok(object)
}

/// One move of a compound: `"move"` (all of it, as `play` reads it), `"moves"` (each
/// component's: `"part"` for a sum of games, `"component"`, `"move"`), `"to"`, `"stops"`
/// (conjunctive: play ends after it) and `"explain"`.
pub fn move_json(position: &Position, one: &CompoundMove) -> Json {
    let single = position.is_single_game();
    let steps: Vec<Json> = one
        .steps
        .iter()
        .map(|step| {
            let mut each = json!({ "component": step.component + 1, "move": step.notation });
            if !single {
                each["part"] = (step.part + 1).into();
            }
            each
        })
        .collect();
    let to = serde_json::to_value(ToReport::of(&after(position, one))).unwrap_or(Json::Null);
    let mut object = json!({ "move": one.notation, "moves": steps, "to": to, "explain": one.explain });
    if one.stops {
        object["stops"] = true.into();
    }
    object
}
