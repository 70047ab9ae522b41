//! Sums of games and the Sprague–Grundy theorem, in one place.
//!
//! In a sum, a move is a move in exactly one component. The Sprague–Grundy theorem (Sprague
//! 1935, Grundy 1939; Berlekamp, Conway and Guy, *Winning Ways*, ch. 2) says the value of a
//! sum is the nim-sum (xor) of its components' values. Hence a move wins — leads to value 0 —
//! exactly when it takes some component `i` to an option of value `G(i) ⊕ total`.
//!
//! Loopy components follow Smith's rules (C. A. B. Smith, *Graphs and composite games*, J.
//! Combin. Theory 1 (1966) 51–81; *Winning Ways* ch. 12): `a ⊕ ∞(K) = ∞(K ⊕ a)`, and a sum
//! with two or more `∞` components is `∞(∅)`, a draw (no option of it is finite).
//!
//! A component whose value is out of reach but whose outcome is known (a huge Wythoff pair,
//! geography) still decides a sum when the rest of the sum is a P-position: `G + H` with
//! `H = 0` has the outcome of `G`. Otherwise the sum is refused, never guessed.
//!
//! [`Position`] is a sum of parts, each a game with its components: `nim 3 + wythoff 4,7`.
//! [`SumGame`] is the sum by the definition, which the tests use to check the theorem.

use crate::error::GameError;
use crate::game::Game;
use crate::position::Component;
use crate::ruleset::{ComponentMove, Ruleset};
use crate::value::{Outcome, Value};
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::collections::HashMap;
use std::sync::Arc;

/// One part of a sum: a game and its components.
#[derive(Clone)]
pub struct Part {
    /// The game.
    pub game: Arc<dyn Ruleset>,
    /// Its components, read once.
    pub components: Vec<Component>,
}

impl std::fmt::Debug for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Part").field("game", &self.game.spec()).field("components", &self.components).finish()
    }
}

impl Part {
    /// Reads the component texts of `game`.
    ///
    /// # Errors
    /// The first component that does not parse, or several for a game that takes one.
    pub fn parse(game: Arc<dyn Ruleset>, texts: &[&str]) -> Result<Self, GameError> {
        if let (Some(reason), [_, second, ..]) = (game.one_component_only(), texts) {
            return Err(GameError::BadComponent { game: game.spec(), text: (*second).to_owned(), reason });
        }
        let components = texts.iter().map(|text| game.parse_component(text)).collect::<Result<_, _>>()?;
        Ok(Part { game, components })
    }

    /// The components in their notation.
    pub fn texts(&self) -> Vec<String> {
        self.components.iter().map(|component| self.game.format_component(component)).collect()
    }
}

/// A position: the sum of its parts' components.
#[derive(Clone, Debug)]
pub struct Position {
    /// The parts, in the order written.
    pub parts: Vec<Part>,
}

/// One move of a sum: component `component` of part `part` is replaced by `result`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumMove {
    /// The part moved in (from 0).
    pub part: usize,
    /// The component moved in, within its part (from 0).
    pub component: usize,
    /// What replaces it.
    pub result: Vec<Component>,
    /// The move as a person types it: `3 -> 1`.
    pub notation: String,
    /// Why it wins, for a winning move (one sentence); empty for any other move.
    pub explain: String,
}

/// The value of each component, or why it is out of reach.
type Values = Vec<Vec<Result<Value, GameError>>>;

impl Position {
    /// A position of one game.
    pub fn single(game: Arc<dyn Ruleset>, components: Vec<Component>) -> Self {
        Position { parts: vec![Part { game, components }] }
    }

    /// Reads the component texts of one game.
    ///
    /// # Errors
    /// The first component that does not parse.
    pub fn parse_single(game: Arc<dyn Ruleset>, texts: &[&str]) -> Result<Self, GameError> {
        Ok(Position { parts: vec![Part::parse(game, texts)?] })
    }

    /// Whether the position is written with one game (no `+`).
    pub fn is_single_game(&self) -> bool {
        self.parts.len() == 1
    }

    /// Whether the moves of every component can be listed, decided before any value is
    /// computed (see [`crate::ruleset::ComponentGame::check_moves_listable`]).
    ///
    /// # Errors
    /// The first component whose moves cannot be listed.
    pub fn check_moves_listable(&self) -> Result<(), GameError> {
        self.parts.iter().try_for_each(|part| {
            part.components.iter().try_for_each(|component| part.game.check_moves_listable(component))
        })
    }

    /// How many components in all.
    pub fn component_count(&self) -> usize {
        self.parts.iter().map(|part| part.components.len()).sum()
    }

    /// The position as a line of text: `3 4 5`, or `nim 3 + wythoff 4,7` for a sum of games.
    pub fn to_text(&self) -> String {
        if let [part] = self.parts.as_slice() {
            return part.texts().join(" ");
        }
        let parts: Vec<String> = self
            .parts
            .iter()
            .map(|part| {
                let mut words = vec![part.game.spec()];
                words.extend(part.texts());
                words.join(" ")
            })
            .collect();
        parts.join(" + ")
    }

    /// The position after `one` (which must be a move of this position).
    pub fn after(&self, one: &SumMove) -> Position {
        let mut next = self.clone();
        let components = &mut next.parts[one.part].components;
        components.splice(one.component..=one.component, one.result.iter().cloned());
        next
    }

    /// How a component is named in explanations: `heap 2`, or `wythoff pair 1` in a sum of
    /// several games.
    pub fn label(&self, part: usize, component: usize) -> String {
        let game = &self.parts[part].game;
        let noun = game.component_noun();
        if self.is_single_game() {
            format!("{noun} {}", component + 1)
        } else {
            format!("{} {noun} {}", game.spec(), component + 1)
        }
    }

    fn values(&self) -> Values {
        self.parts
            .iter()
            .map(|part| {
                // Each part's components in one batch ([`Ruleset::values`]: one request of a
                // script's worker for the whole part). A batch that fails may give every
                // component the one error: those that failed are asked alone, so that each
                // gets its own error; a lone component is not asked twice (a user's `moves`
                // would be called again on the position that failed).
                let batch = part.game.values(&part.components);
                if batch.len() != part.components.len() {
                    return part.components.iter().map(|c| part.game.value(c)).collect();
                }
                if part.components.len() == 1 {
                    return batch;
                }
                batch
                    .into_iter()
                    .zip(&part.components)
                    .map(|(value, component)| value.or_else(|_| part.game.value(component)))
                    .collect()
            })
            .collect()
    }

    /// The value of the sum: the xor of the components' values (with Smith's rules for `∞`).
    ///
    /// # Errors
    /// The first component whose value is out of reach.
    pub fn value(&self) -> Result<Value, GameError> {
        let summary = Summary::of(&self.values())?;
        summary.value()
    }

    /// The value of each of `positions`, as [`Position::value`] gives it, each game asked once
    /// for the values of all its distinct components ([`Ruleset::values`]): a game whose rules
    /// run elsewhere (a script in a worker process) answers many positions in one request.
    ///
    /// ```
    /// use grundy_model::sum::Position;
    /// # use grundy_model::{GameError, Value};
    /// # use grundy_model::ruleset::{ComponentGame, ComponentMove, erase};
    /// # struct Nim;
    /// # impl ComponentGame for Nim {
    /// #     type Component = u64;
    /// #     fn spec(&self) -> String { "nim".into() }
    /// #     fn parse_component(&self, text: &str) -> Result<u64, GameError> { Ok(text.parse().unwrap()) }
    /// #     fn format_component(&self, heap: &u64) -> String { heap.to_string() }
    /// #     fn options(&self, heap: &u64, _: usize) -> Result<Vec<ComponentMove<u64>>, GameError> {
    /// #         Ok((0..*heap).map(|to| ComponentMove::new(vec![to], format!("{heap} -> {to}"))).collect())
    /// #     }
    /// #     fn value(&self, heap: &u64) -> Result<Value, GameError> { Ok(Value::from(*heap)) }
    /// # }
    /// let nim = erase(Nim);
    /// let positions: Vec<Position> =
    ///     [vec!["1", "2"], vec!["3", "3"], vec!["5"]].iter().map(|heaps| Position::parse_single(nim.clone(), heaps).unwrap()).collect();
    /// let values: Vec<String> = Position::values_of(&positions).into_iter().map(|value| value.unwrap().to_string()).collect();
    /// assert_eq!(values, ["3", "0", "5"]);
    /// ```
    pub fn values_of(positions: &[Position]) -> Vec<Result<Value, GameError>> {
        /// One game (by identity), its distinct components in the order first met, and where
        /// each stands in that list.
        struct Asked {
            game: Arc<dyn Ruleset>,
            components: Vec<Component>,
            index: HashMap<Component, usize>,
        }
        // Each game's place in `asked`, by identity (the address it is held at): a sum of 10^5
        // games, each its own, is gathered in linear time.
        let identity = |game: &Arc<dyn Ruleset>| Arc::as_ptr(game).cast::<()>() as usize;
        let mut places: HashMap<usize, usize> = HashMap::new();
        let mut asked: Vec<Asked> = Vec::new();
        for part in positions.iter().flat_map(|position| &position.parts) {
            let at = *places.entry(identity(&part.game)).or_insert_with(|| {
                asked.push(Asked { game: part.game.clone(), components: Vec::new(), index: HashMap::new() });
                asked.len() - 1
            });
            let one = &mut asked[at];
            for component in &part.components {
                if !one.index.contains_key(component) {
                    one.index.insert(component.clone(), one.components.len());
                    one.components.push(component.clone());
                }
            }
        }
        let answers: Vec<Vec<Result<Value, GameError>>> =
            asked.iter().map(|one| one.game.values(&one.components)).collect();
        positions
            .iter()
            .map(|position| {
                let values: Values = position
                    .parts
                    .iter()
                    .map(|part| {
                        let at = places[&identity(&part.game)];
                        part.components
                            .iter()
                            .map(|component| answers[at][asked[at].index[component]].clone())
                            .collect()
                    })
                    .collect();
                Summary::of(&values)?.value()
            })
            .collect()
    }

    /// Who wins the sum.
    ///
    /// # Errors
    /// A component whose value is out of reach, unless it is the only such component and the
    /// rest of the sum is a P-position (then the sum has that component's outcome).
    pub fn outcome(&self) -> Result<Outcome, GameError> {
        // A component alone whose value costs more than its outcome: the family's outcome.
        if let Some((game, component)) = self.alone_with_costly_value() {
            return game.outcome(component);
        }
        let values = self.values();
        match Summary::of(&values) {
            // ∞(K) ⊕ a with a past every element of K: 0 is not in K ⊕ a, a draw (Smith).
            Ok(summary) if summary.infinite.len() == 1 && summary.finite.to_u64().is_none() => Ok(Outcome::D),
            Ok(summary) => Ok(summary.value()?.outcome()),
            Err(error) => match self.lone_unknown(&values)? {
                Some((part, component)) => {
                    let part = &self.parts[part];
                    part.game.outcome(&part.components[component])
                }
                None => Err(error),
            },
        }
    }

    /// Whether the position is one component whose value costs more than its outcome and its
    /// moves to P-positions (a Wythoff pair that only a big table reaches): a front end that
    /// shows the value beside the outcome omits it then ([`crate::ruleset::ComponentGame::value_costs_more`]).
    pub fn value_costs_more(&self) -> bool {
        self.alone_with_costly_value().is_some()
    }

    /// The game and the component of a position of one component whose value costs more than
    /// its outcome and moves to P-positions ([`crate::ruleset::ComponentGame::value_costs_more`]).
    fn alone_with_costly_value(&self) -> Option<(&Arc<dyn Ruleset>, &Component)> {
        let [part] = self.parts.as_slice() else { return None };
        let [component] = part.components.as_slice() else { return None };
        part.game.value_costs_more(component).then_some((&part.game, component))
    }

    /// The one component whose value is out of reach when every other component is finite
    /// with nim-sum 0, or `None`.
    fn lone_unknown(&self, values: &Values) -> Result<Option<(usize, usize)>, GameError> {
        let mut unknown = None;
        let mut rest = BigUint::ZERO;
        for (part, part_values) in values.iter().enumerate() {
            for (component, value) in part_values.iter().enumerate() {
                match value {
                    Ok(Value::Finite(value)) => rest ^= value,
                    Ok(Value::Infinite { .. }) => return Ok(None),
                    Err(_) if unknown.is_some() => return Ok(None),
                    Err(_) => unknown = Some((part, component)),
                }
            }
        }
        Ok(unknown.filter(|_| rest == BigUint::ZERO))
    }

    /// Every winning move (to a P-position), handed to `visit` one at a time so that a sum of
    /// many components never holds them all.
    ///
    /// # Errors
    /// A value out of reach where the moves depend on it, or what `visit` returns.
    pub fn for_each_winning_move<E: From<GameError>>(
        &self,
        mut visit: impl FnMut(SumMove) -> Result<(), E>,
    ) -> Result<(), E> {
        // A component alone is won by its moves to P-positions: where its value costs more than
        // they do, they are found without it.
        if let Some((game, component)) = self.alone_with_costly_value() {
            for one in game.moves_to_p(component)? {
                let reason = self.single_result_reason(game.as_ref(), &one);
                let explain = format!("{}: {}{}; {reason}", self.label(0, 0), one.notation, one.detail);
                visit(self.sum_move(0, 0, one, explain))?;
            }
            return Ok(());
        }
        let values = self.values();
        let summary = match Summary::of(&values) {
            Ok(summary) => summary,
            Err(error) => {
                // Out of reach: the outcome rule above decides the sum only when the unknown
                // component is alone with a P-position; its moves to P are then all the
                // winning moves only when nothing else can move.
                let Some((part, component)) = self.lone_unknown(&values)? else { return Err(error.into()) };
                if self.component_count() != 1 {
                    return Err(GameError::OutOfReach(format!(
                        "{error}; the winning moves of a sum need the value of every component"
                    ))
                    .into());
                }
                let game = &self.parts[part].game;
                for one in game.moves_to_p(&self.parts[part].components[component])? {
                    let reason = self.single_result_reason(game.as_ref(), &one);
                    let explain = format!("{}: {}{}; {reason}", self.label(part, component), one.notation, one.detail);
                    visit(self.sum_move(part, component, one, explain))?;
                }
                return Ok(());
            }
        };
        let alone = self.component_count() == 1;
        match summary.infinite.as_slice() {
            [] => {
                let total = summary.finite;
                if total == BigUint::ZERO {
                    return Ok(());
                }
                for (part, part_values) in values.iter().enumerate() {
                    let game = &self.parts[part].game;
                    for (component, value) in part_values.iter().enumerate() {
                        let Ok(Value::Finite(value)) = value else { unreachable!("all finite") };
                        let target = value ^ &total;
                        let mut failed = None;
                        game.for_each_move_to_value(&self.parts[part].components[component], &target, &mut |one| {
                            let label = self.label(part, component);
                            let explain = if alone {
                                let reason = self.single_result_reason(game.as_ref(), &one);
                                format!("{label}: {}{}; value {value} -> 0, {reason}", one.notation, one.detail)
                            } else {
                                format!(
                                    "{label}: {}{}; its value {value} -> {target} makes the nim-sum {total} -> 0, a P-position",
                                    one.notation, one.detail
                                )
                            };
                            // Stop the family's stream at the first error of `visit`, kept aside.
                            visit(self.sum_move(part, component, one, explain)).map_err(|error| {
                                failed = Some(error);
                                GameError::Unsupported("stopped".to_owned())
                            })
                        })
                        .or_else(|error| if failed.is_some() { Ok(()) } else { Err(error) })?;
                        if let Some(error) = failed {
                            return Err(error);
                        }
                    }
                }
            }
            &[(part, component, _)] => {
                // Only the ∞ component can move to a P-position: a sum with an ∞ part is never P.
                let others = summary.finite;
                let game = &self.parts[part].game;
                let value = values[part][component].as_ref().expect("known").clone();
                for one in game.moves_to_value(&self.parts[part].components[component], &others)? {
                    let label = self.label(part, component);
                    let explain = if alone {
                        format!("{label}: {}{}; value {value} -> 0, a P-position", one.notation, one.detail)
                    } else {
                        format!(
                            "{label}: {}{}; its value {value} -> {others}, the nim-sum of the other components: all finite with nim-sum 0, a P-position",
                            one.notation, one.detail
                        )
                    };
                    visit(self.sum_move(part, component, one, explain))?;
                }
            }
            // Two or more ∞ components: a draw, no move reaches a P-position.
            _ => {}
        }
        Ok(())
    }

    /// One winning move, the first [`Position::for_each_winning_move`] finds, or `None` when
    /// there is none; it stops there, so a reply to each of many options costs little.
    ///
    /// # Errors
    /// As [`Position::for_each_winning_move`].
    pub fn first_winning_move(&self) -> Result<Option<SumMove>, GameError> {
        /// Why the walk stopped: a move was found (not an error of the game's).
        enum Stop {
            Found(SumMove),
            Failed(GameError),
        }
        impl From<GameError> for Stop {
            fn from(error: GameError) -> Self {
                Stop::Failed(error)
            }
        }
        match self.for_each_winning_move(|one| Err(Stop::Found(one))) {
            Ok(()) => Ok(None),
            Err(Stop::Found(one)) => Ok(Some(one)),
            Err(Stop::Failed(error)) => Err(error),
        }
    }

    /// Every winning move, collected.
    ///
    /// # Errors
    /// As [`Position::for_each_winning_move`].
    pub fn winning_moves(&self) -> Result<Vec<SumMove>, GameError> {
        let mut moves = Vec::new();
        self.for_each_winning_move(|one| {
            moves.push(one);
            Ok::<(), GameError>(())
        })?;
        Ok(moves)
    }

    /// Every move of the sum, winning or not (no explanations), at most `limit`.
    ///
    /// # Errors
    /// [`GameError::TooManyMoves`] past `limit`, or a family that cannot list its options.
    pub fn options(&self, limit: usize) -> Result<Vec<SumMove>, GameError> {
        let mut moves = Vec::new();
        // Past the limit with the earlier components' moves counted: the whole position has
        // too many, whatever this component has alone.
        let too_many_in_all = || {
            let game = if self.is_single_game() { self.parts[0].game.spec() } else { "the sum".to_owned() };
            crate::ruleset::too_many_moves(&game, &self.to_text(), limit)
        };
        for (part_index, part) in self.parts.iter().enumerate() {
            for (component_index, component) in part.components.iter().enumerate() {
                let remaining = limit.saturating_sub(moves.len());
                let options = match part.game.options(component, remaining) {
                    Err(GameError::TooManyMoves { .. }) if remaining < limit => return Err(too_many_in_all()),
                    listed => listed?,
                };
                if options.len() > remaining {
                    return Err(if remaining < limit {
                        too_many_in_all()
                    } else {
                        crate::ruleset::too_many_moves(&part.game.spec(), &part.game.format_component(component), limit)
                    });
                }
                for one in options {
                    moves.push(self.sum_move(part_index, component_index, one, String::new()));
                }
            }
        }
        Ok(moves)
    }

    /// Why the single component a move leaves is a P-position.
    fn single_result_reason(&self, game: &dyn Ruleset, one: &ComponentMove<Component>) -> String {
        match one.result.as_slice() {
            [only] => game.p_position_reason(only).unwrap_or_else(|| "a P-position".to_owned()),
            _ => "a P-position".to_owned(),
        }
    }

    fn sum_move(&self, part: usize, component: usize, one: ComponentMove<Component>, explain: String) -> SumMove {
        SumMove { part, component, result: one.result, notation: one.notation, explain }
    }

    /// The components as (part, component, text) in order, for a person to read.
    pub fn describe(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for (part_index, part) in self.parts.iter().enumerate() {
            for (component_index, component) in part.components.iter().enumerate() {
                lines.push(format!(
                    "{}: {}",
                    self.label(part_index, component_index),
                    part.game.describe_component(component)
                ));
            }
        }
        lines
    }
}

/// The finite nim-sum and the `∞` components of a sum whose every value is known.
struct Summary {
    finite: BigUint,
    infinite: Vec<(usize, usize, Vec<u64>)>,
}

impl Summary {
    fn of(values: &Values) -> Result<Summary, GameError> {
        let mut summary = Summary { finite: BigUint::ZERO, infinite: Vec::new() };
        for (part, part_values) in values.iter().enumerate() {
            for (component, value) in part_values.iter().enumerate() {
                match value {
                    Ok(Value::Finite(value)) => summary.finite ^= value,
                    Ok(Value::Infinite { reachable }) => summary.infinite.push((part, component, reachable.clone())),
                    Err(error) => return Err(error.clone()),
                }
            }
        }
        Ok(summary)
    }

    fn value(&self) -> Result<Value, GameError> {
        match self.infinite.as_slice() {
            [] => Ok(Value::Finite(self.finite.clone())),
            [(_, _, reachable)] => {
                // ∞(K) ⊕ a = ∞(K ⊕ a) (Smith).
                let shift = self.finite.to_u64().ok_or_else(|| {
                    GameError::OutOfReach(format!(
                        "an ∞ value plus the finite value {}: the values it can reach pass 2^64 - 1",
                        self.finite
                    ))
                })?;
                let mut shifted: Vec<u64> = reachable.iter().map(|k| k ^ shift).collect();
                shifted.sort_unstable();
                Ok(Value::Infinite { reachable: shifted })
            }
            _ => Ok(Value::Infinite { reachable: Vec::new() }),
        }
    }
}

/// The value of a sum of components with these values, by Smith's rules: the nim-sum of
/// finite values; `∞(K ⊕ a)` with one `∞(K)` and the others' nim-sum `a`; `∞(∅)` with two or
/// more `∞`.
///
/// # Errors
/// [`GameError::OutOfReach`] for `∞(K) ⊕ a` with `a` past `2^64 − 1`.
///
/// ```
/// use grundy_model::Value;
/// use grundy_model::sum::sum_of_values;
/// let loopy = Value::Infinite { reachable: vec![0, 2] };
/// assert_eq!(sum_of_values(&[Value::from(3u64), Value::from(1u64)]).unwrap().to_string(), "2");
/// assert_eq!(sum_of_values(&[loopy.clone(), Value::from(2u64)]).unwrap().to_string(), "∞(0,2)");
/// assert_eq!(sum_of_values(&[loopy.clone(), Value::from(1u64)]).unwrap().to_string(), "∞(1,3)");
/// assert_eq!(sum_of_values(&[loopy.clone(), loopy]).unwrap().to_string(), "∞()");
/// ```
pub fn sum_of_values(values: &[Value]) -> Result<Value, GameError> {
    Summary::of(&vec![values.iter().cloned().map(Ok).collect()])?.value()
}

/// The sum of any number of positions of one game, by the definition: a position is the list
/// of components and a move replaces one component by one of its options.
///
/// ```
/// use grundy_model::game::Game;
/// use grundy_model::solve::memo::grundy_value;
/// use grundy_model::sum::SumGame;
///
/// /// Nim on one heap: any smaller heap.
/// struct NimHeap;
/// impl Game for NimHeap {
///     type State = u64;
///     fn options_into(&self, heap: &u64, out: &mut Vec<u64>) {
///         out.extend(0..*heap);
///     }
/// }
/// // Bouton: the value of a Nim position is the xor of its heaps.
/// assert_eq!(grundy_value(&SumGame(NimHeap), &vec![3, 4, 5]).unwrap().0, 3 ^ 4 ^ 5);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SumGame<G>(pub G);

impl<G: Game> Game for SumGame<G> {
    type State = Vec<G::State>;

    fn options_into(&self, position: &Self::State, out: &mut Vec<Self::State>) {
        let mut component_options = Vec::new();
        for (index, component) in position.iter().enumerate() {
            component_options.clear();
            self.0.options_into(component, &mut component_options);
            for option in component_options.drain(..) {
                let mut next = position.clone();
                next[index] = option;
                out.push(next);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::memo::Solver;
    use proptest::prelude::*;

    /// A subtraction game: take one of the numbers of the set from one heap.
    struct SubtractionGame(Vec<u64>);

    impl Game for SubtractionGame {
        type State = u64;
        fn options_into(&self, heap: &u64, out: &mut Vec<u64>) {
            out.extend(self.0.iter().filter(|&&take| take <= *heap).map(|take| heap - take));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The SG theorem, checked against the definition on random subtraction-game sums.
        #[test]
        fn sum_value_is_xor_of_parts(
            set in proptest::collection::btree_set(1u64..6, 1..4),
            heaps in proptest::collection::vec(0u64..9, 0..4),
        ) {
            let game = SubtractionGame(set.into_iter().collect());
            let mut single = Solver::new(&game);
            let xor = heaps.iter().fold(0, |acc, heap| acc ^ single.grundy_value(heap).unwrap().0);
            let sum_value = Solver::new(SumGame(&game)).grundy_value(&heaps).unwrap().0;
            prop_assert_eq!(sum_value, xor);
        }
    }
}
