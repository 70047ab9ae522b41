//! Games written as a Python function `moves(position)`: a ruleset through the library's one
//! adapter for games given by their moves ([`MovesFamily`]), so such a game is summed with any
//! built-in one. Its backend ([`PythonMoves`]) runs in this process on the library's one solver
//! for games whose options split into sums ([`SplitSolver`]): this module only adapts the
//! function to [`SplitGame`]. So values are memoized, each distinct position is handed to
//! `moves` once, play may go a million moves deep (the search is iterative), a position
//! reached again from itself is reported with the cycle ([`SplitGame::must_end`]), and Ctrl-C
//! is looked at as it goes. The components of such a game are the positions' [`Key`]s, made
//! from Python objects and turned back into the objects `moves` returned through the
//! [`PythonPositions`] that [`from_moves`] hands to the binding with the game, with no text
//! between.
//!
//! Threads: the library's adapter answers one call at a time (its backend behind a mutex), and
//! the backend takes the GIL to call `moves` while it holds that mutex. So whoever waits for
//! the mutex must not hold the GIL, or two Python threads sharing one game wait for each other
//! forever: the binding runs every library call on such a game with the GIL released
//! (`py.detach`), and keeps the [`PythonPositions`] itself instead of asking the game for them
//! (a capability lookup takes the mutex too).
//!
//! The value of a position is the mex of its options' values (Sprague–Grundy), and an option
//! that is a `Sum(a, b, …)` of independent positions is worth the xor of their values (the
//! Sprague–Grundy theorem).

use grundy::error::GameError;
use grundy::moves::{MovesBackend, MovesFamily, MovesOption, MovesPosition, Shape};
use grundy::position::Component;
use grundy::ruleset::Ruleset;
use grundy::script::ScriptPosition;
use grundy::script::solver::{OptionList, SplitGame, SplitSolver, cycle_path};
use grundy::value::Value;
use num_bigint::{BigInt, Sign};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyString, PyTuple};
use rustc_hash::FxHashMap;
use std::cell::Cell;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::ThreadId;

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
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    Int(i64),
    /// A big int: its sign (true: negative) and magnitude in little-endian bytes.
    Big(bool, Box<[u8]>),
    Str(Box<str>),
    Tuple(Box<[Key]>),
}

impl Key {
    fn big(&self) -> Option<BigInt> {
        match self {
            Key::Int(small) => Some(BigInt::from(*small)),
            Key::Big(negative, bytes) => {
                Some(BigInt::from_bytes_le(if *negative { Sign::Minus } else { Sign::Plus }, bytes))
            }
            _ => None,
        }
    }

    /// A Python object for the key, when no object was met for it (a heap the nim-sequence
    /// asks for).
    fn to_object<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self {
            Key::Int(small) => small.into_pyobject(py)?.into_any(),
            Key::Big(negative, bytes) => {
                let magnitude =
                    py.get_type::<PyInt>().call_method1("from_bytes", (PyBytes::new(py, bytes), "little"))?;
                if *negative { magnitude.neg()? } else { magnitude }
            }
            Key::Str(text) => PyString::new(py, text).into_any(),
            Key::Tuple(items) => {
                PyTuple::new(py, items.iter().map(|item| item.to_object(py)).collect::<PyResult<Vec<_>>>()?)?.into_any()
            }
        })
    }
}

/// The key as Python writes its object (the fallback of a position's text).
impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Int(_) | Key::Big(..) => write!(f, "{}", self.big().unwrap_or_default()),
            Key::Str(text) => write!(f, "{text:?}"),
            Key::Tuple(items) if items.len() == 1 => write!(f, "({},)", items[0]),
            Key::Tuple(items) => {
                let texts: Vec<String> = items.iter().map(Key::to_string).collect();
                write!(f, "({})", texts.join(", "))
            }
        }
    }
}

impl MovesPosition for Key {
    fn heap(heap: u64) -> Self {
        match i64::try_from(heap) {
            Ok(small) => Key::Int(small),
            Err(_) => Key::Big(false, heap.to_le_bytes().into()),
        }
    }

    fn as_small_heap(&self) -> Option<u64> {
        match self {
            Key::Int(small) => u64::try_from(*small).ok(),
            Key::Big(false, _) => self.big().and_then(|big| u64::try_from(big).ok()),
            _ => None,
        }
    }

    fn pair(x: u64, y: u64) -> Self {
        Key::Tuple(Box::new([Key::heap(x), Key::heap(y)]))
    }
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

/// What a game from `moves` shares between its solver and the binding: the Python object of
/// each position, and the exceptions that stopped the solver.
pub struct PythonPositions {
    name: String,
    /// The first Python object met for each position: the one handed to `moves`, and given
    /// back as an option (so that `True` stays `True`, not `1`).
    objects: Mutex<FxHashMap<Key, Py<PyAny>>>,
    /// The Python exception that stopped the expansion under way (the solver and the ruleset
    /// only carry a [`GameError`]), with the position whose call of `moves` raised it: raised
    /// again, unchanged, once the call returns. One per thread: the solver runs on the thread
    /// that called the library, and threads sharing the game each get their own exception back
    /// (the solver serves one at a time, so another thread's may come before this one's is taken).
    raised: Mutex<FxHashMap<ThreadId, (PyErr, Option<Key>)>>,
    /// The thread inside a call of `moves` (with the options it returns), if one is: one at a
    /// time, since the adapter's backend is behind a mutex, which that thread holds. If `moves`
    /// asks its own game anything, the game refuses instead of waiting for that mutex forever.
    calling: Mutex<Option<ThreadId>>,
}

impl PythonPositions {
    fn objects(&self) -> MutexGuard<'_, FxHashMap<Key, Py<PyAny>>> {
        self.objects.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The key of `object`, remembering the object if its position is new.
    fn intern(&self, object: &Bound<'_, PyAny>) -> PyResult<Key> {
        let key = key_of(object)?;
        self.objects().entry(key.clone()).or_insert_with(|| object.clone().unbind());
        Ok(key)
    }

    /// The object of the position `key`: the first met, or one made from the key.
    pub fn object<'py>(&self, py: Python<'py>, key: &Key) -> Bound<'py, PyAny> {
        if let Some(object) = self.objects().get(key) {
            return object.bind(py).clone();
        }
        // A key is made from an object or by `MovesPosition` (ints and tuples of them), and
        // each of those makes an object back.
        let object = key.to_object(py).unwrap_or_else(|_| PyString::new(py, &key.to_string()).into_any());
        self.objects().entry(key.clone()).or_insert_with(|| object.clone().unbind()).bind(py).clone()
    }

    /// A component of the game from a Python object (a position `moves` takes).
    pub fn component(&self, object: &Bound<'_, PyAny>) -> PyResult<Component> {
        Ok(Component::new(self.intern(object)?))
    }

    fn calling(&self) -> MutexGuard<'_, Option<ThreadId>> {
        self.calling.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Whether this thread is inside a call of this game's `moves` (then anything it asks of
    /// the game would wait for itself).
    pub fn calling_moves_here(&self) -> bool {
        *self.calling() == Some(std::thread::current().id())
    }

    fn raised(&self) -> MutexGuard<'_, FxHashMap<ThreadId, (PyErr, Option<Key>)>> {
        self.raised.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The exception `moves` raised (or the cycle's `ValueError`) in this thread's call that
    /// just failed, if that is why it failed, with the heap whose call of `moves` raised it,
    /// when that position is an int that fits a `u64`.
    pub fn take_raised(&self) -> Option<(PyErr, Option<u64>)> {
        let raised = self.raised().remove(&std::thread::current().id());
        raised.map(|(error, at)| (error, at.as_ref().and_then(Key::as_small_heap)))
    }

    /// The game's name, as `from_moves` was given it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Keeps `error`, raised by the call of `moves` on `at` (none: raised otherwise, or the
    /// cycle's), to raise it once the call returns; the solver gets a stand-in.
    fn stash(&self, error: PyErr, at: Option<&Key>) -> GameError {
        self.raised().insert(std::thread::current().id(), (error, at.cloned()));
        GameError::Unsupported(format!("the moves function of {} raised an exception", self.name))
    }
}

/// The game of a Python function `moves`, as the library's [`SplitSolver`] sees it: positions
/// by their [`Key`], options read from what `moves` returns.
struct MovesFunction {
    moves: Py<PyAny>,
    positions: Arc<PythonPositions>,
    /// Calls of `moves` since the last look at Ctrl-C.
    calls_since_check: Cell<u32>,
}

/// Calls of `moves` between two looks at Ctrl-C.
const CALLS_PER_SIGNAL_CHECK: u32 = 4096;

impl MovesFunction {
    /// Calls `moves` on `position` and reads its options into `out`. A failure comes with
    /// `position` when the call of `moves` itself raised (not Ctrl-C, nor an option that is
    /// no position).
    fn read_options(
        &self,
        py: Python<'_>,
        position: &Key,
        out: &mut OptionList<Key>,
    ) -> Result<(), (PyErr, Option<Key>)> {
        let calls = self.calls_since_check.get() + 1;
        self.calls_since_check.set(if calls >= CALLS_PER_SIGNAL_CHECK { 0 } else { calls });
        if calls >= CALLS_PER_SIGNAL_CHECK {
            py.check_signals().map_err(|error| (error, None))?;
        }
        // The user's code runs in the call and while its options are read (a generator).
        *self.positions.calling() = Some(std::thread::current().id());
        let read = self.call_moves(py, position, out);
        *self.positions.calling() = None;
        read
    }

    /// [`MovesFunction::read_options`] past the look at Ctrl-C.
    fn call_moves(
        &self,
        py: Python<'_>,
        position: &Key,
        out: &mut OptionList<Key>,
    ) -> Result<(), (PyErr, Option<Key>)> {
        let object = self.positions.object(py, position);
        let options = self.moves.bind(py).call1((&object,)).map_err(|error| (error, Some(position.clone())))?;
        let read = (|| -> PyResult<()> {
            for option in options.try_iter()? {
                let option = option?;
                if let Ok(sum) = option.cast::<Sum>() {
                    let parts = sum
                        .get()
                        .parts
                        .bind(py)
                        .iter()
                        .map(|part| self.positions.intern(&part))
                        .collect::<PyResult<Vec<_>>>()?;
                    out.push_option(parts);
                } else {
                    out.push_single(self.positions.intern(&option)?);
                }
            }
            Ok(())
        })();
        read.map_err(|error| {
            let note = format!("in the options of position {} of {}", short_repr(&object), self.positions.name);
            (with_note(py, error, &note), None)
        })
    }
}

impl SplitGame for MovesFunction {
    type State = Key;

    fn expand(&self, position: &Key, out: &mut OptionList<Key>) -> Result<(), GameError> {
        Python::attach(|py| self.read_options(py, position, out))
            .map_err(|(error, at)| self.positions.stash(error, at.as_ref()))
    }

    fn describe(&self, position: &Key) -> String {
        Python::attach(|py| short_repr(&self.positions.object(py, position)))
    }

    fn must_end(&self) -> bool {
        true
    }

    fn cycle_error(&self, path: &[Key]) -> GameError {
        let described: Vec<String> = path.iter().map(|position| self.describe(position)).collect();
        let first = described.first().map_or("?", String::as_str);
        self.positions.stash(
            PyValueError::new_err(format!(
                "the game {} is loopy: position {first} can be reached from itself ({}); \
             a game from moves needs every play to end",
                self.positions.name,
                cycle_path(&described)
            )),
            None,
        )
    }
}

/// The memory one position of a game from `moves` is counted to take (the Python object kept
/// for it, its key, its options kept and the solver's state), for the bound on the positions.
const BYTES_PER_POSITION: u128 = 512;

/// The backend of a game from `moves`: the function and its memoized solver, in this process.
pub struct PythonMoves {
    /// Every position is handed to `moves` once (the options are kept), as `from_moves` promises.
    solver: SplitSolver<MovesFunction>,
    positions: Arc<PythonPositions>,
}

/// The game of the Python function `moves`, named `name`, as a ruleset, with its positions as
/// Python objects (kept by the caller: the game does not hand them out, see the module's
/// note on threads).
pub fn from_moves(moves: Py<PyAny>, name: String) -> (Arc<dyn Ruleset>, Arc<PythonPositions>) {
    let positions = Arc::new(PythonPositions {
        name: name.clone(),
        objects: Mutex::default(),
        raised: Mutex::default(),
        calling: Mutex::default(),
    });
    let game = MovesFunction { moves, positions: Arc::clone(&positions), calls_since_check: Cell::new(0) };
    // The positions a game may remember: what this process may use (the CLI's measured
    // limit: `ulimit -v`, the cgroup, the memory available) at BYTES_PER_POSITION each, so
    // that an endless or huge `moves` is refused with a ValueError instead of filling memory.
    let memory = crate::long::game_control().memory_limit();
    let most = usize::try_from(memory / BYTES_PER_POSITION).unwrap_or(usize::MAX).max(1);
    let note = format!(
        "a game from `moves` remembers each position it meets (its Python object, its options: about {BYTES_PER_POSITION} bytes), and {} of memory holds {most}; does `moves` end (every line of play reaches a position without options)? Ask about a smaller position, or give the process more memory",
        grundy::error::human_bytes(memory)
    );
    let solver = SplitSolver::new(game, most).keeping_options().with_limit_note(note);
    let ruleset = MovesFamily::erased(&name, Box::new(PythonMoves { solver, positions: Arc::clone(&positions) }));
    (ruleset, positions)
}

impl MovesBackend<Key> for PythonMoves {
    fn name(&self) -> &str {
        &self.positions.name
    }

    fn description(&self) -> &str {
        ""
    }

    fn start(&self) -> Option<&[Key]> {
        None
    }

    fn method(&self) -> String {
        "memoized search over the moves function".to_owned()
    }

    /// Not probed: a probe would call `moves` on positions never asked about (a pair handed
    /// to a function of heaps raises).
    fn shape(&mut self) -> Result<Shape, String> {
        Ok(Shape::Unknown)
    }

    /// A text as the CLI's default reads a position (an int, or ints separated by commas, a
    /// tuple), else the string itself.
    fn parse(&mut self, texts: &[String]) -> Result<Vec<Key>, String> {
        Python::attach(|py| {
            texts
                .iter()
                .map(|text| {
                    let object = match ScriptPosition::parse_default(text, &self.positions.name) {
                        Ok(ScriptPosition::Int(heap)) => heap.into_pyobject(py)?.into_any(),
                        Ok(ScriptPosition::Big(heap)) => crate::ints::int_from_biguint(py, &heap)?,
                        Ok(ScriptPosition::Tuple(items)) => PyTuple::new(py, items)?.into_any(),
                        Ok(ScriptPosition::Str(_)) | Err(_) => PyString::new(py, text).into_any(),
                    };
                    self.positions.intern(&object)
                })
                .collect::<PyResult<Vec<_>>>()
                .map_err(|error| error.to_string())
        })
    }

    fn format(&mut self, positions: &[Key]) -> Result<Vec<String>, String> {
        Ok(Python::attach(|py| {
            positions.iter().map(|position| short_repr(&self.positions.object(py, position))).collect()
        }))
    }

    fn values(&mut self, positions: &[Key]) -> Result<Vec<Value>, String> {
        positions.iter().map(|position| self.solver.value(position).map_err(|error| error.to_string())).collect()
    }

    /// The options the solver kept: `moves` is not called again.
    fn options_with_values(&mut self, position: &Key, limit: usize) -> Result<Option<Vec<MovesOption<Key>>>, String> {
        let (_, options) = self.solver.options(position).map_err(|error| error.to_string())?;
        if options.len() > limit {
            return Ok(None);
        }
        let texts = self.format(&options.iter().flat_map(|(parts, _)| parts.iter().cloned()).collect::<Vec<_>>())?;
        let mut texts = texts.into_iter();
        Ok(Some(
            options
                .into_iter()
                .map(|(parts, value)| MovesOption { texts: texts.by_ref().take(parts.len()).collect(), parts, value })
                .collect(),
        ))
    }

    fn sequence(&mut self, from: u64, to: u64) -> Result<Vec<u64>, String> {
        (from..=to)
            .map(|heap| match self.solver.value(&Key::heap(heap)).map_err(|error| error.to_string())? {
                Value::Finite(value) => {
                    u64::try_from(&value).map_err(|_| format!("G({heap}) = {value} does not fit in 64 bits"))
                }
                infinite => Err(format!("heap {heap} has the value {infinite}: a loopy game has no nim-sequence")),
            })
            .collect()
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
