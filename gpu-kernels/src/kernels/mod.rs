//! PTX entry points, one file per family. Each computes its thread's index,
//! turns its raw pointers and lengths into slices, and calls the per-thread
//! logic of the crate's modules ([`crate::da2cf`], [`crate::reduce`], …).
//! Names and block sizes: [`crate::launch`].
//!
//! Common safety contract of every kernel: each pointer argument is a device
//! allocation of at least the length given for it (or anything, when that length
//! is 0), the graph arrays form a valid CSR (`offsets` non-decreasing, ending at
//! `m`, every target `< n`), and no other kernel writes the same buffers
//! concurrently. An index that is out of range all the same traps; it never
//! reads or writes outside the slices.
//!
//! Every entry is defined through the entry macro of its argument struct
//! ([`crate::args`]), which hands the struct's field list to
//! [`crate::entry`]'s macro: the entry's parameters are the fields, and its
//! body gets them as the struct. A kernel that adds weights is written once,
//! generic over the weight type, and instantiated as one entry per weight
//! type, `name_u32` and `name_f32`.

mod bellman_ford;
mod cch;
mod certificate;
mod compact;
mod crauser;
mod da2cf;
mod matrix;
mod near_far;
mod pair_query;
mod parents;
mod partition;
mod phast;
mod reductions;
mod rows;
mod stats;

use crate::csr::Csr;
use crate::device::memory::slice;
use crate::device::shared::dynamic_shared_mem;
use crate::device::thread::{block_dim_x, block_idx_x, index_1d, sync_threads, thread_idx_x};
use crate::reduce::tree_step;

/// The CSR view of three kernel arguments.
///
/// # Safety
/// `offsets` holds `n + 1` elements, `targets` and `weights` `m` (or anything
/// when `m` is 0), none written during the kernel.
#[inline(always)]
unsafe fn csr<'a>(
    offsets: *const u32,
    targets: *const u32,
    weights: *const u32,
    n: usize,
    m: usize,
) -> Csr<'a> {
    // SAFETY: as the caller guarantees.
    unsafe {
        Csr {
            offsets: slice(offsets, n + 1),
            targets: slice(targets, m),
            weights: slice(weights, m),
        }
    }
}

/// Runs `body(v, graph, dist)` for the vertex of this thread,
/// `v = blockIdx.x * blockDim.x + threadIdx.x`, if `v < n` (threads with
/// `v >= n` return), with the CSR view of the graph arguments and the `n`
/// distances: the start of the kernels that check or walk a solve's result one
/// vertex per thread.
///
/// # Safety
/// As [`csr`]'s, and `dist` holds `n` elements, not written during the kernel.
#[inline(always)]
unsafe fn for_vertex<'a>(
    (offsets, targets, weights): (*const u32, *const u32, *const u32),
    (n, m): (u32, u32),
    dist: *const u32,
    body: impl FnOnce(usize, Csr<'a>, &'a [u32]),
) {
    let v = index_1d();
    if v >= n {
        return;
    }
    let (n, m) = (n as usize, m as usize);
    // SAFETY: as the caller guarantees.
    unsafe {
        body(
            v as usize,
            csr(offsets, targets, weights, n, m),
            slice(dist, n),
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
