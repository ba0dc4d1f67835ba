//! The communication thread's loop (module docs of [`crate::partition`]):
//! sending the outboxes, taking notifications, the tokens of the
//! termination protocol, the early stop's bound and the exit.

use core::sync::atomic::AtomicU32;
use core::sync::atomic::Ordering::Relaxed;

use crate::distance::{INFINITY, NO_TARGET};
use crate::team::BlockTeam;

use super::control::{
    BOUND, EXIT_POSTED, FREE, IDLE, OUTBOX_LEN, OUTBOX_SLOTS, OUTBOX_STATE, PAGED_LINGER_POLLS,
    POLLS_PER_PENDING_READ, READY, SEND_GROUP, TAKEN, TOKEN_RESERVE,
};
use super::memory::{Global, Local, Pieces};

/// How a block holds its piece: for the whole solve, or until it has no
/// local work.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Hold {
    Resident,
    Paged,
}

/// The communication thread's loop (module docs): send ready outboxes, take
/// notifications, give tokens back and post the exit (resident: at the end
/// of the solve; paged: when the piece has no local work).
#[inline(always)]
pub(super) fn comm_loop(
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
pub(super) fn lower_bound(
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
pub(super) fn send(
    mut owned: u32,
    outbox: &[AtomicU32],
    global: &Global<'_>,
    team: &impl BlockTeam,
) -> u32 {
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
