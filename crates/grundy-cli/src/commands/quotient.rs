//! `grundy quotient GAME --to N [--max-order K] [--check] [--json]`

use crate::games::resolve;
use crate::long_run::with_heap_options;
use crate::output::{Stop, error_in_json, print, print_json};
use grundy::control::Control;
use grundy::heap::AsHeapGame;
use grundy::misere::quotient::{MisereQuotient, QuotientStop, SearchCheck, max_order_for_memory, misere_quotient_run};

/// The largest `--to` accepted: the quotient is built heap by heap.
pub const MAX_HEAP: u64 = 10_000;

/// How many random sums `--check` compares, and the most counters in one of them (exhaustive
/// search grows quickly with the counters).
const CHECK_SUMS: usize = 300;
const CHECK_COUNTERS: u64 = 36;

/// The misère quotient (Plambeck–Siegel) of all sums of heaps 0..N: its presentation, order,
/// P-portion and the element of each heap (the pretending function). Every quotient printed is
/// proved; a limit or Ctrl-C prints the quotient of the heaps done.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy quotient octal:0.75 --to 8
  grundy quotient dawson --to 25 --check
  grundy quotient kayles --to 100 --json")]
pub struct Args {
    /// The game: a heap game (sub:S, octal:CODE, kayles, dawson, grundys-game, nim, …).
    game: String,
    /// The last heap: the quotient of all sums of heaps 0 … N.
    #[arg(long, value_name = "N")]
    to: u64,
    /// Stop, saying so and printing the quotient of the heaps done, when the quotient (or a
    /// candidate for it) grows past K elements [default: the largest order whose
    /// multiplication table fits in the memory limit, 11585 for 1 GiB (--memory-limit)].
    #[arg(long, value_name = "K")]
    max_order: Option<usize>,
    /// Also compare the quotient's outcomes with exhaustive misère search on random sums.
    #[arg(long)]
    check: bool,
}

pub fn run(args: Args, json: bool, control: &Control) -> anyhow::Result<()> {
    if args.to > MAX_HEAP {
        anyhow::bail!("--to {} is past the largest heap a quotient covers, {MAX_HEAP}", args.to);
    }
    let ruleset = resolve(&args.game, control)?;
    let game = ruleset.heap_game().ok_or_else(|| {
        anyhow::anyhow!(
            "`{}` is not a heap game: quotient takes {}, or a script on integers",
            args.game,
            grundy::registry::heap_family_list()
        )
    })?;
    // The run stops at the cancel flag and prints what it proved: the watchdog lets it end.
    let _stopping = crate::signals::stopping();
    let (run, check) = with_heap_options(&*game, |options| {
        let max_order = args.max_order.unwrap_or_else(|| max_order_for_memory(control.memory_limit()));
        let run = misere_quotient_run(options, args.to, max_order, control)?;
        let check = match args.check && run.stopped.is_none() {
            true => Some(run.quotient.check_against_search(
                options,
                CHECK_SUMS,
                CHECK_COUNTERS,
                args.to ^ 0x9e37,
                control,
            )?),
            false => None,
        };
        Ok((run, check))
    })?;
    let quotient = &run.quotient;
    let stop = run.stopped.map(|stopped| match stopped {
        QuotientStop::Cancelled => anyhow::Error::new(Stop::Interrupted(format!(
            "interrupted at heap {}: the quotient of heaps 0..{} is printed (proved)",
            quotient.to + 1,
            quotient.to
        ))),
        QuotientStop::Limit(error) => anyhow::Error::new(error)
            .context(format!("the quotient of heaps 0..{} is printed (proved); stopped", quotient.to)),
    });
    let disagreement = check.as_ref().and_then(|check| check.disagreement.as_ref()).map(|found| {
        anyhow::anyhow!(
            "the quotient says {} but exhaustive search says {} for the sum {:?}: please report this bug",
            found.quotient,
            found.search,
            found.sum
        )
    });
    let failure = stop.or(disagreement);
    if json {
        let mut document = serde_json::json!({
            "game": game.spec(),
            "to": quotient.to,
            "complete": failure.is_none(),
            "order": quotient.order,
            "product": quotient.product,
            "identity": quotient.identity,
            "p_portion": quotient.p_portion,
            "p_portion_words": quotient.p_portion.iter().map(|&x| &quotient.words[x as usize]).collect::<Vec<_>>(),
            "heaps": quotient.heaps,
            "pretending_function": quotient.pretending_function(),
            "generators": quotient.generators,
            "relations": quotient.relations,
            "words": quotient.words,
        });
        if let Some(check) = &check {
            document["check"] = serde_json::to_value(check)?;
        }
        return match failure {
            None => print_json(&document),
            Some(error) => {
                let (object, written) = error_in_json(&error);
                document["error"] = object;
                print_json(&document)?;
                Err(written)
            }
        };
    }
    print(&describe(&game.spec(), quotient, check.as_ref()))?;
    failure.map_or(Ok(()), Err)
}

/// The text answer: presentation, P-portion, the pretending function and each heap's element.
fn describe(spec: &str, quotient: &MisereQuotient, check: Option<&SearchCheck>) -> String {
    let mut text = format!("{spec}: misère quotient of the sums of heaps 0..{}\n", quotient.to);
    text.push_str(&quotient.presentation());
    text.push_str(&format!(
        "\npretending function (heaps 0..{}): {}",
        quotient.to,
        quotient.pretending_function().join(" ")
    ));
    text.push_str("\nheap element\n");
    for (heap, word) in quotient.pretending_function().iter().enumerate() {
        text.push_str(&format!("{heap} {word}\n"));
    }
    text.push_str("a sum is a misère P-position iff the product of its heaps' elements is in the P-portion\n");
    if let Some(check) = check {
        text.push_str(&format!(
            "check: {} random sums agree with exhaustive misère search ({} skipped as too large)\n",
            check.agreed, check.skipped
        ));
    }
    text
}
