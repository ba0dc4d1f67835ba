//! Distances, and on request paths, for a list of (source, target) pairs of
//! graph vertices, in parallel over the pairs (rayon).
//!
//! The pairs are grouped by source. A source with at least
//! [`MANY_TARGETS`] targets is answered one-to-many: one complete forward
//! upward search, whose distances stay in a dense array, then for each
//! target a backward upward search that stops once its smallest key reaches
//! the best meeting distance (the bucket method of [`super::query::table`]
//! for one source, without the buckets). Every other pair is one
//! bidirectional query ([`super::query::distance`]). Each worker thread
//! keeps its search arrays from one query to the next and resets only what
//! the last search touched, so a query costs what it reaches, not the
//! graph's size.

use std::cell::RefCell;

use gpu_kernels::distance::{INFINITY, Weight};
use rayon::prelude::*;

use super::frontier::Frontier;
use super::index::Hierarchy;
use super::query;
use super::query_graph::{QueryGraph, UpDown};
use crate::graph::{WeightKind, with_weight_type};
use crate::{Error, Result};

/// The targets from which a source is answered one-to-many. The forward
/// search then runs once instead of once per target, which saves about half
/// of a bidirectional query per target; below a few dozen targets the
/// complete forward search (a bidirectional query stops its forward half
/// early) costs more than it saves.
pub const MANY_TARGETS: usize = 64;

/// The targets of one source that one worker answers after one forward
/// search: a source with a million targets still spreads over every core.
const TARGETS_PER_TASK: usize = 4096;

/// Vertices of the index per single pair from which the single pairs' queries
/// read a [`QueryGraph`] built for them. Building it costs about as much as
/// a thousand queries save (17 ms against 15 µs a query on a road graph of
/// 1.17 M vertices and 3.2 M up arcs, on two cores), so below about one
/// pair per 512 vertices the queries read the index's own arcs.
const VERTICES_PER_SINGLE: usize = 512;

thread_local! {
    /// The forward and the backward search of the one-to-many queries.
    static MANY: RefCell<[Frontier; 2]> = RefCell::new(Default::default());
}

/// Paths of pairs, concatenated: pair `i` has distance word `dist[i]` and
/// path `vertices[offsets[i]..offsets[i + 1]]` (graph vertices, its source
/// first; empty when its target is unreachable).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairPaths {
    /// Distance word of each pair, [`INFINITY`] when unreachable.
    pub dist: Vec<u32>,
    /// Path offsets, one per pair and one more.
    pub offsets: Vec<usize>,
    /// The paths' graph vertices.
    pub vertices: Vec<usize>,
}

/// The distance word of each pair `(source, target)` of graph vertices,
/// [`INFINITY`] where the target is unreachable. A vertex out of range is an
/// [`Error::InvalidArgument`] naming the pair's index and the vertex.
pub fn pair_distances(h: &Hierarchy, pairs: &[(usize, usize)]) -> Result<Vec<u32>> {
    check_pairs(h, pairs)?;
    let mut order: Vec<u32> = (0..pairs.len() as u32).collect();
    order.par_sort_unstable_by_key(|&i| pairs[i as usize].0);
    let mut sorted = vec![INFINITY; pairs.len()];
    // One task per source with few targets, per slice of TARGETS_PER_TASK
    // targets of a source with many.
    let mut tasks = Vec::new();
    let (mut rest_order, mut rest_out) = (&order[..], &mut sorted[..]);
    while let Some(&first) = rest_order.first() {
        let source = pairs[first as usize].0;
        let run = rest_order.partition_point(|&i| pairs[i as usize].0 == source);
        let step = if run >= MANY_TARGETS {
            run.min(TARGETS_PER_TASK)
        } else {
            run
        };
        let (task_order, next_order) = rest_order.split_at(step);
        let (task_out, next_out) = std::mem::take(&mut rest_out).split_at_mut(step);
        tasks.push((run >= MANY_TARGETS, task_order, task_out));
        (rest_order, rest_out) = (next_order, next_out);
    }
    let singles: usize = tasks
        .iter()
        .filter(|task| !task.0)
        .map(|task| task.1.len())
        .sum();
    let graph = (singles * VERTICES_PER_SINGLE >= h.num_vertices()).then(|| QueryGraph::new(h));
    match &graph {
        Some(QueryGraph::Symmetric(arcs)) => answer(h, arcs, pairs, tasks),
        Some(QueryGraph::Merged(arcs)) => answer(h, arcs, pairs, tasks),
        None => answer(h, &[&h.up, &h.down], pairs, tasks),
    }
    let mut dist = vec![INFINITY; pairs.len()];
    for (&i, &d) in order.iter().zip(&sorted) {
        dist[i as usize] = d;
    }
    Ok(dist)
}

/// One task of [`pair_distances`]: whether its source has many targets, its
/// pairs (indices into the pairs) and their distances.
type Task<'a> = (bool, &'a [u32], &'a mut [u32]);

/// The distances of the pairs of `tasks`, single pairs over `arcs`.
fn answer(h: &Hierarchy, arcs: &(impl UpDown + Sync), pairs: &[(usize, usize)], tasks: Vec<Task>) {
    tasks.into_par_iter().for_each(|(many, task, out)| {
        if many {
            one_to_many(h, pairs, task, out);
        } else {
            for (&i, d) in task.iter().zip(out) {
                let (s, t) = pairs[i as usize];
                *d = query::distance_over(h, arcs, s, t);
            }
        }
    });
}

/// [`pair_distances`] with each pair's path unpacked
/// ([`query::point_to_point`]).
pub fn pair_paths(h: &Hierarchy, pairs: &[(usize, usize)]) -> Result<PairPaths> {
    check_pairs(h, pairs)?;
    let found: Vec<Option<(u32, Vec<usize>)>> = pairs
        .par_iter()
        .map(|&(s, t)| query::point_to_point(h, s, t))
        .collect::<Result<_>>()?;
    let mut paths = PairPaths {
        dist: Vec::with_capacity(pairs.len()),
        offsets: Vec::with_capacity(pairs.len() + 1),
        vertices: Vec::new(),
    };
    paths.offsets.push(0);
    for pair in found {
        let (d, path) = pair.unwrap_or((INFINITY, Vec::new()));
        paths.dist.push(d);
        paths.vertices.extend(path);
        paths.offsets.push(paths.vertices.len());
    }
    Ok(paths)
}

/// An [`Error::InvalidArgument`] for the first pair with a vertex out of
/// range.
pub(crate) fn check_pairs(h: &Hierarchy, pairs: &[(usize, usize)]) -> Result<()> {
    let n = h.num_vertices();
    let bad = pairs
        .par_iter()
        .enumerate()
        .find_first(|&(_, &(s, t))| s >= n || t >= n);
    match bad {
        None => Ok(()),
        Some((i, &(s, t))) => {
            let (what, v) = if s >= n { ("source", s) } else { ("target", t) };
            Err(Error::InvalidArgument(format!(
                "pair {i} ({s}, {t}): {what} vertex {v} is out of range: the index has {n} vertices"
            )))
        }
    }
}

/// The distances of the pairs `task` (indices into `pairs`, all of one
/// source) into `out`.
fn one_to_many(h: &Hierarchy, pairs: &[(usize, usize)], task: &[u32], out: &mut [u32]) {
    let stall_on_demand = h.weight_kind == WeightKind::U32;
    with_weight_type!(h.weight_kind, W => one_to_many_with::<W>(h, pairs, task, out, stall_on_demand))
}

fn one_to_many_with<W: Weight>(
    h: &Hierarchy,
    pairs: &[(usize, usize)],
    task: &[u32],
    out: &mut [u32],
    stall_on_demand: bool,
) {
    let Some(&first) = task.first() else {
        return;
    };
    let n = h.num_vertices();
    MANY.with_borrow_mut(|[forward, backward]| {
        // The complete forward upward search: its distances stay in
        // `forward` for every target.
        forward.start(n, h.position[pairs[first as usize].0]);
        while let Some((d, v)) = forward.pop() {
            for e in h.up.range(v as usize) {
                forward.relax(h.up.ends[e], W::extend(d, h.up.weights[e]));
            }
        }
        for (&i, out) in task.iter().zip(out) {
            backward.start(n, h.position[pairs[i as usize].1]);
            let mut best = INFINITY;
            while let Some((d, v)) = backward.pop() {
                if d >= best {
                    break; // every later meeting is at least `best`
                }
                let f = forward.dist(v);
                if f != INFINITY {
                    best = best.min(W::extend(f, d));
                }
                // Stall on demand as in `query::distance`: a higher vertex
                // reaches the target more cheaply than `d` over an up arc.
                let stalled = stall_on_demand
                    && h.up.range(v as usize).any(|e| {
                        let u = backward.dist(h.up.ends[e]);
                        u != INFINITY && W::extend(u, h.up.weights[e]) < d
                    });
                if !stalled {
                    for e in h.down.range(v as usize) {
                        backward.relax(h.down.ends[e], W::extend(d, h.down.weights[e]));
                    }
                }
            }
            *out = best;
        }
    });
}
