//! Entry points of the partition-local solver ([`crate::partition`]): an
//! initialization, and the whole solve with one persistent block per piece.

use core::sync::atomic::AtomicU32;

use crate::args::{PartitionInitializeArgs, PartitionSolveArgs};
use crate::device::memory::slice;
use crate::device::shared::dynamic_shared_mem;
use crate::device::thread::{
    block_dim_x, block_idx_x, index_1d, nanosleep, sync_threads_divergent, sync_threads_named,
    thread_fence, thread_fence_block, thread_idx_x,
};
use crate::partition::{self, BlockTeam, Global, Local, Pieces};

use super::csr;

/// The block of a `partition_solve` launch: its last warp is the
/// communication warp.
struct Block;

impl BlockTeam for Block {
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
    fn block_fence(&self) {
        thread_fence_block();
    }
    fn device_fence(&self) {
        thread_fence();
    }
    fn idle(&self) {
        // Waiting threads poll a word; a short sleep leaves the SM's issue
        // slots and the L2 to the blocks with work.
        nanosleep(IDLE_SLEEP_NS);
    }
}

/// The compute threads' named barrier (0 is the whole block's).
const COMPUTE_BARRIER: u32 = 1;

/// How long a waiting thread sleeps between polls.
const IDLE_SLEEP_NS: u32 = 100;

/// The global state of the partition kernels from their arguments.
///
/// # Safety
/// `dist` holds `n` elements, `notify` `k`, `counters` 2 (pending, rounds).
#[inline(always)]
unsafe fn global<'a>(
    dist: *const AtomicU32,
    n: u32,
    notify: *const AtomicU32,
    k: u32,
    counters: *const AtomicU32,
) -> Global<'a> {
    // SAFETY: as the caller guarantees.
    unsafe {
        let counters = slice(counters, 2);
        Global {
            dist: slice(dist, n as usize),
            notify: slice(notify, k as usize),
            pending: &counters[0],
            rounds: &counters[1],
        }
    }
}

crate::args::partition_initialize_args! {
    /// `partition_initialize`: every distance infinite, the notification words
    /// clear but the source piece's, `pending` 1 and `rounds` 0.
    ///
    /// # Thread mapping
    /// One thread per vertex and per piece: thread `t` initializes vertex `t`
    /// (if `t < n`) and piece `t` (if `t < k`).
    ///
    /// # Safety
    /// `dist` holds `n` elements, `notify` `k >= 1`, `counters` 2;
    /// `source_piece < k`.
    fn partition_initialize(args) {
        let PartitionInitializeArgs { dist, n, notify, k, counters, source_piece } = args;
        // SAFETY: lengths as documented; accessed only atomically.
        let global = unsafe { global(dist, n, notify, k, counters) };
        let t = index_1d();
        if t < n {
            partition::initialize_vertex(t as usize, global.dist);
        }
        if t < k {
            partition::initialize_piece(t as usize, source_piece as usize, &global);
        }
    }
}

crate::args::partition_solve_args! {
    /// `partition_solve`: the whole solve ([`partition::block_loop`]), block
    /// `b` owning piece `b`.
    ///
    /// # Thread mapping
    /// `k` blocks (one per piece) of
    /// [`PARTITION_BLOCK_SIZE`](crate::launch::PARTITION_BLOCK_SIZE) threads
    /// (a multiple of 32, at least 64): at the start and the end, thread `t`
    /// takes the piece's vertices and edges `t, t + blockDim.x, …`; in
    /// between, the first `blockDim.x - 32` threads (compute) take the
    /// vertices and frontier entries `t, t + blockDim.x - 32, …`, thread
    /// `blockDim.x - 32` communicates and the rest of its warp waits.
    ///
    /// # Safety
    /// `offsets` holds `n + 1` elements, `targets` and `weights` `m`, a valid
    /// CSR whose pieces `starts` (`k + 1`, from 0 to `n`, each piece at most
    /// `capacity` vertices and, when `edge_capacity > 0`, at most
    /// `edge_capacity` out-edges), `boundary_ends` (`k`) and `piece_of` (`n`)
    /// describe; `dist`, `notify` and `counters` as `partition_initialize`
    /// left them for `source < n`; the grid has `k` blocks, all resident at
    /// once (a cooperative launch), each with
    /// [`partition_shared_bytes(capacity, edge_capacity)`](crate::launch::partition_shared_bytes)
    /// of dynamic shared memory.
    fn partition_solve<W> as partition_solve_u32, partition_solve_f32 (args) {
        let PartitionSolveArgs {
            offsets, targets, weights, n, m, starts, boundary_ends, piece_of, k, dist, notify,
            counters, source, delta, capacity, edge_capacity,
        } = args;
        // SAFETY: lengths as documented; the state is accessed only
        // atomically, the graph arrays never written.
        let (pieces, global) = unsafe {
            (
                Pieces {
                    successors: csr(offsets, targets, weights, n as usize, m as usize),
                    starts: slice(starts, k as usize + 1),
                    boundary_ends: slice(boundary_ends, k as usize),
                    piece_of: slice(piece_of, n as usize),
                },
                global(dist, n, notify, k, counters),
            )
        };
        let (capacity, edge_capacity) = (capacity as usize, edge_capacity as usize);
        // SAFETY: the launch gives `shared_words(capacity, edge_capacity)`
        // words of dynamic shared memory, this block's alone, accessed only
        // atomically.
        let words = unsafe {
            slice(
                dynamic_shared_mem::<AtomicU32>(),
                partition::shared_words(capacity, edge_capacity),
            )
        };
        let Some(local) = Local::from_words(words, capacity, edge_capacity) else {
            return;
        };
        partition::block_loop::<W>(
            block_idx_x() as usize,
            source as usize,
            delta,
            &pieces,
            &global,
            &local,
            &Block,
        );
    }
}
