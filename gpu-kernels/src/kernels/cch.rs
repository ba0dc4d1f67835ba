//! Entry point of the CCH customization ([`crate::cch_customize`]): the arcs
//! of one level, one thread each.

use core::sync::atomic::AtomicU32;

use crate::args::CchCustomizeArgs;
use crate::cch_customize::{self, ArcWeights, Triangles};
use crate::device::memory::slice;
use crate::device::thread::index_1d;

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
        let CchCustomizeArgs {
            triangle_offsets, lower, upper, tails, m, triangles,
            forward, backward, forward_middle, backward_middle, first, count,
        } = args;
        let i = index_1d();
        if i < count {
            let (m, t) = (m as usize, triangles as usize);
            // SAFETY: as the caller guarantees.
            let (triangles, weights) = unsafe {
                (
                    Triangles {
                        offsets: slice(triangle_offsets, m + 1),
                        lower: slice(lower, t),
                        upper: slice(upper, t),
                        tails: slice(tails, m),
                    },
                    ArcWeights {
                        forward: slice(forward, m),
                        backward: slice(backward, m),
                        forward_middle: slice(forward_middle, m),
                        backward_middle: slice(backward_middle, m),
                    },
                )
            };
            cch_customize::customize_arc::<u32>(triangles, weights, (first + i) as usize);
        }
    }
}
