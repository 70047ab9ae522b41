//! `Game.plot()`: the SVG `grundy plot` writes, drawn by the CLI's chart code (compiled into
//! this crate from `crates/grundy-cli/src/{charts,render}` by `lib.rs`), shown by Jupyter
//! through `_repr_svg_`.

use crate::charts::graph::graph_scene;
use crate::charts::grid::grid_scene;
use crate::charts::sequence::{Period as MarkedPeriod, sequence_scene};
use crate::convert::value_error;
use crate::long::extend_sequence;
use crate::render::{Scene, svg};
use grundy::heap::SequenceControl;
use grundy::heap::period::find_period;
use grundy::ruleset::{Chart, Ruleset, Table};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A picture: `.svg` is its SVG text; Jupyter shows it (`_repr_svg_`); `save(path)` writes it.
///
/// >>> import grundy
/// >>> picture = grundy.Game("wythoff").plot(size=16)
/// >>> picture._repr_svg_() == picture.svg
/// True
#[pyclass(module = "grundy", frozen)]
pub struct Plot {
    /// The SVG text.
    #[pyo3(get)]
    svg: String,
}

#[pymethods]
impl Plot {
    fn _repr_svg_(&self) -> String {
        self.svg.clone()
    }

    /// Writes the SVG to `path`.
    fn save(&self, path: std::path::PathBuf) -> PyResult<()> {
        std::fs::write(&path, &self.svg).map_err(|error| {
            pyo3::exceptions::PyOSError::new_err(format!("cannot write `{}`: {error}", path.display()))
        })
    }

    fn __repr__(&self) -> String {
        format!("<grundy.Plot: {} bytes of SVG>", self.svg.len())
    }
}

fn anyhow_error(error: anyhow::Error) -> PyErr {
    PyValueError::new_err(format!("{error:#}"))
}

/// The picture `grundy plot` draws of `game` (same defaults: heaps to 500, tables 64 wide).
pub fn plot(py: Python<'_>, game: &dyn Ruleset, to: Option<u64>, size: Option<u64>) -> PyResult<Plot> {
    let spec = game.spec();
    let scene: Scene = match (game.chart(), game.heap_game()) {
        (Chart::Sequence, Some(heap_game)) => {
            if size.is_some() {
                return Err(PyValueError::new_err(format!(
                    "`size` is for two-heap games; `{spec}` is a heap game: use `to`"
                )));
            }
            let len = usize::try_from(to.unwrap_or(500))
                .ok()
                .and_then(|to| to.checked_add(1))
                .ok_or_else(|| PyValueError::new_err("`to` is too large"))?;
            let mut values = Vec::new();
            extend_sequence(py, heap_game, &mut values, len, false)?;
            values.truncate(len);
            // The proved period over the plotted values, shaded as `grundy plot` does.
            let mut prefix = values.clone();
            let report =
                find_period(heap_game, &mut prefix, (len - 1) as u64, &SequenceControl::default(), &mut |_| {});
            let marked = report.ok().and_then(|report| report.proved).and_then(|(period, _)| {
                (period.saltus == 0)
                    .then_some(MarkedPeriod { preperiod: period.preperiod as usize, period: period.period as usize })
            });
            sequence_scene(&spec, &values, marked)
        }
        (chart @ (Chart::Grid | Chart::Graph), _) => {
            if to.is_some() {
                return Err(PyValueError::new_err(format!("`to` is for heap games; `{spec}` has no nim-sequence")));
            }
            let size = if chart == Chart::Grid { Some(size.unwrap_or(64)) } else { size };
            let table = py
                .detach(|| game.table(size))
                .ok_or_else(|| PyValueError::new_err(format!("`{spec}` has nothing to plot")))?
                .map_err(value_error)?;
            match table {
                Table::Grid { values } => grid_scene(&spec, &values).map_err(anyhow_error)?,
                Table::Vertices(vertices) => {
                    let graph = game.graph().ok_or_else(|| {
                        PyValueError::new_err(format!("`{spec}` does not list its edges, so its graph cannot be drawn"))
                    })?;
                    let name = |v: u32| graph.names[v as usize].clone();
                    let edges: Vec<(String, String)> = graph.edges.iter().map(|&(u, v)| (name(u), name(v))).collect();
                    graph_scene(&spec, &vertices, &edges, graph.directed).map_err(anyhow_error)?
                }
            }
        }
        _ => {
            return Err(PyValueError::new_err(format!(
                "`{spec}` has nothing to plot (pictures exist for heap games, two-heap games and graph games)"
            )));
        }
    };
    Ok(Plot { svg: svg::render(&scene).map_err(anyhow_error)? })
}
