//! Game texts: `nim`, `bash:M`, `sub:S`, … parsed into a [`Ruleset`].
//!
//! A game is one word: a family name, then for most families a colon and the parameters.
//! [`game_forms`] lists every form with its syntax and an example (the `grundy rules` command).

use crate::error::GameError;
use crate::heap::HeapRules;
use crate::heap::bash::BashRules;
use crate::heap::grundys_game::GrundysGame;
use crate::heap::nim::NimRules;
use crate::heap::octal::{CodeBase, OctalGame};
use crate::heap::subtraction::SubtractionGame;
use crate::ruleset::{Ruleset, SumOf};

/// One game form: how it is written, an example, and what the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GameForm {
    /// The syntax, with parameters in capitals: `bash:M`.
    pub syntax: &'static str,
    /// A complete example command line after `grundy`.
    pub example: &'static str,
    /// What a component is written as.
    pub component: &'static str,
    /// The rules in one sentence.
    pub summary: &'static str,
}

/// Every game form this library knows.
pub fn game_forms() -> Vec<GameForm> {
    vec![
        GameForm {
            syntax: "nim",
            example: "value nim 3 4 5",
            component: "a heap size, any number of digits",
            summary: "take any positive number of counters from one heap",
        },
        GameForm {
            syntax: "bash:M",
            example: "outcome bash:3 10",
            component: "a heap size, any number of digits",
            summary: "take 1 to M counters from one heap (M >= 1)",
        },
        GameForm {
            syntax: "sub:S",
            example: "outcome sub:2,5 2 4 7",
            component: "a heap size",
            summary: "take s counters from one heap, s in the comma-separated set S of positive integers",
        },
        GameForm {
            syntax: "octal:CODE",
            example: "moves octal:0.137 7",
            component: "a heap size",
            summary: "octal game: digit d_k of CODE (k = counters removed, d_0 before the point) is a sum of \
                      1 (may take the whole heap), 2 (may leave one heap), 4 (may leave two non-empty heaps)",
        },
        GameForm {
            syntax: "hex:CODE",
            example: "value hex:0.8F 10",
            component: "a heap size",
            summary: "hexadecimal game: as octal:CODE with digits 0-F, where 8 means \
                      may leave three non-empty heaps",
        },
        GameForm {
            syntax: "kayles",
            example: "moves kayles 10",
            component: "a row of pins",
            summary: "Kayles (octal 0.77): knock down one pin or two adjacent pins from a row",
        },
        GameForm {
            syntax: "dawson",
            example: "outcome dawson 20",
            component: "a row of pins",
            summary: "Dawson's Kayles (octal 0.07): knock down two adjacent pins from a row",
        },
        GameForm {
            syntax: "grundys-game",
            example: "moves grundys-game 8",
            component: "a heap size",
            summary: "Grundy's game: split one heap into two non-empty heaps of different sizes",
        },
    ]
}

/// Parses a game text.
///
/// # Errors
/// [`GameError::UnknownGame`] for an unknown family, [`GameError::BadGame`] for bad parameters.
///
/// ```
/// use grundy::spec::parse_game;
/// let game = parse_game("sub:2,5").unwrap();
/// assert_eq!(game.spec(), "sub:2,5");
/// let position: Vec<String> = ["2", "4", "7"].map(String::from).to_vec();
/// assert_eq!(game.outcome(&position).unwrap().to_string(), "N");
/// assert!(parse_game("chess").is_err());
/// ```
pub fn parse_game(text: &str) -> Result<Box<dyn Ruleset>, GameError> {
    parse_game_with(text, &|path| Err(format!("cannot read `{path}`: this front end reads no files")))
}

/// Parses a game text whose parameters may name a file (`dag:FILE`, `geography:FILE`):
/// `read_file` returns the file's contents or a one-line reason it cannot. The library does no
/// I/O itself; the front end decides what reading a file means.
///
/// # Errors
/// As [`parse_game`], and a file that cannot be read or parsed.
pub fn parse_game_with(
    text: &str,
    read_file: &dyn Fn(&str) -> Result<String, String>,
) -> Result<Box<dyn Ruleset>, GameError> {
    let _ = read_file;
    let (family, parameters) = match text.split_once(':') {
        Some((family, parameters)) => (family, Some(parameters)),
        None => (text, None),
    };
    let no_parameters = |ruleset: Box<dyn Ruleset>| match parameters {
        None => Ok(ruleset),
        Some(_) => Err(GameError::BadGame { spec: text.to_owned(), reason: format!("`{family}` takes no parameters") }),
    };
    let needs = |form: &str| GameError::BadGame {
        spec: text.to_owned(),
        reason: format!("missing parameters: write `{form}`"),
    };
    match family {
        "nim" => no_parameters(Box::new(SumOf(NimRules))),
        "bash" => Ok(Box::new(SumOf(BashRules::parse(text, parameters.ok_or_else(|| needs("bash:M"))?)?))),
        "sub" => {
            let game = SubtractionGame::parse(text, parameters.ok_or_else(|| needs("sub:S"))?)?;
            Ok(Box::new(SumOf(HeapRules::new(game))))
        }
        "octal" | "hex" => {
            let base = if family == "octal" { CodeBase::Octal } else { CodeBase::Hexadecimal };
            let code = parameters.ok_or_else(|| needs(if family == "octal" { "octal:CODE" } else { "hex:CODE" }))?;
            Ok(Box::new(SumOf(HeapRules::new(OctalGame::parse(code, base)?))))
        }
        "kayles" => no_parameters(Box::new(SumOf(HeapRules::new(OctalGame::kayles())))),
        "dawson" => no_parameters(Box::new(SumOf(HeapRules::new(OctalGame::dawson())))),
        "grundys-game" => no_parameters(Box::new(SumOf(HeapRules::new(GrundysGame::new())))),
        _ => Err(GameError::UnknownGame(text.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_offending_text() {
        for (text, needle) in [
            ("chess", "chess"),
            ("nim:3", "no parameters"),
            ("bash", "bash:M"),
            ("bash:0", "M = 0"),
            ("bash:x", "`x`"),
            ("sub:", "empty"),
            ("sub:2,0", "`0`"),
            ("octal", "octal:CODE"),
            ("octal:0.", "no digits after the point"),
            ("octal:0.18", "`8` at position 4"),
            ("hex:0.1G", "`G` at position 4"),
            ("kayles:1", "no parameters"),
            ("grundys-game:2", "no parameters"),
        ] {
            let error = parse_game(text).err().expect(text).to_string();
            assert!(error.contains(needle), "{text}: {error}");
        }
    }
}
