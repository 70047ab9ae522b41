//! `grundy sequence GAME --to N [--json] [--checkpoint FILE]`

use crate::games::resolve;
use crate::long_run::{heap_game, values_to};
use crate::output::print;
use crate::script_worker::{ScriptFlags, ScriptProxy, script_path};
use std::path::PathBuf;

/// The nim-sequence G(0) … G(N) of a heap game, whitespace-separated.
#[derive(clap::Args, Debug)]
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
    #[command(flatten)]
    script: ScriptFlags,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    // Script games (issue 12): the whole sequence is computed in the script's worker process.
    if let Some(path) = script_path(&args.game) {
        if args.checkpoint.is_some() {
            anyhow::bail!("--checkpoint is for built-in heap games, not script games");
        }
        let values = ScriptProxy::spawn(path, args.script.options())?.sequence(args.to)?;
        let values: Vec<u32> = values.iter().map(|&value| u32::try_from(value).unwrap_or(u32::MAX)).collect();
        return write_values(&values, args.json);
    }
    let ruleset = resolve(&args.game)?;
    let game = heap_game(&*ruleset, &args.game)?;
    let values = values_to(game, args.to, args.checkpoint.as_deref())?;
    write_values(&values, args.json)
}

/// Prints the values in pieces, so that millions of them need no second copy as one text.
fn write_values(values: &[u32], json: bool) -> anyhow::Result<()> {
    let (open, separator, close) = if json { ("{\"values\":[", ",", "]}\n") } else { ("", " ", "\n") };
    let mut text = String::from(open);
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
