//! What the CLI integration tests share: running `grundy` and capturing what it printed.

use std::process::{Command, Stdio};

/// What one run of `grundy` printed, and its exit status (-1 when killed by a signal).
#[allow(dead_code)] // not every test binary reads every field
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub status: i32,
}

/// Runs `grundy` with `args` and no standard input.
pub fn grundy(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_grundy")).args(args).stdin(Stdio::null()).output().unwrap();
    Run {
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
        status: output.status.code().unwrap_or(-1),
    }
}
