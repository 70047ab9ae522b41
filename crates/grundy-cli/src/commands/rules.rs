//! `grundy rules`

use crate::example_files::EXAMPLE_FILES;
use crate::output::{print, print_json};
use anyhow::Context;
use grundy::control::Control;
use grundy::registry::FAMILIES;
use std::path::{Path, PathBuf};

/// Every game form with its syntax, its rule and an example (from the one registry).
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy rules
  grundy rules --json
  grundy rules --write-examples /tmp/grundy-examples && grundy rules script:/tmp/grundy-examples/kayles.star")]
pub struct Args {
    /// One game: its form, its rule and (for a script) its NAME and DESCRIPTION.
    game: Option<String>,
    /// Write the example scripts and graph files the examples name into DIR (created when
    /// missing; a file of the same name that differs is not replaced).
    #[arg(long, value_name = "DIR", conflicts_with = "game")]
    write_examples: Option<PathBuf>,
}

/// Writes grundy's [`EXAMPLE_FILES`] into `directory`: each file through a temporary one renamed over
/// (two runs at once never see half a file); an existing file that differs is refused.
fn write_examples(directory: &Path, json: bool) -> anyhow::Result<()> {
    let shown = directory.display();
    std::fs::create_dir_all(directory).with_context(|| format!("cannot create `{shown}`"))?;
    let mut written = Vec::new();
    for (name, contents) in EXAMPLE_FILES {
        let path = directory.join(name);
        match std::fs::read(&path) {
            Ok(existing) if existing == contents.as_bytes() => {}
            Ok(_) => anyhow::bail!("`{}` exists and differs from grundy's example: choose another DIR", path.display()),
            Err(_) => {
                crate::atomic_file::write(&path, contents.as_bytes())
                    .with_context(|| format!("cannot write `{}`", path.display()))?;
            }
        }
        written.push(path.display().to_string());
    }
    if json {
        return print_json(&serde_json::json!({ "directory": shown.to_string(), "files": written }));
    }
    print(&format!(
        "{} example files in {shown}: {}\n",
        written.len(),
        EXAMPLE_FILES.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(" ")
    ))
}

pub fn run(args: Args, json: bool, control: &Control) -> anyhow::Result<()> {
    if let Some(directory) = &args.write_examples {
        return write_examples(directory, json);
    }
    if let Some(game) = &args.game {
        return one_game(game, json, control);
    }
    if json {
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
    // Where the contest questions are answered (打表, 对拍 and the odds of winning).
    let formats: String = grundy::judge_format::BUILTIN_FORMATS
        .iter()
        .map(|(name, problem, _)| format!("      {name:<11} {problem}\n"))
        .collect();
    text.push_str(&format!(
        "\nContest problems:\n  a judge's input, answered in its words: grundy outcome --input-format NAME|FILE < data.in; built in:\n{}  a solution as submitted, against the definition (对拍): grundy check --input-format NAME|FILE --program CMD (tests drawn from the whole input family; --misere for misère play)\n  the first player's exact chance of winning, heaps drawn uniformly from A..N: grundy stats GAME --from A --to N [--heaps K]\n  a pattern by eye (打表): grundy sequence GAME --to N --table --width W\n  the pattern as code to paste into a solution (C++ or Python): grundy guess GAME --emit cpp\n",
        formats
    ));
    print(&text)
}

/// `grundy rules GAME`: the game's family row, with the game's own words.
fn one_game(word: &str, json: bool, control: &Control) -> anyhow::Result<()> {
    let ruleset = crate::games::resolve(word, control)?;
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
