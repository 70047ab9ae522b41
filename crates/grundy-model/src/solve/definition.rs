//! [`Definition`]: any game of the registry by its rules alone.

use crate::error::GameError;
use crate::game::Game;
use crate::nimber::Nimber;
use crate::position::Component;
use crate::ruleset::{MOVE_LIMIT, Ruleset};
use crate::solve::memo::Solver;
use std::sync::{Arc, Mutex};

/// The Grundy value of sums of one game's components by the definition: a position is the
/// whole sum (its components sorted, so that equal sums are one position), a move replaces one
/// component by what [`Ruleset::options`] says it leaves, and the value is the mex over the
/// options, searched by [`Solver`]. Nothing else of the family is used: not its values, not
/// its closed form or table, not even the Sprague–Grundy theorem. It is the reference every
/// family's fast paths are tested against (`tests/model.rs`), for every family of the
/// registry, with no code of the family's own.
///
/// ```
/// use grundy_model::error::GameError;
/// use grundy_model::ruleset::{ComponentGame, ComponentMove, erase};
/// use grundy_model::solve::definition::Definition;
/// use grundy_model::value::Value;
///
/// /// Nim heaps, with a value method the definition never calls.
/// struct Nim;
/// impl ComponentGame for Nim {
///     type Component = u64;
///     fn spec(&self) -> String { "nim".into() }
///     fn parse_component(&self, text: &str) -> Result<u64, GameError> {
///         text.parse().map_err(|_| GameError::BadComponent {
///             game: self.spec(), text: text.into(), reason: "a heap is a whole number".into() })
///     }
///     fn format_component(&self, heap: &u64) -> String { heap.to_string() }
///     fn options(&self, heap: &u64, _limit: usize) -> Result<Vec<ComponentMove<u64>>, GameError> {
///         Ok((0..*heap).map(|left| ComponentMove::new(vec![left], format!("{heap} -> {left}"))).collect())
///     }
///     fn value(&self, _: &u64) -> Result<Value, GameError> { unreachable!("not asked") }
/// }
/// let nim = erase(Nim);
/// let mut definition = Definition::new(nim.clone());
/// let heap = |text| nim.parse_component(text).unwrap();
/// assert_eq!(definition.value(&[heap("3"), heap("5"), heap("6")]).unwrap().0, 0); // Bouton
/// assert_eq!(definition.value(&[heap("1"), heap("2")]).unwrap().0, 3);
/// ```
pub struct Definition {
    solver: Solver<Options>,
}

/// The options of sums of one game's components, through its [`Ruleset`]; the first error a
/// component's options gave is kept, since [`Game::options_into`] cannot return it.
struct Options {
    game: Arc<dyn Ruleset>,
    error: Mutex<Option<GameError>>,
}

impl Game for Options {
    type State = Vec<Component>;

    fn options_into(&self, position: &Vec<Component>, out: &mut Vec<Vec<Component>>) {
        for (index, component) in position.iter().enumerate() {
            // Equal components have the same options: list them once.
            if index > 0 && position[index - 1] == *component {
                continue;
            }
            let moves = match self.game.options(component, MOVE_LIMIT) {
                Ok(moves) => moves,
                Err(error) => {
                    self.error.lock().expect("error lock").get_or_insert(error);
                    continue;
                }
            };
            for one in moves {
                let mut option: Vec<Component> =
                    position[..index].iter().chain(&position[index + 1..]).cloned().collect();
                option.extend(one.result);
                option.sort_unstable();
                out.push(option);
            }
        }
    }
}

impl Definition {
    /// The definition of `game`, with nothing evaluated yet.
    pub fn new(game: Arc<dyn Ruleset>) -> Self {
        Definition { solver: Solver::new(Options { game, error: Mutex::new(None) }) }
    }

    /// The definition of `game`, refusing ([`GameError::TooLarge`]) to search more than
    /// `max_positions` sums: for a harness that checks what a moment's search reaches.
    pub fn with_limit(game: Arc<dyn Ruleset>, max_positions: usize) -> Self {
        Definition { solver: Solver::with_limit(Options { game, error: Mutex::new(None) }, max_positions) }
    }

    /// The Grundy value of the sum of `components`. Values found are kept for later calls.
    ///
    /// # Errors
    /// [`GameError::Cycle`] when a position can be reached from itself (a loopy game has no
    /// finite value there), an error of the family's [`Ruleset::options`] (too many options to
    /// list), or [`GameError::TooLarge`] past the solver's position limit.
    pub fn value(&mut self, components: &[Component]) -> Result<Nimber, GameError> {
        let mut position = components.to_vec();
        position.sort_unstable();
        let value = self.solver.grundy_value(&position);
        let failed = self.solver.game().error.lock().expect("error lock").take();
        if let Some(error) = failed {
            // Values found while some options were missing are wrong: forget them all.
            let limit = self.solver.max_positions();
            *self = Definition::with_limit(self.solver.game().game.clone(), limit);
            return Err(error);
        }
        value
    }
}
