//! Script games as a family of the game model: [`ScriptRules`] is the `ComponentGame` of a
//! `script:PATH` game, answered by its [`ScriptProxy`] (so no script runs in this process),
//! and [`WorkerHost`] is the registry's [`ScriptHost`] that builds it.

use super::{ScriptOption, ScriptProxy, Shape};
use grundy::error::GameError;
use grundy::heap::{HeapGame, Periodicity, SequenceControl};
use grundy::registry::ScriptHost;
use grundy::ruleset::{Chart, ComponentGame, ComponentMove, MOVE_LIMIT, Ruleset, Table, erase};
use grundy::script::ScriptPosition;
use grundy::value::Value;
use num_bigint::BigUint;
use std::sync::{Arc, Mutex, OnceLock};

/// Builds script games that run in worker processes, under the limits of the global flags.
pub struct WorkerHost;

impl ScriptHost for WorkerHost {
    /// The control goes unused: the worker process holds the script's memory and time limits
    /// (from the global flags), and the signal handler stops the workers themselves.
    fn build(&self, text: &str, path: &str, _: &grundy::control::Control) -> Result<Arc<dyn Ruleset>, GameError> {
        let proxy = ScriptProxy::spawn(path, super::options()).map_err(|error| {
            // The worker's load error already names the game: keep only its reason.
            let message = format!("{error:#}");
            let reason = message.strip_prefix(&format!("bad game `{text}`: ")).unwrap_or(&message).to_owned();
            GameError::BadGame { spec: text.to_owned(), reason }
        })?;
        let about = match (proxy.name(), proxy.description()) {
            (name, "") => name.to_owned(),
            (name, description) => format!("{name}: {description}"),
        };
        let start = proxy.start().map(<[ScriptPosition]>::to_vec);
        Ok(erase(ScriptRules { spec: text.to_owned(), shape: OnceLock::new(), about, start, proxy: Mutex::new(proxy) }))
    }
}

/// A script game, every question sent to its worker.
pub struct ScriptRules {
    spec: String,
    /// Probed when a command first needs it (`value` never does).
    shape: OnceLock<Shape>,
    about: String,
    start: Option<Vec<ScriptPosition>>,
    proxy: Mutex<ScriptProxy>,
}

/// Heaps of a nim-sequence asked of the worker at a time: small enough to stop soon after
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

impl ScriptRules {
    fn shape(&self) -> Shape {
        *self.shape.get_or_init(|| self.ask(ScriptProxy::shape).unwrap_or(Shape::Unknown))
    }

    /// Runs `ask` on the proxy; a worker's failure becomes one line naming the game.
    fn ask<T>(&self, ask: impl FnOnce(&mut ScriptProxy) -> anyhow::Result<T>) -> Result<T, GameError> {
        // A panic while the lock was held left the proxy usable (it restarts a dead worker).
        let mut proxy = self.proxy.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        ask(&mut proxy).map_err(|error| GameError::OutOfReach(format!("{error:#}")))
    }

    /// The worker's options of `position`, at most `limit` of them.
    fn listed_options(&self, position: &ScriptPosition, limit: usize) -> Result<Vec<ScriptOption>, GameError> {
        self.ask(|proxy| proxy.options_with_values(position, limit))?.ok_or_else(|| GameError::TooManyMoves {
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

impl ComponentGame for ScriptRules {
    type Component = ScriptPosition;

    fn about(&self) -> Option<String> {
        Some(self.about.clone())
    }

    fn start(&self) -> Option<Vec<ScriptPosition>> {
        self.start.clone()
    }

    fn heap_game(&self) -> Option<&dyn HeapGame> {
        matches!(self.shape(), Shape::Heap | Shape::Unknown).then_some(self as &dyn HeapGame)
    }

    fn chart(&self) -> Chart {
        match self.shape() {
            Shape::Heap => Chart::Sequence,
            Shape::Pair => Chart::Grid,
            Shape::Other | Shape::Unknown => Chart::None,
        }
    }

    fn table(&self, size: Option<u64>) -> Option<Result<Table, GameError>> {
        if !matches!(self.shape(), Shape::Pair | Shape::Unknown) {
            return None;
        }
        let side = size.unwrap_or(DEFAULT_TABLE_SIDE);
        if side > MAX_TABLE_SIDE {
            return Some(Err(GameError::OutOfReach(format!(
                "a table of side {side} for {}: script games make tables up to side {MAX_TABLE_SIDE}",
                self.spec
            ))));
        }
        let pairs: Vec<ScriptPosition> =
            (0..side as i64).flat_map(|x| (0..side as i64).map(move |y| ScriptPosition::Tuple(vec![x, y]))).collect();
        let grid = self.ask(|proxy| proxy.values(&pairs)).and_then(|values| {
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
        });
        Some(grid)
    }

    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn component_noun(&self) -> &'static str {
        "position"
    }

    fn parse_component(&self, text: &str) -> Result<ScriptPosition, GameError> {
        let parsed = self.ask(|proxy| proxy.parse(&[text.to_owned()])).map_err(|error| {
            // The worker's message already says which position of which game: keep its reason.
            let message = error.to_string();
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
        self.ask(|proxy| proxy.format(std::slice::from_ref(position)))
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
        let values = self.ask(|proxy| proxy.values(std::slice::from_ref(position)))?;
        values.into_iter().next().ok_or_else(|| GameError::OutOfReach("worker protocol: no value".to_owned()))
    }

    // The worker reports each option's value with it: one request instead of one per option.
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

impl HeapGame for ScriptRules {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn extend_sequence(&self, values: &mut Vec<u32>, len: usize, control: &SequenceControl) -> Result<bool, GameError> {
        while values.len() < len {
            if control.cancelled() {
                return Ok(false);
            }
            let from = values.len() as u64;
            // Small requests first, so that progress moves even when each value costs much
            // (a script that splits heaps in every way costs O(n) per heap).
            let chunk = (from / 8).clamp(SMALLEST_CHUNK, SEQUENCE_CHUNK);
            let to = (from + chunk).min(len as u64) - 1;
            for (heap, value) in (from..).zip(self.ask(|proxy| proxy.sequence(from, to))?) {
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
