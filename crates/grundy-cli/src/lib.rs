//! `grundy`: the command line over the grundy library.
//!
//! One module per subcommand, each with its `Args` and `run`; every error reaches [`run`] and
//! is printed as one line on stderr with exit status 2. A closed pipe ends output quietly.
//!
//! The command is this crate's [`run`], called by the `grundy` binary (`src/main.rs`) and by
//! the Python package's `grundy` command (crates/grundy-py), so that one build gives both.

// `unsafe` only where the operating system needs it: `os` (see there).
#![deny(unsafe_code)]

pub mod atomic_file;
mod bounded_run;
mod commands;
mod example_files;
mod games;
mod input;
mod judge;
mod limits;
mod long_run;
mod option_numbers;
mod os;
mod output;
mod own_command;
mod progress_bar;
mod script_worker;
mod serve;
mod signals;

/// The readers of the files game words name, with their size and line limits
/// (`dag:/dev/zero` fails at once): the Python package reads its files through them too, so
/// both front ends read with one code and one set of limits.
pub use input::{read_graph_file, read_script_file};

/// A control whose memory limit is what this process may really use (the smallest of
/// `ulimit -v`, the cgroup's limit and the memory available, as the CLI's `--memory-limit`
/// default): the Python package's games run under it too, so that a table past the limit is
/// refused with its estimate instead of aborting the interpreter.
pub fn measured_control() -> grundy::control::Control {
    grundy::control::Control::default().with_memory_limit(limits::detected_limit().0)
}

use clap::{CommandFactory, Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;

/// Impartial games: who wins, the Grundy value, and every winning move.
#[derive(Parser, Debug)]
#[command(
    name = "grundy",
    version,
    about,
    long_about = None,
    propagate_version = true,
    after_help = "Examples:
  grundy value nim 3 4 5
  grundy moves wythoff 4,7
  grundy outcome sub:1,3,4 10 + kayles 7

Every game word, its components and an example: grundy rules"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The most memory the run's tables, caches and memos may take together (`4G`, `512M`); by
    /// default what the process may really use: the smallest of `ulimit -v`, the cgroup's limit and the memory available.
    #[arg(long, global = true, value_name = "SIZE")]
    memory_limit: Option<String>,
    /// Print the result as JSON on stdout instead of text (docs/json.md), and an error as a
    /// JSON object too: every command that prints a result takes it (value, outcome, moves,
    /// rules, table, sequence, period, guess, stats, genus, quotient, check, census, plot, play).
    #[arg(long, global = true)]
    json: bool,
    #[command(flatten)]
    script: script_worker::ScriptFlags,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The Grundy value of the sum of the components.
    Value(commands::value::Args),
    /// N (the player to move wins) or P (the player to move loses).
    Outcome(commands::outcome::Args),
    /// Every winning move, one per line, as the position it leads to.
    Moves(commands::moves::Args),
    /// Every game form with its syntax and an example.
    Rules(commands::rules::Args),
    /// The whole table of a two-heap game or a graph game.
    Table(commands::table::Args),
    /// The nim-sequence G(0) … G(N) of a heap game.
    Sequence(commands::sequence::Args),
    /// The minimal period and preperiod of a heap game's nim-sequence, with the proof.
    Period(commands::period::Args),
    /// Finds the pattern of a game's values (periodic, arithmetic-periodic, bitwise, Beatty
    /// pairs, P-positions), checks it further out, and emits code a solution can paste.
    Guess(commands::guess::Args),
    /// How often each value occurs among heaps 0..N, and the exact share of P-positions among
    /// sums of K such heaps.
    Stats(commands::stats::Args),
    /// Play a game against grundy, which plays perfectly.
    Play(commands::play::Args),
    /// A picture: a nim-sequence, a two-heap table or a graph game, as SVG or PNG.
    Plot(commands::plot::Args),
    /// Conway's genus of each heap 0..N under misère play, and which heaps are tame.
    Genus(commands::genus::Args),
    /// The misère quotient of the sums of heaps 0..N: presentation, P-portion, heap elements.
    Quotient(commands::quotient::Args),
    /// Cross-checks a formula or a program against the game's definition (对拍).
    Check(commands::check::Args),
    /// Evaluates a script game for a parent grundy (internal).
    #[command(name = "__script-worker", hide = true)]
    ScriptWorker(script_worker::worker::Args),
    /// A census of a family of heap games (every octal code up to k digits, …) in an SQLite database.
    Census(commands::census::Args),
    /// A local web page to explore and play any game (the address it prints, in a browser).
    Serve(commands::serve::Args),
}

/// Runs the `grundy` command with `arguments` (the first is the program's name, as in
/// `std::env::args_os`) and returns its exit status: 0, 1 (a counterexample, nothing found),
/// 2 (bad input), 3 (a result whose checkpoint was not saved), 128 + a signal (stopped).
///
/// It installs handlers for SIGINT, SIGTERM and SIGHUP and may end the process itself (a
/// second signal, or a run that does not stop in time after the first): call it once, as a
/// process's whole work. Children of its own (script workers, `serve`'s requests) run this
/// very executable.
pub fn run(arguments: impl IntoIterator<Item = impl Into<OsString>>) -> u8 {
    run_as(arguments, Vec::new())
}

/// [`run`] in a host program (the Python interpreter) whose executable is not the `grundy`
/// command: `own_command` is the program and leading arguments that start the command again
/// (`python -c …`), for the children grundy runs of itself. Empty: this executable.
pub fn run_as(arguments: impl IntoIterator<Item = impl Into<OsString>>, own_command: Vec<OsString>) -> u8 {
    let arguments = option_numbers::expand(arguments.into_iter().map(Into::into).collect(), &Cli::command());
    own_command::set(own_command);
    let status = run_parsing(&arguments);
    // Embedded (the Python command), no `main` returns to flush standard output at exit.
    let _ = std::io::stdout().flush();
    status
}

/// Parses `arguments` and runs the command they name: its exit status.
fn run_parsing(arguments: &[OsString]) -> u8 {
    let cli = match Cli::try_parse_from(arguments) {
        Ok(cli) => cli,
        Err(error) => return output::report_usage_error(error, &Cli::command(), arguments),
    };
    let memory_limit = match limits::memory_limit(cli.memory_limit.as_deref()) {
        Ok(limit) => limit,
        Err(error) => return output::finish(Err(error), cli.json, signals::received()),
    };
    // The run's one control, handed down to every command: each computation takes it (through
    // the games the front end builds, or directly), and the first signal cancels it.
    let control = grundy::control::Control::default().with_memory_limit(memory_limit);
    let control = match progress_bar::sink() {
        Some(bars) => control.with_sink(bars),
        None => control,
    };
    // The worker is stopped by its parent (it has no terminal of its own to answer).
    if !matches!(cli.command, Command::ScriptWorker(_)) {
        signals::install(&control);
    }
    script_worker::install(&cli.script);
    let json = cli.json;
    let control = &control;
    let result = match cli.command {
        Command::Value(args) => commands::value::run(args, json, control),
        Command::Outcome(args) => commands::outcome::run(args, json, control),
        Command::Moves(args) => commands::moves::run(args, json, control),
        Command::Rules(args) => commands::rules::run(args, json, control),
        Command::Table(args) => commands::table::run(args, json, control),
        Command::Sequence(args) => commands::sequence::run(args, json, control),
        Command::Period(args) => commands::period::run(args, json, control),
        Command::Guess(args) => commands::guess::run(args, json, control),
        Command::Stats(args) => commands::stats::run(args, json, control),
        Command::Play(args) => commands::play::run(args, json, control),
        Command::Plot(args) => commands::plot::run(args, json, control),
        Command::Genus(args) => commands::genus::run(args, json, control),
        Command::Quotient(args) => commands::quotient::run(args, json, control),
        Command::Check(args) => commands::check::run(args, json, control),
        Command::ScriptWorker(args) => script_worker::worker::run(args),
        Command::Census(args) => commands::census::run(args, json, control),
        Command::Serve(args) => commands::serve::run(args, cli.memory_limit.as_deref(), control),
    };
    // Read after the command: a signal that cut its computation short decides the status.
    output::finish(result, json, signals::received())
}
