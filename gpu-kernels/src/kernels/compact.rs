//! Entry points of the compacted, device-resident DA2CF ([`crate::compact`]):
//! an initialization, and the loop on one block or on the whole grid. Both
//! loops run [`compact::thread_loop`]; they differ in their [`Team`].

use core::sync::atomic::AtomicU32;
use core::sync::atomic::Ordering::Relaxed;

use crate::compact::{self, Arrays, LoopState, Team};
use crate::device::grid::{GridBarrier, grid_dim_x, grid_sync};
use crate::device::memory::slice;
use crate::device::shared::dynamic_shared_mem;
use crate::device::thread::{block_dim_x, index_1d, sync_threads, thread_idx_x};
use crate::device::warp::{WARP_SIZE, inclusive_sum, lane_id, reduce_min, reserve_where, shfl};
use crate::distance::INFINITY;
use crate::launch::COMPACT_BLOCK_SIZE;

use super::csr;

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
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn compact_initialize(
    dist: *const AtomicU32,
    frontier: *const AtomicU32,
    state: *const LoopState<AtomicU32>,
    n: u32,
    source: u32,
) {
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

/// Lowers `target` to the minimum of `value` over the block: a butterfly in
/// each warp, the warps' minima through shared memory, one atomic per block
/// (skipped when it would not lower `target`).
///
/// # Safety
/// Called by every thread of the block together; `blockDim.x` is a multiple
/// of 32, at most 1024, and the block has at least
/// [`COMPACT_SHARED_BYTES`](crate::launch::COMPACT_SHARED_BYTES) of dynamic
/// shared memory, used by nothing else.
#[inline(always)]
unsafe fn block_minimum_into(value: u32, target: &AtomicU32) {
    let warps = block_dim_x() / WARP_SIZE;
    let warp = thread_idx_x() / WARP_SIZE;
    let shared = dynamic_shared_mem::<u32>();
    // SAFETY: all lanes of every warp are here (the caller's contract).
    let warp_minimum = unsafe { reduce_min(value) };
    if lane_id() == 0 {
        // SAFETY: `warp < 32` slots exist; each warp writes its own.
        unsafe { *shared.add(warp as usize) = warp_minimum };
    }
    sync_threads();
    if warp == 0 {
        let lane = lane_id();
        let slot = if lane < warps {
            // SAFETY: slot `lane < warps <= 32`, written before the barrier.
            unsafe { *shared.add(lane as usize) }
        } else {
            INFINITY
        };
        // SAFETY: warp 0 is here whole.
        let minimum = unsafe { reduce_min(slot) };
        if lane == 0 && minimum < target.load(Relaxed) {
            target.fetch_min(minimum, Relaxed);
        }
    }
    // The slots are free again for the next call.
    sync_threads();
}

/// Runs `body` (the whole loop, called by every thread of the block) with a
/// copy of the loop state `S` (`u32` words) in shared memory, after the warp
/// slots of [`block_minimum_into`], and copies it back afterwards: while one
/// block runs the loop, every counter read, reservation and minimum would
/// otherwise be a round trip to global memory, and an iteration is a chain of
/// them.
///
/// # Safety
/// Called by every thread of the block; `global` points to an `S` in global
/// memory that nothing else accesses during the launch; `S` is `repr(C)` of
/// `AtomicU32`s, at most [`COMPACT_BLOCK_SIZE`] of them, and the block has
/// `COMPACT_BLOCK_SIZE / 32 * 4 + size_of::<S>()` bytes of dynamic shared
/// memory.
#[inline(always)]
pub(super) unsafe fn with_state_in_shared<S>(global: *const S, body: impl FnOnce(&S)) {
    let words = size_of::<S>() / 4;
    let thread = thread_idx_x() as usize;
    // SAFETY: as the caller guarantees: the shared memory after the warp
    // slots holds an `S`, 4-aligned, and both are arrays of `AtomicU32`.
    let (local, local_words, global_words) = unsafe {
        let local = dynamic_shared_mem::<u32>().add((COMPACT_BLOCK_SIZE / WARP_SIZE) as usize);
        (
            &*(local as *const S),
            core::slice::from_raw_parts(local as *const AtomicU32, words),
            core::slice::from_raw_parts(global as *const AtomicU32, words),
        )
    };
    if thread < words {
        local_words[thread].store(global_words[thread].load(Relaxed), Relaxed);
    }
    sync_threads();
    body(local);
    sync_threads();
    if thread < words {
        global_words[thread].store(local_words[thread].load(Relaxed), Relaxed);
    }
}

/// One block runs the loop: `__syncthreads()` barriers.
pub(super) struct BlockTeam;

impl Team for BlockTeam {
    fn thread(&self) -> usize {
        thread_idx_x() as usize
    }
    fn threads(&self) -> usize {
        block_dim_x() as usize
    }
    fn barrier(&self) {
        sync_threads();
    }
    fn warp_size(&self) -> usize {
        WARP_SIZE as usize
    }
    fn reserve_where(&self, wants: bool, len: &AtomicU32) -> u32 {
        // SAFETY: `thread_loop` calls it from warp-uniform control flow.
        unsafe { reserve_where(wants, len) }
    }
    fn warp_inclusive_sum(&self, value: u32) -> u32 {
        // SAFETY: as for `reserve_where`.
        unsafe { inclusive_sum(value) }
    }
    fn warp_shuffle(&self, value: u32, src: usize) -> u32 {
        // SAFETY: as for `reserve_where`.
        unsafe { shfl(value, src as u32) }
    }
    fn minimum_into(&self, value: u32, target: &AtomicU32) {
        // SAFETY: `thread_loop` calls it from block-uniform control flow; the
        // launch contract of the loop kernels gives the block size and the
        // shared memory.
        unsafe { block_minimum_into(value, target) }
    }
}

/// The whole grid runs the loop: grid-wide barriers.
pub(super) struct GridTeam<'a> {
    pub(super) barrier: &'a GridBarrier,
}

impl Team for GridTeam<'_> {
    fn thread(&self) -> usize {
        index_1d() as usize
    }
    fn threads(&self) -> usize {
        grid_dim_x() as usize * block_dim_x() as usize
    }
    fn barrier(&self) {
        // SAFETY: the launch is cooperative and the barrier zeroed (the
        // kernel's contract); `thread_loop` calls it from grid-uniform control
        // flow, as often in every thread.
        unsafe { grid_sync(self.barrier) }
    }
    fn warp_size(&self) -> usize {
        WARP_SIZE as usize
    }
    fn reserve_where(&self, wants: bool, len: &AtomicU32) -> u32 {
        // SAFETY: `thread_loop` calls it from warp-uniform control flow.
        unsafe { reserve_where(wants, len) }
    }
    fn warp_inclusive_sum(&self, value: u32) -> u32 {
        // SAFETY: as for `reserve_where`.
        unsafe { inclusive_sum(value) }
    }
    fn warp_shuffle(&self, value: u32, src: usize) -> u32 {
        // SAFETY: as for `reserve_where`.
        unsafe { shfl(value, src as u32) }
    }
    fn minimum_into(&self, value: u32, target: &AtomicU32) {
        // SAFETY: as for `BlockTeam`.
        unsafe { block_minimum_into(value, target) }
    }
}

/// The arrays of the loop kernels from their arguments.
///
/// # Safety
/// The loop kernels' contract.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn arrays<'a>(
    offsets: *const u32,
    targets: *const u32,
    weights: *const u32,
    n: u32,
    m: u32,
    delta_node: *const u32,
    delta_node_len: u32,
    dist: *const AtomicU32,
    frontier: *const AtomicU32,
    reached0: *const AtomicU32,
    reached1: *const AtomicU32,
    state: *const LoopState<AtomicU32>,
) -> Arrays<'a> {
    let n = n as usize;
    // SAFETY: as the caller guarantees.
    unsafe {
        Arrays {
            successors: csr(offsets, targets, weights, n, m as usize),
            delta_node: slice(delta_node, delta_node_len as usize),
            dist: slice(dist, n),
            frontier: slice(frontier, n),
            reached: [slice(reached0, n), slice(reached1, n)],
            state: &*state,
        }
    }
}

weight_kernel! {
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
    /// [`COMPACT_SHARED_BYTES`](crate::launch::COMPACT_SHARED_BYTES) of dynamic
    /// shared memory.
    #[allow(clippy::too_many_arguments)]
    fn compact_block_loop as compact_block_loop_u32, compact_block_loop_f32 (
        offsets: *const u32,
        targets: *const u32,
        weights: *const u32,
        n: u32,
        m: u32,
        delta_node: *const u32,
        delta_node_len: u32,
        dist: *const AtomicU32,
        frontier: *const AtomicU32,
        reached0: *const AtomicU32,
        reached1: *const AtomicU32,
        state: *const LoopState<AtomicU32>,
        min_work: u32,
        max_work: u32,
    ) {
        // SAFETY: lengths as documented; the state arrays are only accessed
        // atomically.
        let arrays = unsafe {
            arrays(
                offsets,
                targets,
                weights,
                n,
                m,
                delta_node,
                delta_node_len,
                dist,
                frontier,
                reached0,
                reached1,
                state,
            )
        };
        // SAFETY: `state` points to a LoopState (the kernel's contract); the
        // launch gives COMPACT_SHARED_BYTES of dynamic shared memory.
        unsafe {
            with_state_in_shared(state, |local| {
                let arrays = Arrays {
                    state: local,
                    ..arrays
                };
                compact::thread_loop::<W>(arrays, min_work, max_work, &BlockTeam);
            })
        }
    }
}

weight_kernel! {
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
    #[allow(clippy::too_many_arguments)]
    fn compact_grid_loop as compact_grid_loop_u32, compact_grid_loop_f32 (
        offsets: *const u32,
        targets: *const u32,
        weights: *const u32,
        n: u32,
        m: u32,
        delta_node: *const u32,
        delta_node_len: u32,
        dist: *const AtomicU32,
        frontier: *const AtomicU32,
        reached0: *const AtomicU32,
        reached1: *const AtomicU32,
        state: *const LoopState<AtomicU32>,
        min_work: u32,
        max_work: u32,
        barrier: *const GridBarrier,
    ) {
        // SAFETY: as in `compact_block_loop`.
        let arrays = unsafe {
            arrays(
                offsets,
                targets,
                weights,
                n,
                m,
                delta_node,
                delta_node_len,
                dist,
                frontier,
                reached0,
                reached1,
                state,
            )
        };
        // SAFETY: `barrier` is a device allocation of the barrier's two words,
        // accessed only atomically.
        let team = GridTeam {
            barrier: unsafe { &*barrier },
        };
        compact::thread_loop::<W>(arrays, min_work, max_work, &team);
    }
}
