//! Writing results: text for people, JSON for programs, and the one place errors become
//! an exit status.

use std::ffi::OsString;
use std::io::{self, Write};

/// Writes `text` to stdout. A closed pipe (`grundy … | head`) is reported as
/// [`Stop::BrokenPipe`], which `main` treats as success.
pub fn print(text: &str) -> anyhow::Result<()> {
    let mut stdout = io::stdout().lock();
    stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()).map_err(|error| {
        if error.kind() == io::ErrorKind::BrokenPipe {
            anyhow::Error::new(Stop::BrokenPipe)
        } else {
            anyhow::Error::new(error).context("cannot write the result to stdout")
        }
    })
}

/// Writes one JSON value and a newline to stdout.
pub fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    print(&format!("{}\n", serde_json::to_string(value)?))
}

/// Why output stopped early without an answer.
#[derive(Debug, thiserror::Error)]
pub enum Stop {
    /// The reader of stdout went away.
    #[error("broken pipe")]
    BrokenPipe,
    /// A signal (Ctrl-C, SIGTERM, SIGHUP) stopped a long computation (the message says what was
    /// kept): exit status 128 + the signal.
    #[error("{0}")]
    Interrupted(String),
    /// Some lines of standard input were bad (each was reported): exit status 2.
    #[error("{0} line(s) of standard input could not be answered")]
    BadLines(usize),
    /// `grundy check` found a counterexample and printed it: exit status 1.
    #[error("a counterexample was found")]
    Counterexample,
    /// The command looked and found nothing to print (`guess --emit` with no pattern): the
    /// message on stderr, exit status 1.
    #[error("{0}")]
    NotFound(String),
    /// The result was printed in full, but the checkpoint could not be saved at the end: a
    /// warning on stderr, exit status 3.
    #[error("{0}")]
    Unsaved(String),
}

fn error_object(kind: &str, message: &str) -> serde_json::Value {
    serde_json::json!({ "error": { "kind": kind, "message": message } })
}

/// An error already written into the JSON document it interrupted (as its `"error"` key):
/// from here on it goes to stderr only, so that stdout stays one valid document.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct WrittenInJson {
    message: String,
}

/// The `{"kind": …, "message": …}` of `error` for a JSON document that has begun, and the
/// error to return once the document is closed.
pub fn error_in_json(error: &anyhow::Error) -> (serde_json::Value, anyhow::Error) {
    let message = format!("{error:#}").replace('\n', " ");
    let object = error_object(error_kind(error), &message)["error"].take();
    (object, anyhow::Error::new(WrittenInJson { message }))
}

/// `result` with its error, if any, already written to stdout as the JSON error object: for
/// a command that prints JSON because of its own flag (`census report --format json`) on a
/// run without `--json`, so that its errors are JSON too.
pub fn errors_in_json<T>(result: anyhow::Result<T>) -> anyhow::Result<T> {
    result.map_err(|error| {
        let (object, written) = error_in_json(&error);
        let _ = print_json(&serde_json::json!({ "error": object }));
        written
    })
}

fn error_kind(error: &anyhow::Error) -> &'static str {
    error.downcast_ref::<grundy::GameError>().map_or("error", grundy::GameError::kind)
}

/// Reports a bad line of standard input: `line N: …` on stderr (and as JSON on stdout).
pub fn report_line_error(number: usize, error: &anyhow::Error, json: bool) -> anyhow::Result<()> {
    let message = format!("{error:#}").replace('\n', " ");
    let _ = writeln!(io::stderr(), "grundy: error: line {number}: {message}");
    if json && error.downcast_ref::<WrittenInJson>().is_none() {
        let mut object = error_object(error_kind(error), &message);
        object["error"]["line"] = number.into();
        print_json(&object)?;
    }
    Ok(())
}

/// Maps a command's result to the exit status: 0, or one line on stderr and 2 (and with
/// `json`, the `--json` flag, a JSON error object on stdout).
///
/// A run whose result was printed but whose checkpoint could not be saved
/// ([`Stop::Unsaved`]) warns on stderr and exits with status 3. `signal` is the first signal
/// the run received (the caller reads it once the command has returned): a run it stopped, and
/// any error it caused by cutting a computation short, exit with 128 + the signal.
pub fn finish(result: anyhow::Result<()>, json: bool, signal: Option<i32>) -> u8 {
    // A run stopped with no signal recorded (a run that cancelled itself) exits as by Ctrl-C.
    let interrupted = (128 + signal.unwrap_or(libc::SIGINT)) as u8;
    match result {
        Ok(()) => 0,
        Err(error) => match error.downcast_ref::<Stop>() {
            Some(Stop::BrokenPipe) => 0,
            Some(Stop::Unsaved(warning)) => {
                let _ = writeln!(io::stderr(), "grundy: warning: {}", warning.replace('\n', " "));
                3
            }
            Some(Stop::Interrupted(_)) => {
                let _ = writeln!(io::stderr(), "grundy: {error}");
                interrupted
            }
            Some(Stop::Counterexample) => 1,
            Some(Stop::NotFound(_)) => {
                let _ = writeln!(io::stderr(), "grundy: {error}");
                1
            }
            Some(Stop::BadLines(_)) => {
                let _ = writeln!(io::stderr(), "grundy: {error}");
                2
            }
            None => {
                let message = format!("{error:#}").replace('\n', " ");
                let _ = writeln!(io::stderr(), "grundy: error: {message}");
                if json && error.downcast_ref::<WrittenInJson>().is_none() {
                    let _ = print_json(&error_object(error_kind(&error), &message));
                }
                // An error a signal caused (a computation cut short) exits as the signal says.
                match signal {
                    Some(_) => interrupted,
                    None => 2,
                }
            }
        },
    }
}

/// The message for a negative number given to an option that counts (`--to -1`).
fn negative_value(option: &str, value: &str) -> String {
    format!(
        "`{option}` takes a whole number, 0 or more (`{option} 100`, `{option} 1e6`): `{}` is negative",
        grundy::error::quote(value)
    )
}

/// Whether `flag` (`--name` or `-n`) is an option of `command` or of one of its subcommands
/// that takes a value.
fn takes_value(command: &clap::Command, flag: &str) -> bool {
    let named = |arg: &clap::Arg| match flag.strip_prefix("--") {
        Some(long) => arg.get_long() == Some(long),
        None => {
            let mut short = flag.chars().skip(1);
            matches!((short.next(), short.next()), (Some(letter), None) if arg.get_short() == Some(letter))
        }
    };
    command.get_arguments().any(|arg| named(arg) && arg.get_action().takes_values())
        || command.get_subcommands().any(|subcommand| takes_value(subcommand, flag))
}

/// Which commands take `flag` (`--misere`), with what it is for; or that none does.
fn where_a_flag_goes(command: &clap::Command, flag: &str, arguments: &[String]) -> String {
    let Some(long) = flag.strip_prefix("--") else {
        return format!("`{}` is not an option here (see grundy --help)", grundy::error::quote(flag));
    };
    let mut takers: Vec<String> = Vec::new();
    let mut purposes: Vec<String> = Vec::new();
    for subcommand in command.get_subcommands().filter(|subcommand| !subcommand.is_hide_set()) {
        let mut visit = |name: String, arg: &clap::Arg| {
            takers.push(name);
            let purpose = arg.get_help().map(|help| help.to_string()).unwrap_or_default();
            if !purposes.contains(&purpose) {
                purposes.push(purpose);
            }
        };
        if let Some(arg) = subcommand.get_arguments().find(|arg| arg.get_long() == Some(long) && !arg.is_global_set()) {
            visit(subcommand.get_name().to_owned(), arg);
        }
        for nested in subcommand.get_subcommands() {
            if let Some(arg) = nested.get_arguments().find(|arg| arg.get_long() == Some(long)) {
                visit(format!("{} {}", subcommand.get_name(), nested.get_name()), arg);
            }
        }
    }
    let given_to = arguments
        .iter()
        .skip(1)
        .find(|word| command.get_subcommands().any(|subcommand| subcommand.get_name() == word.as_str()))
        .map_or_else(|| "grundy".to_owned(), |name| format!("grundy {name}"));
    // The flag's help when every command that takes it means the same by it.
    let purpose = match purposes.as_slice() {
        [purpose] if !purpose.is_empty() => format!(" ({})", purpose.trim_end_matches('.')),
        _ => String::new(),
    };
    match takers.as_slice() {
        [] => format!("no grundy command takes `--{}`", grundy::error::quote(long)),
        _ => format!("`--{long}`{purpose} is an option of {}, not of {given_to}", takers.join(", ")),
    }
}

/// Prints a command-line usage error as one line (help and version print in full); `command`
/// is grundy's, to tell a negative number given to an option from one given as a component.
pub fn report_usage_error(error: clap::Error, command: &clap::Command, arguments: &[OsString]) -> u8 {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if matches!(error.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = error.print();
        return 0;
    }
    if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let _ = error.print();
        return 2;
    }
    // Read lossily: an argument need not be UTF-8.
    let raw_arguments = arguments;
    let arguments: Vec<String> = raw_arguments.iter().map(|raw| raw.to_string_lossy().into_owned()).collect();
    let json = arguments.iter().any(|argument| argument == "--json");
    if error.kind() == ErrorKind::InvalidUtf8 {
        let message = match raw_arguments.iter().enumerate().find(|(_, raw)| raw.to_str().is_none()) {
            Some((at, raw)) => format!(
                "argument {at} (`{}`) is not valid UTF-8: grundy reads games and positions as UTF-8 text",
                grundy::error::quote(&raw.as_encoded_bytes().escape_ascii().to_string())
            ),
            None => "an argument is not valid UTF-8".to_owned(),
        };
        let _ = writeln!(io::stderr(), "grundy: error: {message}");
        if json {
            let _ = print_json(&error_object("usage", &message));
        }
        return 2;
    }
    // `--to=-1` reaches the option's parser, which says only "invalid digit".
    if let (Some(ContextValue::String(option)), Some(ContextValue::String(value))) =
        (error.get(ContextKind::InvalidArg), error.get(ContextKind::InvalidValue))
        && value.strip_prefix('-').is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
    {
        let option = option.split_whitespace().next().unwrap_or(option);
        if crate::option_numbers::takes_unsigned(command, option) {
            let message = negative_value(option, value);
            let _ = writeln!(io::stderr(), "grundy: error: {message}");
            if json {
                let _ = print_json(&error_object("usage", &message));
            }
            return 2;
        }
    }
    let rendered = error.render().to_string();
    // clap's first line, with the indented lines that complete it (`the following required
    // arguments were not provided:` lists them below), and its "did you mean" tip.
    let mut lines = rendered.lines().filter(|line| !line.trim().is_empty());
    let mut message = lines.next().unwrap_or("bad arguments").trim_start_matches("error: ").to_owned();
    if message.ends_with(':') {
        for line in lines.by_ref().take_while(|line| line.starts_with(' ')) {
            message.push(' ');
            message.push_str(line.trim());
        }
    }
    // `-1,2` reaches clap as an unknown flag: say what is wrong with it as a component.
    if let Some(argument) = message.strip_prefix("unexpected argument '").and_then(|rest| rest.split('\'').next())
        && argument.strip_prefix('-').is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
    {
        // clap names only the first short flag of `-5G` (`-5`): the whole word is the one
        // typed, and the one to quote.
        let typed = arguments.iter().position(|raw| raw == argument).or_else(|| {
            arguments.iter().position(|raw| {
                raw.starts_with(argument)
                    && raw[argument.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '.')
            })
        });
        let argument = typed.map_or(argument, |at| arguments[at].as_str());
        let option = typed
            .and_then(|at| at.checked_sub(1))
            .map(|before| arguments[before].as_str())
            .filter(|before| before.starts_with('-') && takes_value(command, before));
        let message = match option {
            Some(option) if crate::option_numbers::takes_unsigned(command, option) => negative_value(option, argument),
            Some(option) => format!(
                "`{}` after `{option}` reads as a flag, not as its value (to give a value that \
                 starts with `-`, write `{option}={}`)",
                grundy::error::quote(argument),
                grundy::error::quote(argument)
            ),
            None => format!(
                "`{}` is not a component: heaps, coins and coordinates are non-negative integers",
                grundy::error::quote(argument)
            ),
        };
        let _ = writeln!(io::stderr(), "grundy: error: {message}");
        if json {
            let _ = print_json(&error_object(if option.is_some() { "usage" } else { "bad_component" }, &message));
        }
        return 2;
    }
    if let Some(tip) = rendered.lines().find_map(|line| line.trim().strip_prefix("tip: ")) {
        // clap's "to pass '--x' as a value, use '-- --x'" is wrong advice for a flag given to
        // the wrong command: say which commands take it, and what it does.
        let flag = message.strip_prefix("unexpected argument '").and_then(|rest| rest.split('\'').next());
        match flag.filter(|_| tip.starts_with("to pass '")) {
            Some(flag) => message.push_str(&format!("; {}", where_a_flag_goes(command, flag, &arguments))),
            None => message.push_str(&format!("; {tip}")),
        }
    }
    let _ = writeln!(io::stderr(), "grundy: error: {message} (see grundy --help)");
    if json {
        let _ = print_json(&error_object("usage", &message));
    }
    2
}
