//! `grundy quotient GAME --to N [--max-order K] [--json]`

use crate::games::resolve;
use crate::long_run::with_heap_options;
use crate::output::{print, print_json};
use grundy::misere::quotient::{DEFAULT_MAX_ORDER, misere_quotient};

/// The largest `--to` accepted: the quotient is built heap by heap.
pub const MAX_HEAP: u64 = 10_000;

/// The misère quotient (Plambeck–Siegel) of all sums of heaps 0..N: its presentation, order,
/// P-portion and the element of each heap.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy quotient octal:0.75 --to 8
  grundy quotient kayles --to 100 --json")]
pub struct Args {
    /// The game: a heap game (sub:S, octal:CODE, kayles, dawson, grundys-game, nim, …).
    game: String,
    /// The last heap: the quotient of all sums of heaps 0 … N.
    #[arg(long, value_name = "N")]
    to: u64,
    /// Stop, saying so, when the quotient grows past K elements.
    #[arg(long, value_name = "K", default_value_t = DEFAULT_MAX_ORDER)]
    max_order: usize,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.to > MAX_HEAP {
        anyhow::bail!("--to {} is past the largest heap a quotient covers, {MAX_HEAP}", args.to);
    }
    let ruleset = resolve(&args.game)?;
    let game = ruleset.heap_game().ok_or_else(|| {
        anyhow::anyhow!(
            "`{}` is not a heap game: quotient takes nim, sub:S, octal:CODE, kayles, dawson, grundys-game, …",
            args.game
        )
    })?;
    let quotient =
        with_heap_options(game, |options| misere_quotient(options, args.to, args.max_order, crate::games::control()))?;
    if crate::output::json() {
        return print_json(&serde_json::json!({
            "game": game.spec(),
            "to": quotient.to,
            "order": quotient.order,
            "product": quotient.product,
            "identity": quotient.identity,
            "p_portion": quotient.p_portion,
            "heaps": quotient.heaps,
            "generators": quotient.generators,
            "relations": quotient.relations,
            "words": quotient.words,
        }));
    }
    let mut text = format!("{}: misère quotient of the sums of heaps 0..{}\n", game.spec(), args.to);
    text.push_str(&quotient.presentation());
    text.push_str("\nheap element\n");
    for (heap, &element) in quotient.heaps.iter().enumerate() {
        text.push_str(&format!("{heap} {}\n", quotient.words[element as usize]));
    }
    text.push_str("a sum is a misère P-position iff the product of its heaps' elements is in the P-portion\n");
    print(&text)
}
