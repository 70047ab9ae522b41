//! Game texts: `nim`, `bash:M`, `sub:S`, … parsed into a [`Ruleset`].
//!
//! A game is one word: a family name, then for most families a colon and the parameters.
//! [`game_forms`] lists every form with its syntax and an example (the `grundy rules` command).

use crate::error::GameError;
use crate::graph::dag::DagGame;
use crate::graph::geography::GeographyGame;
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
        GameForm {
            syntax: "dag:FILE",
            example: "value dag:g.txt a b b",
            component: "a vertex name (a token on it; several tokens may share a vertex)",
            summary: "slide one token along one edge `u v` of the directed graph in FILE (one edge per line, # comments); cycles allowed: values ∞(K) and draws D",
        },
        GameForm {
            syntax: "geography:FILE",
            example: "outcome geography:g.txt a",
            component: "the token's vertex `v`, or the path so far `v1,v2,v3` (token on v3)",
            summary: "move the one token to an adjacent unvisited vertex of the undirected graph in FILE; wins iff every maximum matching covers the token's vertex",
        },
        GameForm {
            syntax: "wythoff",
            example: "outcome wythoff 4,7",
            component: "a pair of heaps x,y, any number of digits",
            summary: "take any positive number from one heap, or the same positive number from both",
        },
        GameForm {
            syntax: "coins:turtles | coins:mock-turtles | coins:ruler | coins:twins",
            example: "value coins:mock-turtles HTTHTHTTH",
            component: "a heads coin's number (coins numbered from 1, leftmost), or a whole row of H/T letters (coin 1 leftmost); all lie on one row, so a coin named twice is tails",
            summary: "a row of coins; a move turns over coins allowed by the rule, the rightmost going heads to tails. turtles: one or two coins (coin n is worth n); mock-turtles: one, two or three (the n-th odious number 1 2 4 7 8 ...); ruler: any run of consecutive coins ending at the heads coin (the largest power of 2 dividing n); twins: exactly two (n - 1)",
        },
        GameForm {
            syntax: "coins:turn=SET[;consecutive][;within=K]",
            example: "value coins:turn=1..3 1 4 6 9",
            component: "as coins:turtles",
            summary: "your own rule. turn=SET: how many coins a move turns in all, the heads coin included; SET lists numbers and ranges: 2, 1..3 (ends included), 2.. (no end), 1,4; 0 may be written and allows nothing, so 0.. means any number. others=SET instead counts the coins besides the heads coin (others=0..2 is turn=1..3). consecutive: the coins form one run ending at the heads coin. within=K: the others lie at most K places left of it. coins:turn=1..3 is mock-turtles, coins:turn=0..;consecutive is ruler",
        },
        GameForm {
            syntax: "corners",
            example: "value corners 3,5",
            component: "a heads x,y on a grid, rows and columns numbered from 0",
            summary: "Turning Corners: turn the four corners of a rectangle whose lower-right corner (x,y) goes heads to tails; a heads at (x,y) is worth the nim-product x*y (it is product:twins*twins)",
        },
        GameForm {
            syntax: "product:A*B",
            example: "value product:ruler*mock-turtles 3,2",
            component: "a heads x,y; coordinate x is coin x+1 of row game A, y coin y+1 of B (both from 0)",
            summary: "the Tartan product of two coin rules A and B (names or turn=... rules): a move turns S x T for a move S of A ending at x and a move T of B ending at y, (x,y) going heads to tails; (x,y) is worth G_A(x+1) nim-times G_B(y+1)",
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
        "dag" | "geography" => {
            let file = parameters.filter(|file| !file.is_empty()).ok_or_else(|| needs(&format!("{family}:FILE")))?;
            let contents = read_file(file).map_err(|reason| GameError::BadGame { spec: text.to_owned(), reason })?;
            if family == "dag" {
                Ok(Box::new(DagGame::parse(text, file, &contents)?))
            } else {
                Ok(Box::new(GeographyGame::parse(text, file, &contents)?))
            }
        }
        "wythoff" => no_parameters(Box::new(crate::wythoff::WythoffRules::new())),
        "coins" => {
            let rule = crate::coins::rule::CoinRule::parse(text, parameters.ok_or_else(|| needs("coins:RULE"))?)?;
            Ok(Box::new(crate::coins::CoinsRules::new(rule)))
        }
        "corners" => no_parameters(Box::new(crate::coins::product::ProductRules::corners())),
        "product" => Ok(Box::new(crate::coins::product::ProductRules::parse(
            text,
            parameters.ok_or_else(|| needs("product:A*B"))?,
        )?)),
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
