//! Pictures of impartial games, with no I/O: a heap game's nim-sequence, a two-heap game's
//! table G(x, y) and a graph game's graph with each vertex's outcome, each built once as a
//! [`Scene`] of a few shapes and drawn by [`svg`] (text) or [`png`] (pixels, with a bitmap font
//! compiled in, so the same picture comes out on every machine).
//!
//! The front ends (`grundy plot` and Python's `Game.plot()`) compute the values with the
//! `grundy` library, each with its own way of waiting and cancelling, and hand them here:
//! [`nim_sequence_scene`] for a heap game, [`table_scene`] for what [`Views::table`] gives.
//!
//! ```
//! use grundy::control::Control;
//! use grundy::heap::{AsHeapGame, CompactSequence};
//! use grundy::registry::parse_game;
//!
//! let game = parse_game("sub:1,2").unwrap();
//! let heap_game = game.heap_game().unwrap();
//! let mut values = CompactSequence::new();
//! heap_game.extend_sequence(&mut values, 101, &Control::default()).unwrap();
//! let scene = grundy_plot::nim_sequence_scene(&*heap_game, &values.to_vec());
//! let svg = grundy_plot::svg::render(&scene).unwrap();
//! assert!(svg.contains("Nim-sequence of sub:1,2"));
//! assert!(svg.contains("period 3 from n = 0 (proved)"));
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod charts;
mod render;

pub use charts::sequence::{Period, proved_period};
pub use render::{Anchor, Color, PictureFormat, Raster, Scene, Shape, png, svg};

use grundy::heap::HeapGame;
use grundy::ruleset::Ruleset;
use grundy::view::{Table, Views};

/// Why a picture cannot be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlotError {
    /// The data cannot be drawn (an empty or ragged table, a graph too large to read, an edge
    /// naming no vertex); the message names the game and says why.
    #[error("{0}")]
    Unplottable(String),
    /// The PNG encoder refused an image.
    #[error(transparent)]
    Png(#[from] ::png::EncodingError),
    /// An image whose pixels do not fill its rectangle (a bug in the code that made it).
    #[error("internal error: {pixels} pixels for an image of {width} × {height}")]
    ImageSize {
        /// The image's width in pixels.
        width: u32,
        /// The image's height in pixels.
        height: u32,
        /// How many pixels were given.
        pixels: usize,
    },
    /// Writing the SVG text failed (a formatter reported an error).
    #[error(transparent)]
    Svg(#[from] std::fmt::Error),
}

/// Returns [`PlotError::Unplottable`] with the formatted message unless the condition holds.
macro_rules! ensure_plottable {
    ($condition:expr, $($message:tt)+) => {
        if !$condition {
            return Err($crate::PlotError::Unplottable(format!($($message)+)));
        }
    };
}
pub(crate) use ensure_plottable;

/// The picture of `values` = G(0), …, G(N) of `heap_game`, with the period that these values
/// prove (by the theorem the game names, [`proved_period`]) marked.
///
/// ```
/// use grundy::control::Control;
/// use grundy::heap::{AsHeapGame, CompactSequence};
/// use grundy::registry::parse_game;
///
/// // Kayles: period 12 from n = 71 (Guy and Smith 1956), proved from the values to 500.
/// let kayles = parse_game("kayles").unwrap();
/// let heap_game = kayles.heap_game().unwrap();
/// let mut values = CompactSequence::new();
/// heap_game.extend_sequence(&mut values, 501, &Control::default()).unwrap();
/// let scene = grundy_plot::nim_sequence_scene(&*heap_game, &values.to_vec());
/// assert_eq!((scene.width, scene.height), (1000, 600));
/// let png = grundy_plot::png::render(&scene).unwrap();
/// assert!(png.starts_with(b"\x89PNG"));
/// ```
pub fn nim_sequence_scene(heap_game: &dyn HeapGame, values: &[u32]) -> Scene {
    charts::sequence::sequence_scene(&heap_game.spec(), values, proved_period(heap_game, values))
}

/// The picture of `table`, what [`Views::table`] gives for `ruleset`: a two-heap game's
/// values as a colour map, or a graph game's graph (its edges from [`Views::graph`]) with
/// each vertex coloured by its outcome.
///
/// # Errors
/// [`PlotError::Unplottable`]: an empty or ragged table, a graph too large to draw legibly, or
/// a graph game that does not list its edges.
///
/// ```
/// use grundy::registry::parse_game;
/// use grundy::view::Views;
///
/// let wythoff = parse_game("wythoff").unwrap();
/// let table = wythoff.table(Some(16)).unwrap().unwrap();
/// let scene = grundy_plot::table_scene(&*wythoff, &table).unwrap();
/// let svg = grundy_plot::svg::render(&scene).unwrap();
/// assert!(svg.contains("G(x, y) of wythoff, 0 &lt;= x &lt; 16"));
/// ```
pub fn table_scene(ruleset: &dyn Ruleset, table: &Table) -> Result<Scene, PlotError> {
    let spec = ruleset.spec();
    match table {
        Table::Grid { values } => charts::grid::grid_scene(&spec, values),
        Table::Vertices(vertices) => {
            let Some(graph) = ruleset.graph() else {
                return Err(PlotError::Unplottable(format!(
                    "`{spec}` does not list its edges, so its graph cannot be drawn"
                )));
            };
            let name = |vertex: u32| graph.names[vertex as usize].clone();
            let edges: Vec<(String, String)> = graph.edges.iter().map(|&(from, to)| (name(from), name(to))).collect();
            charts::graph::graph_scene(&spec, vertices, &edges, graph.directed)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::control::Control;
    use grundy::heap::CompactSequence;
    use grundy::mex;

    /// Kayles by the definition: knock down one pin or two adjacent pins from a row, which may
    /// split it in two. An octal game (0.77) whose moves remove at most 2.
    struct KaylesDouble;

    impl HeapGame for KaylesDouble {
        fn spec(&self) -> String {
            "kayles".to_owned()
        }
        fn extend_sequence(&self, values: &mut CompactSequence, len: usize, _: &Control) -> grundy::heap::Extended {
            let values = values.words_mut();
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
            unreachable!("not used by a picture")
        }
    }

    #[test]
    fn kayles_to_500_marks_its_proved_period() {
        let mut values = CompactSequence::new();
        KaylesDouble.extend_sequence(&mut values, 501, &Control::default()).unwrap();
        let values = values.into_vec();
        // Winning Ways ch. 4: 0 1 2 3 1 4 3 2 1 4 2 6 4 1 2 7 …
        assert_eq!(values[..16], [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7]);
        // Guy and Smith (1956): period 12 from n = 71, the last exception being G(70) = 6.
        assert_eq!(proved_period(&KaylesDouble, &values), Some(Period { preperiod: 71, period: 12 }));
        // Too few values for the theorem (it needs n < 2·71 + 12 + 2 = 156): no period claimed.
        assert_eq!(proved_period(&KaylesDouble, &values[..155]), None);
        assert_eq!(proved_period(&KaylesDouble, &[]), None);
        let scene = nim_sequence_scene(&KaylesDouble, &values);
        let svg = svg::render(&scene).unwrap();
        let document = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let root = document.root_element();
        assert_eq!((root.attribute("width"), root.attribute("height")), (Some("1000"), Some("600")));
        assert!(svg.contains("preperiod n &lt; 71") && svg.contains("period 12 from n = 71 (proved)"));
        let png = png::render(&scene).unwrap();
        let reader = ::png::Decoder::new(std::io::Cursor::new(png)).read_info().expect("a PNG header");
        assert_eq!((reader.info().width, reader.info().height), (1000, 600));
    }
}
