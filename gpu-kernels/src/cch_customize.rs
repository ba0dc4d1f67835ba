//! Customization of a customizable contraction hierarchy (CCH; Dibbelt,
//! Strasser, Wagner 2014): the per-arc step of the basic customization (the
//! host's `sssp::cch` builds the supergraph and its triangles).
//!
//! The supergraph's arcs are grouped by their lower endpoint, its vertices
//! numbered by level (the bottom level first), so the arcs whose lower
//! endpoint is at one level are contiguous. Each arc `(u, v)`, `u` lower, has
//! two weights: `forward` (`u → v`) and `backward` (`v → u`). Its *lower
//! triangles* are the vertices `x` below `u` adjacent to both, given as the
//! pair of arcs `(x, u)`, `(x, v)`; both have their lower endpoint `x` on a
//! lower level than `u`, so the arcs of one level depend only on arcs of
//! lower levels and a level runs in parallel once the levels below it are
//! final.

use core::sync::atomic::AtomicU32;
use core::sync::atomic::Ordering::Relaxed;

use crate::distance::{INFINITY, Weight};

/// The middle of an arc whose weight is its graph arc's (no triangle is
/// shorter).
pub const NO_MIDDLE: u32 = u32::MAX;

/// The lower triangles of every supergraph arc (a CSR over arcs): triangle
/// `t` of arc `a` (`offsets[a] <= t < offsets[a + 1]`) is the arc
/// `lower[t] = (x, u)` and the arc `upper[t] = (x, v)`; `tails[e]` is the
/// lower endpoint of arc `e` (so `x = tails[lower[t]]`).
#[derive(Clone, Copy)]
pub struct Triangles<'a> {
    /// Row offsets, one per arc and one more.
    pub offsets: &'a [u32],
    /// The arc `(x, u)` of each triangle.
    pub lower: &'a [u32],
    /// The arc `(x, v)` of each triangle.
    pub upper: &'a [u32],
    /// The lower endpoint of each arc.
    pub tails: &'a [u32],
}

/// The weights of every supergraph arc being customized, and the middle of
/// the triangle that gave each ([`NO_MIDDLE`]: the graph's arc).
#[derive(Clone, Copy)]
pub struct ArcWeights<'a> {
    /// The weight of each arc `(u, v)` from `u` (lower) to `v`.
    pub forward: &'a [AtomicU32],
    /// The weight from `v` to `u`.
    pub backward: &'a [AtomicU32],
    /// The middle vertex of the forward weight.
    pub forward_middle: &'a [AtomicU32],
    /// The middle vertex of the backward weight.
    pub backward_middle: &'a [AtomicU32],
}

/// The weight of a path of two arcs: [`INFINITY`] when either is missing,
/// else their saturating sum.
#[inline(always)]
pub fn join<W: Weight>(a: u32, b: u32) -> u32 {
    if a == INFINITY || b == INFINITY {
        INFINITY
    } else {
        W::extend(a, b)
    }
}

/// No triangle ([`Best`] of a lane that scanned none).
pub const NO_TRIANGLE: u32 = u32::MAX;

/// The best lower triangle of an arc in each direction that one lane saw: its
/// weight and index (the smallest index among equal weights;
/// `(INFINITY, NO_TRIANGLE)` for none). The best of several lanes is the
/// lexicographic minimum of theirs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Best {
    /// `u → x → v`: (weight, triangle).
    pub forward: (u32, u32),
    /// `v → x → u`: (weight, triangle).
    pub backward: (u32, u32),
}

/// The best of the lower triangles of arc `arc` that lane `lane` of `lanes`
/// scans (`start + lane`, `start + lane + lanes`, …). Every arc of its
/// triangles must be final already (on lower levels); the caller keeps `arc`
/// in range. `W` is the weights' type.
#[inline(always)]
pub fn scan<W: Weight>(
    triangles: Triangles,
    weights: ArcWeights,
    arc: usize,
    (lane, lanes): (usize, usize),
) -> Best {
    let mut best = Best {
        forward: (INFINITY, NO_TRIANGLE),
        backward: (INFINITY, NO_TRIANGLE),
    };
    let (start, end) = (
        triangles.offsets[arc] as usize,
        triangles.offsets[arc + 1] as usize,
    );
    let mut t = start + lane;
    while t < end {
        let (xu, xv) = (triangles.lower[t] as usize, triangles.upper[t] as usize);
        let via = join::<W>(
            weights.backward[xu].load(Relaxed),
            weights.forward[xv].load(Relaxed),
        );
        if via < best.forward.0 {
            best.forward = (via, t as u32);
        }
        let via = join::<W>(
            weights.backward[xv].load(Relaxed),
            weights.forward[xu].load(Relaxed),
        );
        if via < best.backward.0 {
            best.backward = (via, t as u32);
        }
        t += lanes;
    }
    best
}

/// Arc `arc` takes `best` (over all its triangles) where it is strictly
/// shorter than the arc's own weight, with the triangle's lower vertex as
/// the middle.
#[inline(always)]
pub fn apply(triangles: Triangles, weights: ArcWeights, arc: usize, best: Best) {
    let sides = [
        (best.forward, weights.forward, weights.forward_middle),
        (best.backward, weights.backward, weights.backward_middle),
    ];
    for ((via, t), weight, middle) in sides {
        if via < weight[arc].load(Relaxed) {
            weight[arc].store(via, Relaxed);
            middle[arc].store(
                triangles.tails[triangles.lower[t as usize] as usize],
                Relaxed,
            );
        }
    }
}

/// Customizes arc `arc` alone: each weight becomes the smaller of its own and
/// the best over its lower triangles (`u → x → v` forward, `v → x → u`
/// backward), the first such triangle of a strictly smaller weight giving the
/// middle ([`scan`] with one lane, then [`apply`]).
#[inline(always)]
pub fn customize_arc<W: Weight>(triangles: Triangles, weights: ArcWeights, arc: usize) {
    let best = scan::<W>(triangles, weights, arc, (0, 1));
    apply(triangles, weights, arc, best);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distance::SATURATED;

    #[test]
    fn join_keeps_missing_arcs_missing_and_saturates() {
        assert_eq!(join::<u32>(INFINITY, 3), INFINITY);
        assert_eq!(join::<u32>(3, INFINITY), INFINITY);
        assert_eq!(join::<u32>(3, 4), 7);
        assert_eq!(join::<u32>(u32::MAX - 3, 4), SATURATED);
    }

    #[test]
    fn an_arc_takes_its_shortest_triangle() {
        // Arcs: 0 = (x, u), 1 = (x, v), 2 = (u, v); x = 0, u = 1, v = 2.
        let triangles = Triangles {
            offsets: &[0, 0, 0, 1],
            lower: &[0],
            upper: &[1],
            tails: &[0, 0, 1],
        };
        let words = |w: [u32; 3]| w.map(AtomicU32::new);
        let (forward, backward) = (words([2, 5, 10]), words([3, 1, INFINITY]));
        let (fm, bm) = (words([NO_MIDDLE; 3]), words([NO_MIDDLE; 3]));
        let weights = ArcWeights {
            forward: &forward,
            backward: &backward,
            forward_middle: &fm,
            backward_middle: &bm,
        };
        customize_arc::<u32>(triangles, weights, 2);
        // u → x → v = 3 + 5 < 10; v → x → u = 1 + 2.
        assert_eq!(forward[2].load(Relaxed), 8);
        assert_eq!(backward[2].load(Relaxed), 3);
        assert_eq!(fm[2].load(Relaxed), 0);
        assert_eq!(bm[2].load(Relaxed), 0);
    }

    #[test]
    fn lanes_combined_give_the_one_lane_answer() {
        // Arc 8 = (u, v) with four triangles of equal and unequal weights:
        // arcs 0..3 are (x, u) and 4..7 (x, v) for x = 0..3; u = 4, v = 5.
        let offsets = [0, 0, 0, 0, 0, 0, 0, 0, 0, 4];
        let (lower, upper) = ([0, 1, 2, 3], [4, 5, 6, 7]);
        let tails = [0, 1, 2, 3, 0, 1, 2, 3, 4];
        let triangles = Triangles {
            offsets: &offsets,
            lower: &lower,
            upper: &upper,
            tails: &tails,
        };
        let words = |w: [u32; 9]| w.map(AtomicU32::new);
        for lanes in 1..6 {
            let forward = words([1, 1, 1, 1, 5, 3, 3, 9, 20]);
            let backward = words([4, 2, 2, 2, 1, 1, 1, 1, INFINITY]);
            let (fm, bm) = (words([NO_MIDDLE; 9]), words([NO_MIDDLE; 9]));
            let weights = ArcWeights {
                forward: &forward,
                backward: &backward,
                forward_middle: &fm,
                backward_middle: &bm,
            };
            let mut best = scan::<u32>(triangles, weights, 8, (0, lanes));
            for lane in 1..lanes {
                let other = scan::<u32>(triangles, weights, 8, (lane, lanes));
                best.forward = best.forward.min(other.forward);
                best.backward = best.backward.min(other.backward);
            }
            apply(triangles, weights, 8, best);
            // u → x → v: backward[(x, u)] + forward[(x, v)] = 4+5, 2+3, 2+3, 2+9.
            assert_eq!(
                (forward[8].load(Relaxed), fm[8].load(Relaxed)),
                (5, 1),
                "{lanes} lanes"
            );
            // v → x → u: backward[(x, v)] + forward[(x, u)] = 1+1 each: the first.
            assert_eq!(
                (backward[8].load(Relaxed), bm[8].load(Relaxed)),
                (2, 0),
                "{lanes} lanes"
            );
        }
    }
}
