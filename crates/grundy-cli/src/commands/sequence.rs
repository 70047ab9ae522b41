//! `grundy sequence GAME --to N [--json] [--checkpoint FILE]`

use crate::games::resolve;
use crate::long_run::{heap_game, values_to};
use crate::output::print;
use std::path::PathBuf;

/// The nim-sequence G(0) … G(N) of a heap game, whitespace-separated.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy sequence sub:1,3,4 --to 15
  grundy sequence kayles --to 20 --json")]
pub struct Args {
    /// The game: a heap game (nim, bash:M, sub:S, octal:CODE, kayles, …).
    game: String,
    /// The last heap: prints G(0) … G(N).
    #[arg(long, value_name = "N")]
    to: u64,
    /// Print one JSON object `{"values": [...]}` instead of text.
    #[arg(long)]
    json: bool,
    /// Keep the values computed in FILE (saved now and then, at the end and on Ctrl-C); a later
    /// run with the same FILE continues from it.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let ruleset = resolve(&args.game)?;
    let game = heap_game(&*ruleset, &args.game)?;
    let values = values_to(game, args.to, args.checkpoint.as_deref())?;
    write_values(&game.spec(), &values, args.json)
}

/// Prints the values in pieces, so that millions of them need no second copy as one text.
fn write_values(spec: &str, values: &[u32], json: bool) -> anyhow::Result<()> {
    // Every JSON answer names its game (docs/json.md).
    let open = if json { format!("{{\"game\":{},\"values\":[", serde_json::to_string(spec)?) } else { String::new() };
    let (separator, close) = if json { (",", "]}\n") } else { (" ", "\n") };
    let mut text = open;
    for (index, value) in values.iter().enumerate() {
        if index > 0 {
            text.push_str(separator);
        }
        text.push_str(&value.to_string());
        if text.len() >= 1 << 20 {
            print(&text)?;
            text.clear();
        }
    }
    text.push_str(close);
    print(&text)
}
