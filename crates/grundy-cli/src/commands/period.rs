//! `grundy period GAME [--max N] [--json] [--checkpoint FILE]`

use crate::games::resolve;
use crate::long_run::{LongRun, heap_game, interruption};
use crate::output::{print, print_json};
use grundy::GameError;
use grundy::answer::PeriodAnswer;
use grundy::control::Control;
use grundy::heap::period::PeriodReport;
use grundy::heap::period::windowed::{WindowedObservation, grundy_period_spans, windowed_grundy_period};
use grundy::heap::{HeapGame, SequenceRun};
use indicatif::ProgressBar;
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
    /// run with the same FILE continues from it. Without it, Grundy's game past about 8.4·10^7
    /// heaps is searched, where this takes less memory, in a window of the last half of the
    /// values and the first 2^24 (160 MiB at 2^27 heaps, not the whole sequence's 256 MiB),
    /// with the same answer.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
}

pub fn run(args: Args, json: bool, control: &Control) -> anyhow::Result<()> {
    let ruleset = resolve(&args.game, control)?;
    let game = heap_game(&*ruleset, &args.game)?;
    let max_heap = args.max.unwrap_or_else(|| game.default_max_heap());
    // Grundy's game far out, with no checkpoint to keep the values in: the same answer from a
    // window.
    if args.checkpoint.is_none()
        && let Some((report, method)) = period_in_a_window(&*game, max_heap, control)?
    {
        return print_report(&game.spec(), &method, &report, json, args.max.is_none(), max_heap);
    }
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
    saving.after(print_report(&game.spec(), &game.method(), &report, json, args.max.is_none(), max_heap))
}

/// The report as text or JSON; `method` says how the values were computed, `default_bound`
/// when `--max` was not given.
fn print_report(
    spec: &str,
    method: &str,
    report: &PeriodReport,
    json: bool,
    default_bound: bool,
    max_heap: u64,
) -> anyhow::Result<()> {
    if json {
        print_json(&PeriodAnswer::of(spec.to_owned(), report))
    } else {
        let mut text = report.explain(spec, method);
        if default_bound && report.proved.is_none() {
            text.push_str(&format!("searched to the default bound, heap {max_heap}: --max N searches further\n"));
        }
        print(&text)
    }
}

/// Grundy's game searched in memory bounded by a window
/// (`grundy::heap::period::windowed`: to 2^27 heaps, 160 MiB of tables instead of the 256 MiB of
/// the whole sequence), the values never kept, with the progress bar and signals of a long run.
/// `None` for another game, for a search the whole sequence holds in less memory, and when the
/// window cannot decide the answer or a value needs one outside it (then the whole sequence is
/// searched, as before: the answer is the same either way). With the report, how the values
/// were computed and what the window kept.
fn period_in_a_window(
    game: &dyn HeapGame,
    max_heap: u64,
    control: &Control,
) -> anyhow::Result<Option<(PeriodReport, String)>> {
    let Some(spans) = max_heap.checked_add(1).and_then(grundy_period_spans) else { return Ok(None) };
    if game.canonical_spec() != "grundys-game" || game.known_period().is_some() {
        return Ok(None);
    }
    let _stopping = crate::signals::stopping();
    let (bar, control) = crate::progress_bar::values_bar(&game.spec(), max_heap + 1, control);
    let found = windowed_grundy_period(max_heap, spans, &control);
    bar.as_ref().map(ProgressBar::finish_and_clear);
    match found {
        Ok(WindowedObservation::Interrupted { computed }) => Err(interruption(computed, None)),
        Ok(WindowedObservation::Observed { observed, examined, method }) => Ok(Some((
            PeriodReport { periodicity: game.periodicity(), proved: None, observed, examined, interrupted: false },
            method,
        ))),
        Ok(WindowedObservation::Undecided(_)) => Ok(None),
        Err(GameError::OutOfReach(_)) => Ok(None),
        Err(error) => Err(error.into()),
    }
}
