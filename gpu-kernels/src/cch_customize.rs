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

/// Customizes arc `arc`: each weight becomes the smaller of its own and the
/// best over its lower triangles (`u → x → v` forward, `v → x → u`
/// backward), the first such triangle of a strictly smaller weight giving the
/// middle. Every arc of its triangles must be final already (on lower
/// levels); the caller keeps `arc` in range. `W` is the weights' type.
#[inline(always)]
pub fn customize_arc<W: Weight>(triangles: Triangles, weights: ArcWeights, arc: usize) {
    let mut forward = weights.forward[arc].load(Relaxed);
    let mut backward = weights.backward[arc].load(Relaxed);
    let mut forward_middle = weights.forward_middle[arc].load(Relaxed);
    let mut backward_middle = weights.backward_middle[arc].load(Relaxed);
    let (start, end) = (
        triangles.offsets[arc] as usize,
        triangles.offsets[arc + 1] as usize,
    );
    for t in start..end {
        let (xu, xv) = (triangles.lower[t] as usize, triangles.upper[t] as usize);
        let (xu_forward, xu_backward) = (
            weights.forward[xu].load(Relaxed),
            weights.backward[xu].load(Relaxed),
        );
        let (xv_forward, xv_backward) = (
            weights.forward[xv].load(Relaxed),
            weights.backward[xv].load(Relaxed),
        );
        let via = join::<W>(xu_backward, xv_forward);
        if via < forward {
            forward = via;
            forward_middle = triangles.tails[xu];
        }
        let via = join::<W>(xv_backward, xu_forward);
        if via < backward {
            backward = via;
            backward_middle = triangles.tails[xu];
        }
    }
    weights.forward[arc].store(forward, Relaxed);
    weights.backward[arc].store(backward, Relaxed);
    weights.forward_middle[arc].store(forward_middle, Relaxed);
    weights.backward_middle[arc].store(backward_middle, Relaxed);
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
}
