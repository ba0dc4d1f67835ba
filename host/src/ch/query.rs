//! Searches in a hierarchy: upward searches, point-to-point queries with
//! their paths unpacked to graph arcs, and many-to-many tables (the bucket
//! method: a backward upward search from every target leaves its distances
//! in buckets at the vertices it reaches, then a forward upward search from
//! every source scans the buckets of the vertices it reaches).
//!
//! Vertices here are positions (see [`super::index`]) unless a function says
//! it takes graph vertices.

use std::cell::RefCell;

use gpu_kernels::distance::{INFINITY, Weight};
use rayon::prelude::*;

use super::frontier::Frontier;
use super::index::{Arcs, Hierarchy, NO_MIDDLE};
use super::pair_search::PairSearch;
use super::query_graph::{BACKWARD, FORWARD, UpDown};
use crate::graph::{WeightKind, with_weight_type};
use crate::{Error, Result};

/// The vertices an upward search reached, with their distances and the arc
/// that reached each (`(index in vertices of the lower vertex, arc index)`,
/// `(u32::MAX, u32::MAX)` for the start).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchSpace {
    /// Reached positions, in the order they were settled.
    pub vertices: Vec<u32>,
    /// Their distances from (or, backward, to) the start.
    pub dist: Vec<u32>,
    /// The arc that reached each.
    pub via: Vec<(u32, u32)>,
}

/// An upward search's frontier and the arc that reached each vertex.
#[derive(Default)]
struct Scratch {
    frontier: Frontier,
    via: Vec<(u32, u32)>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Dijkstra from position `start` over `arcs`, [`Hierarchy::up`] or
/// [`Hierarchy::down`] of `h` (always towards higher vertices): the forward
/// upward search of a source or the backward upward search of a target.
pub fn upward_search(h: &Hierarchy, arcs: &Arcs, start: u32) -> SearchSpace {
    with_weight_type!(h.weight_kind, W => search::<W>(arcs, start))
}

fn search<W: Weight>(arcs: &Arcs, start: u32) -> SearchSpace {
    let n = arcs.offsets.len() - 1;
    SCRATCH.with_borrow_mut(|Scratch { frontier, via }| {
        if via.len() < n {
            via.resize(n, (u32::MAX, u32::MAX));
        }
        frontier.start(n, start);
        via[start as usize] = (u32::MAX, u32::MAX);
        let mut space = SearchSpace::default();
        while let Some((d, v)) = frontier.pop() {
            let settled = space.vertices.len() as u32;
            space.vertices.push(v);
            space.dist.push(d);
            space.via.push(via[v as usize]);
            for e in arcs.range(v as usize) {
                let u = arcs.ends[e];
                if frontier.relax(u, W::extend(d, arcs.weights[e])) {
                    via[u as usize] = (settled, e as u32);
                }
            }
        }
        space
    })
}

impl SearchSpace {
    /// The arcs from the start to the reached vertex at index `i` of
    /// [`SearchSpace::vertices`], as `(lower vertex, arc index)`, start first.
    fn arcs_to(&self, i: usize) -> Vec<(u32, u32)> {
        let mut arcs = Vec::new();
        let mut at = i;
        while let (lower, e) = self.via[at]
            && lower != u32::MAX
        {
            arcs.push((self.vertices[lower as usize], e));
            at = lower as usize;
        }
        arcs.reverse();
        arcs
    }
}

/// The graph path of the arc `a → b` through `middle` (a shortcut, or an arc
/// of the graph with [`NO_MIDDLE`]): the positions after `a`, up to `b`.
/// A shortcut `a → b` through `m` is `a → m` (a down arc of `m`) then
/// `m → b` (an up arc of `m`).
pub fn unpack(h: &Hierarchy, a: u32, b: u32, middle: u32, path: &mut Vec<u32>) -> Result<()> {
    let mut stack = vec![(a, b, middle)];
    while let Some((a, b, m)) = stack.pop() {
        if m == NO_MIDDLE {
            path.push(b);
            continue;
        }
        let missing = || Error::Internal(format!("shortcut {a} → {b} through {m} has no halves"));
        let first = h.down.find(m as usize, a).ok_or_else(missing)?;
        let second = h.up.find(m as usize, b).ok_or_else(missing)?;
        stack.push((m, b, h.up.middles[second]));
        stack.push((a, m, h.down.middles[first]));
    }
    Ok(())
}

thread_local! {
    /// The two searches of a point-to-point query: forward, backward.
    static PAIR: RefCell<PairSearch> = RefCell::new(PairSearch::default());
}

/// The distance word from graph vertex `source` to graph vertex `target`
/// ([`INFINITY`] when unreachable): a bidirectional search, forward over up
/// arcs and backward over down arcs, the smaller queue first, each stopped
/// once its smallest key reaches the best meeting distance, and *stall on
/// demand*: a vertex that a higher vertex already reaches more cheaply (over
/// one arc of the other kind) is not expanded. With `f32` weights no vertex
/// is stalled: the comparison would be between sums rounded in different
/// orders, and stalling on it could drop the path the bound in
/// [`crate::ch`] relies on.
pub fn distance(h: &Hierarchy, source: usize, target: usize) -> u32 {
    distance_over(h, &[&h.up, &h.down], source, target)
}

/// [`distance`] over the arcs of `h` in the form `arcs` (see
/// [`super::query_graph`]).
pub(crate) fn distance_over(
    h: &Hierarchy,
    arcs: &impl UpDown,
    source: usize,
    target: usize,
) -> u32 {
    let stall_on_demand = h.weight_kind == WeightKind::U32;
    let (s, t) = (h.position[source], h.position[target]);
    let n = h.num_vertices();
    PAIR.with_borrow_mut(|pair| {
        pair.start(n, s, t);
        with_weight_type!(h.weight_kind, W => bidirectional::<W>(arcs, pair, stall_on_demand))
    })
}

fn bidirectional<W: Weight>(
    arcs: &impl UpDown,
    pair: &mut PairSearch,
    stall_on_demand: bool,
) -> u32 {
    let mut best = INFINITY;
    loop {
        let k = if pair.min_key(FORWARD) <= pair.min_key(BACKWARD) {
            FORWARD
        } else {
            BACKWARD
        };
        let Some((d, v)) = pair.pop(k) else {
            break;
        };
        if d >= best {
            break; // both queues' keys are at least `best`
        }
        let other = pair.dist(1 - k, v);
        if other != INFINITY {
            best = best.min(W::extend(d, other));
        }
        let stalled = stall_on_demand
            && arcs.arcs(1 - k, v).any(|(u, w)| {
                let du = pair.dist(k, u);
                du != INFINITY && W::extend(du, w) < d
            });
        if !stalled {
            for (u, w) in arcs.arcs(k, v) {
                let candidate = W::extend(d, w);
                // A vertex reached at `best` or more would only be popped
                // after the search has stopped, and any meeting through it
                // is no shorter than `best`.
                if candidate < best && pair.relax(k, u, candidate) {
                    arcs.prefetch(u);
                }
            }
        }
    }
    best
}

/// A point-to-point query between graph vertices: the distance word and the
/// path (graph vertices, `source` first), or `None` when `target` is
/// unreachable.
pub fn point_to_point(
    h: &Hierarchy,
    source: usize,
    target: usize,
) -> Result<Option<(u32, Vec<usize>)>> {
    let (s, t) = (h.position[source], h.position[target]);
    let forward = upward_search(h, &h.up, s);
    let backward = upward_search(h, &h.down, t);
    let extend = with_weight_type!(h.weight_kind, W => W::extend);
    let at: std::collections::HashMap<u32, usize> = backward
        .vertices
        .iter()
        .enumerate()
        .map(|(i, &v)| (v, i))
        .collect();
    let best = forward
        .vertices
        .iter()
        .enumerate()
        .filter_map(|(i, v)| {
            let j = *at.get(v)?;
            Some((extend(forward.dist[i], backward.dist[j]), i, j))
        })
        .min();
    let Some((dist, i, j)) = best else {
        return Ok(None);
    };
    let mut path = vec![s];
    for (lower, e) in forward.arcs_to(i) {
        let e = e as usize;
        unpack(h, lower, h.up.ends[e], h.up.middles[e], &mut path)?;
    }
    // Backward arcs, from the meeting vertex down to the target: each `(x, e)`
    // is the graph arc `ends[e] → x` of `x`'s down list.
    for (lower, e) in backward.arcs_to(j).into_iter().rev() {
        let e = e as usize;
        unpack(h, h.down.ends[e], lower, h.down.middles[e], &mut path)?;
    }
    let path = path
        .into_iter()
        .map(|p| h.vertex[p as usize] as usize)
        .collect();
    Ok(Some((dist, path)))
}

/// The `sources.len() × targets.len()` distance words between graph
/// vertices, row-major (one row per source), [`INFINITY`] where unreachable.
pub fn table(h: &Hierarchy, sources: &[usize], targets: &[usize]) -> Vec<u32> {
    let extend = with_weight_type!(h.weight_kind, W => W::extend);
    let n = h.num_vertices();
    let spaces: Vec<SearchSpace> = targets
        .par_iter()
        .map(|&t| upward_search(h, &h.down, h.position[t]))
        .collect();
    // Buckets: for each vertex, the (target index, distance to it) pairs.
    let mut offsets = vec![0u32; n + 1];
    for space in &spaces {
        for &v in &space.vertices {
            offsets[v as usize + 1] += 1;
        }
    }
    for v in 0..n {
        offsets[v + 1] += offsets[v];
    }
    let mut fill = offsets.clone();
    let mut entries = vec![(0u32, 0u32); offsets[n] as usize];
    for (j, space) in spaces.iter().enumerate() {
        for (&v, &d) in space.vertices.iter().zip(&space.dist) {
            entries[fill[v as usize] as usize] = (j as u32, d);
            fill[v as usize] += 1;
        }
    }
    let width = targets.len();
    let mut rows = vec![INFINITY; sources.len() * width];
    if width == 0 {
        return rows;
    }
    rows.par_chunks_mut(width)
        .zip(sources)
        .for_each(|(row, &s)| {
            let forward = upward_search(h, &h.up, h.position[s]);
            for (&v, &df) in forward.vertices.iter().zip(&forward.dist) {
                let bucket =
                    &entries[offsets[v as usize] as usize..offsets[v as usize + 1] as usize];
                for &(j, db) in bucket {
                    let d = extend(df, db);
                    if d < row[j as usize] {
                        row[j as usize] = d;
                    }
                }
            }
        });
    rows
}
