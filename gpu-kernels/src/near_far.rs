//! Per-thread logic of a bucketed solver for high-diameter graphs:
//! the near-far form (Davidson et al., IPDPS 2014) of Δ-stepping (Meyer &
//! Sanders), run whole on the device like [`crate::compact`].
//!
//! DA2CF settles one distance value per iteration, so a road network takes as
//! many iterations as it has distinct distances. Near-far processes a whole
//! band of distances `[T - Δ, T)` at once and corrects labels inside it:
//! - **relax iteration**: every vertex of the near worklist relaxes its edges
//!   (warp-flattened, as in [`crate::compact`]); a vertex whose distance drops
//!   below the threshold `T` joins the next near worklist (once per iteration:
//!   a stamp per vertex filters duplicates), one whose distance drops but stays
//!   at or above `T` goes to the far pile;
//! - **split iteration**, when the near worklist is empty: `T` moves up by `Δ`
//!   (or further, past the smallest distance seen entering the far pile, when
//!   the band would be empty); far entries below the new `T` become the near
//!   worklist, the rest stay, and entries below the old `T` are dropped (their
//!   vertex has since improved and was queued again with the better distance).
//!
//! A near vertex of more than `hub_degree` out-edges ([`HUB_DEGREE`]) is not
//! walked by its warp: it goes to a *hub list*, cut into chunks of
//! [`HUB_CHUNK`] edges, and in the next relax iteration the chunks are dealt
//! to the team's warps, so that a hub of any size spreads over the team
//! (without a prefix sum over the hubs' degrees). A warp alone
//! would take a step per 32 edges, each a chain of L2 round trips, while
//! the other warps wait at the barrier; on scale-free graphs the largest
//! vertex of an iteration sets its time.
//!
//! Correctness is Bellman-Ford's: every improvement of `dist(v)` is queued
//! (near, or far until `T` passes it; a hub relaxes one iteration later), so
//! when all three are empty every vertex has relaxed its edges with its final
//! distance. The threshold only orders the
//! work, so that most vertices are relaxed once.
//!
//! # Early stop
//! With a limit or a target ([`Arrays::limit`], [`Arrays::target`]), an
//! improvement above the bound (the limit, or the target's tentative
//! distance where lower) is kept but not queued, and a split drops far
//! entries above it, so no vertex beyond the bound is relaxed and the loop
//! converges once the work within it is done. Every vertex no farther than
//! the final bound is exact: each prefix of its shortest path is at most
//! the bound, so each improvement along it is queued as before. Each thread
//! reads the target's distance when a launch starts and at every split, and
//! relax iterations use the last one read: a bound at least the current
//! one, which only queues more. The bound decides only where a vertex goes,
//! never a barrier or the threshold, so threads may read it apart.
//!
//! # Shared state and races
//! Every thread keeps the iteration, `T` and the far parity in registers,
//! computed alike from values read after barriers; thread 0 stores them in
//! [`NearFarState`] only when the loop returns. A relax iteration has one
//! barrier: it reads near counter `i % 3` and appends with counter
//! `(i + 1) % 3`, and thread 0 resets counter `(i + 2) % 3`, last read one
//! barrier ago and next written one barrier later. Hubs alike: iteration `i`
//! walks hub list `(i + 1) % 2` (counter `(i + 2) % 3`, filled in iteration
//! `i - 1`), fills list `i % 2` (counter `i % 3`), and thread 0 resets
//! counter `(i + 1) % 3`, last read in iteration `i - 1`. A split iteration has two
//! barriers: thread 0 resets the far list it will fill and its minimum first.

use core::sync::atomic::AtomicU32;
use core::sync::atomic::Ordering::Relaxed;

use crate::csr::Csr;
use crate::distance::{INFINITY, NO_TARGET, Weight, scaled_mean_weight};
use crate::team::{
    Exit, Team, for_each_edge_of_warp_but_hubs, for_each_warp_uniform, loop_shared_bytes,
};

/// The loop's state in device memory, kept between launches.
#[repr(C)]
#[derive(Debug, Default)]
pub struct NearFarState<T> {
    /// Iterations completed (relax and split).
    pub iteration: T,
    /// The threshold `T`: near work is below it.
    pub threshold: T,
    /// Which far list the relax iterations append to (0 or 1).
    pub far_parity: T,
    /// The far list's epoch: a vertex enters the current far list only if its
    /// far stamp is not this yet (1 + the iteration of the last split, 1
    /// before the first).
    pub far_epoch: T,
    /// Length of the near worklists, by iteration mod 3 (the list itself by
    /// iteration parity).
    pub near_len: [T; 3],
    /// Length of the far lists, by far parity.
    pub far_len: [T; 2],
    /// Smallest distance written with an entry of each far list (an upper
    /// bound of its smallest current distance), by far parity.
    pub far_minimum: [T; 2],
    /// Chunks in the hub lists, by the iteration that filled them mod 3 (the
    /// list itself by iteration parity).
    pub hub_len: [T; 3],
}

/// `u32` words of a [`NearFarState`].
pub const NEAR_FAR_STATE_WORDS: usize = size_of::<NearFarState<u32>>() / 4;

const _: () = assert!(NEAR_FAR_STATE_WORDS == 14);

/// Dynamic shared memory of a loop block (`near_far_block_loop`,
/// `near_far_grid_loop`, with or without hubs): the team's warp slots, then
/// (the block loops only) the block's copy of the loop state.
pub const NEAR_FAR_SHARED_BYTES: u32 = loop_shared_bytes(NEAR_FAR_STATE_WORDS);

impl NearFarState<u32> {
    /// The state from its words, as the host copies them from the device.
    pub fn from_words(w: &[u32; NEAR_FAR_STATE_WORDS]) -> Self {
        NearFarState {
            iteration: w[0],
            threshold: w[1],
            far_parity: w[2],
            far_epoch: w[3],
            near_len: [w[4], w[5], w[6]],
            far_len: [w[7], w[8]],
            far_minimum: [w[9], w[10]],
            hub_len: [w[11], w[12], w[13]],
        }
    }

    /// Vertices waiting: the near worklist and the hubs left by the last
    /// iteration, or when both are empty the far pile. 0 once converged.
    pub fn work(&self) -> u32 {
        let i = self.iteration;
        let near = self.near_len[(i % 3) as usize] + self.hub_len[((i + 2) % 3) as usize];
        if near > 0 {
            near
        } else {
            self.far_len[(self.far_parity % 2) as usize]
        }
    }
}

/// The arrays of one near-far solve, as every thread sees them.
#[derive(Clone, Copy, Debug)]
pub struct Arrays<'a> {
    /// The successor CSR (`n` vertices).
    pub successors: Csr<'a>,
    /// Tentative distances (`n`).
    pub dist: &'a [AtomicU32],
    /// Per vertex, 1 + the last iteration whose near worklist it joined (`n`;
    /// 0 at the start of a solve).
    pub stamp: &'a [AtomicU32],
    /// Per vertex, the far epoch of the last far list it entered (`n`; 0 at
    /// the start of a solve).
    pub far_stamp: &'a [AtomicU32],
    /// The near worklists, by iteration parity (`n` slots each: the stamp lets
    /// a vertex in at most once per iteration).
    pub near: [&'a [AtomicU32]; 2],
    /// The far lists, by far parity (`n` slots each: the far stamp lets a
    /// vertex in at most once per list).
    pub far: [&'a [AtomicU32]; 2],
    /// The hub lists, by iteration parity: [`hub_slots`] chunk descriptors
    /// each, two words apiece (the vertex, the chunk's first edge).
    pub hubs: [&'a [AtomicU32]; 2],
    /// Near vertices of more out-edges than this are hubs.
    pub hub_degree: u32,
    /// No vertex farther than this is relaxed (module docs, *Early stop*; a
    /// distance word, [`INFINITY`]: no limit).
    pub limit: u32,
    /// Nor farther than this vertex's distance, or [`NO_TARGET`].
    pub target: u32,
    /// The counters.
    pub state: &'a NearFarState<AtomicU32>,
}

impl<'a> Arrays<'a> {
    /// The solve's bound now: the limit, or the target's distance where
    /// lower (module docs, *Early stop*).
    #[inline(always)]
    fn bound(&self) -> u32 {
        match self.target {
            NO_TARGET => self.limit,
            t => self.limit.min(self.dist[t as usize].load(Relaxed)),
        }
    }

    /// A branch rather than an index, so that the GPU keeps both slices in
    /// registers.
    #[inline(always)]
    fn near_list(&self, p: usize) -> &'a [AtomicU32] {
        if p == 0 { self.near[0] } else { self.near[1] }
    }

    #[inline(always)]
    fn far_list(&self, p: usize) -> &'a [AtomicU32] {
        if p == 0 { self.far[0] } else { self.far[1] }
    }

    #[inline(always)]
    fn hub_list(&self, p: usize) -> &'a [AtomicU32] {
        if p == 0 { self.hubs[0] } else { self.hubs[1] }
    }
}

/// Out-degree above which a near vertex is a hub, walked in chunks by the
/// whole team in the next iteration. At 128, its warp alone would take 4
/// steps, each a chain of L2 round trips, about a grid barrier's worth.
/// Measured (`SSSP_HUB_DEGREE`, docs/PERFORMANCE.md): 64 and 128 within 4%
/// of the best of 64–512 on GAPBS's Kronecker graphs; on soc-Epinions1 21%
/// faster than 256, though slower than 512, which is the Kronecker graphs'
/// worst of the four.
pub const HUB_DEGREE: u32 = 128;

/// Whether a graph with row offsets `offsets` gets the hub form of the loop
/// (`HUBS`): where vertices of more than [`HUB_DEGREE`] out-edges hold at
/// least 1/16 of the edges. Without hubs the form only costs registers
/// (road networks ran 8–22% slower with it); soc-Epinions1 (22.7% of its
/// edges in hubs) ran 15% faster and GAPBS's Kronecker graphs (60–70%) up
/// to 3.9× (docs/PERFORMANCE.md). Where between 0 and 22.7% the form starts
/// to pay was not measured: 1/16 is a guess.
pub fn wants_hubs(offsets: &[u32]) -> bool {
    let m = offsets.last().map_or(0, |&m| m as u64);
    let in_hubs: u64 = offsets
        .windows(2)
        .map(|w| (w[1] - w[0]) as u64)
        .filter(|&d| d > HUB_DEGREE as u64)
        .sum();
    m > 0 && 16 * in_hubs >= m
}

/// Edges of a hub chunk: a warp's 8 steps. The hubs of an iteration are cut
/// into chunks, which the next iteration deals to its warps.
pub const HUB_CHUNK: usize = 256;

/// Chunks each hub list holds for a graph of `n` vertices and `m` edges with
/// hubs above `hub_degree` out-edges (two words each: the vertex and its
/// chunk's first edge): a vertex joins one at most once per iteration (as it
/// joins the near list), at most `m / (hub_degree + 1)` vertices have that
/// many edges, and their edges make at most `m / HUB_CHUNK` full chunks and
/// one partial chunk per hub. At least 1.
pub fn hub_slots(n: usize, m: usize, hub_degree: u32) -> usize {
    (m / HUB_CHUNK + (m / (hub_degree as usize + 1)).min(n)).max(1)
}

/// Puts off this lane's `hub` (if any): reserves a slot for each of its
/// chunks at the end of `hubs` (counter `len`), one atomic per warp, and
/// writes their descriptors. Warp-wide.
#[inline(always)]
fn put_off(
    hub: Option<usize>,
    offsets: &[u32],
    (hubs, len): (&[AtomicU32], &AtomicU32),
    team: &impl Team,
) {
    let (start, chunks) = match hub {
        Some(u) => {
            let start = offsets[u] as usize;
            (
                start,
                (offsets[u + 1] as usize - start).div_ceil(HUB_CHUNK) as u32,
            )
        }
        None => (0, 0),
    };
    let warp_size = team.warp_size();
    let last = warp_size - 1;
    let sum = team.warp_inclusive_sum(chunks);
    let total = team.warp_shuffle(sum, last);
    if total == 0 {
        return;
    }
    let lane = team.thread() % warp_size;
    let base = if lane == last {
        len.fetch_add(total, Relaxed)
    } else {
        0
    };
    let mut slot = (team.warp_shuffle(base, last) + sum - chunks) as usize;
    if let Some(u) = hub {
        for c in 0..chunks as usize {
            hubs[2 * slot].store(u as u32, Relaxed);
            hubs[2 * slot + 1].store((start + c * HUB_CHUNK) as u32, Relaxed);
            slot += 1;
        }
    }
}

/// Sets vertex `v` unreached (or `source` at 0) and its stamps to 0 (one
/// thread per vertex).
#[inline(always)]
pub fn initialize_vertex(v: usize, source: usize, arrays: &Arrays<'_>) {
    arrays.dist[v].store(if v == source { 0 } else { INFINITY }, Relaxed);
    arrays.stamp[v].store(0, Relaxed);
    arrays.far_stamp[v].store(0, Relaxed);
}

/// The state at the start of a solve from `source` with band width `delta`
/// (one thread): the near worklist `[source]`, threshold `delta`.
#[inline(always)]
pub fn initialize_state(
    source: u32,
    delta: u32,
    near: &[AtomicU32],
    state: &NearFarState<AtomicU32>,
) {
    near[0].store(source, Relaxed);
    state.iteration.store(0, Relaxed);
    state.threshold.store(delta.max(1), Relaxed);
    state.far_parity.store(0, Relaxed);
    state.far_epoch.store(1, Relaxed);
    for (k, len) in state.near_len.iter().enumerate() {
        len.store(u32::from(k == 0), Relaxed);
    }
    for len in &state.far_len {
        len.store(0, Relaxed);
    }
    for minimum in &state.far_minimum {
        minimum.store(INFINITY, Relaxed);
    }
    for len in &state.hub_len {
        len.store(0, Relaxed);
    }
}

/// Where an improved or moved vertex goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Destination {
    Near(usize),
    Far(usize, u32),
}

/// Stamps `v` with `value` and says whether it was not stamped so yet. With
/// `exclusive` (no other thread can stamp `v` in this phase) a load and a
/// store, else an atomic exchange.
#[inline(always)]
fn stamp_first(stamp: &AtomicU32, value: u32, exclusive: bool) -> bool {
    if exclusive {
        let first = stamp.load(Relaxed) != value;
        stamp.store(value, Relaxed);
        first
    } else {
        stamp.swap(value, Relaxed) != value
    }
}

/// Appends the lanes' vertices to the near list `near` (counter `near_len`;
/// each vertex only if its stamp was not `stamp_value` yet) or the far list
/// `far` (counter `far_len`; only if its far stamp was not `far_epoch` yet).
/// `exclusive`: each vertex comes from one thread only in this phase (a
/// split reads a far list without duplicates). Every far vertex's distance
/// lowers `far_minimum` (a load first: most do not lower it; a block-wide
/// reduction per phase instead measured slower on road networks, whose
/// iterations are short). Warp-wide.
#[inline(always)]
fn append(
    destination: Option<Destination>,
    (stamp_value, far_epoch, exclusive): (u32, u32, bool),
    arrays: &Arrays<'_>,
    (near, near_len): (&[AtomicU32], &AtomicU32),
    (far, far_len, far_minimum): (&[AtomicU32], &AtomicU32, &AtomicU32),
    team: &impl Team,
) {
    let near_vertex = match destination {
        Some(Destination::Near(v)) if stamp_first(&arrays.stamp[v], stamp_value, exclusive) => {
            Some(v)
        }
        _ => None,
    };
    let near_slot = team.reserve_where(near_vertex.is_some(), near_len) as usize;
    if let Some(v) = near_vertex {
        near[near_slot].store(v as u32, Relaxed);
    }
    let far_vertex = match destination {
        Some(Destination::Far(v, _)) if stamp_first(&arrays.far_stamp[v], far_epoch, exclusive) => {
            Some(v)
        }
        _ => None,
    };
    let far_slot = team.reserve_where(far_vertex.is_some(), far_len) as usize;
    if let Some(v) = far_vertex {
        far[far_slot].store(v as u32, Relaxed);
    }
    if let Some(Destination::Far(_, d)) = destination
        && d < far_minimum.load(Relaxed)
    {
        far_minimum.fetch_min(d, Relaxed);
    }
}

/// The whole loop for one thread of `team` (see the module docs), from the
/// state in `arrays.state` until convergence or until, at the start of an
/// iteration, the waiting work ([`NearFarState::work`]) leaves
/// `min_work..=max_work`. Every thread of the team must call it with the same
/// arguments; all return the same value after the same barriers.
///
/// `HUBS`: whether near vertices of more than `arrays.hub_degree` edges are
/// put off as hubs. Without, the hub lists are not touched, and the loop
/// keeps the registers they would take: for graphs without such vertices
/// (road networks, meshes), whose iterations are latency, not work.
#[inline(always)]
pub fn thread_loop<W: Weight, const HUBS: bool>(
    arrays: Arrays<'_>,
    delta: u32,
    min_work: u32,
    max_work: u32,
    team: &impl Team,
) -> Exit {
    let state = arrays.state;
    let thread = team.thread();
    let mut i = state.iteration.load(Relaxed);
    let mut threshold = state.threshold.load(Relaxed);
    let mut f = state.far_parity.load(Relaxed) as usize % 2;
    let mut far_epoch = state.far_epoch.load(Relaxed);
    let delta = delta.max(1);
    let mut bound = arrays.bound();
    let exit = loop {
        let near_len = state.near_len[(i % 3) as usize].load(Relaxed) as usize;
        let hub_len = if HUBS {
            state.hub_len[((i + 2) % 3) as usize].load(Relaxed) as usize
        } else {
            0
        };
        let far_len = state.far_len[f].load(Relaxed) as usize;
        if near_len == 0 && hub_len == 0 && far_len == 0 {
            break Exit::Converged;
        }
        let work = if near_len + hub_len > 0 {
            near_len + hub_len
        } else {
            far_len
        } as u32;
        if work < min_work || work > max_work {
            break Exit::OutOfRange;
        }
        let next_near = arrays.near_list(((i + 1) % 2) as usize);
        let next_near_len = &state.near_len[((i + 1) % 3) as usize];
        let stamp_value = i + 1;
        if thread == 0 {
            state.near_len[((i + 2) % 3) as usize].store(0, Relaxed);
            if HUBS {
                state.hub_len[((i + 1) % 3) as usize].store(0, Relaxed);
            }
        }
        if near_len + hub_len > 0 {
            // Relax iteration.
            let far = (arrays.far_list(f), &state.far_len[f], &state.far_minimum[f]);
            let relax = |edge: Option<(usize, u32, u32)>| {
                let mut destination = None;
                if let Some((v, w, dist_u)) = edge {
                    let candidate = W::extend(dist_u, w);
                    if candidate < arrays.dist[v].load(Relaxed)
                        && candidate < arrays.dist[v].fetch_min(candidate, Relaxed)
                    {
                        destination = if candidate > bound {
                            None
                        } else if candidate < threshold {
                            Some(Destination::Near(v))
                        } else {
                            Some(Destination::Far(v, candidate))
                        };
                    }
                }
                append(
                    destination,
                    (stamp_value, far_epoch, false),
                    &arrays,
                    (next_near, next_near_len),
                    far,
                    team,
                );
            };
            // The last iteration's hubs, in chunks of HUB_CHUNK edges dealt
            // to the warps: a hub of any size spreads over the team.
            let hubs = arrays.hub_list(((i + 1) % 2) as usize);
            let warp_size = team.warp_size();
            let (warp, lane) = (thread / warp_size, thread % warp_size);
            let warps = team.threads() / warp_size;
            let mut chunk = warp;
            while chunk < hub_len {
                let u = hubs[2 * chunk].load(Relaxed) as usize;
                let first = hubs[2 * chunk + 1].load(Relaxed) as usize;
                let end = (arrays.successors.offsets[u + 1] as usize).min(first + HUB_CHUNK);
                let dist_u = arrays.dist[u].load(Relaxed);
                // Whole steps up to the chunk's end, alike for the warp.
                let stop = first + end.saturating_sub(first).div_ceil(warp_size) * warp_size;
                let mut e = first + lane;
                while e < stop {
                    let s = arrays.successors;
                    relax((e < end).then(|| (s.targets[e] as usize, s.weights[e], dist_u)));
                    e += warp_size;
                }
                chunk += warps;
            }
            // The near list; its hubs wait for the next iteration, a
            // descriptor (vertex, first edge) per chunk.
            let near = arrays.near_list((i % 2) as usize);
            let new_hubs = arrays.hub_list((i % 2) as usize);
            let new_hub_len = &state.hub_len[(i % 3) as usize];
            for_each_warp_uniform(near_len, team, |k| {
                let u = k.map(|k| near[k].load(Relaxed) as usize);
                let (successors, dist) = (arrays.successors, arrays.dist);
                let hub_degree = if HUBS { arrays.hub_degree } else { u32::MAX };
                let hub =
                    for_each_edge_of_warp_but_hubs(u, successors, dist, team, hub_degree, relax);
                if HUBS {
                    put_off(hub, successors.offsets, (new_hubs, new_hub_len), team);
                }
            });
        } else {
            // Split iteration: the next band, with the bound as it is now.
            bound = arrays.bound();
            let old_threshold = threshold;
            far_epoch = i + 2;
            let far_minimum = state.far_minimum[f].load(Relaxed);
            // `T + Δ` may round back to `T` for floats; the word after the far
            // minimum (the next float up, for `f32`) always moves on.
            threshold = W::extend(threshold, delta).max(far_minimum.saturating_add(1));
            if thread == 0 {
                state.far_len[1 - f].store(0, Relaxed);
                state.far_minimum[1 - f].store(INFINITY, Relaxed);
            }
            team.barrier();
            let (far, kept) = (arrays.far_list(f), arrays.far_list(1 - f));
            let kept = (kept, &state.far_len[1 - f], &state.far_minimum[1 - f]);
            for_each_warp_uniform(far_len, team, |k| {
                let destination = k.and_then(|k| {
                    let v = far[k].load(Relaxed) as usize;
                    let d = arrays.dist[v].load(Relaxed);
                    if d < old_threshold || d > bound {
                        None
                    } else if d < threshold {
                        Some(Destination::Near(v))
                    } else {
                        Some(Destination::Far(v, d))
                    }
                });
                append(
                    destination,
                    (stamp_value, far_epoch, true),
                    &arrays,
                    (next_near, next_near_len),
                    kept,
                    team,
                );
            });
            f = 1 - f;
        }
        i += 1;
        team.barrier();
    };
    if thread == 0 {
        state.iteration.store(i, Relaxed);
        state.threshold.store(threshold, Relaxed);
        state.far_parity.store(f as u32, Relaxed);
        state.far_epoch.store(far_epoch, Relaxed);
    }
    exit
}

/// The band width `Δ` (a weight word of `W`) chosen from the graph:
/// `32 · mean weight / typical degree` (at least the smallest positive word),
/// Davidson et al.'s rule of thumb: about a warp's worth of edges settled per
/// band and vertex of the frontier. The typical degree is the smaller of the
/// mean out-degree and the median out-degree of the vertices with edges
/// ([`median_positive_degree`]): where a few hubs hold most edges (Kronecker
/// and social graphs) the mean is theirs, while the hub form of the loop
/// walks the hubs' edges together and the band should suit the rest.
pub fn auto_delta<W: Weight>(successors: Csr<'_>) -> u32 {
    let (n, m) = (successors.num_vertices(), successors.num_edges());
    if n == 0 || m == 0 {
        return 1;
    }
    let mean_degree = m as f64 / n as f64;
    let degree = median_positive_degree(successors.offsets)
        .map_or(mean_degree, |median| mean_degree.min(median as f64));
    scaled_mean_weight::<W>(successors.weights, 32.0, degree)
}

/// Out-degrees up to which [`median_positive_degree`] counts each value.
const DEGREE_BINS: usize = 256;

/// The median out-degree of the vertices with at least one edge, from CSR
/// `offsets`; `None` when no vertex has an edge or the median is above
/// [`DEGREE_BINS`] (a dense graph, where the mean serves as well). One pass,
/// no allocation.
pub fn median_positive_degree(offsets: &[u32]) -> Option<u32> {
    // `count[d]` for degrees 1..=DEGREE_BINS, the last word for all above.
    let mut count = [0u32; DEGREE_BINS + 2];
    let mut with_edges = 0u32;
    for pair in offsets.windows(2) {
        let degree = pair[1].saturating_sub(pair[0]) as usize;
        if degree > 0 {
            count[degree.min(DEGREE_BINS + 1)] += 1;
            with_edges += 1;
        }
    }
    let middle = with_edges.div_ceil(2);
    let mut seen = 0;
    for (degree, &c) in count.iter().enumerate().take(DEGREE_BINS + 1).skip(1) {
        seen += c;
        if seen >= middle && with_edges > 0 {
            return Some(degree as u32);
        }
    }
    None
}
