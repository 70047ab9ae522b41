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
            if let Some(flag) = result.unpack_bool() {
                return Ok(FormulaAnswer::Outcome(if flag { Outcome::N } else { Outcome::P }));
            }
            if let Some(word) = result.unpack_str() {
                return match word.to_ascii_uppercase().as_str() {
                    "N" => Ok(FormulaAnswer::Outcome(Outcome::N)),
                    "P" => Ok(FormulaAnswer::Outcome(Outcome::P)),
                    _ => Err(bad(format!("the string {word:?} is neither \"P\" nor \"N\""))),
                };
            }
            if let Ok(Some(value)) = starlark_num_bigint::BigInt::unpack_value(result)
                && value.sign() != starlark_num_bigint::Sign::Minus
            {
                return Ok(FormulaAnswer::Value(BigUint::from_bytes_le(&value.to_bytes_le().1)));
            }
            Err(bad(format!(
                "it gave `{}` of type {}; a formula gives a non-negative int (a value), a bool (True: the player to move wins) or \"P\"/\"N\"",
                result.to_repr(),
                result.get_type()
            )))
        })
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
