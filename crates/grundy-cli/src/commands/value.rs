//! `grundy value GAME [COMPONENT]... [+ GAME [COMPONENT]...]`, or `grundy value [GAME]
//! --input-format NAME|FILE < judge.in`

use crate::games::for_each_position;
use crate::judge::{PositionOrJudgeInput, Source, for_each_test};
use crate::output::print;
use grundy::answer::{PositionAnswer, PositionReport, ValueReport};
use grundy::control::Control;
use grundy::sum::Position;

/// The Grundy value of the sum of the components.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy value nim 3 4 5
  grundy value nim 3 + wythoff 4,7 + sub:2,5 9
  printf '3 4 5\\n1 2 3\\n' | grundy value nim
  printf '2\\n2 5\\n3\\n2 4 7\\n' | grundy value --input-format acwing-893")]
pub struct Args {
    #[command(flatten)]
    position: PositionOrJudgeInput,
}

pub fn run(args: Args, json: bool, control: &Control) -> anyhow::Result<()> {
    // The answer to one position: its line of text, or of JSON.
    let answer = |position: &Position| -> anyhow::Result<String> {
        let value = position.value()?;
        if json {
            let answer = PositionAnswer { position: PositionReport::of(position), value: ValueReport::of(&value) };
            Ok(format!("{}\n", serde_json::to_string(&answer)?))
        } else {
            Ok(format!("{value}\n"))
        }
    };
    match args.position.source()? {
        Source::Positions(position) => {
            for_each_position(position.positions(control)?, json, |position| print(&answer(position)?))
        }
        Source::Judge(format, _) if format.misere() => anyhow::bail!(
            "the format plays misère (`play misere`), where a position has no Grundy value: use `grundy outcome --input-format`"
        ),
        Source::Judge(format, game) => for_each_test(&format, game.as_deref(), control, |position, _| answer(position)),
    }
}
