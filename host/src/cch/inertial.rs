//! The flow cuts a part of the graph is tried with: inertial flow (Schild,
//! Sommer, "On Balanced Separators in Road Networks", 2015) on
//! pseudo-coordinates instead of geographic ones.
//!
//! The coordinates of a vertex are its hop distances from a few *landmarks*
//! far apart (each the vertex farthest from those before it). A direction
//! is a pair of landmarks `(a, b)`: the vertices sorted by `d_a - d_b`, the
//! first [`SHARE`] of them the sources and the last the sinks; one more
//! candidate takes the BFS balls around the two ends of the
//! pseudo-diameter. Each candidate's minimum vertex separator
//! ([`super::flow_cut`]) is computed and the smallest kept (ties: the more
//! balanced, then the earlier direction), so a part made of pieces joined by
//! a few edges is cut at those edges whichever way the pieces lie, and a
//! grid along a line.

use std::collections::VecDeque;
use std::sync::atomic::AtomicUsize;

use rayon::prelude::*;

use super::flow_cut::{FREE, SINK, SOURCE, flow_cut};
use super::neighbours::Neighbours;

/// Landmarks of the pseudo-coordinates.
pub const LANDMARKS: usize = 4;

/// The fraction of a part that each end of a direction keeps on its side.
pub const SHARE: f64 = 0.25;

/// Parts of at least this many vertices try their directions in parallel
/// (smaller ones in turn).
const PARALLEL: usize = 50_000;

/// The BFS level of every vertex of a connected graph from `source`.
pub fn bfs_levels(graph: &Neighbours, source: usize) -> Vec<u32> {
    let mut level = vec![u32::MAX; graph.num_vertices()];
    level[source] = 0;
    let mut queue = VecDeque::from([source as u32]);
    while let Some(v) = queue.pop_front() {
        let next = level[v as usize] + 1;
        for &u in graph.of(v as usize) {
            if level[u as usize] == u32::MAX {
                level[u as usize] = next;
                queue.push_back(u);
            }
        }
    }
    level
}

/// The hop distances from [`LANDMARKS`] vertices of a connected graph: the
/// first the farthest from vertex 0, each next the farthest from those
/// before it (the greatest distance to the nearest; ties: the smaller).
pub fn landmarks(graph: &Neighbours) -> Vec<Vec<u32>> {
    let n = graph.num_vertices();
    let mut nearest = bfs_levels(graph, 0);
    let mut distances: Vec<Vec<u32>> = Vec::with_capacity(LANDMARKS);
    while distances.len() < LANDMARKS {
        let top = nearest.iter().copied().max().unwrap_or(0);
        let far = nearest.iter().position(|&d| d == top).unwrap_or(0);
        let from = bfs_levels(graph, far);
        if distances.is_empty() {
            nearest = from.clone();
        } else {
            nearest
                .iter_mut()
                .zip(&from)
                .for_each(|(d, &f)| *d = (*d).min(f));
        }
        distances.push(from);
        if n <= 1 {
            break;
        }
    }
    distances
}

/// A candidate's sources and sinks.
fn roles(distances: &[Vec<u32>], candidate: (usize, usize, bool), share: usize) -> Vec<u8> {
    let (a, b, ball) = candidate;
    let (da, db) = (&distances[a], &distances[b]);
    let n = da.len();
    let mut role = vec![FREE; n];
    if ball {
        for (d, mark) in [(da, SOURCE), (db, SINK)] {
            let mut by: Vec<(u32, u32)> = (0..n as u32).map(|v| (d[v as usize], v)).collect();
            by.sort_unstable();
            let mut marked = 0;
            for &(_, v) in &by {
                if marked == share {
                    break;
                }
                if role[v as usize] == FREE {
                    role[v as usize] = mark;
                    marked += 1;
                }
            }
        }
        return role;
    }
    let mut by: Vec<(i64, u32)> = (0..n as u32)
        .map(|v| (da[v as usize] as i64 - db[v as usize] as i64, v))
        .collect();
    by.sort_unstable();
    let share = share.min(n / 2);
    by[..share]
        .iter()
        .for_each(|&(_, v)| role[v as usize] = SOURCE);
    by[n - share..]
        .iter()
        .for_each(|&(_, v)| role[v as usize] = SINK);
    role
}

/// The smallest separator of the candidates, as each vertex's side (0 or 1)
/// or `separator`; `None` when each exceeds `limit` vertices.
pub fn best_flow_cut(
    graph: &Neighbours,
    distances: &[Vec<u32>],
    limit: usize,
    separator: u32,
) -> Option<Vec<u32>> {
    let n = graph.num_vertices();
    let share = ((SHARE * n as f64) as usize).max(1);
    let k = distances.len();
    let mut candidates: Vec<(usize, usize, bool)> = vec![(0, 1.min(k - 1), true)];
    for a in 0..k {
        candidates.extend((a + 1..k).map(|b| (a, b, false)));
    }
    // (separator size, larger side, candidate) of a cut.
    let score = |i: usize, side: &[u32]| {
        let sep = side.iter().filter(|&&s| s == separator).count();
        let zero = side.iter().filter(|&&s| s == 0).count();
        (sep, zero.max(n - sep - zero), i)
    };
    let bound = AtomicUsize::new(limit);
    let cut = |i: usize| {
        let role = roles(distances, candidates[i], share);
        flow_cut(graph, role, &bound, separator).map(|side| (score(i, &side), side))
    };
    // A flow stops once it exceeds the smallest separator found so far, so
    // which flows finish depends on timing, but each that ties the smallest
    // finishes: the choice does not.
    let best = if n >= PARALLEL {
        (0..candidates.len())
            .into_par_iter()
            .filter_map(cut)
            .min_by_key(|(key, _)| *key)
    } else {
        (0..candidates.len())
            .filter_map(cut)
            .min_by_key(|(key, _)| *key)
    };
    best.map(|(_, side)| side)
}
