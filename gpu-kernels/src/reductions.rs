//! Per-thread logic of reductions over PHAST's trees that need no tree
//! copied to the host: per source, the vertices within a distance limit
//! and the sum of a per-vertex value over them (accessibility, isochrone
//! size); over all sources, each vertex's nearest source.
//!
//! They read a sweep's distances as [`crate::phast`] leaves them: `lanes`
//! sources interleaved by position, `dist[p * lanes + lane]`. A reduction
//! over one tree in graph order is the same with one lane.

use crate::distance::{INFINITY, SATURATED};

/// One thread's share of a [`within_part`] sum.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Within {
    /// Vertices no farther than the limit.
    pub count: u32,
    /// Distances that overflowed ([`SATURATED`]), whatever the limit.
    pub saturated: u32,
    /// The sum of their values (0 without values).
    pub sum: f64,
}

/// The vertices at positions `first, first + step, …` below
/// `dist.len() / lanes` whose distance in lane `lane` is at most `limit`
/// (a weight word; unreached vertices never count), and the sum of their
/// `values` (by position; empty: no values, the sum stays 0). Summed in
/// increasing position.
#[inline(always)]
pub fn within_part(
    dist: &[u32],
    (lanes, lane): (usize, usize),
    (first, step): (usize, usize),
    limit: u32,
    values: &[f64],
) -> Within {
    let n = dist.len() / lanes;
    let mut part = Within::default();
    let mut add = |p: usize, d: u32| {
        if d == SATURATED {
            part.saturated += 1;
        } else if d <= limit && d != INFINITY {
            part.count += 1;
            if !values.is_empty() {
                part.sum += values[p];
            }
        }
    };
    let mut p = first;
    // `AHEAD` positions a step, their words read before any is used: a
    // thread keeps that many loads in flight rather than one.
    while p + (AHEAD - 1) * step < n {
        let d: [u32; AHEAD] = core::array::from_fn(|k| dist[(p + k * step) * lanes + lane]);
        for (k, &d) in d.iter().enumerate() {
            add(p + k * step, d);
        }
        p += AHEAD * step;
    }
    while p < n {
        add(p, dist[p * lanes + lane]);
        p += step;
    }
    part
}

/// Loads a reduction's thread issues before it uses the first of them.
const AHEAD: usize = 8;

/// The total of lane `lane`'s parts `first, first + step, …` below
/// `strides`, each stored at `s * lanes + lane` of `counts` (pairs: count,
/// saturated) and `sums`, added in increasing `s`. With `(0, 1)`, all of
/// them; a kernel gives each of a warp's threads its own `first` and adds
/// their totals (`WITHIN_TOTAL_THREADS`).
#[inline(always)]
pub fn within_total(
    (counts, sums): (&[u32], &[f64]),
    (lanes, lane): (usize, usize),
    (first, step): (usize, usize),
    strides: usize,
) -> Within {
    let mut total = Within::default();
    let mut add = |(count, saturated, sum): (u32, u32, f64)| {
        total.count += count;
        total.saturated += saturated;
        total.sum += sum;
    };
    let part = |s: usize| {
        let t = s * lanes + lane;
        (counts[2 * t], counts[2 * t + 1], sums[t])
    };
    let mut s = first;
    while s + (AHEAD - 1) * step < strides {
        let parts: [(u32, u32, f64); AHEAD] = core::array::from_fn(|k| part(s + k * step));
        parts.into_iter().for_each(&mut add);
        s += AHEAD * step;
    }
    while s < strides {
        add(part(s));
        s += step;
    }
    total
}

/// Threads that add up one lane's parts in `reductions_within_total`: a
/// warp, each thread every 32nd part, their totals then added across it.
pub const WITHIN_TOTAL_THREADS: usize = 32;

/// Source `source`'s distance `d` to a vertex against the vertex's best so
/// far (`best`, `from`): taken only when strictly smaller, so that with
/// sources taken in increasing index the smallest index wins a tie.
#[inline(always)]
pub fn nearest_update(d: u32, source: u32, best: &mut u32, from: &mut u32) {
    if d < *best {
        *best = d;
        *from = source;
    }
}

/// The vertex at position `p` against the first `count` lanes of a sweep
/// (lane `l` is source index `first_source + l`), in increasing lane.
#[inline(always)]
pub fn nearest_vertex(
    dist: &[u32],
    (lanes, count): (usize, usize),
    first_source: u32,
    p: usize,
    (best, from): (&mut u32, &mut u32),
) {
    let row = &dist[p * lanes..p * lanes + count];
    for (l, &d) in row.iter().enumerate() {
        nearest_update(d, first_source + l as u32, best, from);
    }
}

/// The nearest source of a vertex no source reaches.
pub const NO_SOURCE: u32 = INFINITY;
