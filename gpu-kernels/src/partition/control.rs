//! The layout of a partition block's shared memory: the control words that
//! the roles and phases share (module docs of [`crate::partition`]), the
//! outboxes, the chain queues, and the piece's arrays; the constants of the
//! protocols that run on them.

use crate::launch::partition_compute_warps;

/// `u32` words of a block's control area in shared memory.
pub const CONTROL_WORDS: usize = 30;

/// The control area. Compute threads only: minima by round mod 3, frontier
/// lengths by round parity, compute thread 0's broadcast by step parity.
/// Shared by the roles: each outbox's state and length, the notifications
/// the communication thread took, the compute threads' idle post and the
/// exit. Paged mode's claim: the lowest notified distance the scan found,
/// the verdict and the candidates' keys.
pub(super) const MINIMUM: usize = 0;
pub(super) const FRONTIER_LEN: usize = 3;
pub(super) const BROADCAST: usize = 5;
pub(super) const OUTBOX_STATE: usize = 7;
pub(super) const OUTBOX_LEN: usize = 9;
pub(super) const TAKEN: usize = 11;
pub(super) const IDLE: usize = 12;
pub(super) const EXIT_POSTED: usize = 13;
pub(super) const SCAN_LOW: usize = 14;
pub(super) const CLAIMED: usize = 15;
pub(super) const CANDIDATE: usize = 16;
pub(super) const BOUND: usize = 24;
pub(super) const STEP_BOUND: usize = 25;
/// The smallest dirty distance of the piece's entries, by round mod 3 as
/// `MINIMUM` ([`RoundSettings::entries_first`]).
pub(super) const ENTRY_MINIMUM: usize = 27;

/// Pieces a paged block's claim tries after one scan: one per group of its
/// threads (threads `t` with the same `t % CANDIDATES`).
pub(super) const CANDIDATES: usize = 8;

const _: () = assert!(CANDIDATE + CANDIDATES <= BOUND && STEP_BOUND + 2 <= ENTRY_MINIMUM);
const _: () = assert!(ENTRY_MINIMUM + 3 <= CONTROL_WORDS);

/// Verdicts of a paged block's claim besides a piece's index.
pub(super) const CLAIM_NONE: u32 = u32::MAX;
pub(super) const CLAIM_EXIT: u32 = u32::MAX - 1;
pub(super) const CLAIM_RESCAN: u32 = u32::MAX - 2;

/// An owner word of a piece no block holds.
pub(super) const FREE_PIECE: u32 = 0;
pub(super) const OWNED_PIECE: u32 = 1;

/// Bits of the broadcast.
pub(super) const PULL: u32 = 1;
pub(super) const EXIT: u32 = 2;
pub(super) const OUTBOX_OPEN: u32 = 4;

/// An outbox's state: free (compute thread 0 may open it), filling (the
/// round's relax phase writes it), ready (the communication thread sends it
/// and frees it).
pub(super) const FREE: u32 = 0;
pub(super) const FILLING: u32 = 1;
pub(super) const READY: u32 = 2;

/// Pieces an outbox holds; a round that reaches more notifies the rest
/// directly, each behind a device fence. Each slot is two words, the piece
/// and the distance sent. 64 rather than 32: 4–9% faster on New York and
/// the Delaunay meshes, within noise elsewhere (docs/PERFORMANCE.md).
pub const OUTBOX_SLOTS: usize = 64;

/// Vertices a chain queue holds; a vertex that does not fit is left dirty
/// for the next round, whose frontier every warp shares. A hop lasts as long
/// as its warp's busiest group and the round waits for the slowest warp, so
/// a long queue keeps one warp chaining while the others wait: 8 slots (one
/// or two vertices a group a hop) instead of 32 took road-BAY 17%, the
/// Delaunay meshes 7–11% and New York 3% less time, the 4096² grid 9% more
/// (6 points of it the short queue's, 3 its larger pieces'), the other grids
/// within ±2%; 4 slots lost 12% on the 1000² grid, and one or two vertices per
/// group (slots by the edge lanes) lost on the roads (docs/PERFORMANCE.md).
pub(super) const CHAIN_SLOTS: usize = 8;

/// Words of one warp's two chain queues: a length and [`CHAIN_SLOTS`]
/// vertices each.
pub(super) const CHAIN_QUEUE_WORDS: usize = 2 * (1 + CHAIN_SLOTS);

/// Notifications the communication thread sends before it reads any of
/// their results, so that their round trips overlap.
pub(super) const SEND_GROUP: usize = 4;

/// Tokens the communication thread adds beyond those it needs when it runs
/// short, so that most sends need no add.
pub const TOKEN_RESERVE: u32 = 16;

/// How often compute thread 0's sleep between the steps of an idle piece
/// doubles ([`BlockTeam::back_off`]; to 800 ns on the GPU): the idle steps of
/// the blocks without work take issue slots from those that work on the same
/// multiprocessor, while a notification waits at most one sleep longer.
pub(super) const IDLE_BACK_OFF_DOUBLINGS: u32 = 3;

/// Idle polls in a row after which a paged block's communication thread lets
/// the piece go: a piece whose neighbours still work is often notified again
/// soon, and keeping it saves a write-back, a claim and a load.
pub(super) const PAGED_LINGER_POLLS: u32 = 16;

/// Polls between two reads of `pending` by an idle communication thread: the
/// counter is one word every sender updates, and the end of the solve is
/// noticed a few polls late at most.
pub(super) const POLLS_PER_PENDING_READ: u32 = 4;

/// `u32` words of shared memory a block needs for pieces of at most
/// `capacity` vertices and `edge_capacity` edges leaving them, with chain
/// queues for `chain_warps` warps: the control words, two outboxes, the
/// warps' chain queues, distance, dirty mark and frontier slot per vertex,
/// then, when `edge_capacity > 0`, the piece's edges ([`Local::from_words`]).
pub const fn shared_words(capacity: usize, edge_capacity: usize, chain_warps: usize) -> usize {
    let edges = if edge_capacity > 0 {
        capacity + 1 + 2 * edge_capacity
    } else {
        0
    };
    CONTROL_WORDS + OUTBOX_WORDS + chain_warps * CHAIN_QUEUE_WORDS + 3 * capacity + edges
}

/// Words of the two outboxes.
pub(super) const OUTBOX_WORDS: usize = 2 * 2 * OUTBOX_SLOTS;

/// Dynamic shared memory of a partition block of `threads` threads for
/// pieces of at most `capacity` vertices and `edge_capacity` out-edges (0:
/// edges stay in global memory; [`shared_words`], a pair of chain queues for
/// each compute warp).
pub const fn partition_shared_bytes(capacity: u32, edge_capacity: u32, threads: u32) -> u32 {
    let warps = partition_compute_warps(threads) as usize;
    shared_words(capacity as usize, edge_capacity as usize, warps) as u32 * 4
}
