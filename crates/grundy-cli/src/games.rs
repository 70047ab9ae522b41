//! The parsing edge: the command line's GAME words and components (or standard input's lines)
//! into the library's typed [`Position`]. No other module reads component text.

use grundy::registry::{PLUS, parse_game_with, parse_sum_with};
use grundy::ruleset::Ruleset;
use grundy::sum::Position;
use std::io::{BufRead, IsTerminal, Read};
use std::sync::Arc;

/// The largest graph file read (a graph of a few million edges fits well within it).
pub const MAX_FILE_BYTES: u64 = 256 << 20;
/// The longest line read from standard input.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The arguments every position command takes: a game and its components, `+` and another
/// game and its components, …; with no component, positions are read from standard input.
#[derive(clap::Args, Debug)]
pub struct PositionArgs {
    /// The game, then the components of the position (heap sizes, pairs x,y, …); a lone `+`
    /// starts another game's part (`nim 3 + wythoff 4,7`). With no component, one position
    /// a line is read from standard input.
    #[arg(required = true, num_args = 1.., allow_negative_numbers = true, value_name = "GAME [COMPONENT]... [+ GAME [COMPONENT]...]")]
    pub words: Vec<String>,
    /// Print JSON instead of text (one object; one a line for positions from standard input).
    #[arg(long)]
    pub json: bool,
}

/// Reads a file named in a game word, up to [`MAX_FILE_BYTES`].
pub fn read_file(path: &str) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|error| format!("cannot read `{path}`: {error}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(|error| format!("cannot read `{path}`: {error}"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!("`{path}` is larger than the {} MiB a game file may have", MAX_FILE_BYTES >> 20));
    }
    String::from_utf8(bytes).map_err(|_| format!("`{path}` is not UTF-8 text"))
}

/// Parses one GAME word.
pub fn resolve(game: &str) -> anyhow::Result<Arc<dyn Ruleset>> {
    Ok(parse_game_with(game, &read_file)?)
}

/// Where the positions of a command come from.
pub enum Positions {
    /// The command line's.
    One(Position),
    /// Standard input's lines, for this game.
    Lines(Arc<dyn Ruleset>),
}

impl PositionArgs {
    /// The position on the command line, or the game whose positions come from stdin.
    pub fn positions(&self) -> anyhow::Result<Positions> {
        let words: Vec<&str> = self.words.iter().map(String::as_str).collect();
        if let [game] = words.as_slice()
            && *game != PLUS
        {
            let ruleset = resolve(game)?;
            if std::io::stdin().is_terminal() {
                anyhow::bail!(
                    "no position given: write its components after the game (`grundy value {game} 3 4 5`), or pipe one position a line into standard input"
                );
            }
            return Ok(Positions::Lines(ruleset));
        }
        Ok(Positions::One(parse_sum_with(&words, &read_file)?))
    }

    /// Takes `flag` out of the position's words (written after `--`, it reaches them); whether
    /// it was there.
    pub fn take_flag(&mut self, flag: &str) -> bool {
        let before = self.words.len();
        self.words.retain(|word| word != flag);
        self.words.len() != before
    }

    /// Takes `--json` out of the words into [`PositionArgs::json`], and turns JSON errors on.
    pub fn settle(&mut self) {
        self.json |= self.take_flag("--json");
        crate::output::json_errors(self.json);
    }
}

/// Answers every position of `positions` with `answer` (which prints its own line); a bad
/// stdin line is reported with its number and the rest still answered, and the command then
/// fails with [`crate::output::Stop::BadLines`].
pub fn for_each_position(
    positions: Positions,
    json: bool,
    mut answer: impl FnMut(&Position) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let ruleset = match positions {
        Positions::One(position) => return answer(&position),
        Positions::Lines(ruleset) => ruleset,
    };
    let stdin = std::io::stdin();
    let mut reader = stdin.lock();
    let mut line = Vec::new();
    let (mut number, mut answered, mut bad) = (0usize, 0usize, 0usize);
    loop {
        line.clear();
        number += 1;
        let read = (&mut reader).take(MAX_LINE_BYTES as u64 + 1).read_until(b'\n', &mut line)?;
        if read == 0 {
            break;
        }
        let result = (|| -> anyhow::Result<Option<()>> {
            if line.len() > MAX_LINE_BYTES && !line.ends_with(b"\n") {
                anyhow::bail!("the line is longer than {MAX_LINE_BYTES} bytes");
            }
            let text = std::str::from_utf8(&line).map_err(|_| anyhow::anyhow!("the line is not UTF-8 text"))?;
            let text = text.split('#').next().unwrap_or("").trim();
            if text.is_empty() {
                return Ok(None);
            }
            let components =
                text.split_whitespace().map(|word| ruleset.parse_component(word)).collect::<Result<Vec<_>, _>>()?;
            answer(&Position::single(ruleset.clone(), components))?;
            Ok(Some(()))
        })();
        match result {
            Ok(Some(())) => answered += 1,
            Ok(None) => {}
            Err(error) if error.downcast_ref::<crate::output::Stop>().is_some() => return Err(error),
            Err(error) => {
                bad += 1;
                crate::output::report_line_error(number, &error, json)?;
            }
        }
        if line.len() > MAX_LINE_BYTES {
            // Skip the rest of an overlong line.
            let mut rest = Vec::new();
            while (&mut reader).take(MAX_LINE_BYTES as u64).read_until(b'\n', &mut rest)? > 0 && !rest.ends_with(b"\n")
            {
                rest.clear();
            }
        }
    }
    if answered == 0 && bad == 0 {
        anyhow::bail!("standard input held no position: write one position a line (components separated by spaces)");
    }
    if bad > 0 {
        return Err(crate::output::Stop::BadLines(bad).into());
    }
    Ok(())
}
