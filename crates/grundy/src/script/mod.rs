//! Games written as Starlark scripts (the interpreter is the `script` feature; positions and
//! the solver are always there, so a front end can carry script positions without it).
//!
//! A game file defines `moves(position)`, returning the list of options; an option that
//! splits into independent games is written `Sum(a, b, ...)`. Optional: `show(position)`,
//! `parse(text)`, `start()`, `NAME`, `DESCRIPTION`. Starlark (the Python dialect of Bazel,
//! through the `starlark` crate) is hermetic: a script cannot read files, run programs or reach
//! the network. Each call runs with a fresh heap and evaluator (the crate's safe API), an
//! operation budget, a heap limit and a cancellation hook.
//!
//! - [`ScriptPosition`]: an integer, a tuple of integers or a string;
//! - `ScriptGame` (feature `script`): the loaded script (`options`, `parse`, `format`, `start`);
//! - [`ScriptFamily`]: the `script:PATH` family of the game model, the adapter for games given
//!   by their moves ([`crate::moves`]) on script positions, asking a [`MovesBackend`] wherever
//!   the script runs: `LocalScript` (feature `script`) runs it in this process, and
//!   `InProcessHost` is the registry's script host that builds games on it (the CLI's backend
//!   is a watched worker process that runs a `LocalScript`);
//! - [`solver::SplitSolver`]: the memoized solver (each position expanded once, `Sum` parts
//!   memoized separately, cycles labelled with `∞(K)`); `ScriptSolver` is it on a script;
//! - `formula::Formula` (feature `script`): `grundy check --formula EXPR`.
//!
//! This module is pure computation: it takes the script's text, never a file. One giant
//! allocation inside a single script step can still abort the process (the heap limit is
//! checked between steps), so a front end runs scripts in a process it watches.
//!
//! ```
//! # #[cfg(feature = "script")]
//! # {
//! use grundy::script::{ScriptGame, ScriptLimits, ScriptPosition, ScriptSolver};
//! let kayles = "
//! def moves(n):
//!     return [Sum(a, n - k - a) for k in [1, 2] for a in range(n - k + 1)]
//! ";
//! let game = ScriptGame::load("kayles.star", kayles, ScriptLimits::default()).unwrap();
//! let mut solver = ScriptSolver::new(game, 1_000_000);
//! let values: Vec<String> =
//!     (0..12).map(|n| solver.value(&ScriptPosition::Int(n)).unwrap().to_string()).collect();
//! assert_eq!(values.join(" "), "0 1 2 3 1 4 3 2 1 4 2 6"); // Kayles, OEIS A002186
//! # }
//! ```

#[cfg(feature = "script")]
mod engine;
#[cfg(feature = "script")]
pub mod formula;
#[cfg(feature = "script")]
mod local;
mod position;
/// The solver of games whose options split into sums, from the model (`grundy_model::solve::split`).
pub use grundy_model::solve::split as solver;

pub use crate::moves::{MovesBackend, Shape};
#[cfg(feature = "script")]
pub use engine::{CallClock, ScriptGame, ScriptLimits, call_time_exceeded};
#[cfg(feature = "script")]
pub use local::{BYTES_PER_POSITION, InProcessHost, LocalScript, SCRIPT_METHOD};
pub use position::ScriptPosition;

/// The `script:PATH` family: the adapter for games given by their moves on script positions.
pub type ScriptFamily = crate::moves::MovesFamily<ScriptPosition>;

/// One option of a script position, as a backend reports it.
pub type ScriptOption = crate::moves::MovesOption<ScriptPosition>;

/// The solver on a script game.
#[cfg(feature = "script")]
pub type ScriptSolver = solver::SplitSolver<ScriptGame>;

#[cfg(all(test, feature = "script"))]
mod tests;
