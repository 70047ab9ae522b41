//! `grundy moves GAME [COMPONENT]...`

use crate::commands::value::insert_value;
use crate::games::{PositionArgs, resolve};
use crate::output::{print, print_json};

/// Every winning move, one per line: the position it leads to, then `#` and why it wins.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let ruleset = resolve(&args.position.game)?;
    let components = &args.position.components;
    let moves = ruleset.winning_moves(components)?;
    if args.position.json {
        let mut object = args.position.json_head();
        match ruleset.value(components) {
            Ok(value) => insert_value(&mut object, &value),
            // Some positions have known moves but no computable value (a huge Wythoff pair):
            // say so with a null value and the outcome.
            Err(_) => {
                object.insert("value".into(), serde_json::Value::Null);
                object.insert("outcome".into(), ruleset.outcome(components)?.to_string().into());
            }
        }
        let list: Vec<serde_json::Value> = moves
            .iter()
            .map(|winning| {
                serde_json::json!({
                    "to": winning.to,
                    "component": winning.component,
                    "move": winning.notation,
                    "explain": winning.explain,
                })
            })
            .collect();
        object.insert("moves".into(), list.into());
        return print_json(&object.into());
    }
    if moves.is_empty() {
        eprintln!("no winning move: this is a P-position, every move leads to an N-position");
        return Ok(());
    }
    let mut text = String::new();
    for winning in &moves {
        text.push_str(&format!("{}  # {}\n", winning.to.join(" "), winning.explain));
    }
    print(&text)
}
