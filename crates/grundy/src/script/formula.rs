//! `grundy check --formula EXPR`: a Starlark expression over the position, evaluated for each
//! position checked.

use super::engine::ScriptLimits;
use super::position::ScriptPosition;
use crate::error::GameError;
use crate::value::Outcome;
use num_bigint::BigUint;
use starlark::environment::{FrozenModule, Globals, Module};
use starlark::eval::Evaluator;
use starlark::syntax::{AstModule, Dialect};
use starlark::values::{UnpackValue, Value};

/// What a formula claims about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormulaAnswer {
    /// A Grundy value (an integer result).
    Value(BigUint),
    /// An outcome (`True` or `"N"`: the player to move wins; `False` or `"P"`: loses).
    Outcome(Outcome),
}

impl std::fmt::Display for FormulaAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormulaAnswer::Value(value) => write!(f, "{value}"),
            FormulaAnswer::Outcome(outcome) => write!(f, "{outcome}"),
        }
    }
}

/// A compiled formula: `n` is the heap when the position is one integer (else `None`), `p`
/// the list of the position's components.
///
/// ```
/// use grundy::script::formula::{Formula, FormulaAnswer};
/// use grundy::script::{ScriptLimits, ScriptPosition};
/// let formula = Formula::parse("n % 7 in (0, 2)", ScriptLimits::default()).unwrap();
/// let answer = formula.evaluate(&[ScriptPosition::Int(9)]).unwrap();
/// assert_eq!(answer, FormulaAnswer::Outcome(grundy::Outcome::N));
/// ```
pub struct Formula {
    text: String,
    module: FrozenModule,
    globals: Globals,
    /// `formula`, as a program evaluated in each fresh module to reach the function.
    lookup: AstModule,
    limits: ScriptLimits,
}

impl Formula {
    /// Compiles `expression`.
    ///
    /// # Errors
    /// [`GameError::Unsupported`] naming the expression and the column of a syntax error.
    pub fn parse(expression: &str, limits: ScriptLimits) -> Result<Formula, GameError> {
        let bad = |reason: String| GameError::Unsupported(format!("bad formula `{expression}`: {reason}"));
        if expression.contains('\n') {
            return Err(bad("a formula is one line".to_owned()));
        }
        // Checked on its own first, so that a syntax error's column is the expression's.
        AstModule::parse("formula", expression.to_owned(), &Dialect::Standard).map_err(|error| {
            bad(error.without_diagnostic().to_string().split_whitespace().collect::<Vec<_>>().join(" "))
        })?;
        let source = format!("def formula(n, p):\n    return ({expression})\n");
        let ast = AstModule::parse("formula", source, &Dialect::Standard).map_err(|error| {
            bad(error.without_diagnostic().to_string().split_whitespace().collect::<Vec<_>>().join(" "))
        })?;
        let globals = Globals::standard();
        let module = Module::with_temp_heap(|module| -> Result<FrozenModule, GameError> {
            {
                let mut eval = Evaluator::new(&module);
                eval.eval_module(ast, &globals).map_err(|error| bad(error.without_diagnostic().to_string()))?;
            }
            module.freeze().map_err(|error| bad(format!("{error:?}")))
        })?;
        let lookup = AstModule::parse("<grundy>", "formula".to_owned(), &Dialect::Standard)
            .map_err(|error| bad(error.without_diagnostic().to_string()))?;
        Ok(Formula { text: expression.to_owned(), module, globals, lookup, limits })
    }

    /// The expression as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The formula's answers for the single heaps `from..to`, evaluated in one module by a
    /// comprehension over `range` (the interpreter's loop, not a call from Rust a heap: about
    /// forty times faster for `check --formula --to 100000000`). A mistake is reported as
    /// [`Formula::evaluate`] reports it for the first heap it happens at.
    ///
    /// # Errors
    /// As [`Formula::evaluate`], for the smallest heap whose answer fails.
    ///
    /// ```
    /// use grundy::script::formula::{Formula, FormulaAnswer};
    /// use grundy::script::ScriptLimits;
    /// let formula = Formula::parse("n % 3", ScriptLimits::default()).unwrap();
    /// let answers = formula.evaluate_heaps(5, 8).unwrap();
    /// let values: Vec<FormulaAnswer> = [2u32, 0, 1].map(|v| FormulaAnswer::Value(v.into())).to_vec();
    /// assert_eq!(answers, values);
    /// ```
    pub fn evaluate_heaps(&self, from: u64, to: u64) -> Result<Vec<FormulaAnswer>, GameError> {
        let heaps = from..to.max(from);
        let one_at_a_time = || heaps.clone().map(|heap| self.evaluate(&[ScriptPosition::Int(heap)])).collect();
        // Starlark's `range` takes 32-bit numbers.
        if i32::try_from(heaps.end).is_err() || heaps.is_empty() {
            return one_at_a_time();
        }
        let count = heaps.end - heaps.start;
        let batch = Module::with_temp_heap(|module| -> Option<Vec<FormulaAnswer>> {
            let mut eval = Evaluator::new(&module);
            let _ = eval.set_max_tick_count(self.limits.max_ops.max(1).saturating_mul(count));
            let _ = eval.set_max_heap_size(self.limits.max_heap_bytes.max(1));
            module.import_public_symbols(&self.module);
            let program = format!("[formula(n, [n]) for n in range({}, {})]", heaps.start, heaps.end);
            let ast = AstModule::parse("<grundy>", program, &Dialect::Standard).ok()?;
            let results = eval.eval_module(ast, &self.globals).ok()?;
            let list = starlark::values::list::ListRef::from_value(results)?;
            list.iter().map(answer_of).collect()
        });
        // A mistake somewhere in the batch: the heaps one at a time name the first.
        batch.map_or_else(one_at_a_time, Ok)
    }

    /// The formula's answer for the sum of `components`.
    ///
    /// # Errors
    /// A runtime error or a result that is neither a non-negative int, a bool, nor "P"/"N".
    pub fn evaluate(&self, components: &[ScriptPosition]) -> Result<FormulaAnswer, GameError> {
        let shown: Vec<String> = components.iter().map(ToString::to_string).collect();
        let bad = |reason: String| {
            GameError::Unsupported(format!("formula `{}` at position {}: {reason}", self.text, shown.join(" ")))
        };
        Module::with_temp_heap(|module| {
            let mut eval = Evaluator::new(&module);
            let _ = eval.set_max_tick_count(self.limits.max_ops.max(1));
            let _ = eval.set_max_heap_size(self.limits.max_heap_bytes.max(1));
            let heap = module.heap();
            let parts: Vec<Value> = components.iter().map(|part| super::engine::alloc_position(heap, part)).collect();
            let n = match components {
                [single @ (ScriptPosition::Int(_) | ScriptPosition::Big(_))] => {
                    super::engine::alloc_position(heap, single)
                }
                _ => Value::new_none(),
            };
            let p = heap.alloc(parts);
            module.import_public_symbols(&self.module);
            let function = eval.eval_module(self.lookup.clone(), &self.globals).map_err(|error| {
                bad(error.without_diagnostic().to_string().split_whitespace().collect::<Vec<_>>().join(" "))
            })?;
            let result = eval.eval_function(function, &[n, p], &[]).map_err(|error| {
                bad(error.without_diagnostic().to_string().split_whitespace().collect::<Vec<_>>().join(" "))
            })?;
            if let Some(answer) = answer_of(result) {
                return Ok(answer);
            }
            if let Some(word) = result.unpack_str() {
                return Err(bad(format!("the string {word:?} is neither \"P\" nor \"N\"")));
            }
            Err(bad(format!(
                "it gave `{}` of type {}; a formula gives a non-negative int (a value), a bool (True: the player to move wins) or \"P\"/\"N\"",
                result.to_repr(),
                result.get_type()
            )))
        })
    }
}

/// What a formula's result claims: a bool or `"P"`/`"N"` an outcome, a non-negative int a
/// value; `None` for anything else.
fn answer_of(result: Value) -> Option<FormulaAnswer> {
    if let Some(flag) = result.unpack_bool() {
        return Some(FormulaAnswer::Outcome(if flag { Outcome::N } else { Outcome::P }));
    }
    if let Some(word) = result.unpack_str() {
        return match word.to_ascii_uppercase().as_str() {
            "N" => Some(FormulaAnswer::Outcome(Outcome::N)),
            "P" => Some(FormulaAnswer::Outcome(Outcome::P)),
            _ => None,
        };
    }
    match starlark_num_bigint::BigInt::unpack_value(result) {
        Ok(Some(value)) if value.sign() != starlark_num_bigint::Sign::Minus => {
            Some(FormulaAnswer::Value(BigUint::from_bytes_le(&value.to_bytes_le().1)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_of_each_kind() {
        let limits = ScriptLimits::default();
        let heap = [ScriptPosition::Int(10)];
        let value = |text: &str| Formula::parse(text, limits.clone()).unwrap().evaluate(&heap).unwrap();
        assert_eq!(value("n % 7"), FormulaAnswer::Value(BigUint::from(3u32)));
        assert_eq!(value("n % 2 == 0"), FormulaAnswer::Outcome(Outcome::N));
        assert_eq!(value("'p'"), FormulaAnswer::Outcome(Outcome::P));
        let pair = [ScriptPosition::Int(3), ScriptPosition::Int(5)];
        let xor = Formula::parse("p[0] ^ p[1]", limits.clone()).unwrap();
        assert_eq!(xor.evaluate(&pair).unwrap(), FormulaAnswer::Value(BigUint::from(6u32)));
    }

    #[test]
    fn heaps_in_one_module_are_the_heaps_one_at_a_time() {
        let limits = ScriptLimits::default();
        for text in ["n % 7", "n % 3 != 0", "'N' if n % 5 else 'p'", "p[0] * 2"] {
            let formula = Formula::parse(text, limits.clone()).unwrap();
            let one_at_a_time: Vec<FormulaAnswer> =
                (90..300).map(|heap| formula.evaluate(&[ScriptPosition::Int(heap)]).unwrap()).collect();
            assert_eq!(formula.evaluate_heaps(90, 300).unwrap(), one_at_a_time, "{text}");
        }
        // A mistake is the one-at-a-time mistake of the first heap it happens at.
        let formula = Formula::parse("n - 150", limits.clone()).unwrap();
        let error = formula.evaluate_heaps(100, 200).unwrap_err().to_string();
        assert!(error.contains("`-50`") && error.contains("position 100"), "{error}");
        let formula = Formula::parse("10 // (n - 120)", limits).unwrap();
        let error = formula.evaluate_heaps(100, 200).unwrap_err().to_string();
        assert!(error.contains("position 100"), "{error}");
        assert!(formula.evaluate_heaps(121, 130).is_ok() && formula.evaluate_heaps(130, 130).unwrap().is_empty());
    }

    #[test]
    fn bad_formulas_name_themselves() {
        let limits = ScriptLimits::default();
        let error = Formula::parse("n %", limits.clone()).err().unwrap().to_string();
        assert!(error.contains("bad formula `n %`"), "{error}");
        let formula = Formula::parse("n - 20", limits.clone()).unwrap();
        let error = formula.evaluate(&[ScriptPosition::Int(3)]).unwrap_err().to_string();
        assert!(error.contains("`-17`") && error.contains("position 3"), "{error}");
        let formula = Formula::parse(
            "[0 for i in range(1000000) for j in range(1000000)]",
            ScriptLimits { max_ops: 1000, ..limits },
        )
        .unwrap();
        assert!(formula.evaluate(&[ScriptPosition::Int(3)]).is_err());
    }
}
