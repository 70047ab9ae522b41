//! Games on graphs read from edge-list files: tokens sliding along a directed graph (`dag:FILE`,
//! cycles allowed) and undirected vertex geography (`geography:FILE`).
//!
//! - [`digraph`], [`retrograde`], [`loopy`] (from the model, `grundy_model::graph`): the
//!   edge-list format and CSR graphs, Grundy values of an acyclic graph in one topological
//!   pass, and the generalized Sprague–Grundy function on graphs with cycles;
//! - [`dag`]: the `dag:FILE` family (sums of tokens);
//! - [`matching`]: maximum matchings (Hopcroft–Karp, Edmonds' blossoms) and the Gallai–Edmonds
//!   classification of every vertex from one of them;
//! - [`geography`]: the `geography:FILE` family, solved by the matching rule.

pub mod dag;
pub use grundy_model::graph::digraph;
pub mod geography;
pub use grundy_model::graph::loopy;
pub mod matching;
pub use grundy_model::graph::retrograde;
