use super::*;
use crate::graph::loopy::GeneralizedGrundy;
use crate::solve::memo::Solver;
use proptest::prelude::*;

/// A game given by a table: node `i`'s options, each a list of parts.
struct TableGame(Vec<Vec<Vec<u32>>>);

impl SplitGame for TableGame {
    type State = u32;
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
    type State = Vec<u32>;
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
    type State = u32;
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

/// A position of [`KeyedTable`]: the forms the direct tables hold (heaps, pairs), and forms
/// that are hashed (a heap past 2^62 without a key, a game's own form with tag bits `01`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Spot {
    Heap(u64),
    Pair(i64, i64),
    Own(u32),
}

/// A table game whose nodes are named by spots: node `i` is `spots[i]`; its compact keys are
/// [`heap_key`] and [`pair_key`], so its positions land in the direct tables, in the hash map,
/// or in the map by position, by where their keys fall.
struct KeyedTable {
    spots: Vec<Spot>,
    node_of: FxHashMap<Spot, u32>,
    options: Vec<Vec<Vec<u32>>>,
}

impl KeyedTable {
    fn new(spots: Vec<Spot>, options: Vec<Vec<Vec<u32>>>) -> Self {
        let node_of = spots.iter().enumerate().map(|(node, &spot)| (spot, node as u32)).collect();
        KeyedTable { spots, node_of, options }
    }
}

impl SplitGame for KeyedTable {
    type State = Spot;
    fn expand(&self, position: &Spot, out: &mut OptionList<Spot>) -> Result<(), GameError> {
        for option in &self.options[self.node_of[position] as usize] {
            out.push_option(option.iter().map(|&part| self.spots[part as usize]));
        }
        Ok(())
    }
    fn compact_key(&self, position: &Spot) -> Option<u64> {
        match *position {
            Spot::Heap(heap) => heap_key(heap),
            Spot::Pair(first, second) => pair_key(first, second),
            Spot::Own(own) => Some(1 << 62 | u64::from(own)),
        }
    }
}

/// Spots near every edge of the direct tables: small ones (slots inside a small table), ones
/// whose slots are past a small table's bound, negative entries, pairs past 2^30, heaps past
/// 2^62.
fn spot() -> impl Strategy<Value = Spot> {
    let entry = prop_oneof![
        0i64..20,
        0i64..400,
        -3i64..0,
        (1i64 << 30) - 2..(1i64 << 30) + 2,
        -(1i64 << 30) - 2..-(1i64 << 30) + 2,
    ];
    prop_oneof![
        prop_oneof![0u64..100, 0u64..100_000, (1u64 << 62) - 2..(1u64 << 62) + 2, any::<u64>()].prop_map(Spot::Heap),
        (entry.clone(), entry).prop_map(|(first, second)| Spot::Pair(first, second)),
        (0u32..1000).prop_map(Spot::Own),
    ]
}

/// A table (acyclic with sums, or a random digraph) and distinct spots to name its nodes.
fn keyed_table() -> impl Strategy<Value = (Vec<Vec<Vec<u32>>>, Vec<Spot>)> {
    let loopy = random_digraph(12).prop_map(|graph| {
        (0..graph.vertex_count() as u32)
            .map(|v| graph.successors(v).iter().map(|&w| vec![w]).collect())
            .collect::<Vec<Vec<Vec<u32>>>>()
    });
    prop_oneof![acyclic_table(), loopy].prop_flat_map(|table| {
        let count = table.len();
        (Just(table), proptest::collection::hash_set(spot(), count).prop_map(|spots| spots.into_iter().collect()))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// The direct tables change nothing but speed: on random games (loopy ones included) whose
    /// positions are heaps and pairs anywhere (in a table, past its bound, negative, without
    /// a key), asked in any order, with tables of any small base size (so that they grow and
    /// take keys over from the hash map), the values, positions met and expansions are those
    /// of the hash-only path and of the same game memoized by node number.
    #[test]
    fn direct_tables_agree_with_the_hash_map(
        (table, spots) in keyed_table(),
        base_slots in prop_oneof![1u64..8, 8u64..300, Just(DENSE_BASE_SLOTS)],
        order in any::<u64>(),
    ) {
        let mut dense = SplitSolver::new(KeyedTable::new(spots.clone(), table.clone()), 1000);
        dense.dense.base_slots = base_slots;
        let mut hashed = SplitSolver::new(KeyedTable::new(spots.clone(), table.clone()), 1000).with_direct_tables(false);
        let mut by_node = SplitSolver::new(TableGame(table.clone()), 1000);
        let count = table.len() as u64;
        for step in 0..count {
            let node = ((step + order) % count) as u32;
            let spot = spots[node as usize];
            let expected = by_node.value(&node);
            prop_assert_eq!(dense.value(&spot), expected.clone(), "{:?}", spot);
            prop_assert_eq!(hashed.value(&spot), expected, "{:?}", spot);
        }
        prop_assert_eq!(dense.positions_known(), by_node.positions_known());
        prop_assert_eq!(hashed.positions_known(), by_node.positions_known());
        prop_assert_eq!(dense.expansions(), by_node.expansions());
        prop_assert!(hashed.dense.tables.iter().all(Vec::is_empty));
        // Every keyed position is in exactly one place: a table slot or the hash map.
        let in_tables = dense.dense.tables.iter().flatten().filter(|&&id| id != NO_ID).count();
        prop_assert_eq!(in_tables + dense.compact_ids.len() + dense.ids.len(), dense.positions_known());
    }

    /// Slots are injective within a table: two keys of [`heap_key`] / [`pair_key`] share a
    /// table and slot only when they are the same key.
    #[test]
    fn dense_slots_are_injective(first in spot(), second in spot()) {
        let key = |spot: Spot| match spot {
            Spot::Heap(heap) => heap_key(heap),
            Spot::Pair(a, b) => pair_key(a, b),
            Spot::Own(_) => None,
        };
        if let (Some(a), Some(b)) = (key(first), key(second))
            && let (Some(slot_a), Some(slot_b)) = (dense_slot(a), dense_slot(b))
        {
            prop_assert_eq!(slot_a == slot_b, a == b, "{:?} and {:?}", first, second);
        }
    }
}

/// The shells are a bijection: the pairs below `w` fill the slots `0..w²` exactly, for every
/// `w` up to 64 (so a table of `w²` slots holds every pair below `w`, and nothing is lost or
/// doubled when it grows).
#[test]
fn pair_shells_fill_the_square() {
    let mut owner = vec![None; 64 * 64];
    for x in 0..64i64 {
        for y in 0..64i64 {
            let (table, slot) = dense_slot(pair_key(x, y).unwrap()).unwrap();
            assert_eq!(table, DenseTable::Pairs);
            assert!(slot < (x.max(y) as u64 + 1).pow(2), "({x}, {y}) at {slot}");
            assert_eq!(owner[slot as usize].replace((x, y)), None, "slot {slot}");
        }
    }
    assert!(owner.iter().all(Option::is_some));
    assert_eq!(dense_slot(pair_key(-1, 0).unwrap()), None);
    assert_eq!(dense_slot(heap_key(5).unwrap()), Some((DenseTable::Heaps, 5)));
}

/// Wythoff's game: take from one heap, or the same number from both.
struct WythoffRules;

impl Game for WythoffRules {
    type State = (u64, u64);
    fn options_into(&self, &(x, y): &(u64, u64), out: &mut Vec<(u64, u64)>) {
        out.extend((0..x).map(|smaller| (smaller, y)));
        out.extend((0..y).map(|smaller| (x, smaller)));
        out.extend((1..=x.min(y)).map(|take| (x - take, y - take)));
    }
}

/// Wythoff with [`pair_key`] keys: the Rust game in the direct table.
struct KeyedWythoff;

impl SplitGame for KeyedWythoff {
    type State = (u64, u64);
    fn expand(&self, position: &(u64, u64), out: &mut OptionList<(u64, u64)>) -> Result<(), GameError> {
        PlainGame(WythoffRules).expand(position, out)
    }
    fn compact_key(&self, &(x, y): &(u64, u64)) -> Option<u64> {
        pair_key(x as i64, y as i64)
    }
}

/// Pairs met early whose slots are past the first bound are hashed, then taken over by the
/// table once enough positions are known (a small base size, so that this happens on a few
/// thousand pairs); values stay Wythoff's (the P-positions (⌊kφ⌋, ⌊kφ²⌋), Wythoff 1907) and
/// those of the game memoized by position.
#[test]
fn far_pairs_move_from_the_hash_map_into_the_table() {
    let mut dense = SplitSolver::new(KeyedWythoff, 1_000_000);
    dense.dense.base_slots = 1024;
    let mut plain = SplitSolver::new(PlainGame(WythoffRules), 1_000_000);
    // (0, b) for b < 100: slots b² + b + 1, past 1024 from b = 32 on, so hashed at first.
    assert_eq!(dense.value(&(0, 100)).unwrap(), plain.value(&(0, 100)).unwrap());
    let hashed_at_first = dense.compact_ids.len();
    assert!(hashed_at_first > 60, "{hashed_at_first}");
    for x in 0..60 {
        for y in 0..60 {
            assert_eq!(dense.value(&(x, y)).unwrap(), plain.value(&(x, y)).unwrap(), "({x}, {y})");
        }
    }
    // 3 640 positions known: a table of 2^13 slots is allowed now, and (1, b) for b up to
    // 100 makes the pair table grow over the far slots.
    assert_eq!(dense.value(&(1, 100)).unwrap(), plain.value(&(1, 100)).unwrap());
    assert!(dense.compact_ids.len() < hashed_at_first / 2, "{} of {hashed_at_first} left", dense.compact_ids.len());
    assert_eq!(dense.positions_known(), plain.positions_known());
    let golden = (5f64.sqrt() + 1.0) / 2.0;
    for k in 0..40u64 {
        let (a, b) = ((k as f64 * golden) as u64, (k as f64 * golden * golden) as u64);
        assert_eq!(dense.value(&(a, b)).unwrap(), Value::from(0u64), "({a}, {b})");
        assert_eq!(dense.value(&(b, a)).unwrap(), Value::from(0u64), "({b}, {a})");
    }
}

/// Take one or two from a heap (value n mod 3), with [`heap_key`] keys.
struct KeyedTakeOneOrTwo;

impl SplitGame for KeyedTakeOneOrTwo {
    type State = u64;
    fn expand(&self, heap: &u64, out: &mut OptionList<u64>) -> Result<(), GameError> {
        (1..=2).filter(|&take| take <= *heap).for_each(|take| out.push_single(heap - take));
        Ok(())
    }
    fn compact_key(&self, heap: &u64) -> Option<u64> {
        heap_key(*heap)
    }
}

/// With the real table sizes: heaps from 2^16 on are hashed while few positions are known,
/// and move into the table when it may double.
#[test]
fn far_heaps_move_into_the_table_with_the_real_sizes() {
    let mut solver = SplitSolver::new(KeyedTakeOneOrTwo, 1_000_000);
    assert_eq!(solver.value(&70_000).unwrap(), Value::from(70_000u64 % 3));
    assert_eq!(solver.compact_ids.len() as u64, 70_001 - DENSE_BASE_SLOTS);
    assert_eq!(solver.dense.tables[DenseTable::Heaps as usize].len() as u64, DENSE_BASE_SLOTS);
    assert_eq!(solver.value(&70_001).unwrap(), Value::from(70_001u64 % 3));
    assert!(solver.compact_ids.is_empty(), "{} left", solver.compact_ids.len());
    for heap in (0..70_002).step_by(997) {
        assert_eq!(solver.value(&heap).unwrap(), Value::from(heap % 3), "{heap}");
    }
    assert_eq!(solver.expansions(), 70_002);
}

/// Far-apart keys do not make the tables big: they grow to at most a few slots a position.
#[test]
fn far_keys_keep_the_tables_small() {
    let spots = vec![Spot::Heap(0), Spot::Heap(1 << 40), Spot::Pair(1 << 29, 3), Spot::Pair(2, 2), Spot::Heap(70_000)];
    let options = vec![vec![], vec![vec![0]], vec![vec![1], vec![3]], vec![vec![0]], vec![vec![2]]];
    let mut solver = SplitSolver::new(KeyedTable::new(spots, options), 1000);
    assert_eq!(solver.value(&Spot::Heap(70_000)).unwrap(), Value::from(1u64));
    assert_eq!(solver.positions_known(), 5);
    assert!(
        solver.dense.tables.iter().all(|table| table.len() as u64 <= DENSE_BASE_SLOTS),
        "{:?}",
        solver.dense.tables.iter().map(Vec::len).collect::<Vec<_>>()
    );
    assert_eq!(solver.compact_ids.len(), 3, "the heap 2^40, the pair (2^29, 3) and the heap 70000 are hashed");
}

/// A table game whose every play must end: a cycle is its error, not `∞` values.
struct FiniteTable(Vec<Vec<Vec<u32>>>);

impl SplitGame for FiniteTable {
    type State = u32;
    fn expand(&self, position: &u32, out: &mut OptionList<u32>) -> Result<(), GameError> {
        TableGame(self.0.clone()).expand(position, out)
    }
    fn must_end(&self) -> bool {
        true
    }
}

#[test]
fn a_game_that_must_end_reports_its_cycle_with_the_path() {
    // 0 → 1 → 2 → 3 → 1, and 4 → Sum(5, 5), 5 an end.
    let table = vec![vec![vec![1]], vec![vec![2]], vec![vec![3]], vec![vec![1]], vec![vec![5, 5]], vec![]];
    let mut solver = SplitSolver::new(FiniteTable(table), 100);
    let error = solver.value(&0).unwrap_err().to_string();
    assert_eq!(
        error,
        "the game is loopy: position 1 can be reached from itself (1 -> 2 -> 3 -> 1); every play of this game must end"
    );
    assert_eq!(solver.value(&4).unwrap(), Value::from(1u64), "the solver stays usable");
    assert!(
        solver.value(&2).unwrap_err().to_string().contains("position 2 can be reached from itself (2 -> 3 -> 1 -> 2)")
    );
    // The same table may be loopy: then it is labelled.
    let table = vec![vec![vec![1]], vec![vec![2]], vec![vec![3]], vec![vec![1]]];
    assert_eq!(SplitSolver::new(TableGame(table), 100).value(&0).unwrap(), Value::Infinite { reachable: vec![] });
}

#[test]
fn a_long_cycle_is_shortened_in_the_message() {
    let ring: Vec<Vec<Vec<u32>>> = (0..30).map(|node| vec![vec![(node + 1) % 30]]).collect();
    let error = SplitSolver::new(FiniteTable(ring), 100).value(&0).unwrap_err().to_string();
    assert!(error.contains("(0 -> 1 -> 2 -> 3 -> 4 -> … (20 more) … -> 25 -> 26 -> 27 -> 28 -> 29 -> 0)"), "{error}");
}

/// A chain whose expansion of one position fails until it is told not to, counting expansions
/// of each position.
struct FailingChain {
    fails_at: std::cell::Cell<Option<u32>>,
    expanded: std::cell::RefCell<Vec<u32>>,
}

impl SplitGame for FailingChain {
    type State = u32;
    fn expand(&self, position: &u32, out: &mut OptionList<u32>) -> Result<(), GameError> {
        self.expanded.borrow_mut().push(*position);
        if self.fails_at.get() == Some(*position) {
            out.push_single(0); // half expanded: must be forgotten
            return Err(GameError::Unsupported(format!("no options for {position}")));
        }
        PlainGame(Chain).expand(position, out)
    }
}

#[test]
fn a_stopped_search_keeps_what_it_expanded() {
    let game = FailingChain { fails_at: std::cell::Cell::new(Some(3)), expanded: Default::default() };
    let mut solver = SplitSolver::new(game, 100);
    assert_eq!(solver.value(&6).unwrap_err().to_string(), "no options for 3");
    assert_eq!(solver.value(&2).unwrap(), Value::from(0u64));
    solver.game().fails_at.set(None);
    assert_eq!(solver.value(&6).unwrap(), Value::from(0u64));
    // 6, 5, 4 were expanded once, before the error; 3 failed, then was expanded in full.
    assert_eq!(*solver.game().expanded.borrow(), [6, 5, 4, 3, 2, 1, 0, 3]);
}

#[test]
fn options_come_with_their_values_and_keeping_them_saves_expansions() {
    // 0 an end; 1 → 0; 2 → 1, Sum(1, 1), Sum(); 3 → 2, Sum(1, 2).
    let table = vec![vec![], vec![vec![0]], vec![vec![1], vec![1, 1], vec![]], vec![vec![2], vec![1, 2]]];
    let listed = |solver: &mut SplitSolver<TableGame>| {
        let (value, options) = solver.options(&3).unwrap();
        let options: Vec<String> = options.iter().map(|(parts, value)| format!("{parts:?}={value}")).collect();
        format!("{value}: {}", options.join(" "))
    };
    let mut kept = SplitSolver::new(TableGame(table.clone()), 100).keeping_options();
    assert_eq!(listed(&mut kept), "0: [2]=2 [1, 2]=3");
    assert_eq!(kept.expansions(), 4, "each position once");
    let mut plain = SplitSolver::new(TableGame(table), 100);
    assert_eq!(plain.value(&3).unwrap(), Value::from(0u64));
    assert_eq!(listed(&mut plain), "0: [2]=2 [1, 2]=3");
    assert_eq!(plain.expansions(), 5, "the position asked about once more");
    // Loopy options: ∞ values summed by Smith's rule.
    let loopy = vec![vec![vec![1], vec![2]], vec![vec![1]], vec![]];
    let (value, options) = SplitSolver::new(TableGame(loopy), 100).options(&0).unwrap();
    assert_eq!(value.to_string(), "∞(0)");
    assert_eq!(options.iter().map(|(_, value)| value.to_string()).collect::<Vec<_>>(), ["∞()", "0"]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// With the stack's options let go at every step (no base allowance), values are the
    /// same as with the whole stack kept, on acyclic tables with sums and on loopy graphs;
    /// positions are expanded again only where their options were let go.
    #[test]
    fn letting_the_stack_go_changes_no_value(table in acyclic_table(), graph in random_digraph(10)) {
        let mut kept = SplitSolver::new(TableGame(table.clone()), 1000);
        let mut tight = SplitSolver::new(TableGame(table.clone()), 1000);
        tight.stack_base_bytes = 0;
        tight.stack_bytes_per_position = 0;
        for node in 0..table.len() as u32 {
            prop_assert_eq!(tight.value(&node).unwrap(), kept.value(&node).unwrap(), "node {}", node);
        }
        let loopy: Vec<Vec<Vec<u32>>> = (0..graph.vertex_count() as u32)
            .map(|v| graph.successors(v).iter().map(|&w| vec![w]).collect())
            .collect();
        let labels = GeneralizedGrundy::compute(&graph);
        let mut tight = SplitSolver::new(TableGame(loopy), 1000);
        tight.stack_base_bytes = 0;
        tight.stack_bytes_per_position = 0;
        for v in 0..graph.vertex_count() as u32 {
            prop_assert_eq!(tight.value(&v).unwrap(), labels.value(&graph, v), "vertex {}", v);
        }
    }
}

/// HDU 1729's boxes with capacity `CAPACITY`: from `c` stones add `1..=min(c², CAPACITY − c)`.
struct Boxes;
const CAPACITY: u32 = 3000;
impl SplitGame for Boxes {
    type State = u32;
    fn expand(&self, &stones: &u32, out: &mut OptionList<u32>) -> Result<(), GameError> {
        let most = (u64::from(stones) * u64::from(stones)).min(u64::from(CAPACITY - stones)) as u32;
        for add in 1..=most {
            out.push_single(stones + add);
        }
        Ok(())
    }
}

/// The values of HDU 1729's boxes by the plain definition, from the full box down.
fn boxes_by_definition() -> Vec<u32> {
    let mut values = vec![0u32; CAPACITY as usize + 1];
    for stones in (0..=CAPACITY).rev() {
        let most = (u64::from(stones) * u64::from(stones)).min(u64::from(CAPACITY - stones)) as u32;
        let options: Vec<u32> = (1..=most).map(|add| values[(stones + add) as usize]).collect();
        values[stones as usize] = crate::nimber::mex(options.iter().map(|&value| u64::from(value))) as u32;
    }
    values
}

/// On HDU 1729's boxes the search goes down `c = 1, 2, …` and held every position's options
/// (`CAPACITY²/2` of them, 90 MB at 3000): with the stack held to its allowance the options
/// are let go on the way and each position is expanded at most a few times; the values are
/// the definition's.
#[test]
fn a_deep_search_with_many_options_holds_its_stack() {
    let expected = boxes_by_definition();
    let mut solver = SplitSolver::new(Boxes, 1 << 20);
    solver.stack_base_bytes = 0;
    assert_eq!(solver.value(&1).unwrap(), Value::from(u64::from(expected[1])));
    for stones in [0, 2, 17, 100, 2999, 3000] {
        assert_eq!(solver.value(&stones).unwrap(), Value::from(u64::from(expected[stones as usize])), "{stones}");
    }
    // More expansions than positions: options were let go (and expanded again), but few.
    let expansions = solver.expansions();
    assert!(expansions > u64::from(CAPACITY) + 1 && expansions <= 3 * u64::from(CAPACITY), "{expansions} expansions");
}

#[test]
fn positions_of_the_same_hash_keep_their_own_ids() {
    let positions = vec![vec![1i64], vec![2], vec![3]];
    let mut ids = HashedIds::default();
    // Three positions given one hash: the second and third go to `collided`.
    for (id, position) in positions.iter().enumerate() {
        assert_eq!(ids.get(7, position, &positions), None);
        ids.insert(7, position, id as u32);
    }
    for (id, position) in positions.iter().enumerate() {
        assert_eq!(ids.get(7, position, &positions), Some(id as u32));
    }
    assert_eq!(ids.get(7, &vec![4], &positions), None);
    assert_eq!(ids.get(8, &vec![1], &positions), None);
    assert_eq!((ids.collided.len(), ids.len()), (2, 3));
}
