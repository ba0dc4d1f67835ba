//! Per-thread logic of DA2CF on adjacency matrices (Martín et al., ICCS 2009, §5
//! and Fig. 7; Ortega-Arranz et al., HPCS 2013, Tables I/II).
//!
//! The graph is an `n × n` row-major matrix of weight words: `weights[u * n + v]`
//! is the weight of the edge `u → v`, [`NO_EDGE`] where there is none. Row `u`
//! holds the successors of `u`, column `v` the predecessors of `v`, so one matrix
//! serves both the push (`relax_F`) and the pull (`relax_U`) form.
//!
//! Since every thread walks a whole column (or row), the threads of a block
//! cooperate: the walk goes in chunks of `b` entries (`b` = threads per block),
//! and before each chunk every thread of the block stages one entry of the
//! chunk's vertex arrays in shared memory (the frontier flags and distances for
//! `relax_U`, the unsettled flags for `relax_F`). A kernel is then, per thread:
//! a start ([`column_start`], [`row_start`]); for each chunk, a staging step
//! ([`stage_frontier`], [`stage_unsettled`]), a block barrier, the chunk's work
//! ([`relax_column_chunk`], [`relax_row_chunk`]) and a barrier; and, for
//! `relax_U`, a finish ([`column_finish`]). The GPU kernels and the host's CPU
//! model of a block both call exactly these functions.
//!
//! The settling side of DA2CF (`initialize`, `minimum`, `update`, and Crauser's
//! threshold) does not depend on the representation: it is [`crate::da2cf`]'s
//! and [`crate::crauser`]'s. Only Crauser's `Δ_node` reads the graph
//! ([`delta_node`]).

use core::sync::atomic::{AtomicU32, Ordering::Relaxed};

use crate::da2cf::{FALSE, TRUE};
use crate::distance::{INFINITY, SATURATED, Weight};

/// The entry of a pair of vertices without an edge: [`INFINITY`] (`u32::MAX`).
pub const NO_EDGE: u32 = INFINITY;

/// The entry stored for an edge of weight `w`: `w`, except that a weight of
/// `u32::MAX` (which would read as [`NO_EDGE`]) is stored as [`SATURATED`].
/// That changes no result: a relaxation through an edge of weight
/// `u32::MAX - 1` or `u32::MAX` saturates either way (`<u32 as Weight>::extend` is
/// `SATURATED` for both and every finite `d`), and as a `Δ_node` or `Δ_base` it
/// only lowers Crauser's threshold to the same saturated value, as in
/// [`crate::crauser`].
#[inline(always)]
pub fn stored_weight(w: u32) -> u32 {
    w.min(SATURATED)
}

/// The index of entry `(row, column)` of an `n × n` row-major matrix.
#[inline(always)]
pub fn entry(row: usize, column: usize, n: usize) -> usize {
    row * n + column
}

/// What the thread of slot `k` of a `relax_U` chunk stages: the frontier flag
/// ([`TRUE`] or [`FALSE`]) and the distance of vertex `k`; [`FALSE`] and
/// [`INFINITY`] past the last vertex (`k >= n`), so that every thread of the
/// block stages something.
#[inline(always)]
pub fn stage_frontier(k: usize, dist: &[AtomicU32], frontier: &[u8]) -> (u8, u32) {
    if k < dist.len() {
        let flag = if frontier[k] != FALSE { TRUE } else { FALSE };
        (flag, dist[k].load(Relaxed))
    } else {
        (FALSE, INFINITY)
    }
}

/// The start of `relax_U` for the thread of column `column`: `Some(dist)` if the
/// column is a vertex (`column < n`) and it is unsettled, `None` (the thread
/// only stages and waits at the barriers) otherwise.
#[inline(always)]
pub fn column_start(column: usize, dist: &[AtomicU32], unsettled: &[u8]) -> Option<u32> {
    (column < dist.len() && unsettled[column] != FALSE).then(|| dist[column].load(Relaxed))
}

/// One chunk of `relax_U` (U^GPU on matrices) for the unsettled vertex `column`:
/// the chunk covers rows `chunk_start..chunk_start + len`, whose frontier flags
/// and distances were staged into `staged_frontier` and `staged_dist` (`len`
/// entries each). Returns the minimum of `best` and `dist(k) + w(k, column)`
/// over the frontier rows `k` of the chunk with an edge to `column`.
///
/// The flags are checked first, so only entries of frontier rows are read; the
/// threads of a warp read consecutive columns of one row (coalesced), and all
/// of them read the same staged slot (a shared-memory broadcast).
#[inline(always)]
pub fn relax_column_chunk<W: Weight>(
    best: u32,
    column: usize,
    chunk_start: usize,
    weights: &[u32],
    n: usize,
    staged_frontier: &[u8],
    staged_dist: &[u32],
) -> u32 {
    let mut best = best;
    for_each_entry(
        staged_frontier,
        |k| entry(chunk_start + k, column, n),
        weights,
        |k, w| best = best.min(W::extend(staged_dist[k], w)),
    );
    best
}

/// The end of `relax_U` for the unsettled vertex `column` that started at
/// `current`: stores `best` if it is lower. Only this thread writes
/// `dist[column]`, and the vertex is unsettled, so no thread uses the value
/// (staging may load it, but only frontier distances are used).
#[inline(always)]
pub fn column_finish(column: usize, current: u32, best: u32, dist: &[AtomicU32]) {
    if best < current {
        dist[column].store(best, Relaxed);
    }
}

/// What the thread of slot `k` of a `relax_F` chunk stages: the unsettled flag
/// of vertex `k` ([`TRUE`] or [`FALSE`]), [`FALSE`] past the last vertex.
#[inline(always)]
pub fn stage_unsettled(k: usize, unsettled: &[u8]) -> u8 {
    match unsettled.get(k) {
        Some(&flag) if flag != FALSE => TRUE,
        _ => FALSE,
    }
}

/// The start of `relax_F` for the thread of row `row`: `Some(dist)` if the row
/// is a vertex of the frontier, `None` otherwise. Frontier vertices are
/// settled, so nobody writes that distance during the launch.
#[inline(always)]
pub fn row_start(row: usize, dist: &[AtomicU32], frontier: &[u8]) -> Option<u32> {
    (row < dist.len() && frontier[row] != FALSE).then(|| dist[row].load(Relaxed))
}

/// One chunk of `relax_F` (F^GPU on matrices) for the frontier vertex `row` at
/// distance `dist_row`: the chunk covers columns `chunk_start..chunk_start + len`
/// with their unsettled flags staged in `staged_unsettled` (`len` entries); each
/// unsettled column `v` with an edge `row → v` is lowered to
/// `dist_row + w(row, v)` with an atomic minimum (several frontier rows may
/// share `v`).
#[inline(always)]
pub fn relax_row_chunk<W: Weight>(
    row: usize,
    dist_row: u32,
    chunk_start: usize,
    weights: &[u32],
    n: usize,
    staged_unsettled: &[u8],
    dist: &[AtomicU32],
) {
    for_each_entry(
        staged_unsettled,
        |k| entry(row, chunk_start + k, n),
        weights,
        |k, w| {
            dist[chunk_start + k].fetch_min(W::extend(dist_row, w), Relaxed);
        },
    );
}

/// Entries loaded together before any is used, so that a thread has this many
/// loads in flight instead of waiting for each in turn (the walk is one
/// thread's serial loop; the kernels have few threads per SM at the papers'
/// sizes, so latency, not bandwidth, bounds it).
pub const LOADS_IN_FLIGHT: usize = 8;

/// Calls `visit(k, w)` for each slot `k` of a staged chunk whose flag is set
/// and whose entry `w = weights[index(k)]` is an edge, in increasing `k`. Only
/// the entries of set flags are read; they are loaded in groups of
/// [`LOADS_IN_FLIGHT`], each group before it is used.
#[inline(always)]
fn for_each_entry(
    flags: &[u8],
    index: impl Fn(usize) -> usize,
    weights: &[u32],
    mut visit: impl FnMut(usize, u32),
) {
    let load = |k: usize| {
        if flags[k] != FALSE {
            weights[index(k)]
        } else {
            NO_EDGE
        }
    };
    let groups = flags.len() / LOADS_IN_FLIGHT;
    for group in 0..groups {
        let first = group * LOADS_IN_FLIGHT;
        let loaded: [u32; LOADS_IN_FLIGHT] = core::array::from_fn(|j| load(first + j));
        for (j, &w) in loaded.iter().enumerate() {
            if w != NO_EDGE {
                visit(first + j, w);
            }
        }
    }
    for k in groups * LOADS_IN_FLIGHT..flags.len() {
        let w = load(k);
        if w != NO_EDGE {
            visit(k, w);
        }
    }
}

/// Crauser's `Δ_node(row)`: the smallest weight leaving `row`, the minimum of
/// its row, [`INFINITY`] when it has no edge. Since [`NO_EDGE`] is `INFINITY`
/// and an edge of weight `u32::MAX` is stored as [`SATURATED`]
/// ([`stored_weight`]), the plain minimum of the row is exactly the list form's
/// [`crate::crauser::delta_node`].
#[inline(always)]
pub fn delta_node(row: usize, weights: &[u32], n: usize) -> u32 {
    let start = entry(row, 0, n);
    weights[start..start + n]
        .iter()
        .fold(INFINITY, |low, &w| low.min(w))
}
