//! The `grundy` binary: the command is the library's (`grundy_cli::run`), shared with the
//! Python package's `grundy` command.

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(grundy_cli::run(std::env::args_os()))
}
