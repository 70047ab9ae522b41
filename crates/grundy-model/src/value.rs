//! The answer types: [`Outcome`] and [`Value`].

use num_bigint::BigUint;
use std::fmt;
use std::str::FromStr;

/// Who wins a position with perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Outcome {
    /// The player to move (the *N*ext player) wins.
    N,
    /// The player to move loses: the *P*revious player wins.
    P,
    /// Neither player can force a win (loopy games only): a draw.
    D,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::N => "N",
            Outcome::P => "P",
            Outcome::D => "D",
        })
    }
}

/// The error when a text is not an outcome.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not an outcome (expected N, P or D)")]
pub struct ParseOutcomeError(pub String);

impl FromStr for Outcome {
    type Err = ParseOutcomeError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "N" => Ok(Outcome::N),
            "P" => Ok(Outcome::P),
            "D" => Ok(Outcome::D),
            _ => Err(ParseOutcomeError(text.to_owned())),
        }
    }
}

/// The value of a position: a Grundy value of any size, or, for a position of a loopy game
/// from which play can go on forever, `∞` with the finite values it can move to (Smith's
/// generalized Sprague–Grundy function).
///
/// ```
/// use grundy_model::{Outcome, Value};
/// let value = Value::from(6u64);
/// assert_eq!(value.to_string(), "6");
/// assert_eq!(value.outcome(), Outcome::N);
/// let loopy = Value::Infinite { reachable: vec![0, 2] };
/// assert_eq!(loopy.to_string(), "∞(0,2)");
/// assert_eq!(loopy.outcome(), Outcome::N);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A finite Grundy value (nim-heaps of hundreds of digits have values that large).
    Finite(BigUint),
    /// `∞(K)`: the position can avoid ending; `reachable` is the sorted set `K` of finite values
    /// among its options.
    Infinite {
        /// The finite values of the options, sorted, without repeats.
        reachable: Vec<u64>,
    },
}

impl Value {
    /// The outcome the value implies: `P` for 0, `N` for another finite value or `∞(K)` with
    /// `0 ∈ K`, else `D`.
    pub fn outcome(&self) -> Outcome {
        match self {
            Value::Finite(value) if *value == BigUint::ZERO => Outcome::P,
            Value::Finite(_) => Outcome::N,
            Value::Infinite { reachable } if reachable.contains(&0) => Outcome::N,
            Value::Infinite { .. } => Outcome::D,
        }
    }

    /// The finite value, if it is finite.
    pub fn finite(&self) -> Option<&BigUint> {
        match self {
            Value::Finite(value) => Some(value),
            Value::Infinite { .. } => None,
        }
    }
}

impl From<u64> for Value {
    fn from(value: u64) -> Self {
        Value::Finite(BigUint::from(value))
    }
}

impl From<BigUint> for Value {
    fn from(value: BigUint) -> Self {
        Value::Finite(value)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Finite(value) => write!(f, "{value}"),
            Value::Infinite { reachable } => {
                let list: Vec<String> = reachable.iter().map(u64::to_string).collect();
                write!(f, "∞({})", list.join(","))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_round_trips() {
        for outcome in [Outcome::N, Outcome::P, Outcome::D] {
            assert_eq!(outcome.to_string().parse::<Outcome>(), Ok(outcome));
        }
        assert!("X".parse::<Outcome>().is_err());
    }

    #[test]
    fn outcome_of_values() {
        assert_eq!(Value::from(0u64).outcome(), Outcome::P);
        assert_eq!(Value::Infinite { reachable: vec![1, 3] }.outcome(), Outcome::D);
        assert_eq!(Value::Infinite { reachable: vec![] }.outcome(), Outcome::D);
    }
}
