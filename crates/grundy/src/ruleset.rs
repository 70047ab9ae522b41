//! What every game family offers the front end: parse components, give the value, the outcome
//! and every winning move of a sum.
//!
//! A front end holds a `Box<dyn Ruleset>` from [`crate::spec::parse_game`] and hands it the
//! position as the component texts the user typed. Families whose values are finite implement
//! the smaller [`ComponentGame`] and get their sums for free through [`SumOf`], which applies
//! the Sprague–Grundy theorem (see [`crate::sum`]).

use crate::error::GameError;
use crate::value::{Outcome, Value};
use num_bigint::BigUint;

/// One winning move of a sum: where it leads and why that wins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinningMove {
    /// The whole position after the move, as component texts in the input's own syntax.
    pub to: Vec<String>,
    /// The index (from 0) of the component the move is made in.
    pub component: usize,
    /// The move in the words a person would type: `3 -> 1`.
    pub notation: String,
    /// Why the move wins, in words.
    pub explain: String,
}

/// A game family with its parameters fixed (`nim`, `sub:2,5`, …), as the front end sees it.
pub trait Ruleset: Send + Sync {
    /// The game in canonical form (`sub:2,5`).
    fn spec(&self) -> String;

    /// The value of the sum of `components`.
    ///
    /// # Errors
    /// A component that does not parse, or a value beyond what the family can compute.
    fn value(&self, components: &[String]) -> Result<Value, GameError>;

    /// The outcome of the sum of `components`.
    ///
    /// # Errors
    /// As [`Ruleset::value`].
    fn outcome(&self, components: &[String]) -> Result<Outcome, GameError> {
        Ok(self.value(components)?.outcome())
    }

    /// Every move from the sum of `components` to a P-position: none when it is a P-position.
    ///
    /// # Errors
    /// As [`Ruleset::value`].
    fn winning_moves(&self, components: &[String]) -> Result<Vec<WinningMove>, GameError>;

    /// The family's whole table for `grundy table` (`size` from `--size`), or `None` when the
    /// family has no table.
    ///
    /// # Errors
    /// A size the family cannot compute.
    fn table(&self, size: Option<u64>) -> Option<Result<Table, GameError>> {
        let _ = size;
        None
    }

    /// The family as a heap game with a nim-sequence (for `sequence`, `period`, `stats`), or
    /// `None`.
    fn heap_game(&self) -> Option<&dyn crate::heap::HeapGame> {
        None
    }

    /// The edges of a graph game (for `grundy plot`), by vertex names as in
    /// [`Table::Vertices`], or `None` when the family is not played on a graph.
    ///
    /// A directed game (`dag:`) lists each edge `(from, to)` in the direction a token moves; an
    /// undirected game (`geography:`) lists each edge once, in either order.
    fn graph_edges(&self) -> Option<Vec<(String, String)>> {
        None
    }

    /// Every move from the sum of `components` (for play), winning or not.
    ///
    /// # Errors
    /// [`GameError::TooLarge`] when there are more than `limit`; [`GameError::Unsupported`]
    /// when the family cannot list its moves.
    fn all_moves(&self, components: &[String], limit: usize) -> Result<Vec<Move>, GameError> {
        let _ = (components, limit);
        Err(GameError::Unsupported(format!("{} cannot list every move of a position", self.spec())))
    }

    /// The position for a person to read: one line per component (heaps with bars, pairs,
    /// coin rows, the token's path).
    fn describe_position(&self, components: &[String]) -> Vec<String> {
        components.iter().enumerate().map(|(index, text)| format!("{}: {text}", index + 1)).collect()
    }
}

/// One move of a sum, winning or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// The whole position after the move, as component texts in the input's own syntax.
    pub to: Vec<String>,
    /// The index (from 0) of the component the move is made in.
    pub component: usize,
    /// The move in the words a person types: `3 -> 1`.
    pub notation: String,
}

/// A family's whole table, for `grundy table`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Table {
    /// `values[x][y]` = G(x, y) for a two-heap game, rows by `x`.
    Grid {
        /// The rows.
        values: Vec<Vec<u64>>,
    },
    /// Every vertex of a graph game with its value and outcome.
    Vertices(Vec<VertexEntry>),
}

/// One vertex of a graph game's table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VertexEntry {
    /// The vertex name as in the input file.
    pub name: String,
    /// Its value (`None` when the family defines only outcomes).
    pub value: Option<Value>,
    /// Who wins with the token there.
    pub outcome: Outcome,
}

/// One option of a single component: the components it is replaced by (none when a heap is
/// taken away entirely, two when it is split), and the move in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComponentMove<C> {
    /// The components that replace the one moved in.
    pub result: Vec<C>,
    /// The move in the words a person would type: `7 -> 2 + 3`.
    pub notation: String,
}

/// A family whose positions are sums of components with finite Grundy values.
pub trait ComponentGame: Send + Sync {
    /// One component: a heap size, a pair, a coin row.
    type Component: Clone;

    /// The game in canonical form.
    fn spec(&self) -> String;

    /// What a component is called in explanations: `heap`, `pair`, `row`.
    fn component_noun(&self) -> &'static str {
        "heap"
    }

    /// Parses one component.
    ///
    /// # Errors
    /// [`GameError::BadComponent`] naming the text.
    fn parse_component(&self, text: &str) -> Result<Self::Component, GameError>;

    /// A component in the input syntax.
    fn format_component(&self, component: &Self::Component) -> String;

    /// The Grundy value of one component.
    ///
    /// # Errors
    /// When the value is beyond what the family can compute.
    fn component_value(&self, component: &Self::Component) -> Result<BigUint, GameError>;

    /// Every option of `component` whose value is `target` (greater or less than its own).
    ///
    /// # Errors
    /// As [`ComponentGame::component_value`].
    fn moves_to_value(
        &self,
        component: &Self::Component,
        target: &BigUint,
    ) -> Result<Vec<ComponentMove<Self::Component>>, GameError>;

    /// As [`Ruleset::table`].
    fn table(&self, size: Option<u64>) -> Option<Result<Table, GameError>> {
        let _ = size;
        None
    }

    /// As [`Ruleset::heap_game`].
    fn heap_game(&self) -> Option<&dyn crate::heap::HeapGame> {
        None
    }

    /// Every option of `component` (for play and for listing legal moves).
    ///
    /// # Errors
    /// [`GameError::TooLarge`] when there are more than `limit`; [`GameError::Unsupported`]
    /// when the family cannot list them.
    fn component_options(
        &self,
        component: &Self::Component,
        limit: usize,
    ) -> Result<Vec<ComponentMove<Self::Component>>, GameError> {
        let _ = (component, limit);
        Err(GameError::Unsupported(format!("{} cannot list every move of a component", self.spec())))
    }

    /// One component for a person to read (a heap with a bar, say).
    fn describe_component(&self, component: &Self::Component) -> String {
        self.format_component(component)
    }
}

/// The error for a component with more than `limit` options.
pub fn too_many_moves(game: &str, component: &str, limit: usize) -> GameError {
    GameError::Unsupported(format!("`{component}` in {game} has more than {limit} moves: too many to list"))
}

/// The [`Ruleset`] of sums of a [`ComponentGame`], by the Sprague–Grundy theorem.
///
/// ```
/// use grundy::heap::nim::NimRules;
/// use grundy::ruleset::{Ruleset, SumOf};
/// let nim = SumOf(NimRules);
/// let position: Vec<String> = ["3", "4", "5"].map(String::from).to_vec();
/// assert_eq!(nim.value(&position).unwrap().to_string(), "2");
/// let moves = nim.winning_moves(&position).unwrap();
/// assert_eq!(moves.len(), 1);
/// assert_eq!(moves[0].to, ["1", "4", "5"]);
/// ```
pub struct SumOf<G>(pub G);

impl<G: ComponentGame> SumOf<G> {
    fn parse_all(&self, components: &[String]) -> Result<Vec<G::Component>, GameError> {
        components.iter().map(|text| self.0.parse_component(text)).collect()
    }

    fn values(&self, components: &[G::Component]) -> Result<Vec<BigUint>, GameError> {
        components.iter().map(|component| self.0.component_value(component)).collect()
    }
}

impl<G: ComponentGame> Ruleset for SumOf<G> {
    fn spec(&self) -> String {
        self.0.spec()
    }

    fn value(&self, components: &[String]) -> Result<Value, GameError> {
        let parsed = self.parse_all(components)?;
        let total = self.values(&parsed)?.into_iter().fold(BigUint::ZERO, |acc, value| acc ^ value);
        Ok(Value::Finite(total))
    }

    fn winning_moves(&self, components: &[String]) -> Result<Vec<WinningMove>, GameError> {
        let parsed = self.parse_all(components)?;
        let values = self.values(&parsed)?;
        let total = values.iter().fold(BigUint::ZERO, |acc, value| acc ^ value);
        let mut moves = Vec::new();
        if total == BigUint::ZERO {
            return Ok(moves);
        }
        let noun = self.0.component_noun();
        for (index, (component, value)) in parsed.iter().zip(&values).enumerate() {
            let target = value ^ &total;
            for component_move in self.0.moves_to_value(component, &target)? {
                let mut to: Vec<String> = components[..index].to_vec();
                to.extend(component_move.result.iter().map(|c| self.0.format_component(c)));
                to.extend_from_slice(&components[index + 1..]);
                let explain = if parsed.len() == 1 {
                    format!("{noun} {}: {}; value {value} -> 0, a P-position", index + 1, component_move.notation)
                } else {
                    format!(
                        "{noun} {}: {}; its value {value} -> {target} makes the nim-sum {total} -> 0, a P-position",
                        index + 1,
                        component_move.notation
                    )
                };
                moves.push(WinningMove { to, component: index, notation: component_move.notation, explain });
            }
        }
        Ok(moves)
    }

    fn table(&self, size: Option<u64>) -> Option<Result<Table, GameError>> {
        self.0.table(size)
    }

    fn heap_game(&self) -> Option<&dyn crate::heap::HeapGame> {
        self.0.heap_game()
    }

    fn all_moves(&self, components: &[String], limit: usize) -> Result<Vec<Move>, GameError> {
        let parsed = self.parse_all(components)?;
        let mut moves = Vec::new();
        for (index, component) in parsed.iter().enumerate() {
            let remaining = limit.saturating_sub(moves.len());
            for component_move in self.0.component_options(component, remaining)? {
                if moves.len() == limit {
                    return Err(too_many_moves(&self.spec(), &components[index], limit));
                }
                let mut to: Vec<String> = components[..index].to_vec();
                to.extend(component_move.result.iter().map(|c| self.0.format_component(c)));
                to.extend_from_slice(&components[index + 1..]);
                moves.push(Move { to, component: index, notation: component_move.notation });
            }
        }
        Ok(moves)
    }

    fn describe_position(&self, components: &[String]) -> Vec<String> {
        let noun = self.0.component_noun();
        match self.parse_all(components) {
            Ok(parsed) => parsed
                .iter()
                .enumerate()
                .map(|(index, component)| format!("{noun} {}: {}", index + 1, self.0.describe_component(component)))
                .collect(),
            Err(_) => components.to_vec(),
        }
    }
}
