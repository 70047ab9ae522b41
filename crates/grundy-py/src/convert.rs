//! Python values in and out: ints of any size (exact, through little-endian bytes, so no
//! decimal-digit limit applies), components as the CLI's text, errors as `ValueError` with the
//! CLI's message.

use crate::user::{Key, PythonPositions};
use grundy::GameError;
use grundy::position::Component;
use grundy::ruleset::Ruleset;
use grundy::value::Value;
use num_bigint::BigUint;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString, PyTuple};
use std::sync::Arc;

pub use crate::ints::{biguint_from_int, int_from_biguint};

/// A library error as the `ValueError` whose message is the CLI's line.
pub fn value_error(error: GameError) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// A game's value as Python: an `int`, or an [`Infinite`] for `∞(K)`.
pub fn value_to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    match value {
        Value::Finite(number) => int_from_biguint(py, number),
        Value::Infinite { reachable } => Ok(Bound::new(py, Infinite { reachable: reachable.clone() })?.into_any()),
    }
}

/// The value `∞(K)` of a position of a loopy game from which play can go on forever (Smith's
/// generalized Sprague–Grundy function); `reachable` is `K`, the finite values of its options.
///
/// >>> import grundy
/// >>> grundy.Infinite([0, 2])
/// ∞(0,2)
/// >>> grundy.Infinite([0, 2]).outcome, grundy.Infinite([1]).outcome
/// ('N', 'D')
#[pyclass(module = "grundy", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Infinite {
    /// The finite values among the options, sorted.
    #[pyo3(get)]
    pub reachable: Vec<u64>,
}

#[pymethods]
impl Infinite {
    #[new]
    fn new(mut reachable: Vec<u64>) -> Self {
        reachable.sort_unstable();
        reachable.dedup();
        Infinite { reachable }
    }

    /// "N" when 0 is reachable (move to a P-position), else "D" (a draw).
    #[getter]
    fn outcome(&self) -> &'static str {
        if self.reachable.contains(&0) { "N" } else { "D" }
    }

    fn __repr__(&self) -> String {
        Value::Infinite { reachable: self.reachable.clone() }.to_string()
    }
}

/// The CLI's text of one component given in Python: an `int` (a heap), a tuple of ints (a pair
/// `x,y` or a cell), or a string in the CLI's notation (`"4,7"`, `"HTTH"`, a vertex name).
pub fn component_text(object: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(small) = object.extract::<u64>() {
        return Ok(small.to_string());
    }
    if object.is_instance_of::<PyInt>() {
        return Ok(match biguint_from_int(object)? {
            Some(number) => number.to_string(),
            // The game's own parser names a negative component in its message.
            None => format!("-{}", biguint_from_int(&object.neg()?)?.unwrap_or_default()),
        });
    }
    if let Ok(text) = object.cast::<PyString>() {
        return Ok(text.to_cow()?.into_owned());
    }
    if let Ok(tuple) = object.cast::<PyTuple>() {
        let parts = tuple.iter().map(|item| component_text(&item)).collect::<PyResult<Vec<_>>>()?;
        return Ok(parts.join(","));
    }
    Err(PyTypeError::new_err(format!(
        "a component is an int, a tuple of ints or a string in the CLI's notation, not {}",
        object.get_type().name()?
    )))
}

/// One component as given in Python, read under the GIL: a position of a game from `moves`
/// at once, a component of a built-in game as its text, for the game's own parser (its error
/// is the CLI's) to read without the GIL.
pub enum GivenComponent {
    /// A position of a game from `moves`.
    Read(Component),
    /// The CLI's text of a component of a built-in game.
    Text(String),
}

/// `object` as a component of a game: a game from `moves` (`python`: its positions) takes the
/// Python object itself, a built-in game its text.
pub fn given_component(python: Option<&PythonPositions>, object: &Bound<'_, PyAny>) -> PyResult<GivenComponent> {
    match python {
        Some(positions) => positions.component(object).map(GivenComponent::Read),
        None => component_text(object).map(GivenComponent::Text),
    }
}

/// A component on its way to Python, made by the library without the GIL: what Python makes
/// its object of (a script's `show` may wait for its backend, so even the text is made first).
pub enum ShownComponent {
    /// A position of a game from `moves`: its object.
    Moves(Arc<PythonPositions>, Key),
    /// A heap: an `int`.
    Heap(BigUint),
    /// A pair: a tuple of two `int`s.
    Pair(BigUint, BigUint),
    /// A cell: a tuple of two `int`s.
    Cell(u64, u64),
    /// Anything else, as the game writes it: a `str`.
    Text(String),
}

/// How `component` of `game` (`python`: its positions, when it is a game from `moves`) goes
/// to Python.
pub fn show_component(
    game: &dyn Ruleset,
    python: Option<&Arc<PythonPositions>>,
    component: &Component,
) -> ShownComponent {
    if let (Some(positions), Some(key)) = (python, component.downcast_ref::<Key>()) {
        ShownComponent::Moves(Arc::clone(positions), key.clone())
    } else if let Some(heap) = component.downcast_ref::<BigUint>() {
        ShownComponent::Heap(heap.clone())
    } else if let Some((x, y)) = component.downcast_ref::<(BigUint, BigUint)>() {
        ShownComponent::Pair(x.clone(), y.clone())
    } else if let Some((x, y)) = component.downcast_ref::<(u64, u64)>() {
        ShownComponent::Cell(*x, *y)
    } else {
        ShownComponent::Text(game.format_component(component))
    }
}

/// A component as Python: a heap an `int`, a pair or cell a tuple, a position of a game from
/// `moves` the object `moves` returned, anything else its text.
pub fn component_to_python<'py>(py: Python<'py>, shown: &ShownComponent) -> PyResult<Bound<'py, PyAny>> {
    match shown {
        ShownComponent::Moves(positions, key) => Ok(positions.object(py, key)),
        ShownComponent::Heap(heap) => int_from_biguint(py, heap),
        ShownComponent::Pair(x, y) => {
            Ok(PyTuple::new(py, [int_from_biguint(py, x)?, int_from_biguint(py, y)?])?.into_any())
        }
        ShownComponent::Cell(x, y) => Ok(PyTuple::new(py, [*x, *y])?.into_any()),
        ShownComponent::Text(text) => Ok(PyString::new(py, text).into_any()),
    }
}
