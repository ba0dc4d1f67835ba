//! The teams on the GPU: one block or the whole grid as a [`Scope`] and as a
//! loop [`Team`] ([`GpuTeam`]), the block-wide minimum and the loop state
//! kept in shared memory, and the partition solver's [`BlockTeam`].

use core::sync::atomic::AtomicU32;
use core::sync::atomic::Ordering::Relaxed;

use crate::device::atomic;
use crate::device::grid::{GridBarrier, grid_dim_x, grid_sync};
use crate::device::shared::dynamic_shared_mem;
use crate::device::thread::{
    block_dim_x, index_1d, nanosleep, sync_threads, sync_threads_divergent, sync_threads_named,
    thread_fence, thread_fence_block, thread_idx_x,
};
use crate::device::warp::{
    WARP_SIZE, inclusive_sum, lane_id, reduce_min, reserve_where, shfl, sync_warp,
};
use crate::distance::INFINITY;

use super::block::BlockTeam;
use super::warps::{LOOP_WARP_SLOTS, Team};

/// Lowers `target` to the minimum of `value` over the block: a butterfly in
/// each warp, the warps' minima through shared memory, one atomic per block
/// (skipped when it would not lower `target`).
///
/// # Safety
/// Called by every thread of the block together; `blockDim.x` is a multiple
/// of 32, at most 1024, and the block's dynamic shared memory starts with
/// [`LOOP_WARP_SLOTS`] words used by nothing else.
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
/// `AtomicU32`s, at most [`COMPACT_BLOCK_SIZE`](crate::launch::COMPACT_BLOCK_SIZE)
/// of them, and the block has
/// [`loop_shared_bytes`](super::loop_shared_bytes)`(size_of::<S>() / 4)`
/// bytes of dynamic shared memory.
#[inline(always)]
pub(crate) unsafe fn with_state_in_shared<S>(global: *const S, body: impl FnOnce(&S)) {
    let words = size_of::<S>() / 4;
    let thread = thread_idx_x() as usize;
    // SAFETY: as the caller guarantees: the shared memory after the warp
    // slots holds an `S`, 4-aligned, and both are arrays of `AtomicU32`.
    let (local, local_words, global_words) = unsafe {
        let local = dynamic_shared_mem::<u32>().add(LOOP_WARP_SLOTS as usize);
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

/// Where a loop kernel's threads come from and how they wait for each other
/// (a [`GpuTeam`]'s, and those of Bellman-Ford's "Algorithm 1").
pub(crate) trait Scope {
    /// This thread's index in the scope.
    fn thread(&self) -> usize;
    /// Threads in the scope.
    fn threads(&self) -> usize;
    /// A barrier over the scope that orders memory.
    fn barrier(&self);
}

/// One block runs the loop: `__syncthreads()` barriers.
pub(crate) struct Block;

impl Scope for Block {
    fn thread(&self) -> usize {
        thread_idx_x() as usize
    }
    fn threads(&self) -> usize {
        block_dim_x() as usize
    }
    fn barrier(&self) {
        sync_threads();
    }
}

/// The whole grid runs the loop: grid-wide barriers.
pub(crate) struct Grid<'a> {
    pub(crate) barrier: &'a GridBarrier,
}

impl Scope for Grid<'_> {
    fn thread(&self) -> usize {
        index_1d() as usize
    }
    fn threads(&self) -> usize {
        grid_dim_x() as usize * block_dim_x() as usize
    }
    fn barrier(&self) {
        // SAFETY: the launch is cooperative and the barrier zeroed (the
        // kernel's contract); the loop calls it from grid-uniform control
        // flow, as often in every thread.
        unsafe { grid_sync(self.barrier) }
    }
}

/// The [`Team`] of a loop kernel: the warp-wide calls are the hardware's, the
/// threads and the barrier those of the scope `S`.
pub(crate) struct GpuTeam<S>(pub(crate) S);

impl<S: Scope> Team for GpuTeam<S> {
    fn thread(&self) -> usize {
        self.0.thread()
    }
    fn threads(&self) -> usize {
        self.0.threads()
    }
    fn barrier(&self) {
        self.0.barrier();
    }
    fn warp_size(&self) -> usize {
        WARP_SIZE as usize
    }
    fn reserve_where(&self, wants: bool, len: &AtomicU32) -> u32 {
        // SAFETY: the loops call it from warp-uniform control flow.
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
        // SAFETY: the loops call it from block-uniform control flow; the
        // launch contract of the loop kernels gives the block size and the
        // shared memory.
        unsafe { block_minimum_into(value, target) }
    }
}

/// The block of a partition launch (`partition_solve`, `partition_paged`):
/// its last warp is the communication warp.
pub(crate) struct PartitionBlock;

impl BlockTeam for PartitionBlock {
    fn thread(&self) -> usize {
        thread_idx_x() as usize
    }
    fn threads(&self) -> usize {
        block_dim_x() as usize
    }
    fn comm_threads(&self) -> usize {
        32
    }
    fn barrier(&self) {
        sync_threads_divergent();
    }
    fn compute_barrier(&self) {
        sync_threads_named(COMPUTE_BARRIER, block_dim_x() - 32);
    }
    fn warp_size(&self) -> usize {
        WARP_SIZE as usize
    }
    fn sync_warp(&self) {
        // SAFETY: the solver's logic calls it with every lane of the warp
        // (`partition::chain_hops`, whose loop is warp-uniform); the compute
        // threads are whole warps (`block_dim_x() - 32`).
        unsafe { sync_warp() }
    }
    fn block_fence(&self) {
        thread_fence_block();
    }
    fn device_fence(&self) {
        thread_fence();
    }
    fn post(&self, word: &AtomicU32, value: u32) {
        // SAFETY: the solver posts only words of its `Local`, which
        // `partition_solve`/`partition_paged` carve from the block's dynamic
        // shared memory.
        unsafe { atomic::exchange_shared(word, value) }
    }
    fn read_post(&self, word: &AtomicU32) -> u32 {
        // SAFETY: as in `post`.
        unsafe { atomic::read_shared(word) }
    }
    fn idle(&self) {
        // Waiting threads poll a word; a short sleep leaves the SM's issue
        // slots and the L2 to the blocks with work.
        nanosleep(IDLE_SLEEP_NS);
    }
    fn back_off(&self, attempt: u32) {
        nanosleep(IDLE_SLEEP_NS << attempt.min(MAX_BACK_OFF_DOUBLINGS));
    }
}

/// The compute threads' named barrier (0 is the whole block's).
const COMPUTE_BARRIER: u32 = 1;

/// How often a back-off's sleep doubles at most (to 3.2 µs, which a paged
/// block's fruitless claims reach): a scan reads a word per piece, and
/// hundreds of idle blocks scanning back to back load the L2 that working
/// blocks wait on.
const MAX_BACK_OFF_DOUBLINGS: u32 = 5;

/// How long a waiting thread sleeps between polls.
const IDLE_SLEEP_NS: u32 = 100;
