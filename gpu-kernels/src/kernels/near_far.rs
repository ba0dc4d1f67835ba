//! Entry points of the near-far solver ([`crate::near_far`]): an
//! initialization, and the loop on one block or on the whole grid, with the
//! teams of the compacted DA2CF.

use core::sync::atomic::AtomicU32;

use crate::args::{NearFarBlockLoopArgs, NearFarGridLoopArgs};
use crate::device::grid::GridBarrier;
use crate::device::memory::slice;
use crate::device::thread::index_1d;
use crate::distance::{INFINITY, NO_TARGET};
use crate::near_far::{self, Arrays, NearFarState};

use super::csr;
use crate::team::gpu::{Block, GpuTeam, Grid, with_state_in_shared};

/// The arrays of the loop kernels from their arguments (the hub lists
/// `2 * hub_slots` words each).
///
/// # Safety
/// The loop kernels' contract.
#[inline(always)]
unsafe fn arrays<'a>(args: &NearFarBlockLoopArgs) -> Arrays<'a> {
    let hub_words = 2 * args.hub_slots as usize;
    // SAFETY: as the caller guarantees.
    let hubs = unsafe { [slice(args.hubs0, hub_words), slice(args.hubs1, hub_words)] };
    let n = args.n as usize;
    // SAFETY: as the caller guarantees.
    unsafe {
        Arrays {
            successors: csr(args.offsets, args.targets, args.weights, n, args.m as usize),
            dist: slice(args.dist, n),
            stamp: slice(args.stamp, n),
            far_stamp: slice(args.far_stamp, n),
            near: [slice(args.near0, n), slice(args.near1, n)],
            far: [slice(args.far0, n), slice(args.far1, n)],
            hubs,
            hub_degree: args.hub_degree,
            limit: args.limit,
            target: args.target,
            state: &*args.state,
        }
    }
}

crate::args::near_far_initialize_args! {
    /// `near_far_initialize`: every distance infinite but the source's (0), the
    /// stamps 0, and the state of a new solve with band width `delta`.
    ///
    /// # Thread mapping
    /// One thread per vertex `v = blockIdx.x * blockDim.x + threadIdx.x`; threads
    /// with `v >= n` return; thread 0 also writes the state and the worklist.
    ///
    /// # Safety
    /// As `near_far_block_loop`'s arrays, `n >= 1` and `source < n`.
    fn near_far_initialize(args) {
        let (loop_args, source) = args.split();
        let v = index_1d();
        if v >= loop_args.n {
            return;
        }
        // The loops' arrays without hub lists (none is touched here).
        let loop_args = NearFarBlockLoopArgs {
            hubs0: core::ptr::null(), hubs1: core::ptr::null(), hub_slots: 0, hub_degree: 0,
            limit: INFINITY, target: NO_TARGET, min_work: 0, max_work: 0, ..loop_args
        };
        // SAFETY: lengths as documented; accessed only atomically.
        let arrays = unsafe { arrays(&loop_args) };
        near_far::initialize_vertex(v as usize, source as usize, &arrays);
        if v == 0 {
            near_far::initialize_state(source, loop_args.delta, arrays.near[0], arrays.state);
        }
    }
}

/// The body of `near_far_block_loop` and `near_far_block_loop_hubs`.
///
/// # Safety
/// As `near_far_block_loop`.
#[inline(always)]
unsafe fn block_loop<W: crate::distance::Weight, const HUBS: bool>(args: NearFarBlockLoopArgs) {
    // SAFETY: lengths as documented; the state arrays are only accessed
    // atomically.
    let arrays = unsafe { arrays(&args) };
    let (state, delta, min_work, max_work) = (args.state, args.delta, args.min_work, args.max_work);
    // SAFETY: `state` points to a NearFarState, `repr(C)` of `AtomicU32`s;
    // the launch gives the shared memory for it after the warp slots.
    unsafe {
        with_state_in_shared(state, |local| {
            let arrays = Arrays {
                state: local,
                ..arrays
            };
            let team = GpuTeam(Block);
            near_far::thread_loop::<W, HUBS>(arrays, delta, min_work, max_work, &team);
        })
    }
}

/// The body of `near_far_grid_loop` and `near_far_grid_loop_hubs`.
///
/// # Safety
/// As `near_far_grid_loop`.
#[inline(always)]
unsafe fn grid_loop<W: crate::distance::Weight, const HUBS: bool>(args: NearFarGridLoopArgs) {
    let (args, barrier) = args.split();
    // SAFETY: as in `near_far_block_loop`.
    let arrays = unsafe { arrays(&args) };
    let (delta, min_work, max_work) = (args.delta, args.min_work, args.max_work);
    // SAFETY: `barrier` is a device allocation of the barrier's two words,
    // accessed only atomically.
    let barrier = unsafe { &*barrier };
    let team = GpuTeam(Grid { barrier });
    near_far::thread_loop::<W, HUBS>(arrays, delta, min_work, max_work, &team);
}

crate::args::near_far_block_loop_args! {
    /// `near_far_block_loop`: the loop on one block, from the state in `state`
    /// until convergence or until the waiting work leaves
    /// `min_work..=max_work` vertices; the state staged in shared memory. No
    /// hubs: the hub lists are not touched.
    ///
    /// # Thread mapping
    /// One block (`gridDim.x = 1`) of
    /// [`COMPACT_BLOCK_SIZE`](crate::launch::COMPACT_BLOCK_SIZE) threads; thread
    /// `t` takes worklist entries `t, t + blockDim.x, …`, its warp walking their
    /// edges together.
    ///
    /// # Safety
    /// `offsets` holds `n + 1` elements, `targets` and `weights` `m`; `dist`,
    /// `stamp`, `far_stamp`, `near0`, `near1`, `far0` and `far1` `n`; `hubs0` and
    /// `hubs1` `2 * hub_slots` words, `hub_slots` at least `hub_slots(n, m,
    /// hub_degree)` (with hubs);
    /// `state` points to a [`NearFarState`] left by `near_far_initialize` or a
    /// previous loop launch of the same solve, of the same form (with or
    /// without hubs); the launch gives
    /// [`NEAR_FAR_SHARED_BYTES`](crate::near_far::NEAR_FAR_SHARED_BYTES) of dynamic
    /// shared memory.
    fn near_far_block_loop<W> as near_far_block_loop_u32, near_far_block_loop_f32 (args) {
        // SAFETY: the kernel's contract.
        unsafe { block_loop::<W, false>(args) }
    }
}

crate::args::near_far_block_loop_args! {
    /// `near_far_block_loop_hubs`: `near_far_block_loop` with hubs, near
    /// vertices of more than `hub_degree` out-edges put off to the hub lists
    /// and walked by the whole block in the next iteration.
    ///
    /// # Thread mapping
    /// As `near_far_block_loop`; the whole block walks each hub's edges.
    ///
    /// # Safety
    /// As `near_far_block_loop`.
    fn near_far_block_loop_hubs<W> as near_far_block_loop_hubs_u32,
        near_far_block_loop_hubs_f32 (args) {
        // SAFETY: the kernel's contract.
        unsafe { block_loop::<W, true>(args) }
    }
}

crate::args::near_far_grid_loop_args! {
    /// `near_far_grid_loop`: the loop on the whole grid, with grid-wide barriers;
    /// otherwise as `near_far_block_loop` (the state stays in global memory).
    ///
    /// # Thread mapping
    /// A one-dimensional grid of co-resident blocks of
    /// [`COMPACT_BLOCK_SIZE`](crate::launch::COMPACT_BLOCK_SIZE) threads; global
    /// thread `t` takes worklist entries `t, t + T, …` (`T` threads in all).
    ///
    /// # Safety
    /// As `near_far_block_loop`, and: the launch is cooperative
    /// (`cuLaunchCooperativeKernel`), and `barrier` points to
    /// [`GRID_BARRIER_WORDS`](crate::launch::GRID_BARRIER_WORDS) `u32`s with
    /// `arrived` zero at launch.
    fn near_far_grid_loop<W> as near_far_grid_loop_u32, near_far_grid_loop_f32 (args) {
        // SAFETY: the kernel's contract.
        unsafe { grid_loop::<W, false>(args) }
    }
}

crate::args::near_far_grid_loop_args! {
    /// `near_far_grid_loop_hubs`: `near_far_grid_loop` with hubs, walked by
    /// the whole grid in the iteration after they were put off.
    ///
    /// # Thread mapping
    /// As `near_far_grid_loop`; the whole grid walks each hub's edges.
    ///
    /// # Safety
    /// As `near_far_grid_loop`.
    fn near_far_grid_loop_hubs<W> as near_far_grid_loop_hubs_u32,
        near_far_grid_loop_hubs_f32 (args) {
        // SAFETY: the kernel's contract.
        unsafe { grid_loop::<W, true>(args) }
    }
}
