//! Entry points of the GPU Crauser frontier (Ortega-Arranz et al., §IV). Its
//! `relax` kernels are DA2CF's; its `minimum2` is DA2CF's.

use core::sync::atomic::AtomicU32;

use crate::args::{CrauserDeltaNodeArgs, CrauserMinimum1Args, VertexFlagsArgs};
use crate::crauser;
use crate::device::memory::slice;
use crate::device::thread::{block_dim_x, block_idx_x, index_1d, thread_idx_x};
use crate::reduce::pair_indices;

use super::{block_minimum_to, csr};

crate::args::crauser_delta_node_args! {
    /// `Δ_node(i)`, the smallest weight leaving `i`, from the successor CSR.
    ///
    /// # Thread mapping
    /// One thread per vertex `i`; threads with `i >= n` return.
    ///
    /// # Safety
    /// `offsets` holds `n + 1` elements, `targets` and `weights` `m`, `delta_node` `n`
    /// (module contract).
    fn crauser_delta_node_succ(args) {
        let CrauserDeltaNodeArgs { offsets, targets, weights, n, m, delta_node } = args;
        let i = index_1d();
        if i >= n {
            return;
        }
        let i = i as usize;
        // SAFETY: lengths as documented; each thread writes only `delta_node[i]`.
        unsafe {
            *delta_node.add(i) =
                crauser::delta_node(i, csr(offsets, targets, weights, n as usize, m as usize))
        }
    }
}

crate::args::crauser_delta_node_args! {
    /// `Δ_node` from the predecessor CSR: vertex `i` lowers `Δ_node(j)` of its
    /// predecessors with an atomic minimum. `delta_node` must start at infinity.
    ///
    /// # Thread mapping
    /// One thread per vertex `i`; threads with `i >= n` return.
    ///
    /// # Safety
    /// `offsets` holds `n + 1` elements, `targets` and `weights` `m`, `delta_node` `n`
    /// and is only accessed atomically during the launch (module contract).
    fn crauser_delta_node_pred(args) {
        let CrauserDeltaNodeArgs { offsets, targets, weights, n, m, delta_node } = args;
        let delta_node = delta_node.cast_const().cast::<AtomicU32>();
        let i = index_1d();
        if i >= n {
            return;
        }
        let (n, m) = (n as usize, m as usize);
        // SAFETY: lengths as documented.
        unsafe {
            crauser::scatter_delta_node(
                i as usize,
                csr(offsets, targets, weights, n, m),
                slice(delta_node, n),
            )
        }
    }
}

crate::args::crauser_minimum1_args! {
    /// `minimum1` of the general variant: per-block minima of
    /// `dist(u) + Δ_node(u)` over unsettled `u`.
    ///
    /// # Thread mapping
    /// As `da2cf_minimum1`: `ceil(n / (2 * blockDim.x))` blocks, two vertices per
    /// thread, one minimum per block into `block_minima`.
    ///
    /// # Safety
    /// `dist`, `delta_node` and `unsettled` hold `n` elements, `block_minima` one per
    /// block; `blockDim.x` is a power of two with 4 bytes of dynamic shared memory per
    /// thread.
    fn crauser_minimum1<W> as crauser_minimum1_u32, crauser_minimum1_f32 (args) {
        let CrauserMinimum1Args { dist, delta_node, unsettled, n, block_minima } = args;
        let n = n as usize;
        // SAFETY: lengths as documented; all three arrays are read-only here.
        let (dist, delta_node, unsettled) =
            unsafe { (slice(dist, n), slice(delta_node, n), slice(unsettled, n)) };
        let (i, j) = pair_indices(
            block_idx_x() as usize,
            block_dim_x() as usize,
            thread_idx_x() as usize,
        );
        let value = crauser::minimum_input::<W>(i, dist, delta_node, unsettled)
            .min(crauser::minimum_input::<W>(j, dist, delta_node, unsettled));
        // SAFETY: every thread of the block gets here; launch shape as documented.
        unsafe { block_minimum_to(value, block_minima) }
    }
}

crate::args::vertex_flags_args! {
    /// `update` of Crauser's frontier: the frontier becomes the unsettled vertices
    /// with `dist <= delta`.
    ///
    /// # Thread mapping
    /// One thread per vertex `i`; threads with `i >= n` return.
    ///
    /// # Safety
    /// `dist`, `frontier` and `unsettled` hold `n` elements each (module contract).
    fn crauser_update(args) {
        let VertexFlagsArgs { dist, frontier, unsettled, n, value: delta } = args;
        let i = index_1d();
        if i >= n {
            return;
        }
        let i = i as usize;
        // SAFETY: `i < n`, and each thread touches only element `i`.
        unsafe {
            crauser::update(
                *dist.add(i),
                &mut *frontier.add(i),
                &mut *unsettled.add(i),
                delta,
            )
        }
    }
}
