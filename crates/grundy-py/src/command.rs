//! The `grundy` command inside the Python package: `pip install .` installs a `grundy` script
//! (`[project.scripts]` in pyproject.toml, `python/grundy/_command.py`) that runs the command
//! line tool compiled into this very extension ([`grundy_cli::run_as`]), so that one build
//! gives both the Python package and the command.

use pyo3::prelude::*;
use std::ffi::OsString;

/// Runs the `grundy` command line tool with `arguments` (the program's name first, as in
/// `sys.argv`) and returns its exit status. `own_command` starts the command again (the
/// interpreter and its arguments) for the children grundy runs of itself: script games'
/// workers, `grundy serve`'s requests.
///
/// It takes over the process (signal handlers; a second Ctrl-C ends it at once): the
/// `grundy` script calls it as its whole work, then exits with its status.
#[pyfunction]
pub fn run_command(py: Python<'_>, arguments: Vec<OsString>, own_command: Vec<OsString>) -> u8 {
    py.detach(|| grundy_cli::run_as(arguments, own_command))
}
