//! The parsing edge: the command line's GAME words and components (or standard input's lines)
//! into the library's typed [`Position`]. No other module reads component text.

use crate::input::{BoundedLines, STDIN_LINE_LIMIT, read_graph_file};
use grundy::control::Control;
use grundy::registry::{FrontEnd, PLUS, parse_game_in, parse_sum_in};
use grundy::ruleset::Ruleset;
use grundy::sum::Position;
use std::io::IsTerminal;
use std::sync::Arc;

/// The arguments every position command takes: a game and its components, `+` and another
/// game and its components, …; with no component, positions are read from standard input.
#[derive(clap::Args, Debug)]
pub struct PositionArgs {
    /// The game, then the components of the position (heap sizes, pairs x,y, …); a lone `+`
    /// starts another game's part (`nim 3 + wythoff 4,7`). With no component, one position
    /// a line is read from standard input.
    #[arg(required = true, num_args = 1.., allow_negative_numbers = true, value_name = "GAME [COMPONENT]... [+ GAME [COMPONENT]...]")]
    pub words: Vec<String>,
}

/// What the command line lends the parser: files read with limits, script games run in
/// watched worker processes, and the run's `control` (built in `run`, handed down by every
/// command), which every game it builds computes under.
pub fn front_end(control: &Control) -> FrontEnd<'static> {
    FrontEnd {
        read_file: &read_graph_file,
        script_host: Some(&crate::script_worker::host::WorkerHost),
        control: control.clone(),
    }
}

/// Parses one GAME word; the game computes under `control`.
pub fn resolve(game: &str, control: &Control) -> anyhow::Result<Arc<dyn Ruleset>> {
    Ok(parse_game_in(game, &front_end(control))?)
}

/// Parses a whole position: game words and components, `+` between the parts; its games
/// compute under `control`.
pub fn parse_position(words: &[&str], control: &Control) -> anyhow::Result<Position> {
    let position = match parse_sum_in(words, &front_end(control)) {
        Ok(position) => position,
        Err(error) => match brace_expanded(words) {
            Some(hint) => anyhow::bail!("{error}; {hint}"),
            None => return Err(error.into()),
        },
    };
    for part in words.split(|word| *word == PLUS) {
        if let Some(warning) = set_continued(part) {
            eprintln!("grundy: warning: {warning}");
        }
    }
    Ok(position)
}

/// A hint for a game word bash split by brace expansion: `sub:{2,5}` typed unquoted arrives as
/// the two words `sub:2 sub:5`, the second read as a component of the first. Found as a part
/// opening with two or more words that share the family's name and colon.
fn brace_expanded(words: &[&str]) -> Option<String> {
    words.split(|word| *word == PLUS).find_map(|part| {
        let (name, _) = part.first()?.split_once(':')?;
        let prefix_of = format!("{name}:");
        let run: Vec<&str> = part.iter().take_while(|word| word.starts_with(&prefix_of)).copied().collect();
        if run.len() < 2 {
            return None;
        }
        let common = |a: &str, b: &str, from_end: bool| {
            let pairs: Vec<(char, char)> = if from_end {
                a.chars().rev().zip(b.chars().rev()).collect()
            } else {
                a.chars().zip(b.chars()).collect()
            };
            pairs.iter().take_while(|(x, y)| x == y).count()
        };
        let shortest = run.iter().map(|word| word.chars().count()).min()?;
        let prefix = run.iter().map(|word| common(run[0], word, false)).min()?.max(prefix_of.len()).min(shortest);
        let suffix = run.iter().map(|word| common(run[0], word, true)).min()?.min(shortest - prefix);
        let middles: Vec<String> = run
            .iter()
            .map(|word| {
                let chars: Vec<char> = word.chars().collect();
                chars[prefix..chars.len() - suffix].iter().collect()
            })
            .collect();
        let chars: Vec<char> = run[0].chars().collect();
        let (head, tail): (String, String) =
            (chars[..prefix].iter().collect(), chars[chars.len() - suffix..].iter().collect());
        Some(format!(
            "`{}` reads like bash's brace expansion of `{head}{{{}}}{tail}`: quote it, '{head}{{{}}}{tail}' (or put `+` \
             between two games)",
            run.join(" "),
            middles.join(","),
            middles.join(","),
        ))
    })
}

/// A warning for a subtraction set that seems to go on past its word: `sub:1 3 4 5` is the
/// game `sub:1` with heaps 3, 4 and 5, though the heaps read like more of the set (two or
/// more, rising, all above the set's largest move).
fn set_continued(part: &[&str]) -> Option<String> {
    let (game, components) = part.split_first()?;
    let set = game.strip_prefix("sub:")?;
    let largest = set.split(',').map(|entry| entry.trim().parse::<u64>().ok()).collect::<Option<Vec<u64>>>()?;
    let largest = largest.into_iter().max()?;
    let heaps = components.iter().map(|word| word.parse::<u64>().ok()).collect::<Option<Vec<u64>>>()?;
    let rising = heaps.len() >= 2 && heaps[0] > largest && heaps.windows(2).all(|pair| pair[0] < pair[1]);
    rising.then(|| {
        let joined = components.join(" ");
        format!(
            "`{game} {joined}` is the game `{game}` with heaps {joined}; if the numbers after it belong to the set, \
             join them with commas (`{game},{}` and then the heaps)",
            components.join(",")
        )
    })
}

/// Where the positions of a command come from.
pub enum Positions {
    /// The command line's.
    One(Position),
    /// Standard input's lines, for this game.
    Lines(Arc<dyn Ruleset>),
}

impl PositionArgs {
    /// The position on the command line, or the game whose positions come from stdin; its
    /// games compute under `control`.
    pub fn positions(&self, control: &Control) -> anyhow::Result<Positions> {
        let words: Vec<&str> = self.words.iter().map(String::as_str).collect();
        if let [game] = words.as_slice()
            && *game != PLUS
        {
            let ruleset = resolve(game, control)?;
            if std::io::stdin().is_terminal() {
                anyhow::bail!(
                    "no position given: write its components after the game (`grundy value {game} 3 4 5`), or pipe one position a line into standard input"
                );
            }
            return Ok(Positions::Lines(ruleset));
        }
        Ok(Positions::One(parse_position(&words, control)?))
    }
}

/// Answers every position of `positions` with `answer` (which prints its own line); a bad
/// stdin line is reported with its number and the rest still answered, and the command then
/// fails with [`crate::output::Stop::BadLines`].
/// `Err(Stop::Interrupted)` once a signal has been received, naming what it stopped.
///
/// # Errors
/// That one.
pub fn stop_if_signalled(doing: &str) -> anyhow::Result<()> {
    match crate::signals::received() {
        Some(signal) => Err(anyhow::Error::new(crate::output::Stop::Interrupted(format!(
            "stopped by {} while {doing}",
            crate::signals::name(signal)
        )))),
        None => Ok(()),
    }
}

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
    let mut lines = BoundedLines::new(stdin.lock(), STDIN_LINE_LIMIT);
    let (mut number, mut answered, mut bad) = (0usize, 0usize, 0usize);
    loop {
        let next = lines.next_line()?;
        // A signal stops the run even when a line or the end of input comes before the
        // watchdog would (a pipeline whose writer Ctrl-C ended too): 128 + the signal.
        stop_if_signalled("reading positions from standard input")?;
        let Some(line) = next else { break };
        number += 1;
        let result = (|| -> anyhow::Result<Option<()>> {
            let text = line.into_text(STDIN_LINE_LIMIT).map_err(anyhow::Error::msg)?;
            let text = text.split('#').next().unwrap_or("").trim();
            if text.is_empty() {
                return Ok(None);
            }
            let words: Vec<&str> = text.split_whitespace().collect();
            answer(&Position::parse_single(ruleset.clone(), &words)?)?;
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
    }
    if answered == 0 && bad == 0 {
        anyhow::bail!("standard input held no position: write one position a line (components separated by spaces)");
    }
    if bad > 0 {
        return Err(crate::output::Stop::BadLines(bad).into());
    }
    Ok(())
}
