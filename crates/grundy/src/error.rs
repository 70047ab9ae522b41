//! The library's one error type.

/// Everything that can go wrong when a game or position is parsed or evaluated.
///
/// Every variant names the offending text, so that a front end can print it as one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game text names no known family.
    #[error("unknown game `{text}`{}; `grundy rules` lists every game form", suggestion.as_ref().map(|near| format!("; did you mean `{near}`?")).unwrap_or_default())]
    UnknownGame {
        /// The game word as written.
        text: String,
        /// The nearest known game word, when one is close.
        suggestion: Option<String>,
    },
    /// The game text names a family but its parameters are wrong.
    #[error("bad game `{spec}`: {reason}")]
    BadGame {
        /// The whole game text.
        spec: String,
        /// What is wrong, naming the offending part.
        reason: String,
    },
    /// A component (a heap, a pair, a vertex, a coin row) does not parse or is out of range.
    #[error("bad position `{text}` for {game}: {reason}")]
    BadComponent {
        /// The game, as written.
        game: String,
        /// The component's text.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// A table the computation needs would not fit in memory.
    #[error("{what} would need about {} of memory, more than the {} allowed", human_bytes(*.bytes_needed), human_bytes(*.limit))]
    TooLarge {
        /// What would be computed.
        what: String,
        /// The estimate.
        bytes_needed: u128,
        /// The limit in force.
        limit: u128,
    },
    /// The game graph has a cycle, which the solver for finite games cannot evaluate.
    #[error("the game is loopy: position {position} can be reached from itself")]
    Cycle {
        /// A position on the cycle.
        position: String,
    },
    /// The question has no answer for this game (for example a Grundy value where only the
    /// outcome is defined).
    #[error("{0}")]
    Unsupported(String),
    /// The answer exists but is beyond what this family can compute (the Grundy value of a
    /// huge Wythoff pair, of a large geography region); the message says what does answer.
    #[error("{0}")]
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
    #[error("`{component}` in {game} has more than {limit} moves: too many to list")]
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

/// The memory a single table may take before the library refuses to build it.
pub const MEMORY_LIMIT: u128 = 12 << 30;

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

/// Refuses a table of `entries` entries of `bytes_each` bytes when it would pass
/// [`MEMORY_LIMIT`].
pub fn check_memory(what: impl FnOnce() -> String, entries: u128, bytes_each: u128) -> Result<(), GameError> {
    let bytes_needed = entries.saturating_mul(bytes_each);
    if bytes_needed > MEMORY_LIMIT {
        return Err(GameError::TooLarge { what: what(), bytes_needed, limit: MEMORY_LIMIT });
    }
    Ok(())
}

/// Quotes a piece of input in an error: all of it when short, else its first 60 characters
/// and how long the rest was, so that a huge input never makes a huge message.
///
/// ```
/// use grundy::error::quote;
/// assert_eq!(quote("kayls"), "kayls");
/// assert_eq!(quote(&"x".repeat(100)), format!("{}… (40 more characters)", "x".repeat(60)));
/// ```
pub fn quote(text: &str) -> String {
    const SHOWN: usize = 60;
    match text.char_indices().nth(SHOWN) {
        None => text.to_owned(),
        Some((cut, _)) => format!("{}… ({} more characters)", &text[..cut], text[cut..].chars().count()),
    }
}
