//! A minimum vertex separator between two sets of a connected part: unit
//! vertex capacities, Dinic's algorithm (phases of shortest augmenting
//! paths) on the graph with each vertex split into an *in* and an
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
        boundary: Vec::new(),
    };
    flow.boundary = (0..n)
        .filter(|&v| flow.role[v] == SOURCE)
        .filter(|&v| graph.of(v).iter().any(|&u| flow.role[u as usize] != SOURCE))
        .map(|v| node(v, true))
        .collect();
    let mut value = 0;
    loop {
        let pushed = flow.phase(limit.load(Ordering::Relaxed).saturating_sub(value));
        if pushed == 0 {
            break;
        }
        value += pushed;
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
    /// The out nodes of the sources next to a vertex that is not one.
    boundary: Vec<usize>,
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

    /// The `i`-th possible residual arc out of `at` (the vertex's own arc
    /// last for an out node, first for an in node), if residual now.
    fn arc(&self, at: usize, i: usize) -> Option<(usize, u32)> {
        let (v, out) = (at / 2, at % 2 == 1);
        let graph = self.graph;
        let start = graph.offsets[v] as usize;
        let degree = graph.offsets[v + 1] as usize - start;
        if out {
            if i < degree {
                let u = graph.adjacent[start + i] as usize;
                return Some((node(u, false), (start + i) as u32));
            }
            let back = self.through[v] && self.role[v] == FREE;
            return back.then_some((node(v, false), NONE));
        }
        if i == 0 {
            let forward = !self.through[v] || self.role[v] != FREE;
            return forward.then_some((node(v, true), NONE));
        }
        let slot = start + i - 1;
        let back = self.reverse[slot];
        (self.edge[back as usize] > 0).then(|| (node(graph.adjacent[slot] as usize, true), back))
    }

    /// The number of possible residual arcs out of `at`.
    fn arity(&self, at: usize) -> usize {
        let v = at / 2;
        (self.graph.offsets[v + 1] - self.graph.offsets[v]) as usize + 1
    }

    /// Pushes a unit along the residual arc `(from, slot)` into `at`.
    fn push(&mut self, from: usize, at: usize, slot: u32) {
        if slot == NONE {
            // The vertex's own arc: forward (in → out) or back.
            self.through[at / 2] = at % 2 == 1;
        } else if from % 2 == 1 {
            self.edge[slot as usize] += 1;
        } else {
            self.edge[slot as usize] -= 1;
        }
    }

    /// One phase of Dinic's algorithm: the BFS levels of the residual graph
    /// from the sources, then a blocking flow of shortest augmenting paths;
    /// the units pushed (0: no augmenting path is left), or more than `cap`
    /// once they exceed it (a source next to a sink has no bound).
    fn phase(&mut self, cap: usize) -> usize {
        let n = self.role.len();
        let sources = std::mem::take(&mut self.boundary);
        let mut dist = vec![u32::MAX; 2 * n];
        let mut queue: VecDeque<usize> = sources.iter().copied().collect();
        sources.iter().for_each(|&q| dist[q] = 0);
        let mut reach = u32::MAX;
        while let Some(at) = queue.pop_front() {
            if dist[at] >= reach {
                break;
            }
            if self.role[at / 2] == SINK && at % 2 == 0 {
                reach = dist[at];
                continue;
            }
            let role = &self.role;
            self.residual(at, |next, _| {
                if dist[next] == u32::MAX && role[next / 2] != SOURCE {
                    dist[next] = dist[at] + 1;
                    queue.push_back(next);
                }
            });
        }
        if reach == u32::MAX {
            self.boundary = sources;
            return 0;
        }
        let mut current = vec![0u32; 2 * n];
        let mut pushed = 0;
        let mut path: Vec<(usize, u32)> = Vec::new();
        for &source in &sources {
            path.clear();
            path.push((source, NONE));
            while let Some(&(at, _)) = path.last() {
                if self.role[at / 2] == SINK && at % 2 == 0 {
                    for w in 1..path.len() {
                        self.push(path[w - 1].0, path[w].0, path[w].1);
                    }
                    pushed += 1;
                    if pushed > cap {
                        break;
                    }
                    path.truncate(1);
                    continue;
                }
                let mut advanced = false;
                while (current[at] as usize) < self.arity(at) {
                    let i = current[at] as usize;
                    if let Some((next, slot)) = self.arc(at, i)
                        && dist[next] == dist[at] + 1
                        && dist[next] <= reach
                    {
                        path.push((next, slot));
                        advanced = true;
                        break;
                    }
                    current[at] += 1;
                }
                if !advanced {
                    dist[at] = u32::MAX;
                    path.pop();
                    if let Some(&(parent, _)) = path.last() {
                        current[parent] += 1;
                    }
                }
            }
            if pushed > cap {
                break;
            }
        }
        self.boundary = sources;
        pushed
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
