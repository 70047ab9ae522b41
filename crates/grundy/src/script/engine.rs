//! Loading a Starlark game file and calling its functions, with every limit in force.

use super::position::ScriptPosition;
use super::solver::{OptionList, OptionSink, SplitGame, heap_key, pair_key};
use crate::error::GameError;
use num_bigint::BigUint;
use starlark::environment::{FrozenModule, GlobalsBuilder, Module};
use starlark::eval::Evaluator;
use starlark::syntax::{AstModule, Dialect};
use starlark::values::list::ListRef;
use starlark::values::structs::{AllocStruct, StructRef};
use starlark::values::tuple::{AllocTuple, TupleRef, UnpackTuple};
use starlark::values::{Heap, OwnedFrozenValue, UnpackValue, Value};
use starlark_num_bigint::BigInt as StarlarkBigInt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The field of the struct that `Sum(a, b, …)` returns; a script cannot make such a struct
/// itself (the standard dialect has no `struct`).
const SUM_FIELD: &str = "__grundy_sum_parts__";

/// The limits a script runs under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptLimits {
    /// Operations (function calls and loop iterations) one call of a script function may make.
    pub max_ops: u64,
    /// Bytes of Starlark heap one call may allocate (best effort: checked between steps, so
    /// one giant step is stopped only by a process memory cap).
    pub max_heap_bytes: usize,
    /// Positions the solver may remember.
    pub max_positions: usize,
    /// Wall-clock milliseconds one call of a script function (or the top level) may take; 0
    /// for no limit. Checked between steps, like the heap limit: one step of huge arithmetic
    /// (squaring a number of a million digits) is stopped only by a watchdog that reads
    /// [`CallClock::running_call_time`] (the CLI's worker process has one).
    pub max_call_millis: u64,
    /// Where the calls of the games loaded with these limits (and their clones) mark when
    /// they started, for such a watchdog.
    pub call_clock: CallClock,
}

impl Default for ScriptLimits {
    /// 10^7 operations a call, 1 GiB of script heap, 20 million positions, 60 s a call.
    fn default() -> Self {
        ScriptLimits {
            max_ops: 10_000_000,
            max_heap_bytes: 1 << 30,
            max_positions: 20_000_000,
            max_call_millis: 60_000,
            call_clock: CallClock::default(),
        }
    }
}

/// When the script call running now started, shared by the clones of one [`ScriptLimits`], so
/// that a watchdog thread can see a call stuck in one step, where the evaluator's own checks
/// never run. Clones are the same clock (and compare equal); each `default()` is a new one.
#[derive(Clone, Debug)]
pub struct CallClock {
    /// Nanoseconds from `epoch` to the start of the call running now, plus one; 0 while no
    /// call runs.
    started: Arc<AtomicU64>,
    epoch: Instant,
}

impl Default for CallClock {
    fn default() -> Self {
        CallClock { started: Arc::new(AtomicU64::new(0)), epoch: Instant::now() }
    }
}

impl PartialEq for CallClock {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.started, &other.started)
    }
}

impl Eq for CallClock {}

impl CallClock {
    /// How long the script call running now on this clock (in any thread) has been running,
    /// if one is.
    pub fn running_call_time(&self) -> Option<Duration> {
        let started = self.started.load(Ordering::Acquire);
        (started != 0).then(|| self.epoch.elapsed().saturating_sub(Duration::from_nanos(started - 1)))
    }
}

/// Marks a script call as running on a clock from its creation until it is dropped.
struct RunningCall<'c>(&'c CallClock);

impl<'c> RunningCall<'c> {
    fn begin(clock: &'c CallClock) -> Self {
        let since_epoch = u64::try_from(clock.epoch.elapsed().as_nanos()).unwrap_or(u64::MAX - 1);
        clock.started.store(since_epoch + 1, Ordering::Release);
        RunningCall(clock)
    }
}

impl Drop for RunningCall<'_> {
    fn drop(&mut self) {
        self.0.started.store(0, Ordering::Release);
    }
}

/// A game written as a Starlark script: `moves(position)` and the optional `show`, `parse`,
/// `start`, `NAME`, `DESCRIPTION`.
///
/// ```
/// use grundy::script::{ScriptGame, ScriptLimits, ScriptPosition};
/// let source = "NAME = 'take-1-2'\ndef moves(n):\n    return [n - s for s in [1, 2] if s <= n]\n";
/// let game = ScriptGame::load("take.star", source, ScriptLimits::default()).unwrap();
/// assert_eq!(game.name(), "take-1-2");
/// let options = game.options(&ScriptPosition::Int(5)).unwrap();
/// assert_eq!(options, vec![vec![ScriptPosition::Int(4)], vec![ScriptPosition::Int(3)]]);
/// ```
pub struct ScriptGame {
    path: String,
    name: String,
    description: String,
    /// The script's functions, taken from its frozen top level once at load. Each call
    /// reaches the one it needs from the call's fresh heap with
    /// `Heap::access_owned_frozen_value`, which makes that heap keep the script's frozen heap
    /// alive (the crate's safe API; no import of the module, no parsing per call).
    moves: OwnedFrozenValue,
    show: Option<OwnedFrozenValue>,
    parse: Option<OwnedFrozenValue>,
    start: Option<OwnedFrozenValue>,
    limits: ScriptLimits,
    cancelled: Option<Arc<AtomicBool>>,
}

/// A contest helper given a number it is not defined for (`isqrt(-1)`).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct HelperError(String);

/// `n`, refused when negative: the helpers below are defined on whole numbers.
fn whole(name: &str, n: StarlarkBigInt) -> starlark::Result<StarlarkBigInt> {
    if n.sign() == starlark_num_bigint::Sign::Minus {
        return Err(starlark::Error::new_other(HelperError(format!("{name}({n}): the number must not be negative"))));
    }
    Ok(n)
}

#[starlark::starlark_module]
fn grundy_builtins(builder: &mut GlobalsBuilder) {
    /// `isqrt(n)`: the integer square root, the largest `r` with `r * r <= n` (n >= 0), exact
    /// for numbers of any size.
    fn isqrt(#[starlark(require = pos)] n: StarlarkBigInt) -> starlark::Result<StarlarkBigInt> {
        Ok(whole("isqrt", n)?.sqrt())
    }

    /// `gcd(a, b)`: the greatest common divisor of `a` and `b` (never negative; `gcd(0, 0)`
    /// is 0).
    fn gcd(
        #[starlark(require = pos)] a: StarlarkBigInt,
        #[starlark(require = pos)] b: StarlarkBigInt,
    ) -> starlark::Result<StarlarkBigInt> {
        use num_integer::Integer;
        Ok(a.gcd(&b))
    }

    /// `popcount(n)`: how many 1 bits `n` has in binary (n >= 0).
    fn popcount(#[starlark(require = pos)] n: StarlarkBigInt) -> starlark::Result<u64> {
        Ok(whole("popcount", n)?.magnitude().count_ones())
    }

    /// `bit_length(n)`: how many binary digits `n` has without its sign (0 for 0), as
    /// Python's `int.bit_length`.
    fn bit_length(#[starlark(require = pos)] n: StarlarkBigInt) -> starlark::Result<u64> {
        Ok(n.bits())
    }

    /// `Sum(a, b, ...)`: an option that splits into independent games; its value is the
    /// nim-sum of the parts' values.
    #[allow(non_snake_case)]
    fn Sum<'v>(#[starlark(args)] parts: UnpackTuple<Value<'v>>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        let tuple = heap.alloc(AllocTuple(parts.items));
        Ok(heap.alloc(AllocStruct([(SUM_FIELD, tuple)])))
    }
}

/// What a script call is about, for error messages.
enum Argument<'a> {
    Position(&'a ScriptPosition),
    Text(&'a str),
    Nothing,
}

impl ScriptGame {
    /// Parses and runs the top level of `source` (named `path` in messages).
    ///
    /// # Errors
    /// [`GameError::BadGame`] for a syntax or runtime error (with file, line and column), a
    /// missing `moves`, or a `NAME` that is not a string.
    pub fn load(path: &str, source: &str, limits: ScriptLimits) -> Result<ScriptGame, GameError> {
        Self::load_with_cancel(path, source, limits, None)
    }

    /// As [`ScriptGame::load`], with a flag that stops any script call (load included) as soon
    /// as it is set (the evaluator's cancellation hook).
    ///
    /// # Errors
    /// As [`ScriptGame::load`].
    pub fn load_with_cancel(
        path: &str,
        source: &str,
        limits: ScriptLimits,
        cancelled: Option<Arc<AtomicBool>>,
    ) -> Result<ScriptGame, GameError> {
        let spec = format!("script:{path}");
        let bad = |reason: String| GameError::BadGame { spec: spec.clone(), reason };
        let ast = AstModule::parse(path, source.to_owned(), &Dialect::Standard)
            .map_err(|error| bad(format!("syntax error: {}", one_line(&error))))?;
        let globals = GlobalsBuilder::standard().with(grundy_builtins).build();
        let module = Module::with_temp_heap(|module| -> Result<FrozenModule, GameError> {
            {
                let _running = RunningCall::begin(&limits.call_clock);
                let started = Instant::now();
                let mut eval = Evaluator::new(&module);
                configure(&mut eval, &limits, &cancelled, started);
                eval.eval_module(ast, &globals).map_err(|error| bad(describe_error(&limits, started, &error)))?;
            }
            module.freeze().map_err(|error| bad(format!("cannot freeze the module: {error:?}")))
        })?;
        let function = |name: &str| module.get(name).ok();
        let text_constant = |name: &str| -> Result<Option<String>, GameError> {
            match function(name) {
                None => Ok(None),
                Some(value) => value
                    .value()
                    .unpack_str()
                    .map(|text| Some(text.to_owned()))
                    .ok_or_else(|| bad(format!("`{name}` must be a string, not {}", value.value().get_type()))),
            }
        };
        let Some(moves) = function("moves") else {
            return Err(bad("the script defines no `moves(position)` function".to_owned()));
        };
        let stem = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let stem = stem.strip_suffix(".star").unwrap_or(stem);
        Ok(ScriptGame {
            path: path.to_owned(),
            name: text_constant("NAME")?.unwrap_or_else(|| stem.to_owned()),
            description: text_constant("DESCRIPTION")?.unwrap_or_default(),
            moves,
            show: function("show"),
            parse: function("parse"),
            start: function("start"),
            limits,
            cancelled,
        })
    }

    /// The game's `NAME` (the file name without `.star` when it has none).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The game's `DESCRIPTION` (empty when it has none).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The file name given at load.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The limits in force.
    pub fn limits(&self) -> &ScriptLimits {
        &self.limits
    }

    /// The flag that stops this game's calls, if it has one.
    pub fn cancel_flag(&self) -> Option<Arc<AtomicBool>> {
        self.cancelled.clone()
    }

    /// Whether the script defines `show`: without it a position's text is its default form
    /// ([`ScriptPosition`]'s `Display`), which a front end can write without calling the script.
    pub fn has_show(&self) -> bool {
        self.show.is_some()
    }

    /// Whether the script defines `parse`: without it a text is read by
    /// [`ScriptPosition::parse_default`], which a front end can call without the script.
    pub fn has_parse(&self) -> bool {
        self.parse.is_some()
    }

    /// The game word, `script:PATH`.
    pub fn spec(&self) -> String {
        format!("script:{}", self.path)
    }

    /// The components of the script's `start()` position (a `Sum` gives several), or `None`
    /// when the script has no `start`.
    ///
    /// # Errors
    /// A script error, or a value that is not a position.
    pub fn start(&self) -> Result<Option<Vec<ScriptPosition>>, GameError> {
        let Some(start) = &self.start else {
            return Ok(None);
        };
        self.call(start, Argument::Nothing, |game, value| match game.option_parts(value, "start()")? {
            Parts::One(position) => Ok(Some(vec![position])),
            Parts::Sum(parts) => Ok(Some(parts)),
        })
    }

    /// Reads one component: the script's `parse(text)`, or
    /// [`ScriptPosition::parse_default`].
    ///
    /// # Errors
    /// [`GameError::BadComponent`] naming the text.
    pub fn parse(&self, text: &str) -> Result<ScriptPosition, GameError> {
        let Some(parse) = &self.parse else {
            return ScriptPosition::parse_default(text, &self.spec());
        };
        let bad = |reason: String| GameError::BadComponent { game: self.spec(), text: text.to_owned(), reason };
        let result = self.call(parse, Argument::Text(text), |game, value| {
            game.to_position(value).map_err(|reason| GameError::Unsupported(format!("`parse` returned {reason}")))
        });
        result.map_err(|error| match error {
            GameError::Unsupported(reason) | GameError::BadGame { reason, .. } => bad(reason),
            other => other,
        })
    }

    /// A position as text: the script's `show(position)`, or the default form.
    ///
    /// # Errors
    /// A script error, or a `show` that does not return a string.
    pub fn format(&self, position: &ScriptPosition) -> Result<String, GameError> {
        let Some(show) = &self.show else {
            return Ok(position.to_string());
        };
        self.call(show, Argument::Position(position), |game, value| {
            value.unpack_str().map(str::to_owned).ok_or_else(|| {
                game.failure(
                    Argument::Position(position),
                    format!("`show` returned {} of type {}, not a string", short(value), value.get_type()),
                )
            })
        })
    }

    /// Every option of `position`, each as its independent parts (a plain option is one
    /// part; `Sum(a, b)` is two).
    ///
    /// # Errors
    /// A script error or a bad returned value, naming the value and the position.
    pub fn options(&self, position: &ScriptPosition) -> Result<Vec<Vec<ScriptPosition>>, GameError> {
        let mut list = OptionList::new();
        self.expand(position, &mut list)?;
        Ok(list.iter().map(<[ScriptPosition]>::to_vec).collect())
    }

    /// Calls `function` with a fresh heap and evaluator (the crate's safe API: nothing outlives
    /// the call; a fresh evaluator gives each call the whole operation budget), every limit set.
    fn call<R>(
        &self,
        function: &OwnedFrozenValue,
        argument: Argument<'_>,
        convert: impl for<'v> FnOnce(&Self, Value<'v>) -> Result<R, GameError>,
    ) -> Result<R, GameError> {
        Module::with_temp_heap(|module| {
            let _running = RunningCall::begin(&self.limits.call_clock);
            let started = Instant::now();
            let mut eval = Evaluator::new(&module);
            configure(&mut eval, &self.limits, &self.cancelled, started);
            let heap = module.heap();
            let function = heap.access_owned_frozen_value(function);
            let result = match &argument {
                Argument::Position(position) => eval.eval_function(function, &[alloc_position(heap, position)], &[]),
                Argument::Text(text) => eval.eval_function(function, &[heap.alloc(*text)], &[]),
                Argument::Nothing => eval.eval_function(function, &[], &[]),
            };
            drop(eval);
            match result {
                Ok(value) => convert(self, value),
                Err(error) => Err(self.failure(argument, describe_error(&self.limits, started, &error))),
            }
        })
    }

    /// Calls `moves(position)` and hands the parts of each option it returns to `each`, in
    /// order, checked.
    fn moves_of(&self, position: &ScriptPosition, each: &mut OptionSink<'_, ScriptPosition>) -> Result<(), GameError> {
        self.call(&self.moves, Argument::Position(position), |game, value| {
            let items = sequence_items(value).ok_or_else(|| {
                game.failure(
                    Argument::Position(position),
                    format!("`moves` returned `{}` of type {}, not a list of options", short(value), value.get_type()),
                )
            })?;
            // The entries of every plain tuple option are read into this one buffer, which
            // `each` borrows (the solver copies a position only the first time it meets it):
            // no allocation per option.
            let mut entries: Vec<i64> = Vec::new();
            for &item in items {
                // Most options are small ints or tuples of them: read those before looking
                // for a `Sum` (a type check that every plain option would fail).
                match read_plain(item, &mut entries) {
                    Some(Plain::Heap(heap)) => each(&[ScriptPosition::Int(heap)])?,
                    Some(Plain::Tuple) => {
                        let option = [ScriptPosition::Tuple(std::mem::take(&mut entries))];
                        let result = each(&option);
                        let [ScriptPosition::Tuple(buffer)] = option else { unreachable!("built as a tuple above") };
                        entries = buffer;
                        result?;
                    }
                    None => {
                        if let Some(parts) = sum_parts(item) {
                            let mut converted = Vec::with_capacity(parts.len());
                            for part in parts {
                                converted.push(game.to_position(part).map_err(|reason| {
                                    game.failure(
                                        Argument::Position(position),
                                        format!("`moves` returned a Sum with {reason}"),
                                    )
                                })?);
                            }
                            each(&converted)?;
                        } else {
                            let option = game.to_position(item).map_err(|reason| {
                                game.failure(
                                    Argument::Position(position),
                                    format!("`moves` returned the option {reason}"),
                                )
                            })?;
                            each(std::slice::from_ref(&option))?;
                        }
                    }
                }
            }
            Ok(())
        })
    }

    fn failure(&self, argument: Argument<'_>, reason: String) -> GameError {
        let during = match argument {
            Argument::Position(position) => format!("while expanding position {}", position_words(position)),
            Argument::Text(text) => format!("while reading `{text}`"),
            Argument::Nothing => "in start()".to_owned(),
        };
        GameError::Unsupported(format!("{}: {reason} ({during})", self.spec()))
    }

    /// One option: a position or `Sum(...)` of positions.
    fn option_parts(&self, value: Value<'_>, context: &str) -> Result<Parts, GameError> {
        if let Some(parts) = sum_parts(value) {
            let positions: Result<Vec<ScriptPosition>, String> =
                parts.iter().map(|&part| self.to_position(part)).collect();
            return positions
                .map(Parts::Sum)
                .map_err(|reason| GameError::Unsupported(format!("{}: {context} returned {reason}", self.spec())));
        }
        self.to_position(value)
            .map(Parts::One)
            .map_err(|reason| GameError::Unsupported(format!("{}: {context} returned {reason}", self.spec())))
    }

    /// Reads a returned value as a position, or says what is wrong with it.
    fn to_position(&self, value: Value<'_>) -> Result<ScriptPosition, String> {
        // The common forms first: a small int, then a list or tuple of small ints (a bool is
        // never an inline int, so `unpack_i32` does not take one for an integer).
        if let Some(small) = value.unpack_i32() {
            return u64::try_from(small)
                .map(ScriptPosition::Int)
                .map_err(|_| format!("the heap `{small}`: a heap cannot be negative"));
        }
        if let Some(items) = sequence_items(value) {
            let mut entries = Vec::with_capacity(items.len());
            for &item in items {
                if let Some(entry) = item.unpack_i32() {
                    entries.push(i64::from(entry));
                    continue;
                }
                match to_integer(item) {
                    Some(Integer::Small(entry)) if item.unpack_bool().is_none() => entries.push(entry),
                    Some(Integer::Big(_)) => {
                        return Err(format!(
                            "`{}`, a {} with the entry `{}`, past the limit of a tuple's entries: each is an integer from \
                             -2^63 to 2^63 - 1 (-9223372036854775808 to 9223372036854775807); a larger number can be a \
                             heap of its own, an int position of any size (`Sum(heap, rest)`)",
                            short(value),
                            value.get_type(),
                            short(item)
                        ));
                    }
                    _ => {
                        return Err(format!(
                            "`{}`, a {} with the entry `{}` that is not an integer fitting 64 bits: {POSITION_FORMS}",
                            short(value),
                            value.get_type(),
                            short(item)
                        ));
                    }
                }
            }
            return Ok(ScriptPosition::Tuple(entries));
        }
        if let Some(text) = value.unpack_str() {
            return Ok(ScriptPosition::Str(text.to_owned()));
        }
        if value.unpack_bool().is_some() {
            return Err(format!("`{}`, a bool: {POSITION_FORMS}", short(value)));
        }
        if let Some(heap) = to_integer(value) {
            return match heap {
                Integer::Small(small) if small >= 0 => Ok(ScriptPosition::Int(small as u64)),
                Integer::Big(big) if big.sign() != starlark_num_bigint::Sign::Minus => {
                    Ok(ScriptPosition::from_heap(BigUint::from_bytes_le(&big.to_bytes_le().1)))
                }
                _ => Err(format!("the heap `{}`: a heap cannot be negative", short(value))),
            };
        }
        if sum_parts(value).is_some() {
            return Err(format!("`{}`, a Sum inside a position: Sum(...) is an option on its own", short(value)));
        }
        Err(format!("`{}` of type {}: {POSITION_FORMS}", short(value), value.get_type()))
    }
}

const POSITION_FORMS: &str = "a position is a non-negative int, a list or tuple of ints, or a string";

/// One option (or the start position): a position, or the parts of a `Sum`.
enum Parts {
    One(ScriptPosition),
    Sum(Vec<ScriptPosition>),
}

enum Integer {
    Small(i64),
    Big(StarlarkBigInt),
}

fn to_integer(value: Value<'_>) -> Option<Integer> {
    if let Some(small) = value.unpack_i32() {
        return Some(Integer::Small(i64::from(small)));
    }
    let big = StarlarkBigInt::unpack_value(value).ok().flatten()?;
    Some(match i64::try_from(&big) {
        Ok(small) => Integer::Small(small),
        Err(_) => Integer::Big(big),
    })
}

/// The items of a tuple or list, borrowed (no copy).
fn sequence_items<'v>(value: Value<'v>) -> Option<&'v [Value<'v>]> {
    if let Some(tuple) = TupleRef::from_value(value) {
        return Some(tuple.content());
    }
    ListRef::from_value(value).map(ListRef::content)
}

/// A plain option read by [`read_plain`].
#[derive(Debug, PartialEq, Eq)]
enum Plain {
    /// A heap.
    Heap(u64),
    /// A tuple, whose entries are in the buffer.
    Tuple,
}

/// Reads `value` when it is a non-negative int of 32 bits, or a tuple or list of ints of 32
/// bits whose entries it writes into `entries` (cleared first): the common forms, read without
/// any other type check. `None` for anything else (`entries` then holds nothing useful), which
/// [`ScriptGame::to_position`] then reads or refuses.
fn read_plain(value: Value<'_>, entries: &mut Vec<i64>) -> Option<Plain> {
    if let Some(small) = value.unpack_i32() {
        return u64::try_from(small).ok().map(Plain::Heap);
    }
    let items = sequence_items(value)?;
    entries.clear();
    for item in items {
        entries.push(i64::from(item.unpack_i32()?));
    }
    Some(Plain::Tuple)
}

fn sum_parts<'v>(value: Value<'v>) -> Option<Vec<Value<'v>>> {
    let fields = StructRef::from_value(value)?;
    let (name, parts) = fields.iter().next()?;
    if name.as_str() != SUM_FIELD {
        return None;
    }
    TupleRef::from_value(parts).map(|tuple| tuple.content().to_vec())
}

pub(super) fn alloc_position<'v>(heap: Heap<'v>, position: &ScriptPosition) -> Value<'v> {
    match position {
        ScriptPosition::Int(small) => match i64::try_from(*small) {
            Ok(small) => heap.alloc(small),
            Err(_) => heap.alloc(StarlarkBigInt::from(*small)),
        },
        ScriptPosition::Big(big) => {
            heap.alloc(StarlarkBigInt::from_bytes_le(starlark_num_bigint::Sign::Plus, &big.to_bytes_le()))
        }
        ScriptPosition::Tuple(entries) => {
            let items: Vec<Value> = entries.iter().map(|&entry| heap.alloc(entry)).collect();
            heap.alloc(AllocTuple(items))
        }
        ScriptPosition::Str(text) => heap.alloc(text.as_str()),
    }
}

/// Sets every limit on `eval`, for a call that began at `started`.
fn configure(
    eval: &mut Evaluator<'_, '_, '_>,
    limits: &ScriptLimits,
    cancelled: &Option<Arc<AtomicBool>>,
    started: Instant,
) {
    // Both setters fail only for zero or a second call; zero means no limit here.
    if limits.max_ops > 0 {
        let _ = eval.set_max_tick_count(limits.max_ops);
    }
    if limits.max_heap_bytes > 0 {
        let _ = eval.set_max_heap_size(limits.max_heap_bytes);
    }
    let deadline = (limits.max_call_millis > 0).then(|| started + Duration::from_millis(limits.max_call_millis));
    if cancelled.is_some() || deadline.is_some() {
        let flag = cancelled.clone();
        eval.set_check_cancelled(Box::new(move || {
            flag.as_ref().is_some_and(|flag| flag.load(Ordering::Relaxed))
                || deadline.is_some_and(|deadline| Instant::now() >= deadline)
        }));
    }
}

/// A script error as one line, naming the limit it passed, for a call that began at `started`.
fn describe_error(limits: &ScriptLimits, started: Instant, error: &starlark::Error) -> String {
    let text = one_line(error);
    let lower = text.to_lowercase();
    if lower.contains("ticks has been exceeded") {
        return format!("the script used up its budget of {} operations (--max-ops): {text}", limits.max_ops);
    }
    if lower.contains("evaluation cancelled") {
        if limits.max_call_millis > 0 && started.elapsed() >= Duration::from_millis(limits.max_call_millis) {
            return format!("{}: {text}", call_time_exceeded(limits.max_call_millis));
        }
        return format!("the script was stopped: {text}");
    }
    if lower.contains("heap memory limit") {
        return format!(
            "the script passed its heap limit of {} (a call gets a quarter of --memory-cap, at most 1 GiB): {text}",
            crate::error::human_bytes(limits.max_heap_bytes as u128)
        );
    }
    if let Some(at) = lower.find("error unpacking value for parameter")
        && lower.contains("of type `int")
    {
        // `range(2147483647 + 1)`, `range(10**10)`: Starlark's range and indices are 32-bit.
        return format!(
            "{}a number past Starlark's 32-bit limit: `range` and list indices take numbers from -2^31 to 2^31 - 1 \
             (2147483647); loop over a smaller range, or compute the answer with arithmetic",
            &text[..at]
        );
    }
    format!("{text}{}", hint(&lower))
}

/// What to do about the Starlark errors a contest script meets most, which name the
/// interpreter's insides rather than the mistake.
fn hint(lower: &str) -> &'static str {
    if lower.contains("error unpacking value for parameter") && lower.contains("of type `int") {
        // `range(2147483647)`, `range(10**10)`: Starlark's range and indices are 32-bit.
        " (Starlark's `range` and list indices take numbers below 2^31 = 2147483648: loop over a smaller range, \
         or compute the answer with arithmetic)"
    } else if lower.contains("operation") && lower.contains("not supported on type `int`") {
        // A position `5` given to a script whose `moves` expects a tuple.
        " (the position is an integer here: a tuple position is written with commas, `5,0`, or read by the \
         script's own `parse(text)`)"
    } else {
        ""
    }
}

/// The message for a call past its wall-clock limit (also the worker's watchdog's).
pub fn call_time_exceeded(max_call_millis: u64) -> String {
    format!("a call of the script ran past its time limit of {} s (--script-timeout)", max_call_millis as f64 / 1000.0)
}

/// A Starlark error as one line: `file:line:column: message`.
fn one_line(error: &starlark::Error) -> String {
    let message = error.without_diagnostic().to_string();
    let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
    let location = error
        .span()
        .cloned()
        .or_else(|| error.call_stack().frames.iter().rev().find_map(|frame| frame.location.clone()));
    match location {
        Some(span) => {
            let resolved = span.resolve_span();
            format!("{}:{}:{}: {message}", span.filename(), resolved.begin.line + 1, resolved.begin.column + 1)
        }
        None => message,
    }
}

/// A value's text, cut to 80 characters (a script may return something huge).
fn short(value: Value<'_>) -> String {
    let text = value.to_repr();
    if text.chars().count() > 80 { format!("{}…", text.chars().take(80).collect::<String>()) } else { text }
}

fn position_words(position: &ScriptPosition) -> String {
    let text = match position {
        ScriptPosition::Str(text) => format!("{text:?}"),
        other => other.to_string(),
    };
    if text.chars().count() > 80 { format!("{}…", text.chars().take(80).collect::<String>()) } else { text }
}

impl SplitGame for ScriptGame {
    type State = ScriptPosition;

    fn expand(&self, position: &ScriptPosition, out: &mut OptionList<ScriptPosition>) -> Result<(), GameError> {
        self.moves_of(position, &mut |parts| {
            out.push_option(parts.iter().cloned());
            Ok(())
        })
    }

    fn for_each_option(
        &self,
        position: &ScriptPosition,
        _scratch: &mut OptionList<ScriptPosition>,
        each: &mut OptionSink<'_, ScriptPosition>,
    ) -> Result<(), GameError> {
        // Each option goes to the solver as soon as it is read (see the trait's note).
        self.moves_of(position, each)
    }

    fn describe(&self, position: &ScriptPosition) -> String {
        position_words(position)
    }

    fn compact_key(&self, position: &ScriptPosition) -> Option<u64> {
        compact_key(position)
    }
}

/// An exact 64-bit form of the common positions (see [`SplitGame::compact_key`]); the top two
/// bits tell the forms apart and each form packs its fields below them without overlap, so
/// the key is injective:
/// - `00`: a heap below 2^62, itself ([`heap_key`]);
/// - `01`: a tuple of one entry in -2^61..2^61, its low 62 bits;
/// - `10`: a pair of entries in -2^30..2^30, 31 bits each ([`pair_key`]);
/// - `11`: the empty tuple (the rest zero).
///
/// Other positions (bigger heaps or entries, longer tuples, strings) have no key.
fn compact_key(position: &ScriptPosition) -> Option<u64> {
    const TAG_SHIFT: u32 = 62;
    const LOW_62: u64 = (1 << 62) - 1;
    match position {
        ScriptPosition::Int(heap) => heap_key(*heap),
        ScriptPosition::Tuple(entries) => match entries.as_slice() {
            [] => Some(3 << TAG_SHIFT),
            [only] if (-(1i64 << 61)..1i64 << 61).contains(only) => Some(1 << TAG_SHIFT | (*only as u64 & LOW_62)),
            [first, second] => pair_key(*first, *second),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod speed_path_tests {
    //! The fast paths of the engine (compact memo keys, reading plain options without the
    //! general checks) against the plain ones.
    use super::*;
    use crate::script::solver::SplitSolver;
    use proptest::prelude::*;

    /// Positions near every boundary of the compact forms (2^62 for heaps, 2^30 for the entries
    /// of a pair, 2^61 for a single entry), and forms without a key.
    fn position() -> impl Strategy<Value = ScriptPosition> {
        let edges = |bits: u32| {
            let edge = 1i64 << bits;
            prop_oneof![-3i64..3, (-edge - 2)..(-edge + 2), (edge - 2)..(edge + 2), any::<i64>()]
        };
        prop_oneof![
            prop_oneof![0u64..4, (1u64 << 62) - 2..(1u64 << 62) + 2, any::<u64>()].prop_map(ScriptPosition::Int),
            proptest::collection::vec(edges(30), 0..4).prop_map(ScriptPosition::Tuple),
            edges(61).prop_map(|entry| ScriptPosition::Tuple(vec![entry])),
            "[a-c]{0,2}".prop_map(ScriptPosition::Str),
        ]
    }

    /// The same game without compact keys: the solver then memoizes by the position itself.
    struct WithoutKeys(ScriptGame);

    impl SplitGame for WithoutKeys {
        type State = ScriptPosition;
        fn expand(&self, position: &ScriptPosition, out: &mut OptionList<ScriptPosition>) -> Result<(), GameError> {
            self.0.expand(position, out)
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Two positions share a compact key only when they are equal.
        #[test]
        fn compact_keys_are_injective(first in position(), second in position()) {
            if let (Some(a), Some(b)) = (compact_key(&first), compact_key(&second)) {
                prop_assert_eq!(a == b, first == second, "{:?} and {:?}", first, second);
            }
            prop_assert_eq!(compact_key(&first), compact_key(&first.clone()));
        }

        /// Every pair and heap of the common sizes has a key.
        #[test]
        fn common_positions_have_keys(x in -(1i64 << 30)..1 << 30, y in -(1i64 << 30)..1 << 30, heap in 0u64..1 << 62) {
            prop_assert!(compact_key(&ScriptPosition::Tuple(vec![x, y])).is_some());
            prop_assert!(compact_key(&ScriptPosition::Int(heap)).is_some());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Reading a value through the fast path gives what the general reader gives (or
        /// leaves the value to it).
        #[test]
        fn plain_positions_read_as_the_general_reader_reads_them(
            entries in proptest::collection::vec(prop_oneof![-5i64..5, any::<i64>()], 0..4),
            as_list in any::<bool>(),
            single in any::<bool>(),
        ) {
            let game = ScriptGame::load("t.star", "def moves(n):\n    return []\n", ScriptLimits::default()).unwrap();
            Module::with_temp_heap(|module| -> Result<(), TestCaseError> {
                let heap = module.heap();
                let items: Vec<Value> = entries.iter().map(|&entry| heap.alloc(entry)).collect();
                let value = if single && !entries.is_empty() {
                    items[0]
                } else if as_list {
                    heap.alloc(items)
                } else {
                    heap.alloc(AllocTuple(items))
                };
                let mut entries = vec![99];
                let fast = match read_plain(value, &mut entries) {
                    Some(Plain::Heap(heap)) => Some(ScriptPosition::Int(heap)),
                    Some(Plain::Tuple) => Some(ScriptPosition::Tuple(entries)),
                    None => None,
                };
                if let Some(fast) = fast {
                    prop_assert_eq!(Ok(fast), game.to_position(value));
                }
                Ok(())
            })?;
        }

        /// The solver gives the same values with compact keys as without, on pair games whose
        /// entries may be negative or past 2^30 (then some positions have a key and some do
        /// not): Wythoff-like moves on a shifted board.
        #[test]
        fn compact_keys_do_not_change_values(
            shift in prop_oneof![Just(0i64), Just(-(1i64 << 30)), Just((1i64 << 30) - 6), -1000i64..1000],
            steps in proptest::collection::btree_set(1i64..5, 1..3),
        ) {
            let steps: Vec<String> = steps.iter().map(i64::to_string).collect();
            let source = format!(
                "def moves(p):\n    x, y = p\n    return [(x - s, y) for s in [{s}] if x - s >= {shift}] + [(x, y - s) for s in [{s}] if y - s >= {shift}] + [(x - s, y - s) for s in [{s}] if min(x, y) - s >= {shift}]\n",
                s = steps.join(", ")
            );
            let limits = ScriptLimits::default();
            let mut keyed = SplitSolver::new(ScriptGame::load("k.star", &source, limits.clone()).unwrap(), 100_000);
            let mut plain = SplitSolver::new(WithoutKeys(ScriptGame::load("k.star", &source, limits).unwrap()), 100_000);
            for x in 0..12 {
                for y in 0..12 {
                    let position = ScriptPosition::Tuple(vec![shift + x, shift + y]);
                    prop_assert_eq!(keyed.value(&position).unwrap(), plain.value(&position).unwrap(), "{:?}", position);
                }
            }
            prop_assert_eq!(keyed.positions_known(), plain.positions_known());
        }
    }
}
