//! `grundy sequence GAME --to N [--json] [--checkpoint FILE]`

use crate::games::resolve;
use crate::long_run::{heap_game, values_to};
use crate::output::print;
use crate::script_worker::script_path;
use grundy::heap::sequence::CompactSequence;
use std::fmt::Write;
use std::path::PathBuf;

/// The nim-sequence G(0) … G(N) of a heap game, whitespace-separated.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy sequence kayles --to 20
  grundy sequence sub:1,3,4 --to 15 --json")]
pub struct Args {
    /// The game: a heap game (nim, bash:M, sub:S, octal:CODE, kayles, …).
    game: String,
    /// The last heap: prints G(0) … G(N).
    #[arg(long, value_name = "N")]
    to: u64,
    /// Keep the values computed in FILE (saved now and then, at the end and on Ctrl-C); a later
    /// run with the same FILE continues from it.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    // A script file can change between runs, and a checkpoint knows the game only by name.
    if script_path(&args.game).is_some() && args.checkpoint.is_some() {
        anyhow::bail!("--checkpoint is for built-in heap games, not script games (their file can change between runs)");
    }
    let ruleset = resolve(&args.game)?;
    let game = heap_game(&*ruleset, &args.game)?;
    let values = values_to(game, args.to, args.checkpoint.as_deref())?;
    let head =
        crate::output::json().then(|| format!("{{\"game\":{},\"values\":[", serde_json::Value::from(game.spec())));
    write_values(&values, head)
}

/// Prints the values in pieces, so that millions of them need no second copy as one text.
fn write_values(values: &CompactSequence, json_head: Option<String>) -> anyhow::Result<()> {
    let (separator, close) = if json_head.is_some() { (",", "]}\n") } else { (" ", "\n") };
    let mut text = json_head.unwrap_or_default();
    for (index, value) in (0..values.len()).filter_map(|heap| values.get(heap)).enumerate() {
        if index > 0 {
            text.push_str(separator);
        }
        // Formatted into the text itself: no string a value.
        write!(text, "{value}").expect("writing to a String does not fail");
        if text.len() >= 1 << 20 {
            print(&text)?;
            text.clear();
        }
    }
    text.push_str(close);
    print(&text)
}
