//! The worker process: loads the script into the library's in-process backend
//! ([`LocalScript`]), reads requests, asks it, writes its answers.
//!
//! Started by [`super::ScriptProxy`] as `grundy __script-worker PATH …` under an
//! address-space limit. Anything that kills it (an allocation past the cap aborts the process)
//! leaves the parent alive; a note of the position being expanded is written to stderr first
//! (see [`super::note`]).

use super::note;
use super::protocol::{answer_to_json, position_from_json, position_to_json, positions_from_json, value_to_json};
use grundy::GameError;
use grundy::script::formula::Formula;
use grundy::script::solver::{OptionList, OptionSink, SplitGame};
use grundy::script::{CallClock, LocalScript, MovesBackend, ScriptGame, ScriptLimits, ScriptPosition, Shape};
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
    /// What the refusal past `--max-positions` says when the run's memory budget set it.
    #[arg(long)]
    positions_note: Option<String>,
}

/// The script game, noting each position before it is expanded.
struct NotedGame(ScriptGame);

impl std::borrow::Borrow<ScriptGame> for NotedGame {
    fn borrow(&self) -> &ScriptGame {
        &self.0
    }
}

impl SplitGame for NotedGame {
    type State = ScriptPosition;
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
    // One write of the whole line, not one a piece of the JSON as it is formatted.
    out.write_all(format!("{line}\n").as_bytes())?;
    out.flush()
}

/// A game worker's reply, with the bytes it holds now (`held`: its memo and all), which the
/// parent counts against the run's memory budget.
fn reply_holding(out: &mut impl Write, result: anyhow::Result<Json>) -> std::io::Result<()> {
    let line = match result {
        Ok(value) => json!({ "ok": value, "held": note::live_bytes() }),
        Err(error) => json!({ "error": format!("{error:#}").replace('\n', " "), "held": note::live_bytes() }),
    };
    out.write_all(format!("{line}\n").as_bytes())?;
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
        .and_then(|source| Ok(LocalScript::load_wrapped(&args.path, &source, limits, None, NotedGame)?));
    let mut script = match loaded {
        Ok(script) => match args.positions_note.clone() {
            Some(note) => script.with_limit_note(note),
            None => script,
        },
        Err(error) => {
            reply(&mut out, Err(error))?;
            return Ok(());
        }
    };
    let start = match script.start() {
        Some(parts) => Json::Array(parts.iter().map(position_to_json).collect()),
        None => Json::Null,
    };
    let hello = json!({
        "name": script.name(),
        "description": script.description(),
        "start": start,
        // Without `show` and `parse` the parent writes and reads positions itself, with no
        // request (a check's tests write millions of them).
        "shows": script.script().has_show(),
        "parses": script.script().has_parse(),
        "held": note::live_bytes(),
    });
    reply(&mut out, Ok(hello))?;
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let request: Json = serde_json::from_str(&line)?;
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handle(&mut script, &request)));
        match answer {
            Ok(result) => reply_holding(&mut out, result)?,
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

/// The formula worker: one `evaluate` request a batch of sums of heaps, or one
/// `evaluate_heaps` request the single heaps `from..to`.
fn run_formula(args: &Args, limits: ScriptLimits, out: &mut impl Write) -> anyhow::Result<()> {
    let formula = match Formula::parse(&args.path, limits) {
        Ok(formula) => formula,
        Err(error) => return Ok(reply(out, Err(error.into()))?),
    };
    reply(out, Ok(json!({ "name": "formula" })))?;
    for line in std::io::stdin().lock().lines() {
        let request: Json = serde_json::from_str(&line?)?;
        let evaluate = || -> anyhow::Result<Json> {
            if request["op"] == "evaluate_heaps" {
                let bound =
                    |key: &str| request[key].as_u64().ok_or_else(|| anyhow::anyhow!("worker protocol: no `{key}`"));
                // One word an answer (`N`, `P` or the value's digits) in one string: a JSON
                // object an answer costs more to write and read than the formula to evaluate.
                let answers = formula.evaluate_heaps(bound("from")?, bound("to")?)?;
                let words: Vec<String> = answers.iter().map(ToString::to_string).collect();
                return Ok(Json::String(words.join(" ")));
            }
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

/// One request's answer, asked of the in-process backend (its errors are one line already).
fn handle(script: &mut LocalScript<NotedGame>, request: &Json) -> anyhow::Result<Json> {
    let op = request.get("op").and_then(Json::as_str).unwrap_or("");
    let answer = match op {
        "shape" => script.shape().map(|shape| match shape {
            Shape::Heap => json!("heap"),
            Shape::Pair => json!("pair"),
            Shape::Other | Shape::Unknown => Json::Null,
        }),
        "parse" => {
            let texts = request["texts"].as_array().ok_or_else(|| anyhow::anyhow!("worker protocol: no texts"))?;
            let texts: Vec<String> = texts.iter().map(|text| text.as_str().unwrap_or("").to_owned()).collect();
            script.parse(&texts).map(|positions| Json::Array(positions.iter().map(position_to_json).collect()))
        }
        "format" => script.format(&positions_from_json(&request["positions"])?).map(Json::from),
        "values" => script
            .values(&positions_from_json(&request["positions"])?)
            .map(|values| Json::Array(values.iter().map(value_to_json).collect())),
        "options" | "options_to_value" => {
            let position = position_from_json(&request["position"])?;
            let limit = request["limit"].as_u64().unwrap_or(u64::MAX);
            let limit_size = usize::try_from(limit).unwrap_or(usize::MAX);
            let listed = match request["target"].as_str() {
                Some(digits) => {
                    let target: num_bigint::BigUint =
                        digits.parse().map_err(|_| anyhow::anyhow!("worker protocol: bad target `{digits}`"))?;
                    script.options_to_value(&position, &target, limit_size)
                }
                None => script.options_with_values(&position, limit_size),
            };
            listed.map(|options| match options {
                None => json!({ "more_than": limit }),
                Some(options) => Json::Array(
                    options
                        .iter()
                        .map(|option| {
                            json!({
                                "parts": option.parts.iter().map(position_to_json).collect::<Vec<_>>(),
                                "texts": option.texts,
                                "value": value_to_json(&option.value),
                            })
                        })
                        .collect(),
                ),
            })
        }
        // What the memo holds and how often the script's `moves` ran (`grundy check --stats`
        // prints it; a test checks that the memo is kept across a check's tests).
        "stats" => {
            let (positions, expansions) = script.memo_counts();
            Ok(json!({ "positions": positions, "expansions": expansions, "held": note::live_bytes() }))
        }
        "sequence" => {
            let to = request["to"].as_u64().ok_or_else(|| anyhow::anyhow!("worker protocol: no `to`"))?;
            let from = request["from"].as_u64().unwrap_or(0);
            script.sequence(from, to).map(Json::from)
        }
        other => anyhow::bail!("worker protocol: unknown request `{other}`"),
    };
    answer.map_err(|message| anyhow::anyhow!(message))
}
