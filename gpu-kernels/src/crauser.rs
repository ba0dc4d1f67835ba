//! Per-thread logic of the GPU version of Crauser et al.'s frontier
//! (Ortega-Arranz et al., HPCS 2013, §IV): in iteration `i`, every unsettled
//! vertex `v` with `dist(v) <= Δ_i` is settled, where
//! - general variant: `Δ_i = min { dist(u) + Δ_node(u) : u unsettled }`, with
//!   `Δ_node(u)` the smallest weight leaving `u`;
//! - economic variant: `Δ_i = min { dist(u) : u unsettled } + Δ_base`, with
//!   `Δ_base` the smallest weight of the graph.
//!
//! `relax` is DA2CF's (push or pull). A `Δ_node` of [`INFINITY`] means "no
//! outgoing edge"; a real weight of `u32::MAX` is stored as [`SATURATED`], which
//! only lowers the threshold (still safe) and keeps it apart from "no edge".

use core::sync::atomic::{AtomicU32, Ordering};

use crate::csr::Csr;
use crate::da2cf::{FALSE, TRUE};
use crate::distance::{INFINITY, SATURATED, Weight};

/// `Δ_node(i)` from the successor CSR: the smallest weight leaving `i`.
#[inline(always)]
pub fn delta_node(i: usize, successors: Csr<'_>) -> u32 {
    successors
        .edges(i)
        .map(|(_, w)| w.min(SATURATED))
        .min()
        .unwrap_or(INFINITY)
}

/// `Δ_node` from the predecessor CSR: vertex `i` lowers `Δ_node(j)` of each of its
/// predecessors `j` to `w(j, i)` (atomic minimum; `delta_node` starts at infinity).
#[inline(always)]
pub fn scatter_delta_node(i: usize, predecessors: Csr<'_>, delta_node: &[AtomicU32]) {
    for (j, w) in predecessors.edges(i) {
        delta_node[j].fetch_min(w.min(SATURATED), Ordering::Relaxed);
    }
}

/// The threshold a vertex at distance `dist` allows: `dist + delta`, infinite
/// when `delta` is (no outgoing edge) or `dist` is (not reached).
#[inline(always)]
pub fn threshold<W: Weight>(dist: u32, delta: u32) -> u32 {
    if delta == INFINITY {
        INFINITY
    } else {
        W::extend(dist, delta)
    }
}

/// The value vertex `i` contributes to the general variant's `minimum`:
/// `dist(i) + Δ_node(i)` if unsettled, infinity otherwise or past the end.
#[inline(always)]
pub fn minimum_input<W: Weight>(
    i: usize,
    dist: &[u32],
    delta_node: &[u32],
    unsettled: &[u8],
) -> u32 {
    if i < dist.len() && unsettled[i] != FALSE {
        threshold::<W>(dist[i], delta_node[i])
    } else {
        INFINITY
    }
}

/// `update` (Ortega-Arranz et al., Alg. 3) for one vertex: clear its frontier
/// flag; settle it into the next frontier if it is unsettled and `dist <= Δ_i`.
#[inline(always)]
pub fn update(dist: u32, frontier: &mut u8, unsettled: &mut u8, delta: u32) {
    *frontier = FALSE;
    if *unsettled != FALSE && dist <= delta {
        *unsettled = FALSE;
        *frontier = TRUE;
    }
}
