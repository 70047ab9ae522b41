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
mod theorems;

use crate::coins::CoinValues;
use crate::control::Control;
use crate::error::GameError;
use crate::heap::AsHeapGame;
use crate::heap::HeapGame;
use crate::heap::period::{Proof, find_period};
use crate::heap::sequence::CompactSequence;
use crate::ruleset::Ruleset;
use crate::view::{Chart, PairValues, Table, Views};
use grid::GridPattern;
use line::LinePattern;
use std::time::{Duration, Instant};

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
        /// The least coordinate of a position, 0 or 1: with 1 (a game whose pairs start at 1,
        /// E&D's heaps, a board's sides), the row and the column 0 are no positions, and only a
        /// pattern that leaves them out is kept.
        first: u64,
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
    /// Why the check stopped short of the bound planned (the time budget, the game's cost),
    /// when it did.
    pub note: Option<String>,
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
        if let Some(note) = &self.note {
            text.push_str(&format!("note: {note}\n"));
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

/// How far a guess looks, and how long it may take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GuessOptions {
    /// `N`, the fitting bound (`None`: the default of the game's shape, or what the time budget
    /// allows).
    pub fit_to: Option<u64>,
    /// `M`, the checking bound, computed whatever it costs (`None`: four times `N`, and further
    /// where values are cheap, within the time budget).
    pub check_to: Option<u64>,
    /// How long computing the values may take when `check_to` is not given: the check stops
    /// where the budget runs out (never before `2N` when `N` is given), and the answer says how
    /// far it got. `None`: no limit of time (the answer depends only on the game).
    pub budget: Option<Duration>,
}

/// Fits `N` (default per shape) and derives `M`: four times as far; by default (no `N` given)
/// further where values are cheap (`cheap_floor`), but not past what the game computes in
/// seconds (`cap`).
fn plan(options: &GuessOptions, default: u64, cheap_floor: u64, cap: u64) -> Plan {
    let fit_to = options.fit_to.unwrap_or_else(|| match options.check_to {
        // Only M given: fit on its first quarter.
        Some(check_to) => default.min(check_to / 4).max(check_to.min(8)),
        None => default.min(cap / 4).max(8),
    });
    let check_to = match options.check_to {
        Some(check_to) => check_to,
        None => {
            // A bound the user gave is honoured: the check runs to 4N, not to the cheap floor.
            let floor = if options.fit_to.is_some() { 0 } else { cheap_floor };
            let wanted = fit_to.saturating_mul(4).max(floor);
            if wanted <= cap { wanted } else { cap.max(fit_to.saturating_mul(2)) }
        }
    };
    Plan { fit_to, check_to }
}

/// The clock of a guess: when the time budget runs out.
struct Clock {
    started: Instant,
    budget: Option<Duration>,
    /// How long the step before the last took, to foresee how the next one grows.
    previous: std::cell::Cell<Option<Duration>>,
}

impl Clock {
    fn new(options: &GuessOptions) -> Clock {
        Clock {
            started: Instant::now(),
            budget: if options.check_to.is_some() { None } else { options.budget },
            previous: std::cell::Cell::new(None),
        }
    }

    /// Whether a step of doubling that took `last` may be followed by the next. The next is
    /// foreseen to take `last` times the growth seen from the step before (`growth` until two
    /// steps are seen, and between 2 and 16 times).
    fn affords(&self, last: Duration, growth: u32) -> bool {
        let foreseen = match self.previous.replace(Some(last)) {
            Some(previous) if previous >= Duration::from_millis(20) => {
                last.mul_f64((last.as_secs_f64() / previous.as_secs_f64()).clamp(2.0, 16.0))
            }
            _ => last * growth,
        };
        match self.budget {
            None => true,
            Some(budget) => self.started.elapsed() + foreseen <= budget,
        }
    }

    /// Forgets the steps seen: the next steps grow differently.
    fn new_phase(&self) {
        self.previous.set(None);
    }

    fn limited(&self) -> bool {
        self.budget.is_some()
    }
}

/// Why the check stopped short of the bound planned: the time budget.
fn budget_note(variable: &str, reached: u64, planned: u64, clock: &Clock) -> Option<String> {
    (reached < planned).then(|| {
        format!(
            "checked to {variable} = {reached} of the {planned} planned: going further would pass the time budget \
             of {} s; --check-to M checks further",
            clock.budget.map_or(0, |budget| budget.as_secs())
        )
    })
}

/// Fits pattern classes on the positions up to `fit_to` of `sample` and returns the first
/// that also holds on the rest of the sample. No proof is attempted (see [`guess_game`]).
pub fn guess_values(game: &str, sample: &Sample, fit_to: u64) -> Guess {
    let mut tried = Vec::new();
    let (grid, checked_to, pattern) =
        match sample {
            Sample::Line { first, values } => {
                let fit_len = usize::try_from(fit_to.saturating_add(1).saturating_sub(*first))
                    .unwrap_or(usize::MAX)
                    .min(values.len());
                let checked_to = first + values.len() as u64 - 1;
                let found = line::fit(*first, &values[..fit_len]).into_iter().find(|pattern| {
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
            Sample::Grid { first, values } => {
                let side = usize::try_from(fit_to.saturating_add(1)).unwrap_or(usize::MAX).min(values.len());
                let square: Vec<Vec<u64>> = values[..side].iter().map(|row| row[..side].to_vec()).collect();
                // On pairs from 1, a pattern that says anything of row or column 0 speaks of no position.
                let from_first = |pattern: &GridPattern| {
                    *first == 0 || (0..*first).all(|low| !pattern.covers(low, *first) && !pattern.covers(*first, low))
                };
                let found = grid::fit(&square).into_iter().filter(from_first).find(|pattern| {
                    match grid::first_disagreement(pattern, values, side) {
                        None => true,
                        Some((x, y)) => {
                            tried.push(format!("{} (fitted to {fit_to}, but wrong at ({x}, {y}))", pattern.formula()));
                            false
                        }
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
        note: None,
    }
}

fn classes_tried(grid: bool) -> Vec<String> {
    let classes: &[&str] = if grid {
        &[
            "G = x xor y, x ⊗ y, x + y, (x + y) mod m, min, max, |x − y|, the lowest 0 bit of x | y or of (x − 1) | (y − 1)",
            "G(x, y) = R(x) xor C(y) and R(x) ⊗ C(y) with R, C patterned",
            "G(x, y) = k·(⌊x/k⌋ xor ⌊y/k⌋) + T(x mod k, y mod k), k ≤ 8",
            "G(x + p, y) = G(x, y) + d, G(x, y + q) = G(x, y) + e",
            "P-positions as Beatty pairs (a_n, a_n + c·n), c ≤ 16",
            "P-positions x = y",
            "P-positions periodic in x and in y (from 0 or from 1), periods ≤ 8",
            "rows periodic or arithmetic-periodic in y",
        ]
    } else {
        &[
            "periodic (with preperiod, 3 periods seen)",
            "arithmetic-periodic",
            "G(n) = f(n + c) for f in gray code, lowest bit, 2-adic valuation, popcount, its parity, odious, evil, highest bit; |c| ≤ 3, up to 16 exceptions first",
            "P-positions periodic",
        ]
    };
    classes.iter().map(|class| (*class).to_owned()).collect()
}

/// Guesses the pattern of `game`: heap games (a line from heap 0), coin games (the value of one
/// heads coin at place `n ≥ 1`) and two-heap games (a table). `to` is `N`; the default and
/// the check bound `M` depend on the game's cost. No time budget: see [`guess_game_with`].
///
/// # Errors
/// [`GameError::Unsupported`] for a game with no infinite family of positions (a finite graph,
/// a script on strings); the game's own errors while computing values.
pub fn guess_game(game: &dyn Ruleset, to: Option<u64>, control: &Control) -> Result<Guess, GameError> {
    guess_game_with(game, &GuessOptions { fit_to: to, ..GuessOptions::default() }, control)
}

/// [`guess_game`] with a checking bound and a time budget ([`GuessOptions`]). A heap game whose
/// periods a theorem proves (octal, subtraction, Nim, Bash) goes to the period prover first
/// ([`crate::heap::period::find_period`]), as far as the budget allows; then the classes are
/// fitted. Progress goes to the control's sink.
///
/// # Errors
/// As [`guess_game`]; also a checking bound below the fitting bound.
pub fn guess_game_with(game: &dyn Ruleset, options: &GuessOptions, control: &Control) -> Result<Guess, GameError> {
    let spec = game.spec();
    if let (Some(fit_to), Some(check_to)) = (options.fit_to, options.check_to)
        && check_to < fit_to
    {
        return Err(GameError::OutOfReach(format!(
            "the check must reach at least the fitted positions: --check-to {check_to} is below --to {fit_to}"
        )));
    }
    let refuse_past = |largest: u64, value: Option<u64>, what: &str| match value {
        Some(to) if to > largest => {
            Err(GameError::OutOfReach(format!("a guess on {what} goes to positions up to {largest} at most, not {to}")))
        }
        _ => Ok(()),
    };
    let clock = Clock::new(options);
    let mut guess = if game.chart() == Chart::Grid {
        refuse_past(MAX_GRID_FIT, options.fit_to, &format!("the table of {spec} (fitting)"))?;
        refuse_past(MAX_GRID_SIDE - 1, options.check_to, &format!("the table of {spec}"))?;
        let table = |side: u64| match game.table(Some(side)) {
            Some(Ok(Table::Grid { values })) => Ok(values),
            Some(Err(error)) => Err(error),
            _ => Err(nothing_to_guess(&spec)),
        };
        guess_grid(&spec, 0, &table, options, &clock, control)?
    } else if let Some(pairs) = game.capability::<PairValues>() {
        refuse_past(MAX_GRID_FIT, options.fit_to, &format!("the table of {spec} (fitting)"))?;
        refuse_past(MAX_GRID_SIDE - 1, options.check_to, &format!("the table of {spec}"))?;
        let table = |side: u64| {
            control.check_memory(|| format!("the {side}×{side} table of {spec}"), u128::from(side).pow(2), 8)?;
            pairs.pair_values(side)
        };
        guess_grid(&spec, pairs.first(), &table, options, &clock, control)?
    } else if let Some(heap) = game.heap_game() {
        guess_heap_game(&*heap, options, &clock, control)?
    } else if game.coin_values(0).is_some() {
        refuse_past(MAX_COIN_FIT, options.fit_to, &format!("the coins of {spec} (fitting)"))?;
        refuse_past(4 * MAX_COIN_FIT, options.check_to, &format!("the coins of {spec}"))?;
        guess_coins(game, options, &clock, control)?
    } else {
        return Err(nothing_to_guess(&spec));
    };
    if let Some(found) = guess.pattern.as_mut()
        && found.proof.is_none()
    {
        found.proof = theorems::proof(&spec, &found.pattern);
    }
    Ok(guess)
}

/// A two-heap game's table (`table(side)`, positions from `first`), the side doubled while the
/// budget allows.
fn guess_grid(
    spec: &str,
    first: u64,
    table: &dyn Fn(u64) -> Result<Vec<Vec<u64>>, GameError>,
    options: &GuessOptions,
    clock: &Clock,
    control: &Control,
) -> Result<Guess, GameError> {
    let plan = plan(options, DEFAULT_GRID_FIT, 255, MAX_GRID_SIDE - 1);
    let task = control.task(&format!("guess {spec}: the table"), plan.check_to + 1);
    // The least side that is enough: twice the fit when N was given, else 16.
    let least = if options.fit_to.is_some() { plan.fit_to.saturating_mul(2) + 1 } else { 16 };
    let mut side = least.min(plan.check_to + 1);
    let mut values;
    loop {
        let started = Instant::now();
        values = table(side)?;
        task.set(side);
        // A script may bound its tables below the side asked for.
        if (values.len() as u64) < side || side > plan.check_to || control.cancelled() {
            break;
        }
        // A table of side s costs at least s² positions, each with up to 2s options.
        if !clock.affords(started.elapsed(), 8) {
            break;
        }
        let next = (side * 2).min(plan.check_to + 1);
        if next == side {
            break;
        }
        side = next;
    }
    let reached = (values.len() as u64).saturating_sub(1);
    let fit_to = if options.fit_to.is_some() {
        plan.fit_to.min(reached / 2)
    } else {
        plan.fit_to.min(reached / 4).max(reached.min(7))
    };
    let mut guess = guess_values(spec, &Sample::Grid { first, values }, fit_to);
    if clock.limited() {
        guess.note = budget_note("max(x, y)", reached, plan.check_to, clock);
    }
    Ok(guess)
}

/// A coin row's values, the last coin doubled while the budget (and the game's own limit of
/// work) allows.
fn guess_coins(
    game: &dyn Ruleset,
    options: &GuessOptions,
    clock: &Clock,
    control: &Control,
) -> Result<Guess, GameError> {
    let spec = game.spec();
    let plan = plan(options, DEFAULT_LINE_FIT, 4 * DEFAULT_LINE_FIT, 4 * MAX_COIN_FIT);
    let values_to = |last: u64| game.coin_values(last).expect("a coin game");
    let task = control.task(&format!("guess {spec}: coin values"), plan.check_to);
    let least = if options.fit_to.is_some() { plan.fit_to.saturating_mul(2) } else { 64 };
    let mut last = least.min(plan.check_to).max(8);
    // The values to the fitting bound (or the least check) are needed: their error is the answer.
    let mut values = values_to(last)?;
    task.set(last);
    let mut stopped_by_cost = false;
    while last < plan.check_to && !control.cancelled() {
        let started = Instant::now();
        let next = last.saturating_mul(2).min(plan.check_to);
        match values_to(next) {
            Ok(more) => {
                values = more;
                last = next;
                task.set(last);
            }
            // More coins than the rule's tables allow: check as far as they do.
            Err(GameError::TooLarge { .. } | GameError::Unsupported(_)) => {
                stopped_by_cost = true;
                break;
            }
            Err(error) => return Err(error),
        }
        if !clock.affords(started.elapsed(), 16) {
            break;
        }
    }
    let fit_to =
        if options.fit_to.is_some() { plan.fit_to.min(last) } else { plan.fit_to.min(last / 4).max(last.min(8)) };
    let mut guess = guess_values(&spec, &Sample::Line { first: 1, values }, fit_to);
    if last < plan.check_to {
        guess.note = if stopped_by_cost {
            Some(format!(
                "the coin values of {spec} past coin {last} cost more than grundy computes: checked to n = {last}"
            ))
        } else if clock.limited() {
            budget_note("n", last, plan.check_to, clock)
        } else {
            None
        };
    }
    Ok(guess)
}

fn nothing_to_guess(spec: &str) -> GameError {
    GameError::Unsupported(format!(
        "`{spec}` has no infinite family of positions to find a pattern in: guess takes heap games, two-heap games \
         (wythoff, corners, product:A:B, e-and-d, king, euclid, scripts on pairs) and coin rows"
    ))
}

/// The most heaps the period prover computes without a time budget for a game with a theorem
/// (with one, as far as the game's own bound for `grundy period`): it stops as soon as a period
/// is proved, and these games' values cost little (`.127` needs 93167 values: `--check-to`
/// or the budget reach them).
const PROVER_FLOOR: u64 = 1 << 16;

/// A heap game: the period prover first (where a theorem can prove a period), then the
/// nim-sequence to `M` and the fit.
fn guess_heap_game(
    game: &dyn HeapGame,
    options: &GuessOptions,
    clock: &Clock,
    control: &Control,
) -> Result<Guess, GameError> {
    let cap = game.default_max_heap();
    if let Some(to) = options.fit_to
        && to > cap.max(PROVER_FLOOR)
        && options.check_to.is_none()
    {
        // The check bound would pass what the game computes in seconds: say so at once.
        control.check_memory(
            || format!("the nim-sequence of {} up to heap {} (twice --to)", game.spec(), to.saturating_mul(2)),
            u128::from(to) * 2 + 1,
            4,
        )?;
    }
    let plan = plan(options, DEFAULT_LINE_FIT, 1 << 16, cap);
    let spec = game.spec();
    let task = control.task(&format!("guess {spec}: the nim-sequence"), 0);
    // The values known, shown as this task's count.
    let relayed;
    let control = if control.reports_progress() {
        relayed = control.relaying(crate::heap::SEQUENCE_TASK, move |done| task.set(done));
        &relayed
    } else {
        control
    };
    let mut sequence = CompactSequence::new();
    let mut prover_tried = None;
    if game.periodicity() != crate::heap::Periodicity::Unproved || game.known_period().is_some() {
        let bound = if clock.limited() { cap.max(plan.check_to) } else { plan.check_to.max(PROVER_FLOOR.min(cap)) };
        if let Some(guess) = prove_period(game, &mut sequence, bound, clock, control)? {
            return Ok(guess);
        }
        prover_tried = Some(format!(
            "the periodicity theorem: no period proved on heaps 0..{}",
            (sequence.len() as u64).saturating_sub(1)
        ));
    }
    // The values to the fit (twice it when N was given) whatever the budget, then on in
    // stretches while it lasts.
    let least = if options.fit_to.is_some() { plan.fit_to.saturating_mul(2) } else { 64 };
    extend(game, &mut sequence, least.min(plan.check_to), control)?;
    let mut reached = sequence.len() as u64 - 1;
    clock.new_phase();
    while reached < plan.check_to && !control.cancelled() {
        let started = Instant::now();
        let next = reached.saturating_mul(2).max(reached + 1).min(plan.check_to);
        extend(game, &mut sequence, next, control)?;
        reached = next;
        if !clock.affords(started.elapsed(), 8) {
            break;
        }
    }
    let reached = sequence.len() as u64 - 1;
    let fit_to = if options.fit_to.is_some() {
        plan.fit_to.min(reached)
    } else {
        plan.fit_to.min(reached / 4).max(reached.min(8))
    };
    let values: Vec<u64> = sequence.iter().map(u64::from).collect();
    let mut guess = guess_values(&spec, &Sample::Line { first: 0, values }, fit_to);
    if clock.limited() && reached < plan.check_to {
        guess.note = budget_note("n", reached, plan.check_to, clock);
    }
    if guess.pattern.is_none()
        && let Some(text) = prover_tried
    {
        guess.tried.insert(0, text);
    }
    if let Some(Found { pattern: Pattern::Line(LinePattern::Periodic { start, cycle, saltus, .. }), proof }) =
        guess.pattern.as_mut()
        && let Some(known) = game.known_period()
        && (known.preperiod, known.period, known.saltus) == (*start, cycle.len() as u64, *saltus)
    {
        *proof = Some(known.theorem);
    }
    Ok(guess)
}

/// Runs the period prover to heap `bound` at most, the bound raised fourfold at a time while
/// the budget allows. `Some` answer when a period is proved.
fn prove_period(
    game: &dyn HeapGame,
    sequence: &mut CompactSequence,
    bound: u64,
    clock: &Clock,
    control: &Control,
) -> Result<Option<Guess>, GameError> {
    let mut max_heap = if clock.limited() { bound.min(1 << 12) } else { bound };
    let report = loop {
        let started = Instant::now();
        let report = find_period(game, sequence, max_heap, control, &mut |_| {})?;
        if report.proved.is_some() || report.interrupted || max_heap >= bound || !clock.affords(started.elapsed(), 4) {
            break report;
        }
        max_heap = max_heap.saturating_mul(4).min(bound);
    };
    let Some((period, proof)) = report.proved else {
        return Ok(None);
    };
    let values: Vec<u64> = sequence.iter().map(u64::from).collect();
    let (start, length) = (period.preperiod as usize, period.period as usize);
    if values.len() < start + length {
        return Ok(None);
    }
    let pattern = LinePattern::Periodic {
        first: 0,
        start: period.preperiod,
        before: values[..start].to_vec(),
        cycle: values[start..start + length].to_vec(),
        saltus: period.saltus,
    };
    // Proved, so it holds on every value computed; a disagreement would be a bug: no claim.
    if line::first_disagreement(&pattern, 0, &values, 0).is_some() {
        return Ok(None);
    }
    let theorem = match proof {
        Proof::ClosedForm { theorem } => theorem,
        Proof::Octal { .. } | Proof::Window { .. } => periodicity_theorem(game, period.checked_to),
    };
    let checked_to = values.len() as u64 - 1;
    Ok(Some(Guess {
        game: game.spec(),
        grid: false,
        pattern: Some(Found { pattern: Pattern::Line(pattern), proof: Some(theorem) }),
        // The prover read the pattern off the values to here.
        fitted_to: period.checked_to.min(checked_to),
        checked_to,
        tried: Vec::new(),
        note: None,
    }))
}

fn extend(game: &dyn HeapGame, sequence: &mut CompactSequence, last: u64, control: &Control) -> Result<(), GameError> {
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
        crate::heap::Periodicity::Unproved => "a closed form of the game".to_owned(),
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
    /// Separable tables: `R(x)` as data.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub row_pattern: Option<LineAnswer>,
    /// Separable tables: `C(y)` as data.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub column_pattern: Option<LineAnswer>,
    /// Rows patterns: each covered row `G(x, ·)` as data.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub row_patterns: Option<Vec<LineAnswer>>,
    /// Block patterns: `k` in `G(x, y) = k·(⌊x/k⌋ xor ⌊y/k⌋) + T(x mod k, y mod k)`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub size: Option<u64>,
    /// Block patterns: the block of values, `block[x][y]` (`T`, or `G` on the first periods).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub block: Option<Vec<Vec<u64>>>,
    /// Two-dimensional periodic patterns: `p` in `G(x + p, y) = G(x, y) + d`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub period_x: Option<u64>,
    /// Two-dimensional periodic patterns: `q` in `G(x, y + q) = G(x, y) + e`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub period_y: Option<u64>,
    /// Two-dimensional periodic patterns: `d`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub saltus_x: Option<u64>,
    /// Two-dimensional periodic patterns: `e`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub saltus_y: Option<u64>,
    /// When nothing was found: what was tried.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub tried: Option<Vec<String>>,
    /// Why the check stopped short of the bound planned, when it did.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub note: Option<String>,
}

/// A line pattern inside a table's pattern (a row, a column), as data.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LineAnswer {
    /// `periodic`, `arithmetic-periodic` or `bitwise`.
    pub kind: &'static str,
    /// As a person writes it.
    pub formula: String,
    /// The first place of the line.
    pub first: u64,
    /// Periodic patterns: `e`; bitwise: where the form starts to hold.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub preperiod: Option<u64>,
    /// Periodic patterns: `p`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub period: Option<u64>,
    /// Periodic patterns: `s`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub saltus: Option<u64>,
    /// The values before the pattern holds.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub before: Option<Vec<u64>>,
    /// Periodic patterns: one period of values.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub cycle: Option<Vec<u64>>,
    /// Bitwise patterns: the function's name.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub form: Option<String>,
    /// Bitwise patterns: `c` in `f(n + c)`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub shift: Option<i64>,
}

impl LineAnswer {
    /// `pattern` as data, `name(variable)` in its formula.
    pub fn of(pattern: &LinePattern, name: &str, variable: &str) -> LineAnswer {
        let mut answer = PatternAnswer::default();
        describe_line(pattern, &mut answer);
        LineAnswer {
            kind: pattern.kind(),
            formula: pattern.formula(name, variable),
            first: answer.first.unwrap_or(0),
            preperiod: answer.preperiod,
            period: answer.period,
            saltus: answer.saltus,
            before: answer.before,
            cycle: answer.cycle,
            form: answer.form,
            shift: answer.shift,
        }
    }
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
        answer.note = guess.note.clone();
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
        LinePattern::Bitwise { form, shift, first, start, before } => {
            answer.form = Some(form.name().to_owned());
            answer.shift = Some(*shift);
            answer.first = Some(*first);
            answer.preperiod = Some(*start);
            answer.before = Some(before.clone());
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
            answer.row_pattern = Some(LineAnswer::of(row, "R", "x"));
            answer.column_pattern = Some(LineAnswer::of(column, "C", "y"));
        }
        GridPattern::BlockXor { size, cell } => {
            answer.size = Some(*size);
            answer.block = Some(cell.clone());
        }
        GridPattern::Periodic2D { period_x, period_y, saltus_x, saltus_y, block } => {
            answer.period_x = Some(*period_x);
            answer.period_y = Some(*period_y);
            answer.saltus_x = Some(*saltus_x);
            answer.saltus_y = Some(*saltus_y);
            answer.block = Some(block.clone());
        }
        GridPattern::Beatty { c } => {
            answer.c = Some(*c);
            answer.alpha = Some(grid::beatty_alpha_text(*c));
        }
        GridPattern::Diagonal => {}
        GridPattern::PeriodicP { period_x, period_y, .. } => {
            answer.period_x = Some(*period_x);
            answer.period_y = Some(*period_y);
        }
        GridPattern::Rows { rows, .. } => {
            answer.rows = Some(pattern.details());
            answer.row_patterns = Some(rows.iter().map(|row| LineAnswer::of(row, "R", "y")).collect());
        }
    }
}

#[cfg(test)]
mod tests;
