//! `grundy genus GAME --to N [--json] [--max-positions K]`

use crate::games::resolve;
use crate::long_run::with_heap_options;
use crate::output::{print, print_json};
use grundy::control::Control;
use grundy::heap::AsHeapGame;
use grundy::misere::genus::genus_table;
use grundy::misere::search::DEFAULT_MAX_POSITIONS;

/// The largest `--to` accepted: genus tables are built heap by heap.
pub const MAX_HEAP: u64 = 10_000;

/// Conway's genus g^(γ0 γ1 …) of each heap 0..N under misère play, and which heaps are tame.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy genus dawson --to 5
  grundy genus kayles --to 30 --json")]
pub struct Args {
    /// The game: a heap game (nim, sub:S, octal:CODE, kayles, dawson, grundys-game, …).
    game: String,
    /// The last heap: heaps 0 … N.
    #[arg(long, value_name = "N")]
    to: u64,
    /// The most sums with a wild heap searched for their genus.
    #[arg(long, value_name = "K", default_value_t = DEFAULT_MAX_POSITIONS)]
    max_positions: usize,
}

pub fn run(args: Args, json: bool, control: &Control) -> anyhow::Result<()> {
    if args.to > MAX_HEAP {
        anyhow::bail!("--to {} is past the largest heap a genus table covers, {MAX_HEAP}", args.to);
    }
    let ruleset = resolve(&args.game, control)?;
    let game = ruleset.heap_game().ok_or_else(|| {
        anyhow::anyhow!(
            "`{}` is not a heap game: genus takes {}, or a script on integers",
            args.game,
            grundy::registry::heap_family_list()
        )
    })?;
    let table = with_heap_options(&*game, |options| genus_table(options, args.to, args.max_positions))?;
    let first_wild = table.heaps.iter().find(|entry| !entry.tame).map(|entry| entry.heap);
    if json {
        let heaps: Vec<serde_json::Value> = table
            .heaps
            .iter()
            .map(|entry| {
                serde_json::json!({
                    "heap": entry.heap,
                    "genus": entry.genus.to_string(),
                    "normal": entry.genus.normal,
                    "misere": entry.genus.misere,
                    "tame": entry.tame,
                })
            })
            .collect();
        return print_json(&serde_json::json!({
            "game": game.spec(),
            "to": args.to,
            "heaps": heaps,
            "all_tame": first_wild.is_none(),
            "first_wild": first_wild,
        }));
    }
    let mut text = format!("{}: genus of heaps 0..{} (misère play)\n", game.spec(), args.to);
    for entry in &table.heaps {
        text.push_str(&format!("{} {} {}\n", entry.heap, entry.genus, if entry.tame { "tame" } else { "wild" }));
    }
    match first_wild {
        None => text.push_str(&format!(
            "every heap 0..{} is tame: a sum of them is P iff, read as misère Nim with each heap's normal value, Bouton's rule says so\n",
            args.to
        )),
        Some(heap) => text.push_str(&format!(
            "heap {heap} is the first wild heap: sums with wild heaps need the misère quotient (grundy quotient)\n"
        )),
    }
    print(&text)
}
