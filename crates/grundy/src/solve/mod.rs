//! Solvers that work for any [`Game`](crate::game::Game): the reference every faster
//! method is tested against. [`memo`] searches any [`Game`](crate::game::Game);
//! [`definition`] gives every family of the registry that reference from its options alone.

pub mod definition;
pub mod memo;
