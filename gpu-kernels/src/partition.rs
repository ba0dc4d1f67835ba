//! Per-block logic of the partition-local solver for high-diameter graphs
//! (issue #20, `../shared/design/ROADS.md`): the graph is cut into pieces of
//! at most `capacity` vertices, renumbered so that each piece is a contiguous
//! range and its *boundary* vertices (those with an edge from another piece)
//! come first; a block that holds a piece keeps its distances in shared
//! memory, and its out-edges too where they fit ([`PieceEdges`], copied when
//! it takes the piece): then a hop inside the piece touches no global memory.
//!
//! # Two modes
//! - **Resident** ([`block_loop`]): one persistent block per piece, which
//!   holds it for the whole solve and writes its distances to `dist` at the
//!   end.
//! - **Paged** ([`paged_loop`]), for graphs with more pieces than blocks fit
//!   the device: each block *claims* a free piece with a notification (one
//!   whose notified distance is within Δ of the lowest the block's last scan
//!   saw; of those, the one nearest the block's place in the piece order, so
//!   that idle blocks spread out), loads its distances from `backing`, works
//!   on it exactly as a resident block does until it has had no local work
//!   for a few polls, writes the distances back and releases it. `backing`
//!   holds the result at the end.
//!
//! # Two roles in a block
//! The *compute* threads (all but the last [`BlockTeam::comm_threads`]) run
//! rounds on the piece and wait only for each other
//! ([`BlockTeam::compute_barrier`]). The first thread after them, the
//! *communication* thread, does everything that waits on other blocks:
//! notifying the pieces the compute threads sent to, taking this piece's
//! notifications, the tokens of the termination protocol and the exit. So a
//! round never waits for a device-scope fence or for a notification's round
//! trips; the two roles talk through words in shared memory. The other
//! threads of the communication warp only wait for the end.
//!
//! # The compute threads' loop
//! Each step runs on a word compute thread 0 posted before the compute
//! barrier that ended the previous step (while the others still relaxed):
//! the exit or a new notification to pull, as the communication thread
//! posted them, and this round's outbox opened when it is free. Then:
//! - **pull** (when notified): the boundary vertices take the smaller of
//!   their global distance (the inbox other blocks write to) and their local
//!   one; improved ones become *dirty*;
//! - **select**: dirty vertices below the window `min + Δ` (`min`: the
//!   smallest dirty distance) are cleared and listed as the round's frontier
//!   — with *entries first* ([`RoundSettings::entries_first`]), a vertex that
//!   is not an entry only if it is also below every dirty entry;
//! - **relax**: each frontier vertex relaxes its edges; an edge inside the
//!   piece lowers the shared distance with an atomic minimum and marks the
//!   head dirty; an edge leaving it does an atomic minimum on the global
//!   distance and, when that improved it, puts the head's piece in the
//!   round's *outbox*, which compute thread 0 hands to the communication
//!   thread after the phase. When the outbox is full or still being sent, the
//!   thread notifies the piece itself (rule 2 below).
//! - **chain** (in the relax phase): a vertex lowered below the window goes
//!   into its warp's chain queue instead of being marked dirty, and each warp
//!   relaxes its queue at once, then what that lowered, for a few hops
//!   (`chain_hops`); what is left is marked dirty. A path inside the piece
//!   so advances a hop per warp step instead of a hop per round: the solve's
//!   time follows the rounds on its critical path, about one per hop of the
//!   shortest-path tree's depth without chains (docs/PERFORMANCE.md,
//!   2026-11-27).
//!
//! A step that finds no dirty vertex (after its pull, if any) is idle:
//! compute thread 0 closes the outbox it opened and posts that the piece is
//! idle, with the number of notifications it has pulled; the word it then
//! posts opens an outbox only with a pull, so that the communication thread
//! sees both outboxes free while the piece stays idle.
//!
//! The smallest dirty distance is kept without a scan: each compute thread
//! lowers next round's minimum word, after the relax phase, with the
//! smallest distance of the dirty vertices it left in the select phase and
//! marked in the relax phase, and the pull lowers this round's with each
//! thread's smallest pulled value (one atomic a thread, not one a vertex:
//! the lanes would meet on one word). So the word is the smallest distance
//! of the dirty vertices at the next round's start — or above it where a chain lowered a vertex that was
//! already dirty, which still leaves that vertex below the window — and
//! `INFINITY` exactly when there are none. A second word does the same for
//! the piece's entries alone, which *entries first* needs; it only decides
//! which dirty vertices a round takes, never whether the piece is idle.
//!
//! # Notification words
//! A piece's word holds the smallest distance other pieces sent it since it
//! was last taken ([`INFINITY`]: none, the word is *clear*). Senders lower it
//! with an atomic minimum, the holder takes it by exchanging it with
//! `INFINITY`; a paged block claims by it.
//!
//! # Termination: the pending counter never loses work
//! A global counter `pending` counts *tokens*: one per set notification word
//! and those held by each block's communication thread (`owned`). The rules:
//! 1. The solve starts with `pending = 1` and the source's piece notified
//!    (that token); the owning block puts the source in its dirty set.
//! 2. A sender hands one of its tokens to each word it sets. The
//!    communication thread first makes sure it owns more tokens than words
//!    it may set (adding [`TOKEN_RESERVE`] more to `pending` when it does
//!    not, before its fence), lowers each word (an atomic minimum that
//!    returns the old word), and gives up a token for every word that was
//!    clear. A compute thread that notifies directly adds a token first and
//!    takes it back if the word was already set.
//!    Either way a token is counted in `pending` before the word it belongs
//!    to can be consumed.
//! 3. The communication thread that finds its word set exchanges it for
//!    `INFINITY` and takes over its token (`owned += 1`) *before* it posts
//!    the pull.
//! 4. It gives its tokens back (`pending -= owned`) only when the compute
//!    threads posted idle after pulling every notification it took, both
//!    outboxes are sent, and its poll found no notification.
//! 5. A block leaves when, holding no token, its communication thread reads
//!    `pending == 0`.
//!
//! In paged mode rule 3's take is the claim's: the claiming thread exchanges
//! the word of the piece it now owns and hands its token to the
//! communication thread, which starts owning 1 and having taken 1, so the
//! compute threads pull first. Rule 4 gives the tokens back and ends the
//! block's hold on the piece (the compute threads leave their loop, the
//! block writes the distances back and releases the owner word); rule 5 is
//! checked by a block between pieces, when its scan found no word to claim.
//! The argument below holds as it stands: a piece whose word is set holds a
//! token whether or not it is owned, and one with work is owned.
//!
//! A piece with work holds a token or has its word set: it got the work from
//! the source's token (rule 1) or from a pull (rule 3), and rule 4 waits
//! until the work is done and sent. So `pending` is at least 1 while any
//! word is set or any block has work, and every add is made while it is.
//! So the first time `pending` is 0 it stays 0, and at that moment every
//! word is clear and no block has work: every improvement was pulled and
//! relaxed, which is Bellman-Ford's fixpoint. A resident block that leaves
//! writes its shared distances back to the global array (nobody sends any
//! more, so no value there is smaller); a paged block wrote them to
//! `backing` before it released the piece.
//!
//! # Early stop
//! A solve may be bounded ([`Global::bound`]): the bound starts at the limit
//! ([`INFINITY`] without one) and, with a target, falls with the target's
//! tentative distance. No vertex above the
//! bound is relaxed: the window never passes it, a piece whose dirty
//! vertices all lie beyond it is idle, and an edge that leaves the piece
//! with a candidate above it is not sent. A vertex whose distance is at most
//! the final bound has a shortest path whose every prefix is at most the
//! bound, so each of them is relaxed and its distance comes out exact;
//! vertices beyond may keep tentative distances, which the host marks
//! unreached. Leaving a vertex unrelaxed is as if its edges were missing, so
//! the termination argument is untouched; the solve ends sooner because the
//! work beyond the bound is never done. The checks cost a comparison per
//! step, not per edge. Compute thread 0 posts each step's bound with its
//! word (so that every compute thread takes the same idle-or-work branch),
//! from a control word that the piece's load sets; with a target, the
//! communication thread of the piece that holds it lowers the global word to
//! the target's distance at each poll, and every communication thread
//! lowers its block's word to the global one: a stale bound is larger, which
//! only relaxes more.
//!
//! # Memory order
//! Between blocks: a sender's atomic minima are ordered before its exchange
//! of the word by a device fence ([`BlockTeam::device_fence`], release and
//! acquire, cumulative over what the sender saw through the block's own
//! barriers and fences); the receiver's exchange that reads the set word is
//! followed by another, so its pull reads every distance sent before. A
//! paged block's write-back is ordered before its release of the owner word
//! by the block's barrier and a device fence; the next owner's claim (a
//! compare-exchange, then a device fence) orders its load after both.
//! Between the two roles of a block: the words they share are written after
//! and read before a block fence ([`BlockTeam::block_fence`]); the
//! communication thread's side of them is atomic ([`BlockTeam::post`]), so
//! that racecheck, which does not model fences, sees no plain pair. Inside the
//! compute threads the phases are separated by barriers; the relax phase's
//! minima and dirty marks all happen after the select phase cleared the
//! marks, so no improvement is missed; a warp's chain queues are handed
//! between its lanes across the warp's barrier ([`BlockTeam::sync_warp`]),
//! and the warp has left its chain before the round's barrier. The control
//! words are buffered so that compute thread 0 never rewrites a word that
//! another thread may still read: the broadcast by step parity, the minima
//! by round mod 3, the frontier lengths and outboxes by round parity (as in
//! [`crate::near_far`]).

use core::cell::Cell;
use core::sync::atomic::AtomicU32;
use core::sync::atomic::Ordering::Relaxed;

use crate::csr::Csr;
use crate::distance::{INFINITY, NO_TARGET, Weight};
use crate::launch::partition_compute_warps;
use crate::team::BlockTeam;

/// `u32` words of a block's control area in shared memory.
pub const CONTROL_WORDS: usize = 30;

/// The control area. Compute threads only: minima by round mod 3, frontier
/// lengths by round parity, compute thread 0's broadcast by step parity.
/// Shared by the roles: each outbox's state and length, the notifications
/// the communication thread took, the compute threads' idle post and the
/// exit. Paged mode's claim: the lowest notified distance the scan found,
/// the verdict and the candidates' keys.
const MINIMUM: usize = 0;
const FRONTIER_LEN: usize = 3;
const BROADCAST: usize = 5;
const OUTBOX_STATE: usize = 7;
const OUTBOX_LEN: usize = 9;
const TAKEN: usize = 11;
const IDLE: usize = 12;
const EXIT_POSTED: usize = 13;
const SCAN_LOW: usize = 14;
const CLAIMED: usize = 15;
const CANDIDATE: usize = 16;
const BOUND: usize = 24;
const STEP_BOUND: usize = 25;
/// The smallest dirty distance of the piece's entries, by round mod 3 as
/// `MINIMUM` ([`RoundSettings::entries_first`]).
const ENTRY_MINIMUM: usize = 27;

/// Pieces a paged block's claim tries after one scan: one per group of its
/// threads (threads `t` with the same `t % CANDIDATES`).
const CANDIDATES: usize = 8;

const _: () = assert!(CANDIDATE + CANDIDATES <= BOUND && STEP_BOUND + 2 <= ENTRY_MINIMUM);
const _: () = assert!(ENTRY_MINIMUM + 3 <= CONTROL_WORDS);

/// Verdicts of a paged block's claim besides a piece's index.
const CLAIM_NONE: u32 = u32::MAX;
const CLAIM_EXIT: u32 = u32::MAX - 1;
const CLAIM_RESCAN: u32 = u32::MAX - 2;

/// An owner word of a piece no block holds.
const FREE_PIECE: u32 = 0;
const OWNED_PIECE: u32 = 1;

/// Bits of the broadcast.
const PULL: u32 = 1;
const EXIT: u32 = 2;
const OUTBOX_OPEN: u32 = 4;

/// An outbox's state: free (compute thread 0 may open it), filling (the
/// round's relax phase writes it), ready (the communication thread sends it
/// and frees it).
const FREE: u32 = 0;
const FILLING: u32 = 1;
const READY: u32 = 2;

/// Pieces an outbox holds; a round that reaches more notifies the rest
/// directly, each behind a device fence. Each slot is two words, the piece
/// and the distance sent. 64 rather than 32: 4–9% faster on New York and
/// the Delaunay meshes, within noise elsewhere (docs/PERFORMANCE.md,
/// 2026-11-27, sixteenth session).
pub const OUTBOX_SLOTS: usize = 64;

/// Vertices a chain queue holds; a vertex that does not fit is left dirty
/// for the next round, whose frontier every warp shares. A hop lasts as long
/// as its warp's busiest group and the round waits for the slowest warp, so
/// a long queue keeps one warp chaining while the others wait: 8 slots (one
/// or two vertices a group a hop) instead of 32 took road-BAY 17%, the
/// Delaunay meshes 7–11% and New York 3% less time, the 4096² grid 9% more
/// (6 points of it the short queue's, 3 its larger pieces'), the other grids
/// within ±2%; 4 slots lost 12% on the 1000² grid, and one or two vertices per
/// group (slots by the edge lanes) lost on the roads (docs/PERFORMANCE.md,
/// nineteenth session).
const CHAIN_SLOTS: usize = 8;

/// Hops a warp chains in one round at most unless the caller says
/// ([`RoundSettings::chain_hops`]): a chain runs while the other warps wait
/// at the round's barrier. 3 was the best of 1–32 with four edge lanes
/// (docs/PERFORMANCE.md, 2026-11-27); with queues of 8, 2 was 3–4% faster on
/// New York and the Delaunay 1 M mesh and 5% slower on the 1000² grid
/// (nineteenth session), so the host's trial chooses.
pub const DEFAULT_CHAIN_HOPS: u32 = 3;

/// Words of one warp's two chain queues: a length and [`CHAIN_SLOTS`]
/// vertices each.
const CHAIN_QUEUE_WORDS: usize = 2 * (1 + CHAIN_SLOTS);

/// Notifications the communication thread sends before it reads any of
/// their results, so that their round trips overlap.
const SEND_GROUP: usize = 4;

/// Tokens the communication thread adds beyond those it needs when it runs
/// short, so that most sends need no add.
pub const TOKEN_RESERVE: u32 = 16;

/// How often compute thread 0's sleep between the steps of an idle piece
/// doubles ([`BlockTeam::back_off`]; to 800 ns on the GPU): the idle steps of
/// the blocks without work take issue slots from those that work on the same
/// multiprocessor, while a notification waits at most one sleep longer.
const IDLE_BACK_OFF_DOUBLINGS: u32 = 3;

/// Idle polls in a row after which a paged block's communication thread lets
/// the piece go: a piece whose neighbours still work is often notified again
/// soon, and keeping it saves a write-back, a claim and a load.
const PAGED_LINGER_POLLS: u32 = 16;

/// Polls between two reads of `pending` by an idle communication thread: the
/// counter is one word every sender updates, and the end of the solve is
/// noticed a few polls late at most.
const POLLS_PER_PENDING_READ: u32 = 4;

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
const OUTBOX_WORDS: usize = 2 * 2 * OUTBOX_SLOTS;

/// Dynamic shared memory of a partition block of `threads` threads for
/// pieces of at most `capacity` vertices and `edge_capacity` out-edges (0:
/// edges stay in global memory; [`shared_words`], a pair of chain queues for
/// each compute warp).
pub const fn partition_shared_bytes(capacity: u32, edge_capacity: u32, threads: u32) -> u32 {
    let warps = partition_compute_warps(threads) as usize;
    shared_words(capacity as usize, edge_capacity as usize, warps) as u32 * 4
}

/// The partitioned graph, renumbered so that each piece is contiguous.
#[derive(Clone, Copy, Debug)]
pub struct Pieces<'a> {
    /// The successor CSR of the renumbered graph (`n` vertices).
    pub successors: Csr<'a>,
    /// Piece `p` holds the vertices `starts[p]..starts[p + 1]` (`k + 1`).
    pub starts: &'a [u32],
    /// Piece `p`'s boundary vertices (edges from other pieces enter them) are
    /// `starts[p]..boundary_ends[p]` (`k`).
    pub boundary_ends: &'a [u32],
    /// The piece of each vertex (`n`).
    pub piece_of: &'a [u32],
}

/// Device memory every block shares.
#[derive(Clone, Copy, Debug)]
pub struct Global<'a> {
    /// Distances (`n`): for a piece's vertices, the smallest distance sent by
    /// other pieces while the solve runs, the final distance after a
    /// resident solve.
    pub dist: &'a [AtomicU32],
    /// Paged mode: the distances of the pieces no block holds (`n`), the
    /// final distances after the solve.
    pub backing: &'a [AtomicU32],
    /// One notification word per piece (`k`): the smallest distance another
    /// piece sent it that it has not taken yet, or [`INFINITY`].
    pub notify: &'a [AtomicU32],
    /// Paged mode: one owner word per piece (`k`), set while a block holds
    /// the piece.
    pub owner: &'a [AtomicU32],
    /// The token counter (see the module docs).
    pub pending: &'a AtomicU32,
    /// The largest number of rounds a block ran (raised at each block's exit).
    pub rounds: &'a AtomicU32,
    /// The solve's bound (module docs, *Early stop*): no vertex whose
    /// distance is above it is relaxed.
    pub bound: &'a AtomicU32,
    /// The vertex whose distance lowers `bound` as it falls, or
    /// [`NO_TARGET`].
    pub target: u32,
}

/// One block's shared memory, `capacity` words per array.
#[derive(Clone, Copy, Debug)]
pub struct Local<'a> {
    /// [`CONTROL_WORDS`] words.
    pub control: &'a [AtomicU32],
    /// Distances of the piece's vertices.
    pub dist: &'a [AtomicU32],
    /// 1 for a dirty vertex (improved, not relaxed since).
    pub dirty: &'a [AtomicU32],
    /// The round's frontier (local indices).
    pub frontier: &'a [AtomicU32],
    /// Two outboxes of [`OUTBOX_SLOTS`] (piece, distance) pairs to send, by
    /// round parity.
    pub outbox: &'a [AtomicU32],
    /// The chain queues of the block's first warps (`chain_hops`), a pair
    /// for each.
    pub chain: &'a [AtomicU32],
    /// The piece's out-edges, copied at the start so that a hop inside the
    /// piece reads no global memory; `None` when they do not fit (the block
    /// then reads the global CSR).
    pub edges: Option<PieceEdges<'a>>,
}

/// A piece's out-edges in shared memory: a CSR over its local vertices whose
/// heads keep their (renumbered) global ids.
#[derive(Clone, Copy, Debug)]
pub struct PieceEdges<'a> {
    /// `capacity + 1` offsets, relative to the piece's first edge.
    pub offsets: &'a [AtomicU32],
    /// Heads, `edge_capacity`.
    pub targets: &'a [AtomicU32],
    /// Weight words, `edge_capacity`.
    pub weights: &'a [AtomicU32],
}

impl<'a> Local<'a> {
    /// The same arrays with the per-vertex ones cut to the `len` vertices of
    /// the piece held, so that an index already compared with `len` needs no
    /// second bounds check.
    #[inline(always)]
    fn of_piece(&self, len: usize) -> Self {
        Local {
            dist: &self.dist[..len],
            dirty: &self.dirty[..len],
            ..*self
        }
    }

    /// The arrays in `words`, laid out as
    /// [`shared_words`]`(capacity, edge_capacity, chain_warps)` counts them;
    /// `None` when `words` is shorter.
    #[inline(always)]
    pub fn from_words(
        words: &'a [AtomicU32],
        capacity: usize,
        edge_capacity: usize,
        chain_warps: usize,
    ) -> Option<Self> {
        let (control, rest) = words.split_at_checked(CONTROL_WORDS)?;
        let (outbox, rest) = rest.split_at_checked(OUTBOX_WORDS)?;
        let (chain, rest) = rest.split_at_checked(chain_warps * CHAIN_QUEUE_WORDS)?;
        let (dist, rest) = rest.split_at_checked(capacity)?;
        let (dirty, rest) = rest.split_at_checked(capacity)?;
        let (frontier, rest) = rest.split_at_checked(capacity)?;
        let edges = if edge_capacity > 0 {
            let (offsets, rest) = rest.split_at_checked(capacity + 1)?;
            let (targets, rest) = rest.split_at_checked(edge_capacity)?;
            let weights = rest.get(..edge_capacity)?;
            Some(PieceEdges {
                offsets,
                targets,
                weights,
            })
        } else {
            None
        };
        Some(Local {
            control,
            dist,
            dirty,
            frontier,
            outbox,
            chain,
            edges,
        })
    }
}

/// Sets vertex `v`'s global and backing distances to [`INFINITY`] (one
/// thread per vertex).
#[inline(always)]
pub fn initialize_vertex(v: usize, global: &Global<'_>) {
    global.dist[v].store(INFINITY, Relaxed);
    global.backing[v].store(INFINITY, Relaxed);
}

/// Clears piece `p`'s notification word, or sets it to 0 for the source's
/// piece, and frees its owner word (one thread per piece); the thread of
/// piece 0 also sets `pending` to the source's token, `rounds` to 0 and
/// `bound` to `bound` (a distance word: the limit, else [`INFINITY`]).
#[inline(always)]
pub fn initialize_piece(p: usize, source_piece: usize, bound: u32, global: &Global<'_>) {
    global.notify[p].store(if p == source_piece { 0 } else { INFINITY }, Relaxed);
    global.owner[p].store(FREE_PIECE, Relaxed);
    if p == 0 {
        global.pending.store(1, Relaxed);
        global.rounds.store(0, Relaxed);
        global.bound.store(bound, Relaxed);
    }
}

/// How the compute threads run their rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundSettings {
    /// The window's width Δ, a weight word (0 counts as 1).
    pub delta: u32,
    /// Compute threads that share a frontier vertex's edges in the relax
    /// phase and the chains ([`relax_frontier`]; 0 counts as 1, more than a
    /// warp as a warp): about a vertex's out-degree, so that each walks one
    /// edge. The divisions it costs are made once per piece.
    pub edge_lanes: u32,
    /// Hops a warp chains after the round's frontier at most
    /// ([`chain_hops`]; 0: none, every improvement waits for the next
    /// round); [`DEFAULT_CHAIN_HOPS`] unless a trial chose.
    pub chain_hops: u32,
    /// *Entries first*: a round takes (and chains) a vertex that is
    /// not an entry of the piece (the piece's first vertices, which edges
    /// from other pieces enter) only below every dirty entry's distance;
    /// the others stay dirty. Where the pieces have shortcuts, the entries
    /// reach every boundary vertex of the piece without the interior, so
    /// the interior is relaxed once the entries have settled instead of
    /// after each of the many notifications that lower them, and the
    /// rounds that carry the final distances across a piece are shorter:
    /// New York and the Delaunay meshes 22–27% faster, the 2-D and 3-D
    /// grids without shortcuts 10–26% slower (docs/PERFORMANCE.md,
    /// twentieth session), so the host's trial chooses. Where every vertex
    /// is its piece's entry or none is, it changes nothing; the minimum it
    /// needs (`ENTRY_MINIMUM`) is kept either way.
    pub entries_first: bool,
}

/// The whole resident solve for one thread of the block that owns piece
/// `piece` (see the module docs): every thread of the block calls it with the
/// same arguments; `source` is a vertex of the renumbered graph. Returns when
/// the solve is over, with the piece's distances written to `global.dist`.
#[inline(always)]
pub fn block_loop<W: Weight>(
    piece: usize,
    source: usize,
    settings: RoundSettings,
    pieces: &Pieces<'_>,
    global: &Global<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    load_piece(piece, source, None, pieces, global, local, team);
    let rounds = hold_piece::<W>(piece, settings, Hold::Resident, pieces, global, local, team);
    if team.thread() == 0 {
        global.rounds.fetch_max(rounds, Relaxed);
    }
    store_piece(piece, pieces, global.dist, local, team);
}

/// The whole paged solve for one thread of block `block` of `blocks` (see the
/// module docs): every thread of the block calls it with the same arguments,
/// which mean what they mean for [`block_loop`]. Returns when the solve is
/// over, with every piece's distances in `global.backing`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn paged_loop<W: Weight>(
    block: usize,
    blocks: usize,
    source: usize,
    settings: RoundSettings,
    pieces: &Pieces<'_>,
    global: &Global<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    let k = global.notify.len();
    // Where this block looks first among pieces of about equal priority.
    let home = (block * k / blocks.max(1)) as u32;
    let mut rounds = 0u32;
    let mut base = INFINITY;
    while let Some(piece) = claim::<W>(home, settings.delta, &mut base, global, local, team) {
        load_piece(
            piece,
            source,
            Some(global.backing),
            pieces,
            global,
            local,
            team,
        );
        rounds += hold_piece::<W>(piece, settings, Hold::Paged, pieces, global, local, team);
        store_piece(piece, pieces, global.backing, local, team);
        if team.thread() == 0 {
            // After the block's barrier in `store_piece`: every thread's
            // write-back is ordered before the release.
            team.device_fence();
            global.owner[piece].store(FREE_PIECE, Relaxed);
        }
    }
    if team.thread() == 0 {
        global.rounds.fetch_max(rounds, Relaxed);
    }
}

/// A paged block's claim (all its threads): one scan of every piece's
/// notification word (and owner word, where the piece is notified) finds the
/// lowest notified distance of a free piece, and for each of
/// [`CANDIDATES`] groups of threads the free piece nearest after `home`
/// among those within Δ of `base` (the lowest the block's previous scan
/// found, [`INFINITY`] at first: any); then compute thread 0 tries to own
/// them, nearest first, and take the word. Sets `base` to this scan's
/// lowest. Returns the piece, or `None` when the solve is over (no word to
/// claim and `pending == 0`).
#[inline(always)]
fn claim<W: Weight>(
    home: u32,
    delta: u32,
    base: &mut u32,
    global: &Global<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) -> Option<usize> {
    let (thread, threads) = (team.thread(), team.threads());
    let control = local.control;
    let k = global.notify.len();
    let candidates = &control[CANDIDATE..CANDIDATE + CANDIDATES];
    let mut attempt = 0;
    loop {
        if thread == 0 {
            control[SCAN_LOW].store(INFINITY, Relaxed);
            for slot in candidates {
                slot.store(u32::MAX, Relaxed);
            }
        }
        team.barrier();
        let window = if *base == INFINITY {
            INFINITY
        } else {
            W::extend(*base, delta.max(1))
        };
        let (mut low, mut nearest) = (INFINITY, u32::MAX);
        let mut p = thread;
        while p < k {
            let word = global.notify[p].load(Relaxed);
            if word != INFINITY && global.owner[p].load(Relaxed) == FREE_PIECE {
                low = low.min(word);
                if word <= window {
                    let key = (p as u32).wrapping_sub(home).wrapping_add(k as u32) % k as u32;
                    nearest = nearest.min(key);
                }
            }
            p += threads;
        }
        if low != INFINITY {
            control[SCAN_LOW].fetch_min(low, Relaxed);
        }
        if nearest != u32::MAX {
            candidates[thread % CANDIDATES].fetch_min(nearest, Relaxed);
        }
        team.barrier();
        let lowest = control[SCAN_LOW].load(Relaxed);
        *base = lowest;
        if thread == 0 {
            let mut keys: [u32; CANDIDATES] = core::array::from_fn(|i| candidates[i].load(Relaxed));
            keys.sort_unstable();
            let taken = keys
                .iter()
                .take_while(|&&key| key != u32::MAX)
                .map(|&key| (key + home) % k as u32)
                .find(|&piece| take_piece(piece as usize, global, team));
            let verdict = match taken {
                Some(piece) => piece,
                // Nothing notified within the window of a lower earlier
                // scan: again at once, with this scan's lowest.
                None if keys[0] == u32::MAX && lowest != INFINITY => CLAIM_RESCAN,
                None if lowest == INFINITY && global.pending.load(Relaxed) == 0 => CLAIM_EXIT,
                None => CLAIM_NONE,
            };
            team.post(&control[CLAIMED], verdict);
        }
        team.barrier();
        match control[CLAIMED].load(Relaxed) {
            CLAIM_EXIT => return None,
            CLAIM_RESCAN => {}
            CLAIM_NONE => {
                team.back_off(attempt);
                attempt += 1;
            }
            piece => return Some(piece as usize),
        }
    }
}

/// Owns `piece` and takes its word's token (module docs, paged mode);
/// `false`, holding nothing, when another block owns it or its word is
/// clear.
#[inline(always)]
fn take_piece(piece: usize, global: &Global<'_>, team: &impl BlockTeam) -> bool {
    let owner = &global.owner[piece];
    if owner
        .compare_exchange(FREE_PIECE, OWNED_PIECE, Relaxed, Relaxed)
        .is_err()
    {
        return false;
    }
    team.device_fence();
    if global.notify[piece].swap(INFINITY, Relaxed) == INFINITY {
        owner.store(FREE_PIECE, Relaxed);
        return false;
    }
    team.device_fence();
    true
}

/// Loads piece `piece` into the block's shared memory (all its threads; ends
/// with the block's barrier): distances from `from` (`None`: all infinite),
/// no dirty vertex but the source when its distance is not yet 0, the edges
/// where they fit, the control words.
#[inline(always)]
fn load_piece(
    piece: usize,
    source: usize,
    from: Option<&[AtomicU32]>,
    pieces: &Pieces<'_>,
    global: &Global<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    let (thread, threads) = (team.thread(), team.threads());
    let start = pieces.starts[piece] as usize;
    let len = pieces.starts[piece + 1] as usize - start;
    let loaded = |v: usize| from.map_or(INFINITY, |from| from[start + v].load(Relaxed));
    let mut v = thread;
    while v < len {
        let d = loaded(v);
        let starts_here = start + v == source && d != 0;
        local.dist[v].store(if starts_here { 0 } else { d }, Relaxed);
        local.dirty[v].store(u32::from(starts_here), Relaxed);
        v += threads;
    }
    if let Some(edges) = &local.edges {
        copy_piece_edges(pieces.successors, start, len, edges, thread, threads);
    }
    if thread == 0 {
        let starts_here = (start..start + len).contains(&source) && loaded(source - start) != 0;
        // Paged: the claim took one notification, which the compute threads
        // pull first.
        let taken = u32::from(from.is_some());
        for (i, word) in local.control[..SCAN_LOW].iter().enumerate() {
            let value = match i {
                MINIMUM if starts_here => 0,
                _ if i < MINIMUM + 3 => INFINITY,
                TAKEN => taken,
                _ => 0,
            };
            word.store(value, Relaxed);
        }
        let boundary = pieces.boundary_ends[piece] as usize - start;
        let entry_source = starts_here && source - start < boundary;
        for (i, word) in local.control[ENTRY_MINIMUM..ENTRY_MINIMUM + 3]
            .iter()
            .enumerate()
        {
            word.store(if i == 0 && entry_source { 0 } else { INFINITY }, Relaxed);
        }
        local.control[BOUND].store(global.bound.load(Relaxed), Relaxed);
    }
    team.barrier();
}

/// How a block holds its piece: for the whole solve, or until it has no
/// local work.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hold {
    Resident,
    Paged,
}

/// The two roles' loops on the loaded piece (module docs), until the
/// communication thread posts the exit; ends with the block's barrier.
/// Returns the rounds run (compute thread 0's count; 0 elsewhere).
#[inline(always)]
fn hold_piece<W: Weight>(
    piece: usize,
    settings: RoundSettings,
    hold: Hold,
    pieces: &Pieces<'_>,
    global: &Global<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) -> u32 {
    let (thread, threads) = (team.thread(), team.threads());
    let compute_threads = threads - team.comm_threads();
    let mut rounds = 0;
    if thread < compute_threads {
        rounds = compute_loop::<W>(piece, settings, pieces, global, local, team);
    } else if thread == compute_threads {
        comm_loop(piece, hold, pieces, global, local, team);
    }
    team.barrier();
    rounds
}

/// Writes the piece's shared distances to `to` (all the block's threads;
/// ends with the block's barrier).
#[inline(always)]
fn store_piece(
    piece: usize,
    pieces: &Pieces<'_>,
    to: &[AtomicU32],
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    let (thread, threads) = (team.thread(), team.threads());
    let start = pieces.starts[piece] as usize;
    let len = pieces.starts[piece + 1] as usize - start;
    let mut v = thread;
    while v < len {
        to[start + v].store(local.dist[v].load(Relaxed), Relaxed);
        v += threads;
    }
    team.barrier();
}

/// The compute threads' rounds (module docs), until the communication thread
/// posts the exit; returns the number of rounds.
///
/// Compute thread 0 posts each step's word ([`post_step`]) before the
/// barrier that ends the previous step, while the other threads finish
/// relaxing: a working round waits at two barriers (select, relax), three
/// when it pulls.
#[inline(always)]
fn compute_loop<W: Weight>(
    piece: usize,
    settings: RoundSettings,
    pieces: &Pieces<'_>,
    global: &Global<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) -> u32 {
    let thread = team.thread();
    let threads = team.threads() - team.comm_threads();
    let start = pieces.starts[piece] as usize;
    let len = pieces.starts[piece + 1] as usize - start;
    let boundary = pieces.boundary_ends[piece] as usize - start;
    let local = &local.of_piece(len);
    let control = local.control;
    let delta = settings.delta.max(1);
    let lanes = EdgeLanes::new(
        thread,
        threads,
        settings.edge_lanes as usize,
        team.warp_size(),
    );

    // Compute thread 0's count of the notifications it pulled.
    let mut pulled = 0u32;
    // Idle steps in a row (compute thread 0's back-off).
    let mut idle_steps = 0u32;
    let mut round = 0usize;
    let mut step = 0usize;
    if thread == 0 {
        post_step(control, step, round, Next::Working, &mut pulled, team);
    }
    let queues = ChainQueues::of_warp(local, thread, &settings, team);
    if let Some(queues) = &queues
        && queues.lane == 0
    {
        queues.len(0).store(0, Relaxed);
        queues.len(1).store(0, Relaxed);
    }
    team.compute_barrier();
    loop {
        let word = control[BROADCAST + step % 2].load(Relaxed);
        // The same for every compute thread, unlike the communication
        // thread's word, which may fall while they read it.
        let bound = control[STEP_BOUND + step % 2].load(Relaxed);
        step += 1;
        let minimum = &control[MINIMUM + round % 3];
        let next_minimum = &control[MINIMUM + (round + 1) % 3];
        let entry_minimum = &control[ENTRY_MINIMUM + round % 3];
        let next_entry_minimum = &control[ENTRY_MINIMUM + (round + 1) % 3];
        let frontier_len = &control[FRONTIER_LEN + round % 2];
        let (outbox_state, outbox_len) = (
            &control[OUTBOX_STATE + round % 2],
            &control[OUTBOX_LEN + round % 2],
        );
        let outbox = &local.outbox[round % 2 * 2 * OUTBOX_SLOTS..][..2 * OUTBOX_SLOTS];
        if word & EXIT != 0 {
            return round as u32;
        }
        if word & PULL != 0 {
            // The pulled entries' smallest distance, one atomic per thread.
            let mut pulled_low = INFINITY;
            let mut v = thread;
            while v < boundary {
                let sent = global.dist[start + v].load(Relaxed);
                if sent < local.dist[v].load(Relaxed) {
                    local.dist[v].store(sent, Relaxed);
                    local.dirty[v].store(1, Relaxed);
                    pulled_low = pulled_low.min(sent);
                }
                v += threads;
            }
            if pulled_low != INFINITY {
                minimum.fetch_min(pulled_low, Relaxed);
                entry_minimum.fetch_min(pulled_low, Relaxed);
            }
            team.compute_barrier();
        }
        let lowest = minimum.load(Relaxed);
        // Dirty vertices beyond the bound are left (module docs, *Early
        // stop*).
        if lowest == INFINITY || lowest > bound {
            if thread == 0 {
                if word & OUTBOX_OPEN != 0 {
                    outbox_state.store(FREE, Relaxed);
                }
                // The idle post vouches for the outbox states before it.
                team.block_fence();
                control[IDLE].store(1 + pulled, Relaxed);
                team.back_off(idle_steps.min(IDLE_BACK_OFF_DOUBLINGS));
                idle_steps += 1;
                post_step(control, step, round, Next::Idle, &mut pulled, team);
            }
            team.compute_barrier();
            continue;
        }
        idle_steps = 0;
        // The word after the minimum always moves on (`f32` sums may round
        // back to the minimum).
        let window = W::extend(lowest, delta)
            .max(lowest.saturating_add(1))
            .min(bound.saturating_add(1));
        let interior_window = if settings.entries_first {
            window.min(entry_minimum.load(Relaxed))
        } else {
            window
        };
        // What the select and relax phases compare with and write to, chosen
        // once per round, not per vertex or edge.
        let round_targets = RoundTargets {
            start: start as u32,
            len: len as u32,
            boundary: boundary as u32,
            window,
            interior_window,
            bound,
            outbox_open: word & OUTBOX_OPEN != 0,
            outbox,
            outbox_len,
            next_minimum,
            next_entry_minimum,
            pending: Cell::new(INFINITY),
            pending_entries: Cell::new(INFINITY),
        };

        // Select.
        let mut v = thread;
        while v < len {
            if local.dirty[v].load(Relaxed) != 0 {
                let d = local.dist[v].load(Relaxed);
                if d < round_targets.window_of(v) {
                    local.dirty[v].store(0, Relaxed);
                    let slot = frontier_len.fetch_add(1, Relaxed) as usize;
                    local.frontier[slot].store(v as u32, Relaxed);
                } else {
                    round_targets.keep_pending(v, d);
                }
            }
            v += threads;
        }
        team.compute_barrier();

        // Relax.
        let selected = frontier_len.load(Relaxed) as usize;
        match &local.edges {
            Some(edges) => relax_frontier::<W>(
                edges,
                selected,
                &lanes,
                queues.as_ref(),
                &round_targets,
                pieces,
                global,
                local,
                team,
            ),
            None => relax_frontier::<W>(
                &GlobalEdges {
                    successors: pieces.successors,
                    start,
                },
                selected,
                &lanes,
                queues.as_ref(),
                &round_targets,
                pieces,
                global,
                local,
                team,
            ),
        }
        round_targets.flush_pending();
        if thread == 0 {
            post_step(control, step, round + 1, Next::Working, &mut pulled, team);
        }
        team.compute_barrier();
        if thread == 0 && word & OUTBOX_OPEN != 0 {
            team.block_fence();
            outbox_state.store(READY, Relaxed);
        }
        round += 1;
    }
}

/// What compute thread 0 expects of the step it posts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    /// It follows a working round, so it likely works too.
    Working,
    /// It follows an idle step: it works only if it pulls.
    Idle,
}

/// Compute thread 0 posts the word of step `step`, which runs round `round`
/// (the barrier after it publishes the word): the exit when the
/// communication thread posted it, else a pull when it took a notification
/// not yet pulled (`pulled` counts them), and round `round`'s outbox opened
/// when that outbox is free and the step may work. An idle step opens none,
/// so that the communication thread sees every outbox free while the
/// compute threads are idle. Also clears the two words that must start
/// empty: round `round`'s frontier length (last read in round `round - 2`)
/// and the minimum word round `round + 1` lowers (by round mod 3 it is the
/// one round `round - 1` started from, read before that round's select
/// barrier). Posts the step's bound too, the communication thread's word as
/// it is now.
#[inline(always)]
fn post_step(
    control: &[AtomicU32],
    step: usize,
    round: usize,
    next: Next,
    pulled: &mut u32,
    team: &impl BlockTeam,
) {
    let taken = control[TAKEN].load(Relaxed);
    let exit = control[EXIT_POSTED].load(Relaxed) != 0;
    team.block_fence();
    let mut word = 0;
    if exit {
        word |= EXIT;
    } else if taken != *pulled {
        *pulled = taken;
        word |= PULL;
    }
    if !exit && (next == Next::Working || word & PULL != 0) {
        let state = &control[OUTBOX_STATE + round % 2];
        if state.load(Relaxed) == FREE {
            control[OUTBOX_LEN + round % 2].store(0, Relaxed);
            state.store(FILLING, Relaxed);
            word |= OUTBOX_OPEN;
        }
    }
    control[BROADCAST + step % 2].store(word, Relaxed);
    let bound = control[BOUND].load(Relaxed);
    control[STEP_BOUND + step % 2].store(bound, Relaxed);
    control[MINIMUM + (round + 2) % 3].store(INFINITY, Relaxed);
    control[ENTRY_MINIMUM + (round + 2) % 3].store(INFINITY, Relaxed);
    control[FRONTIER_LEN + round % 2].store(0, Relaxed);
}

/// What a round's select and relax phases need besides the piece's
/// distances: the piece's range and windows, the round's outbox and next
/// round's minima.
struct RoundTargets<'a> {
    /// The piece's range and entries as `u32`, as the relax phase compares
    /// them with every edge's head: 64-bit arithmetic costs the hot loop
    /// twice the instructions.
    start: u32,
    len: u32,
    /// The piece's entries are its first `boundary` vertices.
    boundary: u32,
    /// The round's window: an improvement of an entry below it may be
    /// chained; of another vertex, below `interior_window`.
    window: u32,
    interior_window: u32,
    /// The solve's bound as the step found it: no candidate above it is
    /// sent.
    bound: u32,
    outbox_open: bool,
    outbox: &'a [AtomicU32],
    outbox_len: &'a AtomicU32,
    next_minimum: &'a AtomicU32,
    /// Next round's smallest dirty entry distance.
    next_entry_minimum: &'a AtomicU32,
    /// This thread's share of the two: the smallest distances it left
    /// dirty, which lower the shared words once, after the relax phase
    /// ([`RoundTargets::flush_pending`]). An atomic minimum per dirty vertex
    /// on one shared word serializes the lanes that meet on it.
    pending: Cell<u32>,
    pending_entries: Cell<u32>,
}

impl RoundTargets<'_> {
    /// Whether the piece's vertex `v` is one of its entries.
    #[inline(always)]
    fn is_entry(&self, v: usize) -> bool {
        (v as u32) < self.boundary
    }

    /// The window the piece's vertex `v` is taken or chained below.
    #[inline(always)]
    fn window_of(&self, v: usize) -> u32 {
        if self.is_entry(v) {
            self.window
        } else {
            self.interior_window
        }
    }

    /// Counts the piece's dirty vertex `v`, at distance `d`, in next round's
    /// minima.
    #[inline(always)]
    fn keep_pending(&self, v: usize, d: u32) {
        self.pending.set(self.pending.get().min(d));
        if self.is_entry(v) {
            self.pending_entries.set(self.pending_entries.get().min(d));
        }
    }

    /// Lowers next round's minima with this thread's share (before the
    /// barrier that ends the relax phase).
    #[inline(always)]
    fn flush_pending(&self) {
        if self.pending.get() != INFINITY {
            self.next_minimum.fetch_min(self.pending.get(), Relaxed);
        }
        if self.pending_entries.get() != INFINITY {
            self.next_entry_minimum
                .fetch_min(self.pending_entries.get(), Relaxed);
        }
    }

    /// Leaves the piece's vertex `v`, now at distance `d`, dirty for the next
    /// round.
    #[inline(always)]
    fn leave_dirty(&self, v: usize, d: u32, local: &Local<'_>) {
        local.dirty[v].store(1, Relaxed);
        self.keep_pending(v, d);
    }
}

/// A compute thread's place in the relax phase's groups ([`relax_frontier`]),
/// computed once per piece: the divisions by a lane count known only at run
/// time cost a round dozens of instructions.
#[derive(Clone, Copy)]
struct EdgeLanes {
    /// Lanes per group: [`RoundSettings::edge_lanes`], or fewer in a smaller
    /// team.
    lanes: usize,
    /// Groups of the compute threads (threads past the last whole group
    /// relax nothing).
    groups: usize,
    /// This thread's group and lane.
    group: usize,
    lane: usize,
    /// The first frontier entry this thread's group relaxes: groups are
    /// ranked warp by warp (the first group of every warp, then the second,
    /// …), so that a small frontier and the chains it opens spread over
    /// every warp instead of filling the first warps' groups.
    first: usize,
}

impl EdgeLanes {
    /// Compute thread `thread`'s place among `threads` compute threads, in
    /// groups of `lanes` (at least 1, at most `threads`) in warps of
    /// `warp_size` threads.
    #[inline(always)]
    fn new(thread: usize, threads: usize, lanes: usize, warp_size: usize) -> Self {
        let lanes = lanes.clamp(1, threads);
        let (groups, group) = (threads / lanes, thread / lanes);
        // Groups a warp holds; the ranking needs whole groups in whole warps.
        let per_warp = warp_size / lanes;
        let first =
            if per_warp > 1 && warp_size.is_multiple_of(lanes) && groups.is_multiple_of(per_warp) {
                group % per_warp * (groups / per_warp) + group / per_warp
            } else {
                group
            };
        EdgeLanes {
            lanes,
            groups,
            group,
            lane: thread % lanes,
            first,
        }
    }
}

/// The relax phase of one compute thread (module docs): the compute threads
/// form groups of [`RoundSettings::edge_lanes`] (`place`); a group takes the
/// frontier entries `first, first + groups, …` of the first `selected`
/// ([`EdgeLanes::first`]), and lane `l` of it the entry's edges `l, l +
/// lanes, …`, read from `edges`. With about as many lanes as a vertex has
/// edges, each lane walks about one: a round waits for one edge's chain of
/// shared-memory accesses, not for a vertex's edges one after another. Then
/// each warp chains the hops its improvements opened ([`chain_hops`];
/// `queues`: the thread's warp's, `None` for a warp with no queues in
/// [`Local::chain`], which chains nothing).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn relax_frontier<W: Weight>(
    edges: &impl OutEdges,
    selected: usize,
    place: &EdgeLanes,
    queues: Option<&ChainQueues<'_>>,
    round: &RoundTargets<'_>,
    pieces: &Pieces<'_>,
    global: &Global<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    let EdgeLanes {
        lanes,
        groups,
        group,
        lane,
        first,
    } = *place;
    let fill = queues.map(|q| q.buffer(0));
    if group < groups {
        let mut k = first;
        while k < selected {
            let v = local.frontier[k].load(Relaxed) as usize;
            let targets = (fill, round, pieces, global);
            relax_vertex::<W>(v, (lane, lanes), edges, targets, local, team);
            k += groups;
        }
    }
    if let Some(queues) = queues {
        chain_hops::<W>(edges, queues, round, pieces, global, local, team);
    }
}

/// Relaxes the edges `lane, lane + lanes, …` of the piece's vertex `v` (a
/// local index) with its distance here ([`relax_edge`]; `chain`: the
/// warp's queue being filled).
#[inline(always)]
fn relax_vertex<W: Weight>(
    v: usize,
    (lane, lanes): (usize, usize),
    edges: &impl OutEdges,
    (chain, round, pieces, global): (
        Option<ChainBuffer<'_>>,
        &RoundTargets<'_>,
        &Pieces<'_>,
        &Global<'_>,
    ),
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    let d = local.dist[v].load(Relaxed);
    let edge_range = edges.range(v);
    let (lane, lanes) = (lane as u32, lanes as u32);
    let mut e = edge_range.start + lane;
    while e < edge_range.end {
        let (u, w) = edges.edge(e);
        relax_edge(
            W::extend(d, w),
            u,
            chain,
            round,
            pieces,
            global,
            local,
            team,
        );
        e += lanes;
    }
}

/// Offers `candidate` to vertex `u` (a renumbered global id), as the relax
/// phase does for every edge it walks. Inside the piece: an atomic minimum
/// on the shared distance; a vertex it lowered is put in `chain` (this
/// warp's queue being filled) when below the window and there is room, else
/// marked dirty for the next round. Outside: an atomic minimum on the global
/// distance, and the head's piece in the round's outbox (or notified
/// directly) when that lowered it.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn relax_edge(
    candidate: u32,
    u: u32,
    chain: Option<ChainBuffer<'_>>,
    round: &RoundTargets<'_>,
    pieces: &Pieces<'_>,
    global: &Global<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    let inside = u.wrapping_sub(round.start);
    if inside < round.len {
        let inside = inside as usize;
        // The old word is not read back (a non-returning atomic: no round
        // trip on the edge's path). Where another lane lowered the vertex
        // further in between, it is chained or marked once more: a
        // relaxation too many, never one missed.
        if candidate < local.dist[inside].load(Relaxed) {
            local.dist[inside].fetch_min(candidate, Relaxed);
            let chained =
                candidate < round.window_of(inside) && chain.is_some_and(|q| q.push(inside));
            if !chained {
                round.leave_dirty(inside, candidate, local);
            }
        }
    } else if candidate <= round.bound {
        // Loaded before the minimum's round trip, not after it.
        let u = u as usize;
        let head_piece = pieces.piece_of[u];
        if candidate < global.dist[u].fetch_min(candidate, Relaxed) {
            let slot = if round.outbox_open {
                round.outbox_len.fetch_add(1, Relaxed) as usize
            } else {
                OUTBOX_SLOTS
            };
            if let Some(entry) = round.outbox.get(2 * slot..2 * slot + 2) {
                entry[0].store(head_piece, Relaxed);
                entry[1].store(candidate, Relaxed);
            } else {
                let word = &global.notify[head_piece as usize];
                notify_directly(word, candidate, global, team);
            }
        }
    }
}

/// One warp's two chain queues in shared memory: buffer `b` is a length
/// word and [`CHAIN_SLOTS`] local vertex indices.
#[derive(Clone, Copy)]
struct ChainQueues<'a> {
    words: &'a [AtomicU32],
    /// This thread's lane in its warp.
    lane: usize,
    /// The warp's lanes in groups of `edge_lanes` as the chain relaxes a
    /// queued vertex: how many groups, this lane's group and its lane in it.
    groups: usize,
    group: usize,
    edge_lane: usize,
    edge_lanes: usize,
    /// The most hops a chain takes ([`RoundSettings::chain_hops`]).
    hops: u32,
}

/// One buffer of a warp's chain queues.
#[derive(Clone, Copy)]
struct ChainBuffer<'a> {
    len: &'a AtomicU32,
    slots: &'a [AtomicU32],
}

impl<'a> ChainQueues<'a> {
    /// The queues of compute thread `thread`'s warp, whose vertices it
    /// relaxes [`RoundSettings::edge_lanes`] lanes a vertex for at most
    /// [`RoundSettings::chain_hops`] hops; `None` for a warp past those
    /// [`Local::chain`] has queues for.
    #[inline(always)]
    fn of_warp(
        local: &Local<'a>,
        thread: usize,
        settings: &RoundSettings,
        team: &impl BlockTeam,
    ) -> Option<Self> {
        let warp_size = team.warp_size();
        let warp = thread / warp_size;
        let words = local
            .chain
            .get(warp * CHAIN_QUEUE_WORDS..(warp + 1) * CHAIN_QUEUE_WORDS)?;
        let lane = thread % warp_size;
        let edge_lanes = (settings.edge_lanes as usize).clamp(1, warp_size);
        Some(ChainQueues {
            words,
            lane,
            groups: warp_size / edge_lanes,
            group: lane / edge_lanes,
            edge_lane: lane % edge_lanes,
            edge_lanes,
            hops: settings.chain_hops,
        })
    }

    /// Buffer `b` (0 or 1).
    #[inline(always)]
    fn buffer(&self, b: usize) -> ChainBuffer<'a> {
        let words = &self.words[b * (1 + CHAIN_SLOTS)..(b + 1) * (1 + CHAIN_SLOTS)];
        ChainBuffer {
            len: &words[0],
            slots: &words[1..],
        }
    }

    /// Buffer `b`'s length word.
    #[inline(always)]
    fn len(&self, b: usize) -> &'a AtomicU32 {
        self.buffer(b).len
    }
}

impl ChainBuffer<'_> {
    /// Appends `v`; false when the buffer is full.
    #[inline(always)]
    fn push(&self, v: usize) -> bool {
        let slot = self.len.fetch_add(1, Relaxed) as usize;
        match self.slots.get(slot) {
            Some(entry) => {
                entry.store(v as u32, Relaxed);
                true
            }
            None => false,
        }
    }
}

/// The hops a warp chains after the round's frontier (every lane of the
/// warp calls it): the vertices its lanes lowered below the window are
/// relaxed at once by the warp, [`RoundSettings::edge_lanes`] lanes a
/// vertex, and what those lower below the window is relaxed in turn, up to
/// [`RoundSettings::chain_hops`] times; so a path inside the piece and the
/// window advances a hop per warp step (a few shared-memory accesses) rather
/// than per round (two block barriers and a scan of the piece). What is left
/// when the hops run out is marked dirty for the next round, so every
/// lowered vertex is either relaxed after it was lowered or dirty: the
/// round's contract is unchanged.
///
/// Buffer 0 was filled by the frontier's relaxations; each step reads one
/// buffer and fills the other, whose length lane 0 clears between two warp
/// barriers. Both lengths are 0 again when the warp leaves.
#[inline(always)]
fn chain_hops<W: Weight>(
    edges: &impl OutEdges,
    queues: &ChainQueues<'_>,
    round: &RoundTargets<'_>,
    pieces: &Pieces<'_>,
    global: &Global<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    let warp_size = team.warp_size();
    // Split once per piece (`ChainQueues::of_warp`): a division per round
    // costs it dozens of instructions.
    let ChainQueues {
        lane,
        groups,
        group,
        edge_lane,
        edge_lanes: lanes,
        hops: most_hops,
        ..
    } = *queues;
    let mut current = 0;
    let mut hops = 0;
    loop {
        team.sync_warp();
        let read = queues.buffer(current);
        let queued = (read.len.load(Relaxed) as usize).min(CHAIN_SLOTS);
        if queued == 0 {
            break;
        }
        let fill = queues.buffer(1 - current);
        if lane == 0 {
            fill.len.store(0, Relaxed);
        }
        team.sync_warp();
        if hops == most_hops {
            let mut k = lane;
            while k < queued {
                let v = read.slots[k].load(Relaxed) as usize;
                round.leave_dirty(v, local.dist[v].load(Relaxed), local);
                k += warp_size;
            }
            break;
        }
        if group < groups {
            let mut k = group;
            while k < queued {
                let v = read.slots[k].load(Relaxed) as usize;
                let targets = (Some(fill), round, pieces, global);
                relax_vertex::<W>(v, (edge_lane, lanes), edges, targets, local, team);
                k += groups;
            }
        }
        hops += 1;
        current = 1 - current;
    }
    team.sync_warp();
    if lane == 0 {
        queues.len(0).store(0, Relaxed);
        queues.len(1).store(0, Relaxed);
    }
}

/// A piece's out-edges as the relax phase reads them.
trait OutEdges {
    /// The edges of the piece's vertex `v` (a local index).
    fn range(&self, v: usize) -> core::ops::Range<u32>;
    /// Edge `e`'s head (a renumbered global id) and weight word.
    fn edge(&self, e: u32) -> (u32, u32);
}

impl OutEdges for PieceEdges<'_> {
    #[inline(always)]
    fn range(&self, v: usize) -> core::ops::Range<u32> {
        self.offsets[v].load(Relaxed)..self.offsets[v + 1].load(Relaxed)
    }
    #[inline(always)]
    fn edge(&self, e: u32) -> (u32, u32) {
        let e = e as usize;
        (self.targets[e].load(Relaxed), self.weights[e].load(Relaxed))
    }
}

/// The out-edges of the piece that starts at vertex `start`, in the global
/// CSR (when they do not fit in shared memory).
struct GlobalEdges<'a> {
    successors: Csr<'a>,
    start: usize,
}

impl OutEdges for GlobalEdges<'_> {
    #[inline(always)]
    fn range(&self, v: usize) -> core::ops::Range<u32> {
        let offsets = self.successors.offsets;
        offsets[self.start + v]..offsets[self.start + v + 1]
    }
    #[inline(always)]
    fn edge(&self, e: u32) -> (u32, u32) {
        let e = e as usize;
        (self.successors.targets[e], self.successors.weights[e])
    }
}

/// A compute thread's notification of a piece with distance `sent` (module
/// docs, rule 2), when the round's outbox cannot take it.
#[inline(always)]
fn notify_directly(notify: &AtomicU32, sent: u32, global: &Global<'_>, team: &impl BlockTeam) {
    global.pending.fetch_add(1, Relaxed);
    team.device_fence();
    if notify.fetch_min(sent, Relaxed) != INFINITY {
        global.pending.fetch_sub(1, Relaxed);
    }
}

/// The communication thread's loop (module docs): send ready outboxes, take
/// notifications, give tokens back and post the exit (resident: at the end
/// of the solve; paged: when the piece has no local work).
#[inline(always)]
fn comm_loop(
    piece: usize,
    hold: Hold,
    pieces: &Pieces<'_>,
    global: &Global<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    let control = local.control;
    let notify = &global.notify[piece];
    // The target's local index where this piece holds it.
    let start = pieces.starts[piece] as usize;
    let len = pieces.starts[piece + 1] as usize - start;
    let t = (global.target as usize).wrapping_sub(start);
    let held_target = (global.target != NO_TARGET && t < len).then_some(t);
    // Paged: the claim's token and take.
    let mut owned = u32::from(hold == Hold::Paged);
    let mut taken = owned;
    let mut polls = 0u32;
    let mut linger = PAGED_LINGER_POLLS;
    loop {
        if global.target != NO_TARGET {
            lower_bound(held_target, global, local, team);
        }
        for b in 0..2 {
            if team.read_post(&control[OUTBOX_STATE + b]) == READY {
                team.block_fence();
                let count = team.read_post(&control[OUTBOX_LEN + b]) as usize;
                let outbox = &local.outbox[b * 2 * OUTBOX_SLOTS..][..2 * count.min(OUTBOX_SLOTS)];
                owned = send(owned, outbox, global, team);
                team.block_fence();
                team.post(&control[OUTBOX_STATE + b], FREE);
            }
        }
        if notify.load(Relaxed) != INFINITY && notify.swap(INFINITY, Relaxed) != INFINITY {
            team.device_fence();
            owned += 1;
            taken += 1;
            team.post(&control[TAKEN], taken);
            polls = 0;
            continue;
        }
        let compute_idle = team.read_post(&control[IDLE]) == 1 + taken;
        // The idle post was written after the outbox states it follows
        // (compute thread 0's block fence): read them after it.
        team.block_fence();
        let idle = compute_idle
            && team.read_post(&control[OUTBOX_STATE]) == FREE
            && team.read_post(&control[OUTBOX_STATE + 1]) == FREE;
        if idle {
            if owned > 0 {
                team.device_fence();
                global.pending.fetch_sub(owned, Relaxed);
                owned = 0;
            }
            if hold == Hold::Paged {
                if linger == 0 {
                    team.post(&control[EXIT_POSTED], 1);
                    return;
                }
                linger -= 1;
            }
            if polls.is_multiple_of(POLLS_PER_PENDING_READ) && global.pending.load(Relaxed) == 0 {
                team.post(&control[EXIT_POSTED], 1);
                return;
            }
            polls += 1;
        } else {
            linger = PAGED_LINGER_POLLS;
        }
        team.idle();
    }
}

/// The communication thread's part of the early stop (module docs): where
/// the piece holds the target (`held_target`, its local index), the global
/// bound falls to the target's distance here; the block's bound falls to
/// the global one.
#[inline(always)]
fn lower_bound(
    held_target: Option<usize>,
    global: &Global<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    let mut bound = global.bound.load(Relaxed);
    if let Some(t) = held_target {
        let d = team.read_post(&local.dist[t]);
        if d < bound {
            global.bound.fetch_min(d, Relaxed);
            bound = d;
        }
    }
    // Only this thread writes the block's word.
    if bound < local.control[BOUND].load(Relaxed) {
        team.post(&local.control[BOUND], bound);
    }
}

/// Notifies the pieces in `outbox`, (piece, distance) pairs (module docs,
/// rule 2): lowers their words [`SEND_GROUP`] at a time before it reads any
/// of the old words, so that the round trips overlap. Takes and returns the
/// tokens the communication thread owns.
#[inline(always)]
fn send(mut owned: u32, outbox: &[AtomicU32], global: &Global<'_>, team: &impl BlockTeam) -> u32 {
    let count = (outbox.len() / 2) as u32;
    if count == 0 {
        return owned;
    }
    if owned <= count {
        global.pending.fetch_add(count + TOKEN_RESERVE, Relaxed);
        owned += count + TOKEN_RESERVE;
    }
    team.device_fence();
    for group in outbox.chunks(2 * SEND_GROUP) {
        // Straight-line code: every index checked, then every atomic, then
        // their results. A short group's missing entries become an atomic
        // minimum of piece 0's word with INFINITY, which changes nothing.
        let entry = |j: usize, word: usize| group.get(2 * j + word).map(|w| team.read_post(w));
        let words: [&AtomicU32; SEND_GROUP] =
            core::array::from_fn(|j| &global.notify[entry(j, 0).unwrap_or(0) as usize]);
        let sent: [u32; SEND_GROUP] = core::array::from_fn(|j| entry(j, 1).unwrap_or(INFINITY));
        let was: [u32; SEND_GROUP] = core::array::from_fn(|j| words[j].fetch_min(sent[j], Relaxed));
        let len = group.len() / 2;
        owned -= (0..len).filter(|&j| was[j] == INFINITY).count() as u32;
    }
    owned
}

/// Copies the out-edges of the piece `start..start + len` into `edges`
/// (this thread's share of the block's work; the caller's barrier ends it).
#[inline(always)]
fn copy_piece_edges(
    successors: Csr<'_>,
    start: usize,
    len: usize,
    edges: &PieceEdges<'_>,
    thread: usize,
    threads: usize,
) {
    let first = successors.offsets[start];
    let mut v = thread;
    while v <= len {
        edges.offsets[v].store(successors.offsets[start + v] - first, Relaxed);
        v += threads;
    }
    let (first, end) = (first as usize, successors.offsets[start + len] as usize);
    let mut e = thread;
    while e < end - first {
        edges.targets[e].store(successors.targets[first + e], Relaxed);
        edges.weights[e].store(successors.weights[first + e], Relaxed);
        e += threads;
    }
}

/// The window width Δ (a weight word of `W`) chosen from the weights: eight
/// times the mean weight (at least the smallest positive word). A window
/// that wide holds a few hops of a shortest path, so a round has several
/// vertices to relax, while most vertices are still relaxed once or twice.
pub fn auto_delta<W: Weight>(successors: Csr<'_>) -> u32 {
    let m = successors.num_edges();
    if m == 0 {
        return 1;
    }
    let total: f64 = successors.weights.iter().map(|&w| W::to_f64(w)).sum();
    let delta = 8.0 * total / m as f64;
    W::from_f64(delta.min(W::to_f64(W::MAX_DISTANCE) / 2.0)).max(1)
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::format;
    use std::vec::Vec;

    use super::*;

    /// Every group of every split takes a different first frontier entry,
    /// together all of `0..groups`; with whole groups in whole warps,
    /// entries `0..warps` go to the first group of each warp.
    #[test]
    fn groups_rank_warp_by_warp() {
        for threads in [1, 3, 4, 6, 32, 64, 96, 224, 256] {
            for warp_size in [1, 2, 3, 32] {
                for lanes in [1, 2, 3, 4, 8, 16, 32, 64] {
                    let places: Vec<EdgeLanes> = (0..threads)
                        .map(|t| EdgeLanes::new(t, threads, lanes, warp_size))
                        .collect();
                    let groups = places[0].groups;
                    let mut firsts: Vec<usize> = places
                        .iter()
                        .filter(|p| p.group < groups && p.lane == 0)
                        .map(|p| p.first)
                        .collect();
                    firsts.sort_unstable();
                    let context = format!("{threads} threads, warps of {warp_size}, {lanes} lanes");
                    assert_eq!(firsts, (0..groups).collect::<Vec<_>>(), "{context}");
                    let lanes = places[0].lanes;
                    if lanes < warp_size && warp_size % lanes == 0 && threads % warp_size == 0 {
                        let warps = threads / warp_size;
                        for (warp, place) in places.iter().step_by(warp_size).enumerate() {
                            assert_eq!(place.first, warp, "{context}: warp {warp}");
                        }
                        assert_eq!(groups % (warp_size / lanes), 0, "{context}");
                        assert!(warps <= groups, "{context}");
                    }
                }
            }
        }
    }
}
