//! One request's computation: this very binary run as a child (`grundy --json …`) under the
//! limits of the server, killed with its process group at the deadline. A child that runs out
//! of time or memory, or prints too much, costs that request only: the server keeps serving.

use super::Settings;
use std::process::Stdio;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The most a child may print: far more than any page shows (a sequence of 10^5 values, a
/// table's picture, the 10^5 options of a heap of 10^5 with each move's `before` and `after`:
/// 17 MB), far less than would strain the server.
const OUTPUT_LIMIT: u64 = 32 << 20;
/// The address space a child may map beyond its tables' limit: the program itself, its
/// threads' stacks and the allocator's arenas.
const ADDRESS_SPACE_HEADROOM: u64 = 512 << 20;

/// How a child ended.
pub enum Ended {
    /// It exited with this status; `stdout` is what it printed, `stderr` its last line.
    Exited { status: i32, stdout: Vec<u8>, stderr_line: String },
    /// It was stopped: the message says why, for the page.
    Stopped { kind: &'static str, message: String },
}

/// Runs `grundy --json LIMITS ARGS…` with `stdin` on its standard input.
pub async fn run_grundy(settings: &Settings, arguments: &[String], stdin: &str, files: &[i32]) -> Ended {
    let mut command = match crate::own_command::command() {
        Ok(command) => tokio::process::Command::from(command),
        Err(error) => return stopped("error", format!("cannot find the grundy program to run: {error}")),
    };
    command
        .args(limit_flags(settings))
        .args(arguments)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    // Game files are named from the served folder (`dag:graph.txt`), as the server checked them.
    if let Some(folder) = &settings.files {
        command.current_dir(folder);
    }
    // Its own process group, killed if the server dies, its address space capped.
    crate::os::limit_child(command.as_std_mut(), settings.request_memory.saturating_add(ADDRESS_SPACE_HEADROOM));
    // The game files the server opened, which the arguments name as `/dev/fd/N`.
    crate::os::keep_open_in_child(command.as_std_mut(), files);
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(error) => return stopped("error", format!("cannot start a grundy process: {error}")),
    };
    let (Some(mut input), Some(output), Some(errors)) = (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return stopped("error", "cannot talk to the grundy process".to_owned());
    };
    let stdin = stdin.to_owned();
    let work = async move {
        // A child that stops reading early (an error before the moves) is no error here.
        let feed = async move {
            let _ = input.write_all(stdin.as_bytes()).await;
            drop(input);
        };
        let mut stdout = Vec::new();
        let mut stderr = Vec::new();
        let (mut output, mut errors) = (output.take(OUTPUT_LIMIT + 1), errors.take(OUTPUT_LIMIT));
        let read_out = output.read_to_end(&mut stdout);
        let read_err = errors.read_to_end(&mut stderr);
        let ((), read_out, _) = tokio::join!(feed, read_out, read_err);
        read_out?;
        let status = child.wait().await?;
        Ok::<_, std::io::Error>((status, stdout, stderr))
    };
    // At the deadline `work` is dropped, and with it the child, killed (`kill_on_drop`); its
    // script workers die with it (`PR_SET_PDEATHSIG`).
    match tokio::time::timeout(settings.timeout, work).await {
        Err(_) => stopped(
            "timeout",
            format!(
                "the computation took longer than the {} s one request may take (grundy serve --timeout): ask for something smaller",
                settings.timeout.as_secs_f64()
            ),
        ),
        Ok(Err(error)) => stopped("error", format!("cannot read the answer of the grundy process: {error}")),
        Ok(Ok((_, stdout, _))) if stdout.len() as u64 > OUTPUT_LIMIT => stopped(
            "too_large",
            format!(
                "the answer is larger than {}, more than a page can show: ask for something smaller",
                grundy::error::human_bytes(u128::from(OUTPUT_LIMIT))
            ),
        ),
        Ok(Ok((status, stdout, stderr))) => match status.code() {
            Some(status) => Ended::Exited { status, stdout, stderr_line: last_line(&stderr) },
            None => stopped(
                "stopped",
                format!(
                    "the computation was stopped ({status}): it may need more than the {} of memory one request may use (grundy serve --memory-limit)",
                    grundy::error::human_bytes(u128::from(settings.request_memory))
                ),
            ),
        },
    }
}

/// The command line's limits, for one request: its memory (tables, and a script's worker),
/// and the time one call of a script may take, the request's own deadline.
fn limit_flags(settings: &Settings) -> Vec<String> {
    vec![
        "--json".to_owned(),
        format!("--memory-limit={}", settings.request_memory),
        format!("--memory-cap={}", (settings.request_memory >> 20).max(64)),
        format!("--script-timeout={}", settings.timeout.as_secs_f64()),
        format!("--max-ops={}", settings.max_ops),
    ]
}

fn stopped(kind: &'static str, message: String) -> Ended {
    Ended::Stopped { kind, message }
}

/// The last non-empty line of a child's stderr, without grundy's `grundy: error: ` prefix.
fn last_line(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let line = text.lines().rev().find(|line| !line.trim().is_empty()).unwrap_or("").trim();
    line.strip_prefix("grundy: error: ").or_else(|| line.strip_prefix("grundy: ")).unwrap_or(line).to_owned()
}
