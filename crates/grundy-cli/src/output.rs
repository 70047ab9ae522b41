//! Writing results: text for people, JSON for programs, and the one place errors become
//! an exit status.

use std::io::{self, Write};
use std::process::ExitCode;

/// Writes `text` to stdout. A closed pipe (`grundy … | head`) is reported as
/// [`Stop::BrokenPipe`], which `main` treats as success.
pub fn print(text: &str) -> anyhow::Result<()> {
    let mut stdout = io::stdout().lock();
    stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()).map_err(|error| {
        if error.kind() == io::ErrorKind::BrokenPipe { anyhow::Error::new(Stop::BrokenPipe) } else { error.into() }
    })
}

/// Writes one JSON object and a newline to stdout.
pub fn print_json(value: &serde_json::Value) -> anyhow::Result<()> {
    print(&format!("{value}\n"))
}

/// A JSON number of any size (a Grundy value of hundreds of digits stays exact).
pub fn json_number(digits: &str) -> serde_json::Value {
    serde_json::Value::Number(digits.parse().expect("decimal digits are a JSON number"))
}

/// Why output stopped early without an error.
#[derive(Debug, thiserror::Error)]
pub enum Stop {
    /// The reader of stdout went away.
    #[error("broken pipe")]
    BrokenPipe,
    /// Ctrl-C stopped a long computation (the message says what was kept): exit status 130.
    #[error("{0}")]
    Interrupted(String),
    /// `grundy check` found a counterexample and printed it: exit status 1.
    #[error("a counterexample was found")]
    Counterexample,
}

/// Maps a command's result to the exit status: 0, or one line on stderr and 2.
pub fn finish(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if matches!(error.downcast_ref::<Stop>(), Some(Stop::BrokenPipe)) => ExitCode::SUCCESS,
        Err(error) if matches!(error.downcast_ref::<Stop>(), Some(Stop::Counterexample)) => ExitCode::from(1),
        Err(error) if matches!(error.downcast_ref::<Stop>(), Some(Stop::Interrupted(_))) => {
            let _ = writeln!(io::stderr(), "grundy: {error}");
            ExitCode::from(130)
        }
        Err(error) => {
            let message = format!("{error:#}").replace('\n', " ");
            let _ = writeln!(io::stderr(), "grundy: error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Prints a command-line usage error as one line (help and version print in full).
pub fn report_usage_error(error: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(error.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = error.print();
        return ExitCode::SUCCESS;
    }
    if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let _ = error.print();
        return ExitCode::from(2);
    }
    let rendered = error.render().to_string();
    // clap's first line, with the indented lines that complete it (`the following required
    // arguments were not provided:` lists them below).
    let mut lines = rendered.lines().filter(|line| !line.trim().is_empty());
    let mut message = lines.next().unwrap_or("bad arguments").trim_start_matches("error: ").to_owned();
    if message.ends_with(':') {
        for line in lines.take_while(|line| line.starts_with(' ')) {
            message.push(' ');
            message.push_str(line.trim());
        }
    }
    let _ = writeln!(io::stderr(), "grundy: error: {message} (see grundy --help)");
    ExitCode::from(2)
}
