//! `geography:FILE`: undirected vertex geography. A token starts on a vertex, which counts as
//! visited; players alternately move it to an adjacent unvisited vertex; who cannot move loses.
//!
//! **The matching rule.** The player to move wins iff the token's vertex is covered by every
//! maximum matching of the graph of unvisited vertices plus the token's own (seed
//! `002_e2faf50696f52a16.txt`, 定理 3.1, for bipartite graphs; the proof uses no
//! bipartiteness and holds for every graph — Fraenkel, Scheinerman and Ullman, *Undirected edge
//! geography*, Theoret. Comput. Sci. 112, 1993, where the vertex version is stated for all graphs):
//! - if some maximum matching `M` misses `v`, every neighbour of `v` is matched by `M` (else
//!   `M` would grow), and the second player answers each move by moving to the mate of the
//!   vertex just entered, which is never visited yet — so the first player runs out first;
//! - if every maximum matching covers `v`, take one, `M`, and move to `v`'s mate `u`: then
//!   `M − uv` is maximum in the graph left (without `v`) and misses `u`, a losing position for
//!   the opponent by the first case. From there on: keep moving along the matching.
//!
//! Whether each vertex is in every maximum matching comes from one maximum matching and one
//! alternating search ([`crate::graph::matching`]). A position after some moves is a path
//! `v1,v2,…,vk`: the token is on `vk` and `v1 … v(k−1)` are removed from the graph.
//!
//! **Values.** The rule gives outcomes, not Grundy values. `value` searches all paths
//! exhaustively (the reference solver over (visited set, token) states) when the token's region
//! is small enough, and says so plainly otherwise. One token only: two tokens on one graph
//! would share the visited set, which is not a sum of games.

use crate::control::Control;
use crate::error::GameError;
use crate::game::Game;
use crate::graph::digraph::{Graph, in_game};
use crate::graph::matching::{Classification, classify};
use crate::ruleset::{ComponentGame, ComponentMove, OneComponentOnly, Request, too_many_moves};
use crate::solve::memo::Solver;
use crate::value::{Outcome, Value};
use crate::view::{GraphView, PlayedOn, Table, Tabulate, Tabulation, VertexEntry, vertex_table};
use std::sync::{Arc, Mutex};

/// How many (visited set, token) states `value` may search before it gives up.
pub const EXHAUSTIVE_LIMIT: usize = 2_000_000;

/// Geography on at most 64 vertices as a [`Game`] for the reference solver: a position is the
/// set of visited vertices (a bit mask) and the token's vertex.
///
/// Not a second definition kept for tests: it is how [`GeographyGame`]'s `value` searches, on
/// the token's region renumbered into a bit mask (a path over the whole graph, as
/// [`ComponentGame::options`] moves on, would hash a list of vertices per state). Its move —
/// to an unvisited neighbour — is the one `options` states, and `tests/model.rs` checks the
/// values it gives against the mex over `options` on random graphs and paths.
///
/// ```
/// use grundy::graph::geography::PathGame;
/// use grundy::solve::memo::grundy_value;
/// // The path 0 - 1 - 2: from the middle the first player moves to an end and wins.
/// let game = PathGame::new(&[vec![1], vec![0, 2], vec![1]]);
/// assert_eq!(grundy_value(&game, &game.start(1)).unwrap().0, 1);
/// assert_eq!(grundy_value(&game, &game.start(0)).unwrap().0, 0);
/// ```
#[derive(Clone, Debug)]
pub struct PathGame {
    neighbours: Vec<u64>,
}

impl PathGame {
    /// The game on vertices `0..neighbours.len()` (at most 64) with these adjacency lists.
    ///
    /// # Panics
    /// With more than 64 vertices.
    pub fn new(neighbours: &[Vec<u32>]) -> Self {
        assert!(neighbours.len() <= 64, "a bit mask holds 64 vertices");
        PathGame {
            neighbours: neighbours.iter().map(|list| list.iter().fold(0u64, |mask, &w| mask | 1 << w)).collect(),
        }
    }

    /// The position with the token on `v`, nothing else visited.
    pub fn start(&self, v: u32) -> (u64, u32) {
        (1 << v, v)
    }
}

impl Game for PathGame {
    type State = (u64, u32);
    fn options_into(&self, &(visited, at): &(u64, u32), out: &mut Vec<(u64, u32)>) {
        let mut open = self.neighbours[at as usize] & !visited;
        while open != 0 {
            let w = open.trailing_zeros();
            open &= open - 1;
            out.push((visited | 1 << w, w));
        }
    }
}

/// The `geography:FILE` family.
///
/// ```
/// use grundy::graph::geography::GeographyGame;
/// use grundy::ruleset::erase;
/// use grundy::sum::Position;
/// use grundy::Outcome;
/// // The path a - b - c - d has the perfect matching ab, cd: every vertex is covered.
/// let game = erase(GeographyGame::parse("geography:p.txt", "p.txt", "a b\nb c\nc d\n", &grundy::control::Control::default()).unwrap());
/// let at = |text: &str| Position::parse_single(game.clone(), &[text]).unwrap();
/// assert_eq!(at("a").outcome().unwrap(), Outcome::N);
/// let moves = at("a").winning_moves().unwrap();
/// assert_eq!(at("a").after(&moves[0]).to_text(), "a,b");
/// // After a, b the token is on b with c - d ahead: b's only move is to c, then d ends it.
/// assert_eq!(at("a,b").outcome().unwrap(), Outcome::P);
/// // From b: to a ends the game (value 0), to c leaves one move (value 1): mex = 2.
/// assert_eq!(at("b").value().unwrap().to_string(), "2");
/// ```
#[derive(Clone, Debug)]
pub struct GeographyGame {
    spec: String,
    file: String,
    graph: Graph,
    /// The last classification made, with the vertices it removed: every move from one
    /// position leaves the same graph, so explaining each winning move (the matching that
    /// misses its vertex) reuses one classification instead of making one per move.
    last_classification: Arc<Mutex<Option<KeptClassification>>>,
    /// The memory limit of its tables.
    control: Control,
}

/// A classification and the vertices removed from the graph before it was made.
type KeptClassification = (Vec<u32>, Arc<Classification>);

/// The token's path as a position text gives it: the vertices visited before the token's,
/// and the token's vertex.
struct TokenPath {
    earlier: Vec<u32>,
    token: u32,
}

impl GeographyGame {
    /// Reads the edge list `text` of `file` as an undirected graph; `spec` is the game text.
    ///
    /// # Errors
    /// A malformed line, naming `file` and the line; a graph too large for memory.
    pub fn parse(spec: &str, file: &str, text: &str, control: &Control) -> Result<Self, GameError> {
        let graph = Graph::parse(text, file, control).map_err(|error| in_game(error, spec))?;
        // The matching searches keep about a dozen words per vertex beside the graph.
        control.check_memory(|| format!("matching the graph of {file}"), graph.vertex_count() as u128 * 12, 4)?;
        Ok(GeographyGame { control: control.clone(), ..Self::new(spec, file, graph) })
    }

    /// The game on `graph`, under [`Control::default`].
    pub fn new(spec: &str, file: &str, graph: Graph) -> Self {
        GeographyGame {
            spec: spec.to_owned(),
            file: file.to_owned(),
            graph,
            last_classification: Arc::default(),
            control: Control::default(),
        }
    }

    /// The graph.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    fn bad(&self, text: &str, reason: String) -> GameError {
        GameError::BadComponent { game: self.spec.clone(), text: text.to_owned(), reason }
    }

    fn vertex(&self, whole: &str, name: &str) -> Result<u32, GameError> {
        self.graph.vertex(name).ok_or_else(|| self.bad(whole, format!("no vertex `{name}` in {}", self.file)))
    }

    fn parse_path(&self, text: &str) -> Result<Vec<u32>, GameError> {
        // A name may itself contain commas: the whole text as a name wins, then the pieces
        // between commas each as a name, then the one way of grouping them into names of
        // adjacent vertices (how `format_component` prints a path through such a name).
        let path: Vec<u32> = match self.graph.vertex(text) {
            Some(v) => vec![v],
            None => match text.split(',').map(|name| self.vertex(text, name)).collect::<Result<_, _>>() {
                Ok(path) => path,
                Err(error) => self.grouped_path(text).ok_or(error)?,
            },
        };
        let mut seen = vec![false; self.graph.vertex_count()];
        for (index, &v) in path.iter().enumerate() {
            if std::mem::replace(&mut seen[v as usize], true) {
                return Err(self.bad(text, format!("the path visits `{}` twice", self.name(v))));
            }
            if index > 0 && !self.graph.adjacent(path[index - 1], v) {
                return Err(self.bad(
                    text,
                    format!(
                        "`{}` and `{}` are not adjacent in {}",
                        self.name(path[index - 1]),
                        self.name(v),
                        self.file
                    ),
                ));
            }
        }
        Ok(path)
    }

    /// The path `text` spells when vertex names contain commas: its comma-separated pieces
    /// grouped into names, each vertex adjacent to the one before; `None` unless exactly one
    /// grouping fits. Groups are at most as long as the longest name, so this is linear in the
    /// text for a fixed graph.
    fn grouped_path(&self, text: &str) -> Option<Vec<u32>> {
        let longest = self.graph.names().iter().map(|name| name.matches(',').count() + 1).max()?;
        if longest == 1 {
            return None;
        }
        // Piece i is text[starts[i]..starts[i + 1] - 1].
        let mut starts = vec![0];
        starts.extend(text.match_indices(',').map(|(at, _)| at + 1));
        starts.push(text.len() + 1);
        let pieces = starts.len() - 1;
        // ways[i]: the names starting at piece i, as (vertex, pieces it spans, how many ways the
        // rest of the text can follow it, capped at 2, and the next entry of one such way).
        let mut ways: Vec<Vec<(u32, usize, u8, usize)>> = vec![Vec::new(); pieces + 1];
        for first in (0..pieces).rev() {
            for span in 1..=longest.min(pieces - first) {
                let Some(v) = self.graph.vertex(&text[starts[first]..starts[first + span] - 1]) else { continue };
                let rest = first + span;
                let (count, next) = if rest == pieces {
                    (1, 0)
                } else {
                    ways[rest].iter().enumerate().filter(|(_, (w, _, _, _))| self.graph.adjacent(v, *w)).fold(
                        (0u8, 0),
                        |(count, next), (index, &(_, _, more, _))| {
                            (count.saturating_add(more).min(2), if count == 0 && more > 0 { index } else { next })
                        },
                    )
                };
                if count > 0 {
                    ways[first].push((v, span, count, next));
                }
            }
        }
        let total = ways[0].iter().fold(0u8, |total, &(_, _, count, _)| total.saturating_add(count));
        if total != 1 {
            return None;
        }
        let (mut piece, mut entry) = (0, ways[0].iter().position(|&(_, _, count, _)| count > 0)?);
        let mut path = Vec::new();
        while piece < pieces {
            let (v, span, _, next) = ways[piece][entry];
            path.push(v);
            piece += span;
            entry = next;
        }
        Some(path)
    }

    fn token_path(path: &[u32]) -> TokenPath {
        let (&token, earlier) = path.split_last().expect("a path has a vertex");
        TokenPath { earlier: earlier.to_vec(), token }
    }

    fn is_p_position(&self, path: &[u32]) -> bool {
        let position = Self::token_path(path);
        !self.classify_position(&position).in_every_maximum[position.token as usize]
    }

    fn name(&self, v: u32) -> &str {
        &self.graph.names()[v as usize]
    }

    /// The classification of the graph that is left: the earlier vertices removed.
    fn classify_position(&self, position: &TokenPath) -> Arc<Classification> {
        self.classify_without(&position.earlier)
    }

    /// The classification of the graph without `removed`, the last one kept for the next call.
    fn classify_without(&self, removed: &[u32]) -> Arc<Classification> {
        // A poisoned lock only means a panic elsewhere: the cache is then merely empty or valid.
        let mut last = self.last_classification.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((kept_removed, classification)) = last.as_ref()
            && kept_removed == removed
        {
            return Arc::clone(classification);
        }
        let classification =
            Arc::new(if removed.is_empty() { classify(&self.graph) } else { classify(&self.graph.without(removed)) });
        *last = Some((removed.to_vec(), Arc::clone(&classification)));
        classification
    }

    /// The path a position text describes, as written (`a,b,c`).
    fn path_text(&self, position: &TokenPath) -> String {
        let mut names: Vec<&str> = position.earlier.iter().map(|&v| self.name(v)).collect();
        names.push(self.name(position.token));
        names.join(",")
    }

    /// The Grundy value by exhaustive search, or `None` past [`EXHAUSTIVE_LIMIT`] states or 64
    /// vertices in the token's region.
    fn exhaustive_value(&self, position: &TokenPath) -> Result<Option<u64>, usize> {
        // The token's region: unvisited vertices reachable from it, and the token itself.
        let mut visited = vec![false; self.graph.vertex_count()];
        for &v in &position.earlier {
            visited[v as usize] = true;
        }
        let mut local = vec![u32::MAX; self.graph.vertex_count()];
        let mut region = vec![position.token];
        local[position.token as usize] = 0;
        let mut head = 0;
        while head < region.len() {
            let v = region[head];
            head += 1;
            for &w in self.graph.neighbours(v) {
                if !visited[w as usize] && local[w as usize] == u32::MAX {
                    if region.len() == 64 {
                        return Err(region.len() + 1);
                    }
                    local[w as usize] = region.len() as u32;
                    region.push(w);
                }
            }
        }
        let lists: Vec<Vec<u32>> = region
            .iter()
            .map(|&v| self.graph.neighbours(v).iter().map(|&w| local[w as usize]).filter(|&w| w != u32::MAX).collect())
            .collect();
        let game = PathGame::new(&lists);
        match Solver::with_control(&game, EXHAUSTIVE_LIMIT, &self.control).grundy_value(&game.start(0)) {
            Ok(value) => Ok(Some(value.0)),
            Err(_) => Ok(None),
        }
    }
}

impl ComponentGame for GeographyGame {
    fn provide(self: Arc<Self>, request: &mut Request) {
        request.give::<OneComponentOnly>(|| self.one_component_only());
        request.give::<PlayedOn>(|| self.graph_view());
        request.give::<Tabulation>(|| self as Arc<dyn Tabulate>);
    }

    type Component = Vec<u32>;

    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn component_noun(&self) -> &'static str {
        "token"
    }

    fn parse_component(&self, text: &str) -> Result<Vec<u32>, GameError> {
        if text.is_empty() {
            return Err(self.bad(text, "give the token's vertex `v`, or the path so far `v1,v2,…`".to_owned()));
        }
        self.parse_path(text)
    }

    fn format_component(&self, path: &Vec<u32>) -> String {
        self.path_text(&Self::token_path(path))
    }

    fn describe_component(&self, path: &Vec<u32>) -> String {
        let position = Self::token_path(path);
        format!("on {}; visited: {}", self.name(position.token), self.path_text(&position).replace(',', ", "))
    }

    fn options(&self, path: &Vec<u32>, limit: usize) -> Result<Vec<ComponentMove<Vec<u32>>>, GameError> {
        let position = Self::token_path(path);
        let from = self.name(position.token);
        let mut moves = Vec::new();
        for &w in self.graph.neighbours(position.token) {
            if path.contains(&w) {
                continue;
            }
            if moves.len() == limit {
                return Err(too_many_moves(&self.spec, &self.path_text(&position), limit));
            }
            let mut next = path.clone();
            next.push(w);
            moves.push(ComponentMove::new(vec![next], format!("{from} -> {}", self.name(w))));
        }
        Ok(moves)
    }

    fn value(&self, path: &Vec<u32>) -> Result<Value, GameError> {
        let position = Self::token_path(path);
        let too_big = |what: String| {
            GameError::OutOfReach(format!(
                "the Grundy value of geography needs an exhaustive search over paths, and {what}; `grundy outcome` and `grundy moves` answer for any size by the maximum-matching rule"
            ))
        };
        match self.exhaustive_value(&position) {
            Ok(Some(value)) => Ok(Value::from(value)),
            Ok(None) => Err(too_big(format!("this one passed {EXHAUSTIVE_LIMIT} positions"))),
            Err(_) => Err(too_big("the token's region has more than 64 vertices".to_owned())),
        }
    }

    /// The matching rule, at any size.
    fn outcome(&self, path: &Vec<u32>) -> Result<Outcome, GameError> {
        Ok(if self.is_p_position(path) { Outcome::P } else { Outcome::N })
    }

    /// Every move to a P-position, from at most two classifications, whatever the degree.
    ///
    /// Let `G` be the graph left (the earlier vertices removed) and `v` the token, covered by
    /// every maximum matching (else no move wins). Then `ν(G − v) = ν(G) − 1`, and a maximum
    /// matching of `G − v` that misses a neighbour `w` plus the edge `vw` is a maximum matching
    /// of `G`, and back: the move to `w` wins iff some maximum matching of `G` uses `vw`. By
    /// the Gallai–Edmonds decomposition `D`, `A = N(D) − D`, `C` of `G` (Lovász–Plummer
    /// §3.2): if `v` has a neighbour in `D`, `v ∈ A`; maximum matchings match `A` into
    /// distinct components of `D` with surplus, so each edge from `v` into `D` is in one, and
    /// none to `A` or `C` is. Otherwise `v ∈ C`, and the one graph every move leaves, `G − v`,
    /// is classified once. The definition — classify what each move leaves — is the test.
    fn moves_to_p(&self, path: &Vec<u32>) -> Result<Vec<ComponentMove<Vec<u32>>>, GameError> {
        let position = Self::token_path(path);
        let left = self.classify_position(&position);
        let missable = |classification: &Classification, w: u32| !classification.in_every_maximum[w as usize];
        if missable(&left, position.token) {
            return Ok(Vec::new());
        }
        let options = self.options(path, usize::MAX)?;
        let to = |one: &ComponentMove<Vec<u32>>| *one.result[0].last().expect("a move adds a vertex");
        if options.iter().any(|one| missable(&left, to(one))) {
            return Ok(options.into_iter().filter(|one| missable(&left, to(one))).collect());
        }
        let after = self.classify_without(path);
        Ok(options.into_iter().filter(|one| missable(&after, to(one))).collect())
    }

    fn p_position_reason(&self, path: &Vec<u32>) -> Option<String> {
        let position = Self::token_path(path);
        let token = self.name(position.token);
        self.is_p_position(path).then(|| {
            format!(
                "some maximum matching of the vertices left misses {token}, a P-position (answer every move with the mate of the vertex entered)"
            )
        })
    }
}

impl GeographyGame {
    fn one_component_only(&self) -> String {
        format!(
            "geography has one token: two tokens on one board would share the visited vertices, which is not a sum of games (for separate boards write `{0} a + {0} b`)",
            self.spec
        )
    }

    fn graph_view(&self) -> GraphView {
        let edges = (0..self.graph.vertex_count() as u32)
            .flat_map(|u| self.graph.neighbours(u).iter().filter(move |&&v| u < v).map(move |&v| (u, v)))
            .collect();
        GraphView { names: self.graph.names().to_vec(), edges, directed: false }
    }
}

impl Tabulate for GeographyGame {
    fn table(&self, size: Option<u64>) -> Result<Table, GameError> {
        if size.is_some() {
            return Err(GameError::BadGame {
                spec: self.spec.clone(),
                reason: "--size applies to two-heap games; a graph's table lists every vertex".to_owned(),
            });
        }
        let classification = classify(&self.graph);
        vertex_table(&self.control, self.graph.vertex_count(), |v| VertexEntry {
            name: self.graph.names()[v].clone(),
            value: None,
            outcome: if classification.in_every_maximum[v] { Outcome::N } else { Outcome::P },
        })
    }
}

/// The edges of the `rows × columns` grid graph, vertex `r * columns + c`.
pub fn grid_edges(rows: u32, columns: u32) -> Vec<(u32, u32)> {
    let mut edges = Vec::new();
    for r in 0..rows {
        for c in 0..columns {
            let v = r * columns + c;
            if c + 1 < columns {
                edges.push((v, v + 1));
            }
            if r + 1 < rows {
                edges.push((v, v + columns));
            }
        }
    }
    edges
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::matching::tests::random_graph;
    use crate::position::ComponentKind;
    use crate::ruleset::{Ruleset, erase};
    use crate::sum::Position;
    use crate::testing::{at, destinations, winning_destinations};
    use crate::view::Views;
    use proptest::prelude::*;
    use std::collections::BTreeSet;
    use std::sync::Arc;

    fn adjacency_lists(graph: &Graph) -> Vec<Vec<u32>> {
        (0..graph.vertex_count() as u32).map(|v| graph.neighbours(v).to_vec()).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Exhaustive search over all paths agrees with the matching rule, from every start
        /// vertex, on random graphs of up to 12 vertices (general: odd cycles included).
        #[test]
        fn matching_rule_agrees_with_exhaustive_search(graph in random_graph(12, false)) {
            check_every_start(&graph)?;
        }

        /// The same on bipartite graphs (Hopcroft–Karp's path).
        #[test]
        fn matching_rule_agrees_on_bipartite_graphs(graph in random_graph(12, true)) {
            check_every_start(&graph)?;
        }

        /// Positions after a few moves: follow random legal moves, then compare again.
        #[test]
        fn positions_after_moves_agree_with_exhaustive_search(
            graph in random_graph(10, false),
            start in 0u32..10,
            choices in proptest::collection::vec(0usize..10, 0..4),
        ) {
            let start = start % graph.vertex_count() as u32;
            let mut path = vec![start];
            for choice in choices {
                let at = *path.last().unwrap();
                let open: Vec<u32> = graph.neighbours(at).iter().copied().filter(|w| !path.contains(w)).collect();
                if open.is_empty() {
                    break;
                }
                path.push(open[choice % open.len()]);
            }
            let game = GeographyGame::new("geography:t", "t", graph.clone());
            let text = path.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
            let reference = PathGame::new(&adjacency_lists(&graph));
            let visited = path.iter().fold(0u64, |mask, &v| mask | 1 << v);
            let value = Solver::new(&reference).grundy_value(&(visited, *path.last().unwrap())).unwrap().0;
            let expected = if value == 0 { Outcome::P } else { Outcome::N };
            let position = at(&erase(game.clone()), &[&text]).unwrap();
            prop_assert_eq!(position.outcome().unwrap(), expected);
            prop_assert_eq!(position.value().unwrap(), Value::from(value));
            check_winning_moves(&game, &position, &reference, visited)?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The moves to P derived from the Gallai–Edmonds classes agree with the definition
        /// (classify the graph each move leaves, one classification per move) on random
        /// graphs too large for exhaustive search, from every start vertex and after a move.
        #[test]
        fn moves_to_p_agree_with_one_classification_per_move(
            graph in random_graph(40, false),
            bipartite in random_graph(40, true),
        ) {
            for graph in [graph, bipartite] {
                let game = GeographyGame::new("geography:t", "t", graph.clone());
                for v in 0..graph.vertex_count() as u32 {
                    let mut paths = vec![vec![v]];
                    paths.extend(graph.neighbours(v).first().map(|&w| vec![v, w]));
                    for path in paths {
                        let by_definition: Vec<Vec<u32>> = game
                            .options(&path, usize::MAX)
                            .unwrap()
                            .into_iter()
                            .map(|one| one.result[0].clone())
                            .filter(|after| !game.is_p_position(&path) && game.is_p_position(after))
                            .collect();
                        let derived: Vec<Vec<u32>> =
                            game.moves_to_p(&path).unwrap().into_iter().map(|one| one.result[0].clone()).collect();
                        prop_assert_eq!(derived, by_definition, "path {:?}", path);
                    }
                }
            }
        }
    }

    /// The winning moves listed are exactly the legal moves that lead to a P-position by
    /// exhaustive search (some iff the position is N), and the matching rule's moves to P
    /// ([`ComponentGame::moves_to_p`], used where the value is out of reach) are the same.
    fn check_winning_moves(
        game: &GeographyGame,
        position: &Position,
        reference: &PathGame,
        visited: u64,
    ) -> Result<(), TestCaseError> {
        let mut solver = Solver::new(reference);
        let path = match position.parts[0].components.as_slice() {
            [component] => Vec::<u32>::from_component(component).expect("a path"),
            other => panic!("one path, not {other:?}"),
        };
        let token = *path.last().unwrap();
        let expected: BTreeSet<String> = game
            .graph()
            .neighbours(token)
            .iter()
            .filter(|&&w| visited & (1 << w) == 0)
            .filter(|&&w| solver.grundy_value(&(visited | 1 << w, w)).unwrap().0 == 0)
            .map(|&w| format!("{},{w}", game.format_component(&path)))
            .collect();
        let listed = winning_destinations(position).unwrap();
        prop_assert_eq!(listed.len(), expected.len(), "a move listed twice: {:?}", listed);
        prop_assert_eq!(listed.into_iter().collect::<BTreeSet<_>>(), expected.clone());
        let outcome = position.outcome().unwrap();
        prop_assert_eq!(expected.is_empty(), outcome == Outcome::P);
        let by_matching: BTreeSet<String> =
            game.moves_to_p(&path).unwrap().into_iter().map(|one| game.format_component(&one.result[0])).collect();
        prop_assert_eq!(by_matching, expected);
        Ok(())
    }

    fn check_every_start(graph: &Graph) -> Result<(), TestCaseError> {
        let game = GeographyGame::new("geography:t", "t", graph.clone());
        let erased = erase(game.clone());
        let reference = PathGame::new(&adjacency_lists(graph));
        let mut solver = Solver::new(&reference);
        let Some(Ok(Table::Vertices(table))) = erased.table(None) else { panic!("a graph has a table") };
        for v in 0..graph.vertex_count() as u32 {
            let value = solver.grundy_value(&reference.start(v)).unwrap().0;
            let expected = if value == 0 { Outcome::P } else { Outcome::N };
            prop_assert_eq!(table[v as usize].outcome, expected, "vertex {}", v);
            let position = at(&erased, &[&v.to_string()]).unwrap();
            prop_assert_eq!(position.outcome().unwrap(), expected);
            check_winning_moves(&game, &position, &reference, 1 << v)?;
        }
        Ok(())
    }

    fn outcome(game: &Arc<dyn Ruleset>, texts: &[&str]) -> Result<Outcome, GameError> {
        at(game, texts)?.outcome()
    }

    #[test]
    fn grid_from_a_corner_is_won_iff_the_side_is_even() {
        for n in 1..=12u32 {
            let graph = Graph::unnamed((n * n) as usize, &grid_edges(n, n));
            let game = erase(GeographyGame::new("geography:grid", "grid", graph));
            let expected = if n % 2 == 0 { Outcome::N } else { Outcome::P };
            assert_eq!(outcome(&game, &["0"]).unwrap(), expected, "{n}x{n}");
            if n <= 4 {
                let value = at(&game, &["0"]).unwrap().value().unwrap();
                assert_eq!(value.outcome(), expected, "{n}x{n} by exhaustive search");
            }
        }
    }

    #[test]
    fn bad_positions_are_named() {
        let game =
            erase(GeographyGame::parse("geography:g", "g", "a b\nb c\n", &crate::control::Control::default()).unwrap());
        for (text, needle) in [
            ("z", "no vertex `z` in g"),
            ("a,c", "`a` and `c` are not adjacent in g"),
            ("a,b,a", "visits `a` twice"),
            ("", "the token's vertex"),
        ] {
            let error = outcome(&game, &[text]).unwrap_err().to_string();
            assert!(error.contains(needle), "{error}");
        }
    }

    #[test]
    fn paths_through_names_with_commas_read_back() {
        // `x,y` is one vertex: the path x,y then z prints as `x,y,z` and reads back.
        let game = erase(
            GeographyGame::parse("geography:g", "g", "x,y z\nz w\nz x\n", &crate::control::Control::default()).unwrap(),
        );
        let start = at(&game, &["x,y"]).unwrap();
        let moves = start.options(10).unwrap();
        assert_eq!(destinations(&start, &moves), ["x,y,z"]);
        let after = at(&game, &["x,y,z"]).unwrap();
        assert_eq!(after.parts[0].components, start.after(&moves[0]).parts[0].components);
        assert_eq!(at(&game, &["x,y,z,w"]).unwrap().to_text(), "x,y,z,w");
        // Pieces that are all names keep their plain reading; `x` then `y` is no path.
        assert_eq!(at(&game, &["z,x"]).unwrap().to_text(), "z,x");
        let error = at(&game, &["x,y,w"]).unwrap_err().to_string();
        assert!(error.contains("no vertex `y` in g"), "{error}");
    }

    #[test]
    fn one_token_a_board_and_separate_boards_are_a_sum() {
        use crate::registry::parse_sum_with;
        // The path a - b - c: G(a) = 0 (to b, then b -> c ends it), G(b) = 1 (to a or c, both
        // dead ends). Two tokens on one board would share the visited vertices: refused.
        let game =
            erase(GeographyGame::parse("geography:g", "g", "a b\nb c\n", &crate::control::Control::default()).unwrap());
        let value = |texts: &[&str]| at(&game, texts).unwrap().value().unwrap().to_string();
        assert_eq!((value(&["a"]), value(&["b"])), ("0".to_owned(), "1".to_owned()));
        let refused = at(&game, &["a", "b"]).unwrap_err().to_string();
        assert!(refused.contains("one token"), "{refused}");
        // Two boards, written as a sum: a + b is worth 0 ⊕ 1.
        let read = |_: &str| Ok("a b\nb c\n".to_owned());
        let sum = parse_sum_with(&["geography:g", "a", "+", "geography:g", "b"], &read).unwrap();
        assert_eq!(sum.value().unwrap().to_string(), "1");
        // Winning moves of a + b: token 2 from b to a dead end on its own board (b,a or b,c,
        // worth 0), or token 1 from a to b (a,b is worth 1, as much as token 2).
        let mut moves = winning_destinations(&sum).unwrap();
        moves.sort();
        assert_eq!(
            moves,
            ["geography:g a + geography:g b,a", "geography:g a + geography:g b,c", "geography:g a,b + geography:g b"]
        );
    }

    #[test]
    fn every_move_edges_and_the_engine_follow_the_rules() {
        use crate::play::{Chooser, engine_move};
        let game = erase(
            GeographyGame::parse("geography:g", "g", "a b\nb c\nc d\nb d\n", &crate::control::Control::default())
                .unwrap(),
        );
        let after_ab = at(&game, &["a,b"]).unwrap();
        let moves = after_ab.options(10).unwrap();
        let notations: Vec<&str> = moves.iter().map(|m| m.notation.as_str()).collect();
        assert_eq!(notations, ["b -> c", "b -> d"]);
        assert_eq!(destinations(&after_ab, &moves), ["a,b,c", "a,b,d"]);
        assert!(after_ab.options(1).is_err());
        assert_eq!(game.graph().unwrap().edges.len(), 4);
        assert_eq!(after_ab.describe(), ["token 1: on b; visited: a, b"]);
        // From a (in every maximum matching of the path-with-a-triangle), the engine takes the
        // matching move, and from a large grid corner it still moves (value unknown there).
        let from_a = at(&game, &["a"]).unwrap();
        let reply = engine_move(&from_a, &mut Chooser::new(3)).unwrap().unwrap();
        assert_eq!(from_a.after(&reply.chosen).to_text(), "a,b");
        let grid = erase(GeographyGame::new("geography:grid", "grid", Graph::unnamed(100, &grid_edges(10, 10))));
        let corner = at(&grid, &["0"]).unwrap();
        let reply = engine_move(&corner, &mut Chooser::new(3)).unwrap().unwrap();
        assert_eq!(corner.after(&reply.chosen).outcome().unwrap(), Outcome::P);
    }

    #[test]
    fn value_of_a_large_region_is_refused_plainly() {
        let graph = Graph::unnamed(100, &grid_edges(10, 10));
        let game = erase(GeographyGame::new("geography:grid", "grid", graph));
        let error = at(&game, &["0"]).unwrap().value().unwrap_err().to_string();
        assert!(error.contains("more than 64 vertices") && error.contains("grundy outcome"), "{error}");
        assert_eq!(outcome(&game, &["0"]).unwrap(), Outcome::N);
    }
}
