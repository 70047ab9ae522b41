//! The library's one error type.

/// Everything that can go wrong when a game or position is parsed or evaluated.
///
/// Every variant names the offending text, so that a front end can print it as one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game text names no known family.
    #[error("unknown game `{}`{}; `grundy rules` lists every game form", quote(text), suggestion.as_ref().map(|near| format!(" (did you mean `{near}`?)")).unwrap_or_default())]
    UnknownGame {
        /// The game word as written.
        text: String,
        /// The nearest known game word, when one is close.
        suggestion: Option<String>,
    },
    /// The game text names a family but its parameters are wrong.
    #[error("bad game `{}`: {}", quote(spec), shorten(reason, REASON_CHARS))]
    BadGame {
        /// The whole game text.
        spec: String,
        /// What is wrong, naming the offending part.
        reason: String,
    },
    /// A component (a heap, a pair, a vertex, a coin row) does not parse or is out of range.
    #[error("bad position `{}` for {}: {}", quote(text), quote(game), shorten(reason, REASON_CHARS))]
    BadComponent {
        /// The game, as written.
        game: String,
        /// The component's text.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// A table the computation needs would not fit in memory.
    #[error(
        "{} would need about {} of memory, more than the {} allowed (set with --memory-limit)",
        shorten(what, REASON_CHARS),
        human_bytes(*.bytes_needed),
        human_bytes(*.limit)
    )]
    TooLarge {
        /// What would be computed.
        what: String,
        /// The estimate.
        bytes_needed: u128,
        /// The limit in force.
        limit: u128,
    },
    /// The game graph has a cycle, which the solver for finite games cannot evaluate.
    #[error("the game is loopy: position {} can be reached from itself", quote(position))]
    Cycle {
        /// A position on the cycle.
        position: String,
    },
    /// The question has no answer for this game (for example a Grundy value where only the
    /// outcome is defined).
    #[error("{}", shorten(.0, REASON_CHARS))]
    Unsupported(String),
    /// The answer exists but is beyond what this family can compute (the Grundy value of a
    /// huge Wythoff pair, of a large geography region); the message says what does answer.
    #[error("{}", shorten(.0, REASON_CHARS))]
    OutOfReach(String),
    /// A census of a family of games was asked for with a bad option (`--digits 0..3`).
    #[error("bad census option {option} `{text}`: {reason}")]
    BadCensus {
        /// The option, as the command line spells it (`--digits`).
        option: String,
        /// Its value, as written.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// A component has more options than may be listed.
    #[error("`{}` in {} has more than {limit} moves: too many to list", quote(component), quote(game))]
    TooManyMoves {
        /// The game.
        game: String,
        /// The component, as written.
        component: String,
        /// The limit in force.
        limit: usize,
    },
}

impl GameError {
    /// A short name of the kind of error, for programs (`"bad_game"`, `"bad_component"`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            GameError::UnknownGame { .. } => "unknown_game",
            GameError::BadGame { .. } => "bad_game",
            GameError::BadComponent { .. } => "bad_component",
            GameError::TooLarge { .. } => "too_large",
            GameError::Cycle { .. } => "cycle",
            GameError::Unsupported(_) => "unsupported",
            GameError::OutOfReach(_) => "out_of_reach",
            GameError::TooManyMoves { .. } => "too_many_moves",
            GameError::BadCensus { .. } => "bad_census",
        }
    }
}

/// The memory limit of a [`Control`](crate::control::Control) unless its front end sets one:
/// 12 GiB, half of the 24 GiB machine this was written on. A front end should measure what its
/// process may really use (the grundy CLI reads `RLIMIT_AS`, the cgroup's `memory.max` and
/// `MemAvailable`).
pub const DEFAULT_MEMORY_LIMIT: u128 = 12 << 30;

/// `bytes` as a short human-readable size (`1.5 GiB`).
pub fn human_bytes(bytes: u128) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut size = bytes as f64;
    let mut unit = 0;
    while size >= 1024.0 && unit + 1 < UNITS.len() {
        size /= 1024.0;
        unit += 1;
    }
    if unit == 0 { format!("{bytes} B") } else { format!("{size:.1} {}", UNITS[unit]) }
}

/// How many characters of an offending text an error quotes.
pub const QUOTED_CHARS: usize = 60;
/// How many characters of a reason an error keeps (a reason may itself quote input).
const REASON_CHARS: usize = 1000;

/// `text` as an error quotes it: whole when it has at most [`QUOTED_CHARS`] characters,
/// otherwise its start and how much more there was, so that a megabyte of bad input gives a
/// one-line error. Control characters are shown escaped, so the line stays one line.
///
/// ```
/// use grundy_model::error::quote;
/// assert_eq!(quote("sub:2,0"), "sub:2,0");
/// let long = "1,".repeat(10_000);
/// let quoted = quote(&long);
/// assert!(quoted.len() < 120 && quoted.ends_with("(19940 more characters)"), "{quoted}");
/// assert_eq!(quote("a\nb"), "a\\nb");
/// ```
pub fn quote(text: &str) -> String {
    shorten(text, QUOTED_CHARS)
}

/// `text` cut to `keep` characters (as [`quote`] does).
fn shorten(text: &str, keep: usize) -> String {
    let mut shown = String::new();
    let mut count = 0usize;
    let mut chars = text.chars();
    for character in chars.by_ref() {
        if count >= keep {
            let rest = 1 + chars.count();
            return format!("{shown}… ({rest} more characters)");
        }
        // An escaped control character counts as the characters it is shown with.
        if character.is_control() {
            let escaped = character.escape_default();
            count += escaped.len();
            shown.extend(escaped);
        } else {
            shown.push(character);
            count += 1;
        }
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever the bad text, the message stays short and one line.
        #[test]
        fn messages_stay_short(text in ".{0,3000}", reason in ".{0,3000}") {
            for error in [
                GameError::UnknownGame { text: text.clone(), suggestion: None },
                GameError::BadGame { spec: text.clone(), reason: reason.clone() },
                GameError::BadComponent { game: text.clone(), text: text.clone(), reason: reason.clone() },
                GameError::Unsupported(reason.clone()),
                GameError::Cycle { position: text.clone() },
            ] {
                let message = error.to_string();
                prop_assert!(message.chars().count() < 3 * (QUOTED_CHARS + 40) + REASON_CHARS + 150, "{}", message);
                prop_assert!(!message.contains('\n'));
                let start: String = text.chars().take(QUOTED_CHARS).filter(|c| !c.is_control()).take(10).collect();
                if !matches!(error, GameError::Unsupported(_)) && !text.chars().take(10).any(char::is_control) {
                    prop_assert!(message.contains(&start), "{} does not quote {}", message, start);
                }
            }
        }
    }
}
