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
//! A sweep item is one vertex and [`LANES_PER_ITEM`] consecutive lanes of
//! it: it takes, lane by lane, the smaller of the vertex's upward distance
//! (already in `dist`, or infinite) and the best of its down arcs. The items
//! of a level only read rows of higher levels, so a level runs in parallel
//! once the levels above it are final. An item reads and writes its lanes as
//! one 16-byte word on the GPU: a thread then keeps four times the bytes in
//! flight of a one-lane item, and a sweep waits on memory latency far more
//! than on bandwidth.

use core::sync::atomic::AtomicU32;
use core::sync::atomic::Ordering::Relaxed;

use crate::distance::{INFINITY, Weight};

/// Consecutive lanes of one vertex in a sweep item. A sweep's lanes are a
/// multiple of it.
pub const LANES_PER_ITEM: usize = 4;

/// The words `i..i + 4` of `dist`: on the GPU in one 16-byte load.
///
/// The caller keeps `i` a multiple of 4 and `dist` 16-byte aligned (device
/// allocations are), and no thread writes these words while it reads them
/// (a sweep's items read rows of earlier levels, written before the barrier
/// between levels, and their own words).
#[inline(always)]
fn load_lanes(dist: &[AtomicU32], i: usize) -> [u32; LANES_PER_ITEM] {
    let words = &dist[i..i + LANES_PER_ITEM];
    #[cfg(target_arch = "nvptx64")]
    {
        // SAFETY: four words in bounds (checked by the slicing), 16-byte
        // aligned global memory as the caller keeps it; nothing writes them
        // during the read, as the caller keeps it. `AtomicU32` has `u32`'s
        // layout.
        unsafe { crate::device::memory::load_global_v4(words.as_ptr().cast()) }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        [0, 1, 2, 3].map(|k| words[k].load(Relaxed))
    }
}

/// Writes `value` into the words `i..i + 4` of `dist` (on the GPU in one
/// 16-byte store), under [`load_lanes`]' conditions; no other thread reads
/// or writes them meanwhile.
#[inline(always)]
fn store_lanes(dist: &[AtomicU32], i: usize, value: [u32; LANES_PER_ITEM]) {
    let words = &dist[i..i + LANES_PER_ITEM];
    #[cfg(target_arch = "nvptx64")]
    {
        // SAFETY: as in `load_lanes`; the words sit in `UnsafeCell`s
        // (atomics), so a write through a pointer from a shared reference is
        // allowed, and this thread alone uses them during the store.
        unsafe {
            crate::device::memory::store_global_v4(words.as_ptr().cast::<u32>().cast_mut(), value)
        }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        for k in 0..LANES_PER_ITEM {
            words[k].store(value[k], Relaxed);
        }
    }
}

/// Lane by lane, `best` becomes the smaller of itself and `from` extended
/// by the arc weight `weight`.
#[inline(always)]
fn relax<W: Weight>(best: &mut [u32; LANES_PER_ITEM], from: [u32; LANES_PER_ITEM], weight: u32) {
    for k in 0..LANES_PER_ITEM {
        best[k] = best[k].min(W::extend(from[k], weight));
    }
}

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
/// `level_start + item / (lanes / 4)`, lanes `4 * (item % (lanes / 4))`
/// and the three after it. The caller keeps `item` within the level and
/// `lanes` a multiple of [`LANES_PER_ITEM`]. `W` is the weights' type.
#[inline(always)]
pub fn sweep_item<W: Weight>(
    down: DownArcs,
    dist: &[AtomicU32],
    lanes: usize,
    level_start: usize,
    item: usize,
) {
    let per_vertex = lanes / LANES_PER_ITEM;
    let v = level_start + item / per_vertex;
    let lane = (item % per_vertex) * LANES_PER_ITEM;
    let own = v * lanes + lane;
    let mut best = load_lanes(dist, own);
    let (first, end) = (down.offsets[v] as usize, down.offsets[v + 1] as usize);
    let mut e = first;
    // Two arcs a step: both rows' loads in flight at once.
    while e + 1 < end {
        let (a, b) = (down.ends[e] as usize, down.ends[e + 1] as usize);
        let from_a = load_lanes(dist, a * lanes + lane);
        let from_b = load_lanes(dist, b * lanes + lane);
        relax::<W>(&mut best, from_a, down.weights[e]);
        relax::<W>(&mut best, from_b, down.weights[e + 1]);
        e += 2;
    }
    if e < end {
        let from = load_lanes(dist, down.ends[e] as usize * lanes + lane);
        relax::<W>(&mut best, from, down.weights[e]);
    }
    store_lanes(dist, own, best);
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

/// Words [`clear_item`] sets per item.
pub const CLEARED_PER_ITEM: usize = LANES_PER_ITEM;

/// Item `item` of a sweep's start: the words `4 * item..4 * item + 4` of
/// `dist` below its length become infinite (a whole four in one 16-byte
/// store on the GPU, `dist` starting at a 16-byte boundary).
#[inline(always)]
pub fn clear_item(dist: &[AtomicU32], item: usize) {
    let first = item * CLEARED_PER_ITEM;
    if first + CLEARED_PER_ITEM <= dist.len() {
        store_lanes(dist, first, [INFINITY; LANES_PER_ITEM]);
    } else {
        for word in dist.iter().skip(first) {
            word.store(INFINITY, Relaxed);
        }
    }
}

/// The leading levels (from the top) small enough for one block of
/// `block_size` threads: at most `items_per_thread` sweep items (of a sweep
/// of `lanes` lanes) per thread each. A sweep runs these on one block with
/// block barriers and the rest on the whole grid with grid barriers, which
/// cost more.
pub fn block_levels(
    level_starts: &[u32],
    lanes: usize,
    block_size: usize,
    items_per_thread: usize,
) -> usize {
    let per_vertex = lanes / LANES_PER_ITEM;
    level_starts
        .windows(2)
        .take_while(|w| (w[1] - w[0]) as usize * per_vertex <= block_size * items_per_thread)
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
