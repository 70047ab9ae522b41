//! `grundy plot GAME -o FILE.svg|FILE.png [--to N] [--size N]`

use crate::charts::graph::graph_scene;
use crate::charts::grid::grid_scene;
use crate::charts::sequence::{Period, sequence_scene};
use crate::games::resolve;
use crate::render::{self, Scene};
use anyhow::Context;
use grundy::heap::period::find_period;
use grundy::heap::{HeapGame, SequenceControl};
use grundy::ruleset::{Chart, Ruleset, Table};
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

/// The picture formats, by file extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Svg,
    Png,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let format = picture_format(&args.output)?;
    check_directory(&args.output)?;
    let ruleset = resolve(&args.game)?;
    let scene = build_scene(&args, ruleset.as_ref())?;
    let bytes = match format {
        Format::Svg => render::svg::render(&scene)?.into_bytes(),
        Format::Png => render::png::render(&scene)?,
    };
    render::write_atomically(&args.output, &bytes)?;
    if crate::output::json() {
        crate::output::print_json(&serde_json::json!({
            "game": ruleset.spec(),
            "file": args.output.display().to_string(),
            "format": match format {
                Format::Svg => "svg",
                Format::Png => "png",
            },
            "bytes": bytes.len(),
        }))?;
    }
    Ok(())
}

fn picture_format(path: &Path) -> anyhow::Result<Format> {
    let extension = path.extension().and_then(|extension| extension.to_str()).map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("svg") => Ok(Format::Svg),
        Some("png") => Ok(Format::Png),
        _ => anyhow::bail!("cannot tell the picture format of `{}`: name it FILE.svg or FILE.png", path.display()),
    }
}

/// Refuses early (before a long computation) to write into a directory that is not there.
fn check_directory(path: &Path) -> anyhow::Result<()> {
    let directory = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => return Ok(()),
    };
    anyhow::ensure!(
        directory.is_dir(),
        "cannot write `{}`: there is no directory `{}`",
        path.display(),
        directory.display()
    );
    Ok(())
}

fn build_scene(args: &Args, ruleset: &dyn Ruleset) -> anyhow::Result<Scene> {
    let game = &args.game;
    let chart = ruleset.chart();
    if chart == Chart::Sequence
        && let Some(heap_game) = ruleset.heap_game()
    {
        anyhow::ensure!(args.size.is_none(), "`--size` is for two-heap games; `{game}` is a heap game: use `--to N`");
        return sequence_picture(heap_game, args.to.unwrap_or(DEFAULT_TO));
    }
    anyhow::ensure!(args.to.is_none(), "`--to` is for heap games; `{game}` has no nim-sequence");
    let table = match (chart, ruleset.table(args.size)) {
        (Chart::Grid | Chart::Graph, Some(table)) => table?,
        _ => anyhow::bail!(
            "`{game}` has nothing to plot (pictures exist for heap games, two-heap games and graph games)"
        ),
    };
    match table {
        Table::Grid { values } => grid_scene(&ruleset.spec(), &values),
        Table::Vertices(vertices) => {
            anyhow::ensure!(args.size.is_none(), "`--size` is for two-heap games; `{game}` is a graph game");
            let graph = ruleset
                .graph()
                .with_context(|| format!("`{game}` does not list its edges, so its graph cannot be drawn"))?;
            let name = |v: u32| graph.names[v as usize].clone();
            let edges: Vec<(String, String)> = graph.edges.iter().map(|&(u, v)| (name(u), name(v))).collect();
            graph_scene(&ruleset.spec(), &vertices, &edges, graph.directed)
        }
    }
}

fn sequence_picture(heap_game: &dyn HeapGame, to: u64) -> anyhow::Result<Scene> {
    let len = to
        .checked_add(1)
        .and_then(|len| usize::try_from(len).ok())
        .with_context(|| format!("`--to {to}` is too large"))?;
    let mut values = Vec::new();
    heap_game.extend_sequence(&mut values, len, &SequenceControl::default())?;
    let period = period_to_mark(heap_game, &values);
    Ok(sequence_scene(&heap_game.spec(), &values, period))
}

/// THE PERIOD HOOK: the proved period to mark on a nim-sequence picture, or `None`.
///
/// Today it proves a period from the plotted values alone, by the theorem the game names
/// ([`HeapGame::periodicity`]). When the library's own period finder lands, return its proved
/// `(preperiod, period)` here as a [`Period`]; nothing else in `plot` changes.
fn period_to_mark(heap_game: &dyn HeapGame, values: &[u32]) -> Option<Period> {
    let last = values.len().checked_sub(1)?;
    let mut prefix = values.to_vec();
    let report = find_period(heap_game, &mut prefix, last as u64, &SequenceControl::default(), &mut |_| {}).ok()?;
    let (period, _proof) = report.proved?;
    // An arithmetic period (Nim's G(n) = n) has nothing to shade.
    (period.saltus == 0).then_some(Period { preperiod: period.preperiod as usize, period: period.period as usize })
}

#[cfg(test)]
mod tests {
    //! Grids and graphs through the whole command path, with test doubles for the families
    //! that are not in this crate's tests' reach (a Wythoff table by the definition, a small
    //! directed graph with a draw).
    use super::*;
    use grundy::ruleset::VertexEntry;
    use grundy::value::{Outcome, Value};
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
        fn table(&self, _: Option<u64>) -> Option<Result<Table, GameError>> {
            Some(Ok(self.table.clone()))
        }
        fn chart(&self) -> grundy::ruleset::Chart {
            match self.table {
                Table::Grid { .. } => grundy::ruleset::Chart::Grid,
                Table::Vertices(_) => grundy::ruleset::Chart::Graph,
            }
        }
        fn graph(&self) -> Option<grundy::ruleset::GraphView> {
            let edges = self.edges.as_ref()?;
            let Table::Vertices(vertices) = &self.table else { return None };
            let names: Vec<String> = vertices.iter().map(|vertex| vertex.name.clone()).collect();
            let id = |name: &String| names.iter().position(|known| known == name).expect("a vertex") as u32;
            let edges = edges.iter().map(|(u, v)| (id(u), id(v))).collect();
            Some(grundy::ruleset::GraphView {
                names: names.clone(),
                edges,
                directed: !self.spec.starts_with("geography"),
            })
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
        let scene = build_scene(&args("wythoff", "w.png"), &*grundy::ruleset::erase(double.clone())).unwrap();
        // 256 cells of 3 pixels, between margins of 130 and 250, and 80 and 70.
        let (width, height) = (130 + 768 + 250, 80 + 768 + 70);
        assert_eq!((scene.width, scene.height), (width, height));
        check_svg(&render::svg::render(&scene).unwrap(), width, height);
        let rgb = check_png(&render::png::render(&scene).unwrap(), width, height);
        let pixel = |x: usize, y: usize| {
            let index = (y * width as usize + x) * 3;
            crate::render::Color::rgb(rgb[index], rgb[index + 1], rgb[index + 2])
        };
        // Cell (x, y) is 3 × 3 pixels with its centre at (130 + 3x + 1, 80 + 768 − 3y − 2).
        let centre = |x: usize, y: usize| pixel(130 + 3 * x + 1, 80 + 768 - 3 * y - 2);
        let p_color = crate::charts::grid::P_COLOR;
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
        let scene = build_scene(&args("dag:g.txt", "g.svg"), &*grundy::ruleset::erase(double.clone())).unwrap();
        let svg = render::svg::render(&scene).unwrap();
        check_svg(&svg, 900, 860);
        check_png(&render::png::render(&scene).unwrap(), 900, 860);
        assert_eq!(svg.matches("<polygon").count(), 6, "one arrowhead per directed edge");
        assert!(svg.contains("D: draw"));

        let mut undirected = TableDouble { table: Table::Vertices(vertices), edges: None, spec: "geography:g.txt" };
        let error = build_scene(&args("geography:g.txt", "g.svg"), &*grundy::ruleset::erase(undirected.clone()))
            .unwrap_err()
            .to_string();
        assert!(error.contains("does not list its edges"), "{error}");
        undirected.edges = Some(vec![("a".into(), "b".into()), ("b".into(), "a".into())]);
        let svg = render::svg::render(
            &build_scene(&args("geography:g.txt", "g.svg"), &*grundy::ruleset::erase(undirected.clone())).unwrap(),
        )
        .unwrap();
        assert_eq!(svg.matches("<polygon").count(), 0, "undirected edges have no arrows");
        assert_eq!(svg.matches("<line").count(), 1, "an undirected edge listed twice is drawn once");
    }

    /// Kayles by the definition: knock down one pin or two adjacent pins from a row, which may
    /// split it in two. An octal game (0.77) whose moves remove at most 2.
    struct KaylesDouble;

    impl HeapGame for KaylesDouble {
        fn spec(&self) -> String {
            "kayles".to_owned()
        }
        fn extend_sequence(&self, values: &mut Vec<u32>, len: usize, _: &SequenceControl) -> Result<bool, GameError> {
            while values.len() < len {
                let n = values.len();
                let options = (1..=2.min(n)).flat_map(|removed| {
                    let rest = n - removed;
                    (0..=rest).map(move |left| (left, rest - left))
                });
                let values_now = &*values;
                let next = mex(options.map(|(a, b)| u64::from(values_now[a] ^ values_now[b])).collect::<Vec<_>>());
                values.push(next as u32);
            }
            Ok(true)
        }
        fn periodicity(&self) -> grundy::heap::Periodicity {
            grundy::heap::Periodicity::Octal { max_removal: 2, max_parts: 2 }
        }
        fn heap_options(&self, _: u64) -> Vec<Vec<u64>> {
            unreachable!("not used by plot")
        }
    }

    #[test]
    fn kayles_to_500_marks_its_proved_period() {
        let mut values = Vec::new();
        KaylesDouble.extend_sequence(&mut values, 501, &SequenceControl::default()).unwrap();
        // Winning Ways ch. 4: 0 1 2 3 1 4 3 2 1 4 2 6 4 1 2 7 …
        assert_eq!(values[..16], [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7]);
        // Guy and Smith (1956): period 12 from n = 71, the last exception being G(70) = 6.
        assert_eq!(period_to_mark(&KaylesDouble, &values), Some(Period { preperiod: 71, period: 12 }));
        // Too few values for the theorem (it needs n < 2·71 + 12 + 2 = 156): no period claimed.
        assert_eq!(period_to_mark(&KaylesDouble, &values[..155]), None);
        let scene = sequence_picture(&KaylesDouble, 500).unwrap();
        let svg = render::svg::render(&scene).unwrap();
        check_svg(&svg, 1000, 600);
        assert!(svg.contains("preperiod n &lt; 71") && svg.contains("period 12 from n = 71 (proved)"));
        check_png(&render::png::render(&scene).unwrap(), 1000, 600);
    }

    #[test]
    fn flags_must_fit_the_game() {
        let double = TableDouble { table: Table::Grid { values: vec![vec![0]] }, edges: None, spec: "wythoff" };
        let mut with_to = args("wythoff", "w.svg");
        with_to.to = Some(5);
        assert!(
            build_scene(&with_to, &*grundy::ruleset::erase(double))
                .unwrap_err()
                .to_string()
                .contains("`--to` is for heap games")
        );
        assert!(picture_format(Path::new("x.jpg")).is_err());
        assert_eq!(picture_format(Path::new("x.SVG")).unwrap(), Format::Svg);
    }
}
