//! # grundy-model
//!
//! The floor of grundy that names no family of games: what every family, solver and front end
//! stands on. The families (`grundy::heap`, `grundy::wythoff`, `grundy::coins`,
//! `grundy::graph`, `grundy::script`…) live in the `grundy` crate above and depend on this
//! one; this crate depends on none of them, and the compiler keeps it so (a crate cannot name
//! what it does not depend on).
//!
//! The layers, from the ground up:
//! - [`nimber`]: game values and Conway's field arithmetic on them ([`Nimber`], [`mex`]);
//!   [`value`]: the answer types ([`Outcome`], [`Value`]); [`error`]: [`GameError`];
//!   [`control`]: what travels with each computation (memory limit, cancel flag, progress),
//!   [`progress`] its reports; [`random`]: the one reproducible generator.
//! - [`game`]: the [`Game`](game::Game) trait (rules separate from positions).
//! - [`position`]: [`Component`](position::Component), one summand of a position as a value
//!   of its family's own type, held without knowing the family; [`ruleset`]: what a family
//!   implements ([`ComponentGame`](ruleset::ComponentGame): parse, format, options, value)
//!   and the one way to ask a game for an optional capability
//!   ([`Capability`](ruleset::Capability)); [`sum`]: sums of any games by the
//!   Sprague–Grundy theorem, written once.
//! - [`solve`]: the solvers by the definition, every fast method's reference: [`solve::memo`]
//!   (any [`Game`](game::Game)), [`solve::definition`] (any ruleset's sums by its options
//!   alone), [`solve::split`] (games whose options split into sums, cycles allowed: games
//!   given by their moves); [`graph`]: CSR graphs and the labellings those solvers use
//!   (one topological pass, and Smith's generalized Sprague–Grundy function on cycles).
//!
//! ```
//! use grundy_model::nimber::{Nimber, mex};
//! assert_eq!(Nimber(3) + Nimber(5), Nimber(6));
//! assert_eq!(mex([0u64, 1, 3]), 2);
//! ```
#![warn(missing_docs)]
#![deny(unsafe_code)]

pub mod control;
pub mod error;
pub mod game;
pub mod graph;
pub mod nimber;
pub mod position;
pub mod progress;
pub mod random;
pub mod ruleset;
pub mod solve;
pub mod sum;
pub mod value;

pub use error::GameError;
pub use nimber::{Nimber, mex};
pub use value::{Outcome, Value};
