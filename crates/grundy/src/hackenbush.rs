//! Green Hackenbush (`hackenbush`, `hackenbush:FILE`): a position is an undirected multigraph
//! (loops and parallel edges allowed) some of whose vertices are on the ground; all the
//! ground is one vertex, `0`. A move deletes one edge, and every edge no longer connected to
//! the ground by a path falls away with it. Who cannot move (no edge left) loses.
//!
//! **Values.** Two principles of Berlekamp, Conway and Guy (*Winning Ways for your
//! Mathematical Plays*, 1982, ch. 7, "Hackenbush Hotchpotch"):
//!
//! - the *colon principle*: branches meeting at a vertex may be replaced by any branches of
//!   the same values; so a tree is valued bottom-up, a vertex being worth the nim-sum over its
//!   children `c` of `G(c) + 1` (a branch of value `g` on a stalk of one edge is worth
//!   `g + 1`, and branches at one vertex add as a sum of games);
//! - the *fusion principle*: the vertices of any circuit may be fused into one without
//!   changing the value, an edge joining two fused vertices becoming a loop, and a loop is
//!   worth what a twig (an edge to a new leaf) is, `1`.
//!
//! Two vertices lie on a common circuit exactly when they are joined by two edge-disjoint
//! paths, and that relation's classes are the *2-edge-connected components*, the parts left
//! when the bridges (the edges on no circuit) are cut. So the graph's value is found in one
//! pass: find the bridges (Tarjan's lowlink, by an iterative depth-first search from the
//! ground, no recursion), fuse each 2-edge-connected component into one vertex carrying its
//! non-bridge edges and loops as twigs (worth their count mod 2), and value the tree of
//! components and bridges by the colon principle. Linear in the edges: a graph of 10^6
//! edges takes a fraction of a second.
//!
//! **Winning moves** come from the same pass, top-down: the root component must change to
//! the value asked for; a component whose value must become `r` asks of a child `c` below a
//! bridge the value `q - 1` with `q = r ⊕ G(x) ⊕ (G(c) + 1)`, or, when `q = 0`, that the
//! bridge be cut. A loop changes its component's value by `1`. An edge inside a circuit is
//! tried by valuing its component without it (the branches hanging from it kept as they are),
//! which costs the component's size for each of its edges.
//!
//! Every value and every list of moves is property-tested against the rules: the mex over
//! [`Hackenbush`]'s options, searched to the bottom, on thousands of random small
//! multigraphs.
//!
//! **Components.** `hackenbush` reads a graph as its edges `u-v` joined by commas, vertices
//! numbered, `0` the ground: `0-1,1-2,2-0,1-1` is a triangle on the ground with a loop at `1`;
//! `0` alone is the bare ground. `hackenbush:FILE` plays the graph of a file, one edge `u v`
//! a line (`#` comments), the ground the vertex named `0`; or a contest file, a first line
//! `n m` and `m` edges of vertices `1..n`, the ground vertex `1` (as in POJ 3710 and HDU 3094).
//! Its component is `all`, the whole graph, or what is left of it: `all/cut=3,17` deletes the
//! 3rd and the 17th edge of the file.
//!
//! A component is held in canonical form: its edges as sorted pairs, only those connected to
//! the ground, so that the same graph written in any order, or with parts that have already
//! fallen, is one component.

use crate::control::Control;
use crate::error::GameError;
use crate::graph::digraph::{EdgeList, Layout, in_game};
use crate::ruleset::{ComponentGame, ComponentMove, too_many_moves};
use crate::value::Value;
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::sync::Arc;

/// One Green Hackenbush graph: its edges `(u, v)` with `u <= v`, sorted, each connected to the
/// ground; a vertex is a number (in a file game, the vertex's index in the file's list of
/// names).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HackenbushGraph {
    edges: Arc<[(u32, u32)]>,
}

impl HackenbushGraph {
    /// The graph's edges, sorted, each `(u, v)` with `u <= v`.
    pub fn edges(&self) -> &[(u32, u32)] {
        &self.edges
    }

    /// The edges of `edges` (any order, either orientation) that are connected to `ground`.
    /// `vertex_count`, when known, bounds the vertex numbers (a file's names).
    fn grounded(edges: Vec<(u32, u32)>, ground: u32, vertex_count: Option<usize>) -> HackenbushGraph {
        let mut edges: Vec<(u32, u32)> = edges.into_iter().map(|(u, v)| (u.min(v), u.max(v))).collect();
        let dense = Dense::new(&edges, ground, vertex_count);
        let mut sets = DisjointSets::new(dense.len());
        for &(u, v) in &edges {
            sets.join(dense.index(u), dense.index(v));
        }
        let ground_set = sets.find(0);
        edges.retain(|&(u, _)| sets.find(dense.index(u)) == ground_set);
        edges.sort_unstable();
        HackenbushGraph { edges: edges.into() }
    }

    /// The graph without one copy of the edge at `index` (of [`HackenbushGraph::edges`]), and
    /// what no longer touches the ground.
    fn without(&self, index: usize, ground: u32, vertex_count: Option<usize>) -> HackenbushGraph {
        let mut rest = self.edges.to_vec();
        rest.remove(index);
        HackenbushGraph::grounded(rest, ground, vertex_count)
    }
}

/// Vertex numbers made dense, `ground` made 0: when the numbers are known to lie below a
/// count (a file's vertices), the ground and 0 swap places; otherwise the others are
/// numbered `1..` in increasing order.
enum Dense {
    Swap { ground: u32, len: usize },
    Sorted { ground: u32, others: Vec<u32> },
}

impl Dense {
    fn new(edges: &[(u32, u32)], ground: u32, vertex_count: Option<usize>) -> Dense {
        if let Some(len) = vertex_count {
            return Dense::Swap { ground, len: len.max(1) };
        }
        let mut others: Vec<u32> = edges.iter().flat_map(|&(u, v)| [u, v]).filter(|&w| w != ground).collect();
        others.sort_unstable();
        others.dedup();
        Dense::Sorted { ground, others }
    }

    fn len(&self) -> usize {
        match self {
            Dense::Swap { len, .. } => *len,
            Dense::Sorted { others, .. } => others.len() + 1,
        }
    }

    fn index(&self, vertex: u32) -> u32 {
        match *self {
            Dense::Swap { ground, .. } if vertex == ground => 0,
            Dense::Swap { ground, .. } if vertex == 0 => ground,
            Dense::Swap { .. } => vertex,
            Dense::Sorted { ground, .. } if vertex == ground => 0,
            // Every vertex asked for is an endpoint of an edge the table was made from.
            Dense::Sorted { ref others, .. } => others.binary_search(&vertex).map_or(0, |at| at as u32 + 1),
        }
    }
}

/// Union–find with path halving, for the part of a graph connected to the ground.
struct DisjointSets(Vec<u32>);

impl DisjointSets {
    fn new(len: usize) -> Self {
        DisjointSets((0..len as u32).collect())
    }

    fn find(&mut self, mut x: u32) -> u32 {
        while self.0[x as usize] != x {
            let parent = self.0[x as usize];
            self.0[x as usize] = self.0[parent as usize];
            x = parent;
        }
        x
    }

    fn join(&mut self, a: u32, b: u32) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.0[a.max(b) as usize] = a.min(b);
        }
    }
}

const NONE: u32 = u32::MAX;

/// A graph's 2-edge-connected components fused, and the tree of components and bridges
/// valued by the colon principle: one depth-first search from the root.
struct Fusion {
    /// The vertices reached from the root, in depth-first preorder.
    order: Vec<u32>,
    /// Each vertex's parent in the search tree, and the edge to it (`NONE` at the root).
    parent: Vec<u32>,
    parent_edge: Vec<u32>,
    /// Whether each edge is a bridge.
    bridge: Vec<bool>,
    /// Each reached vertex's component.
    component: Vec<u32>,
    /// Each component's value: its twigs and loops, and the branches below it.
    value: Vec<u64>,
}

impl Fusion {
    /// Fuses the graph on vertices `0..vertex_count` with these edges (loops allowed), rooted
    /// at `root`; `pendant[v]` (when given) is a value already hanging at `v`, added to its
    /// component (the branches below a component valued without one of its edges).
    fn new(vertex_count: usize, edges: &[(u32, u32)], root: u32, pendant: Option<&[u64]>) -> Fusion {
        let n = vertex_count;
        // Adjacency in CSR form, each non-loop edge both ways with its number.
        let mut start = vec![0u32; n + 1];
        for &(u, v) in edges {
            if u != v {
                start[u as usize + 1] += 1;
                start[v as usize + 1] += 1;
            }
        }
        for v in 0..n {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut adjacent = vec![(0u32, 0u32); start[n] as usize];
        for (number, &(u, v)) in edges.iter().enumerate() {
            if u != v {
                adjacent[fill[u as usize] as usize] = (v, number as u32);
                fill[u as usize] += 1;
                adjacent[fill[v as usize] as usize] = (u, number as u32);
                fill[v as usize] += 1;
            }
        }
        // Tarjan's bridges: an iterative search, `next[v]` the next neighbour to look at.
        let mut entered = vec![NONE; n];
        let mut low = vec![NONE; n];
        let mut parent = vec![NONE; n];
        let mut parent_edge = vec![NONE; n];
        let mut bridge = vec![false; edges.len()];
        let mut next = start.clone();
        let mut order = Vec::with_capacity(n);
        let mut stack = vec![root];
        entered[root as usize] = 0;
        low[root as usize] = 0;
        order.push(root);
        while let Some(&v) = stack.last() {
            let at = v as usize;
            if next[at] < start[at + 1] {
                let (w, number) = adjacent[next[at] as usize];
                next[at] += 1;
                if number == parent_edge[at] {
                    continue;
                }
                if entered[w as usize] == NONE {
                    entered[w as usize] = order.len() as u32;
                    low[w as usize] = order.len() as u32;
                    parent[w as usize] = v;
                    parent_edge[w as usize] = number;
                    order.push(w);
                    stack.push(w);
                } else {
                    low[at] = low[at].min(entered[w as usize]);
                }
            } else {
                stack.pop();
                if let Some(&up) = stack.last() {
                    low[up as usize] = low[up as usize].min(low[at]);
                    if low[at] > entered[up as usize] {
                        bridge[parent_edge[at] as usize] = true;
                    }
                }
            }
        }
        // The components: the search tree cut at its bridges.
        let mut component = vec![NONE; n];
        let mut count = 0u32;
        for &v in &order {
            let edge = parent_edge[v as usize];
            component[v as usize] = if edge == NONE || bridge[edge as usize] {
                count += 1;
                count - 1
            } else {
                component[parent[v as usize] as usize]
            };
        }
        // Fusion: every edge inside a component (a loop included) is a twig worth 1.
        let mut value = vec![0u64; count as usize];
        for (number, &(u, _)) in edges.iter().enumerate() {
            let home = component[u as usize];
            if home != NONE && !bridge[number] {
                value[home as usize] ^= 1;
            }
        }
        if let Some(pendant) = pendant {
            for &v in &order {
                value[component[v as usize] as usize] ^= pendant[v as usize];
            }
        }
        // The colon principle, bottom-up: a child component below a bridge adds G + 1.
        for &v in order.iter().rev() {
            let edge = parent_edge[v as usize];
            if edge != NONE && bridge[edge as usize] {
                let below = value[component[v as usize] as usize] + 1;
                value[component[parent[v as usize] as usize] as usize] ^= below;
            }
        }
        Fusion { order, parent, parent_edge, bridge, component, value }
    }

    fn root_value(&self) -> u64 {
        self.value[0]
    }
}

/// The most steps (edges inside circuits, times their components' sizes) spent on trying
/// the edges inside circuits as winning moves.
const CIRCUIT_WORK_LIMIT: u128 = 400_000_000;

/// The numbers of the edges (of `edges`, on dense vertices, rooted at 0) whose deletion
/// leaves the value `target`, in increasing order.
///
/// # Errors
/// [`GameError::OutOfReach`] when trying the edges inside circuits would take too long.
fn edges_to_value(vertex_count: usize, edges: &[(u32, u32)], target: u64) -> Result<Vec<usize>, GameError> {
    let fusion = Fusion::new(vertex_count, edges, 0, None);
    let components = fusion.value.len();
    // What each component's value must become: the root's the target; a child's from its
    // parent's by the colon principle.
    let mut required: Vec<Option<u64>> = vec![None; components];
    required[0] = Some(target);
    let mut found = Vec::new();
    for &v in &fusion.order[1..] {
        let edge = fusion.parent_edge[v as usize] as usize;
        if !fusion.bridge[edge] {
            continue;
        }
        let (child, above) =
            (fusion.component[v as usize] as usize, fusion.component[fusion.parent[v as usize] as usize] as usize);
        if let Some(wanted) = required[above] {
            let branch = wanted ^ fusion.value[above] ^ (fusion.value[child] + 1);
            if branch == 0 {
                found.push(edge);
            } else {
                required[child] = Some(branch - 1);
            }
        }
    }
    // Loops: each changes its component's value by 1.
    for (number, &(u, v)) in edges.iter().enumerate() {
        if u == v {
            let home = fusion.component[u as usize] as usize;
            if required[home] == Some(fusion.value[home] ^ 1) {
                found.push(number);
            }
        }
    }
    // Edges inside circuits: the component valued again without the edge, the branches below
    // it hanging where they are.
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); components];
    for &v in &fusion.order {
        members[fusion.component[v as usize] as usize].push(v);
    }
    let mut inside: Vec<Vec<usize>> = vec![Vec::new(); components];
    let mut pendant = vec![0u64; vertex_count];
    for (number, &(u, v)) in edges.iter().enumerate() {
        if u == v {
            pendant[u as usize] ^= 1;
        } else if !fusion.bridge[number] {
            inside[fusion.component[u as usize] as usize].push(number);
        }
    }
    for &v in &fusion.order[1..] {
        let edge = fusion.parent_edge[v as usize] as usize;
        if fusion.bridge[edge] {
            pendant[fusion.parent[v as usize] as usize] ^= fusion.value[fusion.component[v as usize] as usize] + 1;
        }
    }
    let work: u128 = (0..components)
        .filter(|&c| required[c].is_some())
        .map(|c| inside[c].len() as u128 * (inside[c].len() + members[c].len()) as u128)
        .sum();
    if work > CIRCUIT_WORK_LIMIT {
        return Err(GameError::OutOfReach(format!(
            "trying the {} edges inside circuits as winning moves would take about {work} steps; \
             the value and the outcome are known",
            (0..components).filter(|&c| required[c].is_some()).map(|c| inside[c].len()).sum::<usize>()
        )));
    }
    let mut local = vec![NONE; vertex_count];
    for c in 0..components {
        let Some(wanted) = required[c] else { continue };
        if inside[c].is_empty() {
            continue;
        }
        // The component's own vertices, its entry (first in preorder) as the local root.
        for (index, &v) in members[c].iter().enumerate() {
            local[v as usize] = index as u32;
        }
        let local_pendant: Vec<u64> = members[c].iter().map(|&v| pendant[v as usize]).collect();
        let all: Vec<(u32, u32)> = inside[c]
            .iter()
            .map(|&number| (local[edges[number].0 as usize], local[edges[number].1 as usize]))
            .collect();
        for (index, &number) in inside[c].iter().enumerate() {
            // Parallel copies of one edge are one move: try the first.
            if index > 0 && edges[inside[c][index - 1]] == edges[number] {
                continue;
            }
            let mut rest = all.clone();
            rest.swap_remove(index);
            if Fusion::new(members[c].len(), &rest, 0, Some(&local_pendant)).root_value() == wanted {
                found.push(number);
            }
        }
    }
    found.sort_unstable();
    Ok(found)
}

/// The graph of a `hackenbush:FILE` game.
#[derive(Debug)]
struct FileGraph {
    file: String,
    names: Vec<String>,
    ground: u32,
    /// The file's edges in order, each `(u, v)` with `u <= v`.
    edges: Vec<(u32, u32)>,
    /// The whole graph, `all`.
    whole: HackenbushGraph,
}

/// Green Hackenbush: on graphs written in the component (`hackenbush`) or on the graph of a
/// file (`hackenbush:FILE`).
///
/// ```
/// use grundy::hackenbush::Hackenbush;
/// use grundy::ruleset::erase;
/// use grundy::sum::Position;
/// let game = erase(Hackenbush::new());
/// let value = |graph: &str| Position::parse_single(game.clone(), &[graph]).unwrap().value().unwrap().to_string();
/// // A stalk of three edges is Nim's heap of 3; a triangle on the ground fuses to three loops, 1.
/// assert_eq!(value("0-1,1-2,2-3"), "3");
/// assert_eq!(value("0-1,1-2,2-0"), "1");
/// // The triangle and a loop at 1: four twigs at the ground, 0.
/// assert_eq!(value("0-1,1-2,2-0,1-1"), "0");
/// // Two branches of a stalk of 1 and 2 at vertex 1 above one edge: (1 ⊕ 2) + 1 = 4.
/// assert_eq!(value("0-1,1-2,1-3,3-4"), "4");
/// ```
#[derive(Debug)]
pub struct Hackenbush {
    spec: String,
    file: Option<FileGraph>,
    control: Control,
}

impl Default for Hackenbush {
    fn default() -> Self {
        Self::new()
    }
}

impl Hackenbush {
    /// The game on graphs written in each component.
    pub fn new() -> Hackenbush {
        Hackenbush { spec: "hackenbush".to_owned(), file: None, control: Control::default() }
    }

    /// The game computing under `control` (its memory limit).
    pub fn with_control(mut self, control: Control) -> Hackenbush {
        self.control = control;
        self
    }

    /// The game on the graph of `file` (its text `text`); `spec` is the game word.
    ///
    /// # Errors
    /// A malformed line (naming the file and the line), a graph too large for memory, or no
    /// ground vertex.
    ///
    /// ```
    /// use grundy::hackenbush::Hackenbush;
    /// use grundy::ruleset::ComponentGame;
    /// let control = grundy::control::Control::default();
    /// let game = Hackenbush::parse_file("hackenbush:t.txt", "t.txt", "0 a\na b\nb 0\n", &control).unwrap();
    /// let all = game.parse_component("all").unwrap();
    /// assert_eq!(game.value(&all).unwrap().to_string(), "1");
    /// // Without the 3rd edge, b 0: the stalk 0 a, a b.
    /// let cut = game.parse_component("all/cut=3").unwrap();
    /// assert_eq!(game.value(&cut).unwrap().to_string(), "2");
    /// assert_eq!(game.format_component(&cut), "all/cut=3");
    /// ```
    pub fn parse_file(spec: &str, file: &str, text: &str, control: &Control) -> Result<Hackenbush, GameError> {
        let (list, layout) = EdgeList::parse_with_layout(text, file, control).map_err(|error| in_game(error, spec))?;
        let ground_name = match layout {
            Layout::EdgeList => "0",
            Layout::Contest { .. } => "1",
        };
        let Some(ground) = list.vertex(ground_name) else {
            return Err(GameError::BadGame {
                spec: spec.to_owned(),
                reason: format!("{file} has no vertex `{ground_name}`, the ground (every edge falls at once)"),
            });
        };
        let edges: Vec<(u32, u32)> = list.edges.iter().map(|&(u, v)| (u.min(v), u.max(v))).collect();
        let whole = HackenbushGraph::grounded(edges.clone(), ground, Some(list.names.len()));
        Ok(Hackenbush {
            spec: spec.to_owned(),
            file: Some(FileGraph { file: file.to_owned(), names: list.names, ground, edges, whole }),
            control: control.clone(),
        })
    }

    fn ground(&self) -> u32 {
        self.file.as_ref().map_or(0, |file| file.ground)
    }

    /// The number of vertices of a file's graph (every vertex number is below it).
    fn vertex_count(&self) -> Option<usize> {
        self.file.as_ref().map(|file| file.names.len())
    }

    fn vertex_name(&self, vertex: u32) -> String {
        match &self.file {
            Some(file) => file.names[vertex as usize].clone(),
            None => vertex.to_string(),
        }
    }

    fn bad(&self, text: &str, reason: String) -> GameError {
        GameError::BadComponent { game: self.spec.clone(), text: text.to_owned(), reason }
    }

    /// An edge list `u-v,u-v,…` of vertex numbers, or `0`, the bare ground.
    fn parse_edges(&self, text: &str) -> Result<HackenbushGraph, GameError> {
        if text == "0" {
            return Ok(HackenbushGraph { edges: Arc::from([]) });
        }
        let mut edges = Vec::new();
        for (index, edge) in text.split(',').enumerate() {
            let number =
                |word: &str| word.bytes().all(|b| b.is_ascii_digit()).then(|| word.parse::<u32>().ok()).flatten();
            let parsed = edge.split_once('-').and_then(|(u, v)| Some((number(u)?, number(v)?)));
            let Some(pair) = parsed else {
                return Err(self.bad(
                    text,
                    format!(
                        "edge {} `{edge}` is not `u-v` with vertex numbers below 2^32 (write edges as 0-1,1-2,2-0; 0 \
                         is the ground)",
                        index + 1
                    ),
                ));
            };
            edges.push(pair);
        }
        Ok(HackenbushGraph::grounded(edges, 0, None))
    }

    /// `all`, or `all/cut=K,K,…` (edges by their number in the file, from 1).
    fn parse_in_file(&self, file: &FileGraph, text: &str) -> Result<HackenbushGraph, GameError> {
        if text == "all" {
            return Ok(file.whole.clone());
        }
        let Some(list) = text.strip_prefix("all/cut=") else {
            return Err(self.bad(
                text,
                format!(
                    "a component of {} is `all` (the whole graph of {}) or `all/cut=3,17` (without its 3rd and 17th edge)",
                    self.spec, file.file
                ),
            ));
        };
        let mut cut = vec![false; file.edges.len()];
        for word in list.split(',') {
            let number = word.bytes().all(|b| b.is_ascii_digit()).then(|| word.parse::<usize>().ok()).flatten();
            match number {
                Some(number) if (1..=file.edges.len()).contains(&number) && !cut[number - 1] => cut[number - 1] = true,
                Some(number) if (1..=file.edges.len()).contains(&number) => {
                    return Err(self.bad(text, format!("edge {number} is cut twice")));
                }
                _ => {
                    return Err(self.bad(
                        text,
                        format!("`{word}` is not an edge number of {} (1 to {})", file.file, file.edges.len()),
                    ));
                }
            }
        }
        let rest = file.edges.iter().zip(&cut).filter(|(_, cut)| !**cut).map(|(edge, _)| *edge).collect();
        Ok(HackenbushGraph::grounded(rest, file.ground, Some(file.names.len())))
    }

    /// What is left of the file's graph as `all/cut=…`: the file's edges missing from `graph`
    /// that touch its vertices or the ground (the others fell with them), the first copies of
    /// a parallel edge first.
    fn format_in_file(file: &FileGraph, graph: &HackenbushGraph) -> String {
        // A part of the whole graph with as many edges is the whole graph.
        if graph.edges.len() == file.whole.edges.len() {
            return "all".to_owned();
        }
        let mut touched = vec![false; file.names.len()];
        touched[file.ground as usize] = true;
        for &(u, v) in graph.edges() {
            touched[u as usize] = true;
            touched[v as usize] = true;
        }
        // How many copies of each edge are left, taken by the file's edges in order.
        let mut left: rustc_hash::FxHashMap<(u32, u32), u32> = rustc_hash::FxHashMap::default();
        for &edge in graph.edges() {
            *left.entry(edge).or_default() += 1;
        }
        let mut cut = Vec::new();
        for (index, &(u, v)) in file.edges.iter().enumerate() {
            match left.get_mut(&(u, v)) {
                Some(copies) if *copies > 0 => *copies -= 1,
                _ if touched[u as usize] || touched[v as usize] => cut.push((index + 1).to_string()),
                _ => {}
            }
        }
        if cut.is_empty() { "all".to_owned() } else { format!("all/cut={}", cut.join(",")) }
    }

    /// The graph on dense vertices, the ground 0.
    fn dense(&self, graph: &HackenbushGraph) -> Result<(usize, Vec<(u32, u32)>), GameError> {
        // The adjacency (two entries an edge), the search's arrays (seven words a vertex).
        let entries = graph.edges.len() as u128 * 4 + (graph.edges.len() as u128 * 2 + 1) * 7;
        self.control.check_memory(
            || format!("fusing the circuits of a Hackenbush graph of {} edges", graph.edges.len()),
            entries,
            8,
        )?;
        let dense = Dense::new(graph.edges(), self.ground(), self.vertex_count());
        let edges = graph.edges.iter().map(|&(u, v)| (dense.index(u), dense.index(v))).collect();
        Ok((dense.len(), edges))
    }

    /// The move deleting the edge at `index` of `graph`.
    fn cut(&self, graph: &HackenbushGraph, index: usize) -> ComponentMove<HackenbushGraph> {
        let (u, v) = graph.edges[index];
        let rest = graph.without(index, self.ground(), self.vertex_count());
        let fallen = graph.edges.len() - 1 - rest.edges.len();
        // The bare ground (`0`) stays a component, so that a position prints as something.
        let mut one = ComponentMove::new(vec![rest], format!("cut {}-{}", self.vertex_name(u), self.vertex_name(v)));
        if fallen > 0 {
            one.detail = format!(
                " ({fallen} more edge{} fall{})",
                if fallen == 1 { "" } else { "s" },
                if fallen == 1 { "s" } else { "" }
            );
        }
        one
    }

    /// The value of `graph`, by the fusion and colon principles.
    ///
    /// # Errors
    /// [`GameError::TooLarge`] when the search's arrays would not fit in memory.
    pub fn graph_value(&self, graph: &HackenbushGraph) -> Result<u64, GameError> {
        if graph.edges.is_empty() {
            return Ok(0);
        }
        let (vertex_count, edges) = self.dense(graph)?;
        Ok(Fusion::new(vertex_count, &edges, 0, None).root_value())
    }
}

impl ComponentGame for Hackenbush {
    type Component = HackenbushGraph;

    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn component_noun(&self) -> &'static str {
        "graph"
    }

    fn parse_component(&self, text: &str) -> Result<HackenbushGraph, GameError> {
        match &self.file {
            Some(file) => self.parse_in_file(file, text),
            None => self.parse_edges(text),
        }
    }

    fn format_component(&self, graph: &HackenbushGraph) -> String {
        match &self.file {
            Some(file) => Self::format_in_file(file, graph),
            None if graph.edges.is_empty() => "0".to_owned(),
            None => graph.edges.iter().map(|(u, v)| format!("{u}-{v}")).collect::<Vec<_>>().join(","),
        }
    }

    fn describe_component(&self, graph: &HackenbushGraph) -> String {
        let shown = self.format_component(graph);
        let count = graph.edges.len();
        format!("{shown} ({count} edge{} on the ground)", if count == 1 { "" } else { "s" })
    }

    /// The rules: delete one edge (parallel copies of an edge are one move), and whatever no
    /// longer touches the ground falls.
    fn options(&self, graph: &HackenbushGraph, limit: usize) -> Result<Vec<ComponentMove<HackenbushGraph>>, GameError> {
        let distinct: Vec<usize> = (0..graph.edges.len())
            .filter(|&index| index == 0 || graph.edges[index - 1] != graph.edges[index])
            .collect();
        if distinct.len() > limit {
            return Err(too_many_moves(&self.spec, &self.format_component(graph), limit));
        }
        Ok(distinct.into_iter().map(|index| self.cut(graph, index)).collect())
    }

    fn value(&self, graph: &HackenbushGraph) -> Result<Value, GameError> {
        Ok(Value::from(self.graph_value(graph)?))
    }

    fn moves_to_value(
        &self,
        graph: &HackenbushGraph,
        target: &BigUint,
    ) -> Result<Vec<ComponentMove<HackenbushGraph>>, GameError> {
        // A value is at most the number of edges.
        let Some(target) = target.to_u64().filter(|&target| target <= graph.edges.len() as u64) else {
            return Ok(Vec::new());
        };
        if graph.edges.is_empty() {
            return Ok(Vec::new());
        }
        let (vertex_count, edges) = self.dense(graph)?;
        // The dense edges are the graph's, in its order, so an edge's number is its index in
        // `graph`; parallel copies are one move, the first copy's.
        let mut found = edges_to_value(vertex_count, &edges, target)?;
        found.retain(|&index| index == 0 || graph.edges[index - 1] != graph.edges[index]);
        Ok(found.into_iter().map(|index| self.cut(graph, index)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::ComponentGame;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// The value by the definition: the mex over the options' values, memoized.
    fn by_definition(game: &Hackenbush, graph: &HackenbushGraph, memo: &mut HashMap<HackenbushGraph, u64>) -> u64 {
        if let Some(&known) = memo.get(graph) {
            return known;
        }
        let mut seen = Vec::new();
        for one in game.options(graph, usize::MAX).unwrap() {
            seen.push(by_definition(game, &one.result[0], memo));
        }
        let value = (0..).find(|candidate| !seen.contains(candidate)).unwrap();
        memo.insert(graph.clone(), value);
        value
    }

    /// Random small multigraphs: loops, parallel edges, circuits, parts off the ground.
    fn small_graph() -> impl Strategy<Value = Vec<(u32, u32)>> {
        (1u32..7).prop_flat_map(|vertices| proptest::collection::vec((0..vertices, 0..vertices), 0..10))
    }

    fn text(edges: &[(u32, u32)]) -> String {
        if edges.is_empty() {
            return "0".to_owned();
        }
        edges.iter().map(|(u, v)| format!("{u}-{v}")).collect::<Vec<_>>().join(",")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// The fusion value is the definition's, and the moves to each value are the options
        /// of that value, on random multigraphs.
        #[test]
        fn fusion_is_the_mex_over_the_rules(edges in small_graph()) {
            let game = Hackenbush::new();
            let graph = game.parse_component(&text(&edges)).unwrap();
            let mut memo = HashMap::new();
            let expected = by_definition(&game, &graph, &mut memo);
            prop_assert_eq!(game.graph_value(&graph).unwrap(), expected, "{}", text(&edges));
            let options = game.options(&graph, usize::MAX).unwrap();
            for target in 0..=graph.edges().len() as u64 + 1 {
                let wanted: Vec<String> = options
                    .iter()
                    .filter(|one| by_definition(&game, &one.result[0], &mut memo) == target)
                    .map(|one| one.notation.clone())
                    .collect();
                let found: Vec<String> =
                    game.moves_to_value(&graph, &target.into()).unwrap().into_iter().map(|one| one.notation).collect();
                prop_assert_eq!(found, wanted, "{} to {}", text(&edges), target);
            }
            // Printed and read back, the same graph.
            prop_assert_eq!(game.parse_component(&game.format_component(&graph)).unwrap(), graph);
        }

        /// A file's graph answers as the same graph written in a component, and what is left
        /// after cuts prints as `all/cut=…` and reads back as itself.
        #[test]
        fn a_file_is_its_edge_list(edges in small_graph(), cuts in proptest::collection::vec(0usize..10, 0..4)) {
            let lines: String = edges.iter().map(|(u, v)| format!("{u} {v}\n")).collect();
            // Two loops at the ground first: a file of one line `0 0` alone would read as a
            // contest header (no vertices, no edges).
            let lines = format!("0 0\n0 0\n{lines}");
            let control = Control::default();
            let in_file = Hackenbush::parse_file("hackenbush:g", "g", &lines, &control).unwrap();
            let inline = Hackenbush::new();
            let all = in_file.parse_component("all").unwrap();
            let written = inline.parse_component(&text(&[&[(0, 0), (0, 0)], &edges[..]].concat())).unwrap();
            prop_assert_eq!(in_file.graph_value(&all).unwrap(), inline.graph_value(&written).unwrap());
            let mut graph = all;
            for cut in cuts {
                let options = in_file.options(&graph, usize::MAX).unwrap();
                if options.is_empty() {
                    break;
                }
                graph = options[cut % options.len()].result[0].clone();
                let shown = in_file.format_component(&graph);
                prop_assert_eq!(in_file.parse_component(&shown).unwrap(), graph.clone(), "{}", shown);
            }
        }
    }

    #[test]
    fn bad_components_are_named() {
        let game = Hackenbush::new();
        for (text, needle) in [("0-1,1-x", "edge 2 `1-x`"), ("", "edge 1 ``"), ("0-1,", "edge 2"), ("5", "edge 1 `5`")]
        {
            let error = game.parse_component(text).unwrap_err().to_string();
            assert!(error.contains(needle), "{text}: {error}");
        }
        let control = Control::default();
        let error = Hackenbush::parse_file("hackenbush:g", "g", "a b\n", &control).unwrap_err().to_string();
        assert!(error.contains("no vertex `0`"), "{error}");
        let game = Hackenbush::parse_file("hackenbush:g", "g", "0 a\na b\n", &control).unwrap();
        for (text, needle) in [("everything", "`all`"), ("all/cut=3", "`3`"), ("all/cut=1,1", "twice")] {
            let error = game.parse_component(text).unwrap_err().to_string();
            assert!(error.contains(needle), "{text}: {error}");
        }
    }

    #[test]
    fn contest_files_have_their_ground_at_vertex_1() {
        // POJ 3710's layout: n m, then m edges; vertex 1 on the ground. A triangle 1-2-3 and a
        // stalk 3-4-5: the triangle fuses to three twigs at the ground (1), the stalk is 2.
        let control = Control::default();
        let text = "5 5\n1 2\n2 3\n3 1\n3 4\n4 5\n";
        let game = Hackenbush::parse_file("hackenbush:p", "p", text, &control).unwrap();
        let all = game.parse_component("all").unwrap();
        assert_eq!(game.graph_value(&all).unwrap(), 1 ^ 2);
        // Cutting 3-4 (the 4th edge) leaves the triangle, and 4-5 falls with it.
        let cut = game.parse_component("all/cut=4").unwrap();
        assert_eq!(game.graph_value(&cut).unwrap(), 1);
        assert_eq!(game.format_component(&cut), "all/cut=4");
        let moves: Vec<String> = game
            .moves_to_value(&all, &BigUint::ZERO)
            .unwrap()
            .into_iter()
            .map(|one| format!("{}{}", one.notation, one.detail))
            .collect();
        assert_eq!(moves, ["cut 4-5"]);
    }

    #[test]
    fn a_million_edges_without_deep_recursion() {
        // A random tree of 500,000 edges with 500,000 extra edges making circuits, and a path
        // of 10^6 edges (a deep search, no recursion: a recursive one overflows the stack).
        // Its speed is measured in bench/, not here.
        let mut random = crate::random::SplitMix64::new(5);
        let mut edges: Vec<(u32, u32)> = (1..500_001u32).map(|v| (random.below(u64::from(v)) as u32, v)).collect();
        edges.extend((0..500_000).map(|_| (random.below(500_001) as u32, random.below(500_001) as u32)));
        let game = Hackenbush::new();
        let graph = HackenbushGraph::grounded(edges, 0, None);
        let value = game.graph_value(&graph).unwrap();
        assert!(value <= 1_000_000);
        let path = HackenbushGraph::grounded((0..1_000_000u32).map(|v| (v, v + 1)).collect(), 0, None);
        assert_eq!(game.graph_value(&path).unwrap(), 1_000_000);
        let moves = game.moves_to_value(&path, &BigUint::from(0u32)).unwrap();
        assert_eq!(moves.len(), 1);
    }
}
