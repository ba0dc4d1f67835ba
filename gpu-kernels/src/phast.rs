//! PHAST's downward sweep over a contraction hierarchy, for several sources
//! at once (the host's `sssp::ch` builds the hierarchy and runs the upward
//! searches).
//!
//! Vertices are positions: the hierarchy's top level first, each level
//! contiguous, and every down arc of a vertex comes from a higher one (a
//! smaller position) of another level. The distances of `lanes` sources are
//! interleaved, `dist[v * lanes + lane]`, so that one arc read serves every
//! source and the threads of a warp read one contiguous row.
//!
//! A sweep item is one (vertex, source) pair: it takes the smaller of the
//! vertex's upward distance (already in `dist`, or infinite) and the best of
//! its down arcs. The items of a level only read rows of higher levels, so a
//! level runs in parallel once the levels above it are final.

use core::sync::atomic::AtomicU32;
use core::sync::atomic::Ordering::Relaxed;

use crate::distance::{INFINITY, Weight};

/// The down arcs of a hierarchy, grouped by their lower vertex: arc `e` of
/// `v` (`offsets[v] <= e < offsets[v + 1]`) comes from `ends[e]` with weight
/// `weights[e]`.
#[derive(Clone, Copy)]
pub struct DownArcs<'a> {
    /// Row offsets, `n + 1`.
    pub offsets: &'a [u32],
    /// The higher vertex of each arc.
    pub ends: &'a [u32],
    /// Weight words.
    pub weights: &'a [u32],
}

/// Item `item` of the level that starts at position `level_start`: vertex
/// `level_start + item / lanes`, source lane `item % lanes`. The caller
/// keeps `item` within the level. `W` is the weights' type.
#[inline(always)]
pub fn sweep_item<W: Weight>(
    down: DownArcs,
    dist: &[AtomicU32],
    lanes: usize,
    level_start: usize,
    item: usize,
) {
    let v = level_start + item / lanes;
    let lane = item % lanes;
    let mut best = dist[v * lanes + lane].load(Relaxed);
    for e in down.offsets[v] as usize..down.offsets[v + 1] as usize {
        let from = dist[down.ends[e] as usize * lanes + lane].load(Relaxed);
        best = best.min(W::extend(from, down.weights[e]));
    }
    dist[v * lanes + lane].store(best, Relaxed);
}

/// Item `item` of a sweep's start: entry `item` of `entries`, a pair (index
/// into `dist`, upward distance) of some source's upward search, is written
/// into `dist`. No two entries of one sweep share an index.
#[inline(always)]
pub fn scatter_item(entries: &[u32], dist: &[AtomicU32], item: usize) {
    dist[entries[2 * item] as usize].store(entries[2 * item + 1], Relaxed);
}

/// Item `item` of a table's rows from a sweep: with `targets` the positions
/// of the table's `t` targets, `table[(first_row + lane) * t + j]` is the
/// distance of target `j = item % t` from the source of lane `item / t`.
/// With every vertex's position as the targets, the rows are whole trees in
/// graph order, contiguous, ready to copy to the host one after another.
#[inline(always)]
pub fn column_item(
    dist: &[AtomicU32],
    targets: &[u32],
    lanes: usize,
    table: &[AtomicU32],
    first_row: usize,
    item: usize,
) {
    let t = targets.len();
    let (lane, j) = (item / t, item % t);
    let d = dist[targets[j] as usize * lanes + lane].load(Relaxed);
    table[(first_row + lane) * t + j].store(d, Relaxed);
}

/// Item `item` of a sweep's start: `dist[item]` becomes infinite.
#[inline(always)]
pub fn clear_item(dist: &[AtomicU32], item: usize) {
    dist[item].store(INFINITY, Relaxed);
}

/// The leading levels (from the top) small enough for one block of
/// `block_size` threads: at most `items_per_thread` items per thread each.
/// A sweep runs these on one block with block barriers and the rest on the
/// whole grid with grid barriers, which cost more.
pub fn block_levels(
    level_starts: &[u32],
    lanes: usize,
    block_size: usize,
    items_per_thread: usize,
) -> usize {
    level_starts
        .windows(2)
        .take_while(|w| (w[1] - w[0]) as usize * lanes <= block_size * items_per_thread)
        .count()
}

/// Item `item` of a slot of whole trees delivered in graph order: vertex
/// `v = item / rows` of slot row `r = item % rows`, the tree of lane
/// `first_lane + r`. Slot row `r` is `out[r * (n + ROW_FLAGS)..][..n]` with
/// its overflow flags after it ([`crate::rows::ROW_FLAGS`], zero before the
/// launch), `n = position.len()`. The distance of `v` (at position
/// `position[v]`) is [`INFINITY`] above the row's bound: `limit`, or the
/// distance of the vertex at position `target` when that is smaller
/// (`target` [`INFINITY`]: none). The threads of a warp read a few
/// contiguous runs of `rows` lanes and write a few runs of each row.
#[inline(always)]
pub fn row_item(
    dist: &[AtomicU32],
    (position, lanes): (&[u32], usize),
    (first_lane, rows): (usize, usize),
    (limit, target): (u32, u32),
    out: &[AtomicU32],
    item: usize,
) {
    let n = position.len();
    let (v, r) = (item / rows, item % rows);
    let lane = first_lane + r;
    let bound = match target {
        INFINITY => limit,
        t => limit.min(dist[t as usize * lanes + lane].load(Relaxed)),
    };
    let d = dist[position[v] as usize * lanes + lane].load(Relaxed);
    let d = if d > bound { INFINITY } else { d };
    let row = r * (n + crate::rows::ROW_FLAGS);
    if d == crate::distance::SATURATED {
        out[row + n].fetch_add(1, Relaxed);
        out[row + n + 1].fetch_max(u32::MAX - v as u32, Relaxed);
    }
    out[row + v].store(d, Relaxed);
}
