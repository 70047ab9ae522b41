//! `grundy plot GAME -o FILE.svg|FILE.png [--to N] [--size N]`

use crate::charts::graph::graph_scene;
use crate::charts::grid::grid_scene;
use crate::charts::sequence::{Period, proved_period, sequence_scene};
use crate::games::resolve;
use crate::render::{self, Scene};
use anyhow::Context;
use grundy::heap::{HeapGame, SequenceControl};
use grundy::ruleset::{Ruleset, Table};
use std::path::{Path, PathBuf};

/// How far a nim-sequence is drawn without `--to`.
pub const DEFAULT_TO: u64 = 200;

/// A picture of a game: a heap game's nim-sequence, a two-heap game's table, a graph game's
/// graph with each vertex's outcome.
#[derive(clap::Args, Debug)]
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
    render::write_atomically(&args.output, &bytes)
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
    if let Some(heap_game) = ruleset.heap_game() {
        anyhow::ensure!(args.size.is_none(), "`--size` is for two-heap games; `{game}` is a heap game: use `--to N`");
        return sequence_picture(heap_game, args.to.unwrap_or(DEFAULT_TO));
    }
    anyhow::ensure!(args.to.is_none(), "`--to` is for heap games; `{game}` has no nim-sequence");
    let Some(table) = ruleset.table(args.size) else {
        anyhow::bail!("`{game}` has nothing to plot (pictures exist for heap games, two-heap games and graph games)");
    };
    match table? {
        Table::Grid { values } => grid_scene(&ruleset.spec(), &values),
        Table::Vertices(vertices) => {
            anyhow::ensure!(args.size.is_none(), "`--size` is for two-heap games; `{game}` is a graph game");
            let edges = ruleset
                .graph_edges()
                .with_context(|| format!("`{game}` does not list its edges, so its graph cannot be drawn"))?;
            graph_scene(&ruleset.spec(), &vertices, &edges, is_directed(ruleset))
        }
    }
}

/// Whether a graph game moves along directed edges: every graph family but `geography:`,
/// which is played on an undirected graph (see [`Ruleset::graph_edges`]).
fn is_directed(ruleset: &dyn Ruleset) -> bool {
    !ruleset.spec().starts_with("geography")
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
    proved_period(heap_game.periodicity(), values)
}
