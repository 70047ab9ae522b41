//! `grundy table GAME [--size N]`

use crate::commands::value::insert_value;
use crate::games::resolve;
use crate::output::{print, print_json};
use grundy::ruleset::Table;

/// The game's whole table: G(x, y) of a two-heap game, or every vertex of a graph game.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game (wythoff, dag:FILE, geography:FILE).
    game: String,
    /// The table's side, for two-heap games: x, y = 0 … N−1.
    #[arg(long)]
    size: Option<u64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let ruleset = resolve(&args.game)?;
    let Some(table) = ruleset.table(args.size) else {
        anyhow::bail!("`{}` has no table (tables exist for two-heap and graph games)", args.game);
    };
    match table? {
        Table::Grid { values } => {
            if args.json {
                return print_json(&serde_json::json!({ "game": args.game, "values": values }));
            }
            let mut text = String::new();
            for row in &values {
                let cells: Vec<String> = row.iter().map(u64::to_string).collect();
                text.push_str(&cells.join(" "));
                text.push('\n');
            }
            print(&text)
        }
        Table::Vertices(vertices) => {
            if args.json {
                let list: Vec<serde_json::Value> = vertices
                    .iter()
                    .map(|vertex| {
                        let mut object = serde_json::Map::new();
                        object.insert("name".into(), vertex.name.clone().into());
                        match &vertex.value {
                            Some(value) => insert_value(&mut object, value),
                            None => {
                                object.insert("value".into(), serde_json::Value::Null);
                            }
                        }
                        object.insert("outcome".into(), vertex.outcome.to_string().into());
                        object.into()
                    })
                    .collect();
                return print_json(&serde_json::json!({ "game": args.game, "vertices": list }));
            }
            let mut text = String::new();
            for vertex in &vertices {
                let value = vertex.value.as_ref().map_or_else(|| "-".to_owned(), ToString::to_string);
                text.push_str(&format!("{} {} {}\n", vertex.name, value, vertex.outcome));
            }
            print(&text)
        }
    }
}
