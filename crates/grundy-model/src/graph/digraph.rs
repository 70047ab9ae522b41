//! Graphs read from edge-list text, stored in compressed sparse row (CSR) form.
//!
//! **Format.** One edge per line, `u v`: two vertex names, each any word without blanks. `#`
//! starts a comment that runs to the end of the line; blank lines are ignored. Any other line
//! (one word, three words) is an error naming the file and the line number. Vertices are
//! numbered in the order their names first appear.
//!
//! Names are interned through a hash map keyed by slices of the input, so a file is read in one
//! pass with one allocation per distinct name; the edges are then laid out in CSR arrays (one
//! offset per vertex, one target per edge), which is what every algorithm here walks.

use crate::control::Control;
use crate::error::{GameError, quote};
use rustc_hash::FxHashMap;

/// The vertices and edges of an edge-list file, before they are laid out as a graph.
///
/// ```
/// use grundy_model::graph::digraph::EdgeList;
/// let list = EdgeList::parse("a b\n# a comment\n\nb c  # the last edge\n", "g.txt", &grundy_model::control::Control::default()).unwrap();
/// assert_eq!(list.names, ["a", "b", "c"]);
/// assert_eq!(list.edges, [(0, 1), (1, 2)]);
/// let error = EdgeList::parse("a b\nb c d\n", "g.txt", &grundy_model::control::Control::default()).unwrap_err();
/// assert!(error.to_string().contains("g.txt:2"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EdgeList {
    /// Vertex names, indexed by vertex number.
    pub names: Vec<String>,
    /// The edges `(u, v)` in file order, as vertex numbers.
    pub edges: Vec<(u32, u32)>,
}

impl EdgeList {
    /// Parses edge-list text; `file` names the source in error messages (`g.txt:3: …`).
    ///
    /// # Errors
    /// [`GameError::BadGame`] for a line that is not exactly two names, or more than
    /// `2^32 - 2` vertices or `2^31 - 1` edges.
    pub fn parse(text: &str, file: &str, control: &Control) -> Result<Self, GameError> {
        Ok(Self::parse_with_layout(text, file, control)?.0)
    }

    /// Parses graph text in either layout (see [`Layout`]) and says which it was read in.
    ///
    /// # Errors
    /// As [`EdgeList::parse`]; a contest header of more vertices than fit in memory.
    ///
    /// ```
    /// use grundy_model::graph::digraph::{EdgeList, Layout};
    /// let (list, layout) = EdgeList::parse_with_layout("4 2\n1 2\n2 3\n", "g.txt", &grundy_model::control::Control::default()).unwrap();
    /// assert_eq!(layout, Layout::Contest { vertices: 4, edges: 2 });
    /// assert_eq!(list.names, ["1", "2", "3", "4"]); // vertex 4 is isolated
    /// assert_eq!(list.edges, [(0, 1), (1, 2)]);
    /// let (_, layout) = EdgeList::parse_with_layout("a b\nb c\n", "g.txt", &grundy_model::control::Control::default()).unwrap();
    /// assert_eq!(layout, Layout::EdgeList);
    /// ```
    pub fn parse_with_layout(text: &str, file: &str, control: &Control) -> Result<(Self, Layout), GameError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        match contest_header(text) {
            HeaderFit::Contest { vertices, edges } => {
                Ok((Self::parse_contest(text, file, vertices, edges, control)?, Layout::Contest { vertices, edges }))
            }
            HeaderFit::Mismatch(_) | HeaderFit::NotNumeric => {
                Ok((Self::parse_edges(text, file, control)?, Layout::EdgeList))
            }
        }
    }

    /// The contest layout: vertices `1..=vertices`, named by their numbers, isolated ones
    /// included; the header checked by [`contest_header`].
    fn parse_contest(text: &str, file: &str, vertices: u32, edges: u64, control: &Control) -> Result<Self, GameError> {
        check_graph_memory(control, file, u128::from(vertices), u128::from(edges))?;
        let mut edges = Vec::new();
        for (u, v) in content_lines(text).skip(1).filter_map(|words| parse_pair(&words)) {
            edges.push((u as u32 - 1, v as u32 - 1));
        }
        Ok(EdgeList { names: (1..=vertices).map(|v| v.to_string()).collect(), edges })
    }

    fn parse_edges(text: &str, file: &str, control: &Control) -> Result<Self, GameError> {
        let bad = |line_number: usize, reason: String| GameError::BadGame {
            spec: file.to_owned(),
            reason: format!("{file}:{line_number}: {reason}"),
        };
        // A byte-order mark (Windows editors write one) is not part of the first name.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut index = Interner::default();
        let mut names: Vec<&str> = Vec::new();
        let mut edges = Vec::with_capacity(text.len() / 8);
        for (line_index, line) in text.split('\n').enumerate() {
            let content = match line.find('#') {
                Some(comment) => &line[..comment],
                None => line,
            };
            // ASCII lines (nearly all) split on ASCII blanks, faster; others on Unicode blanks.
            let (first, second, more) = if content.is_ascii() {
                first_two(content.split_ascii_whitespace())
            } else {
                first_two(content.split_whitespace())
            };
            let Some(first) = first else { continue };
            let (Some(second), false) = (second, more) else {
                let count = content.split_whitespace().count();
                return Err(bad(
                    line_index + 1,
                    format!(
                        "expected an edge `u v` (two vertex names), found {count} word{}: `{}`",
                        if count == 1 { "" } else { "s" },
                        content.trim()
                    ),
                ));
            };
            let (Some(u), Some(v)) = (index.intern(&mut names, first), index.intern(&mut names, second)) else {
                return Err(bad(line_index + 1, "more than 2^32 - 2 vertices".to_owned()));
            };
            // CSR offsets are u32 and an undirected graph stores each edge twice.
            if edges.len() >= (u32::MAX / 2) as usize {
                return Err(bad(line_index + 1, "more than 2^31 - 1 edges".to_owned()));
            }
            edges.push((u, v));
        }
        check_graph_memory(control, file, names.len() as u128, edges.len() as u128)?;
        Ok(EdgeList { names: names.into_iter().map(str::to_owned).collect(), edges })
    }

    /// The number of a vertex, by a scan of the names (positions name only a few vertices).
    pub fn vertex(&self, name: &str) -> Option<u32> {
        self.names.iter().position(|candidate| candidate == name).map(|index| index as u32)
    }
}

/// About what a vertex of a graph read from a file takes until its game has answered: its name
/// (a `String`, its bytes and the allocator's header), the name index, the CSR offsets both
/// ways and the game's labels. Measured: `value dag:` on a contest file of 2,000,000 isolated
/// vertices peaks at 76 bytes a vertex, `value geography:` at 63.
pub const BYTES_PER_VERTEX: u128 = 96;
/// About what an edge takes: the parsed pair and its CSR entries both ways (or both
/// directions of an undirected edge) while the graph is laid out.
pub const BYTES_PER_EDGE: u128 = 24;

/// Refuses a graph of `vertices` and `edges` whose reading and solving would pass the memory
/// limit, before any of it is allocated (a contest header may declare 10^9 vertices in a
/// file of one line).
fn check_graph_memory(control: &Control, file: &str, vertices: u128, edges: u128) -> Result<(), GameError> {
    control.check_memory(
        || format!("the graph of {file} ({vertices} vertices, {edges} edges)"),
        vertices * BYTES_PER_VERTEX + edges * BYTES_PER_EDGE,
        1,
    )
}

/// The two layouts a graph file may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One edge `u v` per line, vertices named by any words, numbered as they first appear.
    EdgeList,
    /// The layout of contest problems: a first line `n m`, then `m` lines `u v` with
    /// `1 ≤ u, v ≤ n`; vertices `1..n`, isolated ones included. Chosen only when the whole file
    /// fits it (then it is also a valid edge list whose first edge is `n → m`).
    Contest {
        /// `n`.
        vertices: u32,
        /// `m`.
        edges: u64,
    },
}

/// How well the first line fits a contest header.
enum HeaderFit {
    Contest {
        vertices: u32,
        edges: u64,
    },
    /// The first line counts the lines after it, but they do not fit it (why).
    Mismatch(String),
    /// Not a contest header.
    NotNumeric,
}

/// The words of each line that has any, comments cut off.
fn content_lines(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.split('\n')
        .map(|line| line.find('#').map_or(line, |comment| &line[..comment]))
        .map(|content| content.split_whitespace().collect::<Vec<_>>())
        .filter(|words| !words.is_empty())
}

/// Two decimal numbers (digits only: `+1` or `01x` are names).
fn parse_pair(words: &[&str]) -> Option<(u64, u64)> {
    let number = |word: &str| word.bytes().all(|b| b.is_ascii_digit()).then(|| word.parse::<u64>().ok()).flatten();
    match words {
        [u, v] => Some((number(u)?, number(v)?)),
        _ => None,
    }
}

fn contest_header(text: &str) -> HeaderFit {
    let mut lines = content_lines(text);
    let Some((vertices, edges)) = lines.next().and_then(|words| parse_pair(&words)) else {
        return HeaderFit::NotNumeric;
    };
    let mut count = 0u64;
    let mut outside = None;
    for words in lines {
        let Some((u, v)) = parse_pair(&words) else { return HeaderFit::NotNumeric };
        count += 1;
        if outside.is_none() && (u == 0 || v == 0 || u.max(v) > vertices) {
            outside = Some((u, v));
        }
    }
    // A first line whose `m` is not the number of lines after it is just an edge; one whose `m`
    // is, but with a vertex outside 1..n, was most likely meant as a header: say why it is not.
    if count != edges {
        return HeaderFit::NotNumeric;
    }
    if let Some((u, v)) = outside {
        return HeaderFit::Mismatch(format!("the edge `{u} {v}` has a vertex outside 1..{vertices}"));
    }
    match u32::try_from(vertices) {
        Ok(vertices) if vertices < u32::MAX => HeaderFit::Contest { vertices, edges },
        _ => HeaderFit::Mismatch(format!("{vertices} vertices are more than 2^32 - 2")),
    }
}

/// What a front end should tell the user about the layout a graph file is read in, when the
/// file could be read two ways: `None` when only one reading makes sense.
///
/// ```
/// use grundy_model::graph::digraph::layout_note;
/// assert!(layout_note("3 2\n1 2\n2 3\n", "g.txt").unwrap().contains("contest layout"));
/// assert!(layout_note("3 2\n1 2\n2 4\n", "g.txt").unwrap().contains("plain edge list"));
/// assert_eq!(layout_note("1 2\n2 3\n3 4\n4 5\n", "g.txt"), None);
/// assert_eq!(layout_note("a b\n", "g.txt"), None);
/// ```
pub fn layout_note(text: &str, file: &str) -> Option<String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = || content_lines(text).next().map(|words| words.join(" ")).unwrap_or_default();
    match contest_header(text) {
        HeaderFit::Contest { vertices, edges } => Some(format!(
            "{} read in contest layout: the first line `{}` gives {vertices} vertices 1..{vertices} and {edges} \
             edges (as a plain edge list it would be an edge)",
            quote(file),
            first()
        )),
        HeaderFit::Mismatch(why) => Some(format!(
            "{} read as a plain edge list (the first line `{}` is an edge): as a contest layout, {why}",
            quote(file),
            first()
        )),
        HeaderFit::NotNumeric => None,
    }
}

/// The first two words, and whether there are more.
fn first_two<'a>(mut words: impl Iterator<Item = &'a str>) -> (Option<&'a str>, Option<&'a str>, bool) {
    let first = words.next();
    let second = words.next();
    (first, second, words.next().is_some())
}

/// `error` with the game text `spec` in place of the file name, for a `BadGame` from parsing.
pub fn in_game(error: GameError, spec: &str) -> GameError {
    match error {
        GameError::BadGame { reason, .. } => GameError::BadGame { spec: spec.to_owned(), reason },
        other => other,
    }
}

/// Vertex numbers by name. Names of up to 15 bytes (nearly all) are keyed by their bytes
/// packed in a `u128`, so a lookup compares inside the table instead of chasing a pointer into
/// the file's text — on a big file that cache miss per lookup was most of the parsing time.
#[derive(Default)]
struct Interner<'a> {
    short: FxHashMap<u128, u32>,
    long: FxHashMap<&'a str, u32>,
}

impl<'a> Interner<'a> {
    /// The number of `name`, given a new number if it is new; `None` past `u32::MAX - 1` names.
    fn intern(&mut self, names: &mut Vec<&'a str>, name: &'a str) -> Option<u32> {
        use std::collections::hash_map::Entry;
        let next = names.len();
        let fresh = |names: &mut Vec<&'a str>| {
            let id = u32::try_from(next).ok().filter(|&id| id < u32::MAX)?;
            names.push(name);
            Some(id)
        };
        if name.len() <= 15 {
            let mut bytes = [0u8; 16];
            bytes[..name.len()].copy_from_slice(name.as_bytes());
            bytes[15] = name.len() as u8;
            match self.short.entry(u128::from_le_bytes(bytes)) {
                Entry::Occupied(entry) => Some(*entry.get()),
                Entry::Vacant(entry) => Some(*entry.insert(fresh(names)?)),
            }
        } else {
            match self.long.entry(name) {
                Entry::Occupied(entry) => Some(*entry.get()),
                Entry::Vacant(entry) => Some(*entry.insert(fresh(names)?)),
            }
        }
    }
}

/// Adjacency in CSR form: the neighbours of `v` are `targets[offsets[v]..offsets[v + 1]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Adjacency {
    offsets: Vec<u32>,
    targets: Vec<u32>,
}

impl Adjacency {
    /// Lays out `pairs` (`(from, to)`) for `vertex_count` vertices, keeping each vertex's
    /// targets in input order.
    ///
    /// # Panics
    /// If a pair names a vertex `>= vertex_count`, or there are `u32::MAX` pairs or more.
    pub fn from_pairs(vertex_count: usize, pairs: impl Iterator<Item = (u32, u32)> + Clone) -> Self {
        let mut offsets = vec![0u32; vertex_count + 1];
        for (from, _) in pairs.clone() {
            offsets[from as usize + 1] += 1;
        }
        for v in 0..vertex_count {
            offsets[v + 1] += offsets[v];
        }
        let mut fill = offsets.clone();
        let mut targets = vec![0u32; offsets[vertex_count] as usize];
        for (from, to) in pairs {
            let slot = &mut fill[from as usize];
            targets[*slot as usize] = to;
            *slot += 1;
        }
        Adjacency { offsets, targets }
    }

    /// The number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// The number of (directed) entries.
    pub fn entry_count(&self) -> usize {
        self.targets.len()
    }

    /// The neighbours (successors) of `v`.
    #[inline]
    pub fn neighbours(&self, v: u32) -> &[u32] {
        &self.targets[self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize]
    }

    /// The number of neighbours of `v`.
    #[inline]
    pub fn degree(&self, v: u32) -> usize {
        (self.offsets[v as usize + 1] - self.offsets[v as usize]) as usize
    }
}

/// A directed graph: a move goes from `u` to `v` along each edge `u v`.
///
/// ```
/// use grundy_model::graph::digraph::Digraph;
/// let graph = Digraph::parse("a b\nb c\na c\n", "g.txt", &grundy_model::control::Control::default()).unwrap();
/// assert_eq!(graph.vertex_count(), 3);
/// assert_eq!(graph.successors(0), [1, 2]);
/// assert_eq!(graph.predecessors(2), [1, 0]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Digraph {
    names: Vec<String>,
    forward: Adjacency,
    backward: Adjacency,
}

impl Digraph {
    /// Parses an edge list as a directed graph (see the [module](self) for the format).
    ///
    /// # Errors
    /// As [`EdgeList::parse`].
    pub fn parse(text: &str, file: &str, control: &Control) -> Result<Self, GameError> {
        Ok(Self::from_edge_list(EdgeList::parse(text, file, control)?))
    }

    /// The directed graph of an edge list.
    pub fn from_edge_list(list: EdgeList) -> Self {
        Self::from_edges(list.names, &list.edges)
    }

    /// The directed graph on `names` with `edges`.
    ///
    /// # Panics
    /// If an edge names a vertex past `names`.
    pub fn from_edges(names: Vec<String>, edges: &[(u32, u32)]) -> Self {
        let count = names.len();
        let forward = Adjacency::from_pairs(count, edges.iter().copied());
        let backward = Adjacency::from_pairs(count, edges.iter().map(|&(u, v)| (v, u)));
        Digraph { names, forward, backward }
    }

    /// A graph with unnamed vertices `0..vertex_count` (named by their numbers).
    pub fn unnamed(vertex_count: usize, edges: &[(u32, u32)]) -> Self {
        Self::from_edges((0..vertex_count).map(|v| v.to_string()).collect(), edges)
    }

    /// The number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.names.len()
    }

    /// The number of edges.
    pub fn edge_count(&self) -> usize {
        self.forward.entry_count()
    }

    /// The vertex names, by number.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The number of the vertex called `name`.
    pub fn vertex(&self, name: &str) -> Option<u32> {
        self.names.iter().position(|candidate| candidate == name).map(|index| index as u32)
    }

    /// Where a token on `v` can move.
    #[inline]
    pub fn successors(&self, v: u32) -> &[u32] {
        self.forward.neighbours(v)
    }

    /// The vertices with an edge into `v`.
    #[inline]
    pub fn predecessors(&self, v: u32) -> &[u32] {
        self.backward.neighbours(v)
    }

    /// The number of moves from `v`.
    #[inline]
    pub fn out_degree(&self, v: u32) -> usize {
        self.forward.degree(v)
    }
}

/// An undirected simple graph: each line `u v` joins `u` and `v` both ways. Self-loops are
/// dropped (a token can never re-enter its own, visited, vertex) and repeated edges kept once.
///
/// ```
/// use grundy_model::graph::digraph::Graph;
/// let graph = Graph::parse("a b\nb a\nb c\nc c\n", "g.txt", &grundy_model::control::Control::default()).unwrap();
/// assert_eq!(graph.vertex_count(), 3);
/// assert_eq!(graph.edge_count(), 2);
/// assert_eq!(graph.neighbours(1), [0, 2]);
/// assert!(graph.neighbours(2) == [1]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    names: Vec<String>,
    adjacency: Adjacency,
}

impl Graph {
    /// Parses an edge list as an undirected graph (see the [module](self) for the format).
    ///
    /// # Errors
    /// As [`EdgeList::parse`].
    pub fn parse(text: &str, file: &str, control: &Control) -> Result<Self, GameError> {
        let list = EdgeList::parse(text, file, control)?;
        Ok(Self::from_edges(list.names, &list.edges))
    }

    /// The undirected graph on `names` with `edges` (self-loops dropped, repeats merged).
    ///
    /// # Panics
    /// If an edge names a vertex past `names`.
    pub fn from_edges(names: Vec<String>, edges: &[(u32, u32)]) -> Self {
        let count = names.len();
        let both_ways = edges.iter().filter(|&&(u, v)| u != v).flat_map(|&(u, v)| [(u, v), (v, u)]);
        let mut adjacency = Adjacency::from_pairs(count, both_ways);
        // Merge repeated edges: sort each list and drop duplicates, in place.
        let mut write = 0usize;
        let mut start = 0usize;
        for v in 0..count {
            let end = adjacency.offsets[v + 1] as usize;
            let list = &mut adjacency.targets[start..end];
            list.sort_unstable();
            let mut previous = u32::MAX;
            for read in start..end {
                let target = adjacency.targets[read];
                if target != previous {
                    adjacency.targets[write] = target;
                    write += 1;
                    previous = target;
                }
            }
            start = end;
            adjacency.offsets[v + 1] = write as u32;
        }
        adjacency.targets.truncate(write);
        Graph { names, adjacency }
    }

    /// A graph with unnamed vertices `0..vertex_count` (named by their numbers).
    pub fn unnamed(vertex_count: usize, edges: &[(u32, u32)]) -> Self {
        Self::from_edges((0..vertex_count).map(|v| v.to_string()).collect(), edges)
    }

    /// The number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.names.len()
    }

    /// The number of edges (each counted once).
    pub fn edge_count(&self) -> usize {
        self.adjacency.entry_count() / 2
    }

    /// The vertex names, by number.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The number of the vertex called `name`.
    pub fn vertex(&self, name: &str) -> Option<u32> {
        self.names.iter().position(|candidate| candidate == name).map(|index| index as u32)
    }

    /// The neighbours of `v`, in increasing order.
    #[inline]
    pub fn neighbours(&self, v: u32) -> &[u32] {
        self.adjacency.neighbours(v)
    }

    /// The degree of `v`.
    #[inline]
    pub fn degree(&self, v: u32) -> usize {
        self.adjacency.degree(v)
    }

    /// Whether `u` and `v` are joined (a binary search of `u`'s sorted list).
    pub fn adjacent(&self, u: u32, v: u32) -> bool {
        self.neighbours(u).binary_search(&v).is_ok()
    }

    /// The graph without the vertices `removed` (their edges dropped; numbering kept, so removed
    /// vertices stay as isolated vertices).
    pub fn without(&self, removed: &[u32]) -> Graph {
        let mut gone = vec![false; self.vertex_count()];
        for &v in removed {
            gone[v as usize] = true;
        }
        let edges: Vec<(u32, u32)> = (0..self.vertex_count() as u32)
            .filter(|&u| !gone[u as usize])
            .flat_map(|u| self.neighbours(u).iter().map(move |&v| (u, v)))
            .filter(|&(u, v)| u < v && !gone[v as usize])
            .collect();
        Graph::from_edges(self.names.clone(), &edges)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_lines_name_file_and_line() {
        for (text, needle) in [
            ("a b\nc\n", "g.txt:2: expected an edge `u v` (two vertex names), found 1 word: `c`"),
            ("\n\na b c # x\n", "g.txt:3: expected an edge `u v` (two vertex names), found 3 words: `a b c`"),
        ] {
            let error = EdgeList::parse(text, "g.txt", &crate::control::Control::default()).unwrap_err().to_string();
            assert!(error.contains(needle), "{error}");
        }
    }

    #[test]
    fn comments_blank_lines_and_crlf() {
        let list =
            EdgeList::parse("# header\r\n  x\ty \r\n\r\n#only\ny z#tail\n", "f", &crate::control::Control::default())
                .unwrap();
        assert_eq!(list.names, ["x", "y", "z"]);
        assert_eq!(list.edges, [(0, 1), (1, 2)]);
        assert_eq!(EdgeList::parse("", "f", &crate::control::Control::default()).unwrap(), EdgeList::default());
        let list =
            EdgeList::parse("\u{feff}a b\n\u{3000}名 a\u{3000}\n", "f", &crate::control::Control::default()).unwrap();
        assert_eq!(list.names, ["a", "b", "名"]);
        let long = EdgeList::parse(
            "a-very-long-vertex-name-indeed b\nb a-very-long-vertex-name-indeed\n",
            "f",
            &crate::control::Control::default(),
        )
        .unwrap();
        assert_eq!(long.edges, [(0, 1), (1, 0)]);
    }

    #[test]
    fn csr_matches_edge_list() {
        let graph = Digraph::parse("a b\na a\nb a\nc a\n", "f", &crate::control::Control::default()).unwrap();
        assert_eq!(graph.successors(0), [1, 0]);
        assert_eq!(graph.predecessors(0), [0, 1, 2]);
        assert_eq!(graph.out_degree(2), 1);
        assert_eq!(graph.edge_count(), 4);
        let undirected =
            Graph::parse("a b\na b\nb c\n", "f", &crate::control::Control::default()).unwrap().without(&[1]);
        assert_eq!(undirected.edge_count(), 0);
    }

    #[test]
    fn contest_layout_includes_isolated_vertices_and_refuses_huge_headers() {
        let (list, layout) = EdgeList::parse_with_layout(
            "# a comment\n5 2\n1 2\n\n3 1 # an edge\n",
            "g",
            &crate::control::Control::default(),
        )
        .unwrap();
        assert_eq!(layout, Layout::Contest { vertices: 5, edges: 2 });
        assert_eq!(list.names, ["1", "2", "3", "4", "5"]);
        assert_eq!(list.edges, [(0, 1), (2, 0)]);
        // A header of four billion vertices is refused by the memory check, not allocated.
        let error =
            EdgeList::parse("4294967294 0\n", "g", &crate::control::Control::default()).unwrap_err().to_string();
        assert!(error.contains("would need about"), "{error}");
        // A vertex 0 or past n: the first line is an edge after all.
        let (list, layout) =
            EdgeList::parse_with_layout("3 2\n1 2\n2 4\n", "g", &crate::control::Control::default()).unwrap();
        assert_eq!((layout, list.edges.len()), (Layout::EdgeList, 3));
    }
}
