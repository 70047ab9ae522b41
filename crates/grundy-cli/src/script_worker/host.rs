//! [`WorkerHost`], the registry's [`ScriptHost`] of the CLI: its script games
//! ([`grundy::script::ScriptFamily`]) ask a [`ScriptProxy`], so no script runs in this process.

use super::ScriptProxy;
use grundy::error::GameError;
use grundy::registry::ScriptHost;
use grundy::ruleset::Ruleset;
use grundy::script::ScriptFamily;
use std::sync::Arc;

/// Builds script games that run in worker processes, under the limits of the global flags.
pub struct WorkerHost;

impl ScriptHost for WorkerHost {
    /// The worker process holds the script's time limits (from the global flags) and its
    /// memo, bounded by what is left of the control's memory budget and counted against it;
    /// the signal handler stops the workers themselves.
    fn build(&self, text: &str, path: &str, control: &grundy::control::Control) -> Result<Arc<dyn Ruleset>, GameError> {
        let proxy = ScriptProxy::spawn(path, super::options(), control).map_err(|error| {
            // The worker's load error already names the game: keep only its reason.
            let message = format!("{error:#}");
            let reason = message.strip_prefix(&format!("bad game `{text}`: ")).unwrap_or(&message).to_owned();
            GameError::BadGame { spec: text.to_owned(), reason }
        })?;
        Ok(ScriptFamily::erased(text, Box::new(proxy)))
    }
}
