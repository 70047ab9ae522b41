//! How this program is started again as a child: the script game's worker
//! (`grundy __script-worker`) and `grundy serve`'s one process per request. `run_as` sets it
//! once (the Python command's interpreter); by default it is this executable.

use std::ffi::OsString;
use std::sync::OnceLock;

/// The program and leading arguments that start the command again (empty: this executable).
static OWN_COMMAND: OnceLock<Vec<OsString>> = OnceLock::new();

/// Makes `own_command` the command that starts this program again (once, in `run_as`).
pub fn set(own_command: Vec<OsString>) {
    let _ = OWN_COMMAND.set(own_command);
}

/// A command that starts this program again (its arguments to be added): this executable, or
/// what the host gave `run_as`.
pub fn command() -> anyhow::Result<std::process::Command> {
    match OWN_COMMAND.get().map(Vec::as_slice) {
        Some([program, leading @ ..]) => {
            let mut command = std::process::Command::new(program);
            command.args(leading);
            Ok(command)
        }
        _ => {
            let executable = std::env::current_exe()
                .map_err(|error| anyhow::anyhow!("cannot find grundy's own executable: {error}"))?;
            Ok(std::process::Command::new(executable))
        }
    }
}
