//! Per-block logic of the partition-local solver for high-diameter graphs
//! (issue #20, `../shared/design/ROADS.md`), resident mode: the graph is cut
//! into pieces of at most `capacity` vertices, renumbered so that each piece
//! is a contiguous range and its *boundary* vertices (those with an edge from
//! another piece) come first; one persistent block owns each piece and keeps
//! its distances in shared memory, and its out-edges too where they fit
//! ([`PieceEdges`], copied at the start): then a hop inside the piece touches
//! no global memory.
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
//! Each step starts with compute thread 0 reading what the communication
//! thread posted (a new notification to pull, the exit) and opening this
//! round's outbox when it is free; then, after a compute barrier:
//! - **pull** (when notified): the boundary vertices take the smaller of
//!   their global distance (the inbox other blocks write to) and their local
//!   one; improved ones become *dirty*;
//! - **select**: dirty vertices below the window `min + Δ` (`min`: the
//!   smallest dirty distance) are cleared and listed as the round's frontier;
//! - **relax**: each frontier vertex relaxes its edges; an edge inside the
//!   piece lowers the shared distance with an atomic minimum and marks the
//!   head dirty; an edge leaving it does an atomic minimum on the global
//!   distance and, when that improved it, puts the head's piece in the
//!   round's *outbox*, which compute thread 0 hands to the communication
//!   thread after the phase. When the outbox is full or still being sent, the
//!   thread notifies the piece itself (rule 2 below).
//!
//! When compute thread 0 finds no dirty vertex and no new notification, it
//! posts that the piece is idle, with the number of notifications it has
//! pulled.
//!
//! The smallest dirty distance is kept without a scan: the select phase
//! lowers next round's minimum word with every dirty vertex it leaves, the
//! relax phase with every improvement, the pull with every pulled value. So
//! the word is exactly the smallest distance of the dirty vertices at the
//! next round's start, and `INFINITY` when there are none.
//!
//! # Termination: the pending counter never loses work
//! A global counter `pending` counts *tokens*: one per set notification word
//! and those held by each block's communication thread (`owned`). The rules:
//! 1. The solve starts with `pending = 1` and the source's piece notified
//!    (that token); the owning block puts the source in its dirty set.
//! 2. A sender hands one of its tokens to each word it sets. The
//!    communication thread first makes sure it owns more tokens than words
//!    it may set (adding [`TOKEN_RESERVE`] more to `pending` when it does
//!    not, before its fence), sets each word to 1 (an atomic or that returns
//!    the old word), and gives up a token for every word that was clear. A
//!    compute thread that notifies directly adds a token first and takes it
//!    back if the word was already set.
//!    Either way a token is counted in `pending` before the word it belongs
//!    to can be consumed.
//! 3. The communication thread that finds its word set exchanges it to 0 and
//!    takes over its token (`owned += 1`) *before* it posts the pull.
//! 4. It gives its tokens back (`pending -= owned`) only when the compute
//!    threads posted idle after pulling every notification it took, both
//!    outboxes are sent, and its poll found no notification.
//! 5. A block leaves when, holding no token, its communication thread reads
//!    `pending == 0`.
//!
//! A piece with work holds a token or has its word set: it got the work from
//! the source's token (rule 1) or from a pull (rule 3), and rule 4 waits
//! until the work is done and sent. So `pending` is at least 1 while any
//! word is set or any block has work, and every add is made while it is.
//! So the first time `pending` is 0 it stays 0, and at that moment every
//! word is clear and no block has work: every improvement was pulled and
//! relaxed, which is Bellman-Ford's fixpoint. A block that leaves writes its
//! shared distances back to the global array (nobody sends any more, so no
//! value there is smaller).
//!
//! # Memory order
//! Between blocks: a sender's atomic minima are ordered before its exchange
//! of the word by a device fence ([`BlockTeam::device_fence`], release and
//! acquire, cumulative over what the sender saw through the block's own
//! barriers and fences); the receiver's exchange that reads the set word is
//! followed by another, so its pull reads every distance sent before.
//! Between the two roles of a block: the words they share are written after
//! and read before a block fence ([`BlockTeam::block_fence`]). Inside the
//! compute threads the phases are separated by barriers; the relax phase's
//! minima and dirty marks all happen after the select phase cleared the
//! marks, so no improvement is missed. The control words are buffered so
//! that compute thread 0 never rewrites a word that another thread may still
//! read: the broadcast by step parity, the minima by round mod 3, the
//! frontier lengths and outboxes by round parity (as in
//! [`crate::near_far`]).

use core::sync::atomic::AtomicU32;
use core::sync::atomic::Ordering::{AcqRel, Relaxed};
use core::sync::atomic::fence;

use crate::csr::Csr;
use crate::distance::{INFINITY, Weight};

/// The threads of one block and how they wait for each other.
pub trait BlockTeam {
    /// This thread's index in the block.
    fn thread(&self) -> usize;
    /// Threads in the block.
    fn threads(&self) -> usize;
    /// Threads at the block's end that leave the rounds to the others: the
    /// first of them is the communication thread (at least 1, fewer than
    /// [`BlockTeam::threads`]).
    fn comm_threads(&self) -> usize;
    /// A barrier of the whole block that orders its memory accesses; the
    /// threads may reach it from different branches.
    fn barrier(&self);
    /// A barrier of the compute threads alone (the first `threads() -
    /// comm_threads()`) that orders their memory accesses.
    fn compute_barrier(&self);
    /// Called while a thread waits for another role (the GPU sleeps briefly,
    /// the CPU yields).
    fn idle(&self) {}
    /// A fence that orders this thread's earlier memory accesses before its
    /// later ones for every thread of the block (release and acquire).
    fn block_fence(&self) {
        fence(AcqRel);
    }
    /// A fence that orders this thread's earlier memory accesses before its
    /// later ones for every thread of the device, as a release and an
    /// acquire fence do (`core`'s fence by default; the GPU narrows its
    /// scope to the device).
    fn device_fence(&self) {
        fence(AcqRel);
    }
}

/// `u32` words of a block's control area in shared memory.
pub const CONTROL_WORDS: usize = 16;

/// The control area. Compute threads only: minima by round mod 3, frontier
/// lengths by round parity, compute thread 0's broadcast by step parity.
/// Shared by the roles: each outbox's state and length, the notifications
/// the communication thread took, the compute threads' idle post and the
/// exit.
const MINIMUM: usize = 0;
const FRONTIER_LEN: usize = 3;
const BROADCAST: usize = 5;
const OUTBOX_STATE: usize = 7;
const OUTBOX_LEN: usize = 9;
const TAKEN: usize = 11;
const IDLE: usize = 12;
const EXIT_POSTED: usize = 13;

const _: () = assert!(EXIT_POSTED < CONTROL_WORDS);

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

/// Pieces an outbox holds: a round rarely reaches more neighbours.
pub const OUTBOX_SLOTS: usize = 32;

/// Notifications the communication thread sends before it reads any of
/// their results, so that their round trips overlap.
const SEND_GROUP: usize = 4;

/// Tokens the communication thread adds beyond those it needs when it runs
/// short, so that most sends need no add.
pub const TOKEN_RESERVE: u32 = 16;

/// Polls between two reads of `pending` by an idle communication thread: the
/// counter is one word every sender updates, and the end of the solve is
/// noticed a few polls late at most.
const POLLS_PER_PENDING_READ: u32 = 4;

/// `u32` words of shared memory a block needs for pieces of at most
/// `capacity` vertices and `edge_capacity` edges leaving them: the control
/// words, two outboxes, distance, dirty mark and frontier slot per vertex,
/// then, when `edge_capacity > 0`, the piece's edges ([`Local::from_words`]).
pub const fn shared_words(capacity: usize, edge_capacity: usize) -> usize {
    let edges = if edge_capacity > 0 {
        capacity + 1 + 2 * edge_capacity
    } else {
        0
    };
    CONTROL_WORDS + 2 * OUTBOX_SLOTS + 3 * capacity + edges
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
    /// other pieces while the solve runs, the final distance after it.
    pub dist: &'a [AtomicU32],
    /// One notification word per piece (`k`): 1 when another piece lowered a
    /// distance of it that it has not pulled yet.
    pub notify: &'a [AtomicU32],
    /// The token counter (see the module docs).
    pub pending: &'a AtomicU32,
    /// The largest number of rounds a block ran (raised at each block's exit).
    pub rounds: &'a AtomicU32,
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
    /// Two outboxes of [`OUTBOX_SLOTS`] pieces to notify, by round parity.
    pub outbox: &'a [AtomicU32],
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
    /// The arrays in `words`, laid out as
    /// [`shared_words`]`(capacity, edge_capacity)` counts them; `None` when
    /// `words` is shorter.
    #[inline(always)]
    pub fn from_words(
        words: &'a [AtomicU32],
        capacity: usize,
        edge_capacity: usize,
    ) -> Option<Self> {
        let (control, rest) = words.split_at_checked(CONTROL_WORDS)?;
        let (outbox, rest) = rest.split_at_checked(2 * OUTBOX_SLOTS)?;
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
            edges,
        })
    }
}

/// Sets every global distance to [`INFINITY`] (one thread per vertex `v`).
#[inline(always)]
pub fn initialize_vertex(v: usize, dist: &[AtomicU32]) {
    dist[v].store(INFINITY, Relaxed);
}

/// Clears piece `p`'s notification word, or sets it for the source's piece
/// (one thread per piece); the thread of piece 0 also sets `pending` to the
/// source's token and `rounds` to 0.
#[inline(always)]
pub fn initialize_piece(p: usize, source_piece: usize, global: &Global<'_>) {
    global.notify[p].store(u32::from(p == source_piece), Relaxed);
    if p == 0 {
        global.pending.store(1, Relaxed);
        global.rounds.store(0, Relaxed);
    }
}

/// The whole solve for one thread of the block that owns piece `piece`
/// (see the module docs): every thread of the block calls it with the same
/// arguments; `source` is a vertex of the renumbered graph; `delta` the
/// window's width, a weight word. Returns when the solve is over, with the
/// piece's distances written to `global.dist`.
#[inline(always)]
pub fn block_loop<W: Weight>(
    piece: usize,
    source: usize,
    delta: u32,
    pieces: &Pieces<'_>,
    global: &Global<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    let (thread, threads) = (team.thread(), team.threads());
    let start = pieces.starts[piece] as usize;
    let len = pieces.starts[piece + 1] as usize - start;
    let mut v = thread;
    while v < len {
        let is_source = start + v == source;
        local.dist[v].store(if is_source { 0 } else { INFINITY }, Relaxed);
        local.dirty[v].store(u32::from(is_source), Relaxed);
        v += threads;
    }
    if let Some(edges) = &local.edges {
        copy_piece_edges(pieces.successors, start, len, edges, thread, threads);
    }
    if thread == 0 {
        let source_here = (start..start + len).contains(&source);
        for (i, word) in local.control.iter().enumerate() {
            let value = match i {
                MINIMUM if source_here => 0,
                _ if i < MINIMUM + 3 => INFINITY,
                _ => 0,
            };
            word.store(value, Relaxed);
        }
    }
    team.barrier();

    let compute_threads = threads - team.comm_threads();
    if thread < compute_threads {
        let rounds = compute_loop::<W>(piece, delta, pieces, global, local, team);
        if thread == 0 {
            global.rounds.fetch_max(rounds, Relaxed);
        }
    } else if thread == compute_threads {
        comm_loop(piece, global, local, team);
    }
    team.barrier();

    let mut v = thread;
    while v < len {
        global.dist[start + v].store(local.dist[v].load(Relaxed), Relaxed);
        v += threads;
    }
}

/// The compute threads' rounds (module docs), until the communication thread
/// posts the exit; returns the number of rounds.
#[inline(always)]
fn compute_loop<W: Weight>(
    piece: usize,
    delta: u32,
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
    let control = local.control;
    let delta = delta.max(1);

    // Compute thread 0's count of the notifications it pulled.
    let mut pulled = 0u32;
    let mut round = 0usize;
    let mut step = 0usize;
    loop {
        let broadcast = &control[BROADCAST + step % 2];
        let minimum = &control[MINIMUM + round % 3];
        let next_minimum = &control[MINIMUM + (round + 1) % 3];
        let frontier_len = &control[FRONTIER_LEN + round % 2];
        let (outbox_state, outbox_len) = (
            &control[OUTBOX_STATE + round % 2],
            &control[OUTBOX_LEN + round % 2],
        );
        let outbox = &local.outbox[round % 2 * OUTBOX_SLOTS..][..OUTBOX_SLOTS];
        if thread == 0 {
            let taken = control[TAKEN].load(Relaxed);
            let exit = control[EXIT_POSTED].load(Relaxed) != 0;
            team.block_fence();
            let mut word = 0;
            if exit {
                word |= EXIT;
            } else if taken != pulled {
                pulled = taken;
                word |= PULL;
            }
            if word == 0 && minimum.load(Relaxed) == INFINITY {
                control[IDLE].store(1 + pulled, Relaxed);
                team.idle();
            } else {
                control[IDLE].store(0, Relaxed);
                if outbox_state.load(Relaxed) == FREE {
                    outbox_len.store(0, Relaxed);
                    outbox_state.store(FILLING, Relaxed);
                    word |= OUTBOX_OPEN;
                }
            }
            broadcast.store(word, Relaxed);
            // Last read two rounds ago, next written next round.
            control[MINIMUM + (round + 2) % 3].store(INFINITY, Relaxed);
            control[FRONTIER_LEN + (round + 1) % 2].store(0, Relaxed);
        }
        team.compute_barrier();
        step += 1;
        let word = broadcast.load(Relaxed);
        if word & EXIT != 0 {
            return round as u32;
        }
        if word & PULL != 0 {
            let mut v = thread;
            while v < boundary {
                let sent = global.dist[start + v].load(Relaxed);
                if sent < local.dist[v].load(Relaxed) {
                    local.dist[v].store(sent, Relaxed);
                    local.dirty[v].store(1, Relaxed);
                    minimum.fetch_min(sent, Relaxed);
                }
                v += threads;
            }
            team.compute_barrier();
        }
        let lowest = minimum.load(Relaxed);
        if lowest == INFINITY {
            if thread == 0 && word & OUTBOX_OPEN != 0 {
                outbox_state.store(FREE, Relaxed);
            }
            continue;
        }
        // The word after the minimum always moves on (`f32` sums may round
        // back to the minimum).
        let window = W::extend(lowest, delta).max(lowest.saturating_add(1));

        // Select.
        let mut v = thread;
        while v < len {
            if local.dirty[v].load(Relaxed) != 0 {
                let d = local.dist[v].load(Relaxed);
                if d < window {
                    local.dirty[v].store(0, Relaxed);
                    let slot = frontier_len.fetch_add(1, Relaxed) as usize;
                    local.frontier[slot].store(v as u32, Relaxed);
                } else {
                    next_minimum.fetch_min(d, Relaxed);
                }
            }
            v += threads;
        }
        team.compute_barrier();

        // Relax, with the edges' source chosen once per round, not per edge.
        let round_targets = RoundTargets {
            start,
            len,
            outbox_open: word & OUTBOX_OPEN != 0,
            outbox,
            outbox_len,
            next_minimum,
        };
        let selected = frontier_len.load(Relaxed) as usize;
        match &local.edges {
            Some(edges) => {
                relax_frontier::<W>(edges, selected, &round_targets, pieces, global, local, team)
            }
            None => relax_frontier::<W>(
                &GlobalEdges {
                    successors: pieces.successors,
                    start,
                },
                selected,
                &round_targets,
                pieces,
                global,
                local,
                team,
            ),
        }
        team.compute_barrier();
        if thread == 0 && word & OUTBOX_OPEN != 0 {
            team.block_fence();
            outbox_state.store(READY, Relaxed);
        }
        round += 1;
    }
}

/// What a round's relax phase writes besides the piece's distances: the
/// piece's range, the round's outbox and next round's minimum.
struct RoundTargets<'a> {
    start: usize,
    len: usize,
    outbox_open: bool,
    outbox: &'a [AtomicU32],
    outbox_len: &'a AtomicU32,
    next_minimum: &'a AtomicU32,
}

/// The relax phase of one compute thread (module docs): frontier entries
/// `thread, thread + compute threads, …` of the first `selected`, their
/// edges read from `edges`.
#[inline(always)]
fn relax_frontier<W: Weight>(
    edges: &impl OutEdges,
    selected: usize,
    round: &RoundTargets<'_>,
    pieces: &Pieces<'_>,
    global: &Global<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    let threads = team.threads() - team.comm_threads();
    let (start, len) = (round.start, round.len);
    let mut k = team.thread();
    while k < selected {
        let v = local.frontier[k].load(Relaxed) as usize;
        let d = local.dist[v].load(Relaxed);
        for e in edges.range(v) {
            let (u, w) = edges.edge(e);
            let candidate = W::extend(d, w);
            let inside = u.wrapping_sub(start);
            if inside < len {
                if candidate < local.dist[inside].load(Relaxed)
                    && candidate < local.dist[inside].fetch_min(candidate, Relaxed)
                {
                    local.dirty[inside].store(1, Relaxed);
                    round.next_minimum.fetch_min(candidate, Relaxed);
                }
            } else {
                // Loaded before the minimum's round trip, not after it.
                let head_piece = pieces.piece_of[u];
                if candidate < global.dist[u].fetch_min(candidate, Relaxed) {
                    let slot = if round.outbox_open {
                        round.outbox_len.fetch_add(1, Relaxed) as usize
                    } else {
                        OUTBOX_SLOTS
                    };
                    if let Some(entry) = round.outbox.get(slot) {
                        entry.store(head_piece, Relaxed);
                    } else {
                        notify_directly(&global.notify[head_piece as usize], global, team);
                    }
                }
            }
        }
        k += threads;
    }
}

/// A piece's out-edges as the relax phase reads them.
trait OutEdges {
    /// The edges of the piece's vertex `v` (a local index).
    fn range(&self, v: usize) -> core::ops::Range<usize>;
    /// Edge `e`'s head (a renumbered global id) and weight word.
    fn edge(&self, e: usize) -> (usize, u32);
}

impl OutEdges for PieceEdges<'_> {
    #[inline(always)]
    fn range(&self, v: usize) -> core::ops::Range<usize> {
        self.offsets[v].load(Relaxed) as usize..self.offsets[v + 1].load(Relaxed) as usize
    }
    #[inline(always)]
    fn edge(&self, e: usize) -> (usize, u32) {
        (
            self.targets[e].load(Relaxed) as usize,
            self.weights[e].load(Relaxed),
        )
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
    fn range(&self, v: usize) -> core::ops::Range<usize> {
        let offsets = self.successors.offsets;
        offsets[self.start + v] as usize..offsets[self.start + v + 1] as usize
    }
    #[inline(always)]
    fn edge(&self, e: usize) -> (usize, u32) {
        (
            self.successors.targets[e] as usize,
            self.successors.weights[e],
        )
    }
}

/// A compute thread's notification of a piece (module docs, rule 2), when
/// the round's outbox cannot take it.
#[inline(always)]
fn notify_directly(notify: &AtomicU32, global: &Global<'_>, team: &impl BlockTeam) {
    global.pending.fetch_add(1, Relaxed);
    team.device_fence();
    if notify.swap(1, Relaxed) != 0 {
        global.pending.fetch_sub(1, Relaxed);
    }
}

/// The communication thread's loop (module docs): send ready outboxes, take
/// notifications, give tokens back and post the exit.
#[inline(always)]
fn comm_loop(piece: usize, global: &Global<'_>, local: &Local<'_>, team: &impl BlockTeam) {
    let control = local.control;
    let notify = &global.notify[piece];
    let mut owned = 0u32;
    let mut taken = 0u32;
    let mut polls = 0u32;
    loop {
        for b in 0..2 {
            if control[OUTBOX_STATE + b].load(Relaxed) == READY {
                team.block_fence();
                let count = control[OUTBOX_LEN + b].load(Relaxed) as usize;
                let outbox = &local.outbox[b * OUTBOX_SLOTS..][..count.min(OUTBOX_SLOTS)];
                owned = send(owned, outbox, global, team);
                team.block_fence();
                control[OUTBOX_STATE + b].store(FREE, Relaxed);
            }
        }
        if notify.load(Relaxed) != 0 && notify.swap(0, Relaxed) != 0 {
            team.device_fence();
            owned += 1;
            taken += 1;
            control[TAKEN].store(taken, Relaxed);
            polls = 0;
            continue;
        }
        let compute_idle = control[IDLE].load(Relaxed) == 1 + taken;
        // The idle post was written after the outbox states it follows
        // (compute thread 0's block fence): read them after it.
        team.block_fence();
        let idle = compute_idle
            && control[OUTBOX_STATE].load(Relaxed) == FREE
            && control[OUTBOX_STATE + 1].load(Relaxed) == FREE;
        if idle {
            if owned > 0 {
                team.device_fence();
                global.pending.fetch_sub(owned, Relaxed);
                owned = 0;
            }
            if polls.is_multiple_of(POLLS_PER_PENDING_READ) && global.pending.load(Relaxed) == 0 {
                control[EXIT_POSTED].store(1, Relaxed);
                return;
            }
            polls += 1;
        }
        team.idle();
    }
}

/// Notifies the pieces in `outbox` (module docs, rule 2): sets their words
/// [`SEND_GROUP`] at a time before it reads any of the old words, so that
/// the round trips overlap. Takes and returns the tokens the communication
/// thread owns.
#[inline(always)]
fn send(mut owned: u32, outbox: &[AtomicU32], global: &Global<'_>, team: &impl BlockTeam) -> u32 {
    let count = outbox.len() as u32;
    if count == 0 {
        return owned;
    }
    if owned <= count {
        global.pending.fetch_add(count + TOKEN_RESERVE, Relaxed);
        owned += count + TOKEN_RESERVE;
    }
    team.device_fence();
    for group in outbox.chunks(SEND_GROUP) {
        // Straight-line code: every index checked, then every atomic, then
        // their results. A short group's missing entries become an atomic or
        // of piece 0's word with 0, which changes nothing.
        let words: [&AtomicU32; SEND_GROUP] = core::array::from_fn(|j| {
            &global.notify[group.get(j).map_or(0, |entry| entry.load(Relaxed) as usize)]
        });
        let was: [u32; SEND_GROUP] =
            core::array::from_fn(|j| words[j].fetch_or(u32::from(j < group.len()), Relaxed));
        owned -= (0..group.len()).filter(|&j| was[j] == 0).count() as u32;
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
