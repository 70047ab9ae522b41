//! `dag:FILE`: tokens on a directed graph. A move slides one token along one edge (`u v` lets a
//! token on `u` move to `v`); several tokens may share a vertex; who cannot move loses.
//!
//! **Values.** On an acyclic graph each vertex's Grundy value comes from one topological pass
//! ([`crate::graph::retrograde`]) and a position's value is the nim-sum of its tokens' values
//! (the Sprague–Grundy theorem; seed `002_e2faf50696f52a16.txt`, Part 2). With cycles, each
//! vertex gets Smith's generalized value, finite or `∞(K)` ([`crate::graph::loopy`]), and a
//! position is valued by Smith's sum rules ([`crate::sum`]): `P` iff every
//! token is finite with nim-sum 0; `N` iff one token is `∞(K)`, the others finite with nim-sum
//! `a ∈ K`, or all finite with nim-sum ≠ 0; otherwise `D`, a draw.
//!
//! **Winning moves** are all the moves to `P`-positions: with all tokens finite and nim-sum
//! `t ≠ 0`, a token of value `g` moves to a successor of value `g ⊕ t`; with one `∞` token and
//! the others' nim-sum `a ∈ K`, that token moves to a successor of value `a`. A draw (`D`) has
//! no winning move — every move leads to `N` or `D` — so none is listed; the player keeps the
//! draw by moving to a `D`-position, which exists (else the position would be `P`).

use crate::control::Control;
use crate::error::GameError;
use crate::graph::digraph::{Digraph, in_game};
use crate::graph::loopy::{GeneralizedGrundy, INFINITE};
use crate::ruleset::{ComponentGame, ComponentMove, Request, too_many_moves};
use crate::value::Value;
use crate::view::{GraphView, PlayedOn, Table, Tabulate, Tabulation, VertexEntry, vertex_table};
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::sync::Arc;

/// The `dag:FILE` family: the graph of one file, every vertex labelled once.
///
/// ```
/// use grundy::graph::dag::DagGame;
/// use grundy::ruleset::erase;
/// use grundy::sum::Position;
/// // a → b → c, a → c: G = 2, 1, 0. With a loop d ⇄ e beside them.
/// let game = erase(DagGame::parse("dag:g.txt", "g.txt", "a b\nb c\na c\nd e\ne d\ne c\n", &grundy::control::Control::default()).unwrap());
/// let tokens = |names: &[&str]| Position::parse_single(game.clone(), names).unwrap();
/// assert_eq!(tokens(&["a", "b", "b"]).value().unwrap().to_string(), "2");
/// let moves = tokens(&["a", "b"]).winning_moves().unwrap();
/// assert_eq!(tokens(&["a", "b"]).after(&moves[0]).to_text(), "b b");
/// assert_eq!(tokens(&["e"]).value().unwrap().to_string(), "1");
/// assert_eq!(tokens(&["d"]).value().unwrap().to_string(), "0");
/// ```
#[derive(Clone, Debug)]
pub struct DagGame {
    spec: String,
    file: String,
    graph: Digraph,
    labels: GeneralizedGrundy,
    /// The memory limit of its tables.
    control: Control,
}

impl DagGame {
    /// Reads the edge list `text` of `file` and labels every vertex; `spec` is the game text.
    ///
    /// # Errors
    /// A malformed line (naming `file` and the line), or a graph too large for memory.
    pub fn parse(spec: &str, file: &str, text: &str, control: &Control) -> Result<Self, GameError> {
        let graph = Digraph::parse(text, file, control).map_err(|error| in_game(error, spec))?;
        Self::new(spec, file, graph, control)
    }

    /// The game on `graph`.
    ///
    /// # Errors
    /// [`GameError::TooLarge`] when the labelling's arrays would not fit in memory.
    pub fn new(spec: &str, file: &str, graph: Digraph, control: &Control) -> Result<Self, GameError> {
        // Labels, counters, marks and seeds: about six words per vertex, one per edge.
        let entries = graph.vertex_count() as u128 * 6 + graph.edge_count() as u128;
        control.check_memory(|| format!("labelling the graph of {file}"), entries, 4)?;
        let labels = GeneralizedGrundy::compute(&graph);
        Ok(DagGame { spec: spec.to_owned(), file: file.to_owned(), graph, labels, control: control.clone() })
    }

    /// The graph.
    pub fn graph(&self) -> &Digraph {
        &self.graph
    }

    /// The generalized Grundy labels.
    pub fn labels(&self) -> &GeneralizedGrundy {
        &self.labels
    }

    fn token(&self, text: &str) -> Result<u32, GameError> {
        self.graph.vertex(text).ok_or_else(|| GameError::BadComponent {
            game: self.spec.clone(),
            text: text.to_owned(),
            reason: format!("no vertex `{text}` in {}", self.file),
        })
    }

    fn notation(&self, from: u32, to: u32) -> String {
        format!("{} -> {}", self.name(from), self.name(to))
    }

    fn name(&self, v: u32) -> &str {
        &self.graph.names()[v as usize]
    }

    /// Every successor of `from` with finite value `target`, once each.
    fn successors_valued(&self, from: u32, target: u64) -> Vec<u32> {
        let mut found: Vec<u32> = self
            .graph
            .successors(from)
            .iter()
            .copied()
            .filter(|&w| self.labels.label(w) != INFINITE && u64::from(self.labels.label(w)) == target)
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }
}

impl ComponentGame for DagGame {
    fn provide(self: Arc<Self>, request: &mut Request) {
        request.give::<PlayedOn>(|| self.graph_view());
        request.give::<Tabulation>(|| self as Arc<dyn Tabulate>);
    }

    type Component = u32;

    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn component_noun(&self) -> &'static str {
        "token"
    }

    fn parse_component(&self, text: &str) -> Result<u32, GameError> {
        self.token(text)
    }

    fn format_component(&self, &v: &u32) -> String {
        self.name(v).to_owned()
    }

    fn describe_component(&self, &v: &u32) -> String {
        format!("on {} (value {})", self.name(v), self.labels.value(&self.graph, v))
    }

    fn options(&self, &from: &u32, limit: usize) -> Result<Vec<ComponentMove<u32>>, GameError> {
        let mut targets = self.graph.successors(from).to_vec();
        targets.sort_unstable();
        targets.dedup();
        if targets.len() > limit {
            return Err(too_many_moves(&self.spec, self.name(from), limit));
        }
        Ok(targets.into_iter().map(|to| ComponentMove::new(vec![to], self.notation(from, to))).collect())
    }

    fn value(&self, &v: &u32) -> Result<Value, GameError> {
        Ok(self.labels.value(&self.graph, v))
    }

    fn moves_to_value(&self, &from: &u32, target: &BigUint) -> Result<Vec<ComponentMove<u32>>, GameError> {
        let Some(target) = target.to_u64() else { return Ok(Vec::new()) };
        Ok(self
            .successors_valued(from, target)
            .into_iter()
            .map(|to| ComponentMove::new(vec![to], self.notation(from, to)))
            .collect())
    }
}

impl DagGame {
    fn graph_view(&self) -> GraphView {
        let edges = (0..self.graph.vertex_count() as u32)
            .flat_map(|u| self.graph.successors(u).iter().map(move |&v| (u, v)))
            .collect();
        GraphView { names: self.graph.names().to_vec(), edges, directed: true }
    }
}

impl Tabulate for DagGame {
    fn table(&self, size: Option<u64>) -> Result<Table, GameError> {
        if size.is_some() {
            return Err(GameError::BadGame {
                spec: self.spec.clone(),
                reason: "--size applies to two-heap games; a graph's table lists every vertex".to_owned(),
            });
        }
        vertex_table(&self.control, self.graph.vertex_count(), |v| VertexEntry {
            name: self.name(v as u32).to_owned(),
            value: Some(self.labels.value(&self.graph, v as u32)),
            outcome: self.labels.outcome(&self.graph, v as u32),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Outcome;
    use crate::ruleset::{Ruleset, erase};
    use crate::solve::definition::Definition;
    use crate::testing::{at, winning_destinations};
    use crate::view::Views;
    use proptest::prelude::*;
    use std::sync::Arc;

    fn value(game: &Arc<dyn Ruleset>, tokens: &[&str]) -> String {
        at(game, tokens).unwrap().value().unwrap().to_string()
    }

    fn outcome(game: &Arc<dyn Ruleset>, tokens: &[&str]) -> Outcome {
        at(game, tokens).unwrap().outcome().unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// On random DAGs, a sum of up to three tokens: value against the memo solver on the sum
        /// by the definition, and every listed move is legal and lands on value 0; a position
        /// with nonzero value lists at least one move.
        #[test]
        fn token_sums_on_dags_agree_with_the_definition(
            n in 2usize..12,
            pairs in proptest::collection::vec((0u32..12, 0u32..12), 0..30),
            tokens in proptest::collection::vec(0u32..12, 0..4),
        ) {
            let edges: Vec<(u32, u32)> = pairs
                .into_iter()
                .map(|(u, v)| (u % n as u32, v % n as u32))
                .filter(|(u, v)| u < v)
                .collect();
            let graph = Digraph::unnamed(n, &edges);
            let game = erase(DagGame::new("dag:t", "t", graph.clone(), &crate::control::Control::default()).unwrap());
            let tokens: Vec<u32> = tokens.into_iter().map(|t| t % n as u32).collect();
            let texts: Vec<String> = tokens.iter().map(|t| t.to_string()).collect();
            let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
            let position = at(&game, &texts).unwrap();
            let components: Vec<_> = texts.iter().map(|text| game.parse_component(text).unwrap()).collect();
            let expected = Definition::new(game.clone()).value(&components).unwrap().0;
            prop_assert_eq!(position.value().unwrap(), Value::from(expected));
            let moves = position.winning_moves().unwrap();
            prop_assert_eq!(moves.is_empty(), expected == 0);
            for winning in moves {
                let after = position.after(&winning);
                prop_assert_eq!(after.value().unwrap(), Value::from(0u64));
                let from = tokens[winning.component];
                let to_text = after.to_text();
                let to_name = to_text.split(' ').nth(winning.component).unwrap();
                let to = graph.vertex(to_name).unwrap();
                prop_assert!(graph.successors(from).contains(&to));
            }
        }
    }

    #[test]
    fn draws_and_escapes_with_several_tokens() {
        // d ⇄ e with an exit e → c to the sink c: c = 0, d = 0, e = 1 (finite despite the
        // cycle). x → x with an exit x → c: ∞(0), won by escaping to c.
        let text = "d e\ne d\ne c\nx x\nx c\n";
        let game = erase(DagGame::parse("dag:g", "g", text, &crate::control::Control::default()).unwrap());
        assert_eq!(value(&game, &["x"]), "∞(0)");
        assert_eq!(outcome(&game, &["x"]), Outcome::N);
        assert_eq!(winning_destinations(&at(&game, &["x"]).unwrap()).unwrap(), ["c"]);
        // x + e: ∞(0) ⊕ 1 = ∞(1): a draw, no winning move.
        assert_eq!(value(&game, &["x", "e"]), "∞(1)");
        assert_eq!(outcome(&game, &["x", "e"]), Outcome::D);
        assert!(at(&game, &["x", "e"]).unwrap().winning_moves().unwrap().is_empty());
        // x + x: two ∞ parts, a draw.
        assert_eq!(outcome(&game, &["x", "x"]), Outcome::D);
        let every: Vec<String> =
            at(&game, &["e", "x"]).unwrap().options(10).unwrap().into_iter().map(|m| m.notation).collect();
        assert_eq!(every, ["e -> d", "e -> c", "x -> c", "x -> x"]);
        assert_eq!(game.graph().unwrap().edges.len(), 5);
        assert_eq!(at(&game, &["x"]).unwrap().describe(), ["token 1: on x (value ∞(0))"]);
        // From a draw the engine keeps the draw: p ⇄ q loop; p → n → z would hand the win over.
        let trap =
            erase(DagGame::parse("dag:h", "h", "p q\nq p\np n\nn z\n", &crate::control::Control::default()).unwrap());
        assert_eq!(value(&trap, &["p"]), "∞(1)");
        assert_eq!(outcome(&trap, &["p"]), Outcome::D);
        let start = at(&trap, &["p"]).unwrap();
        for seed in 0..8 {
            let mut chooser = crate::play::Chooser::new(seed);
            let reply = crate::play::engine_move(&start, &mut chooser).unwrap().unwrap();
            assert_eq!(start.after(&reply.chosen).to_text(), "q", "seed {seed}");
        }
        let error = at(&game, &["nowhere"]).unwrap_err().to_string();
        assert!(error.contains("no vertex `nowhere` in g"), "{error}");
    }

    proptest::proptest! {
        /// A contest-layout file answers as the same graph written as an edge list (vertices
        /// named by their numbers; an isolated vertex, absent from the edge list, has value 0).
        #[test]
        fn contest_layout_answers_as_the_edge_list(
            vertices in 1u32..9,
            raw_edges in proptest::collection::vec((0u32..9, 0u32..9), 0..16),
        ) {
            use crate::graph::digraph::{EdgeList, Layout};
            use crate::ruleset::ComponentGame;
            let edges: Vec<(u32, u32)> =
                raw_edges.into_iter().map(|(u, v)| (u % vertices + 1, v % vertices + 1)).collect();
            let body: String = edges.iter().map(|(u, v)| format!("{u} {v}\n")).collect();
            let contest = DagGame::parse("dag:c", "c", &format!("{vertices} {}\n{body}", edges.len()), &crate::control::Control::default()).unwrap();
            let (_, layout) = EdgeList::parse_with_layout(&format!("{vertices} {}\n{body}", edges.len()), "c", &crate::control::Control::default()).unwrap();
            proptest::prop_assert_eq!(layout, Layout::Contest { vertices, edges: edges.len() as u64 });
            // The edge list names vertex k `vk`, so that it cannot itself read as a contest file.
            let named: String = edges.iter().map(|(u, v)| format!("v{u} v{v}\n")).collect();
            let plain = (!edges.is_empty()).then(|| DagGame::parse("dag:p", "p", &named, &crate::control::Control::default()).unwrap());
            for vertex in 1..=vertices {
                let at_contest = contest.parse_component(&vertex.to_string()).unwrap();
                let from_contest = contest.value(&at_contest).unwrap().to_string();
                let plain_name = format!("v{vertex}");
                let from_plain = match &plain {
                    Some(plain) if plain.graph().vertex(&plain_name).is_some() => {
                        plain.value(&plain.parse_component(&plain_name).unwrap()).unwrap().to_string()
                    }
                    _ => "0".to_owned(),
                };
                proptest::prop_assert_eq!(from_contest, from_plain, "vertex {}", vertex);
            }
        }
    }
}
