//! Per-thread logic of DA2CF, Dijkstra's algorithm adapted to compound frontiers
//! (Martín et al., ICCS 2009, Fig. 2–4).
//!
//! Each function is what one GPU thread does for one vertex; the CPU drivers in the
//! host crate call the same functions in a loop over all vertices.
//!
//! State per vertex: `dist` (the paper's `c`), `frontier` (`f`: settled in the last
//! iteration, its edges not yet relaxed) and `unsettled` (`u`). Flags are bytes,
//! [`TRUE`] or [`FALSE`].

use core::ops::Range;
use core::sync::atomic::{AtomicU32, Ordering};

use crate::csr::Csr;
use crate::distance::{INFINITY, Weight};

/// A set flag.
pub const TRUE: u8 = 1;
/// A cleared flag.
pub const FALSE: u8 = 0;

/// `initialize` (Fig. 2) for vertex `i`: every vertex unreached, unsettled and out
/// of the frontier, except `source`, which is at distance 0, settled and the
/// first frontier. (The paper fixes the source at vertex 0.)
#[inline(always)]
pub fn initialize(i: usize, source: usize, dist: &mut u32, frontier: &mut u8, unsettled: &mut u8) {
    let is_source = i == source;
    *dist = if is_source { 0 } else { INFINITY };
    *frontier = if is_source { TRUE } else { FALSE };
    *unsettled = if is_source { FALSE } else { TRUE };
}

/// `relax_F` (Fig. 3, left) for vertex `i` of a successor CSR: if `i` is in the
/// frontier, `lower(&dist[j], dist[i] + w(i, j))` for each unsettled successor
/// `j`. `lower` is [`atomic_min`], since several frontier vertices may share a
/// successor, or [`racy_min`] (F^GPU_no_Atomic).
#[inline(always)]
pub fn relax_frontier<W: Weight>(
    i: usize,
    successors: Csr<'_>,
    dist: &[AtomicU32],
    frontier: &[u8],
    unsettled: &[u8],
    lower: impl Fn(&AtomicU32, u32),
) {
    if frontier[i] == FALSE {
        return;
    }
    let dist_i = dist[i].load(Ordering::Relaxed);
    for (j, w) in successors.edges(i) {
        if unsettled[j] != FALSE {
            lower(&dist[j], W::extend(dist_i, w));
        }
    }
}

/// `relax_F`'s minimum: atomic.
#[inline(always)]
pub fn atomic_min(d: &AtomicU32, candidate: u32) {
    d.fetch_min(candidate, Ordering::Relaxed);
}

/// `relax_F`'s minimum without the atomic minimum (the paper's
/// F^GPU_no_Atomic, and the bug of Harish & Narayanan that Fig. 5 exposes): a
/// load, a compare and a store, so two frontier vertices relaxing the same
/// successor at once can leave the larger value. For measurement only;
/// distances can come out wrong.
#[inline(always)]
pub fn racy_min(d: &AtomicU32, candidate: u32) {
    // Another thread may store between this load and this store.
    if candidate < d.load(Ordering::Relaxed) {
        d.store(candidate, Ordering::Relaxed);
    }
}

/// `relax_U` (Fig. 3, right) for vertex `i` of a predecessor CSR: if `i` is
/// unsettled, lower its distance to the minimum of `dist[j] + w(j, i)` over its
/// frontier predecessors `j`. Only thread `i` writes `dist[i]`, and frontier
/// vertices are settled, so nobody writes what it reads: no atomics needed
/// (relaxed loads and stores compile to plain ones).
#[inline(always)]
pub fn relax_unsettled<W: Weight>(
    i: usize,
    predecessors: Csr<'_>,
    dist: &[AtomicU32],
    frontier: &[u8],
    unsettled: &[u8],
) {
    if unsettled[i] == FALSE {
        return;
    }
    let edges = predecessors.offsets[i] as usize..predecessors.offsets[i + 1] as usize;
    relax_unsettled_edges::<W>(
        i,
        edges,
        predecessors.targets,
        predecessors.weights,
        dist,
        |j| frontier[j] != FALSE,
    );
}

/// The body of `relax_U` for an unsettled vertex `i` whose predecessors are
/// `sources[edges]` with `weights[edges]`; `is_frontier(j)` reads the frontier
/// flag of `j` (plainly, or through the read-only cache in U^GPU_PLUS).
#[inline(always)]
pub fn relax_unsettled_edges<W: Weight>(
    i: usize,
    edges: Range<usize>,
    sources: &[u32],
    weights: &[u32],
    dist: &[AtomicU32],
    is_frontier: impl Fn(usize) -> bool,
) {
    let current = dist[i].load(Ordering::Relaxed);
    let mut best = current;
    for (&j, &w) in sources[edges.clone()].iter().zip(&weights[edges]) {
        let j = j as usize;
        if is_frontier(j) {
            best = best.min(W::extend(dist[j].load(Ordering::Relaxed), w));
        }
    }
    if best < current {
        dist[i].store(best, Ordering::Relaxed);
    }
}

/// The value vertex `i` contributes to `minimum` (Fig. 4, right): its distance if
/// it is unsettled, [`INFINITY`] if it is settled or past the last vertex (the
/// reduction reads two values per thread, so the last block may overhang `n`).
#[inline(always)]
pub fn minimum_input(i: usize, dist: &[u32], unsettled: &[u8]) -> u32 {
    if i < dist.len() && unsettled[i] != FALSE {
        dist[i]
    } else {
        INFINITY
    }
}

/// `update` (Fig. 4, left) for one vertex: clear its frontier flag; if it is
/// unsettled and its distance equals the minimum `mssp`, settle it and make it
/// part of the next frontier.
///
/// The paper's pseudocode omits the `unsettled` test; it is needed once weights
/// may be zero, where a vertex settled earlier can have the same distance as the
/// new minimum and must not re-enter the frontier.
#[inline(always)]
pub fn update(dist: u32, frontier: &mut u8, unsettled: &mut u8, mssp: u32) {
    *frontier = FALSE;
    if *unsettled != FALSE && dist == mssp {
        *unsettled = FALSE;
        *frontier = TRUE;
    }
}
