//! A graph game's graph, each vertex coloured by its outcome (N, P, D). The layout is a
//! Fruchterman–Reingold force layout (1991) from a fixed pseudo-random start, so the same
//! graph always gives the same picture.

use super::{Swatch, legend_row, title};
use crate::render::{Anchor, Color, INK, Scene, Shape, TICK_SIZE, text_width};
use crate::{PlotError, ensure_plottable};
use grundy::Outcome;
use grundy::random::SplitMix64;
use grundy::view::VertexEntry;
use std::collections::{HashMap, HashSet};

/// More vertices than this cannot be told apart on one picture.
pub const MAX_VERTICES: usize = 100;
/// More edges than this make a hairball.
pub const MAX_EDGES: usize = 250;
/// The picture's width in pixels.
pub const WIDTH: u32 = 900;
/// The picture's height in pixels.
pub const HEIGHT: u32 = 860;

const N_COLOR: Color = Color::rgb(0x8f, 0xd1, 0x75);
const P_COLOR: Color = Color::rgb(0xf4, 0x7a, 0x5a);
const D_COLOR: Color = Color::rgb(0xc4, 0xc4, 0xc4);
const EDGE_COLOR: Color = Color::rgb(0x80, 0x80, 0x80);
const LAYOUT_ITERATIONS: usize = 400;

fn outcome_color(outcome: Outcome) -> Color {
    match outcome {
        Outcome::N => N_COLOR,
        Outcome::P => P_COLOR,
        Outcome::D => D_COLOR,
    }
}

/// The picture of the graph game `spec`: its vertices with their outcomes and its edges,
/// `directed` (drawn as arrows, as a token moves) or not.
///
/// # Errors
/// No vertices, too many to draw, or an edge naming a vertex the table lacks.
pub fn graph_scene(
    spec: &str,
    vertices: &[VertexEntry],
    edges: &[(String, String)],
    directed: bool,
) -> Result<Scene, PlotError> {
    ensure_plottable!(!vertices.is_empty(), "`{spec}` has no vertices: nothing to plot");
    ensure_plottable!(
        vertices.len() <= MAX_VERTICES,
        "`{spec}` has {} vertices, too many to draw legibly (at most {MAX_VERTICES}); `grundy table {spec}` lists them",
        vertices.len()
    );
    let index: HashMap<&str, usize> =
        vertices.iter().enumerate().map(|(i, vertex)| (vertex.name.as_str(), i)).collect();
    let mut links: Vec<(usize, usize)> = Vec::with_capacity(edges.len());
    let mut seen = HashSet::new();
    for (from, to) in edges {
        let find = |name: &str| {
            index.get(name).copied().ok_or_else(|| {
                PlotError::Unplottable(format!("`{spec}`: an edge names `{name}`, which is not a vertex of its table"))
            })
        };
        let (from, to) = (find(from)?, find(to)?);
        let key = if directed { (from, to) } else { (from.min(to), from.max(to)) };
        if seen.insert(key) {
            links.push(key);
        }
    }
    ensure_plottable!(
        links.len() <= MAX_EDGES,
        "`{spec}` has {} edges, too many to draw legibly (at most {MAX_EDGES}); `grundy table {spec}` lists its vertices",
        links.len()
    );

    let mut scene = Scene::new(WIDTH, HEIGHT, format!("Outcomes of {spec}"));
    let kind = if directed { "directed" } else { "undirected" };
    title(&mut scene, &format!("Outcomes of {spec}"));
    let mut legend = vec![
        (Swatch::Disc(N_COLOR), "N: the player to move wins".to_owned()),
        (Swatch::Disc(P_COLOR), "P: the player to move loses".to_owned()),
    ];
    if directed || vertices.iter().any(|vertex| vertex.outcome == Outcome::D) {
        legend.push((Swatch::Disc(D_COLOR), "D: draw".to_owned()));
    }
    let legend_bottom = legend_row(&mut scene, 40.0, 62.0, f64::from(WIDTH) - 40.0, &legend);
    let meaning = if directed { "an arrow is a move of the token" } else { "an edge joins adjacent vertices" };
    let counts = format!("{} vertices, {} {kind} edges;", vertices.len(), links.len());
    scene.text((40.0, legend_bottom + 24.0), counts, TICK_SIZE, Anchor::Start);
    scene.text((40.0, legend_bottom + 48.0), meaning, TICK_SIZE, Anchor::Start);

    // Short names are written inside the vertices, longer ones beside them.
    let labels: Vec<String> = vertices.iter().map(|vertex| shorten(&vertex.name)).collect();
    let inside = labels.iter().all(|label| label.chars().count() <= 3) && vertices.len() <= 60;
    let radius = if inside { 16.0 } else { 7.0 };
    // Many labels beside their vertices are written small (the PNG font at one pixel per dot).
    let label_size = if inside || vertices.len() <= 30 { TICK_SIZE } else { 10.0 };
    let widest_label =
        if inside { 0.0 } else { labels.iter().map(|label| text_width(label, label_size)).fold(0.0, f64::max) };
    let top = legend_bottom + 84.0;
    let (left, right, bottom) =
        (40.0 + radius, f64::from(WIDTH) - 40.0 - radius - widest_label, f64::from(HEIGHT) - 30.0 - radius);
    let positions = fit_into(&layout(vertices.len(), &links), left, top, right.max(left + 100.0), bottom);

    let link_set: HashSet<(usize, usize)> = links.iter().copied().collect();
    for &(from, to) in &links {
        let (a, b) = (positions[from], positions[to]);
        if from == to {
            // A loop: a small circle above the vertex.
            scene.push(Shape::Circle {
                center: (a.0, a.1 - radius - 6.0),
                radius: 8.0,
                fill: None,
                stroke: Some((EDGE_COLOR, 1.5)),
            });
            continue;
        }
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let length = (dx * dx + dy * dy).sqrt().max(1e-9);
        let (ux, uy) = (dx / length, dy / length);
        // Moves both ways are drawn side by side, each to its right.
        let shift = if directed && link_set.contains(&(to, from)) { 3.5 } else { 0.0 };
        let (sx, sy) = (-uy * shift, ux * shift);
        let start = (a.0 + ux * radius + sx, a.1 + uy * radius + sy);
        let tip = (b.0 - ux * radius + sx, b.1 - uy * radius + sy);
        if !directed {
            scene.push(Shape::Line { from: start, to: tip, stroke: EDGE_COLOR, line_width: 1.5, dash: None });
            continue;
        }
        let base = (tip.0 - ux * 11.0, tip.1 - uy * 11.0);
        scene.push(Shape::Line { from: start, to: base, stroke: EDGE_COLOR, line_width: 1.5, dash: None });
        scene.push(Shape::Polygon {
            points: vec![tip, (base.0 - uy * 4.5, base.1 + ux * 4.5), (base.0 + uy * 4.5, base.1 - ux * 4.5)],
            fill: EDGE_COLOR,
        });
    }
    for ((vertex, label), &center) in vertices.iter().zip(&labels).zip(&positions) {
        let fill = Some(outcome_color(vertex.outcome));
        scene.push(Shape::Circle { center, radius, fill, stroke: Some((INK, 1.2)) });
        if inside {
            scene.text(center, label.clone(), TICK_SIZE, Anchor::Middle);
        } else {
            scene.text((center.0 + radius + 4.0, center.1), label.clone(), label_size, Anchor::Start);
        }
    }
    Ok(scene)
}

/// A name cut to 12 characters for its label.
fn shorten(name: &str) -> String {
    if name.chars().count() <= 12 { name.to_owned() } else { name.chars().take(10).chain("..".chars()).collect() }
}

/// A component laid out in its own box: each vertex with its place, the box's width and height.
type ComponentBox = (Vec<(usize, (f64, f64))>, f64, f64);

/// Positions for a graph of `count` vertices: each connected component laid out on its own
/// ([`force_layout`], scaled so that edges are about one unit long), then the components
/// placed in rows, largest first, so that none drifts off and shrinks the others.
fn layout(count: usize, links: &[(usize, usize)]) -> Vec<(f64, f64)> {
    // Union–find over the links, read as undirected.
    let mut parent: Vec<usize> = (0..count).collect();
    fn root(parent: &mut [usize], mut vertex: usize) -> usize {
        while parent[vertex] != vertex {
            parent[vertex] = parent[parent[vertex]];
            vertex = parent[vertex];
        }
        vertex
    }
    for &(a, b) in links {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        parent[ra.max(rb)] = ra.min(rb);
    }
    let mut members: Vec<Vec<usize>> = Vec::new();
    let mut component_of_root: HashMap<usize, usize> = HashMap::new();
    for vertex in 0..count {
        let component = *component_of_root.entry(root(&mut parent, vertex)).or_insert_with(|| {
            members.push(Vec::new());
            members.len() - 1
        });
        members[component].push(vertex);
    }
    // Largest first; ties in order of first vertex (the sort is stable), so it is deterministic.
    members.sort_by_key(|component| std::cmp::Reverse(component.len()));

    // Each component in its own box, edges about one unit long, corner at the origin.
    let mut local_index = vec![0; count];
    let boxes: Vec<ComponentBox> = members
        .iter()
        .map(|component| {
            for (local, &vertex) in component.iter().enumerate() {
                local_index[vertex] = local;
            }
            let inside: HashSet<usize> = component.iter().copied().collect();
            let local_links: Vec<(usize, usize)> = links
                .iter()
                .filter(|(a, _)| inside.contains(a))
                .map(|&(a, b)| (local_index[a], local_index[b]))
                .collect();
            let scale = (component.len() as f64).sqrt();
            let positions = force_layout(component.len(), &local_links);
            let min_x = positions.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
            let min_y = positions.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
            let placed: Vec<(usize, (f64, f64))> = component
                .iter()
                .zip(&positions)
                .map(|(&vertex, p)| (vertex, ((p.0 - min_x) * scale, (p.1 - min_y) * scale)))
                .collect();
            let width = placed.iter().map(|(_, p)| p.0).fold(0.0, f64::max);
            let height = placed.iter().map(|(_, p)| p.1).fold(0.0, f64::max);
            (placed, width, height)
        })
        .collect();

    // Rows about 1.3 times as wide as the whole is tall (the drawing area is wider than high).
    const GAP: f64 = 1.0;
    let area: f64 = boxes.iter().map(|(_, width, height)| (width + GAP) * (height + GAP)).sum();
    let widest = boxes.iter().map(|(_, width, _)| *width + GAP).fold(0.0, f64::max);
    let row_width = (area * 1.3).sqrt().max(widest);
    let mut positions = vec![(0.0, 0.0); count];
    let (mut x, mut y, mut row_height) = (0.0, 0.0, 0.0f64);
    for (placed, width, height) in &boxes {
        if x > 0.0 && x + width > row_width {
            x = 0.0;
            y += row_height + GAP;
            row_height = 0.0;
        }
        for &(vertex, (px, py)) in placed {
            positions[vertex] = (x + px, y + py);
        }
        x += width + GAP;
        row_height = row_height.max(*height);
    }
    positions
}

/// Fruchterman–Reingold on one connected component: vertices repel (k²/d), edges pull
/// (d²/k), and the step shrinks each round. Positions in about the unit square.
fn force_layout(count: usize, links: &[(usize, usize)]) -> Vec<(f64, f64)> {
    // A fixed, well-spread sequence, so the layout never changes between runs.
    let mut random = SplitMix64::new(0x9e37_79b9_7f4a_7c15);
    let mut next = move || (random.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let mut positions: Vec<(f64, f64)> = (0..count).map(|_| (next(), next())).collect();
    if count < 2 {
        return vec![(0.5, 0.5); count];
    }
    let k = (1.0 / count as f64).sqrt();
    let mut step = 0.1;
    let mut moves = vec![(0.0, 0.0); count];
    for _ in 0..LAYOUT_ITERATIONS {
        moves.iter_mut().for_each(|m| *m = (0.0, 0.0));
        for i in 0..count {
            for j in i + 1..count {
                let (dx, dy) = (positions[i].0 - positions[j].0, positions[i].1 - positions[j].1);
                let distance = (dx * dx + dy * dy).sqrt().max(1e-4);
                let force = k * k / distance;
                moves[i].0 += dx / distance * force;
                moves[i].1 += dy / distance * force;
                moves[j].0 -= dx / distance * force;
                moves[j].1 -= dy / distance * force;
            }
        }
        for &(a, b) in links {
            if a == b {
                continue;
            }
            let (dx, dy) = (positions[a].0 - positions[b].0, positions[a].1 - positions[b].1);
            let distance = (dx * dx + dy * dy).sqrt().max(1e-4);
            let force = distance * distance / k;
            moves[a].0 -= dx / distance * force;
            moves[a].1 -= dy / distance * force;
            moves[b].0 += dx / distance * force;
            moves[b].1 += dy / distance * force;
        }
        for (position, movement) in positions.iter_mut().zip(&mut moves) {
            let length = (movement.0 * movement.0 + movement.1 * movement.1).sqrt().max(1e-12);
            let distance = length.min(step);
            position.0 += movement.0 / length * distance;
            position.1 += movement.1 / length * distance;
        }
        step = (step * 0.985).max(0.002);
    }
    positions
}

/// The positions scaled (one factor for both axes) and centred into the box.
fn fit_into(positions: &[(f64, f64)], left: f64, top: f64, right: f64, bottom: f64) -> Vec<(f64, f64)> {
    let min_x = positions.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let max_x = positions.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    let min_y = positions.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let max_y = positions.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    let span = (max_x - min_x).max(max_y - min_y).max(1e-9);
    let scale = ((right - left) / span).min((bottom - top) / span);
    let (mid_x, mid_y) = ((min_x + max_x) / 2.0, (min_y + max_y) / 2.0);
    let (centre_x, centre_y) = ((left + right) / 2.0, (top + bottom) / 2.0);
    positions.iter().map(|p| (centre_x + (p.0 - mid_x) * scale, centre_y + (p.1 - mid_y) * scale)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertex(name: &str, outcome: Outcome) -> VertexEntry {
        VertexEntry { name: name.to_owned(), value: None, outcome }
    }

    fn edge(a: &str, b: &str) -> (String, String) {
        (a.to_owned(), b.to_owned())
    }

    #[test]
    fn vertices_are_coloured_by_outcome_and_spread_out() {
        let vertices =
            [vertex("a", Outcome::N), vertex("b", Outcome::P), vertex("c", Outcome::D), vertex("d", Outcome::D)];
        let edges = [edge("a", "b"), edge("c", "d"), edge("d", "c"), edge("c", "c")];
        let scene = graph_scene("dag:g.txt", &vertices, &edges, true).unwrap();
        let discs: Vec<(f64, f64, Color)> = scene
            .shapes
            .iter()
            .filter_map(|shape| match shape {
                Shape::Circle { center, radius, fill: Some(fill), .. } if *radius > 10.0 => {
                    Some((center.0, center.1, *fill))
                }
                _ => None,
            })
            .collect();
        assert_eq!(discs.iter().map(|d| d.2).collect::<Vec<_>>(), [N_COLOR, P_COLOR, D_COLOR, D_COLOR]);
        for (i, a) in discs.iter().enumerate() {
            for b in &discs[i + 1..] {
                assert!(((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt() > 40.0, "{discs:?}");
            }
            assert!(a.0 > 0.0 && a.0 < f64::from(WIDTH) && a.1 > 100.0 && a.1 < f64::from(HEIGHT));
        }
        // Three arrows (the loop has none), each a line and a head.
        assert_eq!(scene.shapes.iter().filter(|shape| matches!(shape, Shape::Polygon { .. })).count(), 3);
    }

    #[test]
    fn components_are_placed_apart() {
        // A triangle, an edge and a lone vertex: no two vertices closer than half an edge.
        let positions = layout(6, &[(0, 1), (1, 2), (2, 0), (3, 4)]);
        for (i, a) in positions.iter().enumerate() {
            for b in &positions[i + 1..] {
                assert!(((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt() > 0.5, "{positions:?}");
            }
        }
    }

    #[test]
    fn the_layout_is_deterministic() {
        let links = [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)];
        assert_eq!(layout(7, &links), layout(7, &links));
    }

    #[test]
    fn bad_graphs_are_refused_clearly() {
        let error = graph_scene("dag:g", &[], &[], true).unwrap_err().to_string();
        assert!(error.contains("nothing to plot"), "{error}");
        let many: Vec<VertexEntry> = (0..=MAX_VERTICES).map(|i| vertex(&i.to_string(), Outcome::N)).collect();
        let error = graph_scene("dag:g", &many, &[], true).unwrap_err().to_string();
        assert!(error.contains("too many to draw"), "{error}");
        let error = graph_scene("dag:g", &[vertex("a", Outcome::P)], &[edge("a", "zz")], true).unwrap_err().to_string();
        assert!(error.contains("`zz`"), "{error}");
    }
}
