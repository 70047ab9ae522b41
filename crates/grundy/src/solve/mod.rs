//! Solvers that work for any [`Game`](crate::game::Game): the reference every faster
//! method is tested against.

pub mod memo;
