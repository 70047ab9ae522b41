//! The worker process: loads the script, keeps one memoized solver, answers requests.
//!
//! Started by [`super::ScriptProxy`] as `grundy __script-worker PATH …` under an
//! address-space limit. Anything that kills it (an allocation past the cap aborts the process)
//! leaves the parent alive; a note of the position being expanded is written to stderr first
//! (see [`super::note`]).

use super::note;
use super::protocol::{answer_to_json, position_to_json, positions_from_json, value_to_json};
use grundy::GameError;
use grundy::script::formula::Formula;
use grundy::script::solver::{OptionList, OptionSink, SplitGame, SplitSolver};
use grundy::script::{CallClock, ScriptGame, ScriptLimits, ScriptPosition};
use grundy::sum::sum_of_values;
use serde_json::{Value as Json, json};
use std::io::{BufRead, Write};
use std::time::Duration;

/// The hidden `__script-worker` subcommand's arguments (set by the parent, not by people).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The script file (with `--formula`: the formula's text).
    path: String,
    /// Evaluate `grundy check`'s formula instead of a game.
    #[arg(long)]
    formula: bool,
    #[arg(long)]
    max_ops: u64,
    #[arg(long)]
    max_positions: usize,
    #[arg(long)]
    max_heap_bytes: usize,
    #[arg(long)]
    max_call_millis: u64,
}

/// The script game, noting each position before it is expanded.
struct NotedGame(ScriptGame);

impl SplitGame for NotedGame {
    type Position = ScriptPosition;
    fn expand(&self, position: &ScriptPosition, out: &mut OptionList<ScriptPosition>) -> Result<(), GameError> {
        note::set_expanding(position);
        let result = self.0.expand(position, out);
        note::clear();
        result
    }
    fn describe(&self, position: &ScriptPosition) -> String {
        self.0.describe(position)
    }
    fn compact_key(&self, position: &ScriptPosition) -> Option<u64> {
        self.0.compact_key(position)
    }
    fn for_each_option(
        &self,
        position: &ScriptPosition,
        scratch: &mut OptionList<ScriptPosition>,
        each: &mut OptionSink<'_, ScriptPosition>,
    ) -> Result<(), GameError> {
        note::set_expanding(position);
        let result = self.0.for_each_option(position, scratch, each);
        note::clear();
        result
    }
}

fn reply(out: &mut impl Write, result: anyhow::Result<Json>) -> std::io::Result<()> {
    let line = match result {
        Ok(value) => json!({ "ok": value }),
        Err(error) => json!({ "error": format!("{error:#}").replace('\n', " ") }),
    };
    writeln!(out, "{line}")?;
    out.flush()
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let limits = ScriptLimits {
        max_ops: args.max_ops,
        max_heap_bytes: args.max_heap_bytes,
        max_positions: args.max_positions,
        max_call_millis: args.max_call_millis,
        call_clock: CallClock::default(),
    };
    watch_calls(args.max_call_millis, limits.call_clock.clone());
    if args.formula {
        return run_formula(&args, limits, &mut out);
    }
    let loaded = crate::input::read_script_file(&args.path)
        .map_err(|message| anyhow::anyhow!(message))
        .and_then(|source| Ok((ScriptGame::load(&args.path, &source, limits.clone())?, source)));
    let (game, source) = match loaded {
        Ok(loaded) => loaded,
        Err(error) => {
            reply(&mut out, Err(error))?;
            return Ok(());
        }
    };
    let start = match game.start() {
        Ok(Some(parts)) => Json::Array(parts.iter().map(position_to_json).collect()),
        Ok(None) => Json::Null,
        Err(error) => json!({ "error": error.to_string() }),
    };
    reply(&mut out, Ok(json!({ "name": game.name(), "description": game.description(), "start": start })))?;
    // The shape probe runs on a copy with a small budget, so a script that never returns costs
    // little there and fails with its real error (and the full budget) when it is used.
    let probe_limits = ScriptLimits { max_ops: limits.max_ops.min(PROBE_OPS), ..limits };
    let probe =
        || ScriptGame::load(&args.path, &source, probe_limits.clone()).map_or(Json::Null, |probe| shape(&probe));
    let mut solver = SplitSolver::new(NotedGame(game), args.max_positions);
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let request: Json = serde_json::from_str(&line)?;
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handle(&mut solver, &request, &probe)));
        match answer {
            Ok(result) => reply(&mut out, result)?,
            Err(panic) => {
                let message = panic_text(&*panic);
                let during = note::expanding()
                    .map(|position| format!(" while expanding position {position}"))
                    .unwrap_or_default();
                reply(&mut out, Err(anyhow::anyhow!("the script made the interpreter fail ({message}){during}")))?;
                // The solver's marks may be half-set: stop, and let the parent start afresh.
                return Ok(());
            }
        }
    }
    Ok(())
}

/// How long past its time limit a call stuck in one step (which the evaluator's own check,
/// run between steps, cannot stop) may run before the watchdog ends the worker.
const WATCHDOG_GRACE: Duration = Duration::from_secs(1);

/// Starts the watchdog: a call that runs `max_call_millis` plus [`WATCHDOG_GRACE`] (one step
/// of enormous arithmetic, say) ends the worker with [`note::CALL_TOO_LONG`] on stderr, which
/// the parent reports as the time limit passed. 0: no limit, no watchdog.
fn watch_calls(max_call_millis: u64, clock: CallClock) {
    if max_call_millis == 0 {
        return;
    }
    let hard_limit = Duration::from_millis(max_call_millis) + WATCHDOG_GRACE;
    let poll = (hard_limit / 20).clamp(Duration::from_millis(10), Duration::from_millis(200));
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(poll);
            if clock.running_call_time().is_some_and(|running| running >= hard_limit) {
                note::call_too_long();
            }
        }
    });
}

/// Operations a call may make while probing the shape of a script's positions.
const PROBE_OPS: u64 = 200_000;

/// What the script's positions look like, probed on small ones. `"heap"`: `0` reads as the
/// heap 0, and heaps 0 to 2 have only heaps as options (or the script failed on them: then
/// `sequence` and its kin run it and show that error); then `sequence`, `period`, `stats`,
/// `plot`, `genus` and `quotient` apply. `"pair"`: likewise for `0,0` and pairs up to (2, 2);
/// then `table` applies. Otherwise `null`. A wrong guess is harmless: a later position of
/// another shape gets a clear error.
fn shape(game: &ScriptGame) -> Json {
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
        (Some(Some(true)), _) => json!("heap"),
        (_, Some(Some(true))) => json!("pair"),
        (Some(None), _) => json!("heap"),
        (_, Some(None)) => json!("pair"),
        _ => Json::Null,
    }
}

/// The formula worker: one `evaluate` request a batch of sums of heaps.
fn run_formula(args: &Args, limits: ScriptLimits, out: &mut impl Write) -> anyhow::Result<()> {
    let formula = match Formula::parse(&args.path, limits) {
        Ok(formula) => formula,
        Err(error) => return Ok(reply(out, Err(error.into()))?),
    };
    reply(out, Ok(json!({ "name": "formula" })))?;
    for line in std::io::stdin().lock().lines() {
        let request: Json = serde_json::from_str(&line?)?;
        let evaluate = || -> anyhow::Result<Json> {
            let positions: Vec<Vec<u64>> = serde_json::from_value(request["positions"].clone())?;
            let mut answers = Vec::with_capacity(positions.len());
            for heaps in positions {
                let components: Vec<ScriptPosition> = heaps.into_iter().map(ScriptPosition::Int).collect();
                answers.push(answer_to_json(&formula.evaluate(&components)?));
            }
            Ok(Json::Array(answers))
        };
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(evaluate)) {
            Ok(result) => reply(out, result)?,
            Err(panic) => {
                reply(out, Err(anyhow::anyhow!("the formula made the interpreter fail ({})", panic_text(&*panic))))?;
                return Ok(());
            }
        }
    }
    Ok(())
}

fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|text| (*text).to_owned()))
        .unwrap_or_else(|| "unknown".to_owned())
}

fn handle(solver: &mut SplitSolver<NotedGame>, request: &Json, probe: &dyn Fn() -> Json) -> anyhow::Result<Json> {
    let op = request.get("op").and_then(Json::as_str).unwrap_or("");
    match op {
        "shape" => Ok(probe()),
        "parse" => {
            let game = &solver.game().0;
            let texts = request["texts"].as_array().ok_or_else(|| anyhow::anyhow!("worker protocol: no texts"))?;
            let mut positions = Vec::new();
            for text in texts {
                positions.push(position_to_json(&game.parse(text.as_str().unwrap_or(""))?));
            }
            Ok(Json::Array(positions))
        }
        "format" => {
            let positions = positions_from_json(&request["positions"])?;
            let game = &solver.game().0;
            let texts: Result<Vec<Json>, GameError> =
                positions.iter().map(|position| game.format(position).map(Json::from)).collect();
            Ok(Json::Array(texts?))
        }
        "values" => {
            let positions = positions_from_json(&request["positions"])?;
            let mut values = Vec::new();
            for position in &positions {
                values.push(value_to_json(&solver.value(position)?));
            }
            Ok(Json::Array(values))
        }
        "options" => {
            let position = super::protocol::position_from_json(&request["position"])?;
            let options = solver.game().0.options(&position)?;
            let limit = request["limit"].as_u64().unwrap_or(u64::MAX);
            if options.len() as u64 > limit {
                return Ok(json!({ "more_than": limit }));
            }
            let mut listed = Vec::new();
            for parts in options {
                let texts: Result<Vec<String>, GameError> =
                    parts.iter().map(|part| solver.game().0.format(part)).collect();
                let texts = texts?;
                let mut values = Vec::new();
                for part in &parts {
                    values.push(solver.value(part)?);
                }
                listed.push(json!({
                    "parts": parts.iter().map(position_to_json).collect::<Vec<_>>(),
                    "texts": texts,
                    "value": value_to_json(&sum_of_values(&values)?),
                }));
            }
            Ok(Json::Array(listed))
        }
        "sequence" => {
            let to = request["to"].as_u64().ok_or_else(|| anyhow::anyhow!("worker protocol: no `to`"))?;
            let from = request["from"].as_u64().unwrap_or(0);
            let mut values = Vec::with_capacity(to.saturating_sub(from).min(1 << 24) as usize + 1);
            for heap in from..=to {
                match solver.value(&ScriptPosition::Int(heap))? {
                    grundy::Value::Finite(value) => values.push(Json::from(value.to_string().parse::<u64>()?)),
                    infinite => anyhow::bail!("heap {heap} has the value {infinite}: a loopy game has no nim-sequence"),
                }
            }
            Ok(Json::Array(values))
        }
        other => anyhow::bail!("worker protocol: unknown request `{other}`"),
    }
}
