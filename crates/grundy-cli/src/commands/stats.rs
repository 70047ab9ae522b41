//! `grundy stats GAME [--from A] --to N [--heaps K] [--json]`: also the first player's exact
//! chance of winning when each heap is drawn uniformly from `A..=N`.

use crate::games::resolve;
use crate::long_run::{LongRun, heap_game, interruption, values_to};
use crate::output::print;
use grundy::GameError;
use grundy::control::Control;
use grundy::heap::stats::{
    check_zero_xor_tuples, value_counts, windowed_grundy_counts, windowed_spans, zero_xor_tuples_in_place,
};
use grundy::heap::{HeapGame, SequenceRun};
use indicatif::ProgressBar;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::Zero;

/// How often each value occurs among heaps 0..N, and the exact share of P-positions among all
/// sums of K such heaps.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy stats nim --to 7 --heaps 3
  grundy stats nim --to 1000 --heaps 2 --counts
  grundy stats kayles --to 100 --heaps 2 --json
  grundy stats bash:3 --from 1 --to 1000")]
pub struct Args {
    /// The game: a heap game (nim, bash:M, sub:S, octal:CODE, kayles, …).
    game: String,
    /// The first heap counted (heaps drawn from A … N).
    #[arg(long, value_name = "A", default_value_t = 0)]
    from: u64,
    /// The last heap: heaps A … N are counted (a range reaching heap 2^24 through the game's
    /// proved period, so N may be any u64 for Bash, subtraction and octal games).
    #[arg(long, value_name = "N")]
    to: u64,
    /// The number of heaps in a sum (each any of 0 … N).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    heaps: u32,
    /// Print the table of how many heaps have each value, below the answer, however long (by
    /// default only when it has at most 32 rows; `--json` always gives the counts).
    #[arg(long)]
    counts: bool,
}

/// The value-count table is printed without `--counts` up to this many rows.
const SHORT_TABLE_ROWS: usize = 32;

pub fn run(args: Args, json: bool, control: &Control) -> anyhow::Result<()> {
    let ruleset = resolve(&args.game, control)?;
    let game = heap_game(&*ruleset, &args.game)?;
    // Counted from the compact values: a long sequence is never widened to four bytes a heap.
    if args.from > args.to {
        anyhow::bail!("--from {} is above --to {}: heaps are drawn from A..N", args.from, args.to);
    }
    let heap_count = u64::try_from(u128::from(args.to) - u128::from(args.from) + 1)
        .map_err(|_| anyhow::anyhow!("--from {} --to {}: at most 2^64 - 1 heaps", args.from, args.to))?;
    let through_the_period =
        if args.to >= DIRECT_HEAPS { counts_through_the_period(&*game, args.from, args.to, control)? } else { None };
    let counts = match through_the_period {
        Some(counts) => counts,
        None => match counts_in_a_window(&*game, args.from, args.to, control)? {
            Some(counts) => counts,
            None => {
                // No checkpoint, so nothing to save.
                let (values, _no_checkpoint) = values_to(&*game, args.to, None, control)?;
                value_counts(values.iter().skip(args.from as usize))
            }
        },
    };
    // Everything that can refuse is checked before the first line is printed, and before the
    // total, which has as many digits as the refused answer would.
    check_zero_xor_tuples(&counts, args.heaps, control)?;
    let total = BigUint::from(heap_count).pow(args.heaps);
    if json {
        return print_json_counts(game.spec(), counts, args.heaps, &total, control);
    }
    // The answer first; the table below it when short or asked for (`--to 100000000` of Nim
    // has 10^8 rows).
    let table = (args.counts || counts.len() <= SHORT_TABLE_ROWS).then(|| {
        let mut copy = Vec::new();
        copy.try_reserve_exact(counts.len())
            .map(|()| {
                copy.extend_from_slice(&counts);
                copy
            })
            .map_err(|_| anyhow::anyhow!("not enough memory to keep the table of {} value counts", counts.len()))
    });
    let table = table.transpose()?;
    let rows = counts.len();
    let p_positions = zero_xor_tuples_in_place(counts, args.heaps, control)?;
    let n_positions = &total - &p_positions;
    let one = BigUint::from(1u32);
    let sums = match (args.heaps == 1, total == one) {
        (true, true) => format!("heap {}..{}", args.from, args.to),
        (true, false) => format!("heaps {}..{}", args.from, args.to),
        (false, true) => format!("sum of {} heaps from {}..{}", args.heaps, args.from, args.to),
        (false, false) => format!("sums of {} heaps from {}..{}", args.heaps, args.from, args.to),
    };
    let p_word = if p_positions == one { "P-position" } else { "P-positions" };
    let mut piece = format!(
        "among the {total} {sums}: {p_positions} {p_word} ({}); the player to move wins {n_positions} ({})\n",
        share(&p_positions, &total),
        share(&n_positions, &total)
    );
    let Some(table) = table else {
        piece.push_str(&format!("({rows} values occur among the heaps: --counts prints how many heaps have each)\n"));
        return print(&piece);
    };
    // A count a line, written in pieces.
    piece.push_str(&format!("{}: values of heaps {}..{}\nvalue count\n", game.spec(), args.from, args.to));
    for (value, count) in table.iter().enumerate() {
        piece.push_str(&format!("{value} {count}\n"));
        if piece.len() >= PIECE_BYTES {
            print(&piece)?;
            piece.clear();
        }
    }
    print(&piece)
}

/// The `--json` answer: the counts (a number each, written in pieces: `--to 100000000` of Nim
/// has 10^8 counts, gigabytes as one string), then the P-positions and the total.
fn print_json_counts(
    game: String,
    counts: Vec<u64>,
    heaps: u32,
    total: &BigUint,
    control: &Control,
) -> anyhow::Result<()> {
    // serde_json writes keys sorted: `counts` first, then the rest after it.
    let mut piece = String::from("{\"counts\":[");
    for (value, count) in counts.iter().enumerate() {
        piece.push_str(&format!("{}{count}", if value == 0 { "" } else { "," }));
        if piece.len() >= PIECE_BYTES {
            print(&piece)?;
            piece.clear();
        }
    }
    let p_positions = zero_xor_tuples_in_place(counts, heaps, control)?;
    let rest = serde_json::json!({
        "game": game,
        // Strings, as docs/json.md's rule 1 has it for what can be big: `(N+1)^K` passes
        // 2^53 at once, and readers refuse or round long JSON numbers.
        "p_positions": p_positions.to_string(),
        "total": total.to_string(),
    });
    let rest = serde_json::to_string(&rest)?;
    piece.push_str(&format!("],{}\n", &rest[1..]));
    print(&piece)
}

/// Ranges reaching this heap are counted through the game's proved period, not heap by heap
/// (the first player's chance of winning with Bash heaps up to 10^18).
const DIRECT_HEAPS: u64 = 1 << 24;

/// How many heaps of `from..=to` have each value, from the proved period (the library's
/// [`grundy::heap::stats::counts_through_the_period`]). `None` when no period without saltus
/// is proved within `period`'s default search (Nim's values grow): the heaps are then counted
/// one by one.
fn counts_through_the_period(
    game: &dyn HeapGame,
    from: u64,
    to: u64,
    control: &Control,
) -> anyhow::Result<Option<Vec<u64>>> {
    let max_heap = game.default_max_heap();
    let mut run = LongRun::start(SequenceRun::for_period(game, max_heap), None, control)?;
    let report = run.find_period(max_heap)?;
    let (values, _no_checkpoint) = run.finish(report.interrupted)?;
    let Some((period, _)) = report.proved.filter(|(period, _)| period.saltus == 0) else {
        return Ok(None);
    };
    // The proof compared heaps past `start + length`: every value read there was computed.
    Ok(Some(grundy::heap::stats::counts_through_the_period(&period, &values, from, to)?))
}

/// Grundy's game counted in memory bounded by a window (`grundy::heap::stats::windowed_spans`:
/// 2^27 heaps in 160 MiB of tables, not the 256 MiB of the whole sequence), the values never kept, with
/// the progress bar and signals of a long run. `None` for another game, for a range the whole
/// sequence holds in less memory, and when a value needs one outside the window (then the
/// heaps are counted from the whole sequence, as before: the answer is the same either way).
fn counts_in_a_window(game: &dyn HeapGame, from: u64, to: u64, control: &Control) -> anyhow::Result<Option<Vec<u64>>> {
    let Some(spans) = to.checked_add(1).and_then(windowed_spans) else { return Ok(None) };
    if game.canonical_spec() != "grundys-game" {
        return Ok(None);
    }
    let _stopping = crate::signals::stopping();
    let (bar, control) = crate::progress_bar::values_bar(&game.spec(), to + 1, control);
    let counted = windowed_grundy_counts(from, to, spans, &control);
    bar.as_ref().map(ProgressBar::finish_and_clear);
    match counted {
        Ok(counted) if counted.computed > to => Ok(Some(counted.counts)),
        Ok(counted) => Err(interruption(counted.computed, None)),
        Err(GameError::OutOfReach(_)) => Ok(None),
        Err(error) => Err(error.into()),
    }
}

/// The output is printed in pieces of about this many bytes.
const PIECE_BYTES: usize = 1 << 16;

/// `part/whole` in lowest terms and as a decimal: `1/8 = 0.125000`.
fn share(part: &BigUint, whole: &BigUint) -> String {
    if part.is_zero() {
        return "0".to_owned();
    }
    let common = part.gcd(whole);
    let (numerator, denominator) = (part / &common, whole / &common);
    // Rounded to six decimals.
    let scaled: BigUint = (part * 2_000_000u32 + whole) / (whole * 2u32);
    let (units, millionths) = scaled.div_rem(&BigUint::from(1_000_000u32));
    let fraction =
        if denominator == BigUint::from(1u32) { numerator.to_string() } else { format!("{numerator}/{denominator}") };
    format!("{fraction} = {units}.{millionths:0>6}")
}
