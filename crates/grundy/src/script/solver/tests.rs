use super::*;
use crate::graph::loopy::GeneralizedGrundy;
use crate::solve::memo::Solver;
use proptest::prelude::*;

/// A game given by a table: node `i`'s options, each a list of parts.
struct TableGame(Vec<Vec<Vec<u32>>>);

impl SplitGame for TableGame {
    type Position = u32;
    fn expand(&self, position: &u32, out: &mut OptionList<u32>) -> Result<(), GameError> {
        for option in &self.0[*position as usize] {
            out.push_option(option.iter().copied());
        }
        Ok(())
    }
}

/// The disjunctive compound of a table game played out in full: a position is the sorted
/// multiset of its nodes, a move replaces one node by the parts of one of its options. Its
/// Grundy value by the plain definition is what the solver's xor of parts must equal.
struct Compound<'a>(&'a [Vec<Vec<u32>>]);

impl Game for Compound<'_> {
    type Position = Vec<u32>;
    fn options_into(&self, position: &Vec<u32>, out: &mut Vec<Vec<u32>>) {
        for (index, &node) in position.iter().enumerate() {
            for option in &self.0[node as usize] {
                let mut next = position.clone();
                next.remove(index);
                next.extend_from_slice(option);
                next.sort_unstable();
                out.push(next);
            }
        }
    }
}

/// Acyclic tables: node i's options have parts below i, at most 2 parts each.
fn acyclic_table() -> impl Strategy<Value = Vec<Vec<Vec<u32>>>> {
    (1usize..9).prop_flat_map(|count| {
        (0..count)
            .map(|node| {
                let part = if node == 0 { (0u32..1).boxed() } else { (0..node as u32).boxed() };
                let option = proptest::collection::vec(part, if node == 0 { 0..1 } else { 0..3 });
                proptest::collection::vec(option, if node == 0 { 0..1 } else { 0..4 })
            })
            .collect::<Vec<_>>()
    })
}

fn random_digraph(max_vertices: usize) -> impl Strategy<Value = Digraph> {
    (1..=max_vertices)
        .prop_flat_map(|n| (Just(n), proptest::collection::vec((0..n as u32, 0..n as u32), 0..3 * n)))
        .prop_map(|(n, edges)| Digraph::unnamed(n, &edges))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// The xor of memoized parts equals the Grundy value of the compound game by the plain
    /// definition (the Sprague–Grundy theorem, checked, not assumed).
    #[test]
    fn sums_of_parts_agree_with_the_compound_game(table in acyclic_table()) {
        let mut solver = SplitSolver::new(TableGame(table.clone()), 1000);
        let mut reference = Solver::new(Compound(&table));
        for node in 0..table.len() as u32 {
            let expected = reference.grundy_value(&vec![node]).unwrap().0;
            prop_assert_eq!(solver.value(&node).unwrap(), Value::from(expected), "node {}", node);
        }
        prop_assert!(solver.expansions() <= table.len() as u64);
    }

    /// On random directed graphs (cycles allowed) the values, ∞(K) included, are those of
    /// the labelling of `graph::loopy`, whichever vertex is asked first; each vertex is
    /// expanded once.
    #[test]
    fn loopy_values_agree_with_the_graph_labelling(graph in random_digraph(10), order in any::<u64>()) {
        let table: Vec<Vec<Vec<u32>>> = (0..graph.vertex_count() as u32)
            .map(|v| graph.successors(v).iter().map(|&w| vec![w]).collect())
            .collect();
        let labels = GeneralizedGrundy::compute(&graph);
        let mut solver = SplitSolver::new(TableGame(table), 1000);
        let n = graph.vertex_count() as u64;
        for step in 0..n {
            let v = ((step + order) % n) as u32;
            prop_assert_eq!(solver.value(&v).unwrap(), labels.value(&graph, v), "vertex {}", v);
        }
        prop_assert!(solver.expansions() <= n);
    }

    /// A loopy graph whose vertices may also move to `Sum(*a, *b)` of two nim-heaps: the same
    /// as moving to one heap `*(a ⊕ b)`, written out as a graph.
    #[test]
    fn finite_sums_inside_loopy_regions(graph in random_digraph(8), sums in proptest::collection::vec((0u32..8, 0u32..4, 0u32..4), 0..6)) {
        let n = graph.vertex_count() as u32;
        const HEAPS: u32 = 4;
        // Nodes n..n+4 are nim-heaps *0..*3 (for the script game), and in the written-out
        // graph also heaps up to *3: a ⊕ b < 4.
        let heap = |size: u32| n + size;
        let mut table: Vec<Vec<Vec<u32>>> = (0..n)
            .map(|v| graph.successors(v).iter().map(|&w| vec![w]).collect())
            .collect();
        let mut edges: Vec<(u32, u32)> = (0..n).flat_map(|v| graph.successors(v).iter().map(move |&w| (v, w))).collect();
        for size in 0..HEAPS {
            table.push((0..size).map(|smaller| vec![heap(smaller)]).collect());
            edges.extend((0..size).map(|smaller| (heap(size), heap(smaller))));
        }
        for &(from, a, b) in &sums {
            let from = from % n;
            table[from as usize].push(vec![heap(a), heap(b)]);
            edges.push((from, heap(a ^ b)));
        }
        let written_out = Digraph::unnamed((n + HEAPS) as usize, &edges);
        let labels = GeneralizedGrundy::compute(&written_out);
        let mut solver = SplitSolver::new(TableGame(table), 1000);
        for v in 0..n {
            prop_assert_eq!(solver.value(&v).unwrap(), labels.value(&written_out, v), "vertex {}", v);
        }
    }
}

/// A chain 0 ← 1 ← 2 ← … with one move from each position.
struct Chain;
impl Game for Chain {
    type Position = u32;
    fn options_into(&self, position: &u32, out: &mut Vec<u32>) {
        if *position > 0 {
            out.push(position - 1);
        }
    }
}

#[test]
fn a_million_chain_needs_no_deep_recursion() {
    let mut solver = SplitSolver::new(PlainGame(Chain), 2_000_000);
    assert_eq!(solver.value(&1_000_000).unwrap(), Value::from(0u64));
    assert_eq!(solver.value(&999_999).unwrap(), Value::from(1u64));
    assert_eq!(solver.expansions(), 1_000_001);
}

#[test]
fn position_limit_is_an_error_and_the_solver_stays_usable() {
    let mut solver = SplitSolver::new(PlainGame(Chain), 100);
    let error = solver.value(&1000).unwrap_err().to_string();
    assert!(error.contains("more than 100 positions"), "{error}");
    let mut solver = SplitSolver::new(PlainGame(Chain), 100);
    assert_eq!(solver.value(&50).unwrap(), Value::from(0u64));
}

#[test]
fn a_sum_on_a_cycle_is_refused_with_the_position() {
    // 0 → Sum(1, 1); 1 ⇄ 2.
    let table = vec![vec![vec![1, 1]], vec![vec![2]], vec![vec![1]]];
    let mut solver = SplitSolver::new(TableGame(table), 100);
    let error = solver.value(&0).unwrap_err().to_string();
    assert!(error.contains("position 0 has an option Sum(1, 1)"), "{error}");
    assert_eq!(solver.value(&1).unwrap(), Value::Infinite { reachable: vec![] });
}
