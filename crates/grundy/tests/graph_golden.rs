//! Graph games against published and classical results, through the front end
//! (`registry::parse_game_with` with an in-memory "file").

use grundy::Outcome;
use grundy::registry::parse_game_with;
use grundy::ruleset::Ruleset;
use grundy::sum::Position;
use grundy::view::{Table, Views};
use std::sync::Arc;

/// Parses `game` whose FILE parameter reads `text`.
fn game_on(game: &str, text: String) -> Arc<dyn Ruleset> {
    parse_game_with(game, &move |_path| Ok(text.clone())).unwrap()
}

/// The position of `game` with these components.
fn at(game: &Arc<dyn Ruleset>, texts: &[&str]) -> Position {
    Position::parse_single(game.clone(), texts).unwrap()
}

fn table(ruleset: &dyn Ruleset) -> Vec<(String, Option<String>, Outcome)> {
    let Some(Ok(Table::Vertices(vertices))) = ruleset.table(None) else { panic!("a graph game has a table") };
    vertices.into_iter().map(|v| (v.name, v.value.map(|value| value.to_string()), v.outcome)).collect()
}

/// Wythoff's game written out as a directed graph on positions `x_y` (move: lower one heap, or
/// both by the same amount) has, vertex by vertex, the published Grundy values.
#[test]
fn wythoff_as_a_graph_matches_the_published_triangle() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wythoff_grundy_triangle.txt"))
        .unwrap();
    let rows: Vec<Vec<u64>> = text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| line.split_whitespace().map(|value| value.parse().unwrap()).collect())
        .collect();
    let side = rows.len() as u64;
    let mut edges = String::from("# Wythoff's game as a graph\n");
    for x in 0..side {
        for y in 0..side {
            for smaller in 0..x {
                edges.push_str(&format!("{x}_{y} {smaller}_{y}\n"));
            }
            for smaller in 0..y {
                edges.push_str(&format!("{x}_{y} {x}_{smaller}\n"));
            }
            for step in 1..=x.min(y) {
                edges.push_str(&format!("{x}_{y} {}_{}\n", x - step, y - step));
            }
        }
    }
    let game = game_on("dag:wythoff.txt", edges);
    let mut checked = 0;
    for (x, row) in rows.iter().enumerate() {
        for (y, &published) in row.iter().enumerate() {
            for position in [format!("{x}_{y}"), format!("{y}_{x}")] {
                let value = at(&game, &[&position]).value().unwrap();
                assert_eq!(value.to_string(), published.to_string(), "G({position})");
                checked += 1;
            }
        }
    }
    assert!(checked > 100);
    // A sum of two positions on the same graph is the nim-sum (4 ⊕ 7 = 3).
    assert_eq!(at(&game, &["4_0", "7_0"]).value().unwrap().to_string(), "3");
}

/// The subtraction game S = {1, 3, 4} as a graph: the published nim-sequence, period 7
/// `0 1 0 1 2 3 2` (Berlekamp, Conway and Guy, *Winning Ways*, ch. 4).
#[test]
fn subtraction_game_as_a_graph_has_the_published_period() {
    let n = 70;
    let mut edges = String::new();
    for heap in 1..n {
        for take in [1, 3, 4] {
            if take <= heap {
                edges.push_str(&format!("h{heap} h{}\n", heap - take));
            }
        }
    }
    let game = game_on("dag:sub.txt", edges);
    for heap in 0..n {
        let expected = [0, 1, 0, 1, 2, 3, 2][heap % 7];
        let value = at(&game, &[&format!("h{heap}")]).value().unwrap();
        assert_eq!(value.to_string(), expected.to_string(), "heap {heap}");
    }
}

fn edge_text(edges: &[(usize, usize)]) -> String {
    edges.iter().map(|(u, v)| format!("v{u} v{v}\n")).collect()
}

fn outcomes(game: &dyn Ruleset) -> Vec<Outcome> {
    table(game)
        .into_iter()
        .map(|(_, value, outcome)| {
            assert_eq!(value, None, "geography lists no values");
            outcome
        })
        .collect()
}

/// Classical graphs, where who wins follows from their matchings: even cycles and complete
/// graphs of even order have perfect matchings (N everywhere); odd ones leave every vertex
/// missed by some maximum matching (P everywhere); in `K(m, n)` with `m < n` the small side
/// is always matched (N) and the large side not (P); a path of `n` vertices from its end is N
/// iff `n` is even.
#[test]
fn classical_graphs() {
    for n in 3..12 {
        let cycle: Vec<(usize, usize)> = (0..n).map(|v| (v, (v + 1) % n)).collect();
        let expected = if n % 2 == 0 { Outcome::N } else { Outcome::P };
        let game = game_on("geography:cycle.txt", edge_text(&cycle));
        assert!(outcomes(game.as_ref()).iter().all(|&o| o == expected), "cycle {n}");
        let complete: Vec<(usize, usize)> = (0..n).flat_map(|u| (u + 1..n).map(move |v| (u, v))).collect();
        let game = game_on("geography:complete.txt", edge_text(&complete));
        assert!(outcomes(game.as_ref()).iter().all(|&o| o == expected), "K{n}");
        let path: Vec<(usize, usize)> = (0..n - 1).map(|v| (v, v + 1)).collect();
        let game = game_on("geography:path.txt", edge_text(&path));
        assert_eq!(at(&game, &["v0"]).outcome().unwrap(), expected, "path of {n} from its end");
    }
    for (m, n) in [(1, 3), (2, 5), (3, 4), (4, 4)] {
        let bipartite: Vec<(usize, usize)> = (0..m).flat_map(|u| (0..n).map(move |v| (u, m + v))).collect();
        let game = game_on("geography:kmn.txt", edge_text(&bipartite));
        for (name, _, outcome) in table(game.as_ref()) {
            let index: usize = name[1..].parse().unwrap();
            let expected = if index < m || m == n { Outcome::N } else { Outcome::P };
            assert_eq!(outcome, expected, "K({m},{n}) vertex {name}");
        }
    }
}
