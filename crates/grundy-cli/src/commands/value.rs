//! `grundy value GAME [COMPONENT]...`

use crate::games::{PositionArgs, resolve};
use crate::output::{json_number, print, print_json};
use grundy::Value;

/// The Grundy value of the sum of the components.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let ruleset = resolve(&args.position.game)?;
    let value = ruleset.value(&args.position.components)?;
    if args.position.json {
        let mut object = args.position.json_head();
        insert_value(&mut object, &value);
        print_json(&object.into())
    } else {
        print(&format!("{value}\n"))
    }
}

/// Adds `"value"` (a number, or null with `"infinite": [...]` and `"outcome"` for a loopy ∞
/// value).
pub fn insert_value(object: &mut serde_json::Map<String, serde_json::Value>, value: &Value) {
    match value {
        Value::Finite(number) => {
            object.insert("value".into(), json_number(&number.to_string()));
        }
        Value::Infinite { reachable } => {
            object.insert("value".into(), serde_json::Value::Null);
            object.insert("infinite".into(), reachable.clone().into());
            // `∞(K)` alone does not say who wins: N when 0 ∈ K, else a draw D.
            object.insert("outcome".into(), value.outcome().to_string().into());
        }
    }
}
