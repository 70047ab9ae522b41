//! `grundy outcome GAME [COMPONENT]... [+ GAME [COMPONENT]...]`

use crate::games::{PositionArgs, for_each_position};
use crate::output::{print, print_json};
use grundy::answer::{PositionAnswer, PositionReport, ValueReport};

/// N (the player to move wins) or P (the player to move loses); D for a draw in a loopy game.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy outcome nim 1 2 3
  grundy outcome --misere nim 1 1 1
  grundy outcome kayles 10 + corners 3,5 + coins:ruler HTTH
  printf '2 1 3\\n1 5\\n3 2 3 4\\n' | grundy outcome sub:2,5")]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Misère play: whoever makes the last move loses (how it was decided goes to stderr, and
    /// to `"method"` in JSON).
    #[arg(long)]
    misere: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let json = crate::output::json();
    let misere = args.misere;
    for_each_position(args.position.positions()?, json, |position| {
        if misere {
            let (outcome, method) =
                grundy::misere::sums::outcome(position, crate::limits::misere(), crate::games::control())?;
            if json {
                let answer = PositionAnswer {
                    position: PositionReport::of(position),
                    value: ValueReport::outcome_only(outcome),
                };
                let mut object = serde_json::to_value(answer)?;
                object["misere"] = true.into();
                object["method"] = method.to_string().into();
                return print_json(&object);
            }
            eprintln!("misère play: {outcome} {method}");
            return print(&format!("{outcome}\n"));
        }
        let outcome = position.outcome()?;
        if json {
            // The value too, where the game has one.
            let value =
                position.value().map_or_else(|_| ValueReport::outcome_only(outcome), |value| ValueReport::of(&value));
            print_json(&PositionAnswer { position: PositionReport::of(position), value })
        } else {
            print(&format!("{outcome}\n"))
        }
    })
}
