//! The game abstraction: rules as a value, positions as another, and the options between.

use std::fmt::Debug;
use std::hash::Hash;

/// The rules of an impartial game.
///
/// The rules (a subtraction set, an octal code, a graph) are a value separate from the
/// positions (heap sizes, a vertex, a coin row). A position lists its options — the positions
/// one move leads to, the same for both players; a position without options is lost by the
/// player to move. That is all the generic solver needs: [`crate::solve::memo`] computes the
/// Grundy value of any position by the definition.
///
/// ```
/// use grundy_model::game::Game;
/// use grundy_model::solve::memo::grundy_value;
///
/// /// Take 1 or 2 counters from a single heap.
/// struct TakeOneOrTwo;
/// impl Game for TakeOneOrTwo {
///     type State = u64;
///     fn options_into(&self, heap: &u64, out: &mut Vec<u64>) {
///         out.extend((1..=2).filter(|&take| take <= *heap).map(|take| heap - take));
///     }
/// }
/// assert_eq!(grundy_value(&TakeOneOrTwo, &7).unwrap().0, 1);
/// assert_eq!(TakeOneOrTwo.options(&5), vec![4, 3]);
/// ```
pub trait Game {
    /// A state of the game, what one move leads from and to: a heap size, a pair, a vertex, a
    /// row of coins, a list of components. (Named apart from [`crate::sum::Position`], the sum
    /// of registry games the front ends carry.)
    type State: Clone + Eq + Hash + Debug;

    /// Appends every option of `position` to `out` (repeats are allowed).
    fn options_into(&self, position: &Self::State, out: &mut Vec<Self::State>);

    /// Every option of `position`.
    fn options(&self, position: &Self::State) -> Vec<Self::State> {
        let mut out = Vec::new();
        self.options_into(position, &mut out);
        out
    }

    /// Whether `to` is an option of `from`: a legal move.
    fn is_option(&self, from: &Self::State, to: &Self::State) -> bool {
        self.options(from).contains(to)
    }
}

impl<G: Game + ?Sized> Game for &G {
    type State = G::State;
    fn options_into(&self, position: &Self::State, out: &mut Vec<Self::State>) {
        (**self).options_into(position, out)
    }
}
