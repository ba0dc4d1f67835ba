//! What the host needs to launch the kernels: their PTX entry names, block sizes
//! and shared-memory sizes. Defined once here; the host uses these constants and a
//! test checks that every name is an `.entry` of the built PTX.

use core::sync::atomic::AtomicU32;

use crate::distance::WeightKind;

/// Threads per block of every kernel (the papers use 256). The `minimum` kernels
/// need a power of two.
pub const BLOCK_SIZE: u32 = 256;

/// Dynamic shared memory of a `minimum` block: one `u32` slot per thread.
pub const MINIMUM_SHARED_BYTES: u32 = BLOCK_SIZE * 4;

/// Dynamic shared memory of a `relax_u_plus` block: the row offsets of its
/// vertices and the one after.
pub const RELAX_PLUS_SHARED_BYTES: u32 = (BLOCK_SIZE + 1) * 4;

/// Threads per block of the Bellman-Ford kernels ("Algorithm 1"): the one block
/// of `bellman_ford_block`, and each block of `bellman_ford_grid`.
pub const BELLMAN_FORD_BLOCK_SIZE: u32 = 1024;

/// `u32` round flags of the Bellman-Ford kernels (two, alternating by round
/// parity): the global buffer of `bellman_ford_grid` holds this many.
pub const BELLMAN_FORD_FLAG_WORDS: usize = 2;

/// Dynamic shared memory of a `bellman_ford_block` block: its round flags.
pub const BELLMAN_FORD_BLOCK_SHARED_BYTES: u32 = BELLMAN_FORD_FLAG_WORDS as u32 * 4;

/// `u32`s of the state of a grid-wide barrier (arrival count and generation),
/// zeroed by the host before a cooperative launch.
pub const GRID_BARRIER_WORDS: usize = 2;

/// The state of a grid barrier (`device::grid::grid_sync`), in global memory
/// shared by all blocks: [`GRID_BARRIER_WORDS`] `u32`s, all zero at launch.
#[repr(C)]
pub struct GridBarrier {
    /// Blocks that have arrived at the current barrier.
    pub(crate) arrived: AtomicU32,
    /// Barriers completed so far (wrapping); waiting blocks watch it change.
    pub(crate) generation: AtomicU32,
}

const _: () = assert!(size_of::<GridBarrier>() == GRID_BARRIER_WORDS * 4);

/// Threads per block of the compacted DA2CF loops (`compact_block_loop`,
/// `compact_grid_loop`): a multiple of 32, at most 1024. At about 40 registers
/// per thread an SM holds one block of 1024 (half occupancy) but three of 512;
/// measured on the H100, 1024 is still 4–10% faster on the papers' graphs and
/// the same on road networks (docs/PERFORMANCE.md).
pub const COMPACT_BLOCK_SIZE: u32 = 1024;

/// Threads per block of the partition-local solver (`partition_solve`,
/// `partition_paged`) unless the caller chooses among
/// [`PARTITION_BLOCK_SIZES`]: one block per piece of the graph, so smaller
/// blocks let more pieces be resident at once, and a block barrier costs
/// less.
pub const PARTITION_BLOCK_SIZE: u32 = 256;

/// The block sizes the partition solver may be launched with, each filling a
/// multiprocessor's 768 threads of [`PARTITION_MOST_THREADS`]' registers: 3
/// blocks of 256, 2 of 384 or 1 of 768. Larger blocks make fewer, larger
/// pieces with more warps a round; which is fastest depends on the graph
/// (docs/PERFORMANCE.md, 2026-11-27), so `auto`'s
/// trial tries them.
pub const PARTITION_BLOCK_SIZES: [u32; 3] = [256, 384, 768];

/// The most threads a partition block may have, and the threads a
/// multiprocessor's registers are kept for (`.maxntid`, one block): at most
/// 85 registers a thread, which 3 blocks of 256 also need. 4 blocks of 256
/// held the registers to 64 and spilled: 5–15% slower on the roads
/// (docs/PERFORMANCE.md, 2026-11-27). Without a demand the assembler's
/// choice, and so the layout, moved with unrelated code changes.
pub const PARTITION_MOST_THREADS: u32 = 768;

// Its last warp communicates; the others compute (`crate::partition`).
const _: () = {
    let mut i = 0;
    while i < PARTITION_BLOCK_SIZES.len() {
        let threads = PARTITION_BLOCK_SIZES[i];
        assert!(threads.is_multiple_of(32) && threads >= 64 && threads <= PARTITION_MOST_THREADS);
        i += 1;
    }
};

/// The compute warps of a partition block of `threads` threads (a multiple
/// of 32): all but the last, which communicates.
pub const fn partition_compute_warps(threads: u32) -> u32 {
    (threads / 32).saturating_sub(1)
}

/// Threads per block of `phast_sweep`. Block 0 alone runs the small levels
/// at the top of the hierarchy, so it is as large as a block can be. No
/// demand of blocks per multiprocessor: held to 32 registers (two such
/// blocks) the sweep spills and ran slower than with one block and no
/// spills (docs/PERFORMANCE.md).
pub const PHAST_BLOCK_SIZE: u32 = 1024;

/// A level of at most this many items per thread of a `phast_sweep` block
/// runs on block 0 alone ([`crate::phast::block_levels`]): a block barrier
/// costs far less than a grid barrier.
pub const PHAST_BLOCK_ITEMS_PER_THREAD: u32 = 4;

/// `u32` words of shared memory at the start of a `matrix_relax_*` block for
/// its block-wide votes ("does any thread of the block have work", "does the
/// chunk hold any flag").
pub const MATRIX_VOTE_WORDS: u32 = 2;

/// Dynamic shared memory of a `matrix_relax_u` block: the vote words, the
/// chunk's staged distances (one `u32` per thread), then its staged frontier
/// flags (one byte per thread).
pub const MATRIX_RELAX_U_SHARED_BYTES: u32 = MATRIX_VOTE_WORDS * 4 + BLOCK_SIZE * 4 + BLOCK_SIZE;

/// Dynamic shared memory of a `matrix_relax_f` block: the vote words, then the
/// chunk's staged unsettled flags, one byte per thread.
pub const MATRIX_RELAX_F_SHARED_BYTES: u32 = MATRIX_VOTE_WORDS * 4 + BLOCK_SIZE;

/// Kernels launched with blocks of up to this many threads, and the blocks
/// each multiprocessor must fit at once (0: no demand), for the build to
/// write `.maxntid` and `.minnctapersm` into the PTX (CUDA's
/// `__launch_bounds__`), so that the assembler keeps their registers within
/// what such a block (and that many blocks) can have.
pub const LAUNCH_BOUNDS: &[(&str, u32, u32)] = &[
    (names::COMPACT_BLOCK_LOOP.u32, COMPACT_BLOCK_SIZE, 0),
    (names::COMPACT_BLOCK_LOOP.f32, COMPACT_BLOCK_SIZE, 0),
    (names::COMPACT_GRID_LOOP.u32, COMPACT_BLOCK_SIZE, 0),
    (names::COMPACT_GRID_LOOP.f32, COMPACT_BLOCK_SIZE, 0),
    (names::NEAR_FAR_BLOCK_LOOP.u32, COMPACT_BLOCK_SIZE, 0),
    (names::NEAR_FAR_BLOCK_LOOP.f32, COMPACT_BLOCK_SIZE, 0),
    (names::NEAR_FAR_GRID_LOOP.u32, COMPACT_BLOCK_SIZE, 0),
    (names::NEAR_FAR_GRID_LOOP.f32, COMPACT_BLOCK_SIZE, 0),
    (names::NEAR_FAR_BLOCK_LOOP_HUBS.u32, COMPACT_BLOCK_SIZE, 0),
    (names::NEAR_FAR_BLOCK_LOOP_HUBS.f32, COMPACT_BLOCK_SIZE, 0),
    (names::NEAR_FAR_GRID_LOOP_HUBS.u32, COMPACT_BLOCK_SIZE, 0),
    (names::NEAR_FAR_GRID_LOOP_HUBS.f32, COMPACT_BLOCK_SIZE, 0),
    (names::PARTITION_SOLVE.u32, PARTITION_MOST_THREADS, 1),
    (names::PARTITION_SOLVE.f32, PARTITION_MOST_THREADS, 1),
    (names::PARTITION_PAGED.u32, PARTITION_MOST_THREADS, 1),
    (names::PARTITION_PAGED.f32, PARTITION_MOST_THREADS, 1),
    (names::PHAST_SWEEP.u32, PHAST_BLOCK_SIZE, 0),
    (names::PHAST_SWEEP.f32, PHAST_BLOCK_SIZE, 0),
    (names::BELLMAN_FORD_BLOCK.u32, BELLMAN_FORD_BLOCK_SIZE, 0),
    (names::BELLMAN_FORD_BLOCK.f32, BELLMAN_FORD_BLOCK_SIZE, 0),
    (names::BELLMAN_FORD_GRID.u32, BELLMAN_FORD_BLOCK_SIZE, 0),
    (names::BELLMAN_FORD_GRID.f32, BELLMAN_FORD_BLOCK_SIZE, 0),
    (names::PAIR_QUERY.u32, BLOCK_SIZE, PAIR_QUERY_BLOCKS_PER_SM),
    (names::PAIR_QUERY.f32, BLOCK_SIZE, PAIR_QUERY_BLOCKS_PER_SM),
];

/// Blocks of `pair_query` each multiprocessor fits at once: every thread
/// waits on memory most of the time (a query is a chain of dependent
/// loads), so the more threads resident, the more queries answered; 8
/// blocks of 256 threads is the most a multiprocessor holds (2048
/// threads, 32 registers each).
pub const PAIR_QUERY_BLOCKS_PER_SM: u32 = 8;

/// The PTX entries of a kernel that adds weights, one per weight type (see
/// `kernels`' `entry!`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerWeight {
    /// The entry for `u32` weights.
    pub u32: &'static str,
    /// The entry for `f32` weights.
    pub f32: &'static str,
}

impl PerWeight {
    const fn new(u32: &'static str, f32: &'static str) -> Self {
        PerWeight { u32, f32 }
    }

    /// The entry for weights of `kind`.
    pub const fn of(self, kind: WeightKind) -> &'static str {
        match kind {
            WeightKind::U32 => self.u32,
            WeightKind::F32 => self.f32,
        }
    }
}

/// PTX entry names, one constant per kernel ([`PerWeight`] for those that add
/// weights).
pub mod names {
    use super::PerWeight;

    /// `initialize` of Fig. 2.
    pub const DA2CF_INITIALIZE: &str = "da2cf_initialize";
    /// `relax_F` of Fig. 3 (push, atomic minimum).
    pub const DA2CF_RELAX_F: PerWeight = PerWeight::new("da2cf_relax_f_u32", "da2cf_relax_f_f32");
    /// `minimum1` of Fig. 4: masked distances to per-block minima.
    pub const DA2CF_MINIMUM1: &str = "da2cf_minimum1";
    /// `minimum2`: per-block minima reduced once more.
    pub const DA2CF_MINIMUM2: &str = "da2cf_minimum2";
    /// `update` of Fig. 4.
    pub const DA2CF_UPDATE: &str = "da2cf_update";
    /// `relax_F` without atomics (F^GPU_no_Atomic; racy, measurement only).
    pub const DA2CF_RELAX_F_NO_ATOMIC: PerWeight =
        PerWeight::new("da2cf_relax_f_no_atomic_u32", "da2cf_relax_f_no_atomic_f32");
    /// `relax_U` of Fig. 3 (pull, over the predecessor CSR).
    pub const DA2CF_RELAX_U: PerWeight = PerWeight::new("da2cf_relax_u_u32", "da2cf_relax_u_f32");
    /// `relax_U` of U^GPU_PLUS (shared-memory offsets, read-only-cache flags).
    pub const DA2CF_RELAX_U_PLUS: PerWeight =
        PerWeight::new("da2cf_relax_u_plus_u32", "da2cf_relax_u_plus_f32");
    /// Crauser: `Δ_node` from the successor CSR.
    pub const CRAUSER_DELTA_NODE_SUCC: &str = "crauser_delta_node_succ";
    /// Crauser: `Δ_node` from the predecessor CSR (atomic minimum).
    pub const CRAUSER_DELTA_NODE_PRED: &str = "crauser_delta_node_pred";
    /// Crauser general: `minimum1` of `dist + Δ_node`.
    pub const CRAUSER_MINIMUM1: PerWeight =
        PerWeight::new("crauser_minimum1_u32", "crauser_minimum1_f32");
    /// Crauser: settle unsettled vertices with `dist <= Δ`.
    pub const CRAUSER_UPDATE: &str = "crauser_update";

    /// "Algorithm 1" (Bellman-Ford style), the paper's form: one block, the
    /// whole loop in one launch.
    pub const BELLMAN_FORD_BLOCK: PerWeight =
        PerWeight::new("bellman_ford_block_u32", "bellman_ford_block_f32");
    /// "Algorithm 1" over the whole grid with a grid-wide barrier (cooperative
    /// launch).
    pub const BELLMAN_FORD_GRID: PerWeight =
        PerWeight::new("bellman_ford_grid_u32", "bellman_ford_grid_f32");

    /// Measuring mode: counts the set flags of an array (working `relax` threads).
    pub const STATS_COUNT_FLAGS: &str = "stats_count_flags";

    /// U^GPU on adjacency matrices: `relax_U` down the columns, chunks of the
    /// frontier flags and distances staged in shared memory.
    pub const MATRIX_RELAX_U: PerWeight =
        PerWeight::new("matrix_relax_u_u32", "matrix_relax_u_f32");
    /// F^GPU on adjacency matrices: `relax_F` along the rows (atomic minimum),
    /// chunks of the unsettled flags staged in shared memory.
    pub const MATRIX_RELAX_F: PerWeight =
        PerWeight::new("matrix_relax_f_u32", "matrix_relax_f_f32");
    /// Crauser general on adjacency matrices: `Δ_node`, the minimum of each row.
    pub const MATRIX_DELTA_NODE: &str = "matrix_delta_node";

    /// Compacted DA2CF: distances and the loop state of a new solve.
    pub const COMPACT_INITIALIZE: &str = "compact_initialize";
    /// Compacted DA2CF: the device-resident loop on one block.
    pub const COMPACT_BLOCK_LOOP: PerWeight =
        PerWeight::new("compact_block_loop_u32", "compact_block_loop_f32");
    /// Compacted DA2CF: the device-resident loop on the whole grid
    /// (cooperative launch, grid-wide barrier).
    pub const COMPACT_GRID_LOOP: PerWeight =
        PerWeight::new("compact_grid_loop_u32", "compact_grid_loop_f32");

    /// The shortest-path tree after a solve: one round of parents pulled over
    /// the predecessor CSR.
    pub const PARENTS_JOIN_ROUND: PerWeight =
        PerWeight::new("parents_join_round_u32", "parents_join_round_f32");

    /// A solved row gathered into the caller's vertex order ([`crate::rows`]).
    pub const ROWS_GATHER: &str = "rows_gather";

    /// The certificate after a solve: (1), (2) and closer tight in-arcs.
    pub const CERTIFICATE_CHECK: PerWeight =
        PerWeight::new("certificate_check_u32", "certificate_check_f32");
    /// The certificate after the tree's rounds: every reached vertex in the
    /// tree, every parent a tight arc.
    pub const CERTIFICATE_TREE: PerWeight =
        PerWeight::new("certificate_tree_u32", "certificate_tree_f32");
    /// The certificate's push form over the forward CSR: (2) and closer
    /// tight arcs, from each tail.
    pub const CERTIFICATE_PUSH: PerWeight =
        PerWeight::new("certificate_push_u32", "certificate_push_f32");
    /// The push form's verdict per vertex: (1) and (3).
    pub const CERTIFICATE_VERDICT: &str = "certificate_verdict";

    /// Near-far: distances, stamps and the state of a new solve.
    pub const NEAR_FAR_INITIALIZE: &str = "near_far_initialize";
    /// Near-far: the device-resident loop on one block.
    pub const NEAR_FAR_BLOCK_LOOP: PerWeight =
        PerWeight::new("near_far_block_loop_u32", "near_far_block_loop_f32");
    /// Near-far: the device-resident loop on the whole grid (cooperative
    /// launch, grid-wide barrier).
    pub const NEAR_FAR_GRID_LOOP: PerWeight =
        PerWeight::new("near_far_grid_loop_u32", "near_far_grid_loop_f32");
    /// Near-far with hubs: `NEAR_FAR_BLOCK_LOOP`, near vertices of many
    /// edges walked by the whole block.
    pub const NEAR_FAR_BLOCK_LOOP_HUBS: PerWeight = PerWeight::new(
        "near_far_block_loop_hubs_u32",
        "near_far_block_loop_hubs_f32",
    );
    /// Near-far with hubs: `NEAR_FAR_GRID_LOOP`, near vertices of many
    /// edges walked by the whole grid.
    pub const NEAR_FAR_GRID_LOOP_HUBS: PerWeight =
        PerWeight::new("near_far_grid_loop_hubs_u32", "near_far_grid_loop_hubs_f32");

    /// Partition-local solver: global distances, notification words and
    /// counters of a new solve.
    pub const PARTITION_INITIALIZE: &str = "partition_initialize";
    /// Partition-local solver: the whole solve, one persistent block per
    /// piece (cooperative launch).
    pub const PARTITION_SOLVE: PerWeight =
        PerWeight::new("partition_solve_u32", "partition_solve_f32");
    /// Partition-local solver: the whole solve, persistent blocks that claim
    /// pieces in turn (paged mode; cooperative launch).
    pub const PARTITION_PAGED: PerWeight =
        PerWeight::new("partition_paged_u32", "partition_paged_f32");

    /// PHAST: every distance of a multi-source sweep infinite.
    pub const PHAST_CLEAR: &str = "phast_clear";
    /// PHAST: the upward searches' distances into the sweep's distances.
    pub const PHAST_SCATTER: &str = "phast_scatter";
    /// PHAST: the downward sweep over every level (cooperative launch).
    pub const PHAST_SWEEP: PerWeight = PerWeight::new("phast_sweep_u32", "phast_sweep_f32");
    /// PHAST: a sweep's distances at a table's targets (every vertex: whole
    /// trees in graph order), into the table.
    pub const PHAST_COLUMNS: &str = "phast_columns";
    /// PHAST: slots of whole trees in graph order, bounded, overflow flagged.
    pub const PHAST_ROWS: &str = "phast_rows";
    /// CCH: the basic customization of the arcs of one level (`u32` weights).
    pub const CCH_CUSTOMIZE: &str = "cch_customize";
    /// CCH: the same, one warp an arc.
    pub const CCH_CUSTOMIZE_WARPS: &str = "cch_customize_warps";
    /// Point-to-point queries of a hierarchy, one thread a pair.
    pub const PAIR_QUERY: PerWeight = PerWeight::new("pair_query_u32", "pair_query_f32");
    /// Reductions: each thread's share of the vertices within a limit.
    pub const REDUCTIONS_WITHIN_PART: &str = "reductions_within_part";
    /// Reductions: each source's total of the shares.
    pub const REDUCTIONS_WITHIN_TOTAL: &str = "reductions_within_total";
    /// Reductions: each vertex's nearest source so far.
    pub const REDUCTIONS_NEAREST: &str = "reductions_nearest";

    /// Every kernel, for loading them all at once and for the PTX check.
    pub const ALL: &[&str] = &[
        STATS_COUNT_FLAGS,
        DA2CF_INITIALIZE,
        DA2CF_RELAX_F.u32,
        DA2CF_RELAX_F.f32,
        DA2CF_MINIMUM1,
        DA2CF_MINIMUM2,
        DA2CF_UPDATE,
        DA2CF_RELAX_F_NO_ATOMIC.u32,
        DA2CF_RELAX_F_NO_ATOMIC.f32,
        DA2CF_RELAX_U.u32,
        DA2CF_RELAX_U.f32,
        DA2CF_RELAX_U_PLUS.u32,
        DA2CF_RELAX_U_PLUS.f32,
        CRAUSER_DELTA_NODE_SUCC,
        CRAUSER_DELTA_NODE_PRED,
        CRAUSER_MINIMUM1.u32,
        CRAUSER_MINIMUM1.f32,
        CRAUSER_UPDATE,
        BELLMAN_FORD_BLOCK.u32,
        BELLMAN_FORD_BLOCK.f32,
        BELLMAN_FORD_GRID.u32,
        BELLMAN_FORD_GRID.f32,
        MATRIX_RELAX_U.u32,
        MATRIX_RELAX_U.f32,
        MATRIX_RELAX_F.u32,
        MATRIX_RELAX_F.f32,
        MATRIX_DELTA_NODE,
        COMPACT_INITIALIZE,
        COMPACT_BLOCK_LOOP.u32,
        COMPACT_BLOCK_LOOP.f32,
        COMPACT_GRID_LOOP.u32,
        COMPACT_GRID_LOOP.f32,
        PARENTS_JOIN_ROUND.u32,
        PARENTS_JOIN_ROUND.f32,
        ROWS_GATHER,
        CERTIFICATE_CHECK.u32,
        CERTIFICATE_CHECK.f32,
        CERTIFICATE_TREE.u32,
        CERTIFICATE_TREE.f32,
        CERTIFICATE_PUSH.u32,
        CERTIFICATE_PUSH.f32,
        CERTIFICATE_VERDICT,
        NEAR_FAR_INITIALIZE,
        NEAR_FAR_BLOCK_LOOP.u32,
        NEAR_FAR_BLOCK_LOOP.f32,
        NEAR_FAR_GRID_LOOP.u32,
        NEAR_FAR_GRID_LOOP.f32,
        NEAR_FAR_BLOCK_LOOP_HUBS.u32,
        NEAR_FAR_BLOCK_LOOP_HUBS.f32,
        NEAR_FAR_GRID_LOOP_HUBS.u32,
        NEAR_FAR_GRID_LOOP_HUBS.f32,
        PARTITION_INITIALIZE,
        PARTITION_SOLVE.u32,
        PARTITION_SOLVE.f32,
        PARTITION_PAGED.u32,
        PARTITION_PAGED.f32,
        PHAST_CLEAR,
        PHAST_SCATTER,
        PHAST_SWEEP.u32,
        PHAST_SWEEP.f32,
        PHAST_COLUMNS,
        PHAST_ROWS,
        CCH_CUSTOMIZE,
        CCH_CUSTOMIZE_WARPS,
        PAIR_QUERY.u32,
        PAIR_QUERY.f32,
        REDUCTIONS_WITHIN_PART,
        REDUCTIONS_WITHIN_TOTAL,
        REDUCTIONS_NEAREST,
    ];
}

const _: () = assert!(BLOCK_SIZE.is_power_of_two());
const _: () = assert!(COMPACT_BLOCK_SIZE.is_multiple_of(32) && COMPACT_BLOCK_SIZE <= 1024);
