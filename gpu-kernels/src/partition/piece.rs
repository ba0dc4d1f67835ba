//! A block's hold on a piece: loading it into shared memory, running the
//! two roles on it, and writing it back.

use core::sync::atomic::AtomicU32;
use core::sync::atomic::Ordering::Relaxed;

use crate::csr::Csr;
use crate::distance::{INFINITY, Weight};
use crate::team::BlockTeam;

use super::communication::{Hold, comm_loop};
use super::compute::compute_loop;
use super::control::{BOUND, ENTRY_MINIMUM, MINIMUM, SCAN_LOW, TAKEN};
use super::memory::{Global, Local, PieceEdges, Pieces};
use super::settings::RoundSettings;

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

/// A block's turn on piece `piece` (all its threads): loads it (resident:
/// all infinite; paged: from `global.backing`), runs the two roles' loops on
/// it (module docs) until the communication thread posts the exit, and writes
/// its distances back (resident: to `global.dist`; paged: to
/// `global.backing`); ends with the block's barrier. Returns the rounds run
/// (compute thread 0's count; 0 elsewhere).
#[inline(always)]
pub(super) fn hold_piece<W: Weight>(
    (piece, source): (usize, usize),
    settings: RoundSettings,
    hold: Hold,
    (pieces, global, local): (&Pieces<'_>, &Global<'_>, &Local<'_>),
    team: &impl BlockTeam,
) -> u32 {
    let (from, to) = match hold {
        Hold::Resident => (None, global.dist),
        Hold::Paged => (Some(global.backing), global.backing),
    };
    load_piece(piece, source, from, pieces, global, local, team);
    let (thread, threads) = (team.thread(), team.threads());
    let compute_threads = threads - team.comm_threads();
    let mut rounds = 0;
    if thread < compute_threads {
        rounds = compute_loop::<W>(piece, settings, pieces, global, local, team);
    } else if thread == compute_threads {
        comm_loop(piece, hold, pieces, global, local, team);
    }
    team.barrier();
    store_piece(piece, pieces, to, local, team);
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

/// Copies the out-edges of the piece `start..start + len` into `edges`
/// (this thread's share of the block's work; the caller's barrier ends it).
#[inline(always)]
pub(super) fn copy_piece_edges(
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
