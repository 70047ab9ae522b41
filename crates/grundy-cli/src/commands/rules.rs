//! `grundy rules`

use crate::output::{print, print_json};

/// Every game form with its syntax and an example.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let forms = grundy::spec::game_forms();
    if args.json {
        return print_json(&serde_json::json!({ "games": forms }));
    }
    let mut text = String::from("GAME forms (a position is the sum of its components):\n");
    for form in &forms {
        text.push_str(&format!(
            "\n  {}\n      {}\n      component: {}\n      example:   grundy {}\n",
            form.syntax, form.summary, form.component, form.example
        ));
    }
    print(&text)
}
