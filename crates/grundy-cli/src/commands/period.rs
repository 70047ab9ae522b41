//! `grundy period GAME [--max N] [--json] [--checkpoint FILE]`

use crate::games::resolve;
use crate::long_run::{LongRun, heap_game};
use crate::output::{json_number, print, print_json};
use grundy::heap::period::{Period, PeriodReport, Proof, default_max_heap, proof_needs};
use grundy::heap::{HeapGame, Periodicity};
use std::path::PathBuf;

/// The minimal period and preperiod of a heap game's nim-sequence, with the proof.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy period sub:2,5
  grundy period kayles
  grundy period octal:0.137 --json")]
pub struct Args {
    /// The game: a heap game (nim, bash:M, sub:S, octal:CODE, kayles, …).
    game: String,
    /// The last heap to compute when no period is proved earlier (default: 2^24 - 1 for
    /// subtraction games, 2^21 - 1 for octal games, 2^13 - 1 for hexadecimal games that split
    /// a heap in three, 2^20 - 1 otherwise).
    #[arg(long, value_name = "N")]
    max: Option<u64>,
    /// Print one JSON object instead of text.
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
    let max_heap = args.max.unwrap_or_else(|| default_max_heap(game.periodicity()));
    let mut run = LongRun::start(game, args.checkpoint.as_deref(), max_heap.saturating_add(1))?;
    let report = run.find_period(max_heap)?;
    run.finish(report.interrupted)?;
    if args.json {
        // Every JSON answer names its game (docs/json.md).
        let mut object = to_json(&report);
        object["game"] = serde_json::Value::String(game.spec());
        print_json(&object)
    } else {
        print(&describe(game, &report))
    }
}

fn pattern_json(period: &Period) -> serde_json::Value {
    serde_json::json!({
        "preperiod": json_number(&period.preperiod.to_string()),
        "period": json_number(&period.period.to_string()),
        "saltus": json_number(&period.saltus.to_string()),
    })
}

fn to_json(report: &PeriodReport) -> serde_json::Value {
    let mut object = serde_json::Map::new();
    match &report.proved {
        Some((period, _)) => {
            let serde_json::Value::Object(pattern) = pattern_json(period) else { unreachable!("an object") };
            object.extend(pattern);
            object.insert("proved".into(), true.into());
            object.insert("checked_to".into(), period.checked_to.into());
        }
        None => {
            for key in ["preperiod", "period", "saltus"] {
                object.insert(key.into(), serde_json::Value::Null);
            }
            object.insert("proved".into(), false.into());
            object.insert("checked_to".into(), report.examined.saturating_sub(1).into());
            object.insert("observed".into(), report.observed.as_ref().map_or(serde_json::Value::Null, pattern_json));
        }
    }
    object.into()
}

/// `G(n + p) = G(n) [+ s]`.
fn relation(period: &Period) -> String {
    let shift = format!("G(n + {}) = G(n)", period.period);
    if period.saltus == 0 { shift } else { format!("{shift} + {}", period.saltus) }
}

/// The theorem a game offers, in words.
fn theorem(periodicity: Periodicity) -> String {
    match periodicity {
        Periodicity::Octal { max_removal, max_parts: 2 } => format!(
            "periodicity theorem for octal games (Guy–Smith 1956; Winning Ways ch. 4), t = {max_removal} \
             (the most tokens a move removes): period p from e is proved once G(n + p) = G(n) for all \
             e' <= n < 2e' + p + t, e' = max(e, 1)"
        ),
        Periodicity::Octal { max_removal, max_parts } => format!(
            "periodicity theorem for take-and-break games leaving up to j = {max_parts} heaps (Guy–Smith \
             1956; Howse–Nowakowski 2004), t = {max_removal} (the most tokens a move removes): period p \
             from e is proved once G(n + p) = G(n) for all e' <= n < j·e' + (j - 1)·p + t, e' = max(e, 1)"
        ),
        Periodicity::Subtraction { max_take } => format!(
            "window argument for subtraction games: G(n) for n >= max S = {max_take} is the mex of values among \
             the {max_take} before it, so once {max_take} consecutive values repeat, everything after repeats"
        ),
        Periodicity::Unproved => {
            "none: no periodicity theorem covers this game, so a period can only be observed, never proved".to_owned()
        }
    }
}

fn describe(game: &dyn HeapGame, report: &PeriodReport) -> String {
    let spec = game.spec();
    let mut text = String::new();
    match &report.proved {
        Some((period, proof)) => {
            text.push_str(&format!("{spec}: {period} (proved)\n"));
            text.push_str(&format!("  {} for every heap n >= {}\n", relation(period), period.preperiod));
            let (e, p, last) = (period.preperiod, period.period, period.checked_to);
            let proof = match proof {
                Proof::Octal { max_removal, max_parts, from, bound } => format!(
                    "{}\n  checked: G(n + {p}) = G(n) for all {from} <= n < {} = {bound}, on heaps 0..{last}",
                    theorem(report.periodicity),
                    if *max_parts == 2 {
                        format!("2·{from} + {p} + {max_removal}")
                    } else {
                        format!("{max_parts}·{from} + {}·{p} + {max_removal}", max_parts - 1)
                    }
                ),
                Proof::Window { max_take } => format!(
                    "{}\n  checked: the {max_take} values G({e}..{}) repeat as G({}..{last}), on heaps 0..{last}",
                    theorem(report.periodicity),
                    e + max_take - 1,
                    e + p
                ),
                Proof::ClosedForm { theorem } => {
                    format!("closed form {theorem}\n  checked against the values computed on heaps 0..{last}")
                }
            };
            text.push_str(&format!("proof: {proof}\n"));
        }
        None => {
            text.push_str(&format!("{spec}: no period proved for heaps 0..{}\n", report.examined.saturating_sub(1)));
            text.push_str(&format!("theorem: {}\n", theorem(report.periodicity)));
            match &report.observed {
                Some(observed) => {
                    let mut line = format!(
                        "observed, not proved: {observed}: {} holds for {} <= n <= {}",
                        relation(observed),
                        observed.preperiod,
                        observed.checked_to - observed.period
                    );
                    match proof_needs(report.periodicity, observed.preperiod, observed.period) {
                        Some(needed) if observed.saltus == 0 => line.push_str(&format!(
                            "; if it goes on, a proof needs heaps 0..{needed} (try --max {needed})"
                        )),
                        _ if observed.saltus != 0 => line.push_str("; no theorem here proves an arithmetic period"),
                        _ => {}
                    }
                    text.push_str(&line);
                    text.push('\n');
                }
                None => {
                    text.push_str("observed: no pattern G(n + p) = G(n) + s holds over the last half of the values\n")
                }
            }
        }
    }
    text.push_str(&format!("values computed by: {}\n", game.method()));
    text
}
