//! The game model every family plugs into.
//!
//! A family implements [`ComponentGame`] once, on its own component type: how a component is
//! read and printed, **its options** (the one function that states the rules), its value, and
//! what it knows better than the definition (a closed form, a table, a period, a matching
//! argument) through the provided methods it overrides. [`erase`] turns it into a
//! `dyn` [`Ruleset`] over the common [`Component`] enum, which is what sums
//! ([`crate::sum::Position`]), play, the registry and the front ends hold. The Sprague–Grundy
//! theorem and the sentence that explains a winning move live in [`crate::sum`], once.
//!
//! Every fast `moves_to_value` is property-tested equal to the default, which filters
//! [`ComponentGame::options`] by value (see the registry-wide test in `tests/model.rs`).

use crate::error::GameError;
use crate::heap::HeapGame;
use crate::position::{Component, ComponentKind};
use crate::value::{Outcome, Value};
use num_bigint::BigUint;
use std::sync::Arc;

/// The most options a component may have for them all to be listed (moves, play).
pub const MOVE_LIMIT: usize = 1_000_000;

/// One option of a single component: the components it is replaced by (none when a heap is
/// taken away entirely, two when it is split), and the move in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComponentMove<C> {
    /// The components that replace the one moved in.
    pub result: Vec<C>,
    /// The move as a person types it: `7 -> 2 + 3`, `4,8 -> 4,7`, `turn 7,9`.
    pub notation: String,
    /// More about the move, printed after the notation: ` (take 1 from the second heap)`.
    pub detail: String,
}

impl<C> ComponentMove<C> {
    /// A move with no detail.
    pub fn new(result: Vec<C>, notation: String) -> Self {
        ComponentMove { result, notation, detail: String::new() }
    }

    fn map<D>(self, f: impl Fn(C) -> D) -> ComponentMove<D> {
        ComponentMove { result: self.result.into_iter().map(f).collect(), notation: self.notation, detail: self.detail }
    }
}

/// What kind of picture `grundy plot` draws of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chart {
    /// A heap game: its nim-sequence.
    Sequence,
    /// A two-heap game: its table of values.
    Grid,
    /// A graph game: the graph with each vertex's outcome.
    Graph,
    /// No picture.
    None,
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

/// The table of a graph game of `count` vertices, entry by entry, refused before it is
/// allocated when it would pass the memory limit (10^8 vertices asked for 6.4 GB at once).
///
/// # Errors
/// [`GameError::TooLarge`] naming the vertex count and the limit.
pub fn vertex_table(
    control: &crate::control::Control,
    count: usize,
    entry: impl FnMut(usize) -> VertexEntry,
) -> Result<Table, GameError> {
    // Each entry, and its name's copy: a short string and the allocator's header.
    let what = || format!("the table of {count} vertices");
    control.check_memory(what, count as u128, std::mem::size_of::<VertexEntry>() as u128 + 48)?;
    let mut vertices = Vec::new();
    control.try_reserve_table(&mut vertices, count, what)?;
    vertices.extend((0..count).map(entry));
    Ok(Table::Vertices(vertices))
}

/// The graph of a graph game, for pictures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphView {
    /// Vertex names, by id.
    pub names: Vec<String>,
    /// Edges by vertex id: the direction a token moves when `directed`, else each edge once.
    pub edges: Vec<(u32, u32)>,
    /// Whether edges have a direction (`dag:`) or not (`geography:`).
    pub directed: bool,
}

/// A game whose positions are sums of components: one family with its parameters fixed
/// (`nim`, `sub:2,5`, `wythoff`, a graph, a coin rule).
///
/// Required: reading and printing a component, its options, its value. Everything else has a
/// default from those; a family overrides what it knows faster or better.
///
/// ```
/// use grundy::error::GameError;
/// use grundy::position::Component;
/// use grundy::ruleset::{ComponentGame, ComponentMove, erase};
/// use grundy::sum::Position;
/// use grundy::value::Value;
/// use num_bigint::BigUint;
///
/// /// Take 1 or 2 counters: values n mod 3.
/// struct TakeOneOrTwo;
/// impl ComponentGame for TakeOneOrTwo {
///     type Component = BigUint;
///     fn spec(&self) -> String { "take-1-2".into() }
///     fn parse_component(&self, text: &str) -> Result<BigUint, GameError> {
///         grundy::heap::parse_heap("take-1-2", text)
///     }
///     fn format_component(&self, heap: &BigUint) -> String { heap.to_string() }
///     fn options(&self, heap: &BigUint, _limit: usize) -> Result<Vec<ComponentMove<BigUint>>, GameError> {
///         Ok((1u32..=2).filter(|&take| BigUint::from(take) <= *heap)
///             .map(|take| ComponentMove::new(vec![heap - take], format!("{heap} -> {}", heap - take)))
///             .collect())
///     }
///     fn value(&self, heap: &BigUint) -> Result<Value, GameError> { Ok(Value::Finite(heap % 3u32)) }
/// }
/// let game = erase(TakeOneOrTwo);
/// let position = Position::parse_single(game, &["4", "5"]).unwrap();
/// assert_eq!(position.value().unwrap().to_string(), "3");
/// assert_eq!(position.winning_moves().unwrap().len(), 2);
/// ```
pub trait ComponentGame: Send + Sync + 'static {
    /// One component: a heap size, a pair, a vertex, a coin row.
    type Component: ComponentKind;

    /// The game in canonical form (`sub:2,5`); two games with the same spec are the same game.
    fn spec(&self) -> String;

    /// What a component is called in explanations: `heap`, `pair`, `token`, `row`.
    fn component_noun(&self) -> &'static str {
        "heap"
    }

    /// Reads one component.
    ///
    /// # Errors
    /// [`GameError::BadComponent`] naming the text and what a component looks like.
    fn parse_component(&self, text: &str) -> Result<Self::Component, GameError>;

    /// A component in the notation it is read from (`parse_component` reads it back).
    fn format_component(&self, component: &Self::Component) -> String;

    /// One component for a person to read (a heap with a bar, say).
    fn describe_component(&self, component: &Self::Component) -> String {
        self.format_component(component)
    }

    /// Every option of `component`: **the rules**. Everything else about moves is this list,
    /// or property-tested equal to it.
    ///
    /// # Errors
    /// [`GameError::TooLarge`] when there are more than `limit` (or the family cannot list
    /// them at this size).
    fn options(
        &self,
        component: &Self::Component,
        limit: usize,
    ) -> Result<Vec<ComponentMove<Self::Component>>, GameError>;

    /// The (generalized) Grundy value of one component.
    ///
    /// # Errors
    /// [`GameError::OutOfReach`] when it is beyond what the family can compute.
    fn value(&self, component: &Self::Component) -> Result<Value, GameError>;

    /// Who wins the component alone. Families that know outcomes beyond their values (a huge
    /// Wythoff pair, geography) override it.
    ///
    /// # Errors
    /// As [`ComponentGame::value`].
    fn outcome(&self, component: &Self::Component) -> Result<Outcome, GameError> {
        Ok(self.value(component)?.outcome())
    }

    /// Whether moves from `component` can be listed at all, decided from the component alone
    /// before any value is computed; families that refuse to list moves past a size say so
    /// here, so that `grundy moves` refuses at once instead of after the work.
    ///
    /// # Errors
    /// The error listing its moves would give.
    fn check_moves_listable(&self, component: &Self::Component) -> Result<(), GameError> {
        let _ = component;
        Ok(())
    }

    /// Every option of `component` whose value is `target`.
    ///
    /// # Errors
    /// As [`ComponentGame::options`] and [`ComponentGame::value`].
    fn moves_to_value(
        &self,
        component: &Self::Component,
        target: &BigUint,
    ) -> Result<Vec<ComponentMove<Self::Component>>, GameError> {
        let mut found = Vec::new();
        for option in self.options(component, MOVE_LIMIT)? {
            if option_value(self, &option.result)?.as_ref() == Some(target) {
                found.push(option);
            }
        }
        Ok(found)
    }

    /// Hands every option of `component` whose value is `target` to `visit`, one at a time: a
    /// family whose moves are many and large (a long coin row) streams them instead of
    /// collecting them. By default, [`ComponentGame::moves_to_value`] one by one.
    ///
    /// # Errors
    /// As [`ComponentGame::moves_to_value`], or what `visit` returns.
    fn for_each_move_to_value(
        &self,
        component: &Self::Component,
        target: &BigUint,
        visit: &mut dyn FnMut(ComponentMove<Self::Component>) -> Result<(), GameError>,
    ) -> Result<(), GameError> {
        self.moves_to_value(component, target)?.into_iter().try_for_each(visit)
    }

    /// Every option of `component` that is a P-position, for a component alone whose value
    /// may be out of reach though its outcomes are known (a huge Wythoff pair, geography).
    ///
    /// # Errors
    /// As [`ComponentGame::moves_to_value`].
    fn moves_to_p(&self, component: &Self::Component) -> Result<Vec<ComponentMove<Self::Component>>, GameError> {
        self.moves_to_value(component, &BigUint::ZERO)
    }

    /// Why `component` is a P-position, in words, when the family can say more than its value
    /// (`4,7 is the P-position (a_k, b_k) with k = 3`).
    fn p_position_reason(&self, component: &Self::Component) -> Option<String> {
        let _ = component;
        None
    }

    /// The family's whole table for `grundy table` (`size` from `--size`), or `None`.
    fn table(&self, size: Option<u64>) -> Option<Result<Table, GameError>> {
        let _ = size;
        None
    }

    /// The family as a heap game with a nim-sequence (for `sequence`, `period`, `stats`).
    fn heap_game(&self) -> Option<&dyn HeapGame> {
        None
    }

    /// For a coin-turning family, the value of one heads coin at place `n` for `n = 1 ..=
    /// last` (a row's value is the xor of its heads coins' values): the line `grundy guess`
    /// looks at. `None` for other families.
    fn coin_values(&self, last: u64) -> Option<Result<Vec<u64>, GameError>> {
        let _ = last;
        None
    }

    /// The graph a graph game is played on.
    fn graph(&self) -> Option<GraphView> {
        None
    }

    /// Why a position of this game cannot have several components, if it cannot (geography:
    /// two tokens on one board would share the visited vertices, which is not a sum).
    fn one_component_only(&self) -> Option<String> {
        None
    }

    /// A game's own words beyond its family's summary in `grundy rules` (a script's `NAME` and
    /// `DESCRIPTION`), or `None`.
    fn about(&self) -> Option<String> {
        None
    }

    /// The position `grundy play` starts from when none is given (a script's `start()`), or
    /// `None` when the game has none.
    fn start(&self) -> Option<Vec<Self::Component>> {
        None
    }

    /// The picture `grundy plot` draws: a heap game's sequence, a graph game's graph; a
    /// two-heap game with a table says [`Chart::Grid`].
    fn chart(&self) -> Chart {
        if self.heap_game().is_some() {
            Chart::Sequence
        } else if self.graph().is_some() {
            Chart::Graph
        } else {
            Chart::None
        }
    }
}

/// The value of the components an option leaves: the xor of their values, or `None` when one
/// of them is `∞`.
fn option_value<G: ComponentGame + ?Sized>(game: &G, parts: &[G::Component]) -> Result<Option<BigUint>, GameError> {
    let mut total = BigUint::ZERO;
    for part in parts {
        match game.value(part)? {
            Value::Finite(value) => total ^= value,
            Value::Infinite { .. } => return Ok(None),
        }
    }
    Ok(Some(total))
}

/// A game as the front end holds it: [`ComponentGame`] over the common [`Component`] enum.
/// Made by [`erase`]; the methods mean what they mean there.
#[allow(missing_docs)]
pub trait Ruleset: Send + Sync {
    fn spec(&self) -> String;
    fn component_noun(&self) -> &'static str;
    fn parse_component(&self, text: &str) -> Result<Component, GameError>;
    fn format_component(&self, component: &Component) -> String;
    fn describe_component(&self, component: &Component) -> String;
    fn options(&self, component: &Component, limit: usize) -> Result<Vec<ComponentMove<Component>>, GameError>;
    fn value(&self, component: &Component) -> Result<Value, GameError>;
    fn outcome(&self, component: &Component) -> Result<Outcome, GameError>;
    fn check_moves_listable(&self, component: &Component) -> Result<(), GameError>;
    fn moves_to_value(
        &self,
        component: &Component,
        target: &BigUint,
    ) -> Result<Vec<ComponentMove<Component>>, GameError>;
    fn for_each_move_to_value(
        &self,
        component: &Component,
        target: &BigUint,
        visit: &mut dyn FnMut(ComponentMove<Component>) -> Result<(), GameError>,
    ) -> Result<(), GameError>;
    fn moves_to_p(&self, component: &Component) -> Result<Vec<ComponentMove<Component>>, GameError>;
    fn p_position_reason(&self, component: &Component) -> Option<String>;
    fn table(&self, size: Option<u64>) -> Option<Result<Table, GameError>>;
    fn heap_game(&self) -> Option<&dyn HeapGame>;
    fn coin_values(&self, last: u64) -> Option<Result<Vec<u64>, GameError>>;
    fn graph(&self) -> Option<GraphView>;
    fn one_component_only(&self) -> Option<String>;
    fn about(&self) -> Option<String>;
    fn start(&self) -> Option<Vec<Component>>;
    fn chart(&self) -> Chart;
}

/// `game` as a `dyn Ruleset`.
pub fn erase<G: ComponentGame>(game: G) -> Arc<dyn Ruleset> {
    Arc::new(Erased(game))
}

struct Erased<G>(G);

impl<G: ComponentGame> Erased<G> {
    fn typed(&self, component: &Component) -> Result<G::Component, GameError> {
        G::Component::from_component(component).ok_or_else(|| GameError::BadComponent {
            game: self.0.spec(),
            text: format!("{component:?}"),
            reason: format!("a component of another game: {} takes a {}", self.0.spec(), G::Component::KIND),
        })
    }

    fn moves(moves: Vec<ComponentMove<G::Component>>) -> Vec<ComponentMove<Component>> {
        moves.into_iter().map(|one| one.map(ComponentKind::into_component)).collect()
    }
}

impl<G: ComponentGame> Ruleset for Erased<G> {
    fn spec(&self) -> String {
        self.0.spec()
    }
    fn component_noun(&self) -> &'static str {
        self.0.component_noun()
    }
    fn parse_component(&self, text: &str) -> Result<Component, GameError> {
        self.0.parse_component(text).map(ComponentKind::into_component)
    }
    fn format_component(&self, component: &Component) -> String {
        match G::Component::from_component(component) {
            Some(typed) => self.0.format_component(&typed),
            None => format!("{component:?}"),
        }
    }
    fn describe_component(&self, component: &Component) -> String {
        match G::Component::from_component(component) {
            Some(typed) => self.0.describe_component(&typed),
            None => format!("{component:?}"),
        }
    }
    fn options(&self, component: &Component, limit: usize) -> Result<Vec<ComponentMove<Component>>, GameError> {
        Ok(Self::moves(self.0.options(&self.typed(component)?, limit)?))
    }
    fn value(&self, component: &Component) -> Result<Value, GameError> {
        self.0.value(&self.typed(component)?)
    }
    fn outcome(&self, component: &Component) -> Result<Outcome, GameError> {
        self.0.outcome(&self.typed(component)?)
    }
    fn check_moves_listable(&self, component: &Component) -> Result<(), GameError> {
        self.0.check_moves_listable(&self.typed(component)?)
    }
    fn moves_to_value(
        &self,
        component: &Component,
        target: &BigUint,
    ) -> Result<Vec<ComponentMove<Component>>, GameError> {
        Ok(Self::moves(self.0.moves_to_value(&self.typed(component)?, target)?))
    }
    fn for_each_move_to_value(
        &self,
        component: &Component,
        target: &BigUint,
        visit: &mut dyn FnMut(ComponentMove<Component>) -> Result<(), GameError>,
    ) -> Result<(), GameError> {
        self.0.for_each_move_to_value(&self.typed(component)?, target, &mut |one| {
            visit(one.map(ComponentKind::into_component))
        })
    }
    fn moves_to_p(&self, component: &Component) -> Result<Vec<ComponentMove<Component>>, GameError> {
        Ok(Self::moves(self.0.moves_to_p(&self.typed(component)?)?))
    }
    fn p_position_reason(&self, component: &Component) -> Option<String> {
        self.0.p_position_reason(&G::Component::from_component(component)?)
    }
    fn table(&self, size: Option<u64>) -> Option<Result<Table, GameError>> {
        self.0.table(size)
    }
    fn heap_game(&self) -> Option<&dyn HeapGame> {
        self.0.heap_game()
    }
    fn coin_values(&self, last: u64) -> Option<Result<Vec<u64>, GameError>> {
        self.0.coin_values(last)
    }
    fn graph(&self) -> Option<GraphView> {
        self.0.graph()
    }
    fn one_component_only(&self) -> Option<String> {
        self.0.one_component_only()
    }
    fn about(&self) -> Option<String> {
        self.0.about()
    }
    fn start(&self) -> Option<Vec<Component>> {
        Some(self.0.start()?.into_iter().map(ComponentKind::into_component).collect())
    }
    fn chart(&self) -> Chart {
        self.0.chart()
    }
}

/// The error for a component with more options than may be listed.
pub fn too_many_moves(game: &str, component: &str, limit: usize) -> GameError {
    GameError::TooManyMoves { game: game.to_owned(), component: component.to_owned(), limit }
}
