//! Maximum matchings, and which vertices every maximum matching covers.
//!
//! A *matching* is a set of edges no two of which share a vertex; it is *maximum* when no
//! matching has more edges. Berge (1957): a matching is maximum iff no augmenting path (an
//! alternating path joining two exposed vertices) exists.
//!
//! **Classification from one matching** (the Gallai–Edmonds structure theorem; Lovász and
//! Plummer, *Matching Theory*, 1986, §3.2): let `M` be any maximum matching. A vertex is
//! missed by some maximum matching iff it can be reached from an `M`-exposed vertex by an
//! alternating path of even length (the exposed vertex itself included). That set is `D(G)`;
//! every other vertex is in every maximum matching. One alternating search from all exposed
//! vertices at once finds `D(G)`: in a bipartite graph a breadth-first search over
//! non-matching then matching edges ([`hopcroft_karp`]), in a general graph Edmonds' search
//! with blossoms shrunk, whose outer vertices are `D(G)` ([`blossom`]). So all vertices are
//! classified in about the time of one search, not one matching per vertex.
//!
//! Bipartite graphs (found by 2-colouring) are matched by Hopcroft–Karp in O(E√V), others by
//! Edmonds' blossom algorithm; both start from a greedy matching.

pub mod blossom;
pub mod hopcroft_karp;

use crate::graph::digraph::Graph;

/// The mate of an exposed vertex.
pub const UNMATCHED: u32 = u32::MAX;

/// A matching, as each vertex's mate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matching {
    mate: Vec<u32>,
}

impl Matching {
    /// The matching in which `mate[v]` is `v`'s mate or [`UNMATCHED`].
    pub fn from_mates(mate: Vec<u32>) -> Self {
        Matching { mate }
    }

    /// The empty matching on `vertex_count` vertices.
    pub fn empty(vertex_count: usize) -> Self {
        Matching { mate: vec![UNMATCHED; vertex_count] }
    }

    /// `v`'s mate, if it is matched.
    pub fn mate(&self, v: u32) -> Option<u32> {
        Some(self.mate[v as usize]).filter(|&m| m != UNMATCHED)
    }

    /// Every vertex's mate or [`UNMATCHED`].
    pub fn mates(&self) -> &[u32] {
        &self.mate
    }

    /// The number of edges.
    pub fn size(&self) -> usize {
        self.mate.iter().filter(|&&m| m != UNMATCHED).count() / 2
    }

    /// Whether this is a matching of `graph`: mates are mutual and joined by an edge.
    pub fn is_matching_of(&self, graph: &Graph) -> bool {
        self.mate.len() == graph.vertex_count()
            && self.mate.iter().enumerate().all(|(v, &m)| {
                m == UNMATCHED
                    || ((m as usize) < self.mate.len()
                        && self.mate[m as usize] == v as u32
                        && graph.adjacent(v as u32, m))
            })
    }
}

/// A 2-colouring (`0`/`1` per vertex) if `graph` is bipartite.
pub fn two_colouring(graph: &Graph) -> Option<Vec<u8>> {
    const NONE: u8 = 2;
    let mut colour = vec![NONE; graph.vertex_count()];
    let mut stack = Vec::new();
    for start in 0..graph.vertex_count() as u32 {
        if colour[start as usize] != NONE {
            continue;
        }
        colour[start as usize] = 0;
        stack.push(start);
        while let Some(v) = stack.pop() {
            let next = 1 - colour[v as usize];
            for &w in graph.neighbours(v) {
                if colour[w as usize] == NONE {
                    colour[w as usize] = next;
                    stack.push(w);
                } else if colour[w as usize] != next {
                    return None;
                }
            }
        }
    }
    Some(colour)
}

/// A maximal matching to start from, by the Karp–Sipser heuristic (Karp and Sipser, *Maximum
/// matchings in sparse random graphs*, FOCS 1981): while some unmatched vertex has exactly one
/// unmatched neighbour, match the two — some maximum matching contains that edge, so the step
/// loses nothing; otherwise match the unmatched vertex of least (initial) degree to its
/// unmatched neighbour of least remaining degree. On sparse random graphs this leaves only a
/// few augmenting paths for the exact algorithms. Time O(V + E).
pub fn greedy_matching(graph: &Graph) -> Matching {
    let count = graph.vertex_count();
    let mut remaining: Vec<u32> = (0..count as u32).map(|v| graph.degree(v) as u32).collect();
    let mut mate = vec![UNMATCHED; count];
    let mut single: Vec<u32> = (0..count as u32).filter(|&v| remaining[v as usize] == 1).collect();
    let order = by_degree(graph);
    let mut next_in_order = 0;
    // Matches u and v, and lowers their unmatched neighbours' remaining degrees.
    let take = |u: u32, v: u32, mate: &mut Vec<u32>, remaining: &mut Vec<u32>, single: &mut Vec<u32>| {
        mate[u as usize] = v;
        mate[v as usize] = u;
        for end in [u, v] {
            for &w in graph.neighbours(end) {
                if mate[w as usize] == UNMATCHED {
                    remaining[w as usize] -= 1;
                    if remaining[w as usize] == 1 {
                        single.push(w);
                    }
                }
            }
        }
    };
    loop {
        if let Some(v) = single.pop() {
            if mate[v as usize] != UNMATCHED || remaining[v as usize] != 1 {
                continue;
            }
            let u =
                *graph.neighbours(v).iter().find(|&&w| mate[w as usize] == UNMATCHED).expect("one unmatched neighbour");
            take(v, u, &mut mate, &mut remaining, &mut single);
            continue;
        }
        while next_in_order < count
            && (mate[order[next_in_order] as usize] != UNMATCHED || remaining[order[next_in_order] as usize] == 0)
        {
            next_in_order += 1;
        }
        let Some(&v) = order.get(next_in_order) else { break };
        let u = graph
            .neighbours(v)
            .iter()
            .copied()
            .filter(|&w| mate[w as usize] == UNMATCHED)
            .min_by_key(|&w| remaining[w as usize])
            .expect("a remaining degree above zero");
        take(v, u, &mut mate, &mut remaining, &mut single);
    }
    Matching { mate }
}

/// The vertices in increasing order of degree (a counting sort).
fn by_degree(graph: &Graph) -> Vec<u32> {
    let count = graph.vertex_count();
    let max_degree = (0..count as u32).map(|v| graph.degree(v)).max().unwrap_or(0);
    let mut start = vec![0u32; max_degree + 2];
    for v in 0..count as u32 {
        start[graph.degree(v) + 1] += 1;
    }
    for d in 0..=max_degree {
        start[d + 1] += start[d];
    }
    let mut order = vec![0u32; count];
    for v in 0..count as u32 {
        let slot = &mut start[graph.degree(v)];
        order[*slot as usize] = v;
        *slot += 1;
    }
    order
}

/// A maximum matching of `graph`: Hopcroft–Karp if it is bipartite, else Edmonds' blossoms.
///
/// ```
/// use grundy::graph::digraph::Graph;
/// use grundy::graph::matching::maximum_matching;
/// // A triangle with a pendant vertex: 2 edges.
/// let graph = Graph::parse("a b\nb c\nc a\nc d\n", "g", &grundy::control::Control::default()).unwrap();
/// assert_eq!(maximum_matching(&graph).size(), 2);
/// ```
pub fn maximum_matching(graph: &Graph) -> Matching {
    match two_colouring(graph) {
        Some(colour) => hopcroft_karp::maximum_matching(graph, &colour, greedy_matching(graph)),
        None => blossom::maximum_matching(graph, greedy_matching(graph)),
    }
}

/// A maximum matching and, for every vertex, whether every maximum matching covers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classification {
    /// One maximum matching.
    pub matching: Matching,
    /// `in_every_maximum[v]`: `v` is covered by every maximum matching (not in `D(G)`).
    pub in_every_maximum: Vec<bool>,
    /// Whether the graph was bipartite (Hopcroft–Karp ran) or not (Edmonds' blossoms ran).
    pub bipartite: bool,
}

/// Classifies every vertex from one maximum matching (see the [module](self)).
///
/// ```
/// use grundy::graph::digraph::Graph;
/// use grundy::graph::matching::classify;
/// // The path a - b - c: b is in both maximum matchings, a and c each miss one.
/// let graph = Graph::parse("a b\nb c\n", "g", &grundy::control::Control::default()).unwrap();
/// assert_eq!(classify(&graph).in_every_maximum, [false, true, false]);
/// // A triangle: each vertex is missed by some maximum matching.
/// let triangle = Graph::parse("a b\nb c\nc a\n", "g", &grundy::control::Control::default()).unwrap();
/// assert_eq!(classify(&triangle).in_every_maximum, [false, false, false]);
/// ```
pub fn classify(graph: &Graph) -> Classification {
    match two_colouring(graph) {
        Some(colour) => {
            let matching = hopcroft_karp::maximum_matching(graph, &colour, greedy_matching(graph));
            let in_every_maximum = hopcroft_karp::even_reachable(graph, &matching).into_iter().map(|d| !d).collect();
            Classification { matching, in_every_maximum, bipartite: true }
        }
        None => {
            let matching = blossom::maximum_matching(graph, greedy_matching(graph));
            let in_every_maximum = blossom::outer_vertices(graph, &matching).into_iter().map(|d| !d).collect();
            Classification { matching, in_every_maximum, bipartite: false }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The size of a maximum matching by trying every edge set (tiny graphs only).
    pub(crate) fn brute_force_maximum(graph: &Graph) -> usize {
        let edges: Vec<(u32, u32)> = (0..graph.vertex_count() as u32)
            .flat_map(|u| graph.neighbours(u).iter().filter(move |&&v| u < v).map(move |&v| (u, v)))
            .collect();
        fn best(edges: &[(u32, u32)], used: u64) -> usize {
            match edges.split_first() {
                None => 0,
                Some((&(u, v), rest)) => {
                    let without = best(rest, used);
                    if used & (1 << u) == 0 && used & (1 << v) == 0 {
                        without.max(1 + best(rest, used | 1 << u | 1 << v))
                    } else {
                        without
                    }
                }
            }
        }
        best(&edges, 0)
    }

    /// Whether an augmenting path exists, by trying every alternating simple path from every
    /// exposed vertex (tiny graphs only): Berge's condition checked directly.
    pub(crate) fn has_augmenting_path(graph: &Graph, matching: &Matching) -> bool {
        fn extend(graph: &Graph, mate: &[u32], at: u32, visited: u64) -> bool {
            // `at` was reached along a matching edge (or is the start): leave by a non-matching
            // edge to an unvisited vertex, which ends the path if exposed, else continues to
            // its mate.
            graph.neighbours(at).iter().any(|&w| {
                if visited & (1 << w) != 0 || mate[at as usize] == w {
                    return false;
                }
                match mate[w as usize] {
                    UNMATCHED => true,
                    next => visited & (1 << next) == 0 && extend(graph, mate, next, visited | 1 << w | 1 << next),
                }
            })
        }
        (0..graph.vertex_count() as u32)
            .filter(|&s| matching.mate[s as usize] == UNMATCHED)
            .any(|s| extend(graph, &matching.mate, s, 1 << s))
    }

    /// Random graphs of up to `max_vertices` vertices; `bipartite` keeps only edges between
    /// even and odd numbers.
    pub(crate) fn random_graph(max_vertices: usize, bipartite: bool) -> impl Strategy<Value = Graph> {
        (1..=max_vertices)
            .prop_flat_map(|n| (Just(n), proptest::collection::vec((0..n as u32, 0..n as u32), 0..3 * n + 2)))
            .prop_map(move |(n, pairs)| {
                let edges: Vec<(u32, u32)> =
                    pairs.into_iter().filter(|(u, v)| !bipartite || (u + v) % 2 == 1).collect();
                Graph::unnamed(n, &edges)
            })
    }

    /// Whether `v` is covered by every maximum matching, by brute force: delete `v` and see
    /// whether the maximum drops.
    fn in_every_maximum_by_deletion(graph: &Graph, v: u32) -> bool {
        brute_force_maximum(&graph.without(&[v])) < brute_force_maximum(graph)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1500))]

        /// The matching is a matching, is maximum (equal to brute force, hence no augmenting
        /// path by Berge), and the one-search classification equals deleting each vertex.
        #[test]
        fn classification_agrees_with_brute_force(graph in random_graph(11, false)) {
            let result = classify(&graph);
            prop_assert!(result.matching.is_matching_of(&graph));
            prop_assert!(!has_augmenting_path(&graph, &result.matching));
            // The verifier itself finds the path a smaller matching leaves.
            if let Some(v) = (0..graph.vertex_count() as u32).find(|&v| result.matching.mate(v).is_some()) {
                let mut smaller = result.matching.clone();
                let m = smaller.mate[v as usize];
                smaller.mate[v as usize] = UNMATCHED;
                smaller.mate[m as usize] = UNMATCHED;
                prop_assert!(has_augmenting_path(&graph, &smaller));
            }
            prop_assert_eq!(result.matching.size(), brute_force_maximum(&graph));
            for v in 0..graph.vertex_count() as u32 {
                prop_assert_eq!(result.in_every_maximum[v as usize], in_every_maximum_by_deletion(&graph, v), "vertex {}", v);
            }
        }

        #[test]
        fn bipartite_classification_agrees_with_brute_force(graph in random_graph(12, true)) {
            let result = classify(&graph);
            prop_assert!(result.bipartite);
            prop_assert!(result.matching.is_matching_of(&graph));
            prop_assert_eq!(result.matching.size(), brute_force_maximum(&graph));
            for v in 0..graph.vertex_count() as u32 {
                prop_assert_eq!(result.in_every_maximum[v as usize], in_every_maximum_by_deletion(&graph, v), "vertex {}", v);
            }
        }

        /// Both algorithms on the same bipartite graph reach the same size, and Edmonds'
        /// outer vertices are the bipartite search's even vertices.
        #[test]
        fn blossom_agrees_with_hopcroft_karp_on_bipartite_graphs(graph in random_graph(60, true)) {
            let colour = two_colouring(&graph).unwrap();
            let by_hk = hopcroft_karp::maximum_matching(&graph, &colour, Matching::empty(graph.vertex_count()));
            let by_blossom = blossom::maximum_matching(&graph, Matching::empty(graph.vertex_count()));
            prop_assert!(by_blossom.is_matching_of(&graph));
            prop_assert_eq!(by_hk.size(), by_blossom.size());
            prop_assert_eq!(hopcroft_karp::even_reachable(&graph, &by_hk), blossom::outer_vertices(&graph, &by_blossom));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Larger graphs, beyond brute force: the size against petgraph's independent
        /// implementation of Edmonds' algorithm, and Berge's condition: a search from every
        /// exposed vertex finds no augmenting path (it would grow the matching).
        #[test]
        fn size_agrees_with_petgraph_on_larger_graphs(graph in random_graph(150, false)) {
            let result = classify(&graph);
            prop_assert!(result.matching.is_matching_of(&graph));
            let other = petgraph_copy(&graph, None);
            prop_assert_eq!(result.matching.size(), petgraph::algo::maximum_matching(&other).len());
            let regrown = blossom::maximum_matching(&graph, result.matching.clone());
            prop_assert_eq!(regrown.size(), result.matching.size());
        }
    }

    /// A petgraph copy of `graph` without the vertices in `skip`.
    fn petgraph_copy(graph: &Graph, skip: Option<u32>) -> petgraph::graph::UnGraph<(), ()> {
        let mut other = petgraph::graph::UnGraph::<(), ()>::new_undirected();
        let nodes: Vec<_> = (0..graph.vertex_count()).map(|_| other.add_node(())).collect();
        for u in 0..graph.vertex_count() as u32 {
            for &v in graph.neighbours(u).iter().filter(|&&v| u < v && Some(u) != skip && Some(v) != skip) {
                other.add_edge(nodes[u as usize], nodes[v as usize], ());
            }
        }
        other
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Dense graphs (many nested blossoms), beyond brute force: the classification from one
        /// matching against deleting each vertex and rematching with petgraph.
        #[test]
        fn dense_graph_classification_agrees_with_petgraph_per_vertex(
            n in 4usize..40,
            pairs in proptest::collection::vec((0u32..40, 0u32..40), 0..400),
        ) {
            let edges: Vec<(u32, u32)> = pairs.into_iter().map(|(u, v)| (u % n as u32, v % n as u32)).collect();
            let graph = Graph::unnamed(n, &edges);
            let result = classify(&graph);
            let full = petgraph::algo::maximum_matching(&petgraph_copy(&graph, None)).len();
            prop_assert_eq!(result.matching.size(), full);
            for v in 0..n as u32 {
                let without = petgraph::algo::maximum_matching(&petgraph_copy(&graph, Some(v))).len();
                prop_assert_eq!(result.in_every_maximum[v as usize], without < full, "vertex {}", v);
            }
        }
    }

    #[test]
    fn petersen_graph_has_a_perfect_matching_covering_everyone() {
        let outer: Vec<(u32, u32)> = (0..5).map(|i| (i, (i + 1) % 5)).collect();
        let spokes: Vec<(u32, u32)> = (0..5).map(|i| (i, i + 5)).collect();
        let inner: Vec<(u32, u32)> = (0..5).map(|i| (5 + i, 5 + (i + 2) % 5)).collect();
        let edges: Vec<(u32, u32)> = [outer, spokes, inner].concat();
        let graph = Graph::unnamed(10, &edges);
        let result = classify(&graph);
        assert!(!result.bipartite);
        assert_eq!(result.matching.size(), 5);
        assert!(result.in_every_maximum.iter().all(|&covered| covered));
    }
}
