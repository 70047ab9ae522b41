//! What the CLI integration tests share: running `grundy` and capturing what it printed.

use std::process::{Command, Stdio};

/// A fresh directory for one test (`grundy-NAME-…` in the system's temporary folder), removed
/// when dropped, whether the test passed or failed.
#[allow(dead_code)] // not every test binary writes files
pub fn fresh_directory(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("grundy-{name}-")).tempdir().unwrap()
}

/// What one run of `grundy` printed, and its exit status (-1 when killed by a signal).
#[allow(dead_code)] // not every test binary reads every field
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub status: i32,
}

/// Runs `grundy` with `args` and `input` on standard input.
#[allow(dead_code)] // not every test binary feeds standard input
pub fn grundy_with_stdin(args: &[&str], input: &str) -> Run {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A format that ends at a sentinel line stops reading there: grundy may exit before the
    // rest is written, which is a broken pipe here and not a failure.
    if let Err(error) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
        assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe, "{error}");
    }
    let output = child.wait_with_output().unwrap();
    Run {
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
        status: output.status.code().unwrap_or(-1),
    }
}

/// Runs `grundy` with `args` and no standard input.
#[allow(dead_code)] // hostile_http.rs only talks to a server
pub fn grundy(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_grundy")).args(args).stdin(Stdio::null()).output().unwrap();
    Run {
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
        status: output.status.code().unwrap_or(-1),
    }
}

pub mod server;
