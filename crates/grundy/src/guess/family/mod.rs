//! `grundy guess TEMPLATE --over NAME=A..B`: the pattern of a whole family of games as a
//! function of its parameters.
//!
//! Each instance is guessed alone by [`guess_game`] (proved or checked as usual). Then the
//! instances' patterns are fitted as a function of the parameters: every quantity a pattern
//! has (period, preperiod, saltus, shift, Beatty constant, modulus) as a linear form in the
//! parameters, or one per residue class of a parameter ([`Fitted`]); and, where the values
//! themselves follow one form, a [`FamilyFormula`] giving `G` from the position and the
//! parameters. The fit never sees every fourth instance (held out, in the `--over` order) nor
//! a few parameter values past the ranges, where the values are computed from the rules: a
//! formula wrong on any of them is dropped and said so. A family formula is **proved** only
//! where a theorem covers the whole family:
//!
//! - Bash's game `bash:M`: `G(n) = n mod (M + 1)` (the multiples of `M + 1` are the
//!   P-positions; Bouton-style induction, e.g. Berlekamp, Conway and Guy, *Winning Ways*, ch. 4);
//! - two-element subtraction games `sub:a,b`, `1 ≤ a < b`: with `r = n mod (a + b)` and
//!   `q = ⌊r/a⌋`, `G(n) = 2` if `r ≥ b` and `q` is even, else `q mod 2`. Proof, by induction
//!   on `n` (the options of `n` are `n − a`, `n − b`, whose residues are `r − a` or `r + b`,
//!   and `r − b` or `r + a`): for `r < a` and `n ≥ a` (so `n ≥ a + b`), the options have
//!   residues `r + b` (value 1 or 2) and `r + a < 2a` (value 1): `G = 0`. For `a ≤ r < b`,
//!   `n − a` has residue `r − a < b`, value `(q − 1) mod 2`, and `n − b` (if `n ≥ b`) residue
//!   `r + a`, value `(q + 1) mod 2` or 2 (only when `q + 1` is even): the mex is `q mod 2`.
//!   For `r ≥ b`, `n − b` has residue `r − b < a`, value 0, and `n − a` residue `r − a`,
//!   quotient `q − 1`: value 1 when `q` is even (so `G = 2`), else 0 or 2 (so `G = 1`).
//!
//! Everything else is **checked** on the parameters it was fitted on, those held out and those
//! past the ranges, and never called proved.

use super::grid::{GridPattern, PairForm};
use super::line::{self, BitForm, LinePattern};
use super::template::{Linear, ParameterRange, Template};
use super::{Guess, GuessAnswer, Pattern, guess_game};
use crate::coins::CoinValues;
use crate::control::Control;
use crate::error::GameError;
use crate::heap::AsHeapGame;
use crate::heap::sequence::CompactSequence;
use crate::ruleset::Ruleset;
use crate::view::{Chart, Table, Views};
use std::sync::Arc;

/// Every `HOLD_OUT`-th game (along the diagonals of the parameters' grid) is kept from the fit.
const HOLD_OUT: usize = 4;
/// The fit needs at least this many instances.
const LEAST_FITTED: usize = 3;
/// How many parameter points past the ranges are checked against the rules.
const BEYOND: u64 = 3;
/// The longest cycle a family formula is written out to, for a check.
const MAX_CYCLE: i128 = 1 << 14;

/// How the positions of the family's games are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A line `n ≥ first` (heaps from 0, coins from 1).
    Line {
        /// The first position.
        first: u64,
    },
    /// A table `(x, y)`.
    Grid,
}

/// One game of the family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// The parameters' values, in the `--over` order.
    pub parameters: Vec<u64>,
    /// Its guess, alone.
    pub guess: Guess,
    /// Whether the family fit never saw it.
    pub held_out: bool,
}

/// A quantity as a function of the parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fitted {
    /// One linear form for the whole family.
    Linear(Linear),
    /// One linear form per residue of parameter `parameter` modulo `modulus` (class `i` holds
    /// the parameter values `≡ i`).
    ByResidue {
        /// The parameter's index.
        parameter: usize,
        /// The modulus.
        modulus: u64,
        /// The form of each class.
        classes: Vec<Linear>,
    },
}

impl Fitted {
    /// The value at `parameters`.
    pub fn at(&self, parameters: &[u64]) -> i128 {
        match self {
            Fitted::Linear(form) => form.at(parameters),
            Fitted::ByResidue { parameter, modulus, classes } => {
                classes[(parameters[*parameter] % modulus) as usize].at(parameters)
            }
        }
    }

    /// As a person writes it.
    pub fn text(&self, names: &[String]) -> String {
        match self {
            Fitted::Linear(form) => form.text(names),
            Fitted::ByResidue { parameter, modulus, classes } => classes
                .iter()
                .enumerate()
                .map(|(residue, form)| {
                    let name = &names[*parameter];
                    let class = if *modulus == 2 {
                        if residue == 0 { format!("{name} even") } else { format!("{name} odd") }
                    } else {
                        format!("{name} ≡ {residue} (mod {modulus})")
                    };
                    format!("{} if {class}", form.text(names))
                })
                .collect::<Vec<_>>()
                .join("; "),
        }
    }
}

/// A quantity of the instances' patterns, fitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quantity {
    /// `period`, `preperiod`, `saltus`, `shift`, `c`, `modulus`.
    pub name: &'static str,
    /// The fit.
    pub fitted: Fitted,
}

/// The values of one period of a family formula, `r = (n − start) mod period`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CycleForm {
    /// The same values for every instance (the period is a constant).
    Table(Vec<u64>),
    /// `r`.
    Remainder,
    /// `⌊r/w⌋ mod 2`, except `value` where `r ≥ from` and `⌊r/w⌋` is even.
    Blocks {
        /// `w`.
        width: Linear,
        /// The exception, when there is one.
        tail: Option<Tail>,
    },
}

/// The exception of [`CycleForm::Blocks`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tail {
    /// Where it starts.
    pub from: Linear,
    /// The value there.
    pub value: u64,
}

/// A two-heap form for the whole family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairFamily {
    /// The same form for every instance.
    Fixed(PairForm),
    /// `(x + y) mod m`.
    SumMod(Linear),
}

/// `G` (or the P-positions) from the position and the parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FamilyFormula {
    /// A line: `G(n) = before[n − first]` for `n < start`, else
    /// `cycle(r) + ⌊(n − start)/period⌋·saltus` with `r = (n − start) mod period`.
    Periodic {
        /// The first position.
        first: u64,
        /// `e`, the same for every instance.
        start: u64,
        /// `G(first..e)`, the same for every instance.
        before: Vec<u64>,
        /// The period (a multiple of each instance's least period).
        period: Linear,
        /// The growth per period.
        saltus: Linear,
        /// One period's values.
        cycle: CycleForm,
    },
    /// A line: `G(n) = f(n + shift)` for every `n ≥ first` (the family's games have no
    /// exceptions before the pattern: a single game's may, but they are not fitted across games).
    Bitwise {
        /// `f`.
        form: BitForm,
        /// The shift.
        shift: Linear,
        /// The first `n` of the line (0 for heaps, 1 for coins).
        first: u64,
    },
    /// A table: `G(x, y) = f(x, y)`.
    Pair(PairFamily),
    /// A table's P-positions: Beatty pairs `(a_k, a_k + c·k)`.
    Beatty {
        /// `c`.
        c: Linear,
    },
    /// A table's P-positions: `x = y`.
    Diagonal,
    /// A line of `S = {1, …, a − 1} ∪ {K}` (Bash's game and one more move; Codeforces 1194D
    /// is `a = 3`): `G(n) = n mod a` when `a` does not divide `K`; when it does, `G(n) = a`
    /// where `r = K` and `r mod a` elsewhere, `r = n mod (K + 1)` (proved in
    /// [`crate::heap::subtraction`]).
    BashPlusOne {
        /// `a`.
        below: u64,
        /// `K`.
        take: Linear,
    },
}

impl FamilyFormula {
    /// The kind, for JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            FamilyFormula::Periodic { saltus, .. } if saltus == &Linear::constant(0, saltus.coefficients.len()) => {
                "periodic"
            }
            FamilyFormula::Periodic { .. } => "arithmetic-periodic",
            FamilyFormula::Bitwise { .. } | FamilyFormula::Pair(_) => "bitwise",
            FamilyFormula::Beatty { .. } => "beatty",
            FamilyFormula::Diagonal => "p-positions",
            FamilyFormula::BashPlusOne { .. } => "periodic",
        }
    }

    /// Whether it gives the values, not only the P-positions.
    pub fn gives_values(&self) -> bool {
        !matches!(self, FamilyFormula::Beatty { .. } | FamilyFormula::Diagonal)
    }

    /// The single game's pattern at `parameters`, or `None` where the formula says nothing
    /// there (a period below 1 or longer than 2^14, a negative saltus or modulus).
    pub fn at(&self, parameters: &[u64]) -> Option<Pattern> {
        let positive = |form: &Linear| u64::try_from(form.at(parameters)).ok().filter(|&value| value >= 1);
        match self {
            FamilyFormula::Periodic { first, start, before, period, saltus, cycle } => {
                let length = period.at(parameters);
                if !(1..=MAX_CYCLE).contains(&length) {
                    return None;
                }
                let saltus = u64::try_from(saltus.at(parameters)).ok()?;
                let cycle = (0..length as u64).map(|r| cycle.value(r, parameters)).collect::<Option<Vec<u64>>>()?;
                Some(Pattern::Line(LinePattern::Periodic {
                    first: *first,
                    start: *start,
                    before: before.clone(),
                    cycle,
                    saltus,
                }))
            }
            FamilyFormula::Bitwise { form, shift, first } => {
                let shift = i64::try_from(shift.at(parameters)).ok()?;
                Some(Pattern::Line(LinePattern::Bitwise {
                    form: *form,
                    shift,
                    first: *first,
                    start: *first,
                    before: Vec::new(),
                }))
            }
            FamilyFormula::Pair(PairFamily::Fixed(form)) => Some(Pattern::Grid(GridPattern::Form(*form))),
            FamilyFormula::Pair(PairFamily::SumMod(modulus)) => {
                Some(Pattern::Grid(GridPattern::Form(PairForm::SumMod(positive(modulus)?))))
            }
            FamilyFormula::Beatty { c } => Some(Pattern::Grid(GridPattern::Beatty { c: positive(c)? })),
            FamilyFormula::Diagonal => Some(Pattern::Grid(GridPattern::Diagonal)),
            FamilyFormula::BashPlusOne { below, take } => {
                let take = u64::try_from(take.at(parameters)).ok().filter(|&take| take >= 1)?;
                let cycle: Vec<u64> = if take.is_multiple_of(*below) {
                    if i128::from(take) >= MAX_CYCLE {
                        return None;
                    }
                    (0..=take).map(|r| if r == take { *below } else { r % below }).collect()
                } else {
                    (0..*below).collect()
                };
                Some(Pattern::Line(LinePattern::Periodic { first: 0, start: 0, before: Vec::new(), cycle, saltus: 0 }))
            }
        }
    }

    /// As a person writes it.
    pub fn text(&self, names: &[String]) -> String {
        match self {
            FamilyFormula::Periodic { first, start, before, period, saltus, cycle } => {
                let period_text = parenthesized(&period.text(names));
                let since = if *start == 0 { "n".to_owned() } else { format!("(n − {start})") };
                let r = format!("r = {since} mod {period_text}");
                let mut text = match cycle {
                    CycleForm::Remainder if *start == 0 && saltus.is_constant() && saltus.constant == 0 => {
                        format!("G(n) = n mod {period_text}")
                    }
                    CycleForm::Remainder => format!("G(n) = r, {r}"),
                    CycleForm::Table(values) => {
                        format!("G(n) = ({})[r], {r}", values.iter().map(u64::to_string).collect::<Vec<_>>().join(" "))
                    }
                    CycleForm::Blocks { width, tail } => {
                        let quotient = if *width == Linear::constant(1, width.coefficients.len()) {
                            "r".to_owned()
                        } else {
                            format!("⌊r/{}⌋", parenthesized(&width.text(names)))
                        };
                        let mut text = format!("G(n) = {quotient} mod 2, {r}");
                        if let Some(Tail { from, value }) = tail {
                            text.push_str(&format!(
                                ", except G(n) = {value} where r ≥ {} and {quotient} is even",
                                from.text(names)
                            ));
                        }
                        text
                    }
                };
                if !(saltus.is_constant() && saltus.constant == 0) {
                    text.push_str(&format!(", plus {} for each whole period", parenthesized(&saltus.text(names))));
                }
                if *start > *first {
                    text.push_str(&format!(
                        ", for n ≥ {start}; G({first}..{}) = {}",
                        start - 1,
                        before.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
                    ));
                }
                text
            }
            FamilyFormula::Bitwise { form, shift, .. } => {
                if shift.is_constant() && shift.constant == 0 {
                    format!("G(n) = {}", form.formula("n"))
                } else {
                    format!("G(n) = {}, m = n + {}", form.formula("m"), parenthesized(&shift.text(names)))
                }
            }
            FamilyFormula::Pair(PairFamily::Fixed(form)) => form.formula(),
            FamilyFormula::Pair(PairFamily::SumMod(modulus)) => {
                format!("G(x, y) = (x + y) mod {}", parenthesized(&modulus.text(names)))
            }
            FamilyFormula::Beatty { c } => format!(
                "P-positions: (a_k, a_k + c·k) and (a_k + c·k, a_k), a_k the least number not yet used, c = {}",
                c.text(names)
            ),
            FamilyFormula::Diagonal => "P-positions: x = y".to_owned(),
            FamilyFormula::BashPlusOne { below, take } => {
                let k = parenthesized(&take.text(names));
                format!(
                    "G(n) = n mod {below} when {k} mod {below} ≠ 0; when {k} mod {below} = 0, G(n) = {below} if r = {k}, \
                     else r mod {below}, r = n mod ({} + 1)",
                    take.text(names)
                )
            }
        }
    }
}

fn parenthesized(text: &str) -> String {
    if text.contains(' ') { format!("({text})") } else { text.to_owned() }
}

impl CycleForm {
    /// The value at `r` (`r` below the period).
    pub fn value(&self, r: u64, parameters: &[u64]) -> Option<u64> {
        match self {
            CycleForm::Table(values) => values.get(usize::try_from(r).ok()?).copied(),
            CycleForm::Remainder => Some(r),
            CycleForm::Blocks { width, tail } => {
                let width = u64::try_from(width.at(parameters)).ok().filter(|&width| width >= 1)?;
                let parity = (r / width) % 2;
                match tail {
                    Some(Tail { from, value }) if parity == 0 && i128::from(r) >= from.at(parameters) => Some(*value),
                    _ => Some(parity),
                }
            }
        }
    }
}

/// A parameter point past the ranges where the formula was compared with the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BeyondCheck {
    /// The parameters.
    pub parameters: Vec<u64>,
    /// The game.
    pub game: String,
    /// The values agreed up to here (for a table, `x, y` up to here).
    pub checked_to: u64,
}

/// What `grundy guess TEMPLATE --over …` answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyGuess {
    /// The template as written.
    pub template: String,
    /// The ranges.
    pub parameters: Vec<ParameterRange>,
    /// How positions are laid out.
    pub shape: Shape,
    /// Every instance, guessed alone.
    pub instances: Vec<Instance>,
    /// The quantities fitted as functions of the parameters (and true on the instances held out).
    pub quantities: Vec<Quantity>,
    /// The values (or P-positions) as a function of the position and the parameters.
    pub formula: Option<FamilyFormula>,
    /// The theorem proving [`FamilyGuess::formula`] for the whole family, when one does.
    pub proof: Option<String>,
    /// Where the theorem holds: every form here is at least 1 (empty without a proof).
    pub proof_domain: Vec<Linear>,
    /// Where the formula was compared with the rules past the ranges.
    pub beyond: Vec<BeyondCheck>,
    /// What was tried and why it was dropped.
    pub tried: Vec<String>,
}

impl FamilyGuess {
    /// The parameters' names.
    pub fn names(&self) -> Vec<String> {
        self.parameters.iter().map(|parameter| parameter.name.clone()).collect()
    }

    /// `m = 3` or `a = 2, b = 7`.
    pub fn point(&self, parameters: &[u64]) -> String {
        self.names()
            .iter()
            .zip(parameters)
            .map(|(name, value)| format!("{name} = {value}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn points(&self, points: &[&[u64]]) -> String {
        points.iter().map(|point| format!("({})", self.point(point))).collect::<Vec<_>>().join(", ")
    }

    /// `proved`, `checked`, or `None` with no formula.
    pub fn status(&self) -> Option<&'static str> {
        self.formula.as_ref().map(|_| if self.proof.is_some() { "proved" } else { "checked" })
    }

    /// How the family formula was checked, as a sentence.
    pub fn checked_text(&self) -> String {
        let fitted = self.instances.iter().filter(|instance| !instance.held_out).count();
        let held: Vec<&[u64]> =
            self.instances.iter().filter(|instance| instance.held_out).map(|i| i.parameters.as_slice()).collect();
        let beyond: Vec<&[u64]> = self.beyond.iter().map(|check| check.parameters.as_slice()).collect();
        let mut text = if held.is_empty() {
            format!("checked on the {fitted} games, none held out")
        } else {
            format!("fitted on {fitted} games, checked on the {} held out {}", held.len(), self.points(&held))
        };
        if !beyond.is_empty() {
            text.push_str(&format!(
                " and {} past the ranges {} (values from the rules)",
                beyond.len(),
                self.points(&beyond)
            ));
        }
        text
    }

    /// The whole answer as text.
    pub fn explain(&self) -> String {
        let names = self.names();
        let ranges: Vec<String> =
            self.parameters.iter().map(|range| format!("{} = {}..{}", range.name, range.low, range.high)).collect();
        let mut text = format!("{}, {}: ", self.template, ranges.join(", "));
        match &self.formula {
            Some(formula) => {
                text.push_str(&formula.text(&names));
                text.push('\n');
                match &self.proof {
                    Some(theorem) => text.push_str(&format!("proved: {theorem}; {}\n", self.checked_text())),
                    None => text.push_str(&format!("checked (not proved): {}\n", self.checked_text())),
                }
            }
            None => text.push_str("no formula for the values across the family\n"),
        }
        for quantity in &self.quantities {
            text.push_str(&format!("  {} = {}\n", quantity.name, quantity.fitted.text(&names)));
        }
        if self.formula.is_none() && !self.tried.is_empty() {
            text.push_str(&format!("tried: {}\n", self.tried.join("; ")));
        }
        text.push_str("each game:\n");
        for instance in &self.instances {
            let guess = &instance.guess;
            let held = if instance.held_out { " (held out)" } else { "" };
            let result = match &guess.pattern {
                Some(found) => format!(
                    "{}; {}",
                    found.formula(),
                    match &found.proof {
                        Some(_) => "proved".to_owned(),
                        None => format!("checked to {} = {}", guess.variable(), guess.checked_to),
                    }
                ),
                None => format!("no pattern found up to {} = {}", guess.variable(), guess.fitted_to),
            };
            text.push_str(&format!("  {}{held}: {result}\n", guess.game));
        }
        text
    }
}

/// Builds the game of the family at some parameters: its text as shown, and the game.
pub type Build<'a> = dyn FnMut(&[u64]) -> Result<(String, Arc<dyn Ruleset>), GameError> + 'a;

/// Guesses each game of the family `template` over `parameters`, then the family's pattern.
/// `build` makes the game at a point (`Err` for a point where the text is no game: an
/// instance's error is the family's, a point past the ranges is skipped). `to` is each
/// single guess's `N`.
///
/// # Errors
/// An instance's error, naming its game; [`GameError::Unsupported`] for games with nothing
/// to guess.
pub fn guess_family(
    template: &Template,
    parameters: &[ParameterRange],
    build: &mut Build<'_>,
    to: Option<u64>,
    control: &Control,
) -> Result<FamilyGuess, GameError> {
    let points = super::template::instances(parameters);
    let task = control.task("guessing each game of the family", points.len() as u64);
    let mut instances = Vec::new();
    let mut shape = None;
    for (index, point) in points.iter().enumerate() {
        let (name, game) = build(point)?;
        let this_shape = shape_of(&*game);
        if *shape.get_or_insert(this_shape) != this_shape {
            return Err(GameError::Unsupported(format!(
                "{name} has positions of another kind than the family's first game: a family's games must all be heap games, coin rows or tables"
            )));
        }
        let mut guess = guess_game(&*game, to, control)?;
        guess.game = name;
        instances.push(Instance {
            parameters: point.clone(),
            guess,
            held_out: points.len() > LEAST_FITTED && held_out(parameters, point),
        });
        task.set(index as u64 + 1);
        if control.cancelled() {
            return Err(GameError::OutOfReach("the family's guess was cancelled".to_owned()));
        }
    }
    drop(task);
    let shape = shape.unwrap_or(Shape::Line { first: 0 });
    let mut family = FamilyGuess {
        template: template.text.clone(),
        parameters: parameters.to_vec(),
        shape,
        instances,
        quantities: Vec::new(),
        formula: None,
        proof: None,
        proof_domain: Vec::new(),
        beyond: Vec::new(),
        tried: Vec::new(),
    };
    fit_family(&mut family);
    // Where a theorem covers every game of the ranges, its formula is the family's (checked
    // against each game's own pattern all the same).
    let mut proved = None;
    if let Some((formula, proof, domain)) = theorem(template, parameters) {
        let inside =
            family.instances.iter().all(|instance| domain.iter().all(|form| form.at(&instance.parameters) >= 1));
        let agrees_everywhere = family.instances.iter().all(|instance| {
            instance.guess.pattern.as_ref().is_some_and(|found| agrees(&formula, &instance.parameters, &found.pattern))
        });
        if inside && agrees_everywhere {
            family.formula = Some(formula);
            proved = Some((proof, domain));
        }
    }
    if let Some(formula) = family.formula.clone() {
        check_beyond(&mut family, &formula, build, control)?;
    }
    if family.formula.is_some()
        && let Some((proof, domain)) = proved
    {
        family.proof = Some(proof);
        family.proof_domain = domain;
    }
    Ok(family)
}

/// Whether the fit leaves the game at `point` out: every [`HOLD_OUT`]-th along the diagonals
/// of the grid of parameter values (the sum of the values' offsets), so that the games held
/// out spread over every parameter.
fn held_out(parameters: &[ParameterRange], point: &[u64]) -> bool {
    let offsets: u64 = parameters.iter().zip(point).map(|(range, value)| value - range.low).sum();
    offsets % HOLD_OUT as u64 == HOLD_OUT as u64 - 1
}

fn shape_of(game: &dyn Ruleset) -> Shape {
    if game.chart() == Chart::Grid {
        Shape::Grid
    } else if game.heap_game().is_some() {
        Shape::Line { first: 0 }
    } else {
        Shape::Line { first: 1 }
    }
}

/// The quantities and the formula from the fitted instances, each checked on those held out.
fn fit_family(family: &mut FamilyGuess) {
    let names = family.names();
    let count = names.len();
    let (fitted, held): (Vec<&Instance>, Vec<&Instance>) =
        family.instances.iter().partition(|instance| !instance.held_out);
    if fitted.len() < LEAST_FITTED {
        family.tried.push(format!("a family needs at least {} games to fit on", LEAST_FITTED + 1));
        return;
    }
    let patterns: Option<Vec<&Pattern>> =
        fitted.iter().map(|instance| instance.guess.pattern.as_ref().map(|found| &found.pattern)).collect();
    let Some(patterns) = patterns else {
        let missing: Vec<&str> = fitted
            .iter()
            .filter(|instance| instance.guess.pattern.is_none())
            .map(|instance| instance.guess.game.as_str())
            .collect();
        family.tried.push(format!("no pattern was found for {}", missing.join(", ")));
        return;
    };
    let fitted_points: Vec<&[u64]> = fitted.iter().map(|instance| instance.parameters.as_slice()).collect();
    // The quantities, each checked on the held-out games.
    let mut quantities = Vec::new();
    for name in ["period", "preperiod", "saltus", "shift", "c", "modulus"] {
        let values: Option<Vec<i128>> = patterns.iter().map(|pattern| quantity(pattern, name)).collect();
        let Some(values) = values else { continue };
        if name == "saltus" && values.iter().all(|&value| value == 0) {
            continue;
        }
        let points: Vec<(&[u64], i128)> = fitted_points.iter().copied().zip(values).collect();
        let Some(fit) = fit_quantity(&points, count) else {
            family.tried.push(format!("the {name} is no linear form in the parameters"));
            continue;
        };
        let wrong = held.iter().find(|instance| {
            instance.guess.pattern.as_ref().and_then(|found| quantity(&found.pattern, name))
                != Some(fit.at(&instance.parameters))
        });
        match wrong {
            Some(instance) => family.tried.push(format!(
                "{name} = {}, fitted, but not so for {}",
                fit.text(&names),
                instance.guess.game
            )),
            None => quantities.push(Quantity { name, fitted: fit }),
        }
    }
    family.quantities = quantities;
    let formula = match family.shape {
        Shape::Line { first } => fit_line_formula(first, &patterns, &fitted_points, count),
        Shape::Grid => fit_grid_formula(&patterns, &fitted_points, count),
    };
    let Some(formula) = formula else {
        family.tried.push("no family formula for the values: periodic with the period a linear form and one period as a table, n mod p, or blocks ⌊r/w⌋ mod 2 with a tail; bitwise forms with a linear shift; pair forms; Beatty pairs".to_owned());
        return;
    };
    for instance in &family.instances {
        let Some(found) = &instance.guess.pattern else {
            family.tried.push(format!(
                "{} fitted, but no pattern was found for {}",
                formula.text(&names),
                instance.guess.game
            ));
            return;
        };
        if !agrees(&formula, &instance.parameters, &found.pattern) {
            family.tried.push(format!(
                "{} fitted, but {} is {}",
                formula.text(&names),
                instance.guess.game,
                found.formula()
            ));
            return;
        }
    }
    family.formula = Some(formula);
}

/// A quantity of a single game's pattern.
fn quantity(pattern: &Pattern, name: &str) -> Option<i128> {
    match (pattern, name) {
        (Pattern::Line(LinePattern::Periodic { cycle, .. }), "period") => Some(cycle.len() as i128),
        (Pattern::Line(LinePattern::Periodic { start, .. }), "preperiod") => Some(i128::from(*start)),
        (Pattern::Line(LinePattern::Periodic { saltus, .. }), "saltus") => Some(i128::from(*saltus)),
        (Pattern::Line(LinePattern::PPositions { period, .. }), "period") => Some(i128::from(*period)),
        (Pattern::Line(LinePattern::PPositions { start, .. }), "preperiod") => Some(i128::from(*start)),
        (Pattern::Line(LinePattern::Bitwise { shift, .. }), "shift") => Some(i128::from(*shift)),
        (Pattern::Grid(GridPattern::Beatty { c }), "c") => Some(i128::from(*c)),
        (Pattern::Grid(GridPattern::Form(PairForm::SumMod(modulus))), "modulus") => Some(i128::from(*modulus)),
        _ => None,
    }
}

/// Every coefficient vector with entries in `range`, zero for the parameters that do not vary
/// among `points`, plainest first.
fn coefficient_vectors(points: &[&[u64]], count: usize, range: std::ops::RangeInclusive<i64>) -> Vec<Vec<i64>> {
    let varies: Vec<bool> =
        (0..count).map(|index| points.iter().any(|point| point[index] != points[0][index])).collect();
    let mut vectors = vec![Vec::new()];
    for varying in varies {
        let choices: Vec<i64> = if varying { range.clone().collect() } else { vec![0] };
        vectors = vectors
            .into_iter()
            .flat_map(|prefix: Vec<i64>| {
                choices.iter().map(move |&c| {
                    let mut next = prefix.clone();
                    next.push(c);
                    next
                })
            })
            .collect();
    }
    vectors.sort_by_key(|vector| {
        (
            vector.iter().filter(|&&c| c != 0).count(),
            vector.iter().map(|c| c.unsigned_abs()).sum::<u64>(),
            vector.clone(),
        )
    });
    vectors
}

/// The plainest linear form with small coefficients through every point, when there are
/// enough points to believe it.
fn fit_linear(points: &[(&[u64], i128)], count: usize) -> Option<Linear> {
    if points.len() < LEAST_FITTED {
        return None;
    }
    let parameters: Vec<&[u64]> = points.iter().map(|(point, _)| *point).collect();
    for coefficients in coefficient_vectors(&parameters, count, -4..=4) {
        let form = Linear { constant: 0, coefficients };
        let constant = points[0].1 - form.at(points[0].0);
        let Ok(constant) = i64::try_from(constant) else { continue };
        let form = Linear { constant, ..form };
        if points.iter().all(|(point, value)| form.at(point) == *value) {
            return Some(form);
        }
    }
    None
}

/// A linear form for the whole family, or one per residue class of one parameter modulo 2 or
/// 3 (each class with enough points).
fn fit_quantity(points: &[(&[u64], i128)], count: usize) -> Option<Fitted> {
    if let Some(form) = fit_linear(points, count) {
        return Some(Fitted::Linear(form));
    }
    for parameter in 0..count {
        for modulus in [2u64, 3] {
            let classes: Option<Vec<Linear>> = (0..modulus)
                .map(|residue| {
                    let class: Vec<(&[u64], i128)> =
                        points.iter().filter(|(point, _)| point[parameter] % modulus == residue).copied().collect();
                    fit_linear(&class, count)
                })
                .collect();
            if let Some(classes) = classes {
                return Some(Fitted::ByResidue { parameter, modulus, classes });
            }
        }
    }
    None
}

/// The values of a line pattern from `from` (for a periodic pattern, `value`; `None` past it).
fn line_value(pattern: &LinePattern, n: u64) -> Option<u64> {
    pattern.value(n).and_then(|value| u64::try_from(value).ok())
}

fn fit_line_formula(first: u64, patterns: &[&Pattern], points: &[&[u64]], count: usize) -> Option<FamilyFormula> {
    let lines: Option<Vec<&LinePattern>> = patterns
        .iter()
        .map(|pattern| match pattern {
            Pattern::Line(line) => Some(line),
            Pattern::Grid(_) => None,
        })
        .collect();
    let lines = lines?;
    if let Some(formula) = fit_bitwise(&lines, points, count) {
        return Some(formula);
    }
    let periodic: Option<Vec<(u64, u64, u64)>> = lines
        .iter()
        .map(|line| match line {
            LinePattern::Periodic { start, cycle, saltus, .. } => Some((*start, cycle.len() as u64, *saltus)),
            _ => None,
        })
        .collect();
    let periodic = periodic?;
    let start = periodic.iter().map(|&(start, ..)| start).max()?;
    let before: Vec<u64> = (first..start).map(|n| line_value(lines[0], n)).collect::<Option<_>>()?;
    for line in &lines[1..] {
        if (first..start).any(|n| line_value(line, n) != Some(before[(n - first) as usize])) {
            return None;
        }
    }
    for period in period_candidates(&periodic, points, count) {
        let lengths: Vec<u64> = points.iter().map(|point| period.at(point) as u64).collect();
        // The growth over the whole candidate period.
        let saltus_points: Vec<(&[u64], i128)> = points
            .iter()
            .zip(&periodic)
            .zip(&lengths)
            .map(|((point, &(_, least, saltus)), &length)| (*point, i128::from(saltus * (length / least))))
            .collect();
        let saltus = if saltus_points.iter().all(|&(_, value)| value == 0) {
            Linear::constant(0, count)
        } else {
            match fit_linear(&saltus_points, count) {
                Some(form) => form,
                None => continue,
            }
        };
        let cycles: Option<Vec<Vec<u64>>> = lines
            .iter()
            .zip(&lengths)
            .map(|(line, &length)| (0..length).map(|r| line_value(line, start + r)).collect())
            .collect();
        let Some(cycles) = cycles else { continue };
        if let Some(cycle) = fit_cycle(&cycles, points, count) {
            return Some(FamilyFormula::Periodic { first, start, before, period, saltus, cycle });
        }
    }
    None
}

/// Linear forms with small non-negative coefficients that each instance's least period
/// divides, plainest first.
fn period_candidates(periodic: &[(u64, u64, u64)], points: &[&[u64]], count: usize) -> Vec<Linear> {
    let mut candidates = Vec::new();
    // The least common multiple of the least periods, when the period is one constant.
    let common = periodic.iter().try_fold(1u64, |common, &(_, least, _)| {
        let next = common / gcd(common, least) * least;
        (next <= 4096).then_some(next)
    });
    if let Some(common) = common
        && common > 8
    {
        candidates.push(Linear::constant(common as i64, count));
    }
    for coefficients in coefficient_vectors(points, count, 0..=3) {
        for constant in [0, 1, -1, 2, -2, 3, -3, 4, 5, 6, 7, 8] {
            let form = Linear { constant, coefficients: coefficients.clone() };
            let divides = points.iter().zip(periodic).all(|(point, &(_, least, _))| {
                let length = form.at(point);
                (1..=MAX_CYCLE).contains(&length) && (length as u64).is_multiple_of(least)
            });
            if divides {
                candidates.push(form);
            }
        }
        if candidates.len() >= 24 {
            break;
        }
    }
    candidates
}

fn fit_cycle(cycles: &[Vec<u64>], points: &[&[u64]], count: usize) -> Option<CycleForm> {
    if cycles.iter().all(|cycle| cycle == &cycles[0]) {
        return Some(CycleForm::Table(cycles[0].clone()));
    }
    if cycles.iter().all(|cycle| cycle.iter().enumerate().all(|(r, &value)| value == r as u64)) {
        return Some(CycleForm::Remainder);
    }
    for coefficients in coefficient_vectors(points, count, 0..=2) {
        for constant in [0, 1, -1, 2, 3] {
            let width = Linear { constant, coefficients: coefficients.clone() };
            if let Some(tail) = fit_blocks(cycles, points, &width, count) {
                return Some(CycleForm::Blocks { width, tail });
            }
        }
    }
    None
}

/// The tail of `⌊r/w⌋ mod 2` blocks, when the cycles are such blocks (`Some(None)`: blocks
/// with no tail).
fn fit_blocks(cycles: &[Vec<u64>], points: &[&[u64]], width: &Linear, count: usize) -> Option<Option<Tail>> {
    let mut tail_value = None;
    // Per instance, the range of tail starts that explain its cycle.
    let mut ranges: Vec<(&[u64], i128, i128)> = Vec::new();
    for (cycle, point) in cycles.iter().zip(points) {
        let w = u64::try_from(width.at(point)).ok().filter(|&w| w >= 1)?;
        let base = |r: u64| (r / w) % 2;
        let differs: Vec<u64> = (0..cycle.len() as u64).filter(|&r| cycle[r as usize] != base(r)).collect();
        match differs.first() {
            None => {
                let last_even = (0..cycle.len() as u64).rev().find(|&r| base(r) == 0).map_or(0, |r| i128::from(r) + 1);
                ranges.push((point, last_even, i128::MAX / 4));
            }
            Some(&from) => {
                let value = cycle[from as usize];
                if *tail_value.get_or_insert(value) != value {
                    return None;
                }
                // Every even block from `from` on, and nothing else, takes the tail's value.
                let tail_ok = (0..cycle.len() as u64).all(|r| {
                    let in_tail = r >= from && base(r) == 0;
                    if in_tail { cycle[r as usize] == value } else { cycle[r as usize] == base(r) }
                });
                if !tail_ok || value < 2 {
                    return None;
                }
                let previous_even = (0..from).rev().find(|&r| base(r) == 0).map_or(0, |r| i128::from(r) + 1);
                ranges.push((point, previous_even, i128::from(from)));
            }
        }
    }
    let Some(value) = tail_value else { return Some(None) };
    let parameters: Vec<&[u64]> = ranges.iter().map(|(point, ..)| *point).collect();
    for coefficients in coefficient_vectors(&parameters, count, -2..=3) {
        let form = Linear { constant: 0, coefficients };
        let mut low = i128::MIN / 4;
        let mut high = i128::MAX / 4;
        for (point, from, to) in &ranges {
            let at = form.at(point);
            low = low.max(from - at);
            high = high.min(to - at);
        }
        if low <= high {
            let constant = 0i128.clamp(low, high);
            let Ok(constant) = i64::try_from(constant) else { continue };
            return Some(Some(Tail { from: Linear { constant, ..form }, value }));
        }
    }
    None
}

fn fit_bitwise(lines: &[&LinePattern], points: &[&[u64]], count: usize) -> Option<FamilyFormula> {
    let LinePattern::Bitwise { form, first, .. } = lines[0] else { return None };
    // Only games whose pattern holds from their first `n` are fitted: exceptions before it
    // (a single game's `before`) have no form across the family here.
    let shifts: Option<Vec<(&[u64], i128)>> = lines
        .iter()
        .zip(points)
        .map(|(line, point)| match line {
            LinePattern::Bitwise { form: this, shift, first: this_first, start, .. }
                if this == form && this_first == first && start == first =>
            {
                Some((*point, i128::from(*shift)))
            }
            _ => None,
        })
        .collect();
    let shift = fit_linear(&shifts?, count)?;
    Some(FamilyFormula::Bitwise { form: *form, shift, first: *first })
}

fn fit_grid_formula(patterns: &[&Pattern], points: &[&[u64]], count: usize) -> Option<FamilyFormula> {
    let grids: Option<Vec<&GridPattern>> = patterns
        .iter()
        .map(|pattern| match pattern {
            Pattern::Grid(grid) => Some(grid),
            Pattern::Line(_) => None,
        })
        .collect();
    let grids = grids?;
    match grids[0] {
        GridPattern::Diagonal if grids.iter().all(|grid| **grid == GridPattern::Diagonal) => {
            Some(FamilyFormula::Diagonal)
        }
        GridPattern::Form(PairForm::SumMod(_)) => {
            let moduli: Option<Vec<(&[u64], i128)>> = grids
                .iter()
                .zip(points)
                .map(|(grid, point)| match grid {
                    GridPattern::Form(PairForm::SumMod(modulus)) => Some((*point, i128::from(*modulus))),
                    _ => None,
                })
                .collect();
            Some(FamilyFormula::Pair(PairFamily::SumMod(fit_linear(&moduli?, count)?)))
        }
        GridPattern::Form(form) if grids.iter().all(|grid| *grid == grids[0]) => {
            Some(FamilyFormula::Pair(PairFamily::Fixed(*form)))
        }
        GridPattern::Beatty { .. } => {
            let constants: Option<Vec<(&[u64], i128)>> = grids
                .iter()
                .zip(points)
                .map(|(grid, point)| match grid {
                    GridPattern::Beatty { c } => Some((*point, i128::from(*c))),
                    _ => None,
                })
                .collect();
            Some(FamilyFormula::Beatty { c: fit_linear(&constants?, count)? })
        }
        _ => None,
    }
}

/// Whether the family formula at `parameters` is the same pattern as a single game's: for
/// eventually (arithmetic-)periodic lines, equal values on two whole common periods past both
/// preperiods, which makes them equal everywhere.
fn agrees(formula: &FamilyFormula, parameters: &[u64], pattern: &Pattern) -> bool {
    let Some(ours) = formula.at(parameters) else { return false };
    match (&ours, pattern) {
        (
            Pattern::Line(ours @ LinePattern::Periodic { first, start, cycle, .. }),
            Pattern::Line(theirs @ LinePattern::Periodic { start: their_start, cycle: their_cycle, .. }),
        ) => {
            let (p, q) = (cycle.len() as u64, their_cycle.len() as u64);
            let common = p / gcd(p, q) * q;
            if common > 1 << 22 {
                return false;
            }
            let end = (*start).max(*their_start) + 2 * common;
            (*first..end).all(|n| ours.value(n) == theirs.value(n))
        }
        (Pattern::Line(LinePattern::Bitwise { .. }), Pattern::Line(LinePattern::Bitwise { .. }))
        | (Pattern::Grid(_), Pattern::Grid(_)) => &ours == pattern,
        _ => false,
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The formula at parameter points past the ranges, against the values the rules give.
fn check_beyond(
    family: &mut FamilyGuess,
    formula: &FamilyFormula,
    build: &mut Build<'_>,
    control: &Control,
) -> Result<(), GameError> {
    let names = family.names();
    for step in 1..=BEYOND {
        let point: Vec<u64> =
            family.parameters.iter().enumerate().map(|(index, range)| range.high + step * (index as u64 + 1)).collect();
        let Ok((game_text, game)) = build(&point) else { continue };
        let Some(pattern) = formula.at(&point) else { continue };
        let (disagreement, checked_to) = match (&pattern, family.shape) {
            (Pattern::Line(line), Shape::Line { first }) => {
                let last = match line {
                    LinePattern::Periodic { start, cycle, .. } => (start + 4 * cycle.len() as u64).clamp(1000, 1 << 16),
                    _ => 4000,
                };
                let last = if first == 0 { last } else { last.min(4000) };
                let values = line_values(&*game, first, last, control)?;
                let at = line::first_disagreement(line, first, &values, 0);
                (at.map(|n| format!("n = {n}")), first + values.len() as u64 - 1)
            }
            (Pattern::Grid(grid), Shape::Grid) => {
                let values = match game.table(Some(128)) {
                    Some(Ok(Table::Grid { values })) => values,
                    Some(Err(error)) => return Err(error),
                    _ => continue,
                };
                let at = super::grid::first_disagreement(grid, &values, 0);
                (at.map(|(x, y)| format!("({x}, {y})")), values.len() as u64 - 1)
            }
            _ => continue,
        };
        if let Some(at) = disagreement {
            family.tried.push(format!(
                "{} fitted, but wrong for {game_text} ({}) at {at}",
                formula.text(&names),
                family.point(&point)
            ));
            family.formula = None;
            family.beyond.clear();
            return Ok(());
        }
        family.beyond.push(BeyondCheck { parameters: point, game: game_text, checked_to });
    }
    Ok(())
}

/// `G(first..=last)` of a heap game or coin row by its rules.
fn line_values(game: &dyn Ruleset, first: u64, last: u64, control: &Control) -> Result<Vec<u64>, GameError> {
    if let Some(heap) = game.heap_game() {
        let last = last.min(heap.default_max_heap());
        let mut sequence = CompactSequence::new();
        let len = usize::try_from(last + 1).map_err(|_| GameError::OutOfReach(format!("heap {last}")))?;
        if !heap.extend_sequence(&mut sequence, len, control)? {
            return Err(GameError::OutOfReach(format!("the values of {} were cancelled", heap.spec())));
        }
        return Ok(sequence.iter().map(u64::from).collect());
    }
    match game.coin_values(last) {
        Some(values) => values,
        None => Err(GameError::Unsupported(format!("{} has no line of values from {first}", game.spec()))),
    }
}

/// The formula a theorem gives for the whole family, the theorem, and its domain (forms that
/// must be at least 1): Bash's game `bash:M`, and two-element subtraction games `sub:X,Y`.
fn theorem(template: &Template, parameters: &[ParameterRange]) -> Option<(FamilyFormula, String, Vec<Linear>)> {
    let (prefix, items) = template.linear_items()?;
    let count = parameters.len();
    let names: Vec<String> = parameters.iter().map(|range| range.name.clone()).collect();
    let combine = |left: &Linear, right: &Linear, sign: i64| Linear {
        constant: left.constant + sign * right.constant,
        coefficients: left.coefficients.iter().zip(&right.coefficients).map(|(a, b)| a + sign * b).collect(),
    };
    let periodic = |period: Linear, cycle: CycleForm| FamilyFormula::Periodic {
        first: 0,
        start: 0,
        before: Vec::new(),
        period,
        saltus: Linear::constant(0, count),
        cycle,
    };
    match (prefix.as_str(), items.as_slice()) {
        ("bash", [m]) => {
            let m_text = m.text(&names);
            let plain = names.contains(&m_text);
            Some((
                periodic(combine(m, &Linear::constant(1, count), 1), CycleForm::Remainder),
                format!(
                    "Bash's game: G(n) = n mod (M + 1) for every M ≥ 1 (the multiples of M + 1 are the P-positions){}",
                    if plain { String::new() } else { format!(", here M = {m_text}") }
                ),
                vec![m.clone()],
            ))
        }
        ("sub", [x, y]) => {
            // The smaller item is a everywhere in the ranges (the domain check makes sure).
            let low = parameters.iter().map(|range| range.low).collect::<Vec<_>>();
            let (a, b) = if x.at(&low) <= y.at(&low) { (x, y) } else { (y, x) };
            let (a_text, b_text) = (a.text(&names), b.text(&names));
            Some((
                periodic(
                    combine(a, b, 1),
                    CycleForm::Blocks { width: a.clone(), tail: Some(Tail { from: b.clone(), value: 2 }) },
                ),
                format!(
                    "the two-element subtraction game theorem: for S = {{a, b}} with 1 ≤ a < b, G(n) = 2 if r ≥ b and ⌊r/a⌋ is even, else ⌊r/a⌋ mod 2, r = n mod (a + b) (by induction on n){}",
                    if a_text == "a" && b_text == "b" {
                        String::new()
                    } else {
                        format!("; here a = {a_text}, b = {b_text}")
                    }
                ),
                vec![a.clone(), combine(b, a, -1)],
            ))
        }
        ("sub", items) if items.len() >= 2 => {
            // {1, …, a − 1} as constants and one more item, K.
            let constants: Vec<i64> =
                items.iter().filter(|item| item.is_constant()).map(|item| item.constant).collect();
            let varying: Vec<&Linear> = items.iter().filter(|item| !item.is_constant()).collect();
            let [take] = varying.as_slice() else { return None };
            let below = constants.len() as i64 + 1;
            let mut sorted = constants.clone();
            sorted.sort_unstable();
            if sorted != (1..below).collect::<Vec<i64>>() {
                return None;
            }
            let take_text = take.text(&names);
            Some((
                FamilyFormula::BashPlusOne { below: below as u64, take: (*take).clone() },
                format!(
                    "Bash's game and one more move: for S = {{1, …, a − 1, K}} with K ≥ 1, G(n) = n mod a when a does not \
                     divide K, else G(n) = a where n mod (K + 1) = K and (n mod (K + 1)) mod a elsewhere (by induction \
                     on n; Codeforces 1194D is a = 3); here a = {below}, K = {take_text}"
                ),
                vec![(*take).clone()],
            ))
        }
        _ => None,
    }
}

mod answer;

pub use answer::*;

#[cfg(test)]
mod tests;
