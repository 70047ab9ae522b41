//! The in-process [`MovesBackend`] of a script: the Starlark engine and one memoized solver in this
//! process, and [`InProcessHost`], the registry's [`ScriptHost`] that builds script games on
//! it. A front end that must survive any script (one giant allocation in one step aborts the
//! process) runs this backend in a process it watches instead, as the CLI's worker does.

use super::solver::{SplitGame, SplitSolver};
use super::{ScriptFamily, ScriptOption};
use super::{ScriptGame, ScriptLimits, ScriptPosition};
use crate::control::Control;
use crate::error::GameError;
use crate::moves::{MovesBackend, Shape};
use crate::registry::{ReadFile, ScriptHost};
use crate::ruleset::Ruleset;
use crate::value::Value;
use num_bigint::BigUint;
use std::borrow::Borrow;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// How a script's values are found, in `grundy period`'s explanation.
pub const SCRIPT_METHOD: &str = "memoized search over the script's moves";

/// Operations a call may make while probing the shape of a script's positions.
const PROBE_OPS: u64 = 200_000;

/// A loaded script and its memoized solver, answering [`ScriptFamily`] in this process.
///
/// `G` is the script game as the solver sees it: [`ScriptGame`] itself, or a wrapper that
/// does something around each expansion (the CLI's worker notes the position, for the message
/// of a process that runs out of memory).
pub struct LocalScript<G: SplitGame<State = ScriptPosition> = ScriptGame> {
    solver: SplitSolver<G>,
    /// The script's text and name, to load the shape probe's copy when it is asked for.
    path: String,
    source: String,
    /// The script's `start()`; `None` also when it failed (the position is then given).
    start: Option<Vec<ScriptPosition>>,
}

impl LocalScript<ScriptGame> {
    /// Loads the script `source` (named `path` in messages) under `limits`; every call stops
    /// as soon as `cancelled` is set.
    ///
    /// # Errors
    /// [`GameError::BadGame`] for a syntax or runtime error (with file, line and column) or a
    /// missing `moves`.
    pub fn load(
        path: &str,
        source: &str,
        limits: ScriptLimits,
        cancelled: Option<Arc<AtomicBool>>,
    ) -> Result<Self, GameError> {
        Self::load_wrapped(path, source, limits, cancelled, |game| game)
    }
}

impl<G: SplitGame<State = ScriptPosition> + Borrow<ScriptGame>> LocalScript<G> {
    /// As [`LocalScript::load`], the solver working on `wrap` of the loaded game.
    ///
    /// # Errors
    /// As [`LocalScript::load`].
    pub fn load_wrapped(
        path: &str,
        source: &str,
        limits: ScriptLimits,
        cancelled: Option<Arc<AtomicBool>>,
        wrap: impl FnOnce(ScriptGame) -> G,
    ) -> Result<Self, GameError> {
        let max_positions = limits.max_positions;
        let game = ScriptGame::load_with_cancel(path, source, limits, cancelled)?;
        let start = game.start().ok().flatten();
        Ok(LocalScript {
            solver: SplitSolver::new(wrap(game), max_positions),
            path: path.to_owned(),
            source: source.to_owned(),
            start,
        })
    }

    fn game(&self) -> &ScriptGame {
        self.solver.game().borrow()
    }

    /// The loaded script (whether it has `show` and `parse`, its name, its limits).
    pub fn script(&self) -> &ScriptGame {
        self.game()
    }

    /// The same backend saying `note` when its memo is full (what bounds it and what to
    /// change), instead of naming the CLI's `--max-positions`.
    #[must_use]
    pub fn with_limit_note(mut self, note: String) -> Self {
        self.solver = self.solver.with_limit_note(note);
        self
    }

    /// How many positions the memo holds, and how many times the script's `moves` has been
    /// called by the solver: a memo kept across questions calls `moves` once a position.
    pub fn memo_counts(&self) -> (usize, u64) {
        (self.solver.positions_known(), self.solver.expansions())
    }

    /// Each option of `position` (only those of value `target` when it is given), or `None`
    /// when it has more than `limit`; the position's expansion kept by the solver for the next
    /// question about it, and only the options returned written as text.
    fn listed_options(
        &mut self,
        position: &ScriptPosition,
        limit: usize,
        target: Option<&BigUint>,
    ) -> Result<Option<Vec<ScriptOption>>, GameError> {
        let Some(options) = self.solver.listed_options(position, limit, target)? else { return Ok(None) };
        let mut listed = Vec::with_capacity(options.len());
        for (parts, value) in options {
            let texts = parts.iter().map(|part| self.game().format(part)).collect::<Result<Vec<_>, _>>()?;
            listed.push(ScriptOption { parts, texts, value });
        }
        Ok(Some(listed))
    }

    fn heap_values(&mut self, from: u64, to: u64) -> Result<Vec<u64>, String> {
        let mut values = Vec::with_capacity(to.saturating_sub(from).min(1 << 24) as usize + 1);
        for heap in from..=to {
            match self.solver.value(&ScriptPosition::Int(heap)).map_err(|error| error.to_string())? {
                Value::Finite(value) => values
                    .push(u64::try_from(&value).map_err(|_| format!("G({heap}) = {value} does not fit in 64 bits"))?),
                infinite => {
                    return Err(format!("heap {heap} has the value {infinite}: a loopy game has no nim-sequence"));
                }
            }
        }
        Ok(values)
    }
}

impl<G: SplitGame<State = ScriptPosition> + Borrow<ScriptGame> + Send> MovesBackend<ScriptPosition> for LocalScript<G> {
    fn name(&self) -> &str {
        self.game().name()
    }

    fn description(&self) -> &str {
        self.game().description()
    }

    fn method(&self) -> String {
        SCRIPT_METHOD.to_owned()
    }

    fn start(&self) -> Option<&[ScriptPosition]> {
        self.start.as_deref()
    }

    /// Probed on a copy with a small budget, so a script that never returns costs little here
    /// and fails with its real error (and the full budget) when it is used.
    fn shape(&mut self) -> Result<Shape, String> {
        let game = self.game();
        let limits = ScriptLimits { max_ops: game.limits().max_ops.min(PROBE_OPS), ..game.limits().clone() };
        Ok(ScriptGame::load_with_cancel(&self.path, &self.source, limits, game.cancel_flag())
            .map_or(Shape::Other, |probe| probe_shape(&probe)))
    }

    fn parse(&mut self, texts: &[String]) -> Result<Vec<ScriptPosition>, String> {
        texts.iter().map(|text| self.game().parse(text).map_err(|error| error.to_string())).collect()
    }

    fn format(&mut self, positions: &[ScriptPosition]) -> Result<Vec<String>, String> {
        positions.iter().map(|position| self.game().format(position).map_err(|error| error.to_string())).collect()
    }

    fn values(&mut self, positions: &[ScriptPosition]) -> Result<Vec<Value>, String> {
        positions.iter().map(|position| self.solver.value(position).map_err(|error| error.to_string())).collect()
    }

    fn options_with_values(
        &mut self,
        position: &ScriptPosition,
        limit: usize,
    ) -> Result<Option<Vec<ScriptOption>>, String> {
        self.listed_options(position, limit, None).map_err(|error| error.to_string())
    }

    fn options_to_value(
        &mut self,
        position: &ScriptPosition,
        target: &BigUint,
        limit: usize,
    ) -> Result<Option<Vec<ScriptOption>>, String> {
        self.listed_options(position, limit, Some(target)).map_err(|error| error.to_string())
    }

    fn sequence(&mut self, from: u64, to: u64) -> Result<Vec<u64>, String> {
        self.heap_values(from, to)
    }
}

/// What the script's positions look like, probed on small ones. [`Shape::Heap`]: `0` reads as
/// the heap 0, and heaps 0 to 2 have only heaps as options (or the script failed on them: then
/// `sequence` and its kin run it and show that error); then `sequence`, `period`, `stats`,
/// `plot`, `genus` and `quotient` apply. [`Shape::Pair`]: likewise for `0,0` and pairs up to
/// (2, 2); then `table` applies. Otherwise [`Shape::Other`]. A wrong guess is harmless: a later
/// position of another shape gets a clear error.
fn probe_shape(game: &ScriptGame) -> Shape {
    // Some(true): every option has the shape; Some(false): one has not; None: the script
    // failed on a probe.
    let probe = |positions: &[ScriptPosition], shaped: &dyn Fn(&ScriptPosition) -> bool| -> Option<bool> {
        let mut all = true;
        for position in positions {
            all &= game.options(position).ok()?.iter().flatten().all(shaped);
        }
        Some(all)
    };
    let is_heap = |position: &ScriptPosition| matches!(position, ScriptPosition::Int(_));
    let is_pair = |position: &ScriptPosition| matches!(position, ScriptPosition::Tuple(entries) if entries.len() == 2);
    let heaps = [0, 1, 2].map(ScriptPosition::Int);
    let pairs = [(0, 0), (1, 0), (0, 1), (1, 1), (2, 2)].map(|(x, y)| ScriptPosition::Tuple(vec![x, y]));
    let heap = game.parse("0").is_ok_and(|zero| zero == heaps[0]).then(|| probe(&heaps, &is_heap));
    let pair = game.parse("0,0").is_ok_and(|zero| zero == pairs[0]).then(|| probe(&pairs, &is_pair));
    match (heap, pair) {
        // A shape every probe showed wins over one where the script failed.
        (Some(Some(true)), _) => Shape::Heap,
        (_, Some(Some(true))) => Shape::Pair,
        (Some(None), _) => Shape::Heap,
        (_, Some(None)) => Shape::Pair,
        _ => Shape::Other,
    }
}

/// Builds script games in this process: reads the script with `read_file`, and runs it under
/// `limits`, with at most as many positions as the game's [`Control`] memory limit holds
/// (200 bytes a position) and the control's cancel flag stopping every call.
pub struct InProcessHost<'a> {
    /// Reads the script file.
    pub read_file: ReadFile<'a>,
    /// The limits every call runs under.
    pub limits: ScriptLimits,
}

/// Bytes of memory one remembered position may take (the memo, its options and the
/// script's values): what a front end budgets a position (the CLI's worker measures what it
/// holds: `bench/RESULTS.md`).
pub const BYTES_PER_POSITION: u128 = 200;

impl ScriptHost for InProcessHost<'_> {
    fn build(&self, text: &str, path: &str, control: &Control) -> Result<Arc<dyn Ruleset>, GameError> {
        let source = (self.read_file)(path).map_err(|reason| GameError::BadGame { spec: text.to_owned(), reason })?;
        let held = usize::try_from(control.memory_limit() / BYTES_PER_POSITION).unwrap_or(usize::MAX);
        let limits = ScriptLimits { max_positions: self.limits.max_positions.min(held).max(1), ..self.limits.clone() };
        let backend = LocalScript::load(path, &source, limits, Some(control.cancel_flag()))?;
        Ok(ScriptFamily::erased(text, Box::new(backend)))
    }
}
