//! `grundy period GAME [--max N] [--json] [--checkpoint FILE]`

use crate::games::resolve;
use crate::long_run::{LongRun, heap_game};
use crate::output::{json_errors, print, print_json};
use grundy::answer::PeriodAnswer;
use grundy::heap::period::default_max_heap;
use std::path::PathBuf;

/// The minimal period and preperiod of a heap game's nim-sequence, with the proof.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy period sub:2,5
  grundy period kayles --json
  grundy period octal:0.6 --max 100000")]
pub struct Args {
    /// The game: a heap game (nim, bash:M, sub:S, octal:CODE, kayles, …).
    game: String,
    /// The last heap to compute when no period is proved earlier (default: 2^24 - 1 for
    /// subtraction games, 2^21 - 1 for octal games, 2^13 - 1 for hexadecimal games that split
    /// a heap in three, 2^20 - 1 otherwise).
    #[arg(long, value_name = "N")]
    max: Option<u64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Keep the values computed in FILE (saved now and then, at the end and on Ctrl-C); a later
    /// run with the same FILE continues from it.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    json_errors(args.json);
    let ruleset = resolve(&args.game)?;
    let game = heap_game(&*ruleset, &args.game)?;
    let max_heap = args.max.unwrap_or_else(|| default_max_heap(game.periodicity()));
    let mut run = LongRun::start(game, args.checkpoint.as_deref(), max_heap.saturating_add(1))?;
    let report = run.find_period(max_heap)?;
    run.finish(report.interrupted)?;
    if args.json {
        print_json(&PeriodAnswer::of(game.spec(), &report))
    } else {
        print(&report.explain(&game.spec(), &game.method()))
    }
}
