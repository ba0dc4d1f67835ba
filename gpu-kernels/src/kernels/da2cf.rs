//! Entry points of DA2CF (Martín et al., Fig. 2–4).

use core::sync::atomic::AtomicU32;

use crate::args::{Da2cfMinimum1Args, Da2cfMinimum2Args, Da2cfRelaxArgs, VertexFlagsArgs};
use crate::da2cf;
use crate::device::memory::load_read_only;
use crate::device::memory::slice;
use crate::device::shared::dynamic_shared_mem;
use crate::device::thread::{block_dim_x, block_idx_x, index_1d, sync_threads, thread_idx_x};
use crate::reduce::pair_indices;

use super::{block_minimum_to, csr};

crate::args::vertex_flags_args! {
    /// `initialize` (Fig. 2): distances, frontier and unsettled flags.
    ///
    /// # Thread mapping
    /// One thread per vertex `i = blockIdx.x * blockDim.x + threadIdx.x`; threads with
    /// `i >= n` return.
    ///
    /// # Safety
    /// `dist`, `frontier` and `unsettled` hold `n` elements each (module contract).
    fn da2cf_initialize(args) {
        let VertexFlagsArgs { dist, frontier, unsettled, n, value: source } = args;
        let i = index_1d();
        if i >= n {
            return;
        }
        let i = i as usize;
        // SAFETY: `i < n`, and each thread touches only element `i`.
        unsafe {
            da2cf::initialize(
                i,
                source as usize,
                &mut *dist.add(i),
                &mut *frontier.add(i),
                &mut *unsettled.add(i),
            )
        }
    }
}

/// The body of `relax_F`, its racy twin and `relax_U`: thread `i < n` calls
/// `$relax` for vertex `i` over the arguments `$args` as slices (and `$lower`,
/// `relax_F`'s minimum, when given); threads with `i >= n` return. A macro
/// rather than a function taking `$relax`, which compiles to other (longer)
/// PTX. Its caller's `# Safety` section is
/// `da2cf_relax_f`'s.
macro_rules! relax_vertex {
    ($args:expr, $relax:expr $(, $lower:expr)?) => {{
        let Da2cfRelaxArgs {
            offsets,
            targets,
            weights,
            n,
            m,
            dist,
            frontier,
            unsettled,
        } = $args;
        let i = index_1d();
        if i >= n {
            return;
        }
        let (n, m) = (n as usize, m as usize);
        // SAFETY: lengths as documented; `frontier` and `unsettled` are read-only here.
        unsafe {
            $relax(
                i as usize,
                csr(offsets, targets, weights, n, m),
                slice(dist, n),
                slice(frontier, n),
                slice(unsettled, n),
                $($lower)?
            )
        }
    }};
}

crate::args::da2cf_relax_args! {
    /// `relax_F` (Fig. 3, left): frontier vertices relax their unsettled successors
    /// with an atomic minimum.
    ///
    /// # Thread mapping
    /// One thread per vertex `i`; threads with `i >= n` return, as do threads of
    /// vertices outside the frontier.
    ///
    /// # Safety
    /// `offsets` holds `n + 1` elements, `targets` and `weights` `m`, `dist`,
    /// `frontier` and `unsettled` `n` (module contract). `dist` is only accessed
    /// atomically during the launch.
    fn da2cf_relax_f<W> as da2cf_relax_f_u32, da2cf_relax_f_f32 (args) {
        relax_vertex!(args, da2cf::relax_frontier::<W>, da2cf::atomic_min);
    }
}

crate::args::da2cf_relax_args! {
    /// `relax_F` with a plain minimum (F^GPU_no_Atomic): racy, for measurement only.
    ///
    /// # Thread mapping
    /// As [`da2cf_relax_f`].
    ///
    /// # Safety
    /// As [`da2cf_relax_f`]. The race it has is on values, not on memory safety:
    /// every access is a relaxed atomic load or store.
    fn da2cf_relax_f_no_atomic<W> as da2cf_relax_f_no_atomic_u32,
        da2cf_relax_f_no_atomic_f32 (args) {
        relax_vertex!(args, da2cf::relax_frontier::<W>, da2cf::racy_min);
    }
}

crate::args::da2cf_relax_args! {
    /// `relax_U` (Fig. 3, right): unsettled vertices take the minimum over their
    /// frontier predecessors. The CSR is the predecessor CSR.
    ///
    /// # Thread mapping
    /// One thread per vertex `i`; threads with `i >= n` return, as do threads of
    /// settled vertices.
    ///
    /// # Safety
    /// `offsets` holds `n + 1` elements, `targets` and `weights` `m`, `dist`,
    /// `frontier` and `unsettled` `n` (module contract). Only thread `i` writes
    /// `dist[i]`, and only while `i` is unsettled, so no thread reads it then.
    fn da2cf_relax_u<W> as da2cf_relax_u_u32, da2cf_relax_u_f32 (args) {
        relax_vertex!(args, da2cf::relax_unsettled::<W>);
    }
}

crate::args::da2cf_relax_args! {
    /// `relax_U` of U^GPU_PLUS (Martín et al. §4.2): each thread stages its row
    /// offset `offsets[i]` in shared memory (the block's last thread, or the thread
    /// of the last vertex, also `offsets[i + 1]`) and reads its end from its
    /// neighbour's slot; frontier flags are read through the read-only data cache.
    ///
    /// # Thread mapping
    /// One thread per vertex `i`; every thread of the block reaches the barrier, then
    /// threads with `i >= n` or of settled vertices return.
    ///
    /// # Safety
    /// As [`da2cf_relax_u`], and the launch gives `(blockDim.x + 1) * 4` bytes of
    /// dynamic shared memory.
    fn da2cf_relax_u_plus<W> as da2cf_relax_u_plus_u32, da2cf_relax_u_plus_f32 (args) {
        let Da2cfRelaxArgs { offsets, targets, weights, n, m, dist, frontier, unsettled } = args;
        let i = index_1d();
        let t = thread_idx_x() as usize;
        let staged = dynamic_shared_mem::<u32>();
        if i < n {
            let i = i as usize;
            // SAFETY: `i < n`, so `offsets[i + 1]` exists; slots `t` and `t + 1` are
            // within the `blockDim.x + 1` slots of the launch, and only this thread
            // writes them.
            unsafe {
                *staged.add(t) = *offsets.add(i);
                if t + 1 == block_dim_x() as usize || i + 1 == n as usize {
                    *staged.add(t + 1) = *offsets.add(i + 1);
                }
            }
        }
        sync_threads();
        if i >= n {
            return;
        }
        let (i, n, m) = (i as usize, n as usize, m as usize);
        // SAFETY: lengths as documented; the barrier above ordered the staged
        // offsets; `frontier` is read-only during the kernel.
        unsafe {
            if *unsettled.add(i) == da2cf::FALSE {
                return;
            }
            let edges = *staged.add(t) as usize..*staged.add(t + 1) as usize;
            let is_frontier = |j: usize| {
                assert!(j < n);
                load_read_only(frontier.add(j)) != da2cf::FALSE
            };
            da2cf::relax_unsettled_edges::<W>(
                i,
                edges,
                slice(targets, m),
                slice(weights, m),
                slice(dist, n),
                is_frontier,
            );
        }
    }
}

crate::args::da2cf_minimum1_args! {
    /// `minimum1` (Fig. 4, right): per-block minima of the distances of unsettled
    /// vertices (settled ones count as infinity).
    ///
    /// # Thread mapping
    /// `ceil(n / (2 * blockDim.x))` blocks; thread `t` of block `b` loads vertices
    /// `b * 2 * blockDim.x + t` and that plus `blockDim.x` (infinity past `n`); the
    /// block writes `block_minima[b]`.
    ///
    /// # Safety
    /// `dist` and `unsettled` hold `n` elements, `block_minima` one per block;
    /// `blockDim.x` is a power of two with 4 bytes of dynamic shared memory per thread.
    fn da2cf_minimum1(args) {
        let Da2cfMinimum1Args { dist, unsettled, n, block_minima } = args;
        let n = n as usize;
        // SAFETY: lengths as documented; both arrays are read-only here.
        let (dist, unsettled) = unsafe { (slice(dist, n), slice(unsettled, n)) };
        let (i, j) = pair_indices(
            block_idx_x() as usize,
            block_dim_x() as usize,
            thread_idx_x() as usize,
        );
        let value =
            da2cf::minimum_input(i, dist, unsettled).min(da2cf::minimum_input(j, dist, unsettled));
        // SAFETY: every thread of the block gets here; launch shape as documented.
        unsafe { block_minimum_to(value, block_minima) }
    }
}

crate::args::da2cf_minimum2_args! {
    /// `minimum2`: reduces `len` per-block minima once more, to one value per block.
    ///
    /// # Thread mapping
    /// As [`da2cf_minimum1`], over `values` instead of masked distances.
    ///
    /// # Safety
    /// `values` holds `len` elements, `block_minima` one per block; `blockDim.x` is a
    /// power of two with 4 bytes of dynamic shared memory per thread.
    fn da2cf_minimum2(args) {
        let Da2cfMinimum2Args { values, len, block_minima } = args;
        // SAFETY: length as documented; read-only here.
        let values = unsafe { slice(values, len as usize) };
        let (i, j) = pair_indices(
            block_idx_x() as usize,
            block_dim_x() as usize,
            thread_idx_x() as usize,
        );
        let at = |k: usize| values.get(k).copied().unwrap_or(crate::distance::INFINITY);
        // SAFETY: every thread of the block gets here; launch shape as documented.
        unsafe { block_minimum_to(at(i).min(at(j)), block_minima) }
    }
}

crate::args::vertex_flags_args! {
    /// `update` (Fig. 4, left): clears the frontier and moves every unsettled vertex at
    /// distance `mssp` into it.
    ///
    /// # Thread mapping
    /// One thread per vertex `i`; threads with `i >= n` return.
    ///
    /// # Safety
    /// `dist`, `frontier` and `unsettled` hold `n` elements each (module contract).
    fn da2cf_update(args) {
        let VertexFlagsArgs { dist, frontier, unsettled, n, value: mssp } = args;
        let i = index_1d();
        if i >= n {
            return;
        }
        let i = i as usize;
        // SAFETY: `i < n`, and each thread touches only element `i`.
        unsafe {
            da2cf::update(
                *dist.add(i),
                &mut *frontier.add(i),
                &mut *unsettled.add(i),
                mssp,
            )
        }
    }
}
