//! Entry points of the reductions over a sweep's trees
//! ([`crate::reductions`]).

use crate::args::{ReductionsNearestArgs, ReductionsWithinPartArgs, ReductionsWithinTotalArgs};
use crate::device::memory::slice;
use crate::device::thread::index_1d;
use crate::device::warp;
use crate::reductions::{self, WITHIN_TOTAL_THREADS};

crate::args::reductions_within_part_args! {
    /// `reductions_within_part`: each thread's share of every lane's
    /// vertices within `limit` and their values' sum
    /// ([`reductions::within_part`]).
    ///
    /// # Thread mapping
    /// Thread `t = blockIdx.x * blockDim.x + threadIdx.x` takes lane
    /// `t % lanes` at positions `t / lanes + k * strides`, so a warp reads
    /// contiguous runs of lanes; threads with `t >= lanes * strides` return.
    ///
    /// # Safety
    /// `dist` holds `n * lanes` words, `values` `values_len` (`n` or 0),
    /// `counts` `2 * lanes * strides`, `sums` `lanes * strides`; element `t`
    /// of `sums` and `2t, 2t + 1` of `counts` are this thread's alone.
    fn reductions_within_part(args) {
        let ReductionsWithinPartArgs {
            dist, n, lanes, strides, limit, values, values_len, counts, sums,
        } = args;
        let (lanes, strides) = (lanes as usize, strides as usize);
        let t = index_1d() as usize;
        if t >= lanes * strides {
            return;
        }
        // SAFETY: lengths as the caller guarantees; this thread's elements
        // of `counts` and `sums` are its alone.
        unsafe {
            let part = reductions::within_part(
                slice(dist, n as usize * lanes),
                (lanes, t % lanes),
                (t / lanes, strides),
                limit,
                slice(values, values_len as usize),
            );
            *counts.add(2 * t) = part.count;
            *counts.add(2 * t + 1) = part.saturated;
            *sums.add(t) = part.sum;
        }
    }
}

crate::args::reductions_within_total_args! {
    /// `reductions_within_total`: each lane's total of its parts, stored as
    /// result row `first_row + lane` ([`reductions::within_total`]).
    ///
    /// # Thread mapping
    /// One warp per lane `l = t / 32` (`t = blockIdx.x * blockDim.x +
    /// threadIdx.x`): thread `j = t % 32` adds parts `j, j + 32, …`, and the
    /// warp adds its threads' totals ([`warp::sum_u32`], [`warp::sum_f64`]);
    /// thread 0 of the warp stores them. Warps with `l >= count` return
    /// whole.
    ///
    /// # Safety
    /// `counts` holds `2 * lanes * strides` words, `sums` `lanes * strides`;
    /// `count <= lanes`; `first_row + count <= rows_len`, `out_counts` holds
    /// `2 * rows_len` and `out_sums` `rows_len`; blocks are whole warps.
    fn reductions_within_total(args) {
        let ReductionsWithinTotalArgs {
            counts, sums, lanes, strides, count, first_row, out_counts, out_sums, rows_len,
        } = args;
        let (lanes, strides) = (lanes as usize, strides as usize);
        let t = index_1d() as usize;
        let (lane, j) = (t / WITHIN_TOTAL_THREADS, t % WITHIN_TOTAL_THREADS);
        if lane >= count as usize {
            return;
        }
        let row = first_row as usize + lane;
        // SAFETY: lengths as the caller guarantees; the 32 threads of this
        // warp share `lane` (blocks are whole warps), so all of them reach
        // the warp sums together; result row `row` is this warp's alone,
        // written by its thread 0.
        unsafe {
            let part = reductions::within_total(
                (slice(counts, 2 * lanes * strides), slice(sums, lanes * strides)),
                (lanes, lane),
                (j, WITHIN_TOTAL_THREADS),
                strides,
            );
            let count = warp::sum_u32(part.count);
            let saturated = warp::sum_u32(part.saturated);
            let sum = warp::sum_f64(part.sum);
            if j == 0 && row < rows_len as usize {
                *out_counts.add(2 * row) = count;
                *out_counts.add(2 * row + 1) = saturated;
                *out_sums.add(row) = sum;
            }
        }
    }
}

crate::args::reductions_nearest_args! {
    /// `reductions_nearest`: each vertex's best distance and nearest source
    /// so far against the first `count` lanes of a sweep
    /// ([`reductions::nearest_vertex`]).
    ///
    /// # Thread mapping
    /// One thread per position `p = blockIdx.x * blockDim.x + threadIdx.x`;
    /// threads with `p >= n` return.
    ///
    /// # Safety
    /// `dist` holds `n * lanes` words, `count <= lanes`; `best` and `from`
    /// hold `n` words, element `p` this thread's alone.
    fn reductions_nearest(args) {
        let ReductionsNearestArgs { dist, n, lanes, count, first_source, best, from } = args;
        let p = index_1d() as usize;
        if p >= n as usize {
            return;
        }
        let lanes = lanes as usize;
        // SAFETY: lengths as the caller guarantees; element `p` of `best`
        // and `from` is this thread's alone.
        unsafe {
            reductions::nearest_vertex(
                slice(dist, n as usize * lanes),
                (lanes, count as usize),
                first_source,
                p,
                (&mut *best.add(p), &mut *from.add(p)),
            );
        }
    }
}
