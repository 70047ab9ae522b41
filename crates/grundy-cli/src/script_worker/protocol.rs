//! The worker protocol: one JSON object a line each way. A request is `{"op": ..., ...}`; a
//! reply is `{"ok": ...}` or `{"error": "one line"}`.

use grundy::Value;
use grundy::script::ScriptPosition;
use grundy::script::formula::FormulaAnswer;
use num_bigint::BigUint;
use serde_json::{Value as Json, json};

/// A position as JSON: `{"int": "digits"}`, `{"tuple": [..]}` or `{"str": ".."}`.
pub fn position_to_json(position: &ScriptPosition) -> Json {
    match position {
        ScriptPosition::Int(heap) => json!({ "int": heap.to_string() }),
        ScriptPosition::Big(heap) => json!({ "int": heap.to_string() }),
        ScriptPosition::Tuple(entries) => json!({ "tuple": entries }),
        ScriptPosition::Str(text) => json!({ "str": text }),
    }
}

/// Reads [`position_to_json`] back.
pub fn position_from_json(value: &Json) -> anyhow::Result<ScriptPosition> {
    if let Some(digits) = value.get("int").and_then(Json::as_str) {
        let heap: BigUint = digits.parse().map_err(|_| anyhow::anyhow!("worker protocol: bad int `{digits}`"))?;
        return Ok(ScriptPosition::from_heap(heap));
    }
    if let Some(entries) = value.get("tuple").and_then(Json::as_array) {
        let entries: Option<Vec<i64>> = entries.iter().map(Json::as_i64).collect();
        return entries.map(ScriptPosition::Tuple).ok_or_else(|| anyhow::anyhow!("worker protocol: bad tuple"));
    }
    if let Some(text) = value.get("str").and_then(Json::as_str) {
        return Ok(ScriptPosition::Str(text.to_owned()));
    }
    anyhow::bail!("worker protocol: `{value}` is not a position")
}

/// A list of positions from a JSON array.
pub fn positions_from_json(value: &Json) -> anyhow::Result<Vec<ScriptPosition>> {
    value
        .as_array()
        .ok_or_else(|| anyhow::anyhow!("worker protocol: expected a list of positions"))?
        .iter()
        .map(position_from_json)
        .collect()
}

/// A value as JSON: `{"value": "digits"}` or `{"infinite": [..]}`.
pub fn value_to_json(value: &Value) -> Json {
    match value {
        Value::Finite(number) => json!({ "value": number.to_string() }),
        Value::Infinite { reachable } => json!({ "infinite": reachable }),
    }
}

/// Reads [`value_to_json`] back.
pub fn value_from_json(value: &Json) -> anyhow::Result<Value> {
    if let Some(digits) = value.get("value").and_then(Json::as_str) {
        let number: BigUint = digits.parse().map_err(|_| anyhow::anyhow!("worker protocol: bad value `{digits}`"))?;
        return Ok(Value::Finite(number));
    }
    if let Some(reachable) = value.get("infinite").and_then(Json::as_array) {
        let reachable: Option<Vec<u64>> = reachable.iter().map(Json::as_u64).collect();
        return reachable
            .map(|reachable| Value::Infinite { reachable })
            .ok_or_else(|| anyhow::anyhow!("worker protocol: bad ∞ value"));
    }
    anyhow::bail!("worker protocol: `{value}` is not a value")
}

/// A formula's answer as JSON: `{"value": "digits"}` or `{"outcome": "N"}`.
pub fn answer_to_json(answer: &FormulaAnswer) -> Json {
    match answer {
        FormulaAnswer::Value(number) => json!({ "value": number.to_string() }),
        FormulaAnswer::Outcome(outcome) => json!({ "outcome": outcome.to_string() }),
    }
}

/// Reads [`answer_to_json`] back.
pub fn answer_from_json(value: &Json) -> anyhow::Result<FormulaAnswer> {
    if let Some(digits) = value.get("value").and_then(Json::as_str) {
        let number: BigUint = digits.parse().map_err(|_| anyhow::anyhow!("worker protocol: bad value `{digits}`"))?;
        return Ok(FormulaAnswer::Value(number));
    }
    match value.get("outcome").and_then(Json::as_str) {
        Some("N") => Ok(FormulaAnswer::Outcome(grundy::Outcome::N)),
        Some("P") => Ok(FormulaAnswer::Outcome(grundy::Outcome::P)),
        _ => anyhow::bail!("worker protocol: `{value}` is not a formula's answer"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_values_round_trip() {
        let positions = [
            ScriptPosition::Int(7),
            ScriptPosition::from_heap("123456789012345678901234567890".parse().unwrap()),
            ScriptPosition::Tuple(vec![-1, 2]),
            ScriptPosition::Str("a\"b\n".to_owned()),
        ];
        for position in positions {
            assert_eq!(position_from_json(&position_to_json(&position)).unwrap(), position);
        }
        for answer in [
            FormulaAnswer::Value(7u32.into()),
            FormulaAnswer::Outcome(grundy::Outcome::N),
            FormulaAnswer::Outcome(grundy::Outcome::P),
        ] {
            assert_eq!(answer_from_json(&answer_to_json(&answer)).unwrap(), answer);
        }
        for value in [Value::from(5u64), Value::Infinite { reachable: vec![0, 3] }] {
            assert_eq!(value_from_json(&value_to_json(&value)).unwrap(), value);
        }
    }
}
