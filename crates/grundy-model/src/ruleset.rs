//! The game model every family plugs into.
//!
//! A family implements [`ComponentGame`] once, on its own component type: how a component is
//! read and printed, **its options** (the one function that states the rules), its value, and
//! what it knows better than the definition about its moves (a closed form, a matching
//! argument) through the provided methods it overrides. Anything else a game can do (a
//! nim-sequence, a table, a graph to draw, a start position) is a [`Capability`], named by
//! a type of the module that defines it and offered in [`ComponentGame::provide`]: the model
//! knows none of them but the three of its own ([`About`], [`Start`], [`OneComponentOnly`]).
//! [`erase`] turns a family into a `dyn` [`Ruleset`] over [`Component`], which is what sums
//! ([`crate::sum::Position`]), play, the registry and the front ends hold. The Sprague–Grundy
//! theorem and the sentence that explains a winning move live in [`crate::sum`], once.
//!
//! Every fast `moves_to_value` is property-tested equal to the default, which filters
//! [`ComponentGame::options`] by value (see the registry-wide harness in the `grundy` crate's
//! `tests/model.rs`).

use crate::error::GameError;
use crate::position::{Component, ComponentKind};
use crate::value::{Outcome, Value};
use num_bigint::BigUint;
use std::any::{Any, TypeId};
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

/// A capability some games have beyond their rules (a nim-sequence, a table, a graph to
/// draw), named by a marker type of the module that defines it. A game offers it in
/// [`ComponentGame::provide`]; a caller asks with `ruleset.capability::<C>()` (on
/// `dyn Ruleset`), and gets `None` from a game without it.
///
/// ```
/// use grundy_model::ruleset::{Capability, Request};
/// /// The largest heap a game's moves can take at once, for those that have one.
/// struct MaxTake;
/// impl Capability for MaxTake {
///     type Handle = u64;
/// }
/// let mut request = Request::new::<MaxTake>();
/// request.give::<MaxTake>(|| 3);
/// assert_eq!(request.answer::<MaxTake>(), Some(3));
/// ```
pub trait Capability: 'static {
    /// What a game that has the capability hands out: a value, or an `Arc` of the trait that
    /// serves it.
    type Handle: 'static;
}

/// A question for one [`Capability`], answered in [`ComponentGame::provide`].
pub struct Request {
    wanted: TypeId,
    answer: Option<Box<dyn Any>>,
}

impl Request {
    /// A question for `C`.
    pub fn new<C: Capability>() -> Request {
        Request { wanted: TypeId::of::<C>(), answer: None }
    }

    /// Whether `C` is what is asked for.
    pub fn wants<C: Capability>(&self) -> bool {
        self.wanted == TypeId::of::<C>()
    }

    /// Answers with `C`'s handle, built only when `C` is what is asked for (and not answered
    /// yet).
    pub fn give<C: Capability>(&mut self, handle: impl FnOnce() -> C::Handle) -> &mut Request {
        if self.wants::<C>() && self.answer.is_none() {
            self.answer = Some(Box::new(handle()));
        }
        self
    }

    /// The answer, when `C` was asked for and given.
    pub fn answer<C: Capability>(self) -> Option<C::Handle> {
        if !self.wants::<C>() {
            return None;
        }
        self.answer?.downcast::<C::Handle>().ok().map(|handle| *handle)
    }
}

/// A game's own words beyond its family's summary in `grundy rules` (a script's `NAME` and
/// `DESCRIPTION`).
pub struct About;
impl Capability for About {
    type Handle = String;
}

/// The position `grundy play` starts from when none is given (a script's `start()`).
pub struct Start;
impl Capability for Start {
    type Handle = Vec<Component>;
}

/// Why a position of this game cannot have several components (geography: two tokens on one
/// board would share the visited vertices, which is not a sum).
pub struct OneComponentOnly;
impl Capability for OneComponentOnly {
    type Handle = String;
}

/// A game whose positions are sums of components: one family with its parameters fixed
/// (`nim`, `sub:2,5`, `wythoff`, a graph, a coin rule).
///
/// Required: reading and printing a component, its options, its value. Everything else has a
/// default from those; a family overrides what it knows faster or better.
///
/// ```
/// use grundy_model::error::GameError;
/// use grundy_model::ruleset::{About, ComponentGame, ComponentMove, Request, erase};
/// use grundy_model::sum::Position;
/// use grundy_model::value::Value;
/// use std::sync::Arc;
///
/// /// Take 1 or 2 counters: values n mod 3.
/// struct TakeOneOrTwo;
/// impl ComponentGame for TakeOneOrTwo {
///     type Component = u64;
///     fn spec(&self) -> String { "take-1-2".into() }
///     fn parse_component(&self, text: &str) -> Result<u64, GameError> {
///         text.parse().map_err(|_| GameError::BadComponent {
///             game: self.spec(), text: text.into(), reason: "a heap is a whole number".into() })
///     }
///     fn format_component(&self, heap: &u64) -> String { heap.to_string() }
///     fn options(&self, heap: &u64, _limit: usize) -> Result<Vec<ComponentMove<u64>>, GameError> {
///         Ok((1..=2).filter(|&take| take <= *heap)
///             .map(|take| ComponentMove::new(vec![heap - take], format!("{heap} -> {}", heap - take)))
///             .collect())
///     }
///     fn value(&self, heap: &u64) -> Result<Value, GameError> { Ok(Value::from(heap % 3)) }
///     fn provide(self: Arc<Self>, request: &mut Request) {
///         request.give::<About>(|| "the subtraction game {1, 2}".into());
///     }
/// }
/// let game = erase(TakeOneOrTwo);
/// assert_eq!(game.about().as_deref(), Some("the subtraction game {1, 2}"));
/// assert_eq!(game.start(), None);
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

    /// Reads many components at once, each as [`ComponentGame::parse_component`] reads it: a
    /// family whose rules run elsewhere (a script in a worker process) reads them in one
    /// request. By default, one by one.
    fn parse_components(&self, texts: &[&str]) -> Vec<Result<Self::Component, GameError>> {
        texts.iter().map(|text| self.parse_component(text)).collect()
    }

    /// The values of many components at once, each as [`ComponentGame::value`] gives it: a
    /// family whose rules run elsewhere answers them in one request. By default, one by one.
    fn values(&self, components: &[Self::Component]) -> Vec<Result<Value, GameError>> {
        components.iter().map(|component| self.value(component)).collect()
    }

    /// Who wins the component alone. Families that know outcomes beyond their values (a huge
    /// Wythoff pair, geography) override it.
    ///
    /// # Errors
    /// As [`ComponentGame::value`].
    fn outcome(&self, component: &Self::Component) -> Result<Outcome, GameError> {
        Ok(self.value(component)?.outcome())
    }

    /// Whether the value of `component` costs far more than its outcome and its moves to
    /// P-positions, which a closed form decides (a Wythoff pair whose value needs a table of
    /// millions of values, its outcome Wythoff's Beatty pairs): the component alone then gets
    /// its outcome from [`ComponentGame::outcome`] and its winning moves from
    /// [`ComponentGame::moves_to_p`], no value computed. By default, no.
    fn value_costs_more(&self, component: &Self::Component) -> bool {
        let _ = component;
        false
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

    /// Offers the game's capabilities beyond its rules: `request.give::<C>(|| handle)` for
    /// each capability `C` the game has (a nim-sequence, a table, a start position…). A
    /// game with none keeps the default. `self` comes as the `Arc` the ruleset holds, so a
    /// capability served by the game itself hands out a clone of it.
    fn provide(self: Arc<Self>, request: &mut Request) {
        let _ = request;
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
    fn parse_components(&self, texts: &[&str]) -> Vec<Result<Component, GameError>>;
    fn values(&self, components: &[Component]) -> Vec<Result<Value, GameError>>;
    fn outcome(&self, component: &Component) -> Result<Outcome, GameError>;
    fn value_costs_more(&self, component: &Component) -> bool;
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
    fn provide(&self, request: &mut Request);
}

impl dyn Ruleset + '_ {
    /// The game's capability `C`, or `None` when it has none.
    pub fn capability<C: Capability>(&self) -> Option<C::Handle> {
        let mut request = Request::new::<C>();
        self.provide(&mut request);
        request.answer::<C>()
    }

    /// A game's own words beyond its family's summary ([`About`]).
    pub fn about(&self) -> Option<String> {
        self.capability::<About>()
    }

    /// The position `grundy play` starts from when none is given ([`Start`]).
    pub fn start(&self) -> Option<Vec<Component>> {
        self.capability::<Start>()
    }

    /// Why a position of this game cannot have several components ([`OneComponentOnly`]).
    pub fn one_component_only(&self) -> Option<String> {
        self.capability::<OneComponentOnly>()
    }
}

/// `game` as a `dyn Ruleset`.
pub fn erase<G: ComponentGame>(game: G) -> Arc<dyn Ruleset> {
    erase_shared(Arc::new(game))
}

/// As [`erase`], for a family its caller keeps a handle on (to look at what it has computed).
pub fn erase_shared<G: ComponentGame>(game: Arc<G>) -> Arc<dyn Ruleset> {
    Arc::new(Erased(game))
}

struct Erased<G>(Arc<G>);

impl<G: ComponentGame> Erased<G> {
    fn typed(&self, component: &Component) -> Result<G::Component, GameError> {
        G::Component::from_component(component).ok_or_else(|| GameError::BadComponent {
            game: self.0.spec(),
            text: format!("{component:?}"),
            reason: format!("a component of another game: {} takes a {}", self.0.spec(), self.0.component_noun()),
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
    fn parse_components(&self, texts: &[&str]) -> Vec<Result<Component, GameError>> {
        self.0.parse_components(texts).into_iter().map(|parsed| parsed.map(ComponentKind::into_component)).collect()
    }
    fn values(&self, components: &[Component]) -> Vec<Result<Value, GameError>> {
        // The components of this game asked for together; another game's each get their error.
        let typed: Vec<Result<G::Component, GameError>> = components.iter().map(|c| self.typed(c)).collect();
        let own: Vec<G::Component> = typed.iter().filter_map(|typed| typed.as_ref().ok().cloned()).collect();
        let mut values = self.0.values(&own).into_iter();
        typed
            .into_iter()
            .map(|typed| {
                typed.and_then(|_| {
                    values.next().unwrap_or_else(|| {
                        Err(GameError::OutOfReach(format!("{} gave fewer values than it was asked for", self.0.spec())))
                    })
                })
            })
            .collect()
    }
    fn outcome(&self, component: &Component) -> Result<Outcome, GameError> {
        self.0.outcome(&self.typed(component)?)
    }
    fn value_costs_more(&self, component: &Component) -> bool {
        G::Component::from_component(component).is_some_and(|typed| self.0.value_costs_more(&typed))
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
    fn provide(&self, request: &mut Request) {
        Arc::clone(&self.0).provide(request)
    }
}

/// The error for a component with more options than may be listed.
pub fn too_many_moves(game: &str, component: &str, limit: usize) -> GameError {
    GameError::TooManyMoves { game: game.to_owned(), component: component.to_owned(), limit }
}
