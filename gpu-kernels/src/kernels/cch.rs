//! Entry points of the CCH customization ([`crate::cch_customize`]): the
//! arcs of one level, one thread each, or one warp each (for levels of few
//! arcs or many triangles an arc).

use core::sync::atomic::AtomicU32;

use crate::args::CchCustomizeArgs;
use crate::cch_customize::{self, ArcWeights, Best, Triangles};
use crate::device::memory::slice;
use crate::device::thread::index_1d;
use crate::device::warp::{WARP_SIZE, lane_id, reduce_min};

crate::args::cch_customize_args! {
    /// `cch_customize`: arcs `first..first + count` (the arcs whose lower
    /// endpoint is at one level) take their best lower triangle
    /// ([`cch_customize::customize_arc`], `u32` weights).
    ///
    /// # Thread mapping
    /// One thread per arc `first + i`, `i = blockIdx.x * blockDim.x +
    /// threadIdx.x`; threads with `i >= count` return.
    ///
    /// # Safety
    /// `triangle_offsets` holds `m + 1` words, non-decreasing from 0 to
    /// `triangles`; `lower` and `upper` hold `triangles` arcs `< m`, `tails`
    /// and the four weight arrays `m` words; `first + count <= m`; every
    /// triangle of these arcs is made of arcs outside `first..first + count`
    /// (of lower levels, customized by earlier launches).
    fn cch_customize(args) {
        let i = index_1d();
        let (first, count) = (args.first, args.count);
        if i < count {
            // SAFETY: as the caller guarantees.
            let (triangles, weights) = unsafe { views(&args) };
            cch_customize::customize_arc::<u32>(triangles, weights, (first + i) as usize);
        }
    }
}

crate::args::cch_customize_args! {
    /// `cch_customize_warps`: arcs `first..first + count` (the arcs whose
    /// lower endpoint is at one level) take their best lower triangle, one
    /// warp an arc: each lane scans every 32nd triangle
    /// ([`cch_customize::scan`]), the warp takes the lexicographic minimum of
    /// (weight, triangle), and lane 0 applies it ([`cch_customize::apply`]):
    /// the same words as `cch_customize`.
    ///
    /// # Thread mapping
    /// Warp `w = index_1d() / 32` handles arc `first + w`; warps with `w >=
    /// count` return whole.
    ///
    /// # Safety
    /// As `cch_customize`.
    fn cch_customize_warps(args) {
        let w = index_1d() / WARP_SIZE;
        let (first, count) = (args.first, args.count);
        if w < count {
            // SAFETY: as the caller guarantees.
            let (triangles, weights) = unsafe { views(&args) };
            let arc = (first + w) as usize;
            let mine = cch_customize::scan::<u32>(
                triangles, weights, arc, (lane_id() as usize, WARP_SIZE as usize),
            );
            // SAFETY: the whole warp is here (`w` is uniform over it).
            let best = unsafe {
                let side = |(via, t): (u32, u32)| {
                    let via_best = reduce_min(via);
                    (via_best, reduce_min(if via == via_best { t } else { u32::MAX }))
                };
                Best { forward: side(mine.forward), backward: side(mine.backward) }
            };
            if lane_id() == 0 {
                cch_customize::apply(triangles, weights, arc, best);
            }
        }
    }
}

/// The triangles and weights of `args`.
///
/// # Safety
/// As the kernels' callers guarantee: the lengths of `cch_customize`.
#[inline(always)]
unsafe fn views(args: &CchCustomizeArgs) -> (Triangles<'static>, ArcWeights<'static>) {
    let (m, t) = (args.m as usize, args.triangles as usize);
    // SAFETY: as the caller guarantees.
    unsafe {
        (
            Triangles {
                offsets: slice(args.triangle_offsets, m + 1),
                lower: slice(args.lower, t),
                upper: slice(args.upper, t),
                tails: slice(args.tails, m),
            },
            ArcWeights {
                forward: slice(args.forward, m),
                backward: slice(args.backward, m),
                forward_middle: slice(args.forward_middle, m),
                backward_middle: slice(args.backward_middle, m),
            },
        )
    }
}
