//! Paged mode (module docs of [`crate::partition`]): persistent blocks that
//! claim the notified pieces in turn, hold each while it has work and give
//! it back.

use core::sync::atomic::Ordering::Relaxed;

use crate::distance::{INFINITY, Weight};
use crate::team::BlockTeam;

use super::communication::Hold;
use super::control::{
    CANDIDATE, CANDIDATES, CLAIM_EXIT, CLAIM_NONE, CLAIM_RESCAN, CLAIMED, FREE_PIECE, OWNED_PIECE,
    SCAN_LOW,
};
use super::memory::{Global, Local, Pieces};
use super::piece::hold_piece;
use super::settings::RoundSettings;

/// The paged solve for one thread of block `block` of `blocks` (see the
/// module docs), the rest as for [`block_solve`](super::block_solve): claims
/// pieces and holds each while it has work until the solve is over, with
/// every piece's distances in `global.backing`. Returns the rounds run
/// (compute thread 0's count; 0 elsewhere).
#[inline(always)]
pub(super) fn paged_rounds<W: Weight>(
    (block, blocks): (usize, usize),
    source: usize,
    settings: RoundSettings,
    (pieces, global, local): (&Pieces<'_>, &Global<'_>, &Local<'_>),
    team: &impl BlockTeam,
) -> u32 {
    let k = global.notify.len();
    // Where this block looks first among pieces of about equal priority.
    let home = (block * k / blocks.max(1)) as u32;
    let mut rounds = 0u32;
    let mut base = INFINITY;
    while let Some(piece) = claim::<W>(home, settings.delta, &mut base, global, local, team) {
        let memory = (pieces, global, local);
        rounds += hold_piece::<W>((piece, source), settings, Hold::Paged, memory, team);
        if team.thread() == 0 {
            // After the block's barrier in `store_piece`: every thread's
            // write-back is ordered before the release.
            team.device_fence();
            global.owner[piece].store(FREE_PIECE, Relaxed);
        }
    }
    rounds
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
pub(super) fn claim<W: Weight>(
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
pub(super) fn take_piece(piece: usize, global: &Global<'_>, team: &impl BlockTeam) -> bool {
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
