//! Games on graphs read from edge-list files: tokens sliding along a directed graph (`dag:FILE`,
//! cycles allowed) and undirected vertex geography (`geography:FILE`).
//!
//! - [`digraph`]: the edge-list format and the CSR graphs every algorithm walks;
//! - [`retrograde`]: Grundy values of an acyclic graph in one topological pass;
//! - [`loopy`]: the generalized Sprague–Grundy function on graphs with cycles;
//! - [`dag`]: the `dag:FILE` family (sums of tokens);
//! - [`matching`]: maximum matchings (Hopcroft–Karp, Edmonds' blossoms) and the Gallai–Edmonds
//!   classification of every vertex from one of them;
//! - [`geography`]: the `geography:FILE` family, solved by the matching rule.

pub mod dag;
pub mod digraph;
pub mod geography;
pub mod loopy;
pub mod matching;
pub mod retrograde;
