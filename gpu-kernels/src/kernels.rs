//! PTX entry points. Each computes its thread's index, turns its raw pointers and
//! lengths into slices, and calls the per-thread logic of [`crate::da2cf`] and
//! [`crate::reduce`]. Names and block sizes: [`crate::launch`].
//!
//! Common safety contract of every kernel: each pointer argument is a device
//! allocation of at least the length given for it (or anything, when that length
//! is 0), the graph arrays form a valid CSR (`offsets` non-decreasing, ending at
//! `m`, every target `< n`), and no other kernel writes the same buffers
//! concurrently. An index that is out of range all the same traps; it never
//! reads or writes outside the slices.

use core::sync::atomic::AtomicU32;

use crate::csr::Csr;
use crate::da2cf;
use crate::device::memory::slice;
use crate::device::shared::dynamic_shared_mem;
use crate::device::thread::{block_dim_x, block_idx_x, index_1d, sync_threads, thread_idx_x};
use crate::reduce::{pair_indices, tree_step};

/// `initialize` (Fig. 2): distances, frontier and unsettled flags.
///
/// # Thread mapping
/// One thread per vertex `i = blockIdx.x * blockDim.x + threadIdx.x`; threads with
/// `i >= n` return.
///
/// # Safety
/// `dist`, `frontier` and `unsettled` hold `n` elements each (module contract).
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn da2cf_initialize(
    dist: *mut u32,
    frontier: *mut u8,
    unsettled: *mut u8,
    n: u32,
    source: u32,
) {
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
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn da2cf_relax_f(
    offsets: *const u32,
    targets: *const u32,
    weights: *const u32,
    n: u32,
    m: u32,
    dist: *const AtomicU32,
    frontier: *const u8,
    unsettled: *const u8,
) {
    let i = index_1d();
    if i >= n {
        return;
    }
    let (n, m) = (n as usize, m as usize);
    // SAFETY: lengths as documented; `frontier` and `unsettled` are read-only here.
    unsafe {
        let successors = Csr {
            offsets: slice(offsets, n + 1),
            targets: slice(targets, m),
            weights: slice(weights, m),
        };
        da2cf::relax_frontier(
            i as usize,
            successors,
            slice(dist, n),
            slice(frontier, n),
            slice(unsettled, n),
        )
    }
}

/// Writes the block minimum of the per-thread values into `out[blockIdx.x]`:
/// `value` goes to the thread's shared slot, then the `reduce3` tree.
///
/// # Safety
/// Called by every thread of the block, with `blockDim.x` a power of two and at
/// least `blockDim.x * 4` bytes of dynamic shared memory; `out` holds
/// `gridDim.x` elements.
#[inline(always)]
unsafe fn block_minimum_to(value: u32, out: *mut u32) {
    let shared = dynamic_shared_mem::<u32>();
    let thread = thread_idx_x() as usize;
    // SAFETY: the slot is within the block's shared memory and this thread's own.
    unsafe { *shared.add(thread) = value };
    sync_threads();
    let mut stride = block_dim_x() as usize / 2;
    while stride > 0 {
        // SAFETY: `2 * stride <= blockDim.x` slots exist; the barriers separate steps.
        unsafe { tree_step(shared, thread, stride) };
        sync_threads();
        stride /= 2;
    }
    if thread == 0 {
        // SAFETY: `out` has one element per block.
        unsafe { *out.add(block_idx_x() as usize) = *shared };
    }
}

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
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn da2cf_minimum1(
    dist: *const u32,
    unsettled: *const u8,
    n: u32,
    block_minima: *mut u32,
) {
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

/// `minimum2`: reduces `len` per-block minima once more, to one value per block.
///
/// # Thread mapping
/// As [`da2cf_minimum1`], over `values` instead of masked distances.
///
/// # Safety
/// `values` holds `len` elements, `block_minima` one per block; `blockDim.x` is a
/// power of two with 4 bytes of dynamic shared memory per thread.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn da2cf_minimum2(
    values: *const u32,
    len: u32,
    block_minima: *mut u32,
) {
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

/// `update` (Fig. 4, left): clears the frontier and moves every unsettled vertex at
/// distance `mssp` into it.
///
/// # Thread mapping
/// One thread per vertex `i`; threads with `i >= n` return.
///
/// # Safety
/// `dist`, `frontier` and `unsettled` hold `n` elements each (module contract).
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn da2cf_update(
    dist: *const u32,
    frontier: *mut u8,
    unsettled: *mut u8,
    n: u32,
    mssp: u32,
) {
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
