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
//!   coin-turning games in [`coins`];
//!   games on graphs from edge-list files in [`graph`] (tokens on a directed graph with cycles
//!   allowed, [`graph::dag`]; vertex geography by maximum matching, [`graph::geography`]).
//! - [`ruleset`] and [`spec`]: what a front end needs — parse `sub:2,5`, evaluate a sum;
//!   [`play`]: the engine's moves when playing a person.
//!
//! ```
//! use grundy::spec::parse_game;
//! let nim = parse_game("nim").unwrap();
//! let heaps: Vec<String> = ["3", "4", "5"].map(String::from).to_vec();
//! assert_eq!(nim.value(&heaps).unwrap().to_string(), "2");
//! assert_eq!(nim.winning_moves(&heaps).unwrap()[0].to, ["1", "4", "5"]);
//! ```
#![warn(missing_docs)]

pub mod coins;
pub mod error;
pub mod game;
pub mod graph;
pub mod heap;
pub mod nimber;
pub mod play;
pub mod ruleset;
#[cfg(feature = "script")]
pub mod script;
pub mod solve;
pub mod spec;
pub mod sum;
pub mod value;
pub mod wythoff;

pub use error::GameError;
pub use nimber::{Nimber, mex};
pub use value::{Outcome, Value};
