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
    let mut p = first;
    while p < n {
        let d = dist[p * lanes + lane];
        if d == SATURATED {
            part.saturated += 1;
        } else if d <= limit && d != INFINITY {
            part.count += 1;
            if !values.is_empty() {
                part.sum += values[p];
            }
        }
        p += step;
    }
    part
}

/// The total of lane `lane`'s `strides` parts, each stored at `s * lanes +
/// lane` (`s < strides`) of `counts` (pairs: count, saturated) and `sums`,
/// added in increasing `s`.
#[inline(always)]
pub fn within_total(
    (counts, sums): (&[u32], &[f64]),
    (lanes, lane): (usize, usize),
    strides: usize,
) -> Within {
    let mut total = Within::default();
    for s in 0..strides {
        let t = s * lanes + lane;
        total.count += counts[2 * t];
        total.saturated += counts[2 * t + 1];
        total.sum += sums[t];
    }
    total
}

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
