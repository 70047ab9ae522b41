//! # grundy
//!
//! Impartial combinatorial games: two players alternate, the same moves are open to both, and
//! whoever cannot move loses. For a game and a position, grundy gives the outcome, the Grundy
//! (Sprague–Grundy, nim) value and every winning move.
//!
//! The layers, from the ground up:
//! - [`nimber`]: game values and Conway's field arithmetic on them ([`Nimber`], [`mex`]);
//!   [`value`]: the answer types ([`Outcome`], [`Value`]).
//! - [`game`]: the [`Game`](game::Game) trait (rules separate from positions), the generic
//!   solver [`solve::memo`] that is every fast method's reference, and sums ([`sum`]).
//! - One module per family, each with its rules, closed form and proof reference:
//!   [`heap::nim`], [`heap::bash`], [`heap::subtraction`], [`heap::octal`] (octal and
//!   hexadecimal games, Kayles, Dawson's Kayles), [`heap::grundys_game`], with nim-sequence
//!   kernels in [`heap::sequence`] and proved periods in [`heap::period`]; [`wythoff`];
//!   coin-turning games in [`coins`]; the canon's closed-form games: Staircase Nim
//!   ([`staircase`]), Moore's Nim_K ([`moore`]), Euclid's game ([`euclid`]), E&D ([`e_and_d`]), the corner king of
//!   HDU 2147 ([`king`]), k-times dynamic
//!   subtraction and Fibonacci Nim ([`dynamic`]);
//!   games on graphs from edge-list files in [`graph`] (tokens on a directed graph with cycles
//!   allowed, [`graph::dag`]; vertex geography by maximum matching, [`graph::geography`]).
//! - The game model: [`position`] (typed components), [`ruleset`] (what a family implements:
//!   [`ruleset::ComponentGame`]), [`sum`] (sums of any games by the Sprague–Grundy theorem,
//!   written once), [`registry`] (every family, and the parsing edge), [`answer`] (answers as
//!   serializable data); [`play`]: the engine's moves when playing a person.
//! - [`census`]: whole families of heap games (every octal code up to `k` digits, every
//!   subtraction set of a size) through the period search, one row per game.
//!
//! ```
//! use grundy::registry::parse_sum;
//! let position = parse_sum(&["nim", "3", "4", "5"]).unwrap();
//! assert_eq!(position.value().unwrap().to_string(), "2");
//! let moves = position.winning_moves().unwrap();
//! assert_eq!(position.after(&moves[0]).to_text(), "1 4 5");
//! // Sums of different games: 3 xor G_wythoff(4,7) = 0 xor G_sub:2,5(9) = 1.
//! let mixed = parse_sum(&["nim", "3", "+", "wythoff", "4,7", "+", "sub:2,5", "9"]).unwrap();
//! assert_eq!(mixed.value().unwrap().to_string(), "2");
//! ```
#![warn(missing_docs)]
// Unsafe code lives in the nim-sequence kernel alone (`heap::sequence::kernel`), where each
// block states its invariant and the tests check it.
#![deny(unsafe_code)]

pub mod answer;
pub mod census;
pub mod chomp;
pub mod coins;
pub mod compound;
pub use grundy_model::control;
pub use grundy_model::error;
pub use grundy_model::game;
pub mod graph;
pub mod guess;
pub mod hackenbush;
pub mod heap;
pub mod judge_format;
pub mod misere;
pub mod moves;
pub use grundy_model::nimber;
mod parallel;
pub mod play;
pub use grundy_model::position;
pub use grundy_model::progress;
pub use grundy_model::random;
pub mod registry;
pub use grundy_model::ruleset;
pub mod script;
pub use grundy_model::solve;
pub use grundy_model::sum;
#[cfg(test)]
mod testing;
pub use grundy_model::value;
pub mod dynamic;
pub mod e_and_d;
pub mod euclid;
pub mod king;
pub mod moore;
pub mod staircase;
pub mod view;
pub mod wythoff;

pub use error::GameError;
pub use nimber::{Nimber, mex};
pub use value::{Outcome, Value};
