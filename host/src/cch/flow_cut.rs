//! A minimum vertex separator between two sets of a connected part: unit
//! vertex capacities, augmenting paths found by breadth-first search
//! (Ford–Fulkerson on the graph with each vertex split into an *in* and an
//! *out* node joined by an arc of capacity 1, each edge two arcs of
//! unbounded capacity). [`super::inertial`] chooses the two sets.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::neighbours::Neighbours;

/// A vertex's role in the flow problem.
pub const FREE: u8 = 0;
/// A vertex of the source set.
pub const SOURCE: u8 = 1;
/// A vertex of the sink set.
pub const SINK: u8 = 2;

/// No parent in the search.
const NONE: u32 = u32::MAX;

/// The minimum vertex separator between the vertices `role` marks
/// [`SOURCE`] and those it marks [`SINK`], as each vertex's side (0: the
/// sources', or 1) or `separator`; `None` when the flow exceeds `limit` (a
/// separator no better than one already found); `limit` may shrink while
/// the flow runs (other cuts found in parallel), and takes the flow's value
/// when it is smaller.
pub fn flow_cut(
    graph: &Neighbours,
    role: Vec<u8>,
    limit: &AtomicUsize,
    separator: u32,
) -> Option<Vec<u32>> {
    let n = graph.num_vertices();
    // Reverse slot of each adjacency slot.
    let reverse: Vec<u32> = (0..n)
        .flat_map(|u| graph.of(u).iter().map(move |&v| (u, v)))
        .map(|(u, v)| {
            let row = graph.of(v as usize);
            let i = row.binary_search(&(u as u32)).unwrap_or(0);
            graph.offsets[v as usize] + i as u32
        })
        .collect();
    let mut flow = Flow {
        graph,
        role,
        reverse,
        edge: vec![0u32; graph.adjacent.len()],
        through: vec![false; n],
    };
    let mut value = 0;
    while flow.augment() {
        value += 1;
        if value > limit.load(Ordering::Relaxed) {
            return None;
        }
    }
    limit.fetch_min(value, Ordering::Relaxed);
    let (reach_in, reach_out) = flow.reachable();
    Some(
        (0..n)
            .map(|v| match (reach_in[v], reach_out[v]) {
                (true, false) => separator,
                (true, true) => 0,
                _ => 1,
            })
            .collect(),
    )
}

/// The flow: on each adjacency slot `u → v` the flow from `u`'s out node
/// to `v`'s in node, and whether each vertex's arc carries flow.
struct Flow<'a> {
    graph: &'a Neighbours,
    role: Vec<u8>,
    reverse: Vec<u32>,
    edge: Vec<u32>,
    through: Vec<bool>,
}

/// A node of the split graph: vertex `v`'s in node `2v`, out node `2v + 1`.
fn node(v: usize, out: bool) -> usize {
    2 * v + out as usize
}

impl Flow<'_> {
    /// The residual arcs out of `node`: (next node, slot of the edge or
    /// `NONE` for the vertex's own arc).
    fn residual(&self, at: usize, mut visit: impl FnMut(usize, u32)) {
        let (v, out) = (at / 2, at % 2 == 1);
        let graph = self.graph;
        if out {
            for slot in graph.offsets[v]..graph.offsets[v + 1] {
                let u = graph.adjacent[slot as usize] as usize;
                visit(node(u, false), slot);
            }
            if self.through[v] && self.role[v] == FREE {
                visit(node(v, false), NONE);
            }
        } else {
            if !self.through[v] || self.role[v] != FREE {
                visit(node(v, true), NONE);
            }
            // Back along an edge `u → v` that carries flow.
            for slot in graph.offsets[v]..graph.offsets[v + 1] {
                let back = self.reverse[slot as usize];
                if self.edge[back as usize] > 0 {
                    let u = graph.adjacent[slot as usize] as usize;
                    visit(node(u, true), back);
                }
            }
        }
    }

    /// Finds one augmenting path and pushes a unit along it.
    fn augment(&mut self) -> bool {
        let n = self.role.len();
        let mut parent = vec![(NONE, NONE); 2 * n];
        let mut queue: VecDeque<usize> = (0..n)
            .filter(|&v| self.role[v] == SOURCE)
            .map(|v| node(v, true))
            .collect();
        for &q in &queue {
            parent[q] = (q as u32, NONE);
        }
        let mut end = None;
        while let Some(at) = queue.pop_front() {
            if self.role[at / 2] == SINK && at % 2 == 0 {
                end = Some(at);
                break;
            }
            self.residual(at, |next, slot| {
                if parent[next].0 == NONE {
                    parent[next] = (at as u32, slot);
                    queue.push_back(next);
                }
            });
        }
        let Some(mut at) = end else {
            return false;
        };
        while parent[at].0 as usize != at {
            let (from, slot) = (parent[at].0 as usize, parent[at].1);
            let v = at / 2;
            if slot == NONE {
                // The vertex's own arc: forward (in → out) or back.
                self.through[v] = at % 2 == 1;
            } else if from % 2 == 1 {
                // Forward along the edge of slot `slot`.
                self.edge[slot as usize] += 1;
            } else {
                // Back along it.
                self.edge[slot as usize] -= 1;
            }
            at = from;
        }
        true
    }

    /// The nodes the sources reach in the residual graph: (in, out) of each
    /// vertex.
    fn reachable(&self) -> (Vec<bool>, Vec<bool>) {
        let n = self.role.len();
        let mut seen = vec![false; 2 * n];
        let mut queue: VecDeque<usize> = (0..n)
            .filter(|&v| self.role[v] == SOURCE)
            .map(|v| node(v, true))
            .collect();
        for &q in &queue {
            seen[q] = true;
        }
        while let Some(at) = queue.pop_front() {
            self.residual(at, |next, _| {
                if !seen[next] {
                    seen[next] = true;
                    queue.push_back(next);
                }
            });
        }
        let reach_in = (0..n).map(|v| seen[node(v, false)] || self.role[v] == SOURCE);
        let reach_in: Vec<bool> = reach_in.collect();
        let reach_out = (0..n).map(|v| seen[node(v, true)]).collect();
        (reach_in, reach_out)
    }
}
