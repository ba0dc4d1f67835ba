//! Entry points of the partition-local solver ([`crate::partition`]): an
//! initialization, and the whole solve with one persistent block per piece
//! (resident mode) or persistent blocks that claim pieces in turn (paged
//! mode).

use core::sync::atomic::AtomicU32;

use crate::args::{PartitionInitializeArgs, PartitionSolveArgs};
use crate::device::grid::grid_dim_x;
use crate::device::memory::slice;
use crate::device::shared::dynamic_shared_mem;
use crate::device::thread::{block_dim_x, block_idx_x, index_1d};
use crate::distance::NO_TARGET;
use crate::distance::Weight;
use crate::launch::partition_compute_warps;
use crate::partition::{self, Global, Local, Pieces, Placement, RoundSettings};
use crate::team::gpu::PartitionBlock;

use super::csr;

/// The global state of the partition kernels from their arguments.
///
/// # Safety
/// `dist` and `backing` hold `n` elements, `notify` and `owner` `k`,
/// `counters` 3 (pending, rounds, bound).
#[inline(always)]
unsafe fn global<'a>(
    (dist, backing): (*const AtomicU32, *const AtomicU32),
    n: u32,
    (notify, owner): (*const AtomicU32, *const AtomicU32),
    k: u32,
    counters: *const AtomicU32,
    target: u32,
) -> Global<'a> {
    // SAFETY: as the caller guarantees.
    unsafe {
        let counters = slice(counters, 3);
        Global {
            dist: slice(dist, n as usize),
            backing: slice(backing, n as usize),
            notify: slice(notify, k as usize),
            owner: slice(owner, k as usize),
            pending: &counters[0],
            rounds: &counters[1],
            bound: &counters[2],
            target,
        }
    }
}

/// The body of `partition_solve` and `partition_paged`: the block's solve
/// over the arguments' arrays, its pieces placed as `placement` says.
///
/// # Safety
/// `partition_solve`'s contract, or with paged placement `partition_paged`'s.
#[inline(always)]
unsafe fn solve<W: Weight>(args: &PartitionSolveArgs, placement: Placement) {
    // SAFETY: as the caller guarantees.
    let Some((pieces, global, local)) = (unsafe { state(args) }) else {
        return;
    };
    partition::block_solve::<W>(
        block_idx_x() as usize,
        placement,
        args.source as usize,
        settings(args),
        &pieces,
        &global,
        &local,
        &PartitionBlock,
    );
}

crate::args::partition_initialize_args! {
    /// `partition_initialize`: every distance infinite (also in `backing`),
    /// the notification words clear but the source piece's, every piece free,
    /// `pending` 1, `rounds` 0 and the bound `bound`.
    ///
    /// # Thread mapping
    /// One thread per vertex and per piece: thread `t` initializes vertex `t`
    /// (if `t < n`) and piece `t` (if `t < k`).
    ///
    /// # Safety
    /// `dist` and `backing` hold `n` elements, `notify` and `owner` `k >= 1`,
    /// `counters` 3; `source_piece < k`.
    fn partition_initialize(args) {
        let PartitionInitializeArgs {
            dist, backing, n, notify, owner, k, counters, source_piece, bound,
        } = args;
        // SAFETY: lengths as documented; accessed only atomically.
        let global = unsafe {
            global((dist, backing), n, (notify, owner), k, counters, NO_TARGET)
        };
        let t = index_1d();
        if t < n {
            partition::initialize_vertex(t as usize, &global);
        }
        if t < k {
            partition::initialize_piece(t as usize, source_piece as usize, bound, &global);
        }
    }
}

crate::args::partition_solve_args! {
    /// `partition_solve`: the whole resident solve
    /// ([`partition::block_solve`], resident), block `b` owning piece `b`.
    ///
    /// # Thread mapping
    /// `k` blocks (one per piece) of 64 to
    /// [`PARTITION_MOST_THREADS`](crate::launch::PARTITION_MOST_THREADS)
    /// threads, a multiple of 32 (one of
    /// [`PARTITION_BLOCK_SIZES`](crate::launch::PARTITION_BLOCK_SIZES)
    /// fills a multiprocessor): at the start and the end, thread `t`
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
    /// describe; `dist`, `backing`, `notify`, `owner` and `counters` as
    /// `partition_initialize` left them for `source < n`; `target < n` or
    /// [`NO_TARGET`](crate::distance::NO_TARGET); the grid has `k`
    /// blocks, all resident at once (a cooperative launch), each with
    /// [`partition_shared_bytes(capacity, edge_capacity, blockDim.x)`](crate::partition::partition_shared_bytes)
    /// of dynamic shared memory.
    fn partition_solve<W> as partition_solve_u32, partition_solve_f32 (args) {
        // SAFETY: as documented.
        unsafe { solve::<W>(&args, Placement::Resident) }
    }
}

crate::args::partition_solve_args! {
    /// `partition_paged`: the whole paged solve ([`partition::block_solve`], paged),
    /// blocks claiming pieces in turn.
    ///
    /// # Thread mapping
    /// Any number of blocks (at most `k` is useful), each of as many threads
    /// as `partition_solve` allows; while a block holds a piece, its threads
    /// work as `partition_solve`'s do; while it claims one, thread `t` scans
    /// the pieces `t, t + blockDim.x, …`.
    ///
    /// # Safety
    /// As `partition_solve`, except that the grid may have fewer blocks than
    /// `k`, all resident at once (a cooperative launch).
    fn partition_paged<W> as partition_paged_u32, partition_paged_f32 (args) {
        let placement = Placement::Paged { blocks: grid_dim_x() as usize };
        // SAFETY: as documented.
        unsafe { solve::<W>(&args, placement) }
    }
}

/// The window, edge lanes and chain hops of a solve from its arguments.
#[inline(always)]
fn settings(args: &PartitionSolveArgs) -> RoundSettings {
    RoundSettings {
        delta: args.delta,
        edge_lanes: args.edge_lanes,
        chain_hops: args.chain_hops,
        entries_first: args.entries_first != 0,
    }
}

/// The pieces, the global state and this block's shared memory of a solve
/// from its arguments; `None` when the shared memory cannot be split.
///
/// # Safety
/// The arguments as `partition_solve` documents them, and the launch gives
/// each block `partition_shared_bytes(capacity, edge_capacity, blockDim.x)`
/// bytes of dynamic shared memory.
#[inline(always)]
unsafe fn state<'a>(args: &PartitionSolveArgs) -> Option<(Pieces<'a>, Global<'a>, Local<'a>)> {
    let PartitionSolveArgs {
        offsets,
        targets,
        weights,
        n,
        m,
        starts,
        boundary_ends,
        piece_of,
        k,
        dist,
        backing,
        notify,
        owner,
        counters,
        target,
        capacity,
        edge_capacity,
        ..
    } = *args;
    // SAFETY: lengths as documented; the state is accessed only atomically,
    // the graph arrays never written.
    let (pieces, global) = unsafe {
        (
            Pieces {
                successors: csr(offsets, targets, weights, n as usize, m as usize),
                starts: slice(starts, k as usize + 1),
                boundary_ends: slice(boundary_ends, k as usize),
                piece_of: slice(piece_of, n as usize),
            },
            global((dist, backing), n, (notify, owner), k, counters, target),
        )
    };
    let (capacity, edge_capacity) = (capacity as usize, edge_capacity as usize);
    let chain_warps = partition_compute_warps(block_dim_x()) as usize;
    // SAFETY: the launch gives `shared_words(capacity, edge_capacity,
    // chain_warps)` words of dynamic shared memory, this block's alone,
    // accessed only atomically.
    let words = unsafe {
        slice(
            dynamic_shared_mem::<AtomicU32>(),
            partition::shared_words(capacity, edge_capacity, chain_warps),
        )
    };
    let local = Local::from_words(words, capacity, edge_capacity, chain_warps)?;
    Some((pieces, global, local))
}
