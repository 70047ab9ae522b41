//! `Game.plot()`: the SVG `grundy plot` writes, drawn by the `grundy-plot` crate as there,
//! shown by Jupyter through `_repr_svg_`.

use crate::convert::value_error;
use crate::long::sequence_to;
use grundy::heap::AsHeapGame;
use grundy::ruleset::Ruleset;
use grundy::view::{Chart, Views};
use grundy_plot::{PictureFormat, PlotError, Scene};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A picture: `.svg` is its SVG text; Jupyter shows it (`_repr_svg_`); `save(path)` writes it
/// as SVG or PNG, told by the file's suffix (as `grundy plot -o`).
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
    /// What was drawn, for a PNG.
    scene: Scene,
}

#[pymethods]
impl Plot {
    fn _repr_svg_(&self) -> String {
        self.svg.clone()
    }

    /// Writes the picture to `path`: SVG for a name ending `.svg`, PNG for `.png` (any case);
    /// another suffix is a `ValueError`. The file is written whole or not at all.
    fn save(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        let format = PictureFormat::of_path(&path).ok_or_else(|| {
            PyValueError::new_err(format!(
                "cannot tell the picture format of `{}`: name it FILE.svg or FILE.png",
                path.display()
            ))
        })?;
        let bytes = match format {
            PictureFormat::Svg => self.svg.clone().into_bytes(),
            PictureFormat::Png => py.detach(|| format.render(&self.scene)).map_err(plot_error)?,
        };
        py.detach(|| grundy_cli::atomic_file::write(&path, &bytes)).map_err(|error| {
            pyo3::exceptions::PyOSError::new_err(format!("cannot write `{}`: {error}", path.display()))
        })
    }

    fn __repr__(&self) -> String {
        format!("<grundy.Plot: {} bytes of SVG>", self.svg.len())
    }
}

fn plot_error(error: PlotError) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// The picture `grundy plot` draws of `game` (same defaults: heaps to 500, tables 64 wide).
pub fn plot(py: Python<'_>, game: &dyn Ruleset, to: Option<u64>, size: Option<u64>) -> PyResult<Plot> {
    let spec = game.spec();
    // Capabilities and components of a game from `moves` lock its backend, whose holder may
    // wait for the GIL: looked up, and the scene drawn, without it.
    let scene: Scene = match py.detach(|| (game.chart(), game.heap_game())) {
        // A game whose shape is not known (a game from `moves`) is drawn as a heap game: a
        // `moves` that takes no ints says so when asked for heap 0.
        (Chart::Sequence | Chart::None, Some(heap_game)) => {
            if size.is_some() {
                return Err(PyValueError::new_err(format!(
                    "`size` is for two-heap games; `{spec}` is a heap game: use `to`"
                )));
            }
            let len = usize::try_from(to.unwrap_or(500))
                .ok()
                .and_then(|to| to.checked_add(1))
                .ok_or_else(|| PyValueError::new_err("`to` is too large"))?;
            let mut values = sequence_to(py, &*heap_game, len, false)?;
            values.truncate(len);
            py.detach(|| grundy_plot::nim_sequence_scene(&*heap_game, &values.to_vec()))
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
            py.detach(|| grundy_plot::table_scene(game, &table)).map_err(plot_error)?
        }
        _ => {
            return Err(PyValueError::new_err(format!(
                "`{spec}` has nothing to plot (pictures exist for heap games, two-heap games and graph games)"
            )));
        }
    };
    Ok(Plot { svg: grundy_plot::svg::render(&scene).map_err(plot_error)?, scene })
}
