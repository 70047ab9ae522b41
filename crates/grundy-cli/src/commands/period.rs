//! `grundy period GAME [--max N] [--json] [--checkpoint FILE]`

use crate::games::resolve;
use crate::long_run::{LongRun, heap_game};
use crate::output::{print, print_json};
use grundy::answer::PeriodAnswer;
use grundy::control::Control;
use grundy::heap::SequenceRun;
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
    /// a heap in three, 2^12 - 1 for script games, 2^20 - 1 otherwise).
    #[arg(long, value_name = "N")]
    max: Option<u64>,
    /// Keep the values computed in FILE (saved now and then, at the end and on Ctrl-C); a later
    /// run with the same FILE continues from it.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
}

pub fn run(args: Args, json: bool, control: &Control) -> anyhow::Result<()> {
    let ruleset = resolve(&args.game, control)?;
    let game = heap_game(&*ruleset, &args.game)?;
    let max_heap = args.max.unwrap_or_else(|| game.default_max_heap());
    let mut run = LongRun::start(SequenceRun::for_period(&*game, max_heap), args.checkpoint.as_deref(), control)?;
    let report = match run.find_period(max_heap) {
        Ok(report) => report,
        // A signal stopped a script's worker mid-request: save and say so, as any interruption.
        Err(error) if crate::signals::received().is_some() => {
            let _interrupted = run.finish(true)?;
            return Err(error);
        }
        Err(error) => return Err(error),
    };
    let (_, saving) = run.finish(report.interrupted)?;
    saving.after(if json {
        print_json(&PeriodAnswer::of(game.spec(), &report))
    } else {
        let mut text = report.explain(&game.spec(), &game.method());
        if args.max.is_none() && report.proved.is_none() {
            text.push_str(&format!("searched to the default bound, heap {max_heap}: --max N searches further\n"));
        }
        print(&text)
    })
}
