//! Graph games at scale: loading edge lists, classifying every vertex for geography, and the
//! generalized Sprague–Grundy labelling, each against the obvious alternative on a size it can
//! finish, in the same run. Random graphs come from a fixed seed, so every run sees the same.
//!
//! `cargo bench -p grundy --bench graphs` (or `bash bench/graphs.sh`). Prints one line per
//! measurement; the ratios survive a noisy, shared machine better than the absolute times.

use grundy::graph::digraph::{Digraph, EdgeList, Graph};
use grundy::graph::loopy::GeneralizedGrundy;
use grundy::graph::matching::{self, Matching, classify, greedy_matching};
use grundy::random::SplitMix64;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// A fixed-seed stream ([`SplitMix64`]), good enough for random graphs.
struct Random(SplitMix64);

impl Random {
    fn new(seed: u64) -> Self {
        Random(SplitMix64::new(seed))
    }

    /// Below `n`, by the high half of a draw times `n`.
    fn below(&mut self, n: u32) -> u32 {
        (((self.0.next_u64() >> 32) * u64::from(n)) >> 32) as u32
    }
}

/// `edges` random edges on `n` vertices; `bipartite` joins the first half to the second.
fn random_edges(seed: u64, n: u32, edges: usize, bipartite: bool) -> Vec<(u32, u32)> {
    let mut random = Random::new(seed);
    (0..edges)
        .map(|_| {
            if bipartite {
                (random.below(n / 2), n / 2 + random.below(n - n / 2))
            } else {
                (random.below(n), random.below(n))
            }
        })
        .collect()
}

/// Edges between a small side B (the first 40% of the vertices) and a large side A (the rest),
/// and with `inside` a tenth of them within B too (odd cycles): A's vertices outnumber their
/// possible mates, so most of A is missed by some maximum matching — a large `D(G)` with
/// blossoms in B.
fn lopsided_edges(seed: u64, n: u32, edges: usize, inside: bool) -> Vec<(u32, u32)> {
    let mut random = Random::new(seed);
    let small = n * 2 / 5;
    (0..edges)
        .map(|index| {
            if inside && index % 10 == 0 {
                (random.below(small), random.below(small))
            } else {
                (random.below(small), small + random.below(n - small))
            }
        })
        .collect()
}

/// A directed graph on `n` vertices whose out-degrees are uniform in 0..=20, targets random.
fn varied_out_degrees(seed: u64, n: u32) -> Vec<(u32, u32)> {
    let mut random = Random::new(seed);
    let mut edges = Vec::with_capacity(n as usize * 10);
    for v in 0..n {
        for _ in 0..random.below(21) {
            edges.push((v, random.below(n)));
        }
    }
    edges
}

/// The CPU time this thread has run, from Linux's `/proc/thread-self/schedstat` (zero
/// elsewhere). On a shared machine it is steadier than the wall clock.
fn thread_cpu_time() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

/// Wall-clock and CPU time of `work`.
#[derive(Clone, Copy)]
struct Timing {
    wall: Duration,
    cpu: Duration,
}

fn time<T>(work: impl FnOnce() -> T) -> (T, Timing) {
    let (start, start_cpu) = (Instant::now(), thread_cpu_time());
    let result = work();
    (result, Timing { wall: start.elapsed(), cpu: thread_cpu_time() - start_cpu })
}

fn seconds(timing: Timing) -> String {
    format!("{:.3} s (CPU {:.3} s)", timing.wall.as_secs_f64(), timing.cpu.as_secs_f64())
}

/// The obvious way to classify: for each vertex, is the maximum matching smaller without it?
/// With petgraph's maximum matching (Gabow's O(V³) form of Edmonds' algorithm).
fn per_vertex_with_petgraph(n: u32, edges: &[(u32, u32)]) -> Vec<bool> {
    use petgraph::graph::UnGraph;
    let build = |skip: Option<u32>| {
        let kept = edges.iter().copied().filter(|&(u, v)| u != v && Some(u) != skip && Some(v) != skip);
        let mut graph = UnGraph::<(), ()>::with_capacity(n as usize, edges.len());
        for _ in 0..n {
            graph.add_node(());
        }
        for (u, v) in kept {
            graph.add_edge(u.into(), v.into(), ());
        }
        graph
    };
    let full = petgraph::algo::maximum_matching(&build(None)).len();
    (0..n).map(|v| petgraph::algo::maximum_matching(&build(Some(v))).len() < full).collect()
}

/// The same obvious way, with this crate's own fast matching per vertex.
fn per_vertex_with_blossom(graph: &Graph) -> Vec<bool> {
    let full = matching::maximum_matching(graph).size();
    (0..graph.vertex_count() as u32)
        .map(|v| {
            matching::blossom::maximum_matching(&graph.without(&[v]), Matching::empty(graph.vertex_count())).size()
                < full
        })
        .collect()
}

/// The generalized Grundy labelling by the definition of the stages, rescanning every vertex
/// until nothing changes (no counters): the obvious O(V·E) per stage.
fn naive_generalized(graph: &Digraph) -> Vec<u32> {
    const OPEN: u32 = u32::MAX;
    const INFINITE: u32 = u32::MAX - 1;
    let n = graph.vertex_count() as u32;
    let mut label = vec![OPEN; n as usize];
    let mut stage = 0;
    while label.contains(&OPEN) {
        let has_succ_labelled = |label: &[u32], v: u32| graph.successors(v).iter().any(|&w| label[w as usize] == stage);
        loop {
            let mut changed = false;
            for u in 0..n {
                if label[u as usize] != OPEN || has_succ_labelled(&label, u) {
                    continue;
                }
                let ok = graph.successors(u).iter().all(|&w| {
                    let l = label[w as usize];
                    (l != OPEN && l != INFINITE) || has_succ_labelled(&label, w)
                });
                if ok {
                    label[u as usize] = stage;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for u in 0..n {
            if label[u as usize] == OPEN && !has_succ_labelled(&label, u) {
                label[u as usize] = INFINITE;
            }
        }
        stage += 1;
    }
    label
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument is a filter on the section names.
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));

    if wanted("load") {
        let n = 100_000u32;
        let edges = random_edges(1, n, 1_000_000, false);
        let text: String = edges.iter().map(|(u, v)| format!("v{u} v{v}\n")).collect();
        let (list, elapsed) = time(|| EdgeList::parse(&text, "bench", &grundy::control::Control::default()).unwrap());
        println!("load: 10^6-edge file read into names and an edge list: {}", seconds(elapsed));
        drop(list);
        let (graph, elapsed) = time(|| Graph::parse(&text, "bench", &grundy::control::Control::default()).unwrap());
        println!(
            "load: 10^6-edge file ({} MB) parsed into an undirected graph ({} vertices, {} distinct edges): {}",
            text.len() >> 20,
            graph.vertex_count(),
            graph.edge_count(),
            seconds(elapsed)
        );
        let (digraph, elapsed) = time(|| Digraph::parse(&text, "bench", &grundy::control::Control::default()).unwrap());
        println!("load: the same file as a directed graph ({} edges): {}", digraph.edge_count(), seconds(elapsed));
    }

    for (name, n, m, bipartite, lopsided) in [
        ("classify bipartite", 100_000u32, 1_000_000usize, true, false),
        ("classify general", 100_000, 1_000_000, false, false),
        ("classify bipartite lopsided", 100_000, 1_000_000, true, true),
        ("classify general lopsided", 100_000, 1_000_000, false, true),
        ("classify general large", 1_000_000, 3_000_000, false, false),
        ("classify bipartite large", 1_000_000, 3_000_000, true, false),
    ] {
        if !wanted(name) {
            continue;
        }
        let edges = if lopsided { lopsided_edges(2, n, m, !bipartite) } else { random_edges(2, n, m, bipartite) };
        let graph = Graph::unnamed(n as usize, &edges);
        let (result, elapsed) = time(|| classify(&graph));
        let greedy = greedy_matching(&graph).size();
        let covered = result.in_every_maximum.iter().filter(|&&c| c).count();
        println!(
            "{name}: {n} vertices, {} edges: every vertex classified in {} ({}; greedy start {greedy}, maximum {}, in every maximum matching: {covered})",
            graph.edge_count(),
            seconds(elapsed),
            if result.bipartite { "Hopcroft–Karp" } else { "Edmonds' blossoms" },
            result.matching.size(),
        );
    }

    if wanted("classify structured") {
        // Long odd cycles and paths: one huge blossom, deep alternating trees.
        let n = 1_000_001u32;
        let cycle: Vec<(u32, u32)> = (0..n).map(|v| (v, (v + 1) % n)).collect();
        let graph = Graph::unnamed(n as usize, &cycle);
        let (result, elapsed) = time(|| classify(&graph));
        println!(
            "classify structured: odd cycle of {n}: {} (maximum {}, in every maximum matching: {})",
            seconds(elapsed),
            result.matching.size(),
            result.in_every_maximum.iter().filter(|&&c| c).count()
        );
        // A grid 1000 x 1000 from the corner (N iff the side is even).
        let side = 1000u32;
        let edges = grundy::graph::geography::grid_edges(side, side);
        let graph = Graph::unnamed((side * side) as usize, &edges);
        let (result, elapsed) = time(|| classify(&graph));
        println!(
            "classify structured: {side}x{side} grid: {} (corner in every maximum matching: {})",
            seconds(elapsed),
            result.in_every_maximum[0]
        );
    }

    if wanted("baseline matching") {
        for (n, m) in [(200u32, 600usize), (1000, 3000)] {
            let edges = random_edges(3, n, m, false);
            let graph = Graph::unnamed(n as usize, &edges);
            let fast = classify(&graph).in_every_maximum;
            // Repeat the fast one so its time is measurable at this size.
            let repeats = 200;
            let (_, repeated) = time(|| (0..repeats).for_each(|_| drop(black_box(classify(black_box(&graph))))));
            let fast_each = repeated.wall / repeats;
            let (slow, slow_time) = time(|| per_vertex_with_petgraph(n, &edges));
            let (own, own_time) = time(|| per_vertex_with_blossom(&graph));
            assert_eq!(fast, slow, "the classification must agree with one matching per vertex");
            assert_eq!(fast, own);
            println!(
                "baseline matching: {n} vertices, {} edges: one matching + one search {:.3} ms; one petgraph matching per vertex {} ({:.0}x slower); one blossom matching per vertex {} ({:.0}x slower); answers agree",
                graph.edge_count(),
                fast_each.as_secs_f64() * 1e3,
                seconds(slow_time),
                slow_time.wall.as_secs_f64() / fast_each.as_secs_f64(),
                seconds(own_time),
                own_time.wall.as_secs_f64() / fast_each.as_secs_f64(),
            );
        }
    }

    if wanted("loopy") {
        // Out-degrees uniform in 0..=20 (mean 10, about 5% sinks): finite values, ∞ and draws
        // all occur, and many stages run. (With every vertex of out-degree about 10 nearly all
        // are ∞() at once, which is no test.)
        let n = 1_000_000u32;
        let edges = varied_out_degrees(4, n);
        let m = edges.len();
        let graph = Digraph::unnamed(n as usize, &edges);
        let (labels, elapsed) = time(|| GeneralizedGrundy::compute(&graph));
        let largest = (0..n).filter(|&v| labels.is_finite(v)).map(|v| labels.label(v)).max().unwrap_or(0);
        println!(
            "loopy: {n} vertices, {m} edges (random, cyclic): generalized Sprague–Grundy labelling in {} ({} vertices ∞, largest finite value {largest})",
            seconds(elapsed),
            labels.infinite_count()
        );
        // Sparser graphs have more sinks, so finite values, ∞ and draws all occur.
        let (n, m) = (1_000_000u32, 2_000_000usize);
        let graph = Digraph::unnamed(n as usize, &random_edges(5, n, m, false));
        let (labels, elapsed) = time(|| GeneralizedGrundy::compute(&graph));
        println!(
            "loopy: {n} vertices, {m} edges: labelling in {} ({} vertices ∞)",
            seconds(elapsed),
            labels.infinite_count()
        );
    }

    if wanted("baseline loopy") {
        for n in [5_000u32, 20_000] {
            let edges = varied_out_degrees(6, n);
            let m = edges.len();
            let graph = Digraph::unnamed(n as usize, &edges);
            let (labels, fast) = time(|| GeneralizedGrundy::compute(&graph));
            let (naive, slow) = time(|| naive_generalized(&graph));
            let (fast, slow) = (fast.wall, slow.wall);
            let fast_labels: Vec<u32> = (0..n).map(|v| labels.label(v)).collect();
            assert_eq!(fast_labels, naive, "the labellings must agree");
            println!(
                "baseline loopy: {n} vertices, {m} edges: counters {:.3} ms, rescanning stages {:.3} s ({:.0}x slower); labels agree",
                fast.as_secs_f64() * 1e3,
                slow.as_secs_f64(),
                slow.as_secs_f64() / fast.as_secs_f64()
            );
        }
        // A long chain into a loop with an exit: each vertex waits for the next, so rescanning
        // in file order labels one vertex per pass.
        let n = 5_000u32;
        let mut edges: Vec<(u32, u32)> = (0..n - 2).map(|v| (v, v + 1)).collect();
        edges.extend([(n - 2, n - 2), (n - 2, n - 1)]);
        let graph = Digraph::unnamed(n as usize, &edges);
        let (labels, fast) = time(|| GeneralizedGrundy::compute(&graph));
        let (naive, slow) = time(|| naive_generalized(&graph));
        let (fast, slow) = (fast.wall, slow.wall);
        assert_eq!((0..n).map(|v| labels.label(v)).collect::<Vec<_>>(), naive, "the labellings must agree");
        println!(
            "baseline loopy: chain of {n} into a loop: counters {:.3} ms, rescanning stages {:.3} s ({:.0}x slower); labels agree",
            fast.as_secs_f64() * 1e3,
            slow.as_secs_f64(),
            slow.as_secs_f64() / fast.as_secs_f64()
        );
    }
}
