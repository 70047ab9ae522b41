//! Loading a Starlark game file and calling its functions, with every limit in force.

use super::position::ScriptPosition;
use super::solver::{OptionList, SplitGame};
use crate::error::GameError;
use num_bigint::BigUint;
use starlark::environment::{FrozenModule, Globals, GlobalsBuilder, Module};
use starlark::eval::Evaluator;
use starlark::syntax::{AstModule, Dialect};
use starlark::values::list::ListRef;
use starlark::values::structs::{AllocStruct, StructRef};
use starlark::values::tuple::{AllocTuple, TupleRef, UnpackTuple};
use starlark::values::{Heap, UnpackValue, Value};
use starlark_num_bigint::BigInt as StarlarkBigInt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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
}

impl Default for ScriptLimits {
    /// 10^7 operations a call, 1 GiB of script heap, 20 million positions.
    fn default() -> Self {
        ScriptLimits { max_ops: 10_000_000, max_heap_bytes: 1 << 30, max_positions: 20_000_000 }
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
    /// The script's frozen top level; each call imports it into a fresh module.
    module: FrozenModule,
    globals: Globals,
    /// For each function the script defines, a one-word program naming it: evaluated in the
    /// fresh module, it gives the function as a value of that module's heap (the safe way to
    /// reach a frozen value from a temporary heap).
    lookups: Vec<(&'static str, AstModule)>,
    has_show: bool,
    has_parse: bool,
    has_start: bool,
    limits: ScriptLimits,
    cancelled: Option<Arc<AtomicBool>>,
}

#[starlark::starlark_module]
fn grundy_builtins(builder: &mut GlobalsBuilder) {
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
                let mut eval = Evaluator::new(&module);
                configure(&mut eval, &limits, &cancelled);
                eval.eval_module(ast, &globals).map_err(|error| bad(one_line(&error)))?;
            }
            module.freeze().map_err(|error| bad(format!("cannot freeze the module: {error:?}")))
        })?;
        let function = |name: &str| module.get(name).ok();
        if function("moves").is_none() {
            return Err(bad("the script defines no `moves(position)` function".to_owned()));
        }
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
        let mut lookups = Vec::new();
        for name in ["moves", "show", "parse", "start"] {
            if function(name).is_some() {
                let lookup = AstModule::parse("<grundy>", name.to_owned(), &Dialect::Standard)
                    .map_err(|error| bad(one_line(&error)))?;
                lookups.push((name, lookup));
            }
        }
        let stem = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let stem = stem.strip_suffix(".star").unwrap_or(stem);
        Ok(ScriptGame {
            path: path.to_owned(),
            name: text_constant("NAME")?.unwrap_or_else(|| stem.to_owned()),
            description: text_constant("DESCRIPTION")?.unwrap_or_default(),
            has_show: function("show").is_some(),
            has_parse: function("parse").is_some(),
            has_start: function("start").is_some(),
            module,
            globals,
            lookups,
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
        if !self.has_start {
            return Ok(None);
        }
        self.call("start", Argument::Nothing, |game, value| match game.option_parts(value, "start()")? {
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
        if !self.has_parse {
            return ScriptPosition::parse_default(text, &self.spec());
        }
        let bad = |reason: String| GameError::BadComponent { game: self.spec(), text: text.to_owned(), reason };
        let result = self.call("parse", Argument::Text(text), |game, value| {
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
        if !self.has_show {
            return Ok(position.to_string());
        }
        self.call("show", Argument::Position(position), |game, value| {
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
    /// the call), every limit set.
    fn call<R>(
        &self,
        function: &str,
        argument: Argument<'_>,
        convert: impl for<'v> FnOnce(&Self, Value<'v>) -> Result<R, GameError>,
    ) -> Result<R, GameError> {
        Module::with_temp_heap(|module| {
            let mut eval = Evaluator::new(&module);
            configure(&mut eval, &self.limits, &self.cancelled);
            module.import_public_symbols(&self.module);
            let lookup = self.lookups.iter().find(|(name, _)| *name == function).map(|(_, ast)| ast.clone());
            let function_value = match lookup.map(|ast| eval.eval_module(ast, &self.globals)) {
                Some(Ok(value)) => value,
                Some(Err(error)) => return Err(self.failure(argument, self.describe_error(&error))),
                None => return Err(self.failure(argument, format!("the script defines no `{function}`"))),
            };
            let heap = module.heap();
            let arguments: Vec<Value> = match &argument {
                Argument::Position(position) => vec![alloc_position(heap, position)],
                Argument::Text(text) => vec![heap.alloc(*text)],
                Argument::Nothing => Vec::new(),
            };
            let result = eval.eval_function(function_value, &arguments, &[]);
            drop(eval);
            match result {
                Ok(value) => convert(self, value),
                Err(error) => Err(self.failure(argument, self.describe_error(&error))),
            }
        })
    }

    fn describe_error(&self, error: &starlark::Error) -> String {
        let text = one_line(error);
        let lower = text.to_lowercase();
        if lower.contains("ticks has been exceeded") {
            return format!("the script used up its budget of {} operations (--max-ops): {text}", self.limits.max_ops);
        }
        if lower.contains("evaluation cancelled") {
            return format!("the script was stopped: {text}");
        }
        if lower.contains("heap memory limit") {
            return format!("the script passed its heap limit of {} bytes: {text}", self.limits.max_heap_bytes);
        }
        text
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
        let items = ListRef::from_value(value)
            .map(|list| list.content().to_vec())
            .or_else(|| TupleRef::from_value(value).map(|tuple| tuple.content().to_vec()));
        if let Some(items) = items {
            let mut entries = Vec::with_capacity(items.len());
            for item in items {
                match to_integer(item) {
                    Some(Integer::Small(entry)) if item.unpack_bool().is_none() => entries.push(entry),
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
        if sum_parts(value).is_some() {
            return Err(format!("`{}`, a Sum inside a position: Sum(...) is an option on its own", short(value)));
        }
        Err(format!("`{}` of type {}: {POSITION_FORMS}", short(value), value.get_type()))
    }
}

const POSITION_FORMS: &str = "a position is a non-negative int, a list or tuple of ints, or a string";

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

fn configure(eval: &mut Evaluator<'_, '_, '_>, limits: &ScriptLimits, cancelled: &Option<Arc<AtomicBool>>) {
    // Both setters fail only for zero or a second call; zero means no limit here.
    if limits.max_ops > 0 {
        let _ = eval.set_max_tick_count(limits.max_ops);
    }
    if limits.max_heap_bytes > 0 {
        let _ = eval.set_max_heap_size(limits.max_heap_bytes);
    }
    if let Some(flag) = cancelled {
        let flag = Arc::clone(flag);
        eval.set_check_cancelled(Box::new(move || flag.load(Ordering::Relaxed)));
    }
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
    type Position = ScriptPosition;

    fn expand(&self, position: &ScriptPosition, out: &mut OptionList<ScriptPosition>) -> Result<(), GameError> {
        self.call("moves", Argument::Position(position), |game, value| {
            let items = ListRef::from_value(value)
                .map(|list| list.content().to_vec())
                .or_else(|| TupleRef::from_value(value).map(|tuple| tuple.content().to_vec()))
                .ok_or_else(|| {
                    game.failure(
                        Argument::Position(position),
                        format!(
                            "`moves` returned `{}` of type {}, not a list of options",
                            short(value),
                            value.get_type()
                        ),
                    )
                })?;
            for item in items {
                if let Some(parts) = sum_parts(item) {
                    let mut converted = Vec::with_capacity(parts.len());
                    for part in parts {
                        converted.push(game.to_position(part).map_err(|reason| {
                            game.failure(Argument::Position(position), format!("`moves` returned a Sum with {reason}"))
                        })?);
                    }
                    out.push_option(converted);
                } else {
                    let option = game.to_position(item).map_err(|reason| {
                        game.failure(Argument::Position(position), format!("`moves` returned the option {reason}"))
                    })?;
                    out.push_single(option);
                }
            }
            Ok(())
        })
    }

    fn describe(&self, position: &ScriptPosition) -> String {
        position_words(position)
    }
}
