//! Script games run in a worker process that grundy watches.
//!
//! A Starlark script may allocate hugely in one step (`[0] * 1250000000`): the evaluator's heap
//! limit is checked between steps, and a failed allocation aborts the whole process. So the
//! script is evaluated in a child process (`grundy __script-worker`, started as
//! `crate::own_command::command()`: this executable, or the Python command's interpreter) under an
//! address-space limit (`setrlimit(RLIMIT_AS)` before `exec`). The whole memoized solve runs there; [`ScriptProxy`] asks for parses, values,
//! options and sequences in batches over pipes, one JSON object a line. When the worker
//! dies, the request fails with one clear line and the next request starts a fresh worker.

pub mod host;
pub mod note;
pub mod protocol;
pub mod worker;

use crate::output::Stop;
use grundy::Value;
use grundy::control::{Control, Held};
use grundy::script::formula::FormulaAnswer;
use grundy::script::{BYTES_PER_POSITION, MovesBackend, ScriptOption, ScriptPosition, Shape};
use num_bigint::BigUint;
use protocol::{position_to_json, positions_from_json, value_from_json};
use serde_json::{Value as Json, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

#[global_allocator]
static ALLOCATOR: note::NotingAllocator = note::NotingAllocator;

/// The limits a script game runs under (the `--max-ops`, `--max-positions` and
/// `--memory-cap` flags).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptOptions {
    /// Operations one call of a script function may make.
    pub max_ops: u64,
    /// Positions the solver may remember (default: from the memory cap).
    pub max_positions: Option<usize>,
    /// The worker's address-space limit in bytes.
    pub memory_cap: u64,
    /// Wall-clock milliseconds one call of a script function may take (0: no limit).
    pub max_call_millis: u64,
    /// Print what each game worker's memo held and how often it ran the script, when it stops
    /// (the hidden `--script-stats` flag: for tests and benchmarks).
    pub stats: bool,
}

impl Default for ScriptOptions {
    fn default() -> Self {
        ScriptOptions {
            max_ops: 10_000_000,
            max_positions: None,
            memory_cap: 4 << 30,
            max_call_millis: 60_000,
            stats: false,
        }
    }
}

/// The flags for script games, accepted by every command (global flags).
#[derive(clap::Args, Debug, Clone)]
pub struct ScriptFlags {
    /// For script games: the operations (calls and loop steps) one call of the script may
    /// make.
    #[arg(long, global = true, value_name = "N", default_value_t = 10_000_000)]
    pub max_ops: u64,
    /// For script games: the positions the solver may remember (default: memory cap / 200 B);
    /// for the misère search of `outcome --misere` and `moves --misere`: the positions it may
    /// examine (default 2000000).
    #[arg(long, global = true, value_name = "N")]
    pub max_positions: Option<usize>,
    /// For script games: the memory the script's worker process may take, in MiB.
    #[arg(long, global = true, value_name = "MIB", default_value_t = 4096, value_parser = parse_memory_cap)]
    pub memory_cap: u64,
    /// For script games: the wall-clock seconds one call of the script may take (0: no
    /// limit). One step of huge arithmetic, which no operation count sees, is stopped too.
    #[arg(long, global = true, value_name = "SECS", default_value = "60", value_parser = parse_seconds)]
    pub script_timeout: u64,
    /// For tests and benchmarks: when a script game's worker stops, one line on stderr with
    /// the positions its memo held, the calls of the script's `moves` and the bytes it held.
    #[arg(long, global = true, hide = true)]
    pub script_stats: bool,
}

/// The smallest `--memory-cap` a worker starts under (measured: 32 MiB starts the debug build,
/// 16 MiB does not), with room for a script's first steps.
const SMALLEST_MEMORY_CAP_MIB: u64 = 64;

/// `--memory-cap MIB`: at least [`SMALLEST_MEMORY_CAP_MIB`], so that a worker never dies
/// starting, with a signal for its only message.
fn parse_memory_cap(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(mib) if (SMALLEST_MEMORY_CAP_MIB..=u64::MAX >> 20).contains(&mib) => Ok(mib),
        Ok(mib) if mib < SMALLEST_MEMORY_CAP_MIB => Err(format!(
            "{mib} MiB is too little for the script's worker process: it needs at least {SMALLEST_MEMORY_CAP_MIB} MiB to start"
        )),
        _ => Err(format!("`{text}` is not a number of MiB from {SMALLEST_MEMORY_CAP_MIB} up")),
    }
}

/// `--script-timeout SECS` as milliseconds: a number of seconds from 0 to 10^6.
fn parse_seconds(text: &str) -> Result<u64, String> {
    match text.trim().parse::<f64>() {
        Ok(seconds) if (0.0..=1e6).contains(&seconds) => Ok((seconds * 1000.0).round() as u64),
        _ => Err(format!("`{text}` is not a number of seconds from 0 (no limit) to 1000000")),
    }
}

impl ScriptFlags {
    /// The options these flags give, the memory cap lowered to what this process may have.
    pub fn options(&self) -> ScriptOptions {
        let requested = self.memory_cap.saturating_mul(1 << 20);
        let memory_cap = match crate::os::address_space_limit() {
            Some(limit) if limit < requested => {
                let _ = CAP_LOWERED.set(format!(
                    "grundy: note: the script worker gets {} of memory, the address-space limit of this \
                     process (ulimit -v), not the {} of --memory-cap",
                    grundy::error::human_bytes(u128::from(limit)),
                    grundy::error::human_bytes(u128::from(requested))
                ));
                limit
            }
            _ => requested,
        };
        ScriptOptions {
            max_ops: self.max_ops,
            max_positions: self.max_positions,
            memory_cap,
            max_call_millis: self.script_timeout,
            stats: self.script_stats,
        }
    }
}

/// The note that the memory cap was lowered, printed when the first worker starts.
static CAP_LOWERED: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// The options of this run's script games, set once from the command line by [`install`].
static OPTIONS: std::sync::OnceLock<ScriptOptions> = std::sync::OnceLock::new();

/// Sets the options every script game of this run gets (from the global flags).
pub fn install(flags: &ScriptFlags) {
    let _ = OPTIONS.set(flags.options());
}

/// The options set by [`install`] (the defaults before it).
pub fn options() -> ScriptOptions {
    OPTIONS.get().cloned().unwrap_or_default()
}

impl ScriptOptions {
    fn positions(&self) -> usize {
        self.max_positions.unwrap_or((self.memory_cap / 200) as usize).max(1)
    }

    /// A single call's heap: a quarter of the cap, at most 1 GiB.
    fn heap_bytes(&self) -> u64 {
        (self.memory_cap / 4).clamp(1 << 20, 1 << 30)
    }
}

struct Worker {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// A script game evaluated in a watched worker process.
///
/// Every command reaches it through the registry ([`grundy::script::ScriptFamily`], whose
/// [`MovesBackend`] it is); `check` and
/// `sequence` also ask it for batches of values directly.
pub struct ScriptProxy {
    /// The script file, or the formula's text when `formula`.
    path: String,
    formula: bool,
    options: ScriptOptions,
    worker: Option<Worker>,
    name: String,
    description: String,
    start: Option<Vec<ScriptPosition>>,
    /// Whether the script has `show` and `parse`: without them positions are written and read
    /// here, by the default form, with no request.
    shows: bool,
    parses: bool,
    /// The run's control: the worker's memo is bounded by what is left of its memory budget
    /// when the worker starts, and what the worker holds is counted against it (`held`).
    control: Option<Control>,
    held: Option<Held>,
}

impl ScriptProxy {
    /// Starts a worker on the script at `path` and loads it, its memo within what is left of
    /// `control`'s memory budget and held against it.
    ///
    /// # Errors
    /// The script cannot be read or loaded (syntax error with file, line and column), or the
    /// worker cannot start.
    pub fn spawn(path: &str, options: ScriptOptions, control: &Control) -> anyhow::Result<ScriptProxy> {
        Self::spawn_worker(path, false, options, Some(control.clone()))
    }

    /// Starts a worker that evaluates `grundy check`'s formula `expression` (a formula is a
    /// script too: `[0] * 10**10` must not take grundy down).
    ///
    /// # Errors
    /// A syntax error in the formula, or the worker cannot start.
    pub fn spawn_formula(expression: &str, options: ScriptOptions) -> anyhow::Result<ScriptProxy> {
        Self::spawn_worker(expression, true, options, None)
    }

    fn spawn_worker(
        path: &str,
        formula: bool,
        options: ScriptOptions,
        control: Option<Control>,
    ) -> anyhow::Result<ScriptProxy> {
        let mut proxy = ScriptProxy {
            formula,
            path: path.to_owned(),
            options,
            worker: None,
            name: String::new(),
            description: String::new(),
            start: None,
            // Until the worker says otherwise, every position goes through the script.
            shows: true,
            parses: true,
            control,
            held: None,
        };
        let hello = proxy.start_worker()?;
        proxy.name = hello["name"].as_str().unwrap_or_default().to_owned();
        proxy.description = hello["description"].as_str().unwrap_or_default().to_owned();
        proxy.start = if hello["start"].is_array() { Some(positions_from_json(&hello["start"])?) } else { None };
        proxy.shows = hello["shows"].as_bool().unwrap_or(true);
        proxy.parses = hello["parses"].as_bool().unwrap_or(true);
        Ok(proxy)
    }

    /// The positions the worker's memo may hold: the flags' (`--max-positions`, else the
    /// memory cap at [`BYTES_PER_POSITION`] each), at most what is left of the run's memory
    /// budget; with the note its refusal gives when the budget is what bounds it.
    fn positions_allowed(&self) -> (usize, Option<String>) {
        let flags = self.options.positions();
        let Some(control) = &self.control else { return (flags, None) };
        // What this worker holds already is its own (a restarted worker starts afresh).
        let left = control.memory_left() + self.held.as_ref().map_or(0, Held::bytes);
        let budget = usize::try_from(left / BYTES_PER_POSITION).unwrap_or(usize::MAX).max(1);
        if budget >= flags {
            return (flags, None);
        }
        let note = format!(
            "the run's memory budget has {} left, room for {budget} positions at {BYTES_PER_POSITION} bytes each; raise --memory-limit, or ask about a smaller position",
            grundy::error::human_bytes(left)
        );
        (budget, Some(note))
    }

    /// Counts what the worker says it holds (`held` in its reply) against the run's budget.
    fn note_held(&mut self, reply: &Json) {
        let (Some(control), Some(bytes)) = (&self.control, reply.get("held").and_then(Json::as_u64)) else {
            return;
        };
        match &mut self.held {
            Some(held) => held.set(u128::from(bytes)),
            None => self.held = Some(control.hold(u128::from(bytes))),
        }
    }

    /// What the worker's memo holds: positions, calls of the script's `moves`, bytes.
    ///
    /// # Errors
    /// The worker died.
    pub fn stats(&mut self) -> anyhow::Result<(u64, u64, u64)> {
        let reply = self.request(json!({ "op": "stats" }), "reading the memo's size")?;
        let count = |key: &str| reply[key].as_u64().unwrap_or(0);
        Ok((count("positions"), count("expansions"), count("held")))
    }

    /// The script's `NAME`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The script's `DESCRIPTION`.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The script's `start()` position as components, if it has one.
    pub fn start(&self) -> Option<&[ScriptPosition]> {
        self.start.as_deref()
    }

    /// What messages call the script: `script:PATH`, or the formula.
    fn label(&self) -> String {
        if self.formula { format!("formula `{}`", self.path) } else { format!("script:{}", self.path) }
    }

    /// The formula's answer for each sum of heaps (a worker from [`ScriptProxy::spawn_formula`]).
    pub fn evaluate(&mut self, positions: &[Vec<u64>]) -> anyhow::Result<Vec<FormulaAnswer>> {
        let reply = self.request(json!({ "op": "evaluate", "positions": positions }), "evaluating the formula")?;
        reply
            .as_array()
            .ok_or_else(|| anyhow::anyhow!("worker protocol: bad answers"))?
            .iter()
            .map(protocol::answer_from_json)
            .collect()
    }

    /// The formula's answer for each single heap `from..to`, evaluated by the worker in one go
    /// (a worker from [`ScriptProxy::spawn_formula`]).
    pub fn evaluate_heaps(&mut self, from: u64, to: u64) -> anyhow::Result<Vec<FormulaAnswer>> {
        let reply =
            self.request(json!({ "op": "evaluate_heaps", "from": from, "to": to }), "evaluating the formula")?;
        let words = reply.as_str().ok_or_else(|| anyhow::anyhow!("worker protocol: bad answers"))?;
        words
            .split_whitespace()
            .map(|word| match word {
                "N" => Ok(FormulaAnswer::Outcome(grundy::Outcome::N)),
                "P" => Ok(FormulaAnswer::Outcome(grundy::Outcome::P)),
                digits => digits
                    .parse()
                    .map(FormulaAnswer::Value)
                    .map_err(|_| anyhow::anyhow!("worker protocol: `{digits}` is not a formula's answer")),
            })
            .collect()
    }

    /// What the script's positions look like, probed by the worker on small positions.
    pub fn shape(&mut self) -> anyhow::Result<Shape> {
        Ok(match self.request(json!({ "op": "shape" }), "probing the script's positions")?.as_str() {
            Some("heap") => Shape::Heap,
            Some("pair") => Shape::Pair,
            _ => Shape::Other,
        })
    }

    /// Reads component texts (the script's `parse`, or integers).
    pub fn parse(&mut self, texts: &[String]) -> anyhow::Result<Vec<ScriptPosition>> {
        if !self.parses && !self.formula {
            // The worker's own reading, with its message (`bad position … for script:PATH`).
            let game = format!("script:{}", self.path);
            return texts
                .iter()
                .map(|text| ScriptPosition::parse_default(text, &game).map_err(|error| anyhow::anyhow!("{error}")))
                .collect();
        }
        let reply = self.request(json!({ "op": "parse", "texts": texts }), "reading the position")?;
        positions_from_json(&reply)
    }

    /// Positions as text (the script's `show`).
    pub fn format(&mut self, positions: &[ScriptPosition]) -> anyhow::Result<Vec<String>> {
        if !self.shows && !self.formula {
            return Ok(positions.iter().map(ToString::to_string).collect());
        }
        let positions: Vec<Json> = positions.iter().map(position_to_json).collect();
        let reply = self.request(json!({ "op": "format", "positions": positions }), "showing positions")?;
        reply
            .as_array()
            .and_then(|texts| texts.iter().map(|text| text.as_str().map(str::to_owned)).collect())
            .ok_or_else(|| anyhow::anyhow!("worker protocol: bad texts"))
    }

    /// The value of each position.
    pub fn values(&mut self, positions: &[ScriptPosition]) -> anyhow::Result<Vec<Value>> {
        let during = match positions {
            [one] => format!("computing the value of {one}"),
            _ => format!("computing the values of {} positions", positions.len()),
        };
        let positions: Vec<Json> = positions.iter().map(position_to_json).collect();
        let reply = self.request(json!({ "op": "values", "positions": positions }), &during)?;
        reply
            .as_array()
            .ok_or_else(|| anyhow::anyhow!("worker protocol: bad values"))?
            .iter()
            .map(value_from_json)
            .collect()
    }

    /// Every option of `position` with its value; `None` when it has more than `limit`, which
    /// the worker finds before it formats or values any (millions of options would take
    /// gigabytes as text and values, only to be refused).
    pub fn options_with_values(
        &mut self,
        position: &ScriptPosition,
        limit: usize,
    ) -> anyhow::Result<Option<Vec<ScriptOption>>> {
        self.options_request(
            json!({ "op": "options", "position": position_to_json(position), "limit": limit }),
            position,
        )
    }

    /// The options of `position` whose value is `target`, filtered by the worker.
    pub fn options_to_value(
        &mut self,
        position: &ScriptPosition,
        target: &BigUint,
        limit: usize,
    ) -> anyhow::Result<Option<Vec<ScriptOption>>> {
        let request = json!({
            "op": "options_to_value",
            "position": position_to_json(position),
            "target": target.to_string(),
            "limit": limit,
        });
        self.options_request(request, position)
    }

    fn options_request(
        &mut self,
        request: Json,
        position: &ScriptPosition,
    ) -> anyhow::Result<Option<Vec<ScriptOption>>> {
        let reply = self.request(request, &format!("listing the options of {position}"))?;
        if reply.get("more_than").is_some() {
            return Ok(None);
        }
        let list = reply.as_array().ok_or_else(|| anyhow::anyhow!("worker protocol: bad options"))?;
        list.iter()
            .map(|option| {
                Ok(ScriptOption {
                    parts: positions_from_json(&option["parts"])?,
                    texts: option["texts"]
                        .as_array()
                        .and_then(|texts| texts.iter().map(|text| text.as_str().map(str::to_owned)).collect())
                        .ok_or_else(|| anyhow::anyhow!("worker protocol: bad texts"))?,
                    value: value_from_json(&option["value"])?,
                })
            })
            .collect::<anyhow::Result<_>>()
            .map(Some)
    }

    /// `G(from) … G(to)` of an integer-position game.
    pub fn sequence(&mut self, from: u64, to: u64) -> anyhow::Result<Vec<u64>> {
        let reply = self
            .request(json!({ "op": "sequence", "from": from, "to": to }), &format!("computing G({from}) … G({to})"))?;
        reply
            .as_array()
            .and_then(|values| values.iter().map(Json::as_u64).collect())
            .ok_or_else(|| anyhow::anyhow!("worker protocol: bad sequence"))
    }

    /// Starts the worker and reads its greeting (the script's name, description and start).
    fn start_worker(&mut self) -> anyhow::Result<Json> {
        let mut command = crate::own_command::command()?;
        command.arg("__script-worker").arg(&self.path);
        if self.formula {
            command.arg("--formula");
        }
        let (positions, note) = self.positions_allowed();
        if let Some(note) = note {
            command.arg("--positions-note").arg(note);
        }
        command
            .arg("--max-ops")
            .arg(self.options.max_ops.to_string())
            .arg("--max-positions")
            .arg(positions.to_string())
            .arg("--max-heap-bytes")
            .arg(self.options.heap_bytes().to_string())
            .arg("--max-call-millis")
            .arg(self.options.max_call_millis.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        crate::os::limit_child(&mut command, self.options.memory_cap);
        if crate::signals::received().is_some() {
            return Err(anyhow::Error::new(Stop::Interrupted(format!("interrupted before loading {}", self.label()))));
        }
        if let Some(note) = CAP_LOWERED.get() {
            static SAID: std::sync::Once = std::sync::Once::new();
            SAID.call_once(|| eprintln!("{note}"));
        }
        let mut child = command
            .spawn()
            .map_err(|error| anyhow::anyhow!("cannot start the script worker for `{}`: {error}", self.path))?;
        crate::signals::add_worker(child.id());
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        self.worker = Some(Worker { child, stdin, stdout });
        match self.read_reply(&format!("loading {}", self.path)) {
            Ok(hello) => Ok(hello),
            Err(error) => {
                self.stop_worker();
                Err(error)
            }
        }
    }

    fn request(&mut self, request: Json, during: &str) -> anyhow::Result<Json> {
        if self.worker.is_none() {
            self.start_worker()?;
        }
        let worker = self.worker.as_mut().expect("started above");
        // One write: the pipe is unbuffered, and writing the JSON as it is formatted would
        // make a system call of each of its pieces (a request of 65536 positions, 300000).
        let line = format!("{request}\n");
        let sent = worker.stdin.write_all(line.as_bytes()).and_then(|()| worker.stdin.flush());
        if sent.is_err() {
            return Err(self.death(during));
        }
        self.read_reply(during)
    }

    fn read_reply(&mut self, during: &str) -> anyhow::Result<Json> {
        let worker = self.worker.as_mut().expect("a worker runs");
        let mut line = String::new();
        let read = worker.stdout.read_line(&mut line);
        if !matches!(read, Ok(count) if count > 0) {
            return Err(self.death(during));
        }
        let reply: Json = serde_json::from_str(&line).map_err(|_| anyhow::anyhow!("worker protocol: bad reply"))?;
        self.note_held(&reply);
        if let Some(message) = reply.get("error").and_then(Json::as_str) {
            // A worker that stopped after an interpreter panic is restarted on the next request.
            if message.starts_with("the script made the interpreter fail") {
                self.stop_worker();
            }
            anyhow::bail!("{message}");
        }
        Ok(reply["ok"].clone())
    }

    /// The error for a worker that died, from its exit status and stderr; the next request
    /// starts a new one.
    fn death(&mut self, during: &str) -> anyhow::Error {
        let Some(mut worker) = self.worker.take() else {
            return anyhow::anyhow!("the script worker is not running");
        };
        // A dead worker holds nothing.
        self.held = None;
        drop(worker.stdin);
        let status = worker.child.wait().ok();
        crate::signals::remove_worker(worker.child.id());
        if crate::signals::received().is_some() {
            // The signal's handler killed the worker: say what was interrupted, not how.
            return anyhow::Error::new(Stop::Interrupted(format!("{}: interrupted while {during}", self.label())));
        }
        let mut stderr = String::new();
        if let Some(mut pipe) = worker.child.stderr.take() {
            let _ = pipe.read_to_string(&mut stderr);
        }
        let cap = grundy::error::human_bytes(u128::from(self.options.memory_cap));
        if let Some(at) = stderr.find(note::OUT_OF_MEMORY) {
            let position = stderr[at + note::OUT_OF_MEMORY.len()..].lines().next().unwrap_or("").trim();
            return anyhow::anyhow!(
                "{}: the script ran out of its memory cap of {cap} (--memory-cap) while expanding position {position}",
                self.label()
            );
        }
        if stderr.contains("memory allocation of") || stderr.contains("out of memory") {
            return anyhow::anyhow!(
                "{}: the script ran out of its memory cap of {cap} (--memory-cap) while {during}",
                self.label()
            );
        }
        if let Some(at) = stderr.find(note::CALL_TOO_LONG) {
            let rest = stderr[at + note::CALL_TOO_LONG.len()..].lines().next().unwrap_or("").trim_end();
            let during = if rest.is_empty() { format!(" while {during}") } else { rest.to_owned() };
            return anyhow::anyhow!(
                "{}: {}{during}",
                self.label(),
                grundy::script::call_time_exceeded(self.options.max_call_millis)
            );
        }
        if stderr.contains("overflowed its stack") {
            return anyhow::anyhow!("{}: the script overflowed the stack while {during}", self.label());
        }
        let how = match status {
            Some(status) => describe_status(status),
            None => "stopped".to_owned(),
        };
        anyhow::anyhow!("{}: the script's worker process {how} while {during}", self.label())
    }

    fn stop_worker(&mut self) {
        self.held = None;
        if let Some(mut worker) = self.worker.take() {
            let _ = worker.child.kill();
            let _ = worker.child.wait();
            crate::signals::remove_worker(worker.child.id());
        }
    }
}

/// The worker's answers, each failure as its one line.
impl MovesBackend<ScriptPosition> for ScriptProxy {
    fn name(&self) -> &str {
        ScriptProxy::name(self)
    }
    fn method(&self) -> String {
        grundy::script::SCRIPT_METHOD.to_owned()
    }
    fn description(&self) -> &str {
        ScriptProxy::description(self)
    }
    fn start(&self) -> Option<&[ScriptPosition]> {
        ScriptProxy::start(self)
    }
    fn shape(&mut self) -> Result<Shape, String> {
        ScriptProxy::shape(self).map_err(one_line)
    }
    fn parse(&mut self, texts: &[String]) -> Result<Vec<ScriptPosition>, String> {
        ScriptProxy::parse(self, texts).map_err(one_line)
    }
    fn format(&mut self, positions: &[ScriptPosition]) -> Result<Vec<String>, String> {
        ScriptProxy::format(self, positions).map_err(one_line)
    }
    fn values(&mut self, positions: &[ScriptPosition]) -> Result<Vec<Value>, String> {
        ScriptProxy::values(self, positions).map_err(one_line)
    }
    fn options_with_values(
        &mut self,
        position: &ScriptPosition,
        limit: usize,
    ) -> Result<Option<Vec<ScriptOption>>, String> {
        ScriptProxy::options_with_values(self, position, limit).map_err(one_line)
    }
    fn options_to_value(
        &mut self,
        position: &ScriptPosition,
        target: &BigUint,
        limit: usize,
    ) -> Result<Option<Vec<ScriptOption>>, String> {
        ScriptProxy::options_to_value(self, position, target, limit).map_err(one_line)
    }
    fn sequence(&mut self, from: u64, to: u64) -> Result<Vec<u64>, String> {
        ScriptProxy::sequence(self, from, to).map_err(one_line)
    }
}

/// An error of the worker as one line, its causes after it.
fn one_line(error: anyhow::Error) -> String {
    format!("{error:#}")
}

impl Drop for ScriptProxy {
    fn drop(&mut self) {
        if self.options.stats
            && !self.formula
            && self.worker.is_some()
            && let Ok((positions, expansions, held)) = self.stats()
        {
            eprintln!(
                "grundy: {}: the memo held {positions} positions, `moves` ran {expansions} times, the worker held {held} bytes",
                self.label()
            );
        }
        if let Some(worker) = self.worker.take() {
            // Closing its stdin ends the worker's loop.
            let Worker { mut child, stdin, stdout } = worker;
            drop(stdin);
            drop(stdout);
            let _ = child.wait();
            crate::signals::remove_worker(child.id());
        }
    }
}

fn describe_status(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(signal)) => format!("was killed by signal {signal}"),
        _ => "stopped".to_owned(),
    }
}

/// Reads `script:PATH` from a game word.
pub fn script_path(game: &str) -> Option<&str> {
    game.strip_prefix("script:")
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::position_from_json;

    #[test]
    fn default_position_limit_follows_the_cap() {
        let options = ScriptOptions { memory_cap: 2000, ..ScriptOptions::default() };
        assert_eq!(options.positions(), 10);
        assert_eq!(ScriptOptions::default().heap_bytes(), 1 << 30);
        let _ = position_from_json(&json!({"int": "3"})).unwrap();
    }
}
