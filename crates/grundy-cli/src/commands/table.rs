//! `grundy table GAME [--size N]`

use crate::games::resolve;
use crate::output::{print, print_json};
use grundy::answer::{GridAnswer, VertexReport, VerticesAnswer};
use grundy::control::Control;
use grundy::view::{Table, Views};

/// The game's whole table: G(x, y) of a two-heap game, or every vertex of a graph game.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Games with a table: wythoff, corners, product:A:B (G(x, y) for x, y < N), dag:FILE and geography:FILE (every vertex).

Examples:
  grundy table wythoff --size 5
  grundy table corners --size 4 --json
  grundy rules --write-examples /tmp/grundy-examples && grundy table dag:/tmp/grundy-examples/loopy.txt"
)]
pub struct Args {
    /// The game (wythoff, corners, product:A:B, dag:FILE, geography:FILE).
    game: String,
    /// The table's side, for two-heap games: x, y = 0 … N−1.
    #[arg(long)]
    size: Option<u64>,
}

pub fn run(args: Args, json: bool, control: &Control) -> anyhow::Result<()> {
    if args.size == Some(0) {
        anyhow::bail!("`--size 0` asks for an empty table: give a size of at least 1");
    }
    let ruleset = resolve(&args.game, control)?;
    let Some(table) = ruleset.table(args.size) else {
        anyhow::bail!(
            "`{}` has no table; tables exist for wythoff, corners, product:A:B and scripts on pairs (G(x, y)), and dag:FILE, geography:FILE (every vertex)",
            args.game
        );
    };
    match table? {
        Table::Grid { values } => {
            if json {
                return print_json(&GridAnswer { game: ruleset.spec(), values });
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
            if json {
                return print_json(&VerticesAnswer {
                    game: ruleset.spec(),
                    vertices: vertices.iter().map(VertexReport::of).collect(),
                });
            }
            if vertices.is_empty() {
                anyhow::bail!("the graph of `{}` is empty: it has no vertex", args.game);
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
