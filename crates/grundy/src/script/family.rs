//! Script games as a family of the game model: [`ScriptFamily`] is the `ComponentGame` of a
//! `script:PATH` game, answered by a [`ScriptBackend`], wherever that runs the script: in this
//! process (`LocalScript`, feature `script`) or in a worker process a front end watches (the
//! CLI's).

use crate::error::GameError;
use crate::heap::{CompactSequence, Extended, HeapGame, NimSequence, Periodicity, SequenceControl};
use crate::position::Component;
use crate::ruleset::{About, ComponentGame, ComponentMove, MOVE_LIMIT, Request, Ruleset, Start, erase};
use crate::script::ScriptPosition;
use crate::value::Value;
use crate::view::{Chart, Pictured, Table, Tabulate, Tabulation};
use num_bigint::BigUint;
use std::sync::{Arc, Mutex, OnceLock};

/// What a script's positions look like (probed on small positions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Heaps: the game has a nim-sequence.
    Heap,
    /// Pairs of integers: the game has a table.
    Pair,
    /// Anything else.
    Other,
    /// Not known: the probe failed (then a heap or pair command runs the script and shows
    /// why).
    Unknown,
}

/// One option of a position, as a backend reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptOption {
    /// The independent parts (one for a plain move).
    pub parts: Vec<ScriptPosition>,
    /// Each part as text (the script's `show`).
    pub texts: Vec<String>,
    /// The option's value: the nim-sum of the parts' values.
    pub value: Value,
}

/// Where a script game runs: everything [`ScriptFamily`] asks of its script, in batches (a
/// backend in another process answers each call with one message). An error is one line
/// that names what failed.
pub trait ScriptBackend: Send {
    /// The script's `NAME`.
    fn name(&self) -> &str;

    /// The script's `DESCRIPTION`.
    fn description(&self) -> &str;

    /// The script's `start()` position as components, if it has one.
    fn start(&self) -> Option<&[ScriptPosition]>;

    /// What the script's positions look like, probed on small positions.
    ///
    /// # Errors
    /// The probe could not run at all.
    fn shape(&mut self) -> Result<Shape, String>;

    /// Reads component texts (the script's `parse`, or integers).
    ///
    /// # Errors
    /// A text the script does not read.
    fn parse(&mut self, texts: &[String]) -> Result<Vec<ScriptPosition>, String>;

    /// Positions as text (the script's `show`).
    ///
    /// # Errors
    /// The script's `show` failed.
    fn format(&mut self, positions: &[ScriptPosition]) -> Result<Vec<String>, String>;

    /// The value of each position.
    ///
    /// # Errors
    /// The script failed or a limit was reached.
    fn values(&mut self, positions: &[ScriptPosition]) -> Result<Vec<Value>, String>;

    /// Every option of `position` with its value; `None` when it has more than `limit`, found
    /// before any is formatted or valued (millions of options would take gigabytes as text
    /// and values, only to be refused).
    ///
    /// # Errors
    /// The script failed or a limit was reached.
    fn options_with_values(
        &mut self,
        position: &ScriptPosition,
        limit: usize,
    ) -> Result<Option<Vec<ScriptOption>>, String>;

    /// `G(from) … G(to)` of an integer-position game.
    ///
    /// # Errors
    /// The script failed, a limit was reached, or a heap has an infinite value.
    fn sequence(&mut self, from: u64, to: u64) -> Result<Vec<u64>, String>;
}

/// A script game, every question sent to its backend.
pub struct ScriptFamily {
    spec: String,
    /// Probed when a command first needs it (`value` never does).
    shape: OnceLock<Shape>,
    about: String,
    start: Option<Vec<ScriptPosition>>,
    backend: Mutex<Box<dyn ScriptBackend>>,
}

/// Heaps of a nim-sequence asked of the backend at a time: small enough to stop soon after
/// Ctrl-C and to show progress, large enough that the requests cost nothing.
const SEQUENCE_CHUNK: u64 = 1 << 14;
/// The first requests' size (they grow with the heap, up to [`SEQUENCE_CHUNK`]).
const SMALLEST_CHUNK: u64 = 64;

/// The last heap `grundy period` computes for a script by default.
const SCRIPT_MAX_HEAP: u64 = (1 << 12) - 1;

/// The default side of `grundy table` for a script game on pairs.
const DEFAULT_TABLE_SIDE: u64 = 10;

/// The largest side `grundy table` computes for a script game (its values come one request).
const MAX_TABLE_SIDE: u64 = 1 << 12;

impl ScriptFamily {
    /// The game `spec` (the `script:PATH` word) answered by `backend`, type-erased for the
    /// registry.
    pub fn erased(spec: &str, backend: Box<dyn ScriptBackend>) -> Arc<dyn Ruleset> {
        let about = match (backend.name(), backend.description()) {
            (name, "") => name.to_owned(),
            (name, description) => format!("{name}: {description}"),
        };
        let start = backend.start().map(<[ScriptPosition]>::to_vec);
        erase(ScriptFamily {
            spec: spec.to_owned(),
            shape: OnceLock::new(),
            about,
            start,
            backend: Mutex::new(backend),
        })
    }

    fn shape(&self) -> Shape {
        *self.shape.get_or_init(|| self.ask(|backend| backend.shape()).unwrap_or(Shape::Unknown))
    }

    /// Runs `ask` on the backend; its failure becomes one line naming the game.
    fn ask<T>(&self, ask: impl FnOnce(&mut dyn ScriptBackend) -> Result<T, String>) -> Result<T, GameError> {
        // A panic while the lock was held left the backend usable (the CLI's restarts a dead
        // worker).
        let mut backend = self.backend.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        ask(backend.as_mut()).map_err(GameError::OutOfReach)
    }

    /// The backend's options of `position`, at most `limit` of them.
    fn listed_options(&self, position: &ScriptPosition, limit: usize) -> Result<Vec<ScriptOption>, GameError> {
        self.ask(|backend| backend.options_with_values(position, limit))?.ok_or_else(|| GameError::TooManyMoves {
            component: position.to_string(),
            game: self.spec.clone(),
            limit,
        })
    }

    fn options_with_values(
        &self,
        position: &ScriptPosition,
        limit: usize,
    ) -> Result<Vec<(ComponentMove<ScriptPosition>, Value)>, GameError> {
        let options = self.listed_options(position, limit)?;
        let from = self.format_component(position);
        Ok(options
            .into_iter()
            .map(|option| {
                let to = if option.texts.is_empty() { "0".to_owned() } else { option.texts.join(" + ") };
                (ComponentMove::new(option.parts, format!("{from} -> {to}")), option.value)
            })
            .collect())
    }
}

impl ComponentGame for ScriptFamily {
    type Component = ScriptPosition;

    fn provide(self: Arc<Self>, request: &mut Request) {
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

    fn parse_component(&self, text: &str) -> Result<ScriptPosition, GameError> {
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

    fn format_component(&self, position: &ScriptPosition) -> String {
        // The script's `show`; when it fails, the default form, which `parse` reads back.
        self.ask(|backend| backend.format(std::slice::from_ref(position)))
            .ok()
            .and_then(|texts| texts.into_iter().next())
            .unwrap_or_else(|| position.to_string())
    }

    fn options(
        &self,
        position: &ScriptPosition,
        limit: usize,
    ) -> Result<Vec<ComponentMove<ScriptPosition>>, GameError> {
        Ok(self.options_with_values(position, limit)?.into_iter().map(|(option, _)| option).collect())
    }

    fn value(&self, position: &ScriptPosition) -> Result<Value, GameError> {
        let values = self.ask(|backend| backend.values(std::slice::from_ref(position)))?;
        values.into_iter().next().ok_or_else(|| GameError::OutOfReach("the script's backend gave no value".to_owned()))
    }

    // The backend reports each option's value with it: one request instead of one per option.
    fn moves_to_value(
        &self,
        position: &ScriptPosition,
        target: &BigUint,
    ) -> Result<Vec<ComponentMove<ScriptPosition>>, GameError> {
        Ok(self
            .options_with_values(position, MOVE_LIMIT)?
            .into_iter()
            .filter(|(_, value)| matches!(value, Value::Finite(value) if value == target))
            .map(|(option, _)| option)
            .collect())
    }
}

impl Tabulate for ScriptFamily {
    fn table(&self, size: Option<u64>) -> Result<Table, GameError> {
        let side = size.unwrap_or(DEFAULT_TABLE_SIDE);
        if side > MAX_TABLE_SIDE {
            return Err(GameError::OutOfReach(format!(
                "a table of side {side} for {}: script games make tables up to side {MAX_TABLE_SIDE}",
                self.spec
            )));
        }
        let pairs: Vec<ScriptPosition> =
            (0..side as i64).flat_map(|x| (0..side as i64).map(move |y| ScriptPosition::Tuple(vec![x, y]))).collect();
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

impl HeapGame for ScriptFamily {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn extend_sequence(&self, values: &mut CompactSequence, len: usize, control: &SequenceControl) -> Extended {
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
            (control.progress)(values.len());
        }
        Ok(true)
    }

    /// A script's rules are arbitrary: no theorem bounds how long its sequence may wait
    /// before repeating, so a period is observed, never proved.
    fn periodicity(&self) -> Periodicity {
        Periodicity::Unproved
    }

    /// A script's values cost interpretation, and nothing proves its period: the default
    /// search stays at seconds (a script that splits a heap in two every way, O(n) moves a heap,
    /// takes about 3 s to heap 4095 on one core).
    fn default_max_heap(&self) -> u64 {
        SCRIPT_MAX_HEAP
    }

    fn heap_options(&self, heap: u64) -> Vec<Vec<u64>> {
        self.heap_options_checked(heap).unwrap_or_default()
    }

    fn heap_options_checked(&self, heap: u64) -> Result<Vec<Vec<u64>>, GameError> {
        self.listed_options(&ScriptPosition::Int(heap), MOVE_LIMIT)?
            .into_iter()
            .map(|option| {
                option
                    .parts
                    .iter()
                    .filter(|part| **part != ScriptPosition::Int(0))
                    .map(|part| match part {
                        ScriptPosition::Int(size) => Ok(*size),
                        other => Err(GameError::Unsupported(format!(
                            "{}: heap {heap} has the option `{other}`, which is not a heap",
                            self.spec
                        ))),
                    })
                    .collect()
            })
            .collect()
    }

    fn method(&self) -> String {
        "memoized search over the script's moves".to_owned()
    }
}
