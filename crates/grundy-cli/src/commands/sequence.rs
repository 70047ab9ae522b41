//! `grundy sequence GAME --to N [--table [--width W]] [--json] [--checkpoint FILE]`

use crate::games::resolve;
use crate::long_run::{heap_game, values_to};
use crate::output::print;
use crate::script_worker::script_path;
use grundy::control::Control;
use grundy::heap::sequence::CompactSequence;
use std::fmt::Write;
use std::path::PathBuf;

/// The nim-sequence G(0) … G(N) of a heap game, whitespace-separated, or as a table.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy sequence kayles --to 20
  grundy sequence sub:1,3,4 --to 15 --json
  grundy sequence sub:2,5 --to 27 --table --width 7
  grundy sequence grundys-game --to 100000 --bounded --checkpoint grundy.state")]
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
    /// A table to read patterns off (打表): W heaps a row, each row labelled by its first
    /// heap n, the columns +0 … +(W-1), P-positions (G = 0) marked `*`. A width equal to the
    /// period shows the period as repeated rows. With --json, the values as without it.
    #[arg(long)]
    table: bool,
    /// The heaps a row of --table.
    #[arg(long, value_name = "W", default_value_t = 10, requires = "table", value_parser = clap::value_parser!(u64).range(1..=1000))]
    width: u64,
    /// Grundy's game only: compute in memory bounded by what the rare-value proof reads (the
    /// first 2^28 values, the last 2^28 and the rare heaps: at most 1 GiB whatever N), and
    /// print a summary (the rare heaps, the largest value, a checksum of the values) instead of
    /// the values. With --checkpoint, FILE keeps the run's state, not the sequence.
    #[arg(long, conflicts_with = "table")]
    bounded: bool,
}

pub fn run(args: Args, json: bool, control: &Control) -> anyhow::Result<()> {
    // A script file can change between runs, and a checkpoint knows the game only by name.
    if script_path(&args.game).is_some() && args.checkpoint.is_some() {
        anyhow::bail!("--checkpoint is for built-in heap games, not script games (their file can change between runs)");
    }
    let ruleset = resolve(&args.game, control)?;
    if args.bounded {
        if ruleset.spec() != "grundys-game" {
            anyhow::bail!(
                "--bounded is for grundys-game only (its rare values keep the window small), not `{}`",
                args.game
            );
        }
        return crate::bounded_run::run(args.to, args.checkpoint.as_deref(), json, control);
    }
    let game = heap_game(&*ruleset, &args.game)?;
    let (values, saving) = values_to(&*game, args.to, args.checkpoint.as_deref(), control)?;
    if args.table && !json {
        return saving.after(write_table(&game.spec(), &values, args.width as usize));
    }
    let head = json.then(|| format!("{{\"game\":{},\"values\":[", serde_json::Value::from(game.spec())));
    saving.after(write_values(&values, head))
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

/// The values as rows of `width` heaps: `n | G(n) G(n+1) …`, every column as wide as the widest
/// value, a P-position's 0 followed by `*`.
fn write_table(game: &str, values: &CompactSequence, width: usize) -> anyhow::Result<()> {
    let count = values.len();
    let widest_value = (0..count).filter_map(|heap| values.get(heap)).max().unwrap_or(0).to_string().len();
    let last_label = count.saturating_sub(1) / width * width;
    let label_width = last_label.to_string().len().max(1);
    let cell_width = widest_value.max((width - 1).to_string().len() + 1) + 1;
    let mut text = format!(
        "{game}: G(n) for heaps 0..{}, {width} a row; * marks a P-position (G(n) = 0: the player to move loses)\n",
        count.saturating_sub(1)
    );
    let mut header = format!("{:>label_width$} |", "n");
    for column in 0..width {
        write!(header, " {:>cell_width$}", format!("+{column} ")).expect("writing to a String does not fail");
    }
    text.push_str(header.trim_end());
    text.push('\n');
    for row_start in (0..count).step_by(width) {
        let mut row = format!("{row_start:>label_width$} |");
        for heap in row_start..(row_start + width).min(count) {
            let value = values.get(heap).unwrap_or(0);
            let mark = if value == 0 { "*" } else { " " };
            write!(row, " {:>cell_width$}", format!("{value}{mark}")).expect("writing to a String does not fail");
        }
        text.push_str(row.trim_end());
        text.push('\n');
        if text.len() >= 1 << 20 {
            print(&text)?;
            text.clear();
        }
    }
    print(&text)
}
