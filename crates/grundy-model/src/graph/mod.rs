//! Directed graphs and the labellings the solvers use on them:
//!
//! - [`digraph`]: the edge-list format and the CSR graphs every algorithm walks;
//! - [`retrograde`]: Grundy values of an acyclic graph in one topological pass;
//! - [`loopy`]: the generalized Sprague–Grundy function on graphs with cycles (what
//!   [`crate::solve::split`] labels a loopy region with, and the `dag:FILE` family's values).

pub mod digraph;
pub mod loopy;
pub mod retrograde;
