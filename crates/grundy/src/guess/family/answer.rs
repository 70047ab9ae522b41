//! A family's guess as data, for JSON and Python.

use super::*;

/// A family's guess as data, for JSON and Python: `{"game": TEMPLATE, "pattern": {"kind":
/// "family", "parameters", "formula", "status", "quantities", "instances", …}}`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FamilyAnswer {
    /// The template.
    pub game: String,
    /// What was found.
    pub pattern: FamilyPatternAnswer,
}

/// The pattern part of a [`FamilyAnswer`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FamilyPatternAnswer {
    /// `family`.
    pub kind: &'static str,
    /// The parameters and their ranges.
    pub parameters: Vec<ParameterAnswer>,
    /// The family formula as a person writes it (`null` when none was found).
    pub formula: Option<String>,
    /// The formula as data (`null` when none was found).
    pub values: Option<FormulaAnswer>,
    /// `proved`, `checked`, or `null` when no formula was found.
    pub status: Option<&'static str>,
    /// The theorem, when `proved`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub proof: Option<String>,
    /// The quantities fitted (and checked on the games held out).
    pub quantities: Vec<QuantityAnswer>,
    /// The parameters of the games held out from the fit.
    pub held_out: Vec<Vec<u64>>,
    /// The checks past the ranges.
    pub beyond: Vec<BeyondAnswer>,
    /// Each game's own guess, with its parameters.
    pub instances: Vec<InstanceAnswer>,
    /// What was tried and dropped.
    pub tried: Vec<String>,
}

/// One `--over` range.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ParameterAnswer {
    /// Its name.
    pub name: String,
    /// `A`.
    pub from: u64,
    /// `B`.
    pub to: u64,
}

/// A linear form as data: `constant + Σ coefficients[name]·name`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LinearAnswer {
    /// As a person writes it.
    pub text: String,
    /// `c₀`.
    pub constant: i64,
    /// One coefficient per parameter, in the `--over` order.
    pub coefficients: Vec<i64>,
}

impl LinearAnswer {
    fn of(form: &Linear, names: &[String]) -> LinearAnswer {
        LinearAnswer { text: form.text(names), constant: form.constant, coefficients: form.coefficients.clone() }
    }
}

/// A fitted quantity as data.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct QuantityAnswer {
    /// `period`, `preperiod`, `saltus`, `shift`, `c`, `modulus`.
    pub name: &'static str,
    /// As a person writes it.
    pub text: String,
    /// The linear form, or (by residue) one form per class of `parameter` modulo `modulus`.
    pub forms: Vec<LinearAnswer>,
    /// By residue: the parameter's name.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub parameter: Option<String>,
    /// By residue: the modulus.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub modulus: Option<u64>,
}

/// The family formula as data; the fields present depend on `kind`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FormulaAnswer {
    /// `periodic`, `arithmetic-periodic`, `bitwise`, `beatty`, `p-positions`.
    pub kind: &'static str,
    /// Whether it gives the values (not only the P-positions).
    pub gives_values: bool,
    /// Lines: the first position.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub first: Option<u64>,
    /// Periodic: `e`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub preperiod: Option<u64>,
    /// Periodic: `G(first..e)`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub before: Option<Vec<u64>>,
    /// Periodic: the period (a multiple of each game's least period).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub period: Option<LinearAnswer>,
    /// Periodic: the growth per period.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub saltus: Option<LinearAnswer>,
    /// Periodic: `table`, `remainder` or `blocks`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub cycle_form: Option<&'static str>,
    /// Periodic, `table`: one period.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub cycle: Option<Vec<u64>>,
    /// Periodic, `blocks`: `w`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub width: Option<LinearAnswer>,
    /// Periodic, `blocks`: where the tail starts.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub tail_from: Option<LinearAnswer>,
    /// Periodic, `blocks`: the tail's value.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub tail_value: Option<u64>,
    /// Bitwise: the function's name; pairs: the form's.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub form: Option<String>,
    /// Bitwise: the shift.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub shift: Option<LinearAnswer>,
    /// `(x + y) mod m`: `m`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub modulus: Option<LinearAnswer>,
    /// Beatty pairs: `c`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub c: Option<LinearAnswer>,
}

/// A check past the ranges as data.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BeyondAnswer {
    /// The parameters.
    pub parameters: Vec<u64>,
    /// The game.
    pub game: String,
    /// The values agreed to here.
    pub checked_to: u64,
}

/// One game's answer as data.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct InstanceAnswer {
    /// The parameters.
    pub parameters: Vec<u64>,
    /// Whether the fit never saw it.
    pub held_out: bool,
    /// Its guess, as `grundy guess GAME --json` gives it.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub guess: GuessAnswer,
}

impl FamilyAnswer {
    /// The answer for `family`.
    pub fn of(family: &FamilyGuess) -> FamilyAnswer {
        let names = family.names();
        let linear = |form: &Linear| LinearAnswer::of(form, &names);
        let quantities = family
            .quantities
            .iter()
            .map(|quantity| {
                let text = quantity.fitted.text(&names);
                match &quantity.fitted {
                    Fitted::Linear(form) => QuantityAnswer {
                        name: quantity.name,
                        text,
                        forms: vec![linear(form)],
                        parameter: None,
                        modulus: None,
                    },
                    Fitted::ByResidue { parameter, modulus, classes } => QuantityAnswer {
                        name: quantity.name,
                        text,
                        forms: classes.iter().map(linear).collect(),
                        parameter: Some(names[*parameter].clone()),
                        modulus: Some(*modulus),
                    },
                }
            })
            .collect();
        let values = family.formula.as_ref().map(|formula| {
            let mut answer = FormulaAnswer {
                kind: formula.kind(),
                gives_values: formula.gives_values(),
                first: None,
                preperiod: None,
                before: None,
                period: None,
                saltus: None,
                cycle_form: None,
                cycle: None,
                width: None,
                tail_from: None,
                tail_value: None,
                form: None,
                shift: None,
                modulus: None,
                c: None,
            };
            match formula {
                FamilyFormula::Periodic { first, start, before, period, saltus, cycle } => {
                    answer.first = Some(*first);
                    answer.preperiod = Some(*start);
                    answer.before = Some(before.clone());
                    answer.period = Some(linear(period));
                    answer.saltus = Some(linear(saltus));
                    match cycle {
                        CycleForm::Table(values) => {
                            answer.cycle_form = Some("table");
                            answer.cycle = Some(values.clone());
                        }
                        CycleForm::Remainder => answer.cycle_form = Some("remainder"),
                        CycleForm::Blocks { width, tail } => {
                            answer.cycle_form = Some("blocks");
                            answer.width = Some(linear(width));
                            answer.tail_from = tail.as_ref().map(|tail| linear(&tail.from));
                            answer.tail_value = tail.as_ref().map(|tail| tail.value);
                        }
                    }
                }
                FamilyFormula::Bitwise { form, shift, .. } => {
                    answer.first = match family.shape {
                        Shape::Line { first } => Some(first),
                        Shape::Grid => None,
                    };
                    answer.form = Some(form.name().to_owned());
                    answer.shift = Some(linear(shift));
                }
                FamilyFormula::Pair(PairFamily::Fixed(form)) => answer.form = Some(form.name()),
                FamilyFormula::Pair(PairFamily::SumMod(modulus)) => {
                    answer.form = Some("sum-mod".to_owned());
                    answer.modulus = Some(linear(modulus));
                }
                FamilyFormula::Beatty { c } => answer.c = Some(linear(c)),
                FamilyFormula::Diagonal => {}
                FamilyFormula::BashPlusOne { below, take } => {
                    answer.first = Some(0);
                    answer.preperiod = Some(0);
                    answer.before = Some(Vec::new());
                    answer.cycle_form = Some("bash-plus-one");
                    answer.modulus = Some(linear(&Linear::constant(*below as i64, take.coefficients.len())));
                    answer.tail_from = Some(linear(take));
                    answer.tail_value = Some(*below);
                }
            }
            answer
        });
        FamilyAnswer {
            game: family.template.clone(),
            pattern: FamilyPatternAnswer {
                kind: "family",
                parameters: family
                    .parameters
                    .iter()
                    .map(|range| ParameterAnswer { name: range.name.clone(), from: range.low, to: range.high })
                    .collect(),
                formula: family.formula.as_ref().map(|formula| formula.text(&names)),
                values,
                status: family.status(),
                proof: family.proof.clone(),
                quantities,
                held_out: family
                    .instances
                    .iter()
                    .filter(|instance| instance.held_out)
                    .map(|instance| instance.parameters.clone())
                    .collect(),
                beyond: family
                    .beyond
                    .iter()
                    .map(|check| BeyondAnswer {
                        parameters: check.parameters.clone(),
                        game: check.game.clone(),
                        checked_to: check.checked_to,
                    })
                    .collect(),
                instances: family
                    .instances
                    .iter()
                    .map(|instance| InstanceAnswer {
                        parameters: instance.parameters.clone(),
                        held_out: instance.held_out,
                        guess: GuessAnswer::of(&instance.guess),
                    })
                    .collect(),
                tried: family.tried.clone(),
            },
        }
    }
}
