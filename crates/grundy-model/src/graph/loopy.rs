//! The generalized Sprague–Grundy function of a directed graph with cycles.
//!
//! On a graph with cycles play can go on forever. Smith (*Graphs and composite games*, J.
//! Combin. Theory 1, 1966) extended the Grundy function to such graphs: each vertex gets either
//! a finite value or `∞(K)`, where `K` is the set of finite values among its successors.
//! Fraenkel and Yesha (*The generalized Sprague–Grundy function and its invariance under
//! certain mappings*, J. Combin. Theory A 43, 1986) gave the labelling algorithm used here and
//! proved the function it computes is unique. For `i = 0, 1, 2, …`:
//!
//! 1. repeatedly label `i` an unlabelled vertex `u` that has no successor labelled `i` and
//!    each of whose successors that is unlabelled or labelled `∞` has a successor labelled `i`;
//! 2. then label `∞` every still unlabelled vertex with no successor labelled `i`.
//!
//! Step 1 is a retrograde analysis: a counter per vertex holds its unlabelled-or-`∞` successors
//! not yet known to have a successor labelled `i`, and labelling a vertex `i` updates only the
//! predecessors of its predecessors. One stage costs O(V + E), the whole labelling
//! O((V + E)·(m + 2)) for the largest finite value `m`. Vertices from which no cycle can be
//! reached are first given their ordinary Grundy values in one topological pass
//! ([`crate::graph::retrograde`]); on an acyclic graph that pass is all there is.
//!
//! **Outcomes** (Smith 1966): a finite value is `P` iff it is 0, else `N`; `∞(K)` is `N` iff
//! `0 ∈ K` (move to a `P` successor), otherwise `D`, a draw: neither player can force a win.
//!
//! **Sums** (Smith 1966; Fraenkel, *Scenic trails ascending from sea-level Nim to alpine
//! chess*, 1996): with `⊕` the nim-sum, `a ⊕ b` for finite values; `a ⊕ ∞(K) = ∞(K ⊕ a)`
//! (every element xored with `a`); and a sum with two or more `∞` components is `∞(∅)`, a
//! draw. So a sum is `P` iff all its components are finite with nim-sum 0.

use crate::graph::digraph::Digraph;
use crate::graph::retrograde::{UNKNOWN, topological_values};
use crate::value::{Outcome, Value};

/// The label of a vertex whose value is `∞`.
pub const INFINITE: u32 = u32::MAX - 1;

/// The generalized Sprague–Grundy value of every vertex of a graph.
///
/// ```
/// use grundy_model::graph::digraph::Digraph;
/// use grundy_model::graph::loopy::GeneralizedGrundy;
/// use grundy_model::Outcome;
/// // a ⇄ b is a draw unless someone escapes; b → c with c a sink (value 0).
/// let graph = Digraph::parse("a b\nb a\nb c\nd d\n", "g.txt", &grundy_model::control::Control::default()).unwrap();
/// let labels = GeneralizedGrundy::compute(&graph);
/// assert_eq!(labels.value(&graph, 0).to_string(), "0"); // a: its only move goes to b, which wins
/// assert_eq!(labels.value(&graph, 1).to_string(), "1"); // b: move to c (value 0)
/// assert_eq!(labels.value(&graph, 2).to_string(), "0");
/// assert_eq!(labels.value(&graph, 3).to_string(), "∞()"); // d → d forever
/// assert_eq!(labels.outcome(&graph, 3), Outcome::D);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneralizedGrundy {
    labels: Vec<u32>,
    infinite_count: usize,
}

impl GeneralizedGrundy {
    /// Labels every vertex of `graph`.
    pub fn compute(graph: &Digraph) -> Self {
        let mut labels = topological_values(graph);
        let unresolved: Vec<u32> =
            (0..graph.vertex_count() as u32).filter(|&v| labels[v as usize] == UNKNOWN).collect();
        if unresolved.is_empty() {
            return GeneralizedGrundy { labels, infinite_count: 0 };
        }
        let infinite_count = label_cyclic_part(graph, &mut labels, unresolved);
        GeneralizedGrundy { labels, infinite_count }
    }

    /// The raw label of `v`: its finite value, or [`INFINITE`].
    pub fn label(&self, v: u32) -> u32 {
        self.labels[v as usize]
    }

    /// The number of vertices with value `∞`.
    pub fn infinite_count(&self) -> usize {
        self.infinite_count
    }

    /// Whether the value of `v` is finite.
    pub fn is_finite(&self, v: u32) -> bool {
        self.labels[v as usize] != INFINITE
    }

    /// `K` of an `∞` vertex: the finite values of its successors, sorted, without repeats.
    pub fn reachable(&self, graph: &Digraph, v: u32) -> Vec<u64> {
        let mut values: Vec<u64> = graph
            .successors(v)
            .iter()
            .map(|&w| self.labels[w as usize])
            .filter(|&label| label != INFINITE)
            .map(u64::from)
            .collect();
        values.sort_unstable();
        values.dedup();
        values
    }

    /// The value of `v`: finite, or `∞(K)`.
    pub fn value(&self, graph: &Digraph, v: u32) -> Value {
        match self.labels[v as usize] {
            INFINITE => Value::Infinite { reachable: self.reachable(graph, v) },
            label => Value::from(u64::from(label)),
        }
    }

    /// The outcome with the token on `v` alone: `∞(K)` is `N` iff `0 ∈ K`.
    pub fn outcome(&self, graph: &Digraph, v: u32) -> Outcome {
        match self.labels[v as usize] {
            0 => Outcome::P,
            INFINITE if graph.successors(v).iter().any(|&w| self.labels[w as usize] == 0) => Outcome::N,
            INFINITE => Outcome::D,
            _ => Outcome::N,
        }
    }
}

/// Runs the Fraenkel–Yesha stages on the vertices `unresolved` (those the topological pass left
/// [`UNKNOWN`]); the others keep their finite labels. Returns how many became `∞`.
pub(crate) fn label_cyclic_part(graph: &Digraph, labels: &mut [u32], mut unresolved: Vec<u32>) -> usize {
    let count = graph.vertex_count();
    // Finite labels already fixed, bucketed by value: at stage i those labelled i act as seeds.
    // Only vertices with a predecessor in the unresolved part can matter.
    let mut in_unresolved = vec![false; count];
    for &v in &unresolved {
        in_unresolved[v as usize] = true;
    }
    let mut seeds_by_value: Vec<Vec<u32>> = Vec::new();
    for v in 0..count as u32 {
        let label = labels[v as usize];
        if label != UNKNOWN && graph.predecessors(v).iter().any(|&p| in_unresolved[p as usize]) {
            let slot = label as usize;
            if seeds_by_value.len() <= slot {
                seeds_by_value.resize(slot + 1, Vec::new());
            }
            seeds_by_value[slot].push(v);
        }
    }
    drop(in_unresolved);

    let open = |label: u32| label == UNKNOWN || label == INFINITE;
    // `hit[v] == stage + 1`: v has a successor labelled `stage`.
    let mut hit = vec![0u32; count];
    let mut counter = vec![0u32; count];
    let mut queue: Vec<u32> = Vec::new();
    let mut infinite_count = 0;
    let mut stage: u32 = 0;
    while !unresolved.is_empty() {
        let mark = stage + 1;
        // Successors already labelled `stage` mark their predecessors.
        if let Some(seeds) = seeds_by_value.get(stage as usize) {
            for &x in seeds {
                for &p in graph.predecessors(x) {
                    hit[p as usize] = mark;
                }
            }
        }
        // Count each unlabelled vertex's open successors not yet marked.
        queue.clear();
        for &u in &unresolved {
            let open_unmarked =
                graph.successors(u).iter().filter(|&&w| open(labels[w as usize]) && hit[w as usize] != mark).count()
                    as u32;
            counter[u as usize] = open_unmarked;
            if open_unmarked == 0 && hit[u as usize] != mark {
                queue.push(u);
            }
        }
        // Labelled only now, so every count above saw the same labels. No candidate is a
        // successor of another: that one would be open and unmarked, so counted.
        for &u in &queue {
            labels[u as usize] = stage;
        }
        // Retrograde step: a vertex labelled `stage` marks its predecessors; a marked open
        // vertex no longer blocks its own predecessors.
        while let Some(x) = queue.pop() {
            for &p in graph.predecessors(x) {
                if hit[p as usize] == mark {
                    continue;
                }
                hit[p as usize] = mark;
                if !open(labels[p as usize]) {
                    continue;
                }
                for &q in graph.predecessors(p) {
                    if labels[q as usize] != UNKNOWN {
                        continue;
                    }
                    let remaining = &mut counter[q as usize];
                    *remaining -= 1;
                    if *remaining == 0 && hit[q as usize] != mark {
                        labels[q as usize] = stage;
                        queue.push(q);
                    }
                }
            }
        }
        // Unlabelled vertices with no successor labelled `stage` can never be finite.
        unresolved.retain(|&u| {
            if labels[u as usize] != UNKNOWN {
                return false;
            }
            if hit[u as usize] != mark {
                labels[u as usize] = INFINITE;
                infinite_count += 1;
                return false;
            }
            true
        });
        stage += 1;
    }
    infinite_count
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Win/lose/draw of every vertex by plain retrograde analysis, independent of the labelling:
    /// a vertex with no move is lost; one with a move to a lost vertex is won; one whose every
    /// move goes to a won vertex is lost; whatever is left is a draw.
    pub(crate) fn retrograde_outcomes(vertex_count: usize, successors: &dyn Fn(usize) -> Vec<usize>) -> Vec<Outcome> {
        let mut predecessors = vec![Vec::new(); vertex_count];
        let mut undecided = vec![0usize; vertex_count];
        for (v, count) in undecided.iter_mut().enumerate() {
            for w in successors(v) {
                predecessors[w].push(v);
                *count += 1;
            }
        }
        let mut outcome: Vec<Option<Outcome>> = vec![None; vertex_count];
        let mut queue: Vec<usize> = (0..vertex_count).filter(|&v| undecided[v] == 0).collect();
        for &v in &queue {
            outcome[v] = Some(Outcome::P);
        }
        while let Some(w) = queue.pop() {
            for &v in &predecessors[w] {
                if outcome[v].is_some() {
                    continue;
                }
                if outcome[w] == Some(Outcome::P) {
                    outcome[v] = Some(Outcome::N);
                    queue.push(v);
                } else {
                    undecided[v] -= 1;
                    if undecided[v] == 0 {
                        outcome[v] = Some(Outcome::P);
                        queue.push(v);
                    }
                }
            }
        }
        outcome.into_iter().map(|o| o.unwrap_or(Outcome::D)).collect()
    }

    fn random_digraph(max_vertices: usize) -> impl Strategy<Value = Digraph> {
        (1..=max_vertices)
            .prop_flat_map(|n| (Just(n), proptest::collection::vec((0..n as u32, 0..n as u32), 0..3 * n)))
            .prop_map(|(n, edges)| Digraph::unnamed(n, &edges))
    }

    /// The outcome of each vertex's token plus a nim-heap of size `j`, `0 <= j <= limit`, by
    /// retrograde analysis on the product graph.
    fn outcomes_with_heaps(graph: &Digraph, limit: usize) -> Vec<Vec<Outcome>> {
        let n = graph.vertex_count();
        let heaps = limit + 1;
        let successors = |state: usize| {
            let (v, j) = (state / heaps, state % heaps);
            let mut out: Vec<usize> = graph.successors(v as u32).iter().map(|&w| w as usize * heaps + j).collect();
            out.extend((0..j).map(|smaller| v * heaps + smaller));
            out
        };
        let flat = retrograde_outcomes(n * heaps, &successors);
        flat.chunks(heaps).map(<[Outcome]>::to_vec).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1500))]

        /// The value pins down the outcome of the token plus any nim-heap `*j` (Smith): finite
        /// `g` gives P iff `j = g`; `∞(K)` gives N iff `j ∈ K`, else D. Checked against plain
        /// retrograde analysis of the product game, so both the finite values and each `K` are
        /// tested, not only the outcomes.
        #[test]
        fn values_agree_with_retrograde_analysis_of_sums_with_heaps(graph in random_digraph(9)) {
            let labels = GeneralizedGrundy::compute(&graph);
            let limit = graph.vertex_count() + 1;
            let table = outcomes_with_heaps(&graph, limit);
            for v in 0..graph.vertex_count() as u32 {
                let value = labels.value(&graph, v);
                prop_assert_eq!(labels.outcome(&graph, v), table[v as usize][0]);
                prop_assert_eq!(value.outcome(), table[v as usize][0]);
                for (j, &outcome) in table[v as usize].iter().enumerate() {
                    let expected = crate::sum::sum_of_values(&[value.clone(), Value::from(j as u64)]).unwrap().outcome();
                    prop_assert_eq!(expected, outcome, "vertex {} heap {} value {}", v, j, value);
                }
            }
        }

        /// Two tokens on the same graph: the sum rules (including `∞ + ∞` is a draw) against
        /// retrograde analysis of the pair game.
        #[test]
        fn two_token_sums_agree_with_retrograde_analysis(graph in random_digraph(8)) {
            let labels = GeneralizedGrundy::compute(&graph);
            let n = graph.vertex_count();
            let successors = |state: usize| {
                let (a, b) = (state / n, state % n);
                let mut out: Vec<usize> = graph.successors(a as u32).iter().map(|&w| w as usize * n + b).collect();
                out.extend(graph.successors(b as u32).iter().map(|&w| a * n + w as usize));
                out
            };
            let pairs = retrograde_outcomes(n * n, &successors);
            for a in 0..n {
                for b in 0..n {
                    let values = [labels.value(&graph, a as u32), labels.value(&graph, b as u32)];
                    prop_assert_eq!(crate::sum::sum_of_values(&values).unwrap().outcome(), pairs[a * n + b], "tokens {} {}", a, b);
                }
            }
        }
    }

    #[test]
    fn draws_exist_and_are_found() {
        // A 3-cycle with no exit: every vertex is a draw.
        let graph = Digraph::parse("a b\nb c\nc a\n", "g", &crate::control::Control::default()).unwrap();
        let labels = GeneralizedGrundy::compute(&graph);
        for v in 0..3 {
            assert_eq!(labels.outcome(&graph, v), Outcome::D);
            assert_eq!(labels.value(&graph, v), Value::Infinite { reachable: vec![] });
        }
        assert_eq!(labels.infinite_count(), 3);
        // An escape to a sink z from c: c wins (value mex{1, 0} = 2), b loses, a wins.
        let graph = Digraph::parse("a b\nb c\nc a\nc z\n", "g", &crate::control::Control::default()).unwrap();
        let labels = GeneralizedGrundy::compute(&graph);
        let values: Vec<String> = (0..4).map(|v| labels.value(&graph, v).to_string()).collect();
        assert_eq!(values, ["1", "0", "2", "0"]);
    }
}
