//! `grundy rules`

use crate::output::{json_errors, print, print_json};
use grundy::registry::FAMILIES;

/// Every game form with its syntax, its rule and an example (from the one registry).
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy rules
  grundy rules --json
  grundy rules script:examples/games/kayles.star")]
pub struct Args {
    /// One game: its form, its rule and (for a script) its NAME and DESCRIPTION.
    game: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    json_errors(args.json);
    if let Some(game) = &args.game {
        return one_game(game, args.json);
    }
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

/// `grundy rules GAME`: the game's family row, with the game's own words.
fn one_game(word: &str, json: bool) -> anyhow::Result<()> {
    let ruleset = crate::games::resolve(word)?;
    let name = word.split(':').next().unwrap_or(word);
    let family = FAMILIES
        .iter()
        .find(|family| family.names.contains(&name))
        .ok_or_else(|| anyhow::anyhow!("`{word}` has no row in the rules table"))?;
    let about = ruleset.about();
    if json {
        return print_json(&serde_json::json!({
            "game": ruleset.spec(),
            "family": family,
            "about": about,
        }));
    }
    let mut text = format!(
        "{}\n  {}\n  component: {}\n  example:   grundy {}\n",
        ruleset.spec(),
        family.summary,
        family.component,
        family.example
    );
    if let Some(about) = about {
        text.push_str(&format!("  this game: {about}\n"));
    }
    print(&text)
}
