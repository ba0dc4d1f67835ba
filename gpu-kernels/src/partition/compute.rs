//! The compute threads' loop (module docs of [`crate::partition`]): each
//! step's word, the pull, the select phase and the relax phase of a round.

use core::cell::Cell;
use core::sync::atomic::AtomicU32;
use core::sync::atomic::Ordering::Relaxed;

use crate::distance::{INFINITY, Weight};
use crate::team::BlockTeam;

use super::control::{
    BOUND, BROADCAST, ENTRY_MINIMUM, EXIT, EXIT_POSTED, FILLING, FREE, FRONTIER_LEN, IDLE,
    IDLE_BACK_OFF_DOUBLINGS, MINIMUM, OUTBOX_LEN, OUTBOX_OPEN, OUTBOX_SLOTS, OUTBOX_STATE, PULL,
    READY, STEP_BOUND, TAKEN,
};
use super::memory::{Global, Local, Pieces};
use super::relax::{ChainQueues, EdgeLanes, GlobalEdges, RoundTargets, relax_frontier};
use super::settings::RoundSettings;

/// The compute threads' rounds (module docs), until the communication thread
/// posts the exit; returns the number of rounds.
///
/// Compute thread 0 posts each step's word ([`post_step`]) before the
/// barrier that ends the previous step, while the other threads finish
/// relaxing: a working round waits at two barriers (select, relax), three
/// when it pulls.
#[inline(always)]
pub(super) fn compute_loop<W: Weight>(
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
    let edge_lanes = settings.edge_lanes as usize;
    let lanes = EdgeLanes::new(thread, threads, edge_lanes, team.warp_size());

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
        let words = RoundWords::of(round, local);
        if word & EXIT != 0 {
            return round as u32;
        }
        let outbox_open = word & OUTBOX_OPEN != 0;
        if word & PULL != 0 {
            let minima = (words.minimum, words.entry_minimum);
            pull(boundary, start, minima, global, local, team);
        }
        let lowest = words.minimum.load(Relaxed);
        // Dirty vertices beyond the bound are left (module docs, *Early
        // stop*).
        if lowest == INFINITY || lowest > bound {
            if thread == 0 {
                let outbox = (outbox_open, words.outbox_state);
                let counts = (step, round, idle_steps);
                idle_step(control, outbox, counts, &mut pulled, team);
                idle_steps += 1;
            }
            team.compute_barrier();
            continue;
        }
        idle_steps = 0;
        let piece_range = (start, len, boundary);
        let window = (lowest, delta, bound, settings.entries_first);
        let round_targets = words.targets::<W>(piece_range, window, outbox_open);

        select(len, words.frontier_len, &round_targets, local, team);

        // Relax.
        let selected = words.frontier_len.load(Relaxed) as usize;
        let phase = RelaxPhase {
            start,
            selected,
            lanes: &lanes,
            queues: queues.as_ref(),
            round: &round_targets,
            pieces,
            global,
        };
        relax_selected::<W>(phase, local, team);
        round_targets.flush_pending();
        if thread == 0 {
            post_step(control, step, round + 1, Next::Working, &mut pulled, team);
        }
        team.compute_barrier();
        if thread == 0 && outbox_open {
            team.block_fence();
            words.outbox_state.store(READY, Relaxed);
        }
        round += 1;
    }
}

/// The control words and the outbox of round `round`: the rounds rotate
/// through three minimum words and two of the others.
#[derive(Clone, Copy)]
struct RoundWords<'a> {
    minimum: &'a AtomicU32,
    next_minimum: &'a AtomicU32,
    entry_minimum: &'a AtomicU32,
    next_entry_minimum: &'a AtomicU32,
    frontier_len: &'a AtomicU32,
    outbox_state: &'a AtomicU32,
    outbox_len: &'a AtomicU32,
    outbox: &'a [AtomicU32],
}

impl<'a> RoundWords<'a> {
    /// The words of round `round` in the piece's `local` memory.
    #[inline(always)]
    fn of(round: usize, local: &'a Local<'a>) -> Self {
        let control = local.control;
        RoundWords {
            minimum: &control[MINIMUM + round % 3],
            next_minimum: &control[MINIMUM + (round + 1) % 3],
            entry_minimum: &control[ENTRY_MINIMUM + round % 3],
            next_entry_minimum: &control[ENTRY_MINIMUM + (round + 1) % 3],
            frontier_len: &control[FRONTIER_LEN + round % 2],
            outbox_state: &control[OUTBOX_STATE + round % 2],
            outbox_len: &control[OUTBOX_LEN + round % 2],
            outbox: &local.outbox[round % 2 * 2 * OUTBOX_SLOTS..][..2 * OUTBOX_SLOTS],
        }
    }

    /// What the select and relax phases of a working round compare with and
    /// write to, chosen once per round, not per vertex or edge: the piece's
    /// range (`start`, `len`, `boundary`) and the round's windows from its
    /// lowest dirty distance, the window width `delta`, the step's `bound` and
    /// whether entries go first.
    #[inline(always)]
    fn targets<W: Weight>(
        self,
        (start, len, boundary): (usize, usize, usize),
        (lowest, delta, bound, entries_first): (u32, u32, u32, bool),
        outbox_open: bool,
    ) -> RoundTargets<'a> {
        // The word after the minimum always moves on (`f32` sums may round
        // back to the minimum).
        let window = W::extend(lowest, delta)
            .max(lowest.saturating_add(1))
            .min(bound.saturating_add(1));
        let interior_window = if entries_first {
            window.min(self.entry_minimum.load(Relaxed))
        } else {
            window
        };
        RoundTargets {
            start: start as u32,
            len: len as u32,
            boundary: boundary as u32,
            window,
            interior_window,
            bound,
            outbox_open,
            outbox: self.outbox,
            outbox_len: self.outbox_len,
            next_minimum: self.next_minimum,
            next_entry_minimum: self.next_entry_minimum,
            pending: Cell::new(INFINITY),
            pending_entries: Cell::new(INFINITY),
        }
    }
}

/// The pull of a step whose word says so: each compute thread lowers the
/// local distances of its share of the `boundary` entry vertices (piece
/// vertex `start` on) to what was sent to them globally, marks them dirty,
/// and lowers the round's `minimum` and `entry_minimum` to the smallest
/// pulled distance (one atomic per thread); then the compute barrier.
#[inline(always)]
fn pull(
    boundary: usize,
    start: usize,
    (minimum, entry_minimum): (&AtomicU32, &AtomicU32),
    global: &Global<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    let threads = team.threads() - team.comm_threads();
    let mut pulled_low = INFINITY;
    let mut v = team.thread();
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

/// Compute thread 0's part of an idle step (nothing under the bound): frees
/// the round's outbox when the step `opened` it, posts the idle
/// count, backs off by the `idle_steps` before this one and posts the next
/// step's word.
#[inline(always)]
fn idle_step(
    control: &[AtomicU32],
    (opened, outbox_state): (bool, &AtomicU32),
    (step, round, idle_steps): (usize, usize, u32),
    pulled: &mut u32,
    team: &impl BlockTeam,
) {
    if opened {
        outbox_state.store(FREE, Relaxed);
    }
    // The idle post vouches for the outbox states before it.
    team.block_fence();
    control[IDLE].store(1 + *pulled, Relaxed);
    team.back_off(idle_steps.min(IDLE_BACK_OFF_DOUBLINGS));
    post_step(control, step, round, Next::Idle, pulled, team);
}

/// The select phase: each compute thread moves its share of the piece's
/// `len` dirty vertices inside the round's window to the frontier (counted
/// by `frontier_len`) and keeps the others' distances pending; then the
/// compute barrier.
#[inline(always)]
fn select(
    len: usize,
    frontier_len: &AtomicU32,
    round_targets: &RoundTargets<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    let threads = team.threads() - team.comm_threads();
    let mut v = team.thread();
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
}

/// What the relax phase of a round works on besides the piece's arrays.
struct RelaxPhase<'a> {
    /// The piece's first vertex.
    start: usize,
    /// Frontier vertices selected.
    selected: usize,
    /// This thread's place among the edge lanes.
    lanes: &'a EdgeLanes,
    /// The warp's chain queues, if it chains.
    queues: Option<&'a ChainQueues<'a>>,
    /// The round's windows and targets.
    round: &'a RoundTargets<'a>,
    /// The pieces and the global arrays.
    pieces: &'a Pieces<'a>,
    global: &'a Global<'a>,
}

/// The relax phase: the selected frontier's edges, from shared memory when
/// the piece's edges are kept there, else from the global CSR.
#[inline(always)]
fn relax_selected<W: Weight>(phase: RelaxPhase<'_>, local: &Local<'_>, team: &impl BlockTeam) {
    let RelaxPhase {
        start,
        selected,
        lanes,
        queues,
        round,
        pieces,
        global,
    } = phase;
    // One call, for either kind of edges.
    macro_rules! relax {
        ($edges:expr) => {
            relax_frontier::<W>(
                $edges, selected, lanes, queues, round, pieces, global, local, team,
            )
        };
    }
    match &local.edges {
        Some(edges) => relax!(edges),
        None => relax!(&GlobalEdges {
            successors: pieces.successors,
            start,
        }),
    }
}

/// What compute thread 0 expects of the step it posts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Next {
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
pub(super) fn post_step(
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
