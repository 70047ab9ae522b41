//! Games written as a Python function `moves(position)`: values memoized in Rust, computed
//! by an explicit stack (no recursion in Rust or Python, so play a million moves deep is
//! fine), with a revisited position reported as a cycle, and Ctrl-C checked as it goes.
//!
//! The value of a position is the mex of its options' values (Sprague–Grundy), and an option
//! that is a `Sum(a, b, …)` of independent positions is worth the xor of their values (the
//! Sprague–Grundy theorem); each distinct position is handed to `moves` once.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyString, PyTuple};
use rustc_hash::FxHashMap;
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
#[derive(Clone, PartialEq, Eq, Hash)]
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

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// Seen as an option, `moves` not called yet.
    New,
    /// Its options are known, its value is not (a computation was stopped).
    Open,
    /// On the stack of the computation under way.
    OnStack,
    /// Its value is known.
    Done,
}

struct Node {
    position: Py<PyAny>,
    state: State,
    value: u64,
    /// Its options: `spans[options.0 .. options.1]`, each a range of `parts`.
    options: (usize, usize),
}

/// Everything computed so far.
#[derive(Default)]
struct Memo {
    ids: FxHashMap<Key, usize>,
    nodes: Vec<Node>,
    /// Each option as a range of `parts`: the positions it is the sum of.
    spans: Vec<(usize, usize)>,
    parts: Vec<usize>,
    /// Calls of `moves` since the last look at Ctrl-C.
    calls_since_check: u32,
}

/// An option of a position (a position, or a `Sum` of several) and its value.
pub type ValuedOption = (Py<PyAny>, u64);

/// A game given by its moves function.
pub struct UserGame {
    pub name: String,
    moves: Py<PyAny>,
    memo: Mutex<Memo>,
}

impl UserGame {
    pub fn new(moves: Py<PyAny>, name: String) -> Self {
        UserGame { name, moves, memo: Mutex::new(Memo::default()) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Memo> {
        self.memo.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The value of `position` (one position or a `Sum`; a list is read as a `Sum`).
    pub fn value(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<u64> {
        let parts = self.parts_of(py, position)?;
        let mut memo = self.lock();
        let mut total = 0;
        for part in parts {
            let id = memo.intern(py, &part)?;
            total ^= self.evaluate(py, &mut memo, id)?;
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
        let mut memo = self.lock();
        let id = memo.intern(py, position)?;
        let value = self.evaluate(py, &mut memo, id)?;
        let (first, last) = memo.nodes[id].options;
        let mut options = Vec::with_capacity(last - first);
        for span in first..last {
            let (start, end) = memo.spans[span];
            let ids = &memo.parts[start..end];
            let option_value = ids.iter().fold(0, |acc, &part| acc ^ memo.nodes[part].value);
            let object = match ids {
                [one] => memo.nodes[*one].position.clone_ref(py),
                many => {
                    let parts = PyTuple::new(py, many.iter().map(|&part| memo.nodes[part].position.clone_ref(py)))?;
                    Bound::new(py, Sum { parts: parts.unbind() })?.into_any().unbind()
                }
            };
            options.push((object, option_value));
        }
        Ok((value, options))
    }

    /// The value of node `root`, computing every position below it first, iteratively.
    fn evaluate(&self, py: Python<'_>, memo: &mut Memo, root: usize) -> PyResult<u64> {
        if memo.nodes[root].state == State::Done {
            return Ok(memo.nodes[root].value);
        }
        // Each frame: a node and the next of its option parts to look at.
        let mut stack: Vec<(usize, usize)> = Vec::new();
        let result = self.run(py, memo, root, &mut stack);
        if result.is_err() {
            // Stopped (an exception, a cycle, Ctrl-C): what was expanded stays known.
            for &(id, _) in &stack {
                memo.nodes[id].state = State::Open;
            }
        }
        result
    }

    fn run(&self, py: Python<'_>, memo: &mut Memo, root: usize, stack: &mut Vec<(usize, usize)>) -> PyResult<u64> {
        let mut seen_values: Vec<u64> = Vec::new();
        self.open(py, memo, root)?;
        stack.push((root, memo.first_part(root)));
        while let Some(&(node, mut cursor)) = stack.last() {
            let end = memo.last_part(node);
            while cursor < end && memo.nodes[memo.parts[cursor]].state == State::Done {
                cursor += 1;
            }
            if let Some(frame) = stack.last_mut() {
                frame.1 = cursor;
            }
            if cursor < end {
                let child = memo.parts[cursor];
                if memo.nodes[child].state == State::OnStack {
                    return Err(self.cycle(py, memo, stack, child));
                }
                self.open(py, memo, child)?;
                stack.push((child, memo.first_part(child)));
                continue;
            }
            // Every option's value is known: the mex of their values.
            seen_values.clear();
            let (first, last) = memo.nodes[node].options;
            for span in first..last {
                let (start, end) = memo.spans[span];
                seen_values.push(memo.parts[start..end].iter().fold(0, |acc, &part| acc ^ memo.nodes[part].value));
            }
            seen_values.sort_unstable();
            seen_values.dedup();
            let mex = seen_values
                .iter()
                .enumerate()
                .find(|&(index, &value)| index as u64 != value)
                .map_or(seen_values.len(), |(index, _)| index);
            memo.nodes[node].value = mex as u64;
            memo.nodes[node].state = State::Done;
            stack.pop();
        }
        Ok(memo.nodes[root].value)
    }

    /// Puts `id` on the stack, calling `moves` for it the first time.
    fn open(&self, py: Python<'_>, memo: &mut Memo, id: usize) -> PyResult<()> {
        if memo.nodes[id].state == State::New {
            memo.calls_since_check += 1;
            if memo.calls_since_check >= 4096 {
                memo.calls_since_check = 0;
                py.check_signals()?;
            }
            let position = memo.nodes[id].position.clone_ref(py);
            let options = self.moves.bind(py).call1((position.bind(py),))?;
            let first_span = memo.spans.len();
            let result = (|| -> PyResult<()> {
                for option in options.try_iter()? {
                    let option = option?;
                    let start = memo.parts.len();
                    if let Ok(sum) = option.cast::<Sum>() {
                        for part in sum.get().parts.bind(py).iter() {
                            let part_id = memo.intern(py, &part)?;
                            memo.parts.push(part_id);
                        }
                    } else {
                        let part_id = memo.intern(py, &option)?;
                        memo.parts.push(part_id);
                    }
                    memo.spans.push((start, memo.parts.len()));
                }
                Ok(())
            })();
            if let Err(error) = result {
                // Forget the half-read options; the next question calls `moves` again.
                let start = memo.spans.get(first_span).map_or(memo.parts.len(), |span| span.0);
                memo.spans.truncate(first_span);
                memo.parts.truncate(start);
                let note = format!(
                    "in the options of position {} of {}",
                    short_repr(memo.nodes[id].position.bind(py)),
                    self.name
                );
                return Err(with_note(py, error, &note));
            }
            memo.nodes[id].options = (first_span, memo.spans.len());
        }
        memo.nodes[id].state = State::OnStack;
        Ok(())
    }

    fn cycle(&self, py: Python<'_>, memo: &Memo, stack: &[(usize, usize)], again: usize) -> PyErr {
        let from = stack.iter().position(|&(id, _)| id == again).unwrap_or(0);
        let mut path: Vec<String> =
            stack[from..].iter().map(|&(id, _)| short_repr(memo.nodes[id].position.bind(py))).collect();
        let shown = if path.len() > 12 {
            let tail = path.split_off(path.len() - 5);
            let hidden = path.len() - 5;
            path.truncate(5);
            format!("{} -> … ({hidden} more) … -> {}", path.join(" -> "), tail.join(" -> "))
        } else {
            path.join(" -> ")
        };
        let first = short_repr(memo.nodes[again].position.bind(py));
        PyValueError::new_err(format!(
            "the game {} is loopy: position {first} can be reached from itself ({shown} -> {first}); \
             a game from moves needs every play to end",
            self.name
        ))
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

impl Memo {
    fn intern(&mut self, _py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<usize> {
        let key = key_of(position)?;
        if let Some(&id) = self.ids.get(&key) {
            return Ok(id);
        }
        let id = self.nodes.len();
        self.nodes.push(Node { position: position.clone().unbind(), state: State::New, value: 0, options: (0, 0) });
        self.ids.insert(key, id);
        Ok(id)
    }

    fn first_part(&self, id: usize) -> usize {
        let (first, last) = self.nodes[id].options;
        if first == last { 0 } else { self.spans[first].0 }
    }

    fn last_part(&self, id: usize) -> usize {
        let (first, last) = self.nodes[id].options;
        if first == last { 0 } else { self.spans[last - 1].1 }
    }
}
