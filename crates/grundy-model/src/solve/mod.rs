//! Solvers that work for any game, by the definition: the reference every faster method is
//! tested against. [`memo`] searches any [`Game`](crate::game::Game); [`definition`] gives
//! every ruleset that reference from its options alone; [`split`] solves games whose options
//! split into independent parts (take-and-break games given by their moves), cycles allowed.

pub mod definition;
pub mod memo;
pub mod split;
