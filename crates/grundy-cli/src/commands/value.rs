//! `grundy value GAME [COMPONENT]... [+ GAME [COMPONENT]...]`

use crate::games::{PositionArgs, for_each_position};
use crate::output::{print, print_json};
use grundy::answer::{PositionAnswer, PositionReport, ValueReport};

/// The Grundy value of the sum of the components.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy value nim 3 4 5
  grundy value nim 3 + wythoff 4,7 + sub:2,5 9
  printf '3 4 5\\n1 2 3\\n' | grundy value nim")]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let json = crate::output::json();
    for_each_position(args.position.positions()?, json, |position| {
        let value = position.value()?;
        if json {
            print_json(&PositionAnswer { position: PositionReport::of(position), value: ValueReport::of(&value) })
        } else {
            print(&format!("{value}\n"))
        }
    })
}
