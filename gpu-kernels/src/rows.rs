//! Per-thread logic of a solved row's delivery: the distances of a solver
//! that renumbers the graph (the partition solver) gathered back into the
//! caller's vertex order on the GPU, with the stop's bound applied and
//! overflow found on the way, so that the host receives a finished row and
//! does no per-vertex work.

use core::sync::atomic::{AtomicU32, Ordering};

use crate::distance::{INFINITY, SATURATED};

/// Words of the flags that [`gather_one`] writes, zero before the launch:
/// the number of saturated (overflowed) distances, and `u32::MAX - v` for the
/// smallest such vertex `v` (0: none).
pub const ROW_FLAGS: usize = 2;

/// Row entry `v` (`out`, this thread's alone): the distance of `v`'s new id `new_of_old[v]` in `dist`,
/// [`INFINITY`] when above `bound` (the stop's limit, or the target's
/// distance when `target_new` is not [`INFINITY`] and that is smaller), and
/// counted into `flags` when [`SATURATED`].
#[inline(always)]
pub fn gather_one(
    v: usize,
    dist: &[u32],
    new_of_old: &[u32],
    (limit, target_new): (u32, u32),
    out: &mut u32,
    flags: &[AtomicU32],
) {
    let bound = stop_bound(limit, target_new, dist);
    let d = dist[new_of_old[v] as usize];
    let d = if d > bound { INFINITY } else { d };
    if d == SATURATED {
        flags[0].fetch_add(1, Ordering::Relaxed);
        flags[1].fetch_max(u32::MAX - v as u32, Ordering::Relaxed);
    }
    *out = d;
}

/// The largest distance a solve bounded by `limit` and stopped at `target`
/// ([`INFINITY`]: none) reports, given its distances `dist` (the target's
/// distance is final when the solve stops).
#[inline(always)]
pub fn stop_bound(limit: u32, target: u32, dist: &[u32]) -> u32 {
    match target {
        INFINITY => limit,
        target => limit.min(dist[target as usize]),
    }
}

/// The first saturated vertex and the count of them that `flags` (after a
/// gather) report, if any.
pub fn saturated(flags: [u32; ROW_FLAGS]) -> Option<(usize, usize)> {
    (flags[0] > 0).then(|| ((u32::MAX - flags[1]) as usize, flags[0] as usize))
}
