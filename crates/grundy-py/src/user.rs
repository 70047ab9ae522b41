//! Games written as a Python function `moves(position)`, solved by the library's one solver
//! for games whose options split into sums ([`SplitSolver`]): this module only adapts the
//! function to [`SplitGame`]. So values are memoized, each distinct position is handed to
//! `moves` once, play may go a million moves deep (the search is iterative), a position
//! reached again from itself is reported with the cycle ([`SplitGame::must_end`]), and Ctrl-C
//! is looked at as it goes.
//!
//! The value of a position is the mex of its options' values (Sprague–Grundy), and an option
//! that is a `Sum(a, b, …)` of independent positions is worth the xor of their values (the
//! Sprague–Grundy theorem).

use grundy::error::GameError;
use grundy::script::solver::{OptionList, SplitGame, SplitSolver, cycle_path};
use grundy::value::Value;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyString, PyTuple};
use rustc_hash::FxHashMap;
use std::cell::{Cell, RefCell};
use std::sync::Mutex;

/// A sum of independent positions: an option of a game from `moves` that splits (Kayles'
/// row knocked down in the middle), or a position that is several at once. Its value is the
/// xor (nim-sum) of its parts' values.
///
/// >>> import grundy
/// >>> grundy.Sum(2, 3)
/// Sum(2, 3)
/// >>> grundy.Sum(2, 3).parts
/// (2, 3)
/// >>> grundy.Game("nim").value(grundy.Sum(2, 3))
/// 1
#[pyclass(module = "grundy", frozen)]
pub struct Sum {
    /// The positions added up.
    #[pyo3(get)]
    pub parts: Py<PyTuple>,
}

#[pymethods]
impl Sum {
    #[new]
    #[pyo3(signature = (*parts))]
    fn new(parts: Py<PyTuple>) -> Self {
        Sum { parts }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let parts =
            self.parts.bind(py).iter().map(|part| Ok(part.repr()?.to_string())).collect::<PyResult<Vec<_>>>()?;
        Ok(format!("Sum({})", parts.join(", ")))
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        match other.cast::<Sum>() {
            Ok(other) => self.parts.bind(py).eq(other.get().parts.bind(py)),
            Err(_) => Ok(false),
        }
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        self.parts.bind(py).len()
    }
}

/// A position of a game from `moves`, as a hash key: ints (any size), strings, tuples of these.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Int(i64),
    /// A big int: its sign and magnitude in little-endian bytes.
    Big(bool, Box<[u8]>),
    Str(Box<str>),
    Tuple(Box<[Key]>),
}

fn key_of(object: &Bound<'_, PyAny>) -> PyResult<Key> {
    if let Ok(small) = object.extract::<i64>() {
        return Ok(Key::Int(small));
    }
    if object.is_instance_of::<PyInt>() {
        let negative = object.lt(0)?;
        let magnitude = object.abs()?;
        let bits: u64 = magnitude.call_method0("bit_length")?.extract()?;
        let bytes = magnitude.call_method1("to_bytes", (bits.div_ceil(8), "little"))?;
        return Ok(Key::Big(negative, bytes.cast::<PyBytes>()?.as_bytes().into()));
    }
    if let Ok(text) = object.cast::<PyString>() {
        return Ok(Key::Str(text.to_cow()?.as_ref().into()));
    }
    if let Ok(tuple) = object.cast::<PyTuple>() {
        return Ok(Key::Tuple(tuple.iter().map(|item| key_of(&item)).collect::<PyResult<_>>()?));
    }
    Err(PyTypeError::new_err(format!(
        "a position is an int, a tuple or a string, not {} ({}); an option that splits is grundy.Sum(a, b, ...)",
        object.get_type().name()?,
        short_repr(object)
    )))
}

/// `repr` of a position, cut to a readable length for messages.
pub fn short_repr(object: &Bound<'_, PyAny>) -> String {
    let text = object.repr().map(|r| r.to_string()).unwrap_or_else(|_| "<unprintable>".to_owned());
    grundy::error::quote(&text)
}

/// An option of a position (a position, or a `Sum` of several) and its value.
pub type ValuedOption = (Py<PyAny>, u64);

/// The game of a Python function `moves`, as the library's [`SplitSolver`] sees it: positions
/// by their [`Key`], options read from what `moves` returns.
struct MovesFunction {
    name: String,
    moves: Py<PyAny>,
    /// The first Python object met for each position: the one handed to `moves`, and given
    /// back as an option (so that `True` stays `True`, not `1`).
    objects: RefCell<FxHashMap<Key, Py<PyAny>>>,
    /// The Python exception that stopped the expansion under way (the solver only carries a
    /// [`GameError`]): raised again, unchanged, once the solver returns.
    raised: RefCell<Option<PyErr>>,
    /// Calls of `moves` since the last look at Ctrl-C.
    calls_since_check: Cell<u32>,
}

/// Calls of `moves` between two looks at Ctrl-C.
const CALLS_PER_SIGNAL_CHECK: u32 = 4096;

impl MovesFunction {
    /// The key of `object`, remembering the object if its position is new.
    fn intern(&self, object: &Bound<'_, PyAny>) -> PyResult<Key> {
        let key = key_of(object)?;
        self.objects.borrow_mut().entry(key.clone()).or_insert_with(|| object.clone().unbind());
        Ok(key)
    }

    fn object<'py>(&self, py: Python<'py>, key: &Key) -> Bound<'py, PyAny> {
        self.objects.borrow()[key].bind(py).clone()
    }

    /// Keeps `error` to raise it once the solver returns; the solver gets a stand-in.
    fn stash(&self, error: PyErr) -> GameError {
        *self.raised.borrow_mut() = Some(error);
        GameError::Unsupported(format!("the moves function of {} raised an exception", self.name))
    }

    /// Calls `moves` on `position` and reads its options into `out`.
    fn read_options(&self, py: Python<'_>, position: &Key, out: &mut OptionList<Key>) -> PyResult<()> {
        let calls = self.calls_since_check.get() + 1;
        self.calls_since_check.set(if calls >= CALLS_PER_SIGNAL_CHECK { 0 } else { calls });
        if calls >= CALLS_PER_SIGNAL_CHECK {
            py.check_signals()?;
        }
        let object = self.object(py, position);
        let options = self.moves.bind(py).call1((&object,))?;
        let read = (|| -> PyResult<()> {
            for option in options.try_iter()? {
                let option = option?;
                if let Ok(sum) = option.cast::<Sum>() {
                    let parts =
                        sum.get().parts.bind(py).iter().map(|part| self.intern(&part)).collect::<PyResult<Vec<_>>>()?;
                    out.push_option(parts);
                } else {
                    out.push_single(self.intern(&option)?);
                }
            }
            Ok(())
        })();
        read.map_err(|error| {
            let note = format!("in the options of position {} of {}", short_repr(&object), self.name);
            with_note(py, error, &note)
        })
    }
}

impl SplitGame for MovesFunction {
    type State = Key;

    fn expand(&self, position: &Key, out: &mut OptionList<Key>) -> Result<(), GameError> {
        Python::attach(|py| self.read_options(py, position, out)).map_err(|error| self.stash(error))
    }

    fn describe(&self, position: &Key) -> String {
        Python::attach(|py| short_repr(&self.object(py, position)))
    }

    fn must_end(&self) -> bool {
        true
    }

    fn cycle_error(&self, path: &[Key]) -> GameError {
        let described: Vec<String> = path.iter().map(|position| self.describe(position)).collect();
        let first = described.first().map_or("?", String::as_str);
        self.stash(PyValueError::new_err(format!(
            "the game {} is loopy: position {first} can be reached from itself ({}); \
             a game from moves needs every play to end",
            self.name,
            cycle_path(&described)
        )))
    }
}

/// A game given by its moves function.
pub struct UserGame {
    /// Every position is handed to `moves` once (the options are kept), as `from_moves` promises.
    /// Boxed: a game's kind stays the size of a pointer or two, whichever kind it is.
    solver: Box<Mutex<SplitSolver<MovesFunction>>>,
}

impl UserGame {
    pub fn new(moves: Py<PyAny>, name: String) -> Self {
        let game = MovesFunction {
            name,
            moves,
            objects: RefCell::default(),
            raised: RefCell::default(),
            calls_since_check: Cell::new(0),
        };
        // No limit of its own, as before the library's solver: the solver's own bound (ids
        // in 32 bits) is far past the memory of any machine that keeps a Python object per
        // position.
        UserGame { solver: Box::new(Mutex::new(SplitSolver::new(game, usize::MAX).keeping_options())) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, SplitSolver<MovesFunction>> {
        self.solver.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The value of `position` (one position or a `Sum`; a list is read as a `Sum`).
    pub fn value(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<u64> {
        let parts = self.parts_of(py, position)?;
        let mut solver = self.lock();
        let mut total = 0;
        for part in parts {
            let key = solver.game().intern(&part)?;
            let value = solver.value(&key);
            total ^= finite(&solver, value)?;
        }
        Ok(total)
    }

    /// The positions a value question names: a `Sum`'s or a list's parts, or the one position.
    pub fn parts_of<'py>(&self, py: Python<'py>, position: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        if let Ok(sum) = position.cast::<Sum>() {
            return Ok(sum.get().parts.bind(py).iter().collect());
        }
        if let Ok(list) = position.cast::<pyo3::types::PyList>() {
            return Ok(list.iter().collect());
        }
        Ok(vec![position.clone()])
    }

    /// The value of one position and its options (each with its value), for winning moves.
    pub fn options(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<(u64, Vec<ValuedOption>)> {
        let mut solver = self.lock();
        let key = solver.game().intern(position)?;
        let answer = solver.options(&key);
        let (value, options) = answer.map_err(|error| raised(&solver, error))?;
        let game = solver.game();
        let mut valued = Vec::with_capacity(options.len());
        for (parts, option_value) in options {
            let object = match parts.as_slice() {
                [one] => game.object(py, one).unbind(),
                many => {
                    let parts = PyTuple::new(py, many.iter().map(|part| game.object(py, part)))?;
                    Bound::new(py, Sum { parts: parts.unbind() })?.into_any().unbind()
                }
            };
            valued.push((object, finite(&solver, Ok(option_value))?));
        }
        Ok((finite(&solver, Ok(value))?, valued))
    }
}

/// The Python exception for an error of the solver: the one `moves` raised (or the cycle's),
/// else a `ValueError` with the message.
fn raised(solver: &SplitSolver<MovesFunction>, error: GameError) -> PyErr {
    solver.game().raised.borrow_mut().take().unwrap_or_else(|| PyValueError::new_err(error.to_string()))
}

/// A value as an int: a game that must end has only finite values.
fn finite(solver: &SplitSolver<MovesFunction>, value: Result<Value, GameError>) -> PyResult<u64> {
    match value.map_err(|error| raised(solver, error))? {
        Value::Finite(value) => u64::try_from(&value)
            .map_err(|_| PyValueError::new_err(format!("the value {value} does not fit in 64 bits"))),
        infinite => Err(PyValueError::new_err(format!("the value {infinite} of a game that must end"))),
    }
}

/// Adds a note to a Python exception (`add_note`, Python >= 3.11); older Pythons keep it as is.
fn with_note(py: Python<'_>, error: PyErr, note: &str) -> PyErr {
    let value = error.value(py);
    if value.hasattr("add_note").unwrap_or(false) {
        let _ = value.call_method1("add_note", (note,));
    }
    error
}
