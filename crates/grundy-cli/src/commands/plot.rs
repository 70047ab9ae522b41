//! `grundy plot GAME -o FILE.svg|FILE.png [--to N] [--size N]`

use crate::games::resolve;
use anyhow::Context;
use grundy::control::Control;
use grundy::heap::AsHeapGame;
use grundy::heap::{CompactSequence, HeapGame};
use grundy::ruleset::Ruleset;
use grundy::view::{Chart, Table, Views};
use grundy_plot::{PictureFormat, Scene};
use std::path::{Path, PathBuf};

/// How far a nim-sequence is drawn without `--to`.
pub const DEFAULT_TO: u64 = 200;

/// A picture of a game: a heap game's nim-sequence, a two-heap game's table, a graph game's
/// graph with each vertex's outcome.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy plot kayles --to 500 -o /tmp/kayles.svg
  grundy plot wythoff --size 256 -o /tmp/wythoff.png
  grundy rules --write-examples /tmp/grundy-examples && grundy plot dag:/tmp/grundy-examples/loopy.txt -o /tmp/loopy.svg")]
pub struct Args {
    /// The game: a heap game (sub:S, …), a two-heap game (wythoff) or a graph game
    /// (dag:FILE, geography:FILE).
    game: String,
    /// The picture to write: FILE.svg or FILE.png.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: PathBuf,
    /// Heap games: draw G(n) for n = 0 … N [default: 200].
    #[arg(long, value_name = "N")]
    to: Option<u64>,
    /// Two-heap games: draw G(x, y) for x, y = 0 … N−1.
    #[arg(long, value_name = "N")]
    size: Option<u64>,
}

pub fn run(args: Args, json: bool, control: &Control) -> anyhow::Result<()> {
    let format = picture_format(&args.output)?;
    check_directory(&args.output)?;
    let ruleset = resolve(&args.game, control)?;
    let scene = build_scene(&args, ruleset.as_ref(), control)?;
    let bytes = format.render(&scene)?;
    crate::atomic_file::write(&args.output, &bytes)
        .with_context(|| format!("cannot write `{}`", args.output.display()))?;
    if json {
        crate::output::print_json(&serde_json::json!({
            "game": ruleset.spec(),
            "file": args.output.display().to_string(),
            "format": format.name(),
            "bytes": bytes.len(),
        }))?;
        return Ok(());
    }
    // What was written, and where: a picture is the command's only result.
    crate::output::print(&format!(
        "wrote {} ({}, {} bytes): {}\n",
        args.output.display(),
        format.name().to_ascii_uppercase(),
        bytes.len(),
        ruleset.spec()
    ))
}

fn picture_format(path: &Path) -> anyhow::Result<PictureFormat> {
    PictureFormat::of_path(path).with_context(|| {
        format!("cannot tell the picture format of `{}`: name it FILE.svg or FILE.png", path.display())
    })
}

/// The directory a file named `path` goes in.
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// Refuses early (before a long computation) to write into a directory that is not there.
fn check_directory(path: &Path) -> anyhow::Result<()> {
    let directory = directory_of(path);
    anyhow::ensure!(
        directory.is_dir(),
        "cannot write `{}`: there is no directory `{}`",
        path.display(),
        directory.display()
    );
    Ok(())
}

fn build_scene(args: &Args, ruleset: &dyn Ruleset, control: &Control) -> anyhow::Result<Scene> {
    let game = &args.game;
    let chart = ruleset.chart();
    if chart == Chart::Sequence
        && let Some(heap_game) = ruleset.heap_game()
    {
        anyhow::ensure!(args.size.is_none(), "`--size` is for two-heap games; `{game}` is a heap game: use `--to N`");
        return sequence_picture(&*heap_game, args.to.unwrap_or(DEFAULT_TO), control);
    }
    anyhow::ensure!(args.to.is_none(), "`--to` is for heap games; `{game}` has no nim-sequence");
    let table = match (chart, ruleset.table(args.size)) {
        (Chart::Grid | Chart::Graph, Some(table)) => table?,
        _ => anyhow::bail!(
            "`{game}` has nothing to plot (pictures exist for heap games, two-heap games and graph games)"
        ),
    };
    if let Table::Vertices(_) = table {
        anyhow::ensure!(args.size.is_none(), "`--size` is for two-heap games; `{game}` is a graph game");
    }
    Ok(grundy_plot::table_scene(ruleset, &table)?)
}

fn sequence_picture(heap_game: &dyn HeapGame, to: u64, control: &Control) -> anyhow::Result<Scene> {
    let len = to
        .checked_add(1)
        .and_then(|len| usize::try_from(len).ok())
        .with_context(|| format!("`--to {to}` is too large"))?;
    let mut values = CompactSequence::new();
    // The values known, shown (on a terminal, after a second) under the game's name.
    let control = if control.reports_progress() {
        let task = control.task(&format!("the nim-sequence of {} up to heap {to}", heap_game.spec()), len as u64);
        control.relaying(grundy::heap::SEQUENCE_TASK, move |done| task.set(done))
    } else {
        control.clone()
    };
    heap_game.extend_sequence(&mut values, len, &control)?;
    Ok(grundy_plot::nim_sequence_scene(heap_game, &values.to_vec()))
}

#[cfg(test)]
mod tests {
    //! Grids and graphs through the whole command path, with test doubles for the families
    //! that are not in this crate's tests' reach (a Wythoff table by the definition, a small
    //! directed graph with a draw).
    use super::*;
    use grundy::value::{Outcome, Value};
    use grundy::view::VertexEntry;
    use grundy::{GameError, mex};

    /// Wythoff's game by the definition: G(x, y) = mex over every move.
    fn wythoff_table(side: usize) -> Vec<Vec<u64>> {
        let mut values = vec![vec![0u64; side]; side];
        for x in 0..side {
            for y in 0..side {
                let mut options = Vec::new();
                options.extend((0..x).map(|a| values[a][y]));
                options.extend((0..y).map(|b| values[x][b]));
                options.extend((1..=x.min(y)).map(|k| values[x - k][y - k]));
                values[x][y] = mex(options);
            }
        }
        values
    }

    #[derive(Clone)]
    struct TableDouble {
        table: Table,
        edges: Option<Vec<(String, String)>>,
        spec: &'static str,
    }

    impl grundy::ruleset::ComponentGame for TableDouble {
        type Component = u32;
        fn spec(&self) -> String {
            self.spec.to_owned()
        }
        fn parse_component(&self, text: &str) -> Result<u32, GameError> {
            Err(GameError::Unsupported(format!("a test double reads no `{text}`")))
        }
        fn format_component(&self, vertex: &u32) -> String {
            vertex.to_string()
        }
        fn options(&self, _: &u32, _: usize) -> Result<Vec<grundy::ruleset::ComponentMove<u32>>, GameError> {
            Err(GameError::Unsupported("a test double".into()))
        }
        fn value(&self, _: &u32) -> Result<Value, GameError> {
            Err(GameError::Unsupported("a test double".into()))
        }
        fn provide(self: std::sync::Arc<Self>, request: &mut grundy::ruleset::Request) {
            let chart = match self.table {
                Table::Grid { .. } => grundy::view::Chart::Grid,
                Table::Vertices(_) => grundy::view::Chart::Graph,
            };
            request.give::<grundy::view::Pictured>(|| chart);
            if let Some(graph) = self.graph() {
                request.give::<grundy::view::PlayedOn>(|| graph);
            }
            request.give::<grundy::view::Tabulation>(|| self);
        }
    }

    impl grundy::view::Tabulate for TableDouble {
        fn table(&self, _: Option<u64>) -> Result<Table, GameError> {
            Ok(self.table.clone())
        }
    }

    impl TableDouble {
        fn graph(&self) -> Option<grundy::view::GraphView> {
            let edges = self.edges.as_ref()?;
            let Table::Vertices(vertices) = &self.table else { return None };
            let names: Vec<String> = vertices.iter().map(|vertex| vertex.name.clone()).collect();
            let id = |name: &String| names.iter().position(|known| known == name).expect("a vertex") as u32;
            let edges = edges.iter().map(|(u, v)| (id(u), id(v))).collect();
            Some(grundy::view::GraphView { names: names.clone(), edges, directed: !self.spec.starts_with("geography") })
        }
    }

    fn args(game: &str, output: &str) -> Args {
        Args { game: game.to_owned(), output: output.into(), to: None, size: None }
    }

    /// The SVG's root is `<svg>` with the given size in pixels.
    fn check_svg(svg: &str, width: u32, height: u32) {
        let document = roxmltree::Document::parse(svg).expect("well-formed XML");
        let root = document.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(root.attribute("width"), Some(width.to_string().as_str()));
        assert_eq!(root.attribute("height"), Some(height.to_string().as_str()));
    }

    fn check_png(bytes: &[u8], width: u32, height: u32) -> Vec<u8> {
        let mut reader = ::png::Decoder::new(std::io::Cursor::new(bytes)).read_info().expect("a PNG header");
        let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buffer).expect("PNG data");
        assert_eq!((info.width, info.height), (width, height));
        buffer.truncate(info.buffer_size());
        buffer
    }

    #[test]
    fn wythoff_like_grid_shows_its_p_positions() {
        let values = wythoff_table(256);
        // The definition gives the known P-positions (⌊kφ⌋, ⌊kφ²⌋): (1, 2), (3, 5), (4, 7), (6, 10).
        for (x, y) in [(0, 0), (1, 2), (2, 1), (3, 5), (4, 7), (6, 10), (10, 6)] {
            assert_eq!(values[x][y], 0, "({x}, {y})");
        }
        let double = TableDouble { table: Table::Grid { values: values.clone() }, edges: None, spec: "wythoff" };
        let scene =
            build_scene(&args("wythoff", "w.png"), &*grundy::ruleset::erase(double.clone()), &Control::default())
                .unwrap();
        // 256 cells of 3 pixels, between margins of 130 and 250, and 80 and 70.
        let (width, height) = (130 + 768 + 250, 80 + 768 + 70);
        assert_eq!((scene.width, scene.height), (width, height));
        check_svg(&grundy_plot::svg::render(&scene).unwrap(), width, height);
        let rgb = check_png(&grundy_plot::png::render(&scene).unwrap(), width, height);
        let pixel = |x: usize, y: usize| {
            let index = (y * width as usize + x) * 3;
            grundy_plot::Color::rgb(rgb[index], rgb[index + 1], rgb[index + 2])
        };
        // Cell (x, y) is 3 × 3 pixels with its centre at (130 + 3x + 1, 80 + 768 − 3y − 2).
        let centre = |x: usize, y: usize| pixel(130 + 3 * x + 1, 80 + 768 - 3 * y - 2);
        let p_color = grundy_plot::charts::grid::P_COLOR;
        for (x, column) in values.iter().enumerate() {
            for (y, &value) in column.iter().enumerate() {
                assert_eq!(centre(x, y) == p_color, value == 0, "({x}, {y})");
            }
        }
    }

    #[test]
    fn graph_with_a_draw() {
        let vertex = |name: &str, value: Option<u64>, outcome| VertexEntry {
            name: name.to_owned(),
            value: value.map(Value::from),
            outcome,
        };
        let vertices = vec![
            vertex("a", Some(1), Outcome::N),
            vertex("b", Some(0), Outcome::P),
            vertex("c", None, Outcome::D),
            vertex("d", None, Outcome::D),
            vertex("e", Some(2), Outcome::N),
        ];
        let edges = [("a", "b"), ("c", "d"), ("d", "c"), ("e", "a"), ("e", "b"), ("c", "e")]
            .map(|(u, v)| (u.to_owned(), v.to_owned()))
            .to_vec();
        let double = TableDouble { table: Table::Vertices(vertices.clone()), edges: Some(edges), spec: "dag:g.txt" };
        let scene =
            build_scene(&args("dag:g.txt", "g.svg"), &*grundy::ruleset::erase(double.clone()), &Control::default())
                .unwrap();
        let svg = grundy_plot::svg::render(&scene).unwrap();
        check_svg(&svg, 900, 860);
        check_png(&grundy_plot::png::render(&scene).unwrap(), 900, 860);
        assert_eq!(svg.matches("<polygon").count(), 6, "one arrowhead per directed edge");
        assert!(svg.contains("D: draw"));

        let mut undirected = TableDouble { table: Table::Vertices(vertices), edges: None, spec: "geography:g.txt" };
        let error = build_scene(
            &args("geography:g.txt", "g.svg"),
            &*grundy::ruleset::erase(undirected.clone()),
            &Control::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(error.contains("does not list its edges"), "{error}");
        undirected.edges = Some(vec![("a".into(), "b".into()), ("b".into(), "a".into())]);
        let svg = grundy_plot::svg::render(
            &build_scene(
                &args("geography:g.txt", "g.svg"),
                &*grundy::ruleset::erase(undirected.clone()),
                &Control::default(),
            )
            .unwrap(),
        )
        .unwrap();
        assert_eq!(svg.matches("<polygon").count(), 0, "undirected edges have no arrows");
        assert_eq!(svg.matches("<line").count(), 1, "an undirected edge listed twice is drawn once");
    }

    #[test]
    fn flags_must_fit_the_game() {
        let double = TableDouble { table: Table::Grid { values: vec![vec![0]] }, edges: None, spec: "wythoff" };
        let mut with_to = args("wythoff", "w.svg");
        with_to.to = Some(5);
        assert!(
            build_scene(&with_to, &*grundy::ruleset::erase(double), &Control::default())
                .unwrap_err()
                .to_string()
                .contains("`--to` is for heap games")
        );
        assert!(picture_format(Path::new("x.jpg")).is_err());
        assert_eq!(picture_format(Path::new("x.SVG")).unwrap(), PictureFormat::Svg);
    }
}
