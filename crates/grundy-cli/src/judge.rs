//! Contest problems' own input and answers (`--input-format NAME|FILE`): `value` and `outcome`
//! read a judge's input file from standard input and answer each test as the judge expects;
//! `check --program` writes its tests in the format (see `commands/check.rs`). The format
//! itself is the library's [`grundy::judge_format`].

use crate::games::{PositionArgs, parse_position, resolve};
use crate::input::read_text_limited;
use crate::output::print;
use grundy::control::Control;
use grundy::judge_format::{BUILTIN_FORMATS, JudgeFormat, builtin};
use grundy::registry::PLUS;
use grundy::ruleset::Ruleset;
use grundy::sum::Position;
use std::collections::HashMap;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

/// The position arguments of `value` and `outcome`: a position as everywhere, or, with
/// `--input-format`, a judge's input file on standard input.
#[derive(clap::Args, Debug)]
pub struct PositionOrJudgeInput {
    /// The game, then the components of the position (heap sizes, pairs x,y, …); a lone `+`
    /// starts another game's part (`nim 3 + wythoff 4,7`). With no component, one position
    /// a line is read from standard input. With --input-format: only GAME, and only when the
    /// format names no game.
    #[arg(required_unless_present = "input_format", num_args = 1.., allow_negative_numbers = true, value_name = "GAME [COMPONENT]... [+ GAME [COMPONENT]...]")]
    words: Vec<String>,
    #[arg(long, value_name = "NAME|FILE", help = input_format_help(
        "Read a judge's input file from standard input in this format and answer every test in the judge's words"
    ))]
    input_format: Option<String>,
}

/// The help of an `--input-format` option: what it does, then every built-in format by name
/// (read from the list of formats, so that none is left out).
pub fn input_format_help(what: &str) -> String {
    let names: Vec<&str> = BUILTIN_FORMATS.iter().map(|(name, _, _)| *name).collect();
    format!(
        "{what}: a built-in format ({}; `grundy rules` says what each reads) or a format file (README: \"Contest problems\")",
        names.join(", ")
    )
}

/// Where `value` and `outcome` take their positions from.
pub enum Source {
    /// The command line or stdin's lines, as every position command.
    Positions(PositionArgs),
    /// A judge's input file on stdin, in this format; the command line's GAME, if any.
    Judge(Box<JudgeFormat>, Option<String>),
}

impl PositionOrJudgeInput {
    pub fn source(self) -> anyhow::Result<Source> {
        let Some(spec) = self.input_format else {
            return Ok(Source::Positions(PositionArgs { words: self.words }));
        };
        let format = load_format(&spec)?;
        match (self.words.as_slice(), format.names_its_game()) {
            ([], true) => Ok(Source::Judge(Box::new(format), None)),
            ([game], false) => Ok(Source::Judge(Box::new(format), Some(game.clone()))),
            ([], false) => anyhow::bail!(
                "--input-format {spec} names no game (no `game` line): give the GAME word (`grundy outcome nim --input-format {spec}`)"
            ),
            ([_], true) => {
                anyhow::bail!("--input-format {spec} names its own game (a `game` line): give no GAME word with it")
            }
            _ => anyhow::bail!(
                "with --input-format the positions come from standard input: give at most the GAME word, no components"
            ),
        }
    }
}

/// The longest format file read.
const FORMAT_FILE_LIMIT: u64 = 64 << 10;
/// The largest judge's input read from stdin (a test file of 10^6 numbers of 10 digits fits).
const JUDGE_INPUT_LIMIT: u64 = 256 << 20;

/// A built-in format by name, or a format file.
pub fn load_format(spec: &str) -> anyhow::Result<JudgeFormat> {
    let names = || BUILTIN_FORMATS.iter().map(|(name, _, _)| *name).collect::<Vec<_>>().join(", ");
    let text = match builtin(spec) {
        Some(text) => text.to_owned(),
        None if Path::new(spec).exists() => read_text_limited(Path::new(spec), FORMAT_FILE_LIMIT, 4096)
            .map_err(|error| anyhow::anyhow!("--input-format: {error}"))?,
        None => anyhow::bail!(
            "--input-format `{}`: neither a built-in format ({}) nor a file",
            grundy::error::quote(spec),
            names()
        ),
    };
    JudgeFormat::parse(without_byte_order_mark(&text))
        .map_err(|error| anyhow::anyhow!("--input-format {}: {error}", grundy::error::quote(spec)))
}

/// `text` without the byte order mark some editors on Windows put first (U+FEFF).
fn without_byte_order_mark(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The most game texts [`GameCache`] keeps: a format whose game text changes every test
/// (`sub:{S}`) would otherwise keep every set read.
const CACHED_GAMES: usize = 1024;

/// The games of a judge's input, each built once from its text: an input repeats its game
/// text in every test (poj-1067: 10^5 lines of `wythoff`), and building a game from its text
/// costs more than answering a test. Its games compute under `control`.
struct GameCache<'a> {
    games: HashMap<String, Arc<dyn Ruleset>>,
    control: &'a Control,
}

impl<'a> GameCache<'a> {
    fn new(control: &'a Control) -> Self {
        GameCache { games: HashMap::new(), control }
    }

    /// The position of `words` (a GAME word and its components), its game taken from the
    /// cache; a sum (`+`) is read as the command line reads it.
    fn position(&mut self, words: &[&str]) -> anyhow::Result<Position> {
        let [game_word, components @ ..] = words else {
            return parse_position(words, self.control);
        };
        if components.contains(&PLUS) || *game_word == PLUS {
            return parse_position(words, self.control);
        }
        let ruleset = match self.games.get(*game_word) {
            Some(ruleset) => ruleset.clone(),
            None => {
                let ruleset = resolve(game_word, self.control)?;
                if self.games.len() >= CACHED_GAMES {
                    self.games.clear();
                }
                self.games.insert((*game_word).to_owned(), ruleset.clone());
                ruleset
            }
        };
        Ok(Position::parse_single(ruleset, components)?)
    }
}

/// How much answer text is gathered before it is written: one write a test cost more than
/// answering it.
const ANSWER_BUFFER: usize = 64 << 10;

/// Reads the judge's input from stdin and prints, in order, what `answer` makes of each test's
/// position and its number from 1 (its lines, each ending with a newline), written in large pieces. A test that is
/// not a position of its game stops the run, naming the test and its line, after the answers
/// before it are printed. The games compute under `control`.
pub fn for_each_test(
    format: &JudgeFormat,
    game: Option<&str>,
    control: &Control,
    mut answer: impl FnMut(&Position, usize) -> anyhow::Result<String>,
) -> anyhow::Result<()> {
    let mut bytes = Vec::new();
    std::io::stdin().lock().take(JUDGE_INPUT_LIMIT + 1).read_to_end(&mut bytes)?;
    // A signal during the reading stops the run, even when the input ended before the
    // watchdog would (its writer stopped by the same Ctrl-C): 128 + the signal, no answers.
    crate::games::stop_if_signalled("reading the judge's input")?;
    if bytes.len() as u64 > JUDGE_INPUT_LIMIT {
        anyhow::bail!("standard input holds more than 256 MiB, the most a judge's input may be here");
    }
    let input = String::from_utf8(bytes).map_err(|error| {
        anyhow::anyhow!("standard input is not UTF-8 text (byte {} is not valid)", error.utf8_error().valid_up_to())
    })?;
    let mut games = GameCache::new(control);
    let mut answers = String::new();
    let mut answer_each = || -> anyhow::Result<()> {
        for (index, case) in format.read(without_byte_order_mark(&input))?.iter().enumerate() {
            let game_word = case
                .game
                .as_deref()
                .or(game)
                .ok_or_else(|| anyhow::anyhow!("the format names no game: give the GAME word"))?;
            let mut words = vec![game_word];
            words.extend(case.components.iter().map(String::as_str));
            let position = games
                .position(&words)
                .map_err(|error| anyhow::anyhow!("test {} (input line {}): {error}", index + 1, case.line))?;
            answers.push_str(&answer(&position, index + 1)?);
            if index % 4096 == 4095 {
                crate::games::stop_if_signalled("answering the judge's input")?;
            }
            if answers.len() >= ANSWER_BUFFER {
                print(&answers)?;
                answers.clear();
            }
        }
        Ok(())
    };
    let answered = answer_each();
    print(&answers)?;
    answered?;
    crate::games::stop_if_signalled("answering the judge's input")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_text_is_built_once() {
        let control = Control::default();
        let mut games = GameCache::new(&control);
        let first = games.position(&["wythoff", "3,5"]).unwrap();
        let second = games.position(&["wythoff", "8,13"]).unwrap();
        assert!(Arc::ptr_eq(&first.parts[0].game, &second.parts[0].game));
        let other = games.position(&["sub:1,2", "7"]).unwrap();
        assert_eq!(other.parts[0].game.spec(), "sub:1,2");
        assert_eq!(games.games.len(), 2);
        // A sum is read as the command line reads it.
        let sum = games.position(&["nim", "3", "+", "wythoff", "1,2"]).unwrap();
        assert_eq!(sum.parts.len(), 2);
        assert!(games.position(&["wythoff", "x"]).is_err());
    }
}
