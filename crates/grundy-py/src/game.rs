//! `grundy.Game`: a built-in game (any GAME word, or a sum of them with `+`) or a game from a
//! Python `moves` function, with the answers of the library.

use crate::convert::{
    GivenComponent, ShownComponent, component_to_python, given_component, show_component, value_error, value_to_python,
};
use crate::long::{period_report, sequence_to};
use crate::user::{PythonPositions, Sum, from_moves, short_repr};
use grundy::control::Control;
use grundy::heap::{AsHeapGame, HeapGame};
use grundy::registry::{FrontEnd, PLUS, parse_game_in};
use grundy::ruleset::Ruleset;
use grundy::script::{InProcessHost, ScriptLimits};
use grundy::sum::{Part, Position};
use grundy::view::Views;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use std::sync::Arc;

/// Reads a graph file named in a game word (`dag:FILE`, `geography:FILE`): the Python
/// package is a front end, it may, with the CLI's reader and limits (`dag:/dev/zero` fails at
/// once instead of filling memory).
pub fn read_file(path: &str) -> Result<String, String> {
    grundy_cli::read_graph_file(path)
}

/// Reads a script's source (`script:PATH`), with the CLI's reader and its size limit.
fn read_script(path: &str) -> Result<String, String> {
    grundy_cli::read_script_file(path)
}

/// Parses one GAME word, reading the file it names, if any; the game gets a control of its
/// own ([`grundy_cli::measured_control`]: the memory this process may really use), shared
/// with no other game. A `script:PATH`
/// game runs in this process (the Starlark engine is hermetic, and its operation, heap and
/// time limits hold; only one giant allocation in a single step could take Python down, which
/// the CLI's worker process guards against).
///
/// The control comes back with the game (its memory limit and cancel flag): the caller keeps
/// it to stop the game's calls on Ctrl-C ([`crate::long::interruptible`]).
pub fn parse_game_controlled(word: &str) -> PyResult<(Arc<dyn Ruleset>, Control)> {
    let scripts = InProcessHost { read_file: &read_script, limits: ScriptLimits::default() };
    let control = crate::long::game_control();
    let front = FrontEnd { script_host: Some(&scripts), control: control.clone(), ..FrontEnd::reading(&read_file) };
    Ok((parse_game_in(word, &front).map_err(value_error)?, control))
}

/// A game: a built-in one by its GAME word, as the CLI takes it (`"nim"`, `"octal:0.77"`,
/// `"sub:2,5"`, `"wythoff"`, `"dag:FILE"`, …), or several added up with `+`
/// (`"nim + wythoff"`); or your own, from a Python function (`Game.from_moves`); any of
/// these added up with `+` (`Game("nim") + Game.from_moves(f)`).
///
/// A position of one game is a list of its components: heaps as ints (any size), pairs as
/// tuples, anything else as the CLI writes it (`"HTTH"`, a vertex name); one component may be
/// given alone. A position of a sum of games is a list of each part's list. Any position may
/// also be given as the CLI's text (`"3 + 4,7"`).
///
/// >>> import grundy
/// >>> g = grundy.Game("octal:0.77")
/// >>> g.value([3, 4])
/// 2
/// >>> grundy.Game("nim + wythoff").value([[3], [(4, 7)]])
/// 3
/// >>> grundy.Game("nim + wythoff + sub:2,5").value("3 + 4,7 + 9")
/// 2
/// >>> grundy.Game("kayls")
/// Traceback (most recent call last):
/// ...
/// ValueError: unknown game `kayls` (did you mean `kayles`?); `grundy rules` lists every game form
#[pyclass(module = "grundy", frozen)]
pub struct Game {
    /// The summands, in runs shared with the games this one was added up from (see
    /// [`Game::added`]): `g + h` copies neither, so adding up 10^5 games takes linear time,
    /// not quadratic.
    runs: Vec<Arc<Summands>>,
    /// The runs as one, made at the first call that needs them (a game of one run is it).
    whole: std::sync::OnceLock<Arc<Summands>>,
}

/// Games added up, in order: what a [`Game`] is made of (its methods read them through
/// `Deref`).
pub struct Summands {
    /// The games added up (one for one game), built-in or from `moves`.
    parts: Vec<Arc<dyn Ruleset>>,
    /// For each part, its positions as Python objects when it is a game from `moves`, kept
    /// from its making: asking the game for them would lock its backend, which another thread
    /// may hold while it waits for the GIL to call `moves`. For the same reason every method
    /// runs the library's calls with the GIL released (`py.detach`), reading its Python
    /// arguments before and making its Python answers after.
    python: Vec<Option<Arc<PythonPositions>>>,
    /// The controls the built-in parts compute under (one per game word), whose cancel flags
    /// Ctrl-C sets ([`crate::long::interruptible`]).
    controls: Vec<Control>,
    spec: String,
}

impl Summands {
    /// `runs` one after the other.
    fn joined(runs: &[Arc<Summands>]) -> Summands {
        let mut whole = Summands { parts: Vec::new(), python: Vec::new(), controls: Vec::new(), spec: String::new() };
        for run in runs {
            whole.parts.extend(run.parts.iter().cloned());
            whole.python.extend(run.python.iter().cloned());
            whole.controls.extend(run.controls.iter().cloned());
            if !whole.spec.is_empty() {
                whole.spec.push_str(" + ");
            }
            whole.spec.push_str(&run.spec);
        }
        whole
    }
}

impl std::ops::Deref for Game {
    type Target = Summands;

    fn deref(&self) -> &Summands {
        self.whole.get_or_init(|| match self.runs.as_slice() {
            [run] => Arc::clone(run),
            runs => Arc::new(Summands::joined(runs)),
        })
    }
}

impl Game {
    /// A game of the summands `summands`.
    fn of(summands: Summands) -> Game {
        Game { runs: vec![Arc::new(summands)], whole: std::sync::OnceLock::new() }
    }

    /// `left + right`: the runs of both, shared, the last ones joined while a run is no
    /// longer than the one after it (as a binary counter carries), so that a game keeps
    /// O(log n) runs and each summand is copied O(log n) times however a sum of n is built
    /// (`sum(games)` adds one at a time).
    fn added(left: &Game, right: &Game) -> Game {
        let mut runs: Vec<Arc<Summands>> = left.runs.iter().chain(&right.runs).cloned().collect();
        while let [.., before, last] = runs.as_slice()
            && before.parts.len() <= last.parts.len()
        {
            let joined = Arc::new(Summands::joined(&runs[runs.len() - 2..]));
            runs.truncate(runs.len() - 2);
            runs.push(joined);
        }
        Game { runs, whole: std::sync::OnceLock::new() }
    }
}

/// A part of a position as given in Python, read under the GIL, before the library reads
/// the texts of its components (without the GIL).
struct GivenPart {
    game: Arc<dyn Ruleset>,
    components: Vec<GivenComponent>,
}

/// The exception a call of `moves` raised in this thread, with that game's positions and the
/// heap it raised on (see [`PythonPositions::take_raised`]).
type Raised<'a> = (&'a PythonPositions, (PyErr, Option<u64>));

impl Game {
    /// The parts, when none is a game from `moves`.
    fn builtin(&self) -> Option<&[Arc<dyn Ruleset>]> {
        self.python.iter().all(Option::is_none).then_some(self.parts.as_slice())
    }

    /// Whether the game is one game from `moves`.
    fn python_only(&self) -> bool {
        matches!(self.python.as_slice(), [Some(_)])
    }

    /// The positions of part `index` as Python objects, when it is a game from `moves`.
    fn python_of(&self, index: usize) -> Option<&PythonPositions> {
        self.python.get(index).and_then(Option::as_deref)
    }

    /// The exception a call of `moves` raised in this thread (or a cycle's `ValueError`), if
    /// the call that just failed failed so.
    fn take_raised(&self) -> Option<Raised<'_>> {
        self.python.iter().flatten().find_map(|positions| Some((&**positions, positions.take_raised()?)))
    }

    /// The Python exception for a library error: the one a `moves` function raised (or its
    /// cycle's `ValueError`), unchanged, else a `ValueError` with the CLI's message.
    fn error(&self, error: grundy::GameError) -> PyErr {
        self.take_raised().map_or_else(|| value_error(error), |(_, (raised, _))| raised)
    }

    /// Runs `work` on the typed position of the game given in Python as `position`: read under
    /// the GIL, then its texts parsed and `work` run by the library with the GIL released (once
    /// for both: each release costs a few hundred nanoseconds). A forgotten exception of an
    /// earlier call is dropped first; a library error becomes its Python exception.
    fn on_position<T: Send>(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        work: impl FnOnce(&Position) -> Result<T, grundy::GameError> + Send,
    ) -> PyResult<T> {
        self.begin()?;
        let given = self.given_position(position)?;
        // Built-in games stop on Ctrl-C through their controls; a game from `moves` looks at
        // Ctrl-C itself, on this thread, while it calls `moves`.
        let controls = if self.builtin().is_some() { self.controls.as_slice() } else { &[] };
        crate::long::interruptible(py, controls, || {
            let parts = given
                .into_iter()
                .map(|part| {
                    let components = part
                        .components
                        .into_iter()
                        .map(|component| match component {
                            GivenComponent::Read(component) => Ok(component),
                            GivenComponent::Text(text) => part.game.parse_component(&text),
                        })
                        .collect::<Result<_, _>>()?;
                    Ok(Part { game: part.game, components })
                })
                .collect::<Result<_, grundy::GameError>>()?;
            work(&Position { parts })
        })?
        .map_err(|error| self.error(error))
    }

    /// The parts of a position given in Python, each component a position of a game from
    /// `moves` or the CLI's text of a component of a built-in game.
    fn given_position(&self, position: &Bound<'_, PyAny>) -> PyResult<Vec<GivenPart>> {
        let parts = self.parts.as_slice();
        // A string is the CLI's text of a position, but to a game from `moves` a position.
        if let Ok(text) = position.cast::<PyString>()
            && !self.python_only()
        {
            let text = text.to_cow()?;
            let text: &str = &text;
            let words: Vec<&str> = text.split_whitespace().collect();
            let groups: Vec<&[&str]> = words.split(|word| *word == PLUS).collect();
            if groups.len() != parts.len() {
                return Err(PyValueError::new_err(format!(
                    "position `{}` has {} parts but {} is a sum of {}: separate the parts with ` + `",
                    grundy::error::quote(text),
                    groups.len(),
                    self.spec,
                    parts.len()
                )));
            }
            return Ok(parts
                .iter()
                .zip(groups)
                .map(|(game, words)| GivenPart {
                    game: game.clone(),
                    components: words.iter().map(|word| GivenComponent::Text((*word).to_owned())).collect(),
                })
                .collect());
        }
        if let Ok(sum) = position.cast::<Sum>() {
            let list = PyList::new(position.py(), sum.get().parts.bind(position.py()).iter())?;
            return self.given_position(list.as_any());
        }
        let components = |index: usize, items: &Bound<'_, PyAny>| -> PyResult<GivenPart> {
            let python = self.python_of(index);
            let components = if let Ok(list) = items.cast::<PyList>() {
                list.iter().map(|item| given_component(python, &item)).collect::<PyResult<_>>()?
            } else if let Ok(sum) = items.cast::<Sum>() {
                sum.get()
                    .parts
                    .bind(items.py())
                    .iter()
                    .map(|item| given_component(python, &item))
                    .collect::<PyResult<_>>()?
            } else {
                vec![given_component(python, items)?]
            };
            Ok(GivenPart { game: parts[index].clone(), components })
        };
        if let [_] = parts {
            return Ok(vec![components(0, position)?]);
        }
        let list = position.cast::<PyList>().map_err(|_| {
            PyTypeError::new_err(format!(
                "a position of the sum {} is a list of each part's list of components",
                self.spec
            ))
        })?;
        if list.len() != parts.len() {
            return Err(PyValueError::new_err(format!(
                "{} is a sum of {} games but the position has {} parts",
                self.spec,
                parts.len(),
                list.len()
            )));
        }
        list.iter().enumerate().map(|(index, items)| components(index, &items)).collect()
    }

    /// The components of `position` on their way to Python (see [`show_component`]), made
    /// without the GIL: by part, in the order of the game's parts.
    fn show_position(&self, position: &Position) -> Vec<Vec<ShownComponent>> {
        position
            .parts
            .iter()
            .enumerate()
            .map(|(index, part)| {
                let python = self.python.get(index).and_then(Option::as_ref);
                part.components.iter().map(|component| show_component(&*part.game, python, component)).collect()
            })
            .collect()
    }

    /// A position in the shape it was given in: a list of components (one game) or a list of
    /// lists (a sum).
    fn position_to_python<'py>(py: Python<'py>, shown: &[Vec<ShownComponent>]) -> PyResult<Bound<'py, PyAny>> {
        let part = |components: &Vec<ShownComponent>| -> PyResult<Bound<'py, PyList>> {
            let items =
                components.iter().map(|component| component_to_python(py, component)).collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)
        };
        if let [only] = shown {
            return Ok(part(only)?.into_any());
        }
        Ok(PyList::new(py, shown.iter().map(part).collect::<PyResult<Vec<_>>>()?)?.into_any())
    }

    /// The one heap game this game is, built-in or from `moves` (through the capability its
    /// adapter offers, so every heap command takes one path); asked without the GIL, since
    /// asking locks the backend of a game from `moves`.
    fn heap_game(&self, py: Python<'_>) -> PyResult<Arc<dyn HeapGame>> {
        let [game] = self.parts.as_slice() else {
            return Err(PyValueError::new_err(format!(
                "`{}` is a sum of games: a nim-sequence belongs to one heap game",
                self.spec
            )));
        };
        self.begin()?;
        py.detach(|| game.heap_game()).ok_or_else(|| {
            PyValueError::new_err(format!(
                "`{}` has no nim-sequence: sequence, period and stats take a heap game ({}, or a script on integers)",
                self.spec,
                grundy::registry::heap_family_list()
            ))
        })
    }

    /// Starts a call that asks the library. Refused from inside a call of `moves` of a game
    /// from `moves` among the parts: that game answers one call at a time and is in the middle
    /// of this one, so the call would wait for itself forever. Drops an exception of `moves`
    /// kept from an earlier call of this thread, so that a failure of the call starting is
    /// never blamed on it.
    fn begin(&self) -> PyResult<()> {
        if let Some(positions) = self.python.iter().flatten().find(|positions| positions.calling_moves_here()) {
            return Err(PyRuntimeError::new_err(format!(
                "the moves function of the game {} called a method of that game: a game answers one call at a time and is in the middle of this one; compute what moves needs without the game",
                positions.name()
            )));
        }
        while self.take_raised().is_some() {}
        Ok(())
    }

    /// The exception for a failed heap command (`sequence`, `period`, `guess`, `quotient`,
    /// `plot`): see [`heap_error_of`], with the exception `moves` raised in this thread.
    fn heap_error(&self, py: Python<'_>, command: &str, error: PyErr) -> PyErr {
        heap_error_of(py, command, self.take_raised(), error)
    }
}

/// The exception for a failed heap command (`sequence`, `period`, `guess`, `quotient`,
/// `plot`): the one `moves` raised (`raised`), unchanged, except a `TypeError` of `moves`
/// called on an int, which says the game's positions are not heaps: a `ValueError` naming what
/// `command` takes, with the `TypeError` as its cause. Else `error`.
fn heap_error_of(py: Python<'_>, command: &str, raised: Option<Raised<'_>>, error: PyErr) -> PyErr {
    let Some((positions, (raised, at))) = raised else {
        return error;
    };
    match at {
        Some(heap) if raised.is_instance_of::<PyTypeError>(py) => {
            let error = PyValueError::new_err(format!(
                "{command} takes a game on ints (heaps): moves({heap}) of {} raised TypeError: {}",
                positions.name(),
                raised.value(py)
            ));
            error.set_cause(py, Some(raised));
            error
        }
        _ => raised,
    }
}

#[pymethods]
impl Game {
    #[new]
    fn new(spec: &str) -> PyResult<Self> {
        let words: Vec<&str> = spec.split_whitespace().collect();
        let mut parts = Vec::new();
        let mut controls = Vec::new();
        for group in words.split(|word| *word == PLUS) {
            match group {
                [word] => {
                    let (game, control) = parse_game_controlled(word)?;
                    parts.push(game);
                    controls.push(control);
                }
                [] => {
                    return Err(PyValueError::new_err(format!(
                        "bad game `{}`: a part of the sum is empty: each `+` is followed by a game",
                        grundy::error::quote(spec)
                    )));
                }
                [word, rest @ ..] => {
                    return Err(PyValueError::new_err(format!(
                        "bad game `{}`: `{}` after `{word}`: Game() takes game words only (`nim + wythoff`); positions go to value(), outcome(), …",
                        grundy::error::quote(spec),
                        grundy::error::quote(rest[0])
                    )));
                }
            }
        }
        let spec = parts.iter().map(|game| game.spec()).collect::<Vec<_>>().join(" + ");
        // A game word is never a game from `moves`.
        Ok(Game::of(Summands { python: vec![None; parts.len()], parts, controls, spec }))
    }

    /// Your own game: `moves(position)` returns an iterable of the options of `position`.
    ///
    /// A position is an int, a tuple (of ints, strings, tuples) or a string; an option that
    /// splits into independent positions is `grundy.Sum(a, b, ...)`, worth the xor of theirs.
    /// Values are memoized: `moves` is called once per distinct position, and positions
    /// may lie a million moves deep. A position reached again from itself is reported as a
    /// `ValueError` naming the cycle; an exception raised by `moves` propagates unchanged.
    /// A game on ints (heaps) has every method of a built-in heap game: `sequence`, `period`
    /// and `guess` (observed or checked, never proved: no theorem covers a function),
    /// `quotient` and `plot`; those raise `ValueError` saying they take a game on ints when
    /// `moves` raises `TypeError` on an int (that `TypeError` is its `__cause__`). Threads may
    /// share the game: its calls of `moves` run one at a time, other threads run meanwhile, and
    /// each thread gets back the exceptions of its own calls. `moves` itself may not call a
    /// method of its game (`RuntimeError`: the game is in the middle of a call).
    ///
    /// >>> import grundy
    /// >>> def kayles(n):
    /// ...     return [grundy.Sum(left, n - take - left) for take in (1, 2) for left in range(n - take + 1)]
    /// >>> g = grundy.Game.from_moves(kayles, name="my kayles")
    /// >>> g.sequence(11).tolist()
    /// [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    /// >>> g.value([4, 5])
    /// 5
    /// >>> p = g.period(max=200)
    /// >>> p.period, p.proved
    /// (12, False)
    #[staticmethod]
    #[pyo3(signature = (moves, name = None))]
    fn from_moves(py: Python<'_>, moves: Py<PyAny>, name: Option<String>) -> PyResult<Self> {
        if !moves.bind(py).is_callable() {
            return Err(PyTypeError::new_err("from_moves takes a function: moves(position) -> iterable of options"));
        }
        let name = match name {
            Some(name) => name,
            None => moves.bind(py).getattr("__name__").and_then(|n| n.extract()).unwrap_or_else(|_| "moves".to_owned()),
        };
        let (game, positions) = from_moves(moves, name.clone());
        Ok(Game::of(Summands { spec: name, parts: vec![game], python: vec![Some(positions)], controls: Vec::new() }))
    }

    /// The game in canonical form (`sub:2,5`; `nim + wythoff` for a sum; a name for your own).
    ///
    /// >>> import grundy
    /// >>> grundy.Game("sub:{5,2}").spec
    /// 'sub:2,5'
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    fn __repr__(&self) -> String {
        if self.builtin().is_some() {
            return format!("Game({:?})", self.spec);
        }
        let parts: Vec<String> = self
            .parts
            .iter()
            .zip(&self.python)
            .map(|(part, python)| match python {
                Some(_) => format!("Game.from_moves(name={:?})", part.spec()),
                None => format!("Game({:?})", part.spec()),
            })
            .collect();
        parts.join(" + ")
    }

    /// The sum of two games: a position of it is a list of each part's list (a game from
    /// `moves` takes its positions as `moves` does), and its value is the xor of the parts'
    /// (the Sprague–Grundy theorem).
    ///
    /// >>> import grundy
    /// >>> def take_one_or_two(n):
    /// ...     return [n - take for take in (1, 2) if take <= n]
    /// >>> g = grundy.Game("nim") + grundy.Game.from_moves(take_one_or_two)
    /// >>> g
    /// Game("nim") + Game.from_moves(name="take_one_or_two")
    /// >>> g.value([[3], [5]])  # 3 xor (5 mod 3)
    /// 1
    /// >>> [m.to for m in g.winning_moves([[3], [5]])]
    /// [[[2], [5]]]
    fn __add__(&self, other: &Bound<'_, PyAny>) -> PyResult<Game> {
        let other = other.cast::<Game>().map_err(|_| {
            PyTypeError::new_err(format!(
                "a game adds to a game, not {}",
                other.get_type().name().map_or_else(|_| "?".to_owned(), |name| name.to_string())
            ))
        })?;
        Ok(Game::added(self, other.get()))
    }

    /// The Grundy value of `position`: an int of any size (for a loopy game, possibly an
    /// `Infinite`).
    ///
    /// >>> import grundy
    /// >>> grundy.Game("nim").value([3, 4, 5])
    /// 2
    /// >>> grundy.Game("nim").value([10**40, 3]) == 10**40 ^ 3
    /// True
    /// >>> grundy.Game("wythoff").value([(4, 7)])
    /// 0
    #[pyo3(signature = (position, *more))]
    fn value<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        more: &Bound<'py, PyTuple>,
    ) -> PyResult<Bound<'py, PyAny>> {
        one_position("value", position, more)?;
        let value = self.on_position(py, position, Position::value)?;
        value_to_python(py, &value)
    }

    /// Who wins `position`: "N" (the player to move), "P" (the other player) or "D" (a draw).
    /// `compound="every"` (Every-SG: each turn a move in every component that can move),
    /// `"conjunctive"` or `"selective"` plays the components in that compound instead of the
    /// sum (the CLI's `--compound`; *Winning Ways* ch. 9).
    ///
    /// >>> import grundy
    /// >>> grundy.Game("octal:0.77").outcome([3, 4])
    /// 'N'
    /// >>> grundy.Game("wythoff").outcome("4,7")
    /// 'P'
    /// >>> grundy.Game("euclid").outcome(["3,2", "1,1"], compound="every")
    /// 'P'
    #[pyo3(signature = (position, *more, compound = None))]
    fn outcome(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        more: &Bound<'_, PyTuple>,
        compound: Option<&str>,
    ) -> PyResult<String> {
        one_position("outcome", position, more)?;
        let outcome = match parse_compound(compound)? {
            None => self.on_position(py, position, Position::outcome)?,
            Some(compound) => self.on_position(py, position, |position| {
                let control = grundy::control::Control::default();
                Ok(grundy::compound::CompoundSolver::new(compound, &control).evaluate(position)?.outcome)
            })?,
        };
        Ok(outcome.to_string())
    }

    /// Every winning move of `position` (to a P-position), each a `Move` with `.to` (the
    /// position it leads to, in the shape given) and `.explain` (why it wins).
    ///
    /// >>> import grundy
    /// >>> moves = grundy.Game("nim").winning_moves([3, 4, 5])
    /// >>> [m.to for m in moves]
    /// [[1, 4, 5]]
    /// >>> moves[0].explain
    /// 'heap 1: 3 -> 1; its value 3 -> 1 makes the nim-sum 2 -> 0, a P-position'
    ///
    /// With `compound` (as in `outcome`), the winning moves of that compound (the first 1000),
    /// each a move in every component moved:
    ///
    /// >>> [m.to for m in grundy.Game("nim").winning_moves([1, 2], compound="every")]
    /// [[0, 0]]
    #[pyo3(signature = (position, *more, compound = None))]
    fn winning_moves(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        more: &Bound<'_, PyTuple>,
        compound: Option<&str>,
    ) -> PyResult<MoveList> {
        one_position("winning_moves", position, more)?;
        let compound = parse_compound(compound)?;
        let mut found = Vec::new();
        // One position of a game from `moves`, given alone: each move leads to the position
        // `moves` returned (a `Sum` when it splits), not to a list.
        let alone = self.python_only() && position.cast::<PyList>().is_err() && position.cast::<Sum>().is_err();
        // The moves and the positions they lead to, made by the library without the GIL.
        let moves = self.on_position(py, position, |position| {
            if let Some(compound) = compound {
                let control = grundy::control::Control::default();
                let mut solver = grundy::compound::CompoundSolver::new(compound, &control);
                let moves = solver.winning_moves(position, COMPOUND_MOVES)?.moves;
                return Ok(moves
                    .into_iter()
                    .map(|one| {
                        let after = self.show_position(&grundy::compound::after(position, &one));
                        (after, one.notation, one.explain)
                    })
                    .collect::<Vec<_>>());
            }
            let moves = position.winning_moves()?;
            Ok(moves
                .into_iter()
                .map(|one| (self.show_position(&position.after(&one)), one.notation, one.explain))
                .collect::<Vec<_>>())
        })?;
        for (after, notation, explain) in moves {
            let to = match after.as_slice() {
                [part] if alone => {
                    let objects = part
                        .iter()
                        .map(|component| component_to_python(py, component))
                        .collect::<PyResult<Vec<_>>>()?;
                    match <[_; 1]>::try_from(objects) {
                        Ok([object]) => object.unbind(),
                        Err(objects) => {
                            let parts = PyTuple::new(py, objects)?.unbind();
                            Bound::new(py, Sum { parts })?.into_any().unbind()
                        }
                    }
                }
                _ => Game::position_to_python(py, &after)?.unbind(),
            };
            found.push(Move { to, notation, explain });
        }
        Ok(MoveList { moves: found.into_iter().map(|one| Py::new(py, one)).collect::<PyResult<_>>()? })
    }

    /// The nim-sequence `G(0), G(1), …, G(n)` of a heap game as a numpy array of unsigned ints
    /// (the CLI's `grundy sequence GAME --to n`). Long runs release the GIL (a game from
    /// `moves` takes it back for each call of `moves`), stop on Ctrl-C (KeyboardInterrupt) and
    /// show a tqdm bar with `progress=True` when tqdm is installed. A value past 2^32 − 1
    /// raises `ValueError`.
    ///
    /// >>> import grundy
    /// >>> grundy.Game("sub:2,5").sequence(13)
    /// array([0, 0, 1, 1, 0, 2, 1, 0, 0, 1, 1, 0, 2, 1], dtype=uint32)
    #[pyo3(signature = (n, progress = false))]
    fn sequence<'py>(&self, py: Python<'py>, n: u64, progress: bool) -> PyResult<Bound<'py, PyAny>> {
        let len = usize::try_from(n)
            .ok()
            .and_then(|n| n.checked_add(1))
            .ok_or_else(|| PyValueError::new_err(format!("sequence({n}) is beyond any table on this machine")))?;
        let game = self.heap_game(py)?;
        let mut values =
            sequence_to(py, &*game, len, progress).map_err(|error| self.heap_error(py, "sequence", error))?;
        values.truncate(len);
        // Widened to four bytes once, for numpy.
        Ok(PyArray1::from_vec(py, values.into_vec()).into_any())
    }

    /// The period of a heap game's nim-sequence, as `grundy period` reports it:
    /// `Period(preperiod, period, saltus, proved, checked_to, explanation)` with
    /// `G(n + period) = G(n) + saltus` from `preperiod` on. Proved by the periodicity theorem
    /// where one applies (subtraction and octal games); otherwise observed over the values up
    /// to `max` (by default the CLI's bound for the game: 4095 for a game from `moves`), and
    /// `proved` is False (always so for a game from `moves`: no theorem covers a function,
    /// whatever its name). When no pattern
    /// shows, `preperiod`, `period` and `saltus` are None, and `checked_to` and the explanation
    /// say how far the search went (never a bare None).
    ///
    /// >>> import grundy
    /// >>> grundy.Game("sub:2,5").period()
    /// Period(preperiod=0, period=7, saltus=0, proved=True, checked_to=11)
    /// >>> grundy.Game("kayles").period().period
    /// 12
    /// >>> grundy.Game("octal:0.6").period(max=2000)
    /// Period(preperiod=None, period=None, saltus=None, proved=False, checked_to=2000)
    #[pyo3(signature = (max = None, progress = false))]
    fn period(&self, py: Python<'_>, max: Option<u64>, progress: bool) -> PyResult<Period> {
        let game = self.heap_game(py)?;
        let report = period_report(py, &*game, max, progress).map_err(|error| self.heap_error(py, "period", error))?;
        let explanation = report.explain(&game.spec(), &game.method());
        let found = match (&report.proved, &report.observed) {
            (Some((period, _)), _) => Some(*period),
            (None, observed) => *observed,
        };
        Ok(Period::from_found(found, report.proved.is_some(), report.examined.saturating_sub(1), explanation))
    }

    /// The pattern of the game's values, as `grundy guess GAME --json` reports it: a dict
    /// `{"game", "pattern": {"kind", "formula", "status", "fitted_to", "checked_to", …}}`.
    /// Heap games, two-heap games and coin rows; `to` is N, the last position fitted (the
    /// check runs further). `status` is "proved" only where a theorem proves the pattern; a game
    /// from `moves` (a heap game, as the library's adapter has it) is only ever "checked".
    /// `kind` is "none" when nothing fits.
    ///
    /// >>> import grundy
    /// >>> grundy.Game("bash:3").guess()["pattern"]["formula"]
    /// 'G(n) = n mod 4'
    /// >>> grundy.Game("wythoff").guess(to=40)["pattern"]["kind"]
    /// 'beatty'
    #[pyo3(signature = (to = None))]
    fn guess<'py>(&self, py: Python<'py>, to: Option<u64>) -> PyResult<Bound<'py, PyAny>> {
        let [game] = self.parts.as_slice() else {
            return Err(PyValueError::new_err(format!(
                "`{}` is a sum of games: guess looks at one game (a sum's value is the xor of its parts')",
                self.spec
            )));
        };
        self.begin()?;
        let bar = crate::long::Progress::new(py, false, 0, &self.spec)?;
        let mut guess = crate::long::without_gil(py, &bar, |control| grundy::guess::guess_game(&**game, to, control))
            .and_then(|guess| guess.map_err(value_error))
            .map_err(|error| self.heap_error(py, "guess", error))?;
        // The library's theorems are named by the game words they cover; a game from `moves`
        // is named by its user (`name="wythoff"`), and no theorem proves anything of a function.
        if self.python_only()
            && let Some(found) = guess.pattern.as_mut()
        {
            found.proof = None;
        }
        let text = serde_json::to_string(&grundy::guess::GuessAnswer::of(&guess))
            .map_err(|error| PyValueError::new_err(error.to_string()))?;
        py.import("json")?.call_method1("loads", (text,))
    }

    /// The misère quotient (Plambeck–Siegel) of all sums of heaps `0..to` of a heap game, as
    /// a dict with the keys of `grundy quotient --json` (a game from `moves` on ints too,
    /// each heap's options read once): `order`, `product`, `identity`,
    /// `p_portion`, `p_portion_words`, `heaps`, `pretending_function`, `generators` (name and
    /// heap), `relations`, `words`, `to`. Every quotient returned is proved. `ValueError` past
    /// `max_order` elements (by default the largest order whose table fits in memory); Ctrl-C
    /// raises KeyboardInterrupt. Either exception keeps the proved quotient of the heaps done
    /// (`to` smaller than asked) in its attribute `quotient`, as the CLI prints it.
    ///
    /// >>> import grundy
    /// >>> q = grundy.Game("octal:0.75").quotient(to=8)
    /// >>> q["order"], q["relations"], q["p_portion_words"]
    /// (8, ['a^2 = 1', 'bc = ab', 'c^2 = b^2', 'b^3 = b'], ['a', 'b^2'])
    #[pyo3(signature = (to, max_order = None))]
    fn quotient<'py>(&self, py: Python<'py>, to: u64, max_order: Option<usize>) -> PyResult<Bound<'py, PyDict>> {
        use grundy::misere::quotient::{QuotientStop, max_order_for_memory, misere_quotient_run};
        let game = self.heap_game(py)?;
        // The quotient reports progress to its control's sink, not to a Python callback:
        // another thread runs it while this one looks at Ctrl-C.
        let control = grundy_cli::measured_control();
        let max_order = max_order.unwrap_or_else(|| max_order_for_memory(control.memory_limit()));
        let (run, interrupt) = crate::long::watched(py, &control, || {
            // A game whose rules can fail (`moves` raising) stops at its first failure, which
            // replaces whatever the quotient made of the empty list given after it. Its
            // exception was kept for the thread that called `moves`: this one, taken here.
            let failure = std::cell::RefCell::new(None);
            let options = |heap: u64| {
                game.heap_options_checked(heap).unwrap_or_else(|error| {
                    failure.borrow_mut().get_or_insert_with(|| (error, self.take_raised()));
                    control.cancel();
                    Vec::new()
                })
            };
            let run = misere_quotient_run(&options, to, max_order, &control);
            match failure.into_inner() {
                Some(failure) => Err(Box::new(failure)),
                None => run.map_err(|error| Box::new((error, None))),
            }
        });
        let run = run.map_err(|failure| {
            let (error, raised) = *failure;
            heap_error_of(py, "quotient", raised, value_error(error))
        })?;
        let dict = quotient_dict(py, &run.quotient)?;
        let stopped = match (interrupt, run.stopped) {
            (None, None) => return Ok(dict),
            (Some(interrupt), _) => interrupt,
            (None, Some(QuotientStop::Limit(error))) => value_error(error),
            (None, Some(QuotientStop::Cancelled)) => {
                pyo3::exceptions::PyKeyboardInterrupt::new_err("the misère quotient computation was interrupted")
            }
        };
        stopped.value(py).setattr("quotient", dict)?;
        Err(stopped)
    }

    /// A picture of the game, shown as SVG in Jupyter: the nim-sequence of a heap game (heaps
    /// 0 to `to`, default 500; a game from `moves` is drawn so), the table of a two-heap game
    /// (`size` by `size`, default 64), or a graph game's graph with each vertex's outcome: the
    /// SVG `grundy plot` writes.
    ///
    /// >>> import grundy
    /// >>> picture = grundy.Game("kayles").plot(to=100)
    /// >>> "<svg" in picture.svg
    /// True
    #[pyo3(signature = (to = None, size = None))]
    fn plot(&self, py: Python<'_>, to: Option<u64>, size: Option<u64>) -> PyResult<crate::plot::Plot> {
        let [game] = self.parts.as_slice() else {
            return Err(PyValueError::new_err(format!("`{}` is a sum of games: plot takes one game", self.spec)));
        };
        self.begin()?;
        crate::plot::plot(py, &**game, to, size).map_err(|error| self.heap_error(py, "plot", error))
    }
}

/// One winning move: `.to` the position it leads to, `.notation` the move as the CLI writes
/// it, `.explain` why it wins.
///
/// >>> import grundy
/// >>> m = grundy.Game("wythoff").winning_moves([(4, 8)])[0]
/// >>> m.to, m.notation
/// ([(4, 7)], '4,8 -> 4,7')
#[pyclass(module = "grundy", frozen)]
pub struct Move {
    /// The position after the move.
    #[pyo3(get)]
    to: Py<PyAny>,
    /// The move in the CLI's notation.
    #[pyo3(get)]
    notation: String,
    /// Why it wins.
    #[pyo3(get)]
    explain: String,
}

#[pymethods]
impl Move {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!("Move(to={}, explain={:?})", short_repr(self.to.bind(py)), self.explain)
    }

    fn _repr_html_(&self, py: Python<'_>) -> String {
        MoveList::html(py, std::slice::from_ref(self))
    }
}

/// The winning moves of a position: a list of `Move` that Jupyter shows as a table.
///
/// >>> import grundy
/// >>> moves = grundy.Game("nim").winning_moves([1, 2])
/// >>> len(moves), moves[0].to
/// (1, [1, 1])
/// >>> "<table" in moves._repr_html_()
/// True
#[pyclass(module = "grundy", frozen, sequence)]
pub struct MoveList {
    moves: Vec<Py<Move>>,
}

impl MoveList {
    /// The moves as a Python list (what the list-like methods answer from).
    fn as_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.moves.iter().map(|one| one.clone_ref(py)))
    }

    fn html(py: Python<'_>, moves: &[Move]) -> String {
        let escape = |text: &str| text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
        let mut html = String::from("<table><thead><tr><th>move</th><th>to</th><th>why</th></tr></thead><tbody>");
        for one in moves {
            html.push_str(&format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&one.notation),
                escape(&short_repr(one.to.bind(py))),
                escape(&one.explain)
            ));
        }
        html.push_str("</tbody></table>");
        html
    }
}

#[pymethods]
impl MoveList {
    fn __len__(&self) -> usize {
        self.moves.len()
    }

    /// A move (`moves[0]`, `moves[-1]`), or a `MoveList` of a slice (`moves[:2]`, `moves[::-1]`).
    fn __getitem__<'py>(&self, py: Python<'py>, index: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        if let Ok(slice) = index.cast::<pyo3::types::PySlice>() {
            let indices = slice.indices(self.moves.len() as isize)?;
            let picked = (0..indices.slicelength)
                .map(|k| self.moves[(indices.start + k as isize * indices.step) as usize].clone_ref(py))
                .collect();
            return Ok(Bound::new(py, MoveList { moves: picked })?.into_any());
        }
        let index: isize = index.extract().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "MoveList indices must be integers or slices, not {}",
                index.get_type().name().map_or_else(|_| "?".to_owned(), |name| name.to_string())
            ))
        })?;
        let len = self.moves.len() as isize;
        let at = if index < 0 { index + len } else { index };
        if at < 0 || at >= len {
            return Err(pyo3::exceptions::PyIndexError::new_err("move index out of range"));
        }
        Ok(self.moves[at as usize].clone_ref(py).into_bound(py).into_any())
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.as_list(py)?.into_any().try_iter()?.into_any())
    }

    fn __contains__(&self, py: Python<'_>, item: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.as_list(py)?.contains(item)
    }

    /// The place of the first move equal to `item` (`ValueError` when none is), as `list.index`.
    fn index(&self, py: Python<'_>, item: &Bound<'_, PyAny>) -> PyResult<usize> {
        self.as_list(py)?.index(item)
    }

    /// How many moves equal `item`, as `list.count`.
    fn count(&self, py: Python<'_>, item: &Bound<'_, PyAny>) -> PyResult<usize> {
        let mut count = 0;
        for one in self.as_list(py)?.iter() {
            if one.eq(item)? {
                count += 1;
            }
        }
        Ok(count)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let items =
            self.moves.iter().map(|one| one.bind(py).repr().map(|r| r.to_string())).collect::<PyResult<Vec<_>>>()?;
        Ok(format!("[{}]", items.join(", ")))
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        match other.cast::<MoveList>() {
            Ok(other) => self.as_list(py)?.eq(other.get().as_list(py)?),
            Err(_) => self.as_list(py)?.eq(other),
        }
    }

    fn _repr_html_(&self, py: Python<'_>) -> String {
        let moves: Vec<Move> = self
            .moves
            .iter()
            .map(|one| {
                let one = one.get();
                Move { to: one.to.clone_ref(py), notation: one.notation.clone(), explain: one.explain.clone() }
            })
            .collect();
        MoveList::html(py, &moves)
    }
}

/// A pattern `G(n + period) = G(n) + saltus` for every `n >= preperiod`; `proved` when a
/// theorem proves it for every heap (else it was observed on the values computed);
/// `checked_to` the last heap compared; `explanation` the CLI's `grundy period` text.
///
/// >>> import grundy
/// >>> p = grundy.Game("nim").period()
/// >>> (p.preperiod, p.period, p.saltus, p.proved)
/// (0, 1, 1, True)
#[pyclass(module = "grundy", frozen, eq, get_all)]
#[derive(Clone, PartialEq, Eq)]
pub struct Period {
    /// `e` (None when no pattern was found).
    preperiod: Option<u64>,
    /// `p` (None when no pattern was found).
    period: Option<u64>,
    /// `s` (None when no pattern was found).
    saltus: Option<u64>,
    /// Whether a theorem proves it.
    proved: bool,
    /// The last heap compared.
    checked_to: u64,
    /// The proof or observation, in words.
    explanation: String,
}

impl Period {
    /// The pattern `found` (proved or observed), or none found when the search reached
    /// `searched_to`.
    fn from_found(
        found: Option<grundy::heap::period::Period>,
        proved: bool,
        searched_to: u64,
        explanation: String,
    ) -> Period {
        Period {
            preperiod: found.map(|found| found.preperiod),
            period: found.map(|found| found.period),
            saltus: found.map(|found| found.saltus),
            proved,
            checked_to: found.map_or(searched_to, |found| found.checked_to),
            explanation,
        }
    }
}

#[pymethods]
impl Period {
    fn __repr__(&self) -> String {
        let shown = |value: Option<u64>| value.map_or_else(|| "None".to_owned(), |value| value.to_string());
        format!(
            "Period(preperiod={}, period={}, saltus={}, proved={}, checked_to={})",
            shown(self.preperiod),
            shown(self.period),
            shown(self.saltus),
            if self.proved { "True" } else { "False" },
            self.checked_to
        )
    }

    fn __str__(&self) -> String {
        self.explanation.clone()
    }
}

/// The table of a game: `G(x, y)` for `x, y < size` of a two-heap game (wythoff, corners,
/// product:A:B) as a 2-D numpy array of uint64, or the vertices of a graph game (dag:FILE,
/// geography:FILE) as a list of `(name, value, outcome)` (value `None` where only the outcome
/// is defined).
///
/// >>> import grundy
/// >>> grundy.table("wythoff", 4)
/// array([[0, 1, 2, 3],
///        [1, 2, 0, 4],
///        [2, 0, 1, 5],
///        [3, 4, 5, 6]], dtype=uint64)
#[pyfunction]
#[pyo3(signature = (game, size = None))]
pub fn table<'py>(py: Python<'py>, game: &str, size: Option<u64>) -> PyResult<Bound<'py, PyAny>> {
    if size == Some(0) {
        return Err(PyValueError::new_err("size 0 asks for an empty table: give a size of at least 1"));
    }
    let (ruleset, control) = parse_game_controlled(game)?;
    // Stopped by Ctrl-C (KeyboardInterrupt) through the game's control.
    let Some(table) = crate::long::interruptible(py, std::slice::from_ref(&control), || ruleset.table(size))? else {
        return Err(PyValueError::new_err(format!(
            "`{game}` has no table; tables exist for wythoff, corners, product:A:B and scripts on pairs (G(x, y)), and dag:FILE, geography:FILE (every vertex)"
        )));
    };
    match table.map_err(value_error)? {
        grundy::view::Table::Grid { values } => {
            let rows = values.len();
            let columns = values.first().map_or(0, Vec::len);
            let flat: Vec<u64> = values.into_iter().flatten().collect();
            Ok(PyArray1::from_vec(py, flat).reshape([rows, columns])?.into_any())
        }
        grundy::view::Table::Vertices(vertices) => {
            let rows = vertices
                .iter()
                .map(|vertex| {
                    let value = match &vertex.value {
                        Some(value) => value_to_python(py, value)?,
                        None => py.None().into_bound(py),
                    };
                    PyTuple::new(
                        py,
                        [
                            PyString::new(py, &vertex.name).into_any(),
                            value,
                            PyString::new(py, &vertex.outcome.to_string()).into_any(),
                        ],
                    )
                })
                .collect::<PyResult<Vec<_>>>()?;
            Ok(PyList::new(py, rows)?.into_any())
        }
    }
}

/// A proved misère quotient as the dict `Game.quotient` returns.
fn quotient_dict<'py>(
    py: Python<'py>,
    quotient: &grundy::misere::quotient::MisereQuotient,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("to", quotient.to)?;
    dict.set_item("order", quotient.order)?;
    dict.set_item("product", &quotient.product)?;
    dict.set_item("identity", quotient.identity)?;
    dict.set_item("p_portion", &quotient.p_portion)?;
    let p_words: Vec<&str> = quotient.p_portion.iter().map(|&x| quotient.words[x as usize].as_str()).collect();
    dict.set_item("p_portion_words", p_words)?;
    dict.set_item("heaps", &quotient.heaps)?;
    dict.set_item("pretending_function", quotient.pretending_function())?;
    let generators: Vec<(&str, u64)> =
        quotient.generators.iter().map(|generator| (generator.name.as_str(), generator.heap)).collect();
    dict.set_item("generators", generators)?;
    dict.set_item("relations", &quotient.relations)?;
    dict.set_item("words", &quotient.words)?;
    Ok(dict)
}

/// Refuses a position given as several arguments (`value(3, 4, 5)`) with the call that works:
/// a position is one argument, its components a list.
fn one_position(method: &str, position: &Bound<'_, PyAny>, more: &Bound<'_, PyTuple>) -> PyResult<()> {
    if more.is_empty() {
        return Ok(());
    }
    let given: Vec<String> = std::iter::once(position.clone())
        .chain(more.iter())
        .map(|argument| argument.repr().map_or_else(|_| "?".to_owned(), |text| text.to_string()))
        .collect();
    Err(PyTypeError::new_err(format!(
        "{method}() takes one position, not {} arguments: pass the components as one list, {method}([{}])",
        given.len(),
        given.join(", ")
    )))
}

/// The most winning moves of a compound `winning_moves` lists (there can be a product of many).
const COMPOUND_MOVES: usize = 1000;

/// `compound=` of `outcome` and `winning_moves`: `None` for the sum.
fn parse_compound(text: Option<&str>) -> PyResult<Option<grundy::compound::Compound>> {
    text.map(|text| grundy::compound::Compound::parse(text).map_err(|error| PyValueError::new_err(error.to_string())))
        .transpose()
}
