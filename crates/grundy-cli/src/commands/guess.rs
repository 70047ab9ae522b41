//! `grundy guess GAME [--to N] [--json] [--emit python|cpp]`

use crate::games::resolve;
use crate::output::{Stop, print, print_json};
use grundy::control::Control;
use grundy::guess::emit::{Language, emit};
use grundy::guess::{GuessAnswer, GuessOptions, guess_game_with};
use std::time::Duration;

/// How long computing values may take by default: the answer comes within about half a minute
/// (the fit and the check themselves take a small part of it).
const DEFAULT_BUDGET: Duration = Duration::from_secs(20);

/// Finds the pattern of a game's values (打表找规律: brute-force a table, find the pattern), checks it on positions the fit
/// never saw, and emits code a solution can paste.
#[derive(clap::Args, Debug)]
#[command(after_help = "Games: heap games (nim, bash:M, sub:S, octal:CODE, kayles, …, scripts on integers), \
two-heap games (wythoff, corners, product:A:B, e-and-d, king, euclid, scripts on pairs) and coin rows (coins:RULE: the value of one \
heads coin at place n). A pattern is `proved` only where a theorem proves it (the period prover's theorems for \
octal and subtraction games, tried first; Nim's and Bash's closed forms; Wythoff 1907, the Ruler game, Mock \
Turtles, the Tartan theorem, E&D's lowest-0-bit theorem and the corner king's theorem (HDU 2147) for the \
built-in games they cover); otherwise it is `checked` on every position \
up to M, never called proved. When nothing fits, it says so. By default the values are computed for at most \
about 20 s (a bar on a terminal shows how far): the answer says where the check stopped, and --check-to M checks \
to M whatever it costs.

Examples:
  grundy guess sub:1,3,4
  grundy guess kayles --json
  grundy guess wythoff --emit python
  grundy guess king
  grundy guess coins:mock-turtles --to 500
  grundy guess bash:3 --emit cpp
  grundy guess 'bash:{m}' --over m=1..30
  grundy guess 'sub:{a},{b}' --over a=1..4 --over b=5..8 --emit cpp")]
pub struct Args {
    /// The game: a heap game, a two-heap game or a coin rule.
    game: String,
    /// N: fit on positions up to N (heaps or coins 0..N; for a table, x, y ≤ N). The check
    /// then runs to M = 4N, at least 2N within the time budget (default N: 1000 for lines, 63
    /// for tables, less when the game's values are slow).
    #[arg(long, value_name = "N")]
    to: Option<u64>,
    /// M: check the pattern on every position up to M, however long it takes (no time budget).
    #[arg(long, value_name = "M")]
    check_to: Option<u64>,
    /// Print code instead: a Python module or C++ functions (C++98 and up) defining grundy_value(...)
    /// (when the pattern gives values) and is_p_position(...), one argument per heap.
    #[arg(long, value_name = "LANGUAGE", value_parser = ["python", "cpp"])]
    emit: Option<String>,
    /// A family: `{NAME}` in GAME (and in a script's source) takes every value from A to B;
    /// repeat for more parameters (`sub:{a},{b} --over a=1..6 --over b=7..12`).
    #[arg(long, value_name = "NAME=A..B")]
    over: Vec<String>,
}

pub fn run(args: Args, json: bool, control: &Control) -> anyhow::Result<()> {
    if let Some(to) = args.to
        && to < 8
    {
        anyhow::bail!("--to {to} is too few positions to fit a pattern on: give at least 8");
    }
    if !args.over.is_empty() || args.game.contains(['{', '}']) {
        return super::guess_family::run(&args.game, &args.over, args.to, args.emit.as_deref(), json, control);
    }
    let ruleset = resolve(&args.game, control)?;
    let options = GuessOptions { fit_to: args.to, check_to: args.check_to, budget: Some(DEFAULT_BUDGET) };
    let guess = guess_game_with(&*ruleset, &options, control)?;
    if let Some(language) = args.emit.as_deref() {
        let language = Language::parse(language).expect("clap checked the language");
        return match emit(&guess, language) {
            Some(code) => print(&code),
            None => Err(Stop::NotFound(format!(
                "no pattern found for {} up to {} = {}: nothing to emit",
                guess.game,
                guess.variable(),
                guess.fitted_to
            ))
            .into()),
        };
    }
    if json {
        return print_json(&GuessAnswer::of(&guess));
    }
    print(&guess.explain())
}
