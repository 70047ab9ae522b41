//! What a front end shows of a game beyond its answers: its whole table (`grundy table`), the
//! graph it is played on and the kind of picture `grundy plot` draws. Each is a
//! [`Capability`] a family offers in its `provide`, asked for on any `dyn Ruleset` through
//! [`Views`].

use crate::error::GameError;
use crate::heap::AsHeapGame;
use crate::ruleset::{Capability, Ruleset};
use crate::value::{Outcome, Value};
use std::sync::Arc;

/// What kind of picture `grundy plot` draws of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chart {
    /// A heap game: its nim-sequence.
    Sequence,
    /// A two-heap game: its table of values.
    Grid,
    /// A graph game: the graph with each vertex's outcome.
    Graph,
    /// No picture.
    None,
}

/// A family's whole table, for `grundy table`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Table {
    /// `values[x][y]` = G(x, y) for a two-heap game, rows by `x`.
    Grid {
        /// The rows.
        values: Vec<Vec<u64>>,
    },
    /// Every vertex of a graph game with its value and outcome.
    Vertices(Vec<VertexEntry>),
}

/// One vertex of a graph game's table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VertexEntry {
    /// The vertex name as in the input file.
    pub name: String,
    /// Its value (`None` when the family defines only outcomes).
    pub value: Option<Value>,
    /// Who wins with the token there.
    pub outcome: Outcome,
}

/// The table of a graph game of `count` vertices, entry by entry, refused before it is
/// allocated when it would pass the memory limit (10^8 vertices asked for 6.4 GB at once).
///
/// # Errors
/// [`GameError::TooLarge`] naming the vertex count and the limit.
pub fn vertex_table(
    control: &crate::control::Control,
    count: usize,
    entry: impl FnMut(usize) -> VertexEntry,
) -> Result<Table, GameError> {
    // Each entry, and its name's copy: a short string and the allocator's header.
    let what = || format!("the table of {count} vertices");
    control.check_memory(what, count as u128, std::mem::size_of::<VertexEntry>() as u128 + 48)?;
    let mut vertices = Vec::new();
    control.try_reserve_table(&mut vertices, count, what)?;
    vertices.extend((0..count).map(entry));
    Ok(Table::Vertices(vertices))
}

/// The graph of a graph game, for pictures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphView {
    /// Vertex names, by id.
    pub names: Vec<String>,
    /// Edges by vertex id: the direction a token moves when `directed`, else each edge once.
    pub edges: Vec<(u32, u32)>,
    /// Whether edges have a direction (`dag:`) or not (`geography:`).
    pub directed: bool,
}

/// A family's whole table, computed for a size.
pub trait Tabulate: Send + Sync {
    /// The table for `grundy table` (`size` from `--size`, or the family's default).
    ///
    /// # Errors
    /// The table is past the memory limit or cannot be computed.
    fn table(&self, size: Option<u64>) -> Result<Table, GameError>;
}

/// The capability of a game with a whole table ([`Table`]).
pub struct Tabulation;
impl Capability for Tabulation {
    type Handle = Arc<dyn Tabulate>;
}

/// The capability of a game whose components are pairs of numbers `x,y` with no whole table
/// of its own for `grundy table` (E&D's pairs of heaps and HDU 2147's boards start at 1; Euclid's
/// pairs): its values `G(x, y)` on a square, for `grundy guess`.
pub struct PairValues;
impl Capability for PairValues {
    type Handle = Arc<dyn PairTable>;
}

/// What [`PairValues`] hands out.
pub trait PairTable: Send + Sync {
    /// The least coordinate of a component, 0 or 1: with 1, the row and the column 0 of
    /// [`PairTable::pair_values`] are no positions.
    fn first(&self) -> u64;
    /// `values[x][y] = G(x, y)` for `x, y < side` (0 where `x` or `y` is below
    /// [`PairTable::first`]).
    ///
    /// # Errors
    /// The game's own, for a value it cannot compute.
    fn pair_values(&self, side: u64) -> Result<Vec<Vec<u64>>, GameError>;
}

/// The capability of a game played on a graph: the graph, for pictures.
pub struct PlayedOn;
impl Capability for PlayedOn {
    type Handle = GraphView;
}

/// The capability of a game that says which picture it has, when that is not the one its other
/// capabilities imply (a two-heap game's grid).
pub struct Pictured;
impl Capability for Pictured {
    type Handle = Chart;
}

/// The capability of a game that names its P-positions among the components written as one
/// number, for drawing a judge's tests: where every winning move leads to a component no
/// format writes (Fibonacci Nim's `n,k` after a move from a fresh heap), playing a winning move
/// from a drawn test finds no P-position a format can print, so the game lists them itself.
pub struct SamplesPPositions;
impl Capability for SamplesPPositions {
    type Handle = Arc<dyn PPositionSamples>;
}

/// What [`SamplesPPositions`] hands out.
pub trait PPositionSamples: Send + Sync {
    /// The largest `limit` P-positions at most `most` among the components written as one
    /// number, as their texts, in increasing order.
    ///
    /// # Errors
    /// The game's own, for a computation past its limits.
    fn p_positions_up_to(&self, most: u128, limit: usize) -> Result<Vec<String>, GameError>;
}

/// The views of any game, by its capabilities.
pub trait Views {
    /// The family's whole table for `grundy table` (`size` from `--size`), or `None`.
    fn table(&self, size: Option<u64>) -> Option<Result<Table, GameError>>;
    /// The graph a graph game is played on.
    fn graph(&self) -> Option<GraphView>;
    /// The picture `grundy plot` draws: the one the game names, else a heap game's sequence,
    /// a graph game's graph, or none.
    fn chart(&self) -> Chart;
}

impl Views for dyn Ruleset + '_ {
    fn table(&self, size: Option<u64>) -> Option<Result<Table, GameError>> {
        Some(self.capability::<Tabulation>()?.table(size))
    }

    fn graph(&self) -> Option<GraphView> {
        self.capability::<PlayedOn>()
    }

    fn chart(&self) -> Chart {
        if let Some(chart) = self.capability::<Pictured>() {
            chart
        } else if self.heap_game().is_some() {
            Chart::Sequence
        } else if self.graph().is_some() {
            Chart::Graph
        } else {
            Chart::None
        }
    }
}
