//! Finding the pattern: what a person does after brute-forcing a table ("打表找规律").
//!
//! [`guess_game`] computes a game's values by its fastest correct path, fits pattern classes
//! on the positions up to `N` ([`line::fit`], [`grid::fit`]) and keeps the first pattern that
//! also holds on every position up to `M > N` that the fit never saw. A pattern is **proved**
//! only where a theorem proves it: a period of an octal or subtraction game checked as far as
//! its periodicity theorem asks ([`crate::heap::period::proof_needs`]), or a closed form the
//! family already knows (Nim, Bash). Everything else is **checked to `M`**, and when nothing
//! survives the check the answer is "no pattern found up to `N`" with what was tried: a false
//! pattern is worse than none.
//!
//! ```
//! use grundy::guess::guess_game;
//! use grundy::registry::parse_game;
//! let guess = guess_game(&*parse_game("kayles").unwrap(), Some(300), &Default::default()).unwrap();
//! let found = guess.pattern.unwrap();
//! assert_eq!(found.pattern.kind(), "periodic");
//! assert!(found.proof.is_some()); // the octal periodicity theorem
//! ```

pub mod emit;
pub mod family;
pub mod family_emit;
pub mod grid;
pub mod line;
pub mod template;

use crate::error::GameError;
use crate::heap::period::proof_needs;
use crate::heap::sequence::CompactSequence;
use crate::heap::{HeapGame, SequenceControl};
use crate::ruleset::{Chart, Ruleset, Table};
use grid::GridPattern;
use line::LinePattern;

/// The default fitting bound `N` for lines (heaps, coins).
pub const DEFAULT_LINE_FIT: u64 = 1000;
/// The default fitting bound `N` for two-heap tables (the side, `x, y ≤ N`).
pub const DEFAULT_GRID_FIT: u64 = 63;
/// The largest table side checked for a two-heap game.
pub const MAX_GRID_SIDE: u64 = 1024;
/// The largest fitting bound for a two-heap table (`x, y ≤ N`): the check needs a larger one.
pub const MAX_GRID_FIT: u64 = MAX_GRID_SIDE / 4 - 1;
/// The largest fitting bound for a coin row.
pub const MAX_COIN_FIT: u64 = 1 << 20;

/// The values a guess looks at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sample {
    /// `values[i] = G(first + i)`.
    Line {
        /// The first position (0 for heaps, 1 for coins).
        first: u64,
        /// The values.
        values: Vec<u64>,
    },
    /// `values[x][y] = G(x, y)`, a square.
    Grid {
        /// The rows.
        values: Vec<Vec<u64>>,
    },
}

/// A pattern of a line or of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// Of `G(n)`.
    Line(LinePattern),
    /// Of `G(x, y)`.
    Grid(GridPattern),
}

impl Pattern {
    /// The kind, for JSON (`periodic`, `arithmetic-periodic`, `bitwise`, `beatty`,
    /// `p-positions`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            Pattern::Line(line) => line.kind(),
            Pattern::Grid(grid) => grid.kind(),
        }
    }

    /// Whether the pattern gives values, not only P-positions.
    pub fn gives_values(&self) -> bool {
        match self {
            Pattern::Line(line) => line.gives_values(),
            Pattern::Grid(grid) => grid.gives_values(),
        }
    }

    /// As a person writes it.
    pub fn formula(&self) -> String {
        match self {
            Pattern::Line(line) => line.formula("G", "n"),
            Pattern::Grid(grid) => grid.formula(),
        }
    }

    /// The values the formula refers to (a period and a preperiod), one line each.
    pub fn details(&self) -> Vec<String> {
        match self {
            Pattern::Line(line) => line.details("G"),
            Pattern::Grid(grid) => grid.details(),
        }
    }
}

/// A pattern that survived the check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The pattern.
    pub pattern: Pattern,
    /// The theorem that proves it for every position, when one does; `None`: checked only.
    pub proof: Option<String>,
}

impl Found {
    /// As a person writes it.
    pub fn formula(&self) -> String {
        self.pattern.formula()
    }

    /// `proved` or `checked`.
    pub fn status(&self) -> &'static str {
        if self.proof.is_some() { "proved" } else { "checked" }
    }

    /// "proved by …" or "checked to M, fitted to N".
    pub fn status_text(&self, guess: &Guess) -> String {
        let range = format!(
            "fitted to {} = {}, checked to {} = {}",
            guess.variable(),
            guess.fitted_to,
            guess.variable(),
            guess.checked_to
        );
        match &self.proof {
            Some(theorem) => format!("proved: {theorem}; {range}"),
            None => format!("checked (not proved): {range}"),
        }
    }
}

/// What `grundy guess` answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guess {
    /// The game.
    pub game: String,
    /// Whether the positions are a line `n` or a table `x, y`.
    pub grid: bool,
    /// The pattern found, if any.
    pub pattern: Option<Found>,
    /// `N`: the fit used positions up to here (for a table, `x, y ≤ N`).
    pub fitted_to: u64,
    /// `M`: the pattern was checked on every position up to here.
    pub checked_to: u64,
    /// What was tried and why it was rejected, for the person to read.
    pub tried: Vec<String>,
}

impl Guess {
    /// `n` for a line, `x, y` for a table.
    pub fn variable(&self) -> &'static str {
        if self.grid { "max(x, y)" } else { "n" }
    }

    /// The whole answer as text.
    pub fn explain(&self) -> String {
        let mut text = String::new();
        match &self.pattern {
            Some(found) => {
                text.push_str(&format!("{}: {}\n", self.game, found.formula()));
                for line in found.pattern.details() {
                    text.push_str(&format!("  {line}\n"));
                }
                text.push_str(&format!("{}\n", found.status_text(self)));
            }
            None => {
                text.push_str(&format!(
                    "{}: no pattern found up to {} = {}\n",
                    self.game,
                    self.variable(),
                    self.fitted_to
                ));
                text.push_str(&format!("tried: {}\n", self.tried.join("; ")));
            }
        }
        text
    }
}

/// The positions a guess fits on and checks on, for a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// `N`.
    pub fit_to: u64,
    /// `M`.
    pub check_to: u64,
}

/// Fits `N` (default per shape) and derives `M`: four times as far, and further where values
/// are cheap, but not past what the game computes in seconds (`cap`).
fn plan(to: Option<u64>, default: u64, cheap_floor: u64, cap: u64) -> Plan {
    let fit_to = to.unwrap_or(default.min(cap / 4).max(8));
    let wanted = fit_to.saturating_mul(4).max(cheap_floor);
    let check_to = if wanted <= cap { wanted } else { cap.max(fit_to.saturating_mul(2)) };
    Plan { fit_to, check_to }
}

/// Fits pattern classes on the positions up to `fit_to` of `sample` and returns the first
/// that also holds on the rest of the sample. No proof is attempted (see [`guess_game`]).
pub fn guess_values(game: &str, sample: &Sample, fit_to: u64) -> Guess {
    let mut tried = Vec::new();
    let (grid, checked_to, pattern) = match sample {
        Sample::Line { first, values } => {
            let fit_len = usize::try_from(fit_to.saturating_add(1).saturating_sub(*first))
                .unwrap_or(usize::MAX)
                .min(values.len());
            let checked_to = first + values.len() as u64 - 1;
            let found =
                line::fit(*first, &values[..fit_len]).into_iter().find(|pattern| {
                    match line::first_disagreement(pattern, *first, values, fit_len) {
                        None => true,
                        Some(n) => {
                            tried.push(format!(
                                "{} (fitted to n = {fit_to}, but wrong at n = {n})",
                                pattern.formula("G", "n")
                            ));
                            false
                        }
                    }
                });
            (false, checked_to, found.map(Pattern::Line))
        }
        Sample::Grid { values } => {
            let side = usize::try_from(fit_to.saturating_add(1)).unwrap_or(usize::MAX).min(values.len());
            let square: Vec<Vec<u64>> = values[..side].iter().map(|row| row[..side].to_vec()).collect();
            let found =
                grid::fit(&square).into_iter().find(|pattern| match grid::first_disagreement(pattern, values, side) {
                    None => true,
                    Some((x, y)) => {
                        tried.push(format!("{} (fitted to {fit_to}, but wrong at ({x}, {y}))", pattern.formula()));
                        false
                    }
                });
            (true, values.len() as u64 - 1, found.map(Pattern::Grid))
        }
    };
    if pattern.is_none() {
        tried.extend(classes_tried(grid));
    }
    Guess {
        game: game.to_owned(),
        grid,
        pattern: pattern.map(|pattern| Found { pattern, proof: None }),
        fitted_to: fit_to,
        checked_to,
        tried,
    }
}

fn classes_tried(grid: bool) -> Vec<String> {
    let classes: &[&str] = if grid {
        &[
            "G = x xor y, x ⊗ y, x + y, (x + y) mod m, min, max, |x − y|",
            "G(x, y) = R(x) xor C(y) and R(x) ⊗ C(y) with R, C patterned",
            "P-positions as Beatty pairs (a_n, a_n + c·n), c ≤ 16",
            "P-positions x = y",
            "rows periodic or arithmetic-periodic in y",
        ]
    } else {
        &[
            "periodic (with preperiod, 3 periods seen)",
            "arithmetic-periodic",
            "G(n) = f(n + c) for f in gray code, lowest bit, 2-adic valuation, popcount, its parity, odious, evil, highest bit; |c| ≤ 3",
            "P-positions periodic",
        ]
    };
    classes.iter().map(|class| (*class).to_owned()).collect()
}

/// Guesses the pattern of `game`: heap games (a line from heap 0), coin games (the value of one
/// heads coin at place `n ≥ 1`) and two-heap games (a table). `to` is `N`; the default and
/// the check bound `M` depend on the game's cost.
///
/// # Errors
/// [`GameError::Unsupported`] for a game with no infinite family of positions (a finite graph,
/// a script on strings); the game's own errors while computing values.
pub fn guess_game(game: &dyn Ruleset, to: Option<u64>, control: &SequenceControl) -> Result<Guess, GameError> {
    let spec = game.spec();
    let refuse_past = |largest: u64, what: &str| match to {
        Some(to) if to > largest => Err(GameError::OutOfReach(format!(
            "a guess on {what} fits positions up to {largest} at most, not {to} (the check runs further out)"
        ))),
        _ => Ok(()),
    };
    if game.chart() == Chart::Grid {
        refuse_past(MAX_GRID_FIT, &format!("the table of {spec}"))?;
        let plan = plan(to, DEFAULT_GRID_FIT, 255, MAX_GRID_SIDE - 1);
        let side = plan.check_to + 1;
        let values = match game.table(Some(side)) {
            Some(Ok(Table::Grid { values })) => values,
            Some(Err(error)) => return Err(error),
            _ => return Err(nothing_to_guess(&spec)),
        };
        // A script may bound its tables below the side asked for.
        let fit_to = plan.fit_to.min((values.len() as u64).saturating_sub(1) / 2);
        return Ok(guess_values(&spec, &Sample::Grid { values }, fit_to));
    }
    if let Some(heap) = game.heap_game() {
        return guess_heap_game(heap, to, control);
    }
    if game.coin_values(0).is_some() {
        refuse_past(MAX_COIN_FIT, &format!("the coins of {spec}"))?;
        let plan = plan(to, DEFAULT_LINE_FIT, 4 * DEFAULT_LINE_FIT, 4 * MAX_COIN_FIT);
        let values = game.coin_values(plan.check_to).expect("a coin game")?;
        return Ok(guess_values(&spec, &Sample::Line { first: 1, values }, plan.fit_to));
    }
    Err(nothing_to_guess(&spec))
}

fn nothing_to_guess(spec: &str) -> GameError {
    GameError::Unsupported(format!(
        "`{spec}` has no infinite family of positions to find a pattern in: guess takes heap games, two-heap games \
         (wythoff, corners, product:A:B, scripts on pairs) and coin rows"
    ))
}

/// A heap game: the nim-sequence to `M`, the fit, and a proof where the game's periodicity
/// theorem or closed form gives one.
fn guess_heap_game(game: &dyn HeapGame, to: Option<u64>, control: &SequenceControl) -> Result<Guess, GameError> {
    let cap = game.default_max_heap();
    let plan = plan(to, DEFAULT_LINE_FIT, 1 << 16, cap);
    let mut sequence = CompactSequence::new();
    extend(game, &mut sequence, plan.check_to, control)?;
    let values: Vec<u64> = sequence.iter().map(u64::from).collect();
    let mut guess = guess_values(&game.spec(), &Sample::Line { first: 0, values }, plan.fit_to);
    let Some(Found { pattern: Pattern::Line(LinePattern::Periodic { start, cycle, saltus, .. }), proof }) =
        guess.pattern.as_mut()
    else {
        return Ok(guess);
    };
    let period = cycle.len() as u64;
    if let Some(known) = game.known_period()
        && (known.preperiod, known.period, known.saltus) == (*start, period, *saltus)
    {
        *proof = Some(known.theorem);
        return Ok(guess);
    }
    if *saltus != 0 {
        return Ok(guess);
    }
    let Some(needs) = proof_needs(game.periodicity(), *start, period) else {
        return Ok(guess);
    };
    if needs > guess.checked_to {
        if needs > cap {
            return Ok(guess);
        }
        extend(game, &mut sequence, needs, control)?;
        let pattern = guess.pattern.as_ref().map(|found| found.pattern.clone());
        let Some(Pattern::Line(pattern)) = pattern else { unreachable!("a line pattern") };
        let values: Vec<u64> = sequence.iter().map(u64::from).collect();
        if let Some(n) = line::first_disagreement(&pattern, 0, &values, guess.checked_to as usize + 1) {
            guess.tried.push(format!(
                "{} (checked to {}, but wrong at n = {n})",
                pattern.formula("G", "n"),
                guess.checked_to
            ));
            guess.tried.extend(classes_tried(false));
            guess.pattern = None;
            guess.checked_to = needs;
            return Ok(guess);
        }
        guess.checked_to = needs;
    }
    if let Some(found) = guess.pattern.as_mut() {
        found.proof = Some(periodicity_theorem(game, needs));
    }
    Ok(guess)
}

fn extend(
    game: &dyn HeapGame,
    sequence: &mut CompactSequence,
    last: u64,
    control: &SequenceControl,
) -> Result<(), GameError> {
    let len = usize::try_from(last.saturating_add(1)).map_err(|_| GameError::OutOfReach(format!("heap {last}")))?;
    if !game.extend_sequence(sequence, len, control)? {
        return Err(GameError::OutOfReach(format!(
            "the guess for {} was cancelled at heap {}",
            game.spec(),
            sequence.len()
        )));
    }
    Ok(())
}

fn periodicity_theorem(game: &dyn HeapGame, needs: u64) -> String {
    match game.periodicity() {
        crate::heap::Periodicity::Octal { .. } => format!(
            "the periodicity theorem for octal games (Guy and Smith 1956; Winning Ways ch. 4), values checked to heap {needs}"
        ),
        crate::heap::Periodicity::Subtraction { max_take } => format!(
            "the window argument for subtraction games (the {max_take} values before a heap decide it), values checked to heap {needs}"
        ),
        crate::heap::Periodicity::Unproved => unreachable!("proof_needs gives no bound without a theorem"),
    }
}

/// A guess as data, for JSON and Python: `{"game", "pattern": {"kind", "formula", "status",
/// "fitted_to", "checked_to", …parameters}}`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GuessAnswer {
    /// The game.
    pub game: String,
    /// What was found.
    pub pattern: PatternAnswer,
}

/// The pattern part of a [`GuessAnswer`]; the parameters present depend on `kind`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PatternAnswer {
    /// `periodic`, `arithmetic-periodic`, `bitwise`, `xor-of-lines`, `product-of-lines`,
    /// `beatty`, `p-positions`, or `none`.
    pub kind: &'static str,
    /// The pattern as a person writes it (`null` for `none`).
    pub formula: Option<String>,
    /// `proved` or `checked` (`null` for `none`).
    pub status: Option<&'static str>,
    /// The theorem, when `proved`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub proof: Option<String>,
    /// `N`.
    pub fitted_to: u64,
    /// `M`.
    pub checked_to: u64,
    /// Whether the pattern gives the values (`grundy_value`) or only the P-positions.
    pub gives_values: bool,
    /// The first position of a line (0 for heaps, 1 for coins).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub first: Option<u64>,
    /// Periodic patterns: `e`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub preperiod: Option<u64>,
    /// Periodic patterns and P-positions: `p`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub period: Option<u64>,
    /// Periodic patterns: `s`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub saltus: Option<u64>,
    /// Periodic patterns: the values before the period, `G(first..e)`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub before: Option<Vec<u64>>,
    /// Periodic patterns: one period, `G(e..e + p)`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub cycle: Option<Vec<u64>>,
    /// Bitwise line patterns: the function's name; pair forms: `xor`, `nim-product`, ….
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub form: Option<String>,
    /// Bitwise line patterns: `c` in `G(n) = f(n + c)`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub shift: Option<i64>,
    /// P-positions of a line: the residues of `n − e` modulo `p` that are P.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub residues: Option<Vec<u64>>,
    /// P-positions of a line below `e`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub early: Option<Vec<u64>>,
    /// Beatty pairs: `c` in `b_n = a_n + c·n`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub c: Option<u64>,
    /// Beatty pairs: `α` with `a_n = ⌊nα⌋`, as text.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub alpha: Option<String>,
    /// Separable tables: the pattern of `R(x)`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub row: Option<String>,
    /// Separable tables: the pattern of `C(y)`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub column: Option<String>,
    /// Rows patterns: each covered row's pattern, `R` standing for `G(x, ·)`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub rows: Option<Vec<String>>,
    /// When nothing was found: what was tried.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub tried: Option<Vec<String>>,
}

impl GuessAnswer {
    /// The answer for `guess`.
    pub fn of(guess: &Guess) -> GuessAnswer {
        let mut answer = PatternAnswer {
            kind: "none",
            fitted_to: guess.fitted_to,
            checked_to: guess.checked_to,
            ..PatternAnswer::default()
        };
        match &guess.pattern {
            None => answer.tried = Some(guess.tried.clone()),
            Some(found) => {
                answer.kind = found.pattern.kind();
                answer.formula = Some(found.formula());
                answer.status = Some(found.status());
                answer.proof = found.proof.clone();
                answer.gives_values = found.pattern.gives_values();
                match &found.pattern {
                    Pattern::Line(line) => describe_line(line, &mut answer),
                    Pattern::Grid(grid) => describe_grid(grid, &mut answer),
                }
            }
        }
        GuessAnswer { game: guess.game.clone(), pattern: answer }
    }
}

fn describe_line(pattern: &LinePattern, answer: &mut PatternAnswer) {
    match pattern {
        LinePattern::Periodic { first, start, before, cycle, saltus } => {
            answer.first = Some(*first);
            answer.preperiod = Some(*start);
            answer.period = Some(cycle.len() as u64);
            answer.saltus = Some(*saltus);
            answer.before = Some(before.clone());
            answer.cycle = Some(cycle.clone());
        }
        LinePattern::Bitwise { form, shift } => {
            answer.form = Some(form.name().to_owned());
            answer.shift = Some(*shift);
        }
        LinePattern::PPositions { start, period, residues, early } => {
            answer.preperiod = Some(*start);
            answer.period = Some(*period);
            answer.residues = Some(residues.clone());
            answer.early = Some(early.clone());
        }
    }
}

fn describe_grid(pattern: &GridPattern, answer: &mut PatternAnswer) {
    match pattern {
        GridPattern::Form(form) => answer.form = Some(form.name().to_owned()),
        GridPattern::XorOfLines { row, column } | GridPattern::ProductOfLines { row, column } => {
            answer.row = Some(row.formula("R", "x"));
            answer.column = Some(column.formula("C", "y"));
        }
        GridPattern::Beatty { c } => {
            answer.c = Some(*c);
            answer.alpha = Some(grid::beatty_alpha_text(*c));
        }
        GridPattern::Diagonal => {}
        GridPattern::Rows { .. } => answer.rows = Some(pattern.details()),
    }
}

#[cfg(test)]
mod tests;
