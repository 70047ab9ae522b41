//! Edmonds' blossom algorithm: maximum matching in a general graph, and its outer vertices.
//!
//! Edmonds (*Paths, trees, and flowers*, Canad. J. Math. 17, 1965). From an exposed root, grow
//! an alternating tree breadth-first: *outer* (even) vertices are the root and the mates of
//! *inner* (odd) ones. An edge from an outer vertex to an exposed vertex closes an augmenting
//! path; an edge between two outer vertices of the tree closes an odd cycle, a *blossom*, which
//! is shrunk to its base — all its vertices become outer. Shrinking is kept in a union–find
//! structure over vertices (each set knows its base), the way Gabow (*An efficient
//! implementation of Edmonds' algorithm*, J. ACM 23, 1976) replaced relabelling every vertex.
//! The path back to the root from any outer vertex is `v, mate(v), parent(mate(v)), …`; when a
//! blossom forms, the parents along its two sides are pointed across the closing edge so that
//! paths from its formerly inner vertices run the other way round the cycle.
//!
//! Speed on large sparse graphs comes from three things: a greedy start leaves few exposed
//! vertices; each search touches only the vertices it labels and resets only those; and a
//! search that fails leaves a *Hungarian tree* whose vertices can never lie on an augmenting
//! path again (Edmonds 1965), so they are removed from all later searches.
//!
//! Finding `D(G)` afterwards is one more search grown from every exposed vertex at once: with a
//! maximum matching no augmenting path appears, and the outer vertices of the resulting forest
//! are exactly `D(G)` (Gallai–Edmonds; see [`super`]).

use super::{Matching, UNMATCHED};
use crate::graph::digraph::Graph;

const NONE: u32 = u32::MAX;
const UNLABELLED: u8 = 0;
const OUTER: u8 = 1;
const INNER: u8 = 2;

/// The state of an alternating search, reused from one search to the next.
struct Search<'g> {
    graph: &'g Graph,
    mate: Vec<u32>,
    /// For an inner vertex, the outer vertex it was reached from; for a vertex inside a
    /// blossom, where its path to the root leaves it (see the module notes).
    parent: Vec<u32>,
    label: Vec<u8>,
    /// Union–find over blossoms; `base[find(v)]` is the base of `v`'s blossom.
    set: Vec<u32>,
    base: Vec<u32>,
    /// `walk_mark[b] == walk_stamp`: base `b` was passed by the current common-ancestor walk.
    walk_mark: Vec<u32>,
    walk_stamp: u32,
    /// Vertices labelled in this search, to be reset (or removed) afterwards.
    touched: Vec<u32>,
    queue: Vec<u32>,
    /// Vertices of Hungarian trees: never on an augmenting path again.
    removed: Vec<bool>,
    /// Scratch list of the vertices of a blossom being shrunk.
    blossom: Vec<u32>,
}

/// How a search ended.
enum Grown {
    /// An augmenting path was found and the matching augmented along it.
    Augmented,
    /// No augmenting path: the labelled vertices form Hungarian trees.
    Exhausted,
}

impl<'g> Search<'g> {
    fn new(graph: &'g Graph, mate: Vec<u32>) -> Self {
        let count = graph.vertex_count();
        Search {
            graph,
            mate,
            parent: vec![NONE; count],
            label: vec![UNLABELLED; count],
            set: (0..count as u32).collect(),
            base: (0..count as u32).collect(),
            walk_mark: vec![0; count],
            walk_stamp: 0,
            touched: Vec::new(),
            queue: Vec::new(),
            removed: vec![false; count],
            blossom: Vec::new(),
        }
    }

    fn find(&mut self, mut v: u32) -> u32 {
        while self.set[v as usize] != v {
            let grandparent = self.set[self.set[v as usize] as usize];
            self.set[v as usize] = grandparent;
            v = grandparent;
        }
        v
    }

    fn base_of(&mut self, v: u32) -> u32 {
        let root = self.find(v);
        self.base[root as usize]
    }

    fn label_vertex(&mut self, v: u32, label: u8) {
        if self.label[v as usize] == UNLABELLED {
            self.touched.push(v);
        }
        self.label[v as usize] = label;
    }

    /// Grows alternating trees from `roots` (exposed vertices) until an augmenting path is
    /// found and used, or none exists.
    fn grow(&mut self, roots: &[u32]) -> Grown {
        self.queue.clear();
        for &root in roots {
            self.label_vertex(root, OUTER);
            self.queue.push(root);
        }
        let graph = self.graph;
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            for &w in graph.neighbours(v) {
                if self.removed[w as usize] || self.mate[v as usize] == w {
                    continue;
                }
                match self.label[w as usize] {
                    INNER => {}
                    OUTER => {
                        if self.base_of(v) == self.base_of(w) {
                            continue;
                        }
                        match self.common_base(v, w) {
                            Some(base) => self.shrink(v, w, base),
                            None => {
                                // Outer vertices of two different trees: an augmenting path.
                                self.augment_between(v, w);
                                return Grown::Augmented;
                            }
                        }
                    }
                    _ => {
                        self.parent[w as usize] = v;
                        if self.mate[w as usize] == UNMATCHED {
                            self.touched.push(w);
                            self.augment_from(w);
                            return Grown::Augmented;
                        }
                        self.label_vertex(w, INNER);
                        let next = self.mate[w as usize];
                        self.label_vertex(next, OUTER);
                        self.queue.push(next);
                    }
                }
            }
        }
        Grown::Exhausted
    }

    /// The next base up the tree from base `b`, or `NONE` past a root.
    fn up(&mut self, b: u32) -> u32 {
        let m = self.mate[b as usize];
        if m == UNMATCHED { NONE } else { self.base_of(self.parent[m as usize]) }
    }

    /// The base where the tree paths from outer `v` and `w` meet, or `None` when they lie in
    /// different trees. The two walks step alternately, so the cost is at most twice the
    /// number of bases the new blossom swallows.
    fn common_base(&mut self, v: u32, w: u32) -> Option<u32> {
        self.walk_stamp = self.walk_stamp.wrapping_add(1);
        if self.walk_stamp == 0 {
            self.walk_mark.fill(0);
            self.walk_stamp = 1;
        }
        let stamp = self.walk_stamp;
        let mut x = self.base_of(v);
        let mut y = self.base_of(w);
        loop {
            if x != NONE {
                if self.walk_mark[x as usize] == stamp {
                    return Some(x);
                }
                self.walk_mark[x as usize] = stamp;
                x = self.up(x);
            }
            if y != NONE {
                if self.walk_mark[y as usize] == stamp {
                    return Some(y);
                }
                self.walk_mark[y as usize] = stamp;
                y = self.up(y);
            }
            if x == NONE && y == NONE {
                return None;
            }
        }
    }

    /// Shrinks the blossom closed by the edge `v`–`w` with base `base`.
    fn shrink(&mut self, v: u32, w: u32, base: u32) {
        self.blossom.clear();
        self.mark_side(v, w, base);
        self.mark_side(w, v, base);
        let blossom = std::mem::take(&mut self.blossom);
        for &x in &blossom {
            let (root_x, root_base) = (self.find(x), self.find(base));
            if root_x != root_base {
                self.set[root_x as usize] = root_base;
            }
        }
        let root = self.find(base);
        self.base[root as usize] = base;
        self.blossom = blossom;
    }

    /// Walks from outer `x` up to the blossom's base, pointing each outer vertex's parent
    /// across the closing edge (towards `across`), and turning inner vertices outer.
    fn mark_side(&mut self, mut x: u32, mut across: u32, base: u32) {
        while self.base_of(x) != base {
            let m = self.mate[x as usize];
            self.parent[x as usize] = across;
            self.blossom.push(x);
            self.blossom.push(m);
            if self.label[m as usize] == INNER {
                self.label[m as usize] = OUTER;
                self.queue.push(m);
            }
            across = m;
            x = self.parent[m as usize];
        }
    }

    /// Augments along the path from exposed `w` (whose parent is set) back to its root.
    fn augment_from(&mut self, mut w: u32) {
        while w != NONE && w != UNMATCHED {
            let p = self.parent[w as usize];
            let next = self.mate[p as usize];
            self.mate[w as usize] = p;
            self.mate[p as usize] = w;
            w = next;
        }
    }

    /// Augments along root(v) … v – w … root(w), for outer `v`, `w` in different trees.
    fn augment_between(&mut self, v: u32, w: u32) {
        // Flip each half from its outer end up to its root, then match v with w.
        for end in [v, w] {
            let mut m = self.mate[end as usize];
            while m != UNMATCHED {
                // The path goes on from the mate m to parent(m), whose old mate comes next.
                let p = self.parent[m as usize];
                let next = self.mate[p as usize];
                self.mate[m as usize] = p;
                self.mate[p as usize] = m;
                m = next;
            }
        }
        self.mate[v as usize] = w;
        self.mate[w as usize] = v;
    }

    /// Clears the labels of this search; with `remove`, its vertices leave all later searches.
    fn reset(&mut self, remove: bool) {
        for index in 0..self.touched.len() {
            let v = self.touched[index] as usize;
            self.label[v] = UNLABELLED;
            self.parent[v] = NONE;
            self.set[v] = v as u32;
            self.base[v] = v as u32;
            if remove {
                self.removed[v] = true;
            }
        }
        self.touched.clear();
    }
}

/// A maximum matching of `graph`, grown from `initial` (any matching of it) by one alternating
/// search per exposed vertex.
///
/// # Panics
/// If `initial` has not one entry per vertex.
pub fn maximum_matching(graph: &Graph, initial: Matching) -> Matching {
    assert_eq!(initial.mate.len(), graph.vertex_count());
    let mut search = Search::new(graph, initial.mate);
    for root in 0..graph.vertex_count() as u32 {
        if search.mate[root as usize] != UNMATCHED || search.removed[root as usize] {
            continue;
        }
        match search.grow(&[root]) {
            Grown::Augmented => search.reset(false),
            Grown::Exhausted => search.reset(true),
        }
    }
    Matching { mate: search.mate }
}

/// `D(G)`: the outer vertices of the alternating forest grown from every exposed vertex of the
/// maximum matching `matching` at once.
///
/// Should `matching` not be maximum, the search augments it and starts again, so the answer is
/// right for any matching given.
pub fn outer_vertices(graph: &Graph, matching: &Matching) -> Vec<bool> {
    let mut search = Search::new(graph, matching.mate.clone());
    loop {
        let roots: Vec<u32> =
            (0..graph.vertex_count() as u32).filter(|&v| search.mate[v as usize] == UNMATCHED).collect();
        match search.grow(&roots) {
            Grown::Augmented => search.reset(false),
            Grown::Exhausted => return search.label.iter().map(|&label| label == OUTER).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::matching::tests::{brute_force_maximum, random_graph};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// Grown from nothing (no greedy start), the search alone must reach the maximum, and
        /// the forest search must fix a matching that is not maximum.
        #[test]
        fn reaches_the_maximum_from_the_empty_matching(graph in random_graph(12, false)) {
            let matching = maximum_matching(&graph, Matching::empty(graph.vertex_count()));
            prop_assert!(matching.is_matching_of(&graph));
            prop_assert_eq!(matching.size(), brute_force_maximum(&graph));
            let from_empty = outer_vertices(&graph, &Matching::empty(graph.vertex_count()));
            prop_assert_eq!(from_empty, outer_vertices(&graph, &matching));
        }
    }
}
