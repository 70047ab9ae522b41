//! Games given by their moves, as a family of the game model: [`MovesFamily`] is the
//! `ComponentGame` of a game whose rules are a function from a position to its options,
//! answered by a [`MovesBackend`] wherever that function runs. One adapter serves every such
//! game, so each is a ruleset like a built-in one (summed with any game, reaching every
//! command): Starlark scripts (`script:PATH`, positions [`crate::script::ScriptPosition`]) in
//! this process (`LocalScript`, feature `script`) or in a worker process a front end watches
//! (the CLI's), and the Python binding's `Game.from_moves` (its positions are Python objects).
//!
//! The backend memoizes values and reports each option with its value, so a question costs
//! one request (a backend in another process answers each with one message).

use crate::control::Control;
use crate::error::GameError;
use crate::heap::{CompactSequence, Extended, HeapGame, NimSequence, Periodicity};
use crate::position::{Component, ComponentKind};
use crate::ruleset::{About, ComponentGame, ComponentMove, MOVE_LIMIT, Request, Ruleset, Start, erase};
use crate::value::Value;
use crate::view::{Chart, Pictured, Table, Tabulate, Tabulation};
use num_bigint::BigUint;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

/// Positions that may be heaps or pairs of integers: the nim-sequence asks for heap `n`, the
/// table for the pair `(x, y)`, in the backend's own position type.
pub trait MovesPosition: ComponentKind + fmt::Display {
    /// The heap `heap`.
    fn heap(heap: u64) -> Self;

    /// The size of a heap position that fits a `u64`, else `None`.
    fn as_small_heap(&self) -> Option<u64>;

    /// The pair `(x, y)`.
    fn pair(x: u64, y: u64) -> Self;
}

/// What the positions of a game given by its moves look like (probed on small positions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Heaps: the game has a nim-sequence.
    Heap,
    /// Pairs of integers: the game has a table.
    Pair,
    /// Anything else.
    Other,
    /// Not known: the probe failed or the backend does not probe (then a heap or pair command
    /// runs the moves and shows why).
    Unknown,
}

/// One option of a position, as a backend reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovesOption<P> {
    /// The independent parts (one for a plain move).
    pub parts: Vec<P>,
    /// Each part as text (a script's `show`).
    pub texts: Vec<String>,
    /// The option's value: the nim-sum of the parts' values.
    pub value: Value,
}

/// Where a game given by its moves runs: everything [`MovesFamily`] asks of its moves, in
/// batches (a backend in another process answers each call with one message). An error is one
/// line that names what failed.
pub trait MovesBackend<P>: Send {
    /// The script's `NAME`.
    fn name(&self) -> &str;

    /// The script's `DESCRIPTION`.
    fn description(&self) -> &str;

    /// The script's `start()` position as components, if it has one.
    fn start(&self) -> Option<&[P]>;

    /// What the script's positions look like, probed on small positions.
    ///
    /// # Errors
    /// The probe could not run at all.
    fn shape(&mut self) -> Result<Shape, String>;

    /// Reads component texts (the script's `parse`, or integers).
    ///
    /// # Errors
    /// A text the script does not read.
    fn parse(&mut self, texts: &[String]) -> Result<Vec<P>, String>;

    /// Positions as text (the script's `show`).
    ///
    /// # Errors
    /// The script's `show` failed.
    fn format(&mut self, positions: &[P]) -> Result<Vec<String>, String>;

    /// The value of each position.
    ///
    /// # Errors
    /// The script failed or a limit was reached.
    fn values(&mut self, positions: &[P]) -> Result<Vec<Value>, String>;

    /// Every option of `position` with its value; `None` when it has more than `limit`, found
    /// before any is formatted or valued (millions of options would take gigabytes as text
    /// and values, only to be refused).
    ///
    /// # Errors
    /// The script failed or a limit was reached.
    fn options_with_values(&mut self, position: &P, limit: usize) -> Result<Option<Vec<MovesOption<P>>>, String>;

    /// The options of `position` whose value is `target` (the moves to a value: a winning
    /// move's), `None` when it has more than `limit` options. By default the options with
    /// values, filtered; a backend in another process filters there, so that a heap of 5000
    /// options sends the few that matter.
    ///
    /// # Errors
    /// As [`MovesBackend::options_with_values`].
    fn options_to_value(
        &mut self,
        position: &P,
        target: &BigUint,
        limit: usize,
    ) -> Result<Option<Vec<MovesOption<P>>>, String> {
        Ok(self.options_with_values(position, limit)?.map(|options| {
            options
                .into_iter()
                .filter(|option| matches!(&option.value, Value::Finite(value) if value == target))
                .collect()
        }))
    }

    /// `G(from) … G(to)` of an integer-position game.
    ///
    /// # Errors
    /// The script failed, a limit was reached, or a heap has an infinite value.
    fn sequence(&mut self, from: u64, to: u64) -> Result<Vec<u64>, String>;

    /// How the values are found, for explanations (`grundy period`'s).
    fn method(&self) -> String {
        "memoized search over the game's moves".to_owned()
    }

    /// Offers capabilities of the backend's own beyond those [`MovesFamily`] gives. None by
    /// default. Asking for any capability locks the backend, so a front end whose backend
    /// waits for something while it holds the lock (the Python binding's takes the GIL) keeps
    /// what it needs itself rather than asking while it holds that.
    fn provide(&self, request: &mut Request) {
        let _ = request;
    }
}

/// A game given by its moves, every question sent to its backend.
pub struct MovesFamily<P: MovesPosition> {
    spec: String,
    /// Probed when a command first needs it (`value` never does).
    shape: OnceLock<Shape>,
    about: String,
    method: String,
    start: Option<Vec<P>>,
    backend: Mutex<Box<dyn MovesBackend<P>>>,
}

/// Heaps of a nim-sequence asked of the backend at a time: small enough to stop soon after
/// Ctrl-C and to show progress, large enough that the requests cost nothing.
const SEQUENCE_CHUNK: u64 = 1 << 14;
/// The first requests' size (they grow with the heap, up to [`SEQUENCE_CHUNK`]).
const SMALLEST_CHUNK: u64 = 64;

/// The last heap `grundy period` computes for a game given by its moves by default.
const SCRIPT_MAX_HEAP: u64 = (1 << 12) - 1;

/// The default side of `grundy table` for a game on pairs given by its moves.
const DEFAULT_TABLE_SIDE: u64 = 10;

/// The largest side `grundy table` computes for a game given by its moves (its values come in
/// one request).
const MAX_TABLE_SIDE: u64 = 1 << 12;

impl<P: MovesPosition> MovesFamily<P> {
    /// The game `spec` (the `script:PATH` word, a Python function's name) answered by
    /// `backend`, type-erased for the registry.
    pub fn erased(spec: &str, backend: Box<dyn MovesBackend<P>>) -> Arc<dyn Ruleset> {
        let about = match (backend.name(), backend.description()) {
            (name, "") => name.to_owned(),
            (name, description) => format!("{name}: {description}"),
        };
        let start = backend.start().map(<[P]>::to_vec);
        erase(MovesFamily {
            spec: spec.to_owned(),
            shape: OnceLock::new(),
            about,
            method: backend.method(),
            start,
            backend: Mutex::new(backend),
        })
    }

    fn shape(&self) -> Shape {
        *self.shape.get_or_init(|| self.ask(|backend| backend.shape()).unwrap_or(Shape::Unknown))
    }

    /// Runs `ask` on the backend; its failure becomes one line naming the game.
    fn ask<T>(&self, ask: impl FnOnce(&mut dyn MovesBackend<P>) -> Result<T, String>) -> Result<T, GameError> {
        // A panic while the lock was held left the backend usable (the CLI's restarts a dead
        // worker).
        let mut backend = self.backend.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        ask(backend.as_mut()).map_err(GameError::OutOfReach)
    }

    /// The backend's options of `position`, at most `limit` of them.
    fn listed_options(&self, position: &P, limit: usize) -> Result<Vec<MovesOption<P>>, GameError> {
        self.ask(|backend| backend.options_with_values(position, limit))?.ok_or_else(|| GameError::TooManyMoves {
            component: self.format_component(position),
            game: self.spec.clone(),
            limit,
        })
    }

    fn options_with_values(&self, position: &P, limit: usize) -> Result<Vec<(ComponentMove<P>, Value)>, GameError> {
        let options = self.listed_options(position, limit)?;
        Ok(self.as_moves(position, options))
    }

    /// The backend's options as moves with their values.
    fn as_moves(&self, position: &P, options: Vec<MovesOption<P>>) -> Vec<(ComponentMove<P>, Value)> {
        let from = self.format_component(position);
        options
            .into_iter()
            .map(|option| {
                let to = if option.texts.is_empty() { "0".to_owned() } else { option.texts.join(" + ") };
                (ComponentMove::new(option.parts, format!("{from} -> {to}")), option.value)
            })
            .collect()
    }
}

impl<P: MovesPosition> ComponentGame for MovesFamily<P> {
    type Component = P;

    fn provide(self: Arc<Self>, request: &mut Request) {
        self.backend.lock().unwrap_or_else(std::sync::PoisonError::into_inner).provide(request);
        request.give::<About>(|| self.about.clone());
        if let Some(start) = &self.start {
            request.give::<Start>(|| start.iter().cloned().map(Component::new).collect());
        }
        // The shape is probed only when a capability that depends on it is asked for.
        if request.wants::<NimSequence>() && matches!(self.shape(), Shape::Heap | Shape::Unknown) {
            request.give::<NimSequence>(|| Arc::clone(&self) as Arc<dyn HeapGame>);
        }
        if request.wants::<Tabulation>() && matches!(self.shape(), Shape::Pair | Shape::Unknown) {
            request.give::<Tabulation>(|| Arc::clone(&self) as Arc<dyn Tabulate>);
        }
        if request.wants::<Pictured>() {
            let chart = match self.shape() {
                Shape::Heap => Chart::Sequence,
                Shape::Pair => Chart::Grid,
                Shape::Other | Shape::Unknown => Chart::None,
            };
            request.give::<Pictured>(|| chart);
        }
    }

    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn component_noun(&self) -> &'static str {
        "position"
    }

    fn parse_component(&self, text: &str) -> Result<P, GameError> {
        let parsed = self.ask(|backend| backend.parse(&[text.to_owned()])).map_err(|error| {
            // The backend's message already says which position of which game: keep its reason.
            let message = match error {
                GameError::OutOfReach(message) => message,
                other => other.to_string(),
            };
            let reason =
                message.strip_prefix(&format!("bad position `{text}` for {}: ", self.spec)).unwrap_or(&message);
            let reason = reason.strip_prefix(&format!("{}: ", self.spec)).unwrap_or(reason);
            GameError::BadComponent { game: self.spec.clone(), text: text.to_owned(), reason: reason.to_owned() }
        })?;
        parsed.into_iter().next().ok_or_else(|| GameError::BadComponent {
            game: self.spec.clone(),
            text: text.to_owned(),
            reason: "the script's `parse` gave no position".to_owned(),
        })
    }

    fn format_component(&self, position: &P) -> String {
        // The script's `show`; when it fails, the default form, which `parse` reads back.
        self.ask(|backend| backend.format(std::slice::from_ref(position)))
            .ok()
            .and_then(|texts| texts.into_iter().next())
            .unwrap_or_else(|| position.to_string())
    }

    fn options(&self, position: &P, limit: usize) -> Result<Vec<ComponentMove<P>>, GameError> {
        Ok(self.options_with_values(position, limit)?.into_iter().map(|(option, _)| option).collect())
    }

    fn value(&self, position: &P) -> Result<Value, GameError> {
        let values = self.ask(|backend| backend.values(std::slice::from_ref(position)))?;
        values.into_iter().next().ok_or_else(|| GameError::OutOfReach("the script's backend gave no value".to_owned()))
    }

    // One request for them all. A text the backend does not read fails the whole request:
    // then each alone, so that each error names its own text.
    fn parse_components(&self, texts: &[&str]) -> Vec<Result<P, GameError>> {
        let owned: Vec<String> = texts.iter().map(|text| (*text).to_owned()).collect();
        match self.ask(|backend| backend.parse(&owned)) {
            Ok(parsed) if parsed.len() == texts.len() => parsed.into_iter().map(Ok).collect(),
            _ => texts.iter().map(|text| self.parse_component(text)).collect(),
        }
    }

    // One request for them all (a failure names the position it failed on).
    fn values(&self, positions: &[P]) -> Vec<Result<Value, GameError>> {
        match self.ask(|backend| backend.values(positions)) {
            Ok(values) if values.len() == positions.len() => values.into_iter().map(Ok).collect(),
            Ok(_) => {
                vec![Err(GameError::OutOfReach("the script's backend gave too few values".to_owned())); positions.len()]
            }
            Err(error) => vec![Err(error); positions.len()],
        }
    }

    // The backend finds the options of the target value itself: one request, and only those
    // options sent back.
    fn moves_to_value(&self, position: &P, target: &BigUint) -> Result<Vec<ComponentMove<P>>, GameError> {
        let options = self.ask(|backend| backend.options_to_value(position, target, MOVE_LIMIT))?.ok_or_else(|| {
            GameError::TooManyMoves {
                component: self.format_component(position),
                game: self.spec.clone(),
                limit: MOVE_LIMIT,
            }
        })?;
        Ok(self.as_moves(position, options).into_iter().map(|(option, _)| option).collect())
    }
}

impl<P: MovesPosition> Tabulate for MovesFamily<P> {
    fn table(&self, size: Option<u64>) -> Result<Table, GameError> {
        let side = size.unwrap_or(DEFAULT_TABLE_SIDE);
        if side > MAX_TABLE_SIDE {
            return Err(GameError::OutOfReach(format!(
                "a table of side {side} for {}: games given by their moves make tables up to side {MAX_TABLE_SIDE}",
                self.spec
            )));
        }
        let pairs: Vec<P> = (0..side).flat_map(|x| (0..side).map(move |y| P::pair(x, y))).collect();
        self.ask(|backend| backend.values(&pairs)).and_then(|values| {
            let finite: Result<Vec<u64>, GameError> = values
                .iter()
                .zip(&pairs)
                .map(|(value, pair)| match value {
                    Value::Finite(number) => u64::try_from(number)
                        .map_err(|_| GameError::OutOfReach(format!("the value of ({pair}) does not fit in 64 bits"))),
                    infinite => Err(GameError::Unsupported(format!(
                        "({pair}) has the value {infinite}: a table holds finite values (use `grundy value {} {pair}`)",
                        self.spec
                    ))),
                })
                .collect();
            Ok(Table::Grid { values: finite?.chunks(side as usize).map(<[u64]>::to_vec).collect() })
        })
    }
}

impl<P: MovesPosition> HeapGame for MovesFamily<P> {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn extend_sequence(&self, values: &mut CompactSequence, len: usize, control: &Control) -> Extended {
        control.check_memory(|| format!("the nim-sequence of {} up to heap {len}", self.spec), len as u128, 4)?;
        let task = control.task(crate::heap::SEQUENCE_TASK, len as u64);
        while values.len() < len {
            if control.cancelled() {
                return Ok(false);
            }
            let from = values.len() as u64;
            // Small requests first, so that progress moves even when each value costs much
            // (a script that splits heaps in every way costs O(n) per heap).
            let chunk = (from / 8).clamp(SMALLEST_CHUNK, SEQUENCE_CHUNK);
            let to = (from + chunk).min(len as u64) - 1;
            for (heap, value) in (from..).zip(self.ask(|backend| backend.sequence(from, to))?) {
                let value = u32::try_from(value).map_err(|_| {
                    GameError::OutOfReach(format!("G({heap}) = {value} of {} does not fit in 32 bits", self.spec))
                })?;
                values.push(value);
            }
            task.set(values.len() as u64);
        }
        Ok(true)
    }

    /// A game's moves given as a function are arbitrary: no theorem bounds how long its sequence may wait
    /// before repeating, so a period is observed, never proved.
    fn periodicity(&self) -> Periodicity {
        Periodicity::Unproved
    }

    /// A script's values cost interpretation (a Python function's too), and nothing proves
    /// its period: the default
    /// search stays at seconds (a script that splits a heap in two every way, O(n) moves a heap,
    /// takes about 3 s to heap 4095 on one core).
    fn default_max_heap(&self) -> u64 {
        SCRIPT_MAX_HEAP
    }

    fn heap_options(&self, heap: u64) -> Vec<Vec<u64>> {
        self.heap_options_checked(heap).unwrap_or_default()
    }

    fn heap_options_checked(&self, heap: u64) -> Result<Vec<Vec<u64>>, GameError> {
        self.listed_options(&P::heap(heap), MOVE_LIMIT)?
            .into_iter()
            .map(|option| {
                option
                    .parts
                    .iter()
                    .filter(|part| part.as_small_heap() != Some(0))
                    .map(|part| match part.as_small_heap() {
                        Some(size) => Ok(size),
                        None => Err(GameError::Unsupported(format!(
                            "{}: heap {heap} has the option `{part}`, which is not a heap",
                            self.spec
                        ))),
                    })
                    .collect()
            })
            .collect()
    }

    fn method(&self) -> String {
        self.method.clone()
    }
}

#[cfg(test)]
mod tests;
