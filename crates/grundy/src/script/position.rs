//! The positions of a script game, and their default text form.

use crate::error::GameError;
use num_bigint::BigUint;
use std::fmt;

/// One position of a script game, as `moves` receives and returns it.
///
/// A position is a heap (a non-negative integer of any size), a tuple of integers (a pair, a
/// row of heaps, a board; a Starlark list is read as a tuple) or a string.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScriptPosition {
    /// A heap that fits a `u64` (the common case, kept small).
    Int(u64),
    /// A heap past `u64::MAX`.
    Big(BigUint),
    /// A tuple of integers (each may be negative: a board may mark cells with -1).
    Tuple(Vec<i64>),
    /// A string.
    Str(String),
}

impl ScriptPosition {
    /// The heap size of an integer position, if it is one.
    pub fn as_heap(&self) -> Option<BigUint> {
        match self {
            ScriptPosition::Int(heap) => Some(BigUint::from(*heap)),
            ScriptPosition::Big(heap) => Some(heap.clone()),
            _ => None,
        }
    }

    /// The default way a position is read when the script has no `parse`: a non-negative
    /// integer of any size, or integers separated by commas (a tuple; `5,` is a tuple of one
    /// and `()` the empty tuple).
    ///
    /// ```
    /// use grundy::script::ScriptPosition;
    /// assert_eq!(ScriptPosition::parse_default("12", "g").unwrap(), ScriptPosition::Int(12));
    /// assert_eq!(ScriptPosition::parse_default("3,-1", "g").unwrap(), ScriptPosition::Tuple(vec![3, -1]));
    /// assert!(ScriptPosition::parse_default("-3", "g").is_err());
    /// ```
    ///
    /// # Errors
    /// [`GameError::BadComponent`] naming the text (`game` names the game in the message).
    pub fn parse_default(text: &str, game: &str) -> Result<ScriptPosition, GameError> {
        let bad = |reason: String| GameError::BadComponent { game: game.to_owned(), text: text.to_owned(), reason };
        let trimmed = text.trim();
        if trimmed == "()" {
            return Ok(ScriptPosition::Tuple(Vec::new()));
        }
        if trimmed.contains(',') {
            let body = trimmed.strip_suffix(',').filter(|body| !body.contains(',')).unwrap_or(trimmed);
            let mut entries = Vec::new();
            for part in body.split(',') {
                let part = part.trim();
                let entry: i64 = part.parse().map_err(|_| {
                    bad(format!(
                        "`{part}` is not an integer (a tuple is integers separated by commas, each from -2^63 to 2^63 - 1)"
                    ))
                })?;
                entries.push(entry);
            }
            return Ok(ScriptPosition::Tuple(entries));
        }
        if let Some(digits) = trimmed.strip_prefix('-')
            && !digits.is_empty()
            && digits.bytes().all(|byte| byte.is_ascii_digit())
        {
            return Err(bad("a heap cannot be negative".to_owned()));
        }
        if trimmed.is_empty() || !trimmed.bytes().all(|byte| byte.is_ascii_digit()) {
            return Err(bad(
                "not an integer or integers separated by commas (a script's `parse(text)` reads other forms)"
                    .to_owned(),
            ));
        }
        if trimmed.len() > 100_000 {
            return Err(bad("more than 100000 digits".to_owned()));
        }
        let heap: BigUint = trimmed.parse().map_err(|_| bad("not an integer".to_owned()))?;
        Ok(ScriptPosition::from_heap(heap))
    }

    /// The heap `heap`, as `Int` when it fits a `u64`.
    pub fn from_heap(heap: BigUint) -> ScriptPosition {
        match u64::try_from(&heap) {
            Ok(small) => ScriptPosition::Int(small),
            Err(_) => ScriptPosition::Big(heap),
        }
    }
}

impl crate::moves::MovesPosition for ScriptPosition {
    fn heap(heap: u64) -> Self {
        ScriptPosition::Int(heap)
    }

    fn as_small_heap(&self) -> Option<u64> {
        match self {
            ScriptPosition::Int(heap) => Some(*heap),
            _ => None,
        }
    }

    fn pair(x: u64, y: u64) -> Self {
        // Table sides stay far below 2^63 (`MAX_TABLE_SIDE`).
        ScriptPosition::Tuple(vec![x as i64, y as i64])
    }
}

/// The default text form, which [`ScriptPosition::parse_default`] reads back (strings print
/// as they are).
impl fmt::Display for ScriptPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScriptPosition::Int(heap) => write!(f, "{heap}"),
            ScriptPosition::Big(heap) => write!(f, "{heap}"),
            ScriptPosition::Tuple(entries) if entries.is_empty() => f.write_str("()"),
            ScriptPosition::Tuple(entries) if entries.len() == 1 => write!(f, "{},", entries[0]),
            ScriptPosition::Tuple(entries) => {
                let texts: Vec<String> = entries.iter().map(i64::to_string).collect();
                f.write_str(&texts.join(","))
            }
            ScriptPosition::Str(text) => f.write_str(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn number_position() -> impl Strategy<Value = ScriptPosition> {
        prop_oneof![
            any::<u64>().prop_map(ScriptPosition::Int),
            proptest::collection::vec(any::<u32>(), 3..6)
                .prop_map(|digits| ScriptPosition::from_heap(BigUint::new(digits) + BigUint::from(u64::MAX) + 1u32)),
            proptest::collection::vec(any::<i64>(), 0..6).prop_map(ScriptPosition::Tuple),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Every integer or tuple position prints in a form that parses back to itself.
        #[test]
        fn default_text_round_trips(position in number_position()) {
            let text = position.to_string();
            prop_assert_eq!(ScriptPosition::parse_default(&text, "g").unwrap(), position);
        }
    }

    #[test]
    fn default_parse_names_bad_text() {
        for text in ["", "x", "1,a", "-7", "1.5", "99999999999999999999,1"] {
            let error = ScriptPosition::parse_default(text, "script:g.star").unwrap_err().to_string();
            assert!(error.contains(&format!("`{text}`")), "{error}");
        }
        assert_eq!(ScriptPosition::parse_default(" 7 ", "g").unwrap(), ScriptPosition::Int(7));
        assert_eq!(ScriptPosition::parse_default("5,", "g").unwrap(), ScriptPosition::Tuple(vec![5]));
    }
}
