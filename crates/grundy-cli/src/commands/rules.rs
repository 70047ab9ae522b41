//! `grundy rules`

use crate::output::{json_errors, print, print_json};
use grundy::registry::FAMILIES;

/// Every game form with its syntax, its rule and an example (from the one registry).
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy rules
  grundy rules --json")]
pub struct Args {
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    json_errors(args.json);
    if args.json {
        return print_json(&serde_json::json!({ "games": FAMILIES }));
    }
    let mut text =
        String::from("GAME forms (a position is the sum of its components; `+` adds another game's part):\n");
    for family in FAMILIES {
        text.push_str(&format!(
            "\n  {}\n      {}\n      component: {}\n      example:   grundy {}\n",
            family.syntax, family.summary, family.component, family.example
        ));
    }
    print(&text)
}
