//! Per-block logic of the partition-local solver for high-diameter graphs
//! (`../shared/design/ROADS.md`): the graph is cut into pieces of
//! at most `capacity` vertices, renumbered so that each piece is a contiguous
//! range and its *boundary* vertices (those with an edge from another piece)
//! come first; a block that holds a piece keeps its distances in shared
//! memory, and its out-edges too where they fit ([`PieceEdges`], copied when
//! it takes the piece): then a hop inside the piece touches no global memory.
//!
//! # Two modes
//! - **Resident** ([`Placement::Resident`]): one persistent block per piece, which
//!   holds it for the whole solve and writes its distances to `dist` at the
//!   end.
//! - **Paged** ([`Placement::Paged`]), for graphs with more pieces than blocks fit
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

mod communication;
mod compute;
mod control;
mod memory;
mod paged;
mod piece;
mod relax;
mod settings;
mod solve;

pub use control::{
    CONTROL_WORDS, OUTBOX_SLOTS, TOKEN_RESERVE, partition_shared_bytes, shared_words,
};
pub use memory::{Global, Local, PieceEdges, Pieces, initialize_piece, initialize_vertex};
pub use settings::{DEFAULT_CHAIN_HOPS, RoundSettings, auto_delta};
pub use solve::{Placement, block_solve};
