//! Per-thread logic of a work-efficient DA2CF that keeps its sets as compacted
//! queues and runs its whole loop on the device (beyond the papers).
//!
//! It settles exactly the frontiers of DA2CF (Martín's rule: every unsettled
//! vertex at the smallest tentative distance) or of Crauser's general rule
//! (every unsettled vertex with `dist <= min(dist(u) + Δ_node(u))`), so it takes
//! the same iterations; what changes is the work per iteration:
//! - the frontier `F` is a list of vertex ids, so relaxation costs the
//!   frontier's edges, not a thread per vertex of the graph;
//! - the reached-but-unsettled vertices `R` are a list too, so the minimum and
//!   the update scan `R`, not all `n`;
//! - the minimum and the update are one pass over `R`, and the threshold of the
//!   next iteration needs no pass of its own (see below);
//! - no settled flags: a settled vertex `v` has its exact distance, so
//!   `dist(u) + w(u, v) >= dist(v)` for every edge and relaxation never lowers it.
//!   One load of `dist(v)` both skips settled vertices and non-improving edges.
//!
//! # One iteration `i`: two phases, two barriers
//! - **relax** (`F_i` → tentative distances): every frontier vertex lowers
//!   `dist(v)` of its successors with an atomic minimum, skipping edges that do
//!   not improve. The thread whose minimum took `v` from infinity appends `v` to
//!   `R` (exactly one thread sees the old value infinity). Each thread keeps the
//!   smallest key (`dist`, or `dist + Δ_node` for Crauser) it wrote.
//! - **update** (`R` → `F_{i+1}`, `R'`): the threshold `Δ_{i+1}` is the minimum
//!   of two partial minima: the keys written in this relax phase, and the keys of
//!   the vertices kept in `R` by the last update. A kept vertex whose distance
//!   relax lowered appears in the first with its new key and in the second with
//!   a larger old one, so the minimum of both is the minimum over `R` now. Each
//!   vertex of `R` goes to `F_{i+1}` if `dist <= Δ_{i+1}`, else to `R'`, whose
//!   keys the pass reduces for the next threshold.
//!
//! The loop ends when a frontier is empty (or the threshold is infinite: what is
//! left cannot change). Iterations count relax phases, as in the papers.
//!
//! # Shared state and races
//! The counters live in [`LoopState`]; by iteration parity or modulo 3 each is
//! written in one phase and read in the next, and reset by thread 0 two phases
//! after its last read, so no thread ever reads a counter that another phase is
//! changing (the comments of [`thread_loop`] give the schedule). The loop is
//! generic over a [`Team`]: one GPU block, the whole grid (grid barrier), or CPU
//! threads in the tests.

use core::sync::atomic::AtomicU32;
use core::sync::atomic::Ordering::Relaxed;

use crate::crauser::threshold;
use crate::csr::Csr;
use crate::distance::{INFINITY, Weight};
use crate::team::{Exit, Team, for_each_edge_of_warp, for_each_warp_uniform, loop_shared_bytes};

/// The loop's counters, in device memory, shared by all threads and kept
/// between launches: a solve may run in several launches (one block while the
/// sets are small, the whole grid while they are large), each resuming where
/// the last stopped.
#[repr(C)]
#[derive(Debug, Default)]
pub struct LoopState<T> {
    /// Relax phases completed.
    pub iteration: T,
    /// Length of the frontier list, by iteration parity.
    pub frontier_len: [T; 2],
    /// Vertices kept in the reached-unsettled list `reached[p]` by the last
    /// update, at its bottom (`reached[p][..kept_len[p]]`), by parity.
    pub kept_len: [T; 2],
    /// Vertices appended to `reached[p]` by the relax phase, at its top
    /// (`reached[p][n - appended_len[p]..]`), by parity. Two ends, two
    /// counters: the relax phase never changes `kept_len`, which every thread
    /// reads at the start of the iteration to decide whether to go on.
    pub appended_len: [T; 2],
    /// Smallest key kept in `R` by an update, by the iteration it serves, mod 3.
    pub kept_minimum: [T; 3],
    /// Smallest key written by a relax phase, by the iteration it serves, mod 3.
    pub relaxed_minimum: [T; 3],
}

/// `u32` words of a [`LoopState`].
pub const LOOP_STATE_WORDS: usize = size_of::<LoopState<u32>>() / 4;

impl LoopState<u32> {
    /// The state from its words, as the host copies them from the device.
    pub fn from_words(w: &[u32; LOOP_STATE_WORDS]) -> Self {
        LoopState {
            iteration: w[0],
            frontier_len: [w[1], w[2]],
            kept_len: [w[3], w[4]],
            appended_len: [w[5], w[6]],
            kept_minimum: [w[7], w[8], w[9]],
            relaxed_minimum: [w[10], w[11], w[12]],
        }
    }

    /// Length of the frontier the next iteration relaxes; 0 once converged.
    pub fn frontier(&self) -> u32 {
        self.frontier_len[(self.iteration % 2) as usize]
    }

    /// Length of the reached-unsettled list before the next relax phase.
    pub fn reached(&self) -> u32 {
        self.kept_len[(self.iteration % 2) as usize]
    }

    /// The work [`thread_loop`] weighs against its launch's range: the
    /// frontier and the reached list; 0 once converged (empty frontier).
    pub fn work(&self) -> u32 {
        match self.frontier() {
            0 => 0,
            frontier => frontier.saturating_add(self.reached()),
        }
    }
}

const _: () = assert!(LOOP_STATE_WORDS == 13);

/// Dynamic shared memory of a loop block (`compact_block_loop`,
/// `compact_grid_loop`): the team's warp slots, then (the block loop only)
/// the block's copy of the loop state.
pub const COMPACT_SHARED_BYTES: u32 = loop_shared_bytes(LOOP_STATE_WORDS);

/// The arrays of one compact-frontier solve, as every thread sees them.
#[derive(Clone, Copy, Debug)]
pub struct Arrays<'a> {
    /// The successor CSR (`n` vertices).
    pub successors: Csr<'a>,
    /// `Δ_node` per vertex for Crauser's rule (`n`), empty for Martín's.
    pub delta_node: &'a [u32],
    /// Tentative distances (`n`).
    pub dist: &'a [AtomicU32],
    /// The frontier list (`n` slots).
    pub frontier: &'a [AtomicU32],
    /// The reached-unsettled lists, by iteration parity (`n` slots each).
    pub reached: [&'a [AtomicU32]; 2],
    /// The counters.
    pub state: &'a LoopState<AtomicU32>,
}

impl<'a> Arrays<'a> {
    /// The reached list of iteration parity `p` (a branch rather than an
    /// index, so that the GPU keeps both slices in registers instead of
    /// spilling the array to local memory to index it).
    #[inline(always)]
    fn reached_list(&self, p: usize) -> &'a [AtomicU32] {
        if p == 0 {
            self.reached[0]
        } else {
            self.reached[1]
        }
    }

    /// The key a vertex at distance `d` brings to the threshold.
    #[inline(always)]
    fn key<W: Weight>(&self, v: usize, d: u32) -> u32 {
        if self.delta_node.is_empty() {
            d
        } else {
            threshold::<W>(d, self.delta_node[v])
        }
    }
}

/// Sets vertex `v` unreached, or `source` at distance 0 (one thread per vertex).
#[inline(always)]
pub fn initialize_vertex(v: usize, source: usize, dist: &[AtomicU32]) {
    dist[v].store(if v == source { 0 } else { INFINITY }, Relaxed);
}

/// The state at the start of a solve from `source` (one thread): iteration 0,
/// the frontier `[source]`, nothing reached, minima infinite.
#[inline(always)]
pub fn initialize_state(source: u32, frontier: &[AtomicU32], state: &LoopState<AtomicU32>) {
    frontier[0].store(source, Relaxed);
    state.iteration.store(0, Relaxed);
    state.frontier_len[0].store(1, Relaxed);
    state.frontier_len[1].store(0, Relaxed);
    for len in state.kept_len.iter().chain(&state.appended_len) {
        len.store(0, Relaxed);
    }
    for minimum in state.kept_minimum.iter().chain(&state.relaxed_minimum) {
        minimum.store(INFINITY, Relaxed);
    }
}

/// Relax phase for frontier vertex `u` (`None`: a lane without one, which
/// joins its warp's calls): lowers `dist(v)` of each successor where
/// `dist(u) + w` improves it; appends `v` to the top of `reached`
/// (`appended_len` entries there) when a thread took it from infinity.
/// Returns the smallest key this thread wrote (infinity if none). Warp-wide
/// ([`for_each_edge_of_warp`]).
#[inline(always)]
pub fn relax_vertex<W: Weight>(
    u: Option<usize>,
    arrays: &Arrays<'_>,
    reached: &[AtomicU32],
    appended_len: &AtomicU32,
    team: &impl Team,
) -> u32 {
    let dist = arrays.dist;
    let mut smallest = INFINITY;
    for_each_edge_of_warp(u, arrays.successors, dist, team, |edge| {
        let mut newly_reached = None;
        if let Some((v, w, dist_u)) = edge {
            let candidate = W::extend(dist_u, w);
            if candidate < dist[v].load(Relaxed) {
                let old = dist[v].fetch_min(candidate, Relaxed);
                if candidate < old {
                    smallest = smallest.min(arrays.key::<W>(v, candidate));
                    if old == INFINITY {
                        newly_reached = Some(v);
                    }
                }
            }
        }
        let slot = team.reserve_where(newly_reached.is_some(), appended_len) as usize;
        if let Some(v) = newly_reached {
            reached[reached.len() - 1 - slot].store(v as u32, Relaxed);
        }
    });
    smallest
}

/// Update for `v`, a vertex of `R` (`None`: a lane without one, which joins
/// its warp's calls): to the frontier if `dist(v) <= delta`, else kept in
/// `kept`. Returns the key it keeps (infinity if none).
#[inline(always)]
pub fn update_vertex<W: Weight>(
    v: Option<usize>,
    delta: u32,
    arrays: &Arrays<'_>,
    frontier_len: &AtomicU32,
    kept: &[AtomicU32],
    kept_len: &AtomicU32,
    team: &impl Team,
) -> u32 {
    let d = v.map_or(INFINITY, |v| arrays.dist[v].load(Relaxed));
    let settle = v.is_some() && d <= delta;
    let keep = v.is_some() && d > delta;
    let frontier_slot = team.reserve_where(settle, frontier_len) as usize;
    let kept_slot = team.reserve_where(keep, kept_len) as usize;
    match v {
        Some(v) if settle => {
            arrays.frontier[frontier_slot].store(v as u32, Relaxed);
            INFINITY
        }
        Some(v) => {
            kept[kept_slot].store(v as u32, Relaxed);
            arrays.key::<W>(v, d)
        }
        None => INFINITY,
    }
}

/// The whole loop for one thread of `team`, from the iteration in
/// `arrays.state` until convergence or until, at the start of an iteration, the
/// frontier and `R` together hold fewer than `min_work` or more than `max_work`
/// vertices (then another team resumes). Every thread of the team must call it
/// with the same arguments; all return the same value, after the same number
/// of barriers. Thread 0 stores the iteration reached in `state.iteration`.
///
/// Schedule (iteration `i`, `p = i % 2`, `s = (i + 1) % 3`):
/// - start: read `frontier_len[p]` and `kept_len[p]` (written before the
///   last barrier, unchanged until the next);
/// - relax: read `frontier[..frontier_len[p]]`; append to the top of
///   `reached[p]` (`appended_len[p]`); lower `relaxed_minimum[s]`. Thread 0
///   resets `frontier_len[1 - p]`, `kept_len[1 - p]`, `appended_len[1 - p]`
///   (last read in iteration `i - 1`) and slot `(i + 2) % 3` of both minima
///   (last read in iteration `i - 2`);
/// - barrier;
/// - update: `Δ = min(kept_minimum[s], relaxed_minimum[s])`; read the bottom
///   (`kept_len[p]`) and top (`appended_len[p]`) of `reached[p]`; write
///   `frontier` and the bottom of `reached[1 - p]`; lower
///   `kept_minimum[(i + 2) % 3]`;
/// - barrier.
#[inline(always)]
pub fn thread_loop<W: Weight>(
    arrays: Arrays<'_>,
    min_work: u32,
    max_work: u32,
    team: &impl Team,
) -> Exit {
    let state = arrays.state;
    let thread = team.thread();
    let mut i = state.iteration.load(Relaxed);
    let exit = loop {
        let p = (i % 2) as usize;
        let frontier_len = state.frontier_len[p].load(Relaxed);
        if frontier_len == 0 {
            break Exit::Converged;
        }
        let work = frontier_len.saturating_add(state.kept_len[p].load(Relaxed));
        if work < min_work || work > max_work {
            break Exit::OutOfRange;
        }
        let s = ((i + 1) % 3) as usize;
        let stale = ((i + 2) % 3) as usize;
        if thread == 0 {
            state.frontier_len[1 - p].store(0, Relaxed);
            state.kept_len[1 - p].store(0, Relaxed);
            state.appended_len[1 - p].store(0, Relaxed);
            state.kept_minimum[stale].store(INFINITY, Relaxed);
            state.relaxed_minimum[stale].store(INFINITY, Relaxed);
        }

        // Relax.
        let reached = arrays.reached_list(p);
        let mut smallest = INFINITY;
        for_each_warp_uniform(frontier_len as usize, team, |k| {
            let u = k.map(|k| arrays.frontier[k].load(Relaxed) as usize);
            let key = relax_vertex::<W>(u, &arrays, reached, &state.appended_len[p], team);
            smallest = smallest.min(key);
        });
        team.minimum_into(smallest, &state.relaxed_minimum[s]);
        team.barrier();

        // Update.
        let delta = state.kept_minimum[s]
            .load(Relaxed)
            .min(state.relaxed_minimum[s].load(Relaxed));
        let mut smallest = INFINITY;
        // An infinite threshold: nothing left can change (Crauser's rule with
        // only sinks left), so the next frontier stays empty.
        if delta != INFINITY {
            let kept = state.kept_len[p].load(Relaxed) as usize;
            let appended = state.appended_len[p].load(Relaxed) as usize;
            let top = reached.len() - appended;
            // The entries of `R`: the bottom `0..kept`, then the top
            // `top..n`, as one index range `0..kept + appended`.
            for_each_warp_uniform(kept + appended, team, |k| {
                let v = k.map(|k| {
                    let entry = if k < kept { k } else { top + (k - kept) };
                    reached[entry].load(Relaxed) as usize
                });
                let key = update_vertex::<W>(
                    v,
                    delta,
                    &arrays,
                    &state.frontier_len[1 - p],
                    arrays.reached_list(1 - p),
                    &state.kept_len[1 - p],
                    team,
                );
                smallest = smallest.min(key);
            });
        }
        team.minimum_into(smallest, &state.kept_minimum[stale]);
        i += 1;
        team.barrier();
    };
    if thread == 0 {
        state.iteration.store(i, Relaxed);
    }
    exit
}
