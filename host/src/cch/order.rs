//! The metric-independent order of a CCH: nested dissection without
//! coordinates.
//!
//! A part of the graph is split into its connected components, which are
//! ordered independently. A connected part is cut by the smallest of a few
//! minimum vertex separators between opposite ends of the part
//! ([`super::inertial`]), or, when those flows are no smaller, by the vertices of one BFS level that
//! have a neighbour on the next (the level of the fewest such vertices among
//! those that leave each side at least a fifth of the part). The two sides
//! are ordered recursively (in parallel) and the separator gets the highest
//! ranks. Parts of at most [`SMALL_PART`] vertices are ordered by minimum
//! degree with fill, on bit sets.
//!
//! Everything is deterministic: ties go to the smaller vertex.

use std::collections::VecDeque;

use rayon::prelude::*;

use super::inertial::{best_flow_cut, landmarks};
use super::neighbours::Neighbours;

/// Parts of at most this many vertices are ordered by minimum degree (one
/// `u64` bit set per vertex).
pub const SMALL_PART: usize = 64;

/// A side of a balanced cut holds at least this fraction of the part.
const BALANCE: f64 = 0.2;

/// A part of the graph: its vertices (graph ids) and its induced subgraph
/// in local ids.
struct Part {
    ids: Vec<u32>,
    graph: Neighbours,
}

/// The vertices of `graph` from the lowest rank to the highest.
pub fn nested_dissection(graph: &Neighbours) -> Vec<u32> {
    let n = graph.num_vertices();
    order(Part {
        ids: (0..n as u32).collect(),
        graph: graph.clone(),
    })
}

/// The order of a part's vertices (graph ids), lowest rank first.
fn order(part: Part) -> Vec<u32> {
    let n = part.ids.len();
    if n <= SMALL_PART {
        return min_degree(&part);
    }
    let (label, count) = components(&part.graph);
    if count > 1 {
        return concat(split(&part, &label, count));
    }
    let Some(side) = bisect(&part.graph) else {
        // No BFS level separates the part (it is nearly a clique): its
        // supergraph is a clique whatever the order.
        return part.ids;
    };
    let separator: Vec<u32> = (0..n)
        .filter(|&v| side[v] == SEPARATOR)
        .map(|v| part.ids[v])
        .collect();
    let mut ordered = concat(split(&part, &side, 2));
    ordered.extend(separator);
    ordered
}

/// The orders of `parts` (in parallel), one after the other.
fn concat(parts: Vec<Part>) -> Vec<u32> {
    let orders: Vec<Vec<u32>> = parts.into_par_iter().map(order).collect();
    orders.concat()
}

/// The label of a separator vertex in [`split`].
const SEPARATOR: u32 = u32::MAX;

/// The induced subgraphs of the vertices of each label `0..count`
/// ([`SEPARATOR`]: of none), in one pass.
fn split(part: &Part, label: &[u32], count: usize) -> Vec<Part> {
    let n = part.ids.len();
    let mut local = vec![0u32; n];
    let mut sizes = vec![0u32; count];
    for v in 0..n {
        if label[v] != SEPARATOR {
            local[v] = sizes[label[v] as usize];
            sizes[label[v] as usize] += 1;
        }
    }
    let mut parts: Vec<Part> = sizes
        .iter()
        .map(|&size| Part {
            ids: Vec::with_capacity(size as usize),
            graph: Neighbours {
                offsets: {
                    let mut offsets = Vec::with_capacity(size as usize + 1);
                    offsets.push(0);
                    offsets
                },
                adjacent: Vec::new(),
            },
        })
        .collect();
    for v in 0..n {
        if label[v] == SEPARATOR {
            continue;
        }
        let p = &mut parts[label[v] as usize];
        p.ids.push(part.ids[v]);
        for &u in part.graph.of(v) {
            if label[u as usize] == label[v] {
                p.graph.adjacent.push(local[u as usize]);
            }
        }
        p.graph.offsets.push(p.graph.adjacent.len() as u32);
    }
    parts
}

/// The connected component of each vertex and the number of components,
/// numbered in the order of their smallest vertex.
fn components(graph: &Neighbours) -> (Vec<u32>, usize) {
    let n = graph.num_vertices();
    let mut label = vec![SEPARATOR; n];
    let mut count = 0u32;
    let mut queue = VecDeque::new();
    for s in 0..n {
        if label[s] != SEPARATOR {
            continue;
        }
        label[s] = count;
        queue.push_back(s as u32);
        while let Some(v) = queue.pop_front() {
            for &u in graph.of(v as usize) {
                if label[u as usize] == SEPARATOR {
                    label[u as usize] = count;
                    queue.push_back(u);
                }
            }
        }
        count += 1;
    }
    (label, count as usize)
}

/// A balanced cut of a connected graph: each vertex's side (0 or 1) or
/// [`SEPARATOR`]; `None` when neither a flow nor a BFS level separates it.
fn bisect(graph: &Neighbours) -> Option<Vec<u32>> {
    let n = graph.num_vertices();
    let distances = landmarks(graph);
    let (from_s, from_t) = (&distances[0], &distances[1.min(distances.len() - 1)]);
    let cuts = [from_s, from_t].map(|level| best_level(graph, level));
    let level_cut = [from_s, from_t]
        .into_iter()
        .zip(cuts)
        .filter_map(|(level, cut)| cut.map(|c| (level, c)))
        .min_by_key(|&(_, (k, size, larger))| (size, larger, k));
    // An unbalanced level (no level leaves a fifth on each side) bounds no
    // flow: its small separator would only split off a corner.
    let most = n - (BALANCE * n as f64) as usize;
    let limit = level_cut
        .filter(|&(_, (_, _, larger))| larger <= most)
        .map_or(n, |(_, (_, size, _))| size.saturating_sub(1));
    if let Some(side) = best_flow_cut(graph, &distances, limit, SEPARATOR) {
        return Some(side);
    }
    let (level, (cut, ..)) = level_cut?;
    let separates = separating(graph, level);
    Some(
        level
            .iter()
            .zip(&separates)
            .map(|(&l, &s)| match l.cmp(&cut) {
                std::cmp::Ordering::Less => 0,
                std::cmp::Ordering::Equal if !s => 0,
                std::cmp::Ordering::Equal => SEPARATOR,
                std::cmp::Ordering::Greater => 1,
            })
            .collect(),
    )
}

/// Whether each vertex has a neighbour on the next BFS level.
fn separating(graph: &Neighbours, level: &[u32]) -> Vec<bool> {
    (0..graph.num_vertices())
        .map(|v| {
            graph
                .of(v)
                .iter()
                .any(|&u| level[u as usize] == level[v] + 1)
        })
        .collect()
}

/// The level `k` whose separating vertices cut the graph best: (k, the
/// separator's size, the larger side's size); balanced levels preferred.
fn best_level(graph: &Neighbours, level: &[u32]) -> Option<(u32, usize, usize)> {
    let n = level.len();
    let levels = level.iter().copied().max()? as usize + 1;
    let separates = separating(graph, level);
    let mut sizes = vec![0usize; levels];
    let mut boundary = vec![0usize; levels];
    for v in 0..n {
        sizes[level[v] as usize] += 1;
        boundary[level[v] as usize] += separates[v] as usize;
    }
    let mut before = 0;
    let mut candidates = Vec::new();
    for k in 0..levels {
        let separator = boundary[k];
        let low = before + sizes[k] - separator;
        let high = n - low - separator;
        before += sizes[k];
        if separator > 0 && low > 0 && high > 0 {
            candidates.push((k as u32, separator, low.max(high), low.min(high)));
        }
    }
    let least = (BALANCE * n as f64) as usize;
    let balanced = candidates.iter().any(|c| c.3 >= least);
    candidates
        .into_iter()
        .filter(|c| !balanced || c.3 >= least)
        .min_by_key(|&(k, size, larger, _)| (size, larger, k))
        .map(|(k, size, larger, _)| (k, size, larger))
}

/// Minimum-degree order with fill of a part of at most [`SMALL_PART`]
/// vertices.
fn min_degree(part: &Part) -> Vec<u32> {
    let n = part.ids.len();
    let mut adjacent = [0u64; SMALL_PART];
    for (v, bits) in adjacent.iter_mut().enumerate().take(n) {
        for &u in part.graph.of(v) {
            *bits |= 1 << u;
        }
    }
    let mut alive: u64 = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut ordered = Vec::with_capacity(n);
    while alive != 0 {
        let mut best = (u32::MAX, 0usize);
        let mut rest = alive;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let degree = (adjacent[v] & alive).count_ones();
            if degree < best.0 {
                best = (degree, v);
            }
        }
        let v = best.1;
        alive &= !(1u64 << v);
        let clique = adjacent[v] & alive;
        let mut rest = clique;
        while rest != 0 {
            let u = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            adjacent[u] |= clique & !(1u64 << u);
        }
        ordered.push(part.ids[v]);
    }
    ordered
}
