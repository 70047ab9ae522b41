//! `grundy outcome GAME [COMPONENT]...`

use crate::games::{PositionArgs, resolve};
use crate::output::{print, print_json};

/// N or P (D for a draw in a loopy game).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let ruleset = resolve(&args.position.game)?;
    let outcome = ruleset.outcome(&args.position.components)?;
    if args.position.json {
        let mut object = args.position.json_head();
        object.insert("outcome".into(), outcome.to_string().into());
        print_json(&object.into())
    } else {
        print(&format!("{outcome}\n"))
    }
}
