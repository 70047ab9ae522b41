//! Compounds of games other than the disjunctive sum (Berlekamp, Conway and Guy, *Winning
//! Ways*, ch. 9; C. A. B. Smith, *Graphs and composite games*, J. Combin. Theory 1 (1966)
//! 51–81). In each, the components are the position's components, the last player to move
//! wins, and a turn moves in several components at once:
//!
//! - **every** (Every-SG, the *continued conjunctive compound*, "slow join"): each turn the
//!   player moves in every component that can move; play ends when none can. Decided by
//!   Smith's *step* (Winning Ways' suspense number): `s(x) = 0` when `x` has no move;
//!   `s(x) = 1 + max { s(y) : y an option, s(y) even }` when some option has an even step;
//!   otherwise `s(x) = 1 + min { s(y) : y an option }`. The step of the compound is the
//!   largest step of its components, and the player to move wins exactly when it is odd:
//!   the winner keeps every component it wins going as long as it can and ends the others
//!   as soon as it can.
//! - **conjunctive** (the *conjunctive compound*, "quick join"): each turn the player moves in
//!   every component; play ends as soon as one component cannot move. Decided by the
//!   *remoteness*: `r(x) = 0` when `x` has no move; `r(x) = 1 + min { r(y) : r(y) even }` when
//!   some option has an even remoteness; otherwise `r(x) = 1 + max { r(y) }`. The remoteness of
//!   the compound is the smallest of its components', and the player to move wins exactly when
//!   it is odd.
//! - **selective** (the *selective compound*): each turn the player moves in any non-empty
//!   set of the components that can move. The compound is a P-position exactly when every
//!   component is: from all P-positions every move leaves some component at an N-position,
//!   which the next player moves back to P together with every other such component; the
//!   components at P are left alone.
//!
//! A move that splits a component into several (Kayles: `5 -> 1 + 3`) leaves several
//! components, each a component of the compound from then on, as the position shows them; a
//! component taken away entirely (`1 -> 0` in Kayles) is one that cannot move. So the number
//! of an option that leaves several pieces is the compound's number of those pieces (the
//! largest step, the smallest remoteness, N when any piece is N), and of one that leaves none,
//! 0.
//!
//! A family that knows its components' numbers without the search offers the [`KnownNumbers`]
//! capability (Euclid's game: its steps and remoteness along Euclid's algorithm, proved in
//! `euclid`'s module doc), and the solver asks it first; the module's tests compare it with the
//! search. Every other family's numbers are found by search over every position reachable from
//! each component through
//! the family's `options` (the rules), memoized, iteratively (no deep recursion), bounded by
//! the run's [`Control`] (its memory limit and its cancel flag) and by
//! [`SEARCH_OPTION_LIMIT`]; a game with cycles is refused. The module's tests check every rule
//! above against exhaustive search of the compound itself.
//!
//! ```
//! use grundy::compound::{Compound, CompoundSolver};
//! use grundy::control::Control;
//! use grundy::registry::parse_sum;
//! use grundy::Outcome;
//! // Nim heaps 1 and 2 in Every-SG: s(0) = 0, so s(1) = 1 + 0 = 1; heap 2's options have
//! // steps 1 and 0, the even one is 0, so s(2) = 1 + 0 = 1 too. The largest step is odd.
//! let position = parse_sum(&["nim", "1", "2"]).unwrap();
//! let control = Control::default();
//! let mut every = CompoundSolver::new(Compound::Every, &control);
//! let evaluation = every.evaluate(&position).unwrap();
//! assert_eq!(evaluation.numbers, [vec![1, 1]]);
//! assert_eq!(evaluation.outcome, Outcome::N); // take both heaps at once
//! let moves = every.winning_moves(&position, 10).unwrap();
//! assert_eq!(moves.moves.len(), 1);
//! assert_eq!(grundy::compound::after(&position, &moves.moves[0]).to_text(), "0 0");
//! ```

use crate::control::Control;
use crate::error::GameError;
use crate::play::Chooser;
use crate::position::Component;
use crate::ruleset::{Capability, ComponentMove, MOVE_LIMIT, Ruleset};
use crate::sum::{Part, Position, SumMove};
use crate::value::Outcome;
use num_bigint::BigUint;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// The most options the search of a compound lists in all (over every position it meets):
/// past it the compound is refused, since every position reachable from the components is
/// searched (a Nim heap of 3000 or a Wythoff pair of 150,150 fits, in seconds).
pub const SEARCH_OPTION_LIMIT: u64 = 5_000_000;

/// What one remembered position or one listed option takes, about, for the memory limit.
const ENTRY_BYTES: u128 = 64;

/// Marks a position whose number is being found.
const IN_PROGRESS: u64 = u64::MAX;

/// How positions are combined into one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compound {
    /// Every-SG: move in every component that can move (the continued conjunctive compound).
    Every,
    /// Move in every component; play ends when one cannot move (the conjunctive compound).
    Conjunctive,
    /// Move in any non-empty set of components (the selective compound).
    Selective,
}

impl Compound {
    /// Every compound, in the order `--compound` lists them.
    pub const ALL: [Compound; 3] = [Compound::Every, Compound::Conjunctive, Compound::Selective];

    /// The name `--compound` takes: `every`, `conjunctive`, `selective`.
    pub fn name(self) -> &'static str {
        match self {
            Compound::Every => "every",
            Compound::Conjunctive => "conjunctive",
            Compound::Selective => "selective",
        }
    }

    /// The compound in words.
    pub fn title(self) -> &'static str {
        match self {
            Compound::Every => "Every-SG (the continued conjunctive compound)",
            Compound::Conjunctive => "the conjunctive compound",
            Compound::Selective => "the selective compound",
        }
    }

    /// The number that decides it: `step`, `remoteness`, or `None` for the selective compound
    /// (decided by the components' outcomes).
    pub fn number_name(self) -> Option<&'static str> {
        match self {
            Compound::Every => Some("step"),
            Compound::Conjunctive => Some("remoteness"),
            Compound::Selective => None,
        }
    }

    /// Reads a compound's name.
    ///
    /// # Errors
    /// [`GameError::Unsupported`] naming the text and the names there are.
    ///
    /// ```
    /// use grundy::compound::Compound;
    /// assert_eq!(Compound::parse("every").unwrap(), Compound::Every);
    /// assert!(Compound::parse("sum").unwrap_err().to_string().contains("every, conjunctive, selective"));
    /// ```
    pub fn parse(text: &str) -> Result<Compound, GameError> {
        Compound::ALL.into_iter().find(|compound| compound.name() == text).ok_or_else(|| {
            GameError::Unsupported(format!(
                "unknown compound `{}`: the compounds are every, conjunctive, selective",
                crate::error::quote(text)
            ))
        })
    }

    /// The number of a group of pieces (what one option leaves, or the whole position): the
    /// largest step, the smallest remoteness, 1 (N) when some piece is N; 0 for no piece.
    fn combine(self, numbers: impl IntoIterator<Item = u64>) -> u64 {
        let mut numbers = numbers.into_iter();
        match self {
            Compound::Every => numbers.max().unwrap_or(0),
            Compound::Conjunctive => numbers.min().unwrap_or(0),
            Compound::Selective => u64::from(numbers.any(|number| number == 1)),
        }
    }

    /// The number of a position whose options have these numbers (the rules of the module
    /// doc).
    fn number_from_options(self, options: &[u64]) -> u64 {
        if options.is_empty() {
            return 0;
        }
        let even = options.iter().copied().filter(|number| number.is_multiple_of(2));
        match self {
            Compound::Every => even.max().map_or_else(|| 1 + options.iter().min().expect("not empty"), |best| best + 1),
            Compound::Conjunctive => {
                even.min().map_or_else(|| 1 + options.iter().max().expect("not empty"), |best| best + 1)
            }
            Compound::Selective => u64::from(options.contains(&0)),
        }
    }
}

/// The capability of a game that knows its components' numbers under the compounds (steps,
/// remoteness, outcomes) without searching their positions: Euclid's game at any size.
pub struct KnownNumbers;
impl Capability for KnownNumbers {
    type Handle = Arc<dyn CompoundNumbers>;
}

/// What [`KnownNumbers`] hands out.
pub trait CompoundNumbers: Send + Sync {
    /// `component`'s number under `compound`: its step, its remoteness, or 1 for N and 0 for P,
    /// the number the search by the rules finds; `None` for a component it does not know (of
    /// another game), which is then searched.
    fn compound_number(&self, compound: Compound, component: &Component) -> Option<u64>;
}

/// Who wins a compound, and why: the number of every component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The compound.
    pub compound: Compound,
    /// Each component's number, part by part: its step (every), remoteness (conjunctive), or
    /// 1 for an N-position and 0 for a P-position (selective).
    pub numbers: Vec<Vec<u64>>,
    /// The compound's number: the largest step, the smallest remoteness, 1 when some component
    /// is N (selective).
    pub number: u64,
    /// Who wins: N exactly when the compound's number is odd.
    pub outcome: Outcome,
}

impl Evaluation {
    /// Why the compound has its outcome, in one sentence.
    pub fn reason(&self) -> String {
        let all: Vec<String> = self.numbers.iter().flatten().map(u64::to_string).collect();
        let parity = if self.number % 2 == 1 { "odd" } else { "even" };
        match self.compound {
            Compound::Every => format!(
                "{}: steps {}; the largest, {}, is {parity}",
                self.compound.title(),
                if all.is_empty() { "(none)".to_owned() } else { all.join(", ") },
                self.number
            ),
            Compound::Conjunctive => format!(
                "{}: remoteness {}; the smallest, {}, is {parity}",
                self.compound.title(),
                if all.is_empty() { "(none)".to_owned() } else { all.join(", ") },
                self.number
            ),
            Compound::Selective => {
                let outcomes: Vec<&str> =
                    self.numbers.iter().flatten().map(|&number| if number == 1 { "N" } else { "P" }).collect();
                let verdict = if self.number == 1 { "some component is N" } else { "every component is P" };
                format!(
                    "{}: components {}; {verdict}",
                    self.compound.title(),
                    if outcomes.is_empty() { "(none)".to_owned() } else { outcomes.join(", ") }
                )
            }
        }
    }
}

/// One move of a compound: a move in each of several components.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompoundMove {
    /// The component moves, in the order of the position (one per component moved).
    pub steps: Vec<SumMove>,
    /// The moves as a person types them: `3 -> 1; 4 -> 2`.
    pub notation: String,
    /// Whether play stops after it because it takes a component away entirely (the
    /// conjunctive compound).
    pub stops: bool,
    /// Why it wins, for a winning move; empty for any other.
    pub explain: String,
}

/// The winning moves of a compound, at most as many as asked for, and how many there are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinningMoves {
    /// The moves listed.
    pub moves: Vec<CompoundMove>,
    /// How many winning moves there are in all.
    pub count: BigUint,
}

/// The position after `one`, a move of `position`.
pub fn after(position: &Position, one: &CompoundMove) -> Position {
    let parts = position
        .parts
        .iter()
        .enumerate()
        .map(|(part_index, part)| {
            let mut components = Vec::new();
            for (component_index, component) in part.components.iter().enumerate() {
                match one.steps.iter().find(|step| step.part == part_index && step.component == component_index) {
                    Some(step) => components.extend(step.result.iter().cloned()),
                    None => components.push(component.clone()),
                }
            }
            Part { game: part.game.clone(), components }
        })
        .collect();
    Position { parts }
}

/// One component's options with their numbers.
struct Choices {
    part: usize,
    component: usize,
    /// The component's own number.
    number: u64,
    options: Vec<(ComponentMove<Component>, u64)>,
}

/// The numbers of a compound's components, found by search and remembered across positions
/// of the same games (a game being played).
pub struct CompoundSolver {
    compound: Compound,
    control: Control,
    /// The games searched, with the numbers of their positions found so far.
    games: Vec<(Arc<dyn Ruleset>, FxHashMap<Component, u64>)>,
    /// Each game's own numbers ([`KnownNumbers`]), where it has them, by the index of `games`.
    known: Vec<Option<Arc<dyn CompoundNumbers>>>,
    /// Options listed so far, against [`SEARCH_OPTION_LIMIT`].
    options_listed: u64,
    /// The memo's bytes, counted against the run's one memory budget (grown a chunk at a time,
    /// before the positions are remembered) while the solver is kept.
    held: crate::control::Held,
}

/// A position being searched: its options (each the pieces it leaves) and how far they have
/// been looked at.
struct Frame {
    piece: Component,
    options: Vec<Vec<Component>>,
    /// The options' pieces whose numbers were not known when the position was entered,
    /// smallest first, and how many of them have been looked at since.
    pending: Vec<Component>,
    looked_at: usize,
}

impl CompoundSolver {
    /// A solver of `compound` with nothing searched yet; the search runs under `control`.
    pub fn new(compound: Compound, control: &Control) -> Self {
        CompoundSolver {
            compound,
            control: control.clone(),
            games: Vec::new(),
            known: Vec::new(),
            options_listed: 0,
            held: control.hold(0),
        }
    }

    /// The compound.
    pub fn compound(&self) -> Compound {
        self.compound
    }

    /// Where `game`'s numbers are kept.
    fn game_index(&mut self, game: &Arc<dyn Ruleset>) -> usize {
        match self.games.iter().position(|(known, _)| Arc::ptr_eq(known, game)) {
            Some(index) => index,
            None => {
                self.games.push((game.clone(), FxHashMap::default()));
                self.known.push(game.capability::<KnownNumbers>());
                self.games.len() - 1
            }
        }
    }

    fn remembered(&self) -> usize {
        self.games.iter().map(|(_, memo)| memo.len()).sum()
    }

    /// The number of one piece of `game`: its step, remoteness, or 1 for N and 0 for P.
    ///
    /// # Errors
    /// Too many positions or options to search, cancellation, a cycle, or options the family
    /// cannot list.
    pub fn number(&mut self, game: &Arc<dyn Ruleset>, piece: &Component) -> Result<u64, GameError> {
        let index = self.game_index(game);
        if let Some(number) = self.known[index].as_ref().and_then(|known| known.compound_number(self.compound, piece)) {
            return Ok(number);
        }
        if let Some(&number) = self.games[index].1.get(piece).filter(|&&number| number != IN_PROGRESS) {
            return Ok(number);
        }
        let searched = self.search(index, piece);
        if searched.is_err() {
            self.games[index].1.retain(|_, number| *number != IN_PROGRESS);
        }
        searched
    }

    fn search(&mut self, index: usize, root: &Component) -> Result<u64, GameError> {
        let root_text = self.games[index].0.format_component(root);
        let mut stack = vec![self.enter(index, root.clone(), &root_text, 0)?];
        let mut live_options = stack[0].options.len() as u128;
        loop {
            let frame = stack.last_mut().expect("the loop keeps a frame");
            let memo = &self.games[index].1;
            let mut descend = None;
            while let Some(piece) = frame.pending.get(frame.looked_at) {
                match memo.get(piece) {
                    Some(&IN_PROGRESS) => {
                        let game = &self.games[index].0;
                        return Err(GameError::Unsupported(format!(
                            "--compound {} needs a game that always ends: `{}` of {} can come back to `{}`",
                            self.compound.name(),
                            crate::error::quote(&root_text),
                            game.spec(),
                            crate::error::quote(&game.format_component(piece)),
                        )));
                    }
                    Some(_) => frame.looked_at += 1,
                    None => {
                        descend = Some(piece.clone());
                        break;
                    }
                }
            }
            if let Some(child) = descend {
                let frame = self.enter(index, child, &root_text, live_options)?;
                live_options += frame.options.len() as u128;
                stack.push(frame);
                continue;
            }
            let frame = stack.pop().expect("the loop saw a frame");
            live_options -= frame.options.len() as u128;
            let memo = &mut self.games[index].1;
            let numbers: Vec<u64> = frame
                .options
                .iter()
                .map(|option| self.compound.combine(option.iter().map(|piece| memo[piece])))
                .collect();
            let number = self.compound.number_from_options(&numbers);
            memo.insert(frame.piece, number);
            if stack.is_empty() {
                return Ok(number);
            }
        }
    }

    /// Lists `piece`'s options and marks it as being searched.
    fn enter(
        &mut self,
        index: usize,
        piece: Component,
        root_text: &str,
        live_options: u128,
    ) -> Result<Frame, GameError> {
        let name = self.compound.name();
        let game = self.games[index].0.clone();
        if self.remembered().is_multiple_of(4096) && self.control.cancelled() {
            return Err(GameError::Unsupported(format!("--compound {name}: the search was cancelled")));
        }
        let what = || {
            format!(
                "--compound {name} searches every position reachable from each component; from {} of {} that",
                crate::error::quote(root_text),
                game.spec()
            )
        };
        let bytes = (self.remembered() as u128 + live_options + 1).saturating_mul(ENTRY_BYTES);
        if bytes > self.held.bytes() {
            self.control.grow_held(&mut self.held, bytes, what)?;
        }
        let options = game.options(&piece, MOVE_LIMIT).map_err(|error| {
            GameError::Unsupported(format!(
                "--compound {name} is decided by searching every position reachable from each component, and `{}` of {} \
                 is too large for that: {error}",
                crate::error::quote(root_text),
                game.spec()
            ))
        })?;
        self.options_listed += options.len() as u64;
        if self.options_listed > SEARCH_OPTION_LIMIT {
            return Err(GameError::OutOfReach(format!(
                "--compound {name} is decided by searching every position reachable from each component, and from \
                 `{}` of {} that is more than {SEARCH_OPTION_LIMIT} options: too large for the search",
                crate::error::quote(root_text),
                game.spec()
            )));
        }
        let options: Vec<Vec<Component>> = options.into_iter().map(|one| one.result).collect();
        let memo = &mut self.games[index].1;
        // The smallest pieces first: in most games (heaps, pairs) a smaller position has fewer
        // positions below it, so the search stays shallow (a Nim heap of n is searched two
        // levels deep instead of n) and few options wait on the stack at once.
        let mut pending: Vec<Component> = options
            .iter()
            .flatten()
            .filter(|piece| memo.get(*piece).is_none_or(|&number| number == IN_PROGRESS))
            .cloned()
            .collect();
        pending.sort_unstable();
        pending.dedup();
        memo.insert(piece.clone(), IN_PROGRESS);
        Ok(Frame { piece, options, pending, looked_at: 0 })
    }

    /// Who wins `position` as this compound, with every component's number.
    ///
    /// # Errors
    /// As [`CompoundSolver::number`].
    pub fn evaluate(&mut self, position: &Position) -> Result<Evaluation, GameError> {
        let mut numbers = Vec::new();
        for part in &position.parts {
            let mut part_numbers = Vec::new();
            for component in &part.components {
                part_numbers.push(self.number(&part.game, component)?);
            }
            numbers.push(part_numbers);
        }
        let number = self.compound.combine(numbers.iter().flatten().copied());
        let outcome = if number % 2 == 1 { Outcome::N } else { Outcome::P };
        Ok(Evaluation { compound: self.compound, numbers, number, outcome })
    }

    /// Every component's options with their numbers, in the order of the position.
    fn choices(&mut self, position: &Position) -> Result<Vec<Choices>, GameError> {
        let mut all = Vec::new();
        for (part_index, part) in position.parts.iter().enumerate() {
            for (component_index, component) in part.components.iter().enumerate() {
                // Searched first: the options' pieces are then all remembered.
                let number = self.number(&part.game, component)?;
                let mut options = Vec::new();
                for one in part.game.options(component, MOVE_LIMIT)? {
                    let mut pieces = Vec::new();
                    for piece in &one.result {
                        pieces.push(self.number(&part.game, piece)?);
                    }
                    let number = self.compound.combine(pieces);
                    options.push((one, number));
                }
                all.push(Choices { part: part_index, component: component_index, number, options });
            }
        }
        Ok(all)
    }

    /// The winning moves of `position` (those to a P-position of the compound), at most
    /// `limit` of them listed, and how many there are.
    ///
    /// # Errors
    /// As [`CompoundSolver::number`].
    pub fn winning_moves(&mut self, position: &Position, limit: usize) -> Result<WinningMoves, GameError> {
        let choices = self.choices(position)?;
        let compound = self.compound;
        let mut found = WinningMoves { moves: Vec::new(), count: BigUint::ZERO };
        if compound.combine(choices.iter().map(|one| one.number)).is_multiple_of(2) {
            return Ok(found);
        }
        let mut picked_moves: Vec<(Vec<(usize, usize)>, u64)> = Vec::new();
        match compound {
            Compound::Selective => {
                // Every N component to a P option; the P components stay.
                let movers: Vec<usize> = (0..choices.len()).filter(|&c| choices[c].number == 1).collect();
                found.count = movers
                    .iter()
                    .map(|&c| BigUint::from(choices[c].options.iter().filter(|(_, number)| *number == 0).count()))
                    .product();
                enumerate(&choices, &movers, &|number| number == 0, None, &mut |picked| {
                    picked_moves.push((picked.to_vec(), 0));
                    picked_moves.len() < limit
                });
            }
            Compound::Every | Compound::Conjunctive => {
                // Every: the components that can move all move, the others stay at step 0, and
                // the result's largest step must be even. Conjunctive: all move (each can: the
                // position is N), and the result's smallest remoteness must be even.
                let movers: Vec<usize> = (0..choices.len()).filter(|&c| !choices[c].options.is_empty()).collect();
                let mut targets: Vec<u64> =
                    movers.iter().flat_map(|&c| choices[c].options.iter().map(|(_, number)| *number)).collect();
                targets.retain(|number| number.is_multiple_of(2));
                targets.sort_unstable();
                targets.dedup();
                for target in targets {
                    let fits =
                        |number: u64| if compound == Compound::Every { number <= target } else { number >= target };
                    let tuples = |without_target: bool| -> BigUint {
                        movers
                            .iter()
                            .map(|&c| {
                                let options = &choices[c].options;
                                BigUint::from(
                                    options
                                        .iter()
                                        .filter(|(_, n)| fits(*n) && !(without_target && *n == target))
                                        .count(),
                                )
                            })
                            .product()
                    };
                    // The tuples whose numbers all fit, less those that never reach the target.
                    found.count += tuples(false) - tuples(true);
                    if picked_moves.len() < limit {
                        enumerate(&choices, &movers, &fits, Some(target), &mut |picked| {
                            picked_moves.push((picked.to_vec(), target));
                            picked_moves.len() < limit
                        });
                    }
                }
            }
        }
        found.moves = picked_moves
            .iter()
            .map(|(picked, number)| self.compound_move(position, &choices, picked, *number))
            .collect();
        Ok(found)
    }

    /// Every move of `position` (`moves --all --compound`), at most `limit` of them listed,
    /// each with the compound's number after it (even: a P-position, so the move wins): in
    /// `every`, each component that
    /// can move moves; in `conjunctive`, every component moves (none when one cannot); in
    /// `selective`, any non-empty set of components.
    ///
    /// # Errors
    /// As [`CompoundSolver::number`].
    pub fn all_moves(&mut self, position: &Position, limit: usize) -> Result<Vec<(CompoundMove, u64)>, GameError> {
        let choices = self.choices(position)?;
        let compound = self.compound;
        let movers: Vec<usize> = (0..choices.len()).filter(|&c| !choices[c].options.is_empty()).collect();
        if movers.is_empty() || (compound == Compound::Conjunctive && movers.len() < choices.len()) {
            return Ok(Vec::new());
        }
        // An odometer over the movers' choices: an option each, or (selective) staying too,
        // written as the option index `options.len()`.
        let stay = compound == Compound::Selective;
        let sizes: Vec<usize> = movers.iter().map(|&c| choices[c].options.len() + usize::from(stay)).collect();
        let mut cursor = vec![0usize; movers.len()];
        let mut listed = Vec::new();
        loop {
            let picked: Vec<(usize, usize)> = movers
                .iter()
                .zip(&cursor)
                .filter(|&(&c, &option)| option < choices[c].options.len())
                .map(|(&c, &option)| (c, option))
                .collect();
            if !picked.is_empty() {
                let numbers = (0..choices.len()).map(|c| match picked.iter().find(|(moved, _)| *moved == c) {
                    Some(&(_, option)) => choices[c].options[option].1,
                    None => choices[c].number,
                });
                let number = compound.combine(numbers);
                listed.push((self.compound_move(position, &choices, &picked, number), number));
                if listed.len() >= limit {
                    break;
                }
            }
            // The next choice, the last mover fastest.
            let mut depth = movers.len();
            loop {
                if depth == 0 {
                    return Ok(listed);
                }
                depth -= 1;
                cursor[depth] += 1;
                if cursor[depth] < sizes[depth] {
                    break;
                }
                cursor[depth] = 0;
            }
        }
        Ok(listed)
    }

    /// The move of `picked` (index in `choices`, index of the option), explained by the
    /// compound's number after it, `result_number`.
    fn compound_move(
        &self,
        position: &Position,
        choices: &[Choices],
        picked: &[(usize, usize)],
        result_number: u64,
    ) -> CompoundMove {
        let mut steps = Vec::new();
        let mut stops = false;
        let mut changes = Vec::new();
        for &(choice, option) in picked {
            let one = &choices[choice];
            let (component_move, number) = &one.options[option];
            stops |= self.compound == Compound::Conjunctive && component_move.result.is_empty();
            let label = position.label(one.part, one.component);
            let outcome = |number: u64| if number == 1 { "N" } else { "P" };
            changes.push(match self.compound.number_name() {
                Some(name) => format!("{label}: {} ({name} {} -> {number})", component_move.notation, one.number),
                None => {
                    format!("{label}: {} ({} -> {})", component_move.notation, outcome(one.number), outcome(*number))
                }
            });
            steps.push(SumMove {
                part: one.part,
                component: one.component,
                result: component_move.result.clone(),
                notation: component_move.notation.clone(),
                explain: String::new(),
            });
        }
        let notation = steps.iter().map(|step| step.notation.clone()).collect::<Vec<_>>().join("; ");
        let verdict = if result_number.is_multiple_of(2) { "even: a P-position" } else { "odd: an N-position" };
        let explain = match self.compound {
            Compound::Every => format!("{}; the largest step is then {result_number}, {verdict}", changes.join(", ")),
            Compound::Conjunctive if stops => {
                format!("{}; a component is gone, so play stops: a P-position", changes.join(", "))
            }
            Compound::Conjunctive => {
                format!("{}; the smallest remoteness is then {result_number}, {verdict}", changes.join(", "))
            }
            Compound::Selective if result_number == 0 => {
                format!("{}; every component is then P: a P-position", changes.join(", "))
            }
            Compound::Selective => format!("{}; some component is then N: an N-position", changes.join(", ")),
        };
        CompoundMove { steps, notation, stops, explain }
    }

    /// The engine's move from `position` by the strategy the numbers give: every component
    /// moved to an option whose number is one less (the winner keeps the components it wins
    /// going as long as it can and ends the others soonest, the loser the other way round);
    /// in the selective compound, every N component to a P option (or, when all are P, one
    /// move of one component). Equally good options are picked by `chooser`; `None` when
    /// there is no move.
    ///
    /// # Errors
    /// As [`CompoundSolver::number`].
    pub fn engine_move(
        &mut self,
        position: &Position,
        chooser: &mut Chooser,
    ) -> Result<Option<CompoundMove>, GameError> {
        let choices = self.choices(position)?;
        let mut picked = Vec::new();
        let pick = |pool: &[usize], chooser: &mut Chooser| pool[chooser.pick(pool.len())];
        match self.compound {
            Compound::Every | Compound::Conjunctive => {
                if self.compound == Compound::Conjunctive && choices.iter().any(|one| one.options.is_empty()) {
                    return Ok(None);
                }
                for (index, one) in choices.iter().enumerate() {
                    if one.options.is_empty() {
                        continue;
                    }
                    // By the rules of the numbers, some option has number - 1.
                    let best: Vec<usize> =
                        (0..one.options.len()).filter(|&o| one.options[o].1 + 1 == one.number).collect();
                    picked.push((index, pick(&best, chooser)));
                }
            }
            Compound::Selective => {
                for (index, one) in choices.iter().enumerate() {
                    if one.number == 1 {
                        let to_p: Vec<usize> = (0..one.options.len()).filter(|&o| one.options[o].1 == 0).collect();
                        picked.push((index, pick(&to_p, chooser)));
                    }
                }
                if picked.is_empty() {
                    let movable: Vec<usize> = (0..choices.len()).filter(|&c| !choices[c].options.is_empty()).collect();
                    if !movable.is_empty() {
                        let index = pick(&movable, chooser);
                        let all: Vec<usize> = (0..choices[index].options.len()).collect();
                        picked.push((index, pick(&all, chooser)));
                    }
                }
            }
        }
        if picked.is_empty() {
            return Ok(None);
        }
        let mut one = self.compound_move(position, &choices, &picked, 0);
        let next = self.evaluate(&after(position, &one))?;
        let next_number = if one.stops { 0 } else { next.number };
        one = self.compound_move(position, &choices, &picked, next_number);
        Ok(Some(one))
    }

    /// Whether `position` has a move at all in this compound.
    ///
    /// # Errors
    /// A family that cannot list its options.
    pub fn has_move(&self, position: &Position) -> Result<bool, GameError> {
        let mut any = false;
        for part in &position.parts {
            for component in &part.components {
                let movable = !part.game.options(component, MOVE_LIMIT)?.is_empty();
                if self.compound == Compound::Conjunctive && !movable {
                    return Ok(false);
                }
                any |= movable;
            }
        }
        Ok(any)
    }

    /// Reads a typed move: the component moves joined by `;` (`3 -> 1; 4 -> 2`), each as
    /// `grundy moves` writes it, in the order of the position, or with its component's number
    /// first (`2: 4 -> 2`, components counted from 1 over the whole position). `Ok(Err(why))`
    /// for a move that is not one.
    ///
    /// # Errors
    /// A family that cannot list its options.
    ///
    /// ```
    /// use grundy::compound::{Compound, CompoundSolver, after};
    /// use grundy::control::Control;
    /// use grundy::registry::parse_sum;
    /// let position = parse_sum(&["nim", "3", "4", "3"]).unwrap();
    /// let every = CompoundSolver::new(Compound::Every, &Control::default());
    /// let typed = every.find_typed_move(&position, "3 -> 1; 4->0; 3 -> 2").unwrap().unwrap();
    /// assert_eq!(after(&position, &typed).to_text(), "1 0 2");
    /// assert!(every.find_typed_move(&position, "3 -> 1").unwrap().is_err()); // every component moves
    /// let selective = CompoundSolver::new(Compound::Selective, &Control::default());
    /// let typed = selective.find_typed_move(&position, "3: 3 -> 0").unwrap().unwrap();
    /// assert_eq!(after(&position, &typed).to_text(), "3 4 0");
    /// ```
    pub fn find_typed_move(&self, position: &Position, typed: &str) -> Result<Result<CompoundMove, String>, GameError> {
        let mut slots = Vec::new();
        for (part_index, part) in position.parts.iter().enumerate() {
            for (component_index, component) in part.components.iter().enumerate() {
                slots.push((part_index, component_index, part.game.options(component, MOVE_LIMIT)?));
            }
        }
        let mut steps: Vec<SumMove> = Vec::new();
        let mut next_slot = 0usize;
        for item in typed.split(';').map(str::trim).filter(|item| !item.is_empty()) {
            let (wanted_slot, notation) = match item.split_once(':') {
                Some((number, rest)) if number.trim().parse::<usize>().is_ok() => {
                    let number: usize = number.trim().parse().expect("checked");
                    if number == 0 || number > slots.len() {
                        return Ok(Err(format!(
                            "component {number}: the position has components 1 to {}",
                            slots.len()
                        )));
                    }
                    (Some(number - 1), rest.trim())
                }
                _ => (None, item),
            };
            let wanted = normalize(notation);
            let candidates = match wanted_slot {
                Some(slot) => slot..slot + 1,
                None => next_slot..slots.len(),
            };
            let mut matched = None;
            for slot in candidates {
                if steps.iter().any(|step| (step.part, step.component) == (slots[slot].0, slots[slot].1)) {
                    continue;
                }
                if let Some(one) = slots[slot].2.iter().find(|one| normalize(&one.notation) == wanted) {
                    matched = Some((slot, one.clone()));
                    break;
                }
            }
            let Some((slot, one)) = matched else {
                return Ok(Err(format!("`{}` is no move of a component left to move", crate::error::quote(notation))));
            };
            next_slot = slot + 1;
            steps.push(SumMove {
                part: slots[slot].0,
                component: slots[slot].1,
                result: one.result,
                notation: one.notation,
                explain: String::new(),
            });
        }
        if steps.is_empty() {
            return Ok(Err("no move typed".to_owned()));
        }
        steps.sort_by_key(|step| (step.part, step.component));
        let movable: Vec<usize> = (0..slots.len()).filter(|&slot| !slots[slot].2.is_empty()).collect();
        let moved =
            |slot: usize| steps.iter().any(|step| (step.part, step.component) == (slots[slot].0, slots[slot].1));
        let label = |slot: usize| position.label(slots[slot].0, slots[slot].1);
        match self.compound {
            Compound::Every => {
                if let Some(&missing) = movable.iter().find(|&&slot| !moved(slot)) {
                    return Ok(Err(format!(
                        "every component that can move must move, and {} has no move typed",
                        label(missing)
                    )));
                }
            }
            Compound::Conjunctive => {
                if let Some(stuck) = (0..slots.len()).find(|&slot| slots[slot].2.is_empty()) {
                    return Ok(Err(format!("{} cannot move, so play has stopped", label(stuck))));
                }
                if let Some(missing) = (0..slots.len()).find(|&slot| !moved(slot)) {
                    return Ok(Err(format!("every component must move, and {} has no move typed", label(missing))));
                }
            }
            Compound::Selective => {}
        }
        let stops = self.compound == Compound::Conjunctive && steps.iter().any(|step| step.result.is_empty());
        let notation = steps.iter().map(|step| step.notation.clone()).collect::<Vec<_>>().join("; ");
        Ok(Ok(CompoundMove { steps, notation, stops, explain: String::new() }))
    }
}

/// One option picked: the component (its index among the position's components) and the
/// option (its index among the component's options).
type Picked = (usize, usize);

/// Hands to `visit` every tuple of one option of each of `movers` (indices into `choices`)
/// whose numbers all pass `fits` and, with a `target`, at least one of which is the target;
/// stops when `visit` returns false. Iterative (a position may have many components), and
/// every branch it enters leads to a tuple handed over, so the time is in what is handed.
fn enumerate(
    choices: &[Choices],
    movers: &[usize],
    fits: &dyn Fn(u64) -> bool,
    target: Option<u64>,
    visit: &mut dyn FnMut(&[Picked]) -> bool,
) {
    let count = movers.len();
    let fitting: Vec<Vec<usize>> = movers
        .iter()
        .map(|&c| (0..choices[c].options.len()).filter(|&o| fits(choices[c].options[o].1)).collect())
        .collect();
    if count == 0 || fitting.iter().any(Vec::is_empty) {
        return;
    }
    let number = |depth: usize, option: usize| choices[movers[depth]].options[option].1;
    // Whether some mover from `depth` on has a fitting option at the target.
    let mut target_later = vec![false; count + 1];
    for depth in (0..count).rev() {
        target_later[depth] =
            target_later[depth + 1] || fitting[depth].iter().any(|&option| Some(number(depth, option)) == target);
    }
    let mut cursor = vec![0usize; count];
    let mut reached = vec![false; count + 1];
    let mut picked: Vec<(usize, usize)> = movers.iter().map(|&c| (c, 0)).collect();
    let mut depth = 0usize;
    loop {
        if cursor[depth] == fitting[depth].len() {
            if depth == 0 {
                return;
            }
            depth -= 1;
            cursor[depth] += 1;
            continue;
        }
        let option = fitting[depth][cursor[depth]];
        let hit = target.is_none() || reached[depth] || Some(number(depth, option)) == target;
        if !hit && !target_later[depth + 1] {
            cursor[depth] += 1;
            continue;
        }
        reached[depth + 1] = hit;
        picked[depth].1 = option;
        if depth + 1 == count {
            if !visit(&picked) {
                return;
            }
            cursor[depth] += 1;
        } else {
            depth += 1;
            cursor[depth] = 0;
        }
    }
}

/// Spaces around `->`, `+` and `,` do not matter; runs of spaces count as one.
fn normalize(text: &str) -> String {
    let spaced = text.replace("->", " -> ").replace('+', " + ").replace(',', " , ");
    spaced.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::parse_sum;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// A position of the compound by its rules alone: the pieces (game, component), sorted,
    /// and whether play has stopped (conjunctive: a component was taken away).
    type State = (Vec<(usize, Component)>, bool);

    /// The compound searched as one game, with no step, remoteness or outcome rule: a
    /// position's options are every move the compound's rules allow, its outcome N when some
    /// option is P, and its number (every, conjunctive) by the same recursion on the
    /// compound's own positions.
    struct Exhaustive {
        compound: Compound,
        games: Vec<Arc<dyn Ruleset>>,
        memo: HashMap<State, u64>,
        outcomes: HashMap<State, Outcome>,
    }

    impl Exhaustive {
        fn new(compound: Compound, position: &Position) -> Self {
            let games = position.parts.iter().map(|part| part.game.clone()).collect();
            Exhaustive { compound, games, memo: HashMap::new(), outcomes: HashMap::new() }
        }

        fn state(position: &Position) -> State {
            let mut pieces: Vec<(usize, Component)> = position
                .parts
                .iter()
                .enumerate()
                .flat_map(|(part, each)| each.components.iter().map(move |component| (part, component.clone())))
                .collect();
            pieces.sort();
            (pieces, false)
        }

        /// Every tuple of option indices of the compound's moves, with the state it leads to.
        fn moves(&self, state: &State) -> Vec<(Vec<Option<usize>>, State)> {
            let (pieces, stopped) = state;
            let options: Vec<Vec<Vec<Component>>> = pieces
                .iter()
                .map(|(part, piece)| {
                    self.games[*part].options(piece, MOVE_LIMIT).unwrap().into_iter().map(|one| one.result).collect()
                })
                .collect();
            let movable: Vec<usize> = (0..pieces.len()).filter(|&i| !options[i].is_empty()).collect();
            // The sets of pieces that move together.
            let sets: Vec<Vec<usize>> = match self.compound {
                Compound::Every if movable.is_empty() => vec![],
                Compound::Every => vec![movable],
                Compound::Conjunctive if *stopped || movable.len() < pieces.len() || pieces.is_empty() => vec![],
                Compound::Conjunctive => vec![movable],
                Compound::Selective => (1u32..1 << movable.len())
                    .map(|mask| (0..movable.len()).filter(|&b| mask >> b & 1 == 1).map(|b| movable[b]).collect())
                    .collect(),
            };
            let mut found = Vec::new();
            for set in sets {
                let mut tuple: Vec<usize> = vec![0; set.len()];
                'tuples: loop {
                    let mut next: Vec<(usize, Component)> = Vec::new();
                    let mut gone = false;
                    let mut picked = vec![None; pieces.len()];
                    for (i, (part, piece)) in pieces.iter().enumerate() {
                        match set.iter().position(|&s| s == i) {
                            Some(at) => {
                                let result = &options[i][tuple[at]];
                                gone |= result.is_empty();
                                picked[i] = Some(tuple[at]);
                                next.extend(result.iter().map(|p| (*part, p.clone())));
                            }
                            None => next.push((*part, piece.clone())),
                        }
                    }
                    next.sort();
                    found.push((picked, (next, self.compound == Compound::Conjunctive && gone)));
                    for at in 0..set.len() {
                        tuple[at] += 1;
                        if tuple[at] < options[set[at]].len() {
                            continue 'tuples;
                        }
                        tuple[at] = 0;
                    }
                    break;
                }
            }
            found
        }

        /// The compound's own number of `state`: by the step or remoteness recursion over its
        /// own options (every, conjunctive), 1 for N and 0 for P (selective).
        fn number(&mut self, state: &State) -> u64 {
            if let Some(&known) = self.memo.get(state) {
                return known;
            }
            let numbers: Vec<u64> = self.moves(state).into_iter().map(|(_, next)| self.number(&next)).collect();
            let number = match self.compound {
                Compound::Selective => u64::from(numbers.contains(&0)),
                _ => self.compound.number_from_options(&numbers),
            };
            self.memo.insert(state.clone(), number);
            number
        }

        /// Who wins `state`, from the outcomes of its options alone (no numbers).
        fn outcome(&mut self, state: &State) -> Outcome {
            if let Some(&known) = self.outcomes.get(state) {
                return known;
            }
            let nexts: Vec<State> = self.moves(state).into_iter().map(|(_, next)| next).collect();
            let outcome =
                if nexts.iter().any(|next| self.outcome(next) == Outcome::P) { Outcome::N } else { Outcome::P };
            self.outcomes.insert(state.clone(), outcome);
            outcome
        }
    }

    /// A few small components of Nim, a subtraction game, Kayles and Wythoff's game, as the
    /// words of a sum.
    fn small_sum() -> impl Strategy<Value = Vec<String>> {
        let component = prop_oneof![
            (0u64..5).prop_map(|n| format!("nim {n}")),
            (0u64..8).prop_map(|n| format!("sub:1,2 {n}")),
            (0u64..7).prop_map(|n| format!("kayles {n}")),
            (0u64..4, 0u64..4).prop_map(|(x, y)| format!("wythoff {x},{y}")),
            // Numbers known without the search (`KnownNumbers`), against the compound's own.
            (0u64..9, 0u64..9).prop_map(|(a, b)| format!("euclid {a},{b}")),
        ];
        proptest::collection::vec(component, 0..4)
    }

    fn parse(parts: &[String]) -> Position {
        let text = parts.join(" + ");
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.is_empty() {
            return parse_sum(&["nim"]).unwrap();
        }
        parse_sum(&words).unwrap()
    }

    fn check_against_exhaustive(compound: Compound, parts: &[String]) -> Result<(), TestCaseError> {
        let position = parse(parts);
        let control = Control::default();
        let mut solver = CompoundSolver::new(compound, &control);
        let evaluation = solver.evaluate(&position).unwrap();
        let mut exhaustive = Exhaustive::new(compound, &position);
        let root = Exhaustive::state(&position);
        // The outcome by search of the compound itself, no number used.
        prop_assert_eq!(evaluation.outcome, exhaustive.outcome(&root), "{:?}", evaluation);
        // Stronger: the compound's own step (remoteness) is the largest step (smallest
        // remoteness) of its components.
        prop_assert_eq!(evaluation.number, exhaustive.number(&root), "{:?}", evaluation);
        // The winning moves: as many as the compound's moves to a P-position, each one of them.
        let winning: usize =
            exhaustive.moves(&root).into_iter().filter(|(_, next)| exhaustive.outcome(next) == Outcome::P).count();
        let listed = solver.winning_moves(&position, usize::MAX).unwrap();
        prop_assert_eq!(listed.count.clone(), BigUint::from(winning));
        prop_assert_eq!(listed.moves.len(), winning);
        for one in &listed.moves {
            let mut next = Exhaustive::state(&after(&position, one));
            next.1 = one.stops;
            prop_assert_eq!(exhaustive.outcome(&next), Outcome::P, "{}", one.notation);
        }
        // Every move (`moves --all`): as many as the compound's rules give, each leading where
        // its number says (even: a P-position).
        let every = solver.all_moves(&position, usize::MAX).unwrap();
        prop_assert_eq!(every.len(), exhaustive.moves(&root).len());
        for (one, number) in &every {
            let mut next = Exhaustive::state(&after(&position, one));
            next.1 = one.stops;
            let expected = if number % 2 == 0 { Outcome::P } else { Outcome::N };
            prop_assert_eq!(exhaustive.outcome(&next), expected, "{}", one.notation);
        }
        // The engine wins from an N-position, and has a move exactly when the rules give one.
        let reply = solver.engine_move(&position, &mut Chooser::new(7)).unwrap();
        prop_assert_eq!(reply.is_some(), !exhaustive.moves(&root).is_empty());
        prop_assert_eq!(solver.has_move(&position).unwrap(), reply.is_some());
        if let Some(reply) = reply {
            let mut next = Exhaustive::state(&after(&position, &reply));
            next.1 = reply.stops;
            let expected = if evaluation.outcome == Outcome::N { Outcome::P } else { Outcome::N };
            prop_assert_eq!(exhaustive.outcome(&next), expected, "{}", reply.notation);
            // The move typed back is the same move.
            let typed = solver.find_typed_move(&position, &reply.notation).unwrap();
            if compound != Compound::Selective {
                prop_assert_eq!(
                    typed.map(|typed| after(&position, &typed).to_text()),
                    Ok(after(&position, &reply).to_text())
                );
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn every_sg_steps_match_the_exhaustive_search(parts in small_sum()) {
            check_against_exhaustive(Compound::Every, &parts)?;
        }

        #[test]
        fn conjunctive_remoteness_matches_the_exhaustive_search(parts in small_sum()) {
            check_against_exhaustive(Compound::Conjunctive, &parts)?;
        }

        #[test]
        fn selective_outcomes_match_the_exhaustive_search(parts in small_sum()) {
            check_against_exhaustive(Compound::Selective, &parts)?;
        }
    }

    #[test]
    fn known_steps_and_remoteness() {
        let control = Control::default();
        // Nim heap n in Every-SG: every option of a heap n ≥ 1 includes 0 (step 0), so the
        // step of n ≥ 1 is 1 (take it all); Bash-like sub:1,2 has steps 0,1,1,2,3,3,4,5,5…
        let mut every = CompoundSolver::new(Compound::Every, &control);
        let steps =
            every.evaluate(&parse_sum(&["sub:1,2", "0", "1", "2", "3", "4", "5", "6", "7", "8"]).unwrap()).unwrap();
        assert_eq!(steps.numbers, [vec![0, 1, 1, 2, 3, 3, 4, 5, 5]]);
        let nim = every.evaluate(&parse_sum(&["nim", "0", "1", "7"]).unwrap()).unwrap();
        assert_eq!(nim.numbers, [vec![0, 1, 1]]);
        let mut conjunctive = CompoundSolver::new(Compound::Conjunctive, &control);
        let remoteness =
            conjunctive.evaluate(&parse_sum(&["sub:1,2", "0", "1", "2", "3", "4", "5", "6"]).unwrap()).unwrap();
        assert_eq!(remoteness.numbers, [vec![0, 1, 1, 2, 3, 3, 4]]);
        // A P heap in Nim is heap 0 alone; a heap of 3 and one of 0 stop play at once.
        let stuck = conjunctive.evaluate(&parse_sum(&["nim", "3", "0"]).unwrap()).unwrap();
        assert_eq!((stuck.number, stuck.outcome), (0, Outcome::P));
        let mut selective = CompoundSolver::new(Compound::Selective, &control);
        let mixed = selective.evaluate(&parse_sum(&["nim", "3", "3"]).unwrap()).unwrap();
        assert_eq!(mixed.outcome, Outcome::N, "unlike the sum, both heaps are N and move together");
        assert_eq!(selective.winning_moves(&parse_sum(&["nim", "3", "3"]).unwrap(), 10).unwrap().moves.len(), 1);
    }

    /// Euclid's steps, remoteness and outcomes by its chain (`euclid::compound_number`) are
    /// the numbers the search by the rules finds, on every pair up to 60 (the search run
    /// directly, past the capability).
    #[test]
    fn euclid_numbers_without_the_search_are_the_searchs() {
        let game = crate::registry::parse_game("euclid").unwrap();
        let known = game.capability::<KnownNumbers>().expect("euclid knows its numbers");
        for compound in [Compound::Every, Compound::Conjunctive, Compound::Selective] {
            let control = Control::default();
            let mut solver = CompoundSolver::new(compound, &control);
            let index = solver.game_index(&game);
            for a in 0..=60 {
                for b in 0..=60 {
                    let piece = game.parse_component(&format!("{a},{b}")).unwrap();
                    let searched = solver.search(index, &piece).unwrap();
                    assert_eq!(known.compound_number(compound, &piece), Some(searched), "{compound:?} {a},{b}");
                }
            }
        }
        // At any size, with no search: F(90), F(89) goes down Euclid's algorithm by quotients 1.
        let mut every = CompoundSolver::new(Compound::Every, &Control::default());
        let far = every.evaluate(&parse_sum(&["euclid", "2880067194370816120,1779979416004714189"]).unwrap()).unwrap();
        assert_eq!(far.numbers, [vec![88]]);
        assert_eq!(every.remembered(), 0);
        // A component of another game is not Euclid's to answer.
        let nim = parse_sum(&["nim", "3"]).unwrap();
        assert_eq!(known.compound_number(Compound::Every, &nim.parts[0].components[0]), None);
    }

    #[test]
    fn a_huge_heap_and_a_long_search_are_refused_in_one_line() {
        let control = Control::default();
        let mut every = CompoundSolver::new(Compound::Every, &control);
        let huge = every.evaluate(&parse_sum(&["nim", "1000000000000000000"]).unwrap()).unwrap_err().to_string();
        assert!(huge.contains("--compound every") && huge.contains("too large") && huge.contains("too many"), "{huge}");
        let long = every.evaluate(&parse_sum(&["nim", "100000"]).unwrap()).unwrap_err().to_string();
        assert!(long.contains("more than 5000000 options"), "{long}");
        let tight = Control::default().with_memory_limit(1 << 16);
        let mut small = CompoundSolver::new(Compound::Conjunctive, &tight);
        let memory = small.evaluate(&parse_sum(&["wythoff", "60,70"]).unwrap()).unwrap_err().to_string();
        assert!(memory.contains("--memory-limit"), "{memory}");
        assert!(!huge.contains('\n') && !long.contains('\n') && !memory.contains('\n'));
    }

    /// The memo counts against the run's one budget: a second solver of the same run sees
    /// less room while the first is kept, and all of it once the first is dropped.
    #[test]
    fn two_solvers_of_one_run_share_its_memory_limit() {
        let position = parse_sum(&["wythoff", "40,50"]).unwrap();
        let roomy = Control::default();
        let mut alone = CompoundSolver::new(Compound::Every, &roomy);
        alone.evaluate(&position).unwrap();
        let remembered = alone.remembered() as u128 * ENTRY_BYTES;
        assert!(remembered > 0 && roomy.held_bytes() == alone.held.bytes() && alone.held.bytes() >= remembered);
        drop(alone);
        assert_eq!(roomy.held_bytes(), 0);
        // A limit the memo fits in alone (with the options waiting on the stack), not twice.
        let control = Control::default().with_memory_limit(remembered * 3);
        let mut first = CompoundSolver::new(Compound::Every, &control);
        first.evaluate(&position).unwrap();
        let mut second = CompoundSolver::new(Compound::Conjunctive, &control.clone());
        let error = second.evaluate(&position).unwrap_err().to_string();
        assert!(error.contains("this run already holds") && error.contains("--memory-limit"), "{error}");
        assert!(!error.contains('\n'), "{error}");
        drop(first);
        second.evaluate(&position).unwrap();
    }

    #[test]
    fn a_cancelled_search_stops() {
        let control = Control::default();
        control.cancel();
        let mut every = CompoundSolver::new(Compound::Every, &control);
        let error = every.evaluate(&parse_sum(&["nim", "3000"]).unwrap()).unwrap_err().to_string();
        assert!(error.contains("cancelled"), "{error}");
    }
}
