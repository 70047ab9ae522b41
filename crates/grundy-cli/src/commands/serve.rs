//! `grundy serve [--port P] [--host H] [--files DIR]`: a local web page to explore and play any
//! game.

use grundy::control::Control;
use std::time::Duration;

/// A local web page to explore and play any game: the outcome, the Grundy value and every
/// winning move of a position, the nim-sequence or table drawn, a game against grundy, a
/// formula checked. Each request is answered by a grundy child process under the limits of
/// the command line.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Open the address it prints in a browser; Ctrl-C stops it. Each request is computed by a grundy child
process, stopped at --timeout and past --memory-limit (each request's memory, default 1G), with
the script flags of the command line. The page's state is in its address:
  http://127.0.0.1:8000/?game=nim&position=3+4+5
  http://127.0.0.1:8000/?game=octal:0.137&view=sequence&to=100
Games that read a file (dag:FILE, geography:FILE, script:PATH) are refused, except scripts
pasted into the page, unless --files DIR is given: then the files inside folder DIR are served
(named by their path from DIR, or their whole path), and no other.

Examples:
  grundy serve --port 8000 & curl -s --retry-connrefused --retry 5 'http://127.0.0.1:8000/api/answer?game=nim&position=3+4+5'; kill $!
  grundy serve --host 127.0.0.1 --port 8000 --timeout 5 & curl -s --retry-connrefused --retry 5 -o /dev/null 'http://127.0.0.1:8000/?game=octal:0.137&view=sequence&to=100'; kill $!
  grundy rules --write-examples /tmp/grundy-examples; grundy serve --port 8000 --files /tmp/grundy-examples & curl -s --retry-connrefused --retry 5 'http://127.0.0.1:8000/api/answer?game=dag:dag.txt&position=a'; kill $!"
)]
pub struct Args {
    /// The port to listen on (0: any free port, printed).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
    /// The address to listen on: 127.0.0.1 serves this machine only; any other address opens
    /// the page to the network (a warning says so).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Serve the games of the files in folder DIR (dag:FILE, geography:FILE, script:PATH, named
    /// by their path from DIR): without it no game may read a file.
    #[arg(long, value_name = "DIR")]
    pub files: Option<std::path::PathBuf>,
    /// The wall-clock seconds one request may compute before it is stopped with an error.
    #[arg(long, value_name = "SECS", default_value_t = 10.0, value_parser = parse_timeout)]
    pub timeout: f64,
    /// How many requests compute at once (the others wait their turn).
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub jobs: u32,
}

/// The memory each request may use when `--memory-limit` is not given: room for the tables
/// of everything a page shows, and for `--jobs` such requests at once on a small machine.
const DEFAULT_REQUEST_MEMORY: u64 = 1 << 30;

fn parse_timeout(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(seconds) if (0.1..=3600.0).contains(&seconds) => Ok(seconds),
        _ => Err(format!("`{text}` is not a number of seconds from 0.1 to 3600")),
    }
}

/// Runs the server until a signal stops it (cancels `control`, the run's). `memory_limit` is
/// the global `--memory-limit`: here the memory of each request.
pub fn run(args: Args, memory_limit: Option<&str>, control: &Control) -> anyhow::Result<()> {
    let request_memory = match memory_limit {
        Some(text) => u64::try_from(crate::limits::parse_size(text).map_err(anyhow::Error::msg)?).unwrap_or(u64::MAX),
        None => DEFAULT_REQUEST_MEMORY,
    };
    let files = match &args.files {
        Some(folder) => Some(served_folder(folder)?),
        None => None,
    };
    let settings = crate::serve::Settings {
        host: args.host,
        port: args.port,
        timeout: Duration::from_secs_f64(args.timeout),
        jobs: args.jobs as usize,
        request_memory,
        max_ops: crate::script_worker::options().max_ops,
        files,
    };
    crate::serve::run(settings, control)
}

/// The real path of the `--files` folder (symbolic links resolved): served paths are checked
/// against it.
fn served_folder(folder: &std::path::Path) -> anyhow::Result<std::path::PathBuf> {
    let shown = grundy::error::quote(&folder.display().to_string());
    let real = std::fs::canonicalize(folder).map_err(|error| anyhow::anyhow!("--files `{shown}`: {error}"))?;
    if !real.is_dir() {
        anyhow::bail!("--files `{shown}` is not a folder: give the folder whose game files the page may use");
    }
    Ok(real)
}
