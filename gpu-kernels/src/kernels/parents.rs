//! Entry point of the shortest-path tree (`--parents`).

use core::sync::atomic::{AtomicU32, Ordering};

use crate::args::ParentsJoinRoundArgs;
use crate::device::memory::slice;
use crate::parents;

use super::for_vertex;

crate::args::parents_join_round_args! {
    /// One round of the shortest-path tree ([`parents::join_round`]): each vertex
    /// not yet in the tree scans its in-edges (the CSR is the predecessor CSR) for
    /// its parent. Round 0 writes every `parent` and `level`; the host repeats the
    /// launch with rounds 1, 2, … while a round stores 1 to `*more` (zeroed by the
    /// host before each launch).
    ///
    /// # Thread mapping
    /// One thread per vertex `v = blockIdx.x * blockDim.x + threadIdx.x`; threads
    /// with `v >= n` return.
    ///
    /// # Safety
    /// `offsets` holds `n + 1` elements, `targets` and `weights` `m`, `dist`,
    /// `parent` and `level` `n`, `more` one (module contract).
    /// `level` and `more` are only accessed atomically during the launch; each
    /// thread writes only `parent[v]`, which no thread reads.
    fn parents_join_round<W> as parents_join_round_u32, parents_join_round_f32 (args) {
        let ParentsJoinRoundArgs {
            offsets, targets, weights, n, m, source, round, dist, parent, level, more,
        } = args;
        let graph = (offsets, targets, weights);
        // SAFETY: lengths as documented; `dist` is read-only here, element `v`
        // of `parent` is this thread's alone, `level` and `more` are accessed
        // atomically.
        unsafe {
            for_vertex((offsets, targets, weights), (n, m), dist, |v, graph, dist| {
                let another_round = parents::join_round::<W>(
                    v,
                    source as usize,
                    round,
                    graph,
                    dist,
                    &mut *parent.add(v),
                    slice(level, n as usize),
                );
                if another_round {
                    (*more).store(1, Ordering::Relaxed);
                }
            })
        }
    }
}
