//! Entry points of "Algorithm 1: dijkstra GPU SSSP" (paper `001`), a
//! Bellman-Ford-style loop that runs whole inside one launch: the paper's form
//! on one block, and the same loop over the whole grid. Both call
//! [`bellman_ford::thread_loop`]; they differ in the threads, the barrier and
//! where the round flags live.

use core::sync::atomic::{AtomicU8, AtomicU32};

use crate::args::{BellmanFordBlockArgs, BellmanFordGridArgs};
use crate::bellman_ford::{self, Arrays, RoundFlags};
use crate::device::grid::GridBarrier;
use crate::device::memory::slice;
use crate::device::shared::dynamic_shared_mem;
use crate::device::thread::block_idx_x;

use super::csr;
use crate::team::gpu::{Block, Grid, Scope};

/// The arrays of one solve from the kernel arguments.
///
/// # Safety
/// `offsets` holds `n + 1` elements, `targets` and `weights` `m` (none written
/// during the kernel), `dist`, `predist` and `changed` `n` each (accessed only
/// atomically during the kernel).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn arrays<'a>(
    offsets: *const u32,
    targets: *const u32,
    weights: *const u32,
    n: u32,
    m: u32,
    dist: *const AtomicU32,
    predist: *const AtomicU32,
    changed: *const AtomicU8,
) -> Arrays<'a> {
    let (n, m) = (n as usize, m as usize);
    // SAFETY: as the caller guarantees.
    unsafe {
        Arrays {
            successors: csr(offsets, targets, weights, n, m),
            dist: slice(dist, n),
            predist: slice(predist, n),
            changed: slice(changed, n),
        }
    }
}

crate::args::bellman_ford_block_args! {
    /// "Algorithm 1" as written: one block strides over all vertices, rounds
    /// separated by `__syncthreads()`, the round flags in shared memory. Writes the
    /// number of rounds to `rounds[0]`.
    ///
    /// # Thread mapping
    /// One block (`gridDim.x = 1`; blocks other than block 0 return at once) of any
    /// size; thread `t` owns vertices `t, t + blockDim.x, …` below `n` and every
    /// thread runs every round, owning vertices or not.
    ///
    /// # Safety
    /// `offsets` holds `n + 1` elements, `targets` and `weights` `m`, `dist` and
    /// `predist` `n` `u32`s, `changed` `n` bytes, `rounds` one `u32` (module
    /// contract); the launch gives
    /// [`BELLMAN_FORD_BLOCK_SHARED_BYTES`](crate::launch::BELLMAN_FORD_BLOCK_SHARED_BYTES)
    /// bytes of dynamic shared memory. All arrays are written by the kernel; their
    /// contents at launch do not matter.
    fn bellman_ford_block<W> as bellman_ford_block_u32, bellman_ford_block_f32 (args) {
        let BellmanFordBlockArgs {
            offsets, targets, weights, n, m, source, dist, predist, changed, rounds,
        } = args;
        // Block-uniform: a stray block must not run the loop over the same arrays.
        if block_idx_x() != 0 {
            return;
        }
        let thread = Block.thread();
        // SAFETY: lengths as documented; the arrays are only accessed atomically.
        let arrays = unsafe { arrays(offsets, targets, weights, n, m, dist, predist, changed) };
        // SAFETY: the launch gives the block 8 bytes of dynamic shared memory,
        // aligned for `u32`, which only these atomics access; thread 0 initializes
        // them before the first barrier.
        let flags = unsafe { &*dynamic_shared_mem::<RoundFlags>() };
        let count = bellman_ford::thread_loop::<W>(
            thread,
            Block.threads(),
            source as usize,
            arrays,
            flags,
            || Block.barrier(),
        );
        if thread == 0 {
            // SAFETY: `rounds` holds one element, written by this thread only.
            unsafe { *rounds = count };
        }
    }
}

crate::args::bellman_ford_grid_args! {
    /// "Algorithm 1" over the whole grid: all threads of all blocks stride over the
    /// vertices, rounds separated by a grid-wide barrier, the round flags in global
    /// memory. Writes the number of rounds to `rounds[0]`.
    ///
    /// # Thread mapping
    /// A one-dimensional grid of any shape whose blocks are all resident at once;
    /// global thread `t = blockIdx.x * blockDim.x + threadIdx.x` owns vertices
    /// `t, t + gridDim.x * blockDim.x, …` below `n`, and every thread runs every
    /// round, owning vertices or not.
    ///
    /// # Safety
    /// `offsets` holds `n + 1` elements, `targets` and `weights` `m`, `dist` and
    /// `predist` `n` `u32`s, `changed` `n` bytes, `flags`
    /// [`BELLMAN_FORD_FLAG_WORDS`](crate::launch::BELLMAN_FORD_FLAG_WORDS) `u32`s,
    /// `barrier` [`GRID_BARRIER_WORDS`](crate::launch::GRID_BARRIER_WORDS) `u32`s
    /// that are all zero at launch, `rounds` one `u32` (module contract). The grid
    /// is launched cooperatively (`cuLaunchCooperativeKernel`), so that all its
    /// blocks are co-resident, as
    /// [`grid_sync`](crate::device::grid::grid_sync) requires. Apart from `barrier`,
    /// the contents of the arrays at launch do not matter.
    fn bellman_ford_grid<W> as bellman_ford_grid_u32, bellman_ford_grid_f32 (args) {
        let BellmanFordGridArgs {
            offsets, targets, weights, n, m, source, dist, predist, changed, flags, barrier,
            rounds,
        } = args;
        // SAFETY: `flags` and `barrier` point to device allocations of 2 `u32`s each
        // (the sizes of `RoundFlags` and `GridBarrier`), accessed only atomically.
        let (flags, barrier) = unsafe { (&*flags, &*barrier) };
        // The grid's barrier needs the cooperative launch and the zeroed barrier
        // documented above; `thread_loop` calls it from grid-uniform control
        // flow, the same number of times in every thread (none returns early).
        let grid = Grid { barrier };
        let (thread, stride) = (grid.thread(), grid.threads());
        // SAFETY: lengths as documented; the arrays are only accessed atomically.
        let arrays = unsafe { arrays(offsets, targets, weights, n, m, dist, predist, changed) };
        let count = bellman_ford::thread_loop::<W>(
            thread,
            stride,
            source as usize,
            arrays,
            flags,
            || grid.barrier(),
        );
        if thread == 0 {
            // SAFETY: `rounds` holds one element, written by this thread only.
            unsafe { *rounds = count };
        }
    }
}
