//! Entry points of the compacted, device-resident DA2CF ([`crate::compact`]):
//! an initialization, and the loop on one block or on the whole grid. Both
//! loops run [`compact::thread_loop`]; they differ in their team
//! ([`super::team`]).

use core::sync::atomic::AtomicU32;

use crate::args::{CompactBlockLoopArgs, CompactInitializeArgs};
use crate::compact::{self, Arrays, LoopState};
use crate::device::grid::GridBarrier;
use crate::device::memory::slice;
use crate::device::thread::index_1d;

use super::csr;
use crate::team::gpu::{Block, GpuTeam, Grid, with_state_in_shared};

crate::args::compact_initialize_args! {
    /// `compact_initialize`: every distance infinite but the source's (0), and
    /// the loop state of a new solve.
    ///
    /// # Thread mapping
    /// One thread per vertex `v = blockIdx.x * blockDim.x + threadIdx.x`; threads
    /// with `v >= n` return; thread 0 also writes the state and the frontier.
    ///
    /// # Safety
    /// `dist` and `frontier` hold `n >= 1` elements, `state` points to a
    /// [`LoopState`] (module contract); `source < n`.
    fn compact_initialize(args) {
        let CompactInitializeArgs { dist, frontier, state, n, source } = args;
        let v = index_1d();
        if v >= n {
            return;
        }
        // SAFETY: lengths as documented; accessed only atomically.
        let (dist, frontier, state) = unsafe {
            (
                slice(dist, n as usize),
                slice(frontier, n as usize),
                &*state,
            )
        };
        compact::initialize_vertex(v as usize, source as usize, dist);
        if v == 0 {
            compact::initialize_state(source, frontier, state);
        }
    }
}

/// The arrays of the loop kernels from their arguments.
///
/// # Safety
/// The loop kernels' contract.
#[inline(always)]
unsafe fn arrays<'a>(args: &CompactBlockLoopArgs) -> Arrays<'a> {
    let n = args.n as usize;
    // SAFETY: as the caller guarantees.
    unsafe {
        Arrays {
            successors: csr(args.offsets, args.targets, args.weights, n, args.m as usize),
            delta_node: slice(args.delta_node, args.delta_node_len as usize),
            dist: slice(args.dist, n),
            frontier: slice(args.frontier, n),
            reached: [slice(args.reached0, n), slice(args.reached1, n)],
            state: &*args.state,
        }
    }
}

crate::args::compact_block_loop_args! {
    /// `compact_block_loop`: the loop on one block, from the iteration in `state`
    /// until convergence or until the frontier and `R` together leave
    /// `min_work..=max_work` vertices.
    ///
    /// # Thread mapping
    /// One block (`gridDim.x = 1`) of
    /// [`COMPACT_BLOCK_SIZE`](crate::launch::COMPACT_BLOCK_SIZE) threads;
    /// thread `t` relaxes frontier entries `t, t + blockDim.x, …` and updates the
    /// entries of `R` the same way.
    ///
    /// # Safety
    /// `offsets` holds `n + 1` elements, `targets` and `weights` `m`; `delta_node`
    /// `delta_node_len` (`n` for Crauser's rule, 0 for Martín's); `dist`,
    /// `frontier`, `reached0` and `reached1` `n`; `state` points to a
    /// [`LoopState`] left by `compact_initialize` or a previous loop launch of the
    /// same solve. `blockDim.x` is a multiple of 32 up to 1024 and the launch gives
    /// [`COMPACT_SHARED_BYTES`](crate::compact::COMPACT_SHARED_BYTES) of dynamic
    /// shared memory.
    fn compact_block_loop<W> as compact_block_loop_u32, compact_block_loop_f32 (args) {
        // SAFETY: lengths as documented; the state arrays are only accessed
        // atomically.
        let arrays = unsafe { arrays(&args) };
        let (state, min_work, max_work) = (args.state, args.min_work, args.max_work);
        // SAFETY: `state` points to a LoopState (the kernel's contract); the
        // launch gives COMPACT_SHARED_BYTES of dynamic shared memory.
        unsafe {
            with_state_in_shared(state, |local| {
                let arrays = Arrays {
                    state: local,
                    ..arrays
                };
                compact::thread_loop::<W>(arrays, min_work, max_work, &GpuTeam(Block));
            })
        }
    }
}

crate::args::compact_grid_loop_args! {
    /// `compact_grid_loop`: the loop on the whole grid, with grid-wide barriers;
    /// otherwise as `compact_block_loop`.
    ///
    /// # Thread mapping
    /// A one-dimensional grid whose blocks (of
    /// [`COMPACT_BLOCK_SIZE`](crate::launch::COMPACT_BLOCK_SIZE) threads) are all
    /// resident at once; global thread `t` relaxes frontier entries `t, t + T, …`
    /// (`T` threads in all) and updates the entries of `R` the same way.
    ///
    /// # Safety
    /// As `compact_block_loop`, and: the launch is cooperative
    /// (`cuLaunchCooperativeKernel`), and `barrier` points to
    /// [`GRID_BARRIER_WORDS`](crate::launch::GRID_BARRIER_WORDS) `u32`s with
    /// `arrived` zero at launch.
    fn compact_grid_loop<W> as compact_grid_loop_u32, compact_grid_loop_f32 (args) {
        let (args, barrier) = args.split();
        // SAFETY: as in `compact_block_loop`.
        let arrays = unsafe { arrays(&args) };
        let (min_work, max_work) = (args.min_work, args.max_work);
        // SAFETY: `barrier` is a device allocation of the barrier's two words,
        // accessed only atomically.
        let barrier = unsafe { &*barrier };
        let team = GpuTeam(Grid { barrier });
        compact::thread_loop::<W>(arrays, min_work, max_work, &team);
    }
}
