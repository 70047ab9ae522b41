//! Hopcroft–Karp maximum matching in a bipartite graph, and the vertices an even alternating
//! path reaches from an exposed vertex.
//!
//! Hopcroft and Karp (*An n^{5/2} algorithm for maximum matchings in bipartite graphs*, SIAM J.
//! Comput. 2, 1973): each phase builds the layered graph of shortest augmenting paths by a
//! breadth-first search from every exposed left vertex, then augments along a maximal set of
//! vertex-disjoint shortest paths found by depth-first search; O(√V) phases of O(E) each.
//! The depth-first search here keeps an explicit stack (a path may be as long as the graph).

use super::{Matching, UNMATCHED};
use crate::graph::digraph::Graph;

const FAR: u32 = u32::MAX;

/// A maximum matching of the bipartite `graph` (`colour` a 2-colouring; colour 0 is the left
/// side), grown from `initial`.
///
/// # Panics
/// If `colour` or `initial` do not have one entry per vertex.
pub fn maximum_matching(graph: &Graph, colour: &[u8], initial: Matching) -> Matching {
    let count = graph.vertex_count();
    assert_eq!(colour.len(), count);
    let mut mate = initial.mate;
    assert_eq!(mate.len(), count);
    let left: Vec<u32> = (0..count as u32).filter(|&v| colour[v as usize] == 0).collect();
    let mut distance = vec![FAR; count];
    let mut cursor = vec![0u32; count];
    let mut queue: Vec<u32> = Vec::with_capacity(left.len());
    let mut stack: Vec<u32> = Vec::new();
    loop {
        // Breadth-first layers from the exposed left vertices, over left vertices only: from u
        // across a non-matching edge to w, then along w's matching edge to the next left vertex.
        queue.clear();
        for &u in &left {
            if mate[u as usize] == UNMATCHED {
                distance[u as usize] = 0;
                queue.push(u);
            } else {
                distance[u as usize] = FAR;
            }
        }
        let mut found = false;
        let mut head = 0;
        while head < queue.len() {
            let u = queue[head];
            head += 1;
            for &w in graph.neighbours(u) {
                let next = mate[w as usize];
                if next == UNMATCHED {
                    found = true;
                } else if distance[next as usize] == FAR {
                    distance[next as usize] = distance[u as usize] + 1;
                    queue.push(next);
                }
            }
        }
        if !found {
            break;
        }
        // Depth-first search for disjoint shortest augmenting paths along the layers.
        for &u in &left {
            cursor[u as usize] = 0;
        }
        for &root in &left {
            if mate[root as usize] != UNMATCHED {
                continue;
            }
            stack.clear();
            stack.push(root);
            while let Some(&u) = stack.last() {
                let neighbours = graph.neighbours(u);
                let mut advanced = false;
                while (cursor[u as usize] as usize) < neighbours.len() {
                    let w = neighbours[cursor[u as usize] as usize];
                    let next = mate[w as usize];
                    if next == UNMATCHED {
                        // Augment along the stack: each left vertex takes the right vertex its
                        // cursor points at.
                        for &left_vertex in stack.iter().rev() {
                            let right = graph.neighbours(left_vertex)[cursor[left_vertex as usize] as usize];
                            mate[left_vertex as usize] = right;
                            mate[right as usize] = left_vertex;
                            cursor[left_vertex as usize] += 1;
                        }
                        stack.clear();
                        advanced = true;
                        break;
                    }
                    if distance[next as usize] == distance[u as usize].wrapping_add(1) && distance[u as usize] != FAR {
                        stack.push(next);
                        advanced = true;
                        break;
                    }
                    cursor[u as usize] += 1;
                }
                if !advanced {
                    // A dead end for this phase.
                    distance[u as usize] = FAR;
                    stack.pop();
                    if let Some(&parent) = stack.last() {
                        cursor[parent as usize] += 1;
                    }
                }
            }
        }
    }
    Matching { mate }
}

/// `D(G)` of a bipartite graph with maximum matching `matching`: the vertices reached from an
/// exposed vertex by an even-length alternating path (non-matching edge out, matching edge
/// back). With no odd cycles no blossom arises, so a plain breadth-first search finds them.
pub fn even_reachable(graph: &Graph, matching: &Matching) -> Vec<bool> {
    let count = graph.vertex_count();
    let mate = &matching.mate;
    let mut even = vec![false; count];
    let mut odd = vec![false; count];
    let mut queue: Vec<u32> = (0..count as u32).filter(|&v| mate[v as usize] == UNMATCHED).collect();
    for &v in &queue {
        even[v as usize] = true;
    }
    let mut head = 0;
    while head < queue.len() {
        let v = queue[head];
        head += 1;
        for &w in graph.neighbours(v) {
            if odd[w as usize] || mate[v as usize] == w {
                continue;
            }
            odd[w as usize] = true;
            let next = mate[w as usize];
            // With a maximum matching `w` is matched (else the path is augmenting).
            if next != UNMATCHED && !even[next as usize] {
                even[next as usize] = true;
                queue.push(next);
            }
        }
    }
    even
}
