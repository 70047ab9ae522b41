//! Grundy values of a directed graph's vertices in one pass in topological order, with no
//! recursion.
//!
//! `G(v) = mex { G(w) : v → w }` (Sprague 1935, Grundy 1939; seed `002_e2faf50696f52a16.txt`,
//! “DAG 走路游戏”). A vertex's value is known once all its successors' are, so the pass peels
//! the graph from its sinks: a counter per vertex holds how many successors are still unknown
//! (Kahn's algorithm run on the reversed edges), and a vertex whose counter reaches zero gets
//! the mex of its successors' values. Time and space O(V + E).
//!
//! On a graph with cycles the pass stops at the vertices from which a cycle can be reached;
//! every vertex it did label has its ordinary Grundy value, which is also its generalized
//! value (see [`crate::graph::loopy`], which finishes the job).

use crate::graph::digraph::Digraph;

/// The label of a vertex the pass could not reach (a cycle is reachable from it).
pub const UNKNOWN: u32 = u32::MAX;

/// The Grundy value of every vertex from which no cycle can be reached, [`UNKNOWN`] for the
/// others. On an acyclic graph every vertex gets its value.
///
/// ```
/// use grundy_model::graph::digraph::Digraph;
/// use grundy_model::graph::retrograde::{UNKNOWN, topological_values};
/// // a → b → c and a → c: G(c) = 0, G(b) = 1, G(a) = mex{1, 0} = 2.
/// let dag = Digraph::parse("a b\nb c\na c\n", "g.txt", &grundy_model::control::Control::default()).unwrap();
/// assert_eq!(topological_values(&dag), [2, 1, 0]);
/// // x ⇄ y has a cycle; z → x can reach it; w is a sink.
/// let loopy = Digraph::parse("x y\ny x\nz x\nz w\n", "g.txt", &grundy_model::control::Control::default()).unwrap();
/// assert_eq!(topological_values(&loopy), [UNKNOWN, UNKNOWN, UNKNOWN, 0]);
/// ```
pub fn topological_values(graph: &Digraph) -> Vec<u32> {
    let count = graph.vertex_count();
    let mut values = vec![UNKNOWN; count];
    let mut unknown_successors: Vec<u32> = (0..count as u32).map(|v| graph.out_degree(v) as u32).collect();
    let mut ready: Vec<u32> = (0..count as u32).filter(|&v| unknown_successors[v as usize] == 0).collect();
    // `seen_by[x] == v + 1` marks value x as taken among v's successors: no clearing needed.
    let mut seen_by: Vec<u32> = vec![0; 1];
    while let Some(v) = ready.pop() {
        let successors = graph.successors(v);
        if seen_by.len() <= successors.len() {
            seen_by.resize(successors.len() + 1, 0);
        }
        for &w in successors {
            let value = values[w as usize] as usize;
            // A mex over d options is at most d: larger values cannot matter.
            if value <= successors.len() {
                seen_by[value] = v + 1;
            }
        }
        let mex = (0..=successors.len()).find(|&x| seen_by[x] != v + 1).expect("d + 1 slots, d options");
        values[v as usize] = mex as u32;
        for &p in graph.predecessors(v) {
            let counter = &mut unknown_successors[p as usize];
            *counter -= 1;
            if *counter == 0 {
                ready.push(p);
            }
        }
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::solve::memo::Solver;
    use proptest::prelude::*;

    /// A token on the graph, moved along an edge: the definition the pass must agree with.
    struct Token<'a>(&'a Digraph);

    impl Game for Token<'_> {
        type State = u32;
        fn options_into(&self, vertex: &u32, out: &mut Vec<u32>) {
            out.extend_from_slice(self.0.successors(*vertex));
        }
    }

    /// Random DAGs: edges only go from a smaller number to a larger one, then numbers are
    /// shuffled by a multiplier so the file order is not topological.
    fn random_dag() -> impl Strategy<Value = Digraph> {
        (2usize..40)
            .prop_flat_map(|n| (Just(n), proptest::collection::vec((0..n as u32, 0..n as u32), 0..4 * n), 1u32..40))
            .prop_map(|(n, pairs, shuffle)| {
                let rename = |v: u32| (v * (2 * shuffle + 1)) % n as u32;
                let edges: Vec<(u32, u32)> = pairs
                    .into_iter()
                    .filter(|(u, v)| u != v)
                    .map(|(u, v)| if u < v { (u, v) } else { (v, u) })
                    .map(|(u, v)| (rename(u), rename(v)))
                    .collect();
                Digraph::unnamed(n, &edges)
            })
            .prop_filter("the renaming must be a bijection", |graph| graph.vertex_count() > 0)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// The pass agrees with the memo solver's mex by the definition on random DAGs.
        #[test]
        fn agrees_with_the_definition(graph in random_dag()) {
            // The multiplier renaming is a bijection only when gcd(2s + 1, n) = 1; otherwise
            // edges may collapse into cycles, which the memo solver reports and we skip.
            let values = topological_values(&graph);
            let mut definition = Solver::new(Token(&graph));
            for v in 0..graph.vertex_count() as u32 {
                match definition.grundy_value(&v) {
                    Ok(value) => prop_assert_eq!(values[v as usize] as u64, value.0),
                    Err(_) => prop_assert_eq!(values[v as usize], UNKNOWN),
                }
            }
        }
    }

    #[test]
    fn long_chain_needs_no_recursion() {
        let n = 1_000_000u32;
        let edges: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, v + 1)).collect();
        let values = topological_values(&Digraph::unnamed(n as usize, &edges));
        assert_eq!(values[0], (n - 1) % 2);
        assert_eq!(values[n as usize - 1], 0);
    }
}
