//! `grundy census octal|hex|sub … --db FILE [--jobs N]` and `grundy census report --db FILE`
//!
//! A census runs the period search on every game of a family ([`grundy::census`]) and keeps one
//! row per game in an SQLite database (schema: `docs/census.md`). Each finished game is
//! committed in its own transaction (WAL journal, `synchronous = FULL`), so a run killed at any
//! moment loses only the games in flight, and a rerun skips the games already done at its
//! bound. Only the main thread writes; `--jobs` worker threads compute.

use crate::output::{Stop, print, print_json};
use grundy::census::sql::COLUMNS;
use grundy::census::{self, CensusRow};
use grundy::control::Control;
use grundy::heap::octal::CodeBase;
use grundy_census::CensusDb;
use indicatif::ProgressBar;
use std::collections::BTreeSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// A census of a family of heap games, kept in an SQLite database; or its report.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy census octal --digits 1 --to 2000 --db /tmp/census.sqlite
  grundy census sub --max-move 8 --moves 2 --to 2000 --db /tmp/census.sqlite --jobs 2
  grundy census report --db /tmp/census.sqlite --unsolved")]
pub struct Args {
    #[command(subcommand)]
    command: Family,
}

#[derive(clap::Subcommand, Debug)]
enum Family {
    /// Every octal code 0.d1…dk (last digit non-zero) for k in --digits.
    Octal(CodeArgs),
    /// Every hexadecimal code 0.d1…dk (last digit non-zero) for k in --digits.
    Hex(CodeArgs),
    /// Every subtraction set of --moves elements from 1 … --max-move.
    Sub(SubArgs),
    /// The rows of a census database as a table, sorted by game.
    Report(ReportArgs),
}

#[derive(clap::Args, Debug)]
struct CodeArgs {
    /// The numbers of digits after the point: `2`, or a range `1..3`.
    #[arg(long, value_name = "K..L")]
    digits: String,
    /// The digits before the point, comma-separated: `0` (the default), `0,4` adds the `4.`
    /// codes (a move may split a heap without removing tokens); hexadecimal codes also 8, C.
    #[arg(long, value_name = "LIST", default_value = "0")]
    d0: String,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(clap::Args, Debug)]
struct SubArgs {
    /// The largest element a set may have.
    #[arg(long, value_name = "M")]
    max_move: u64,
    /// The number of elements of each set: `3`, or a range `1..3`.
    #[arg(long, value_name = "N")]
    moves: String,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(clap::Args, Debug)]
struct RunArgs {
    /// The last heap each game's period search may compute (as `grundy period --max`; default:
    /// that command's default for the game, 2^21 - 1 for octal games).
    #[arg(long, value_name = "N")]
    to: Option<u64>,
    /// The SQLite database that keeps the rows (created when missing; a rerun continues it).
    #[arg(long, value_name = "FILE")]
    db: PathBuf,
    /// How many games to compute at once (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    jobs: Option<u64>,
}

#[derive(clap::Args, Debug)]
struct ReportArgs {
    /// The census database.
    #[arg(long, value_name = "FILE")]
    db: PathBuf,
    /// `md` (a Markdown table: game, period, preperiod, status), `csv` (every column) or `json`
    /// (a list of rows).
    #[arg(long, value_enum, default_value_t = Format::Md)]
    format: Format,
    /// Only the games whose period is not proved.
    #[arg(long)]
    unsolved: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Md,
    Csv,
    Json,
}

pub fn run(args: Args, json: bool, control: &Control) -> anyhow::Result<()> {
    match args.command {
        Family::Octal(code) => run_codes(CodeBase::Octal, code, json, control),
        Family::Hex(code) => run_codes(CodeBase::Hexadecimal, code, json, control),
        Family::Sub(sub) => {
            let moves = census::parse_count_range("--moves", &sub.moves)?;
            let games = census::subtraction_games(moves, sub.max_move)?;
            run_census(games, &sub.run, json, control)
        }
        Family::Report(report_args) if report_args.format == Format::Json && !json => {
            crate::output::errors_in_json(report(&report_args, false))
        }
        Family::Report(report_args) => report(&report_args, json),
    }
}

fn run_codes(base: CodeBase, args: CodeArgs, json: bool, control: &Control) -> anyhow::Result<()> {
    let digits = census::parse_count_range("--digits", &args.digits)?;
    let firsts = census::parse_first_digits(&args.d0)?;
    let games = census::code_games(base, digits, &firsts)?;
    run_census(games, &args.run, json, control)
}

/// What a worker tells the writer.
enum Message {
    /// A worker began this game.
    Started(String),
    /// A finished game, to be committed.
    Row(Box<CensusRow>),
    /// Another census finished this game meanwhile (found in the database).
    AlreadyDone(String),
    /// The game was abandoned (Ctrl-C or an error elsewhere).
    Abandoned(String),
    /// The game could not be computed.
    Failed(anyhow::Error),
}

fn run_census(games: Vec<String>, args: &RunArgs, json: bool, control: &Control) -> anyhow::Result<()> {
    let started = Instant::now();
    let mut bounds = Vec::with_capacity(games.len());
    for game in &games {
        bounds.push(match args.to {
            Some(to) => to,
            None => census::default_max_heap(game)?,
        });
    }
    let mut database = CensusDb::open(&args.db)?;
    let mut pending = Vec::new();
    for (game, &bound) in games.iter().zip(&bounds) {
        if !database.done(game, bound)? {
            pending.push((game.clone(), bound));
        }
    }
    let skipped = games.len() - pending.len();
    let jobs =
        args.jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, usize::from), |jobs| jobs as usize);
    let jobs = jobs.min(pending.len()).max(1);
    let bar = progress_bar(pending.len() as u64);
    // The workers stop at the flag and every finished row is committed: a signal's watchdog
    // lets the run end by itself.
    let _stopping = crate::signals::stopping();
    let mut tally = Tally::default();
    let mut failure: Option<anyhow::Error> = None;
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<Message>();
        for _ in 0..jobs {
            let sender = sender.clone();
            let (pending, next, path) = (&pending, &next, args.db.as_path());
            scope.spawn(move || work(pending, next, path, &sender, control));
        }
        drop(sender);
        for message in receiver {
            let result = match message {
                Message::Started(game) => {
                    tally.running.insert(game);
                    Ok(())
                }
                Message::Row(row) => {
                    tally.running.remove(&row.game);
                    database.write(&row).map(|()| tally.count(&row)).map_err(anyhow::Error::from)
                }
                Message::AlreadyDone(game) => {
                    tally.running.remove(&game);
                    tally.elsewhere += 1;
                    Ok(())
                }
                Message::Abandoned(game) => {
                    tally.running.remove(&game);
                    Ok(())
                }
                Message::Failed(error) => Err(error),
            };
            if let Err(error) = result {
                // The workers stop early, as at a signal (`crate::signals`), through the run's
                // control: the games in flight are abandoned; every finished row is already
                // committed.
                control.cancel();
                failure.get_or_insert(error);
            }
            if let Some(bar) = &bar {
                bar.set_position(tally.finished());
                bar.set_message(format!("census: {}", tally.describe()));
            }
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if let Some(error) = failure {
        return Err(error);
    }
    let (proved, unresolved) = database.status_counts(&games)?;
    let computed_now = tally.proved + tally.unresolved;
    let already_there = skipped as u64 + tally.elsewhere;
    let seconds = started.elapsed().as_secs_f64();
    let summary = format!(
        "census of {} games in `{}`: {proved} proved, {unresolved} unresolved; {computed_now} computed now, \
         {already_there} already there, {seconds:.1} s",
        games.len(),
        args.db.display(),
    );
    if crate::signals::received().is_some() {
        let missing = games.len() as u64 - proved - unresolved;
        return Err(anyhow::Error::new(Stop::Interrupted(format!(
            "interrupted: {summary}; {missing} games left to compute; the same command continues from there"
        ))));
    }
    if json {
        return print_json(&serde_json::json!({
            "games": games.len(),
            "db": args.db.display().to_string(),
            "proved": proved,
            "unresolved": unresolved,
            "computed_now": computed_now,
            "already_there": already_there,
            "seconds": seconds,
        }));
    }
    print(&format!("{summary}\n"))
}

/// One worker: takes the next pending game until none is left or the census stops (`control`
/// cancelled: a signal or an error).
fn work(pending: &[(String, u64)], next: &AtomicUsize, path: &Path, sender: &mpsc::Sender<Message>, control: &Control) {
    // A connection of its own, to skip games another census finished since this one began.
    let reader = CensusDb::open_reader(path).ok();
    // The census's own bar counts games: the values of each game are not shown.
    let sequence_control = if control.reports_progress() {
        control.relaying(grundy::heap::SEQUENCE_TASK, |_| {})
    } else {
        control.clone()
    };
    loop {
        let index = next.fetch_add(1, Ordering::SeqCst);
        if control.cancelled() || index >= pending.len() {
            return;
        }
        let (game, bound) = &pending[index];
        if let Some(reader) = &reader
            && matches!(reader.done(game, *bound), Ok(true))
        {
            let _ = sender.send(Message::AlreadyDone(game.clone()));
            continue;
        }
        let _ = sender.send(Message::Started(game.clone()));
        let message = match census::census_row_with(game, *bound, &sequence_control) {
            Ok(Some(row)) => Message::Row(Box::new(row)),
            Ok(None) => Message::Abandoned(game.clone()),
            Err(error) => Message::Failed(anyhow::Error::new(error).context(format!("census of {game}"))),
        };
        if sender.send(message).is_err() {
            return;
        }
    }
}

/// What the progress bar shows.
#[derive(Default)]
struct Tally {
    proved: u64,
    unresolved: u64,
    elsewhere: u64,
    running: BTreeSet<String>,
}

impl Tally {
    fn count(&mut self, row: &CensusRow) {
        if row.proved {
            self.proved += 1;
        } else {
            self.unresolved += 1;
        }
    }

    fn finished(&self) -> u64 {
        self.proved + self.unresolved + self.elsewhere
    }

    fn describe(&self) -> String {
        let mut text = format!("{} proved, {} unresolved", self.proved, self.unresolved);
        if !self.running.is_empty() {
            let shown: Vec<&str> = self.running.iter().take(4).map(String::as_str).collect();
            text.push_str(&format!("; running {}", shown.join(" ")));
        }
        text
    }
}

/// A progress bar on stderr, only when it is a terminal.
fn progress_bar(games: u64) -> Option<ProgressBar> {
    std::io::stderr().is_terminal().then(|| crate::progress_bar::bar("census", games, "games"))
}

/// The report, as JSON with `--json` (`json`) or `--format json` (whose errors the caller then
/// writes as JSON when `--json` does not).
fn report(args: &ReportArgs, json: bool) -> anyhow::Result<()> {
    let database = CensusDb::open_reader(&args.db)?;
    let mut rows = database.rows()?;
    if args.unsolved {
        rows.retain(|row| !row.proved);
    }
    match (json, args.format) {
        // `--json` asks for JSON whatever the format says.
        (true, _) | (_, Format::Json) => print_json(&rows),
        (false, Format::Csv) => print(&csv(&rows)),
        (false, Format::Md) => print(&markdown(&rows)),
    }
}

fn optional(value: Option<u64>) -> String {
    value.map(|value| value.to_string()).unwrap_or_default()
}

/// The table as Flammenkamp's pages give it: game, period, preperiod, status, and how far
/// the search went.
fn markdown(rows: &[CensusRow]) -> String {
    let mut text =
        String::from("| game | period | preperiod | status | checked to |\n| --- | ---: | ---: | --- | ---: |\n");
    for row in rows {
        text.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            row.game,
            optional(row.period),
            optional(row.preperiod),
            row.status(),
            row.checked_to
        ));
    }
    text
}

/// Every column, with a header; `rare_values` as values separated by spaces.
fn csv(rows: &[CensusRow]) -> String {
    let field = |text: String| {
        if text.contains([',', '"', '\n']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text }
    };
    let mut text = COLUMNS.join(",") + "\n";
    for row in rows {
        let bool_field = |value: bool| if value { "1".to_owned() } else { "0".to_owned() };
        let fields = [
            field(row.game.clone()),
            row.family.clone(),
            row.max_heap.to_string(),
            optional(row.preperiod),
            optional(row.period),
            optional(row.saltus),
            bool_field(row.proved),
            row.checked_to.to_string(),
            optional(row.observed_preperiod),
            optional(row.observed_period),
            optional(row.observed_saltus),
            row.largest_value.to_string(),
            row.largest_value_heap.to_string(),
            row.rare_mask.map(|mask| mask.to_string()).unwrap_or_default(),
            row.rare_heap_parity.map(bool_field).unwrap_or_default(),
            optional(row.rare_heaps),
            optional(row.last_rare_heap),
            row.rare_values
                .as_ref()
                .map(|values| values.iter().map(u32::to_string).collect::<Vec<_>>().join(" "))
                .unwrap_or_default(),
            format!("{:.6}", row.seconds),
            field(row.grundy_version.clone()),
        ];
        text.push_str(&fields.join(","));
        text.push('\n');
    }
    text
}
