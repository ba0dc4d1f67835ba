//! Per-thread logic of "Algorithm 1: dijkstra GPU SSSP" (paper `001`): despite its
//! name, a Bellman-Ford-style loop that runs whole inside one kernel launch.
//!
//! A fixed set of threads strides over the vertices (`u = tid; u += stride`).
//! Each round has two phases separated by barriers:
//! 1. *relax*: every vertex whose distance changed in the last round (at first
//!    only the source) lowers `predist(v)` of each successor `v` to
//!    `dist(u) + w` with an atomic minimum ([`relax_changed_vertex`]);
//! 2. *commit*: every vertex takes `predist(u)` into `dist(u)` where it is
//!    smaller, is marked changed, and raises the round's flag ([`commit_vertex`]).
//!
//! The loop ends after a round that changed nothing. The paper's form uses one
//! block and `__syncthreads()`; the grid form uses all co-resident blocks and a
//! grid-wide barrier. [`thread_loop`] is the whole kernel body, generic over the
//! barrier, so that both kernels (and CPU threads, in the tests) run the same
//! code.
//!
//! Ownership: with the strided mapping, thread `tid` alone touches `dist(u)` and
//! `changed(u)` of its vertices `u ≡ tid (mod stride)`; only `predist` is written
//! by several threads (atomic minimum) in the relax phase, and read by its owner
//! in the commit phase, on the other side of a barrier. The arrays are slices of
//! atomics all the same (relaxed accesses: `ld.relaxed`/`st.relaxed` on the
//! GPU), so that every thread may hold a view of the whole array.
//!
//! Since `dist` does not change during the relax phase and the atomic minima
//! commute, each round is a deterministic function of the last: after round `k`,
//! `dist` is the synchronous (Jacobi) Bellman-Ford iterate `D_k`, whatever the
//! number of threads or the order of the atomics, so every form takes the same
//! number of rounds as the CPU model.
//!
//! Distances use the weight type's
//! [`Weight::extend`]: `dist + w` saturates
//! to [`SATURATED`](crate::distance::SATURATED) and never wraps; `INFINITY`
//! stays `INFINITY`.

use core::sync::atomic::Ordering::Relaxed;
use core::sync::atomic::{AtomicU8, AtomicU32};

use crate::csr::Csr;
use crate::distance::{INFINITY, Weight};

/// A set flag (`changed`, or the round's flag).
pub const TRUE: u8 = 1;
/// A cleared flag.
pub const FALSE: u8 = 0;

/// The round flags, "did some distance change in this round": two of them, used
/// alternately by round parity (see [`thread_loop`] for why). On the GPU they
/// live in shared memory (one block) or global memory (the grid form).
pub type RoundFlags = [AtomicU32; 2];

/// The arrays of one solve, as every thread sees them.
#[derive(Clone, Copy, Debug)]
pub struct Arrays<'a> {
    /// The successor CSR of the graph (`n` vertices).
    pub successors: Csr<'a>,
    /// The distance of each vertex (`n`).
    pub dist: &'a [AtomicU32],
    /// The tentative distance of each vertex for the next round (`n`), lowered
    /// with atomic minima.
    pub predist: &'a [AtomicU32],
    /// Whether the distance of each vertex changed in the last round (`n`,
    /// [`TRUE`] or [`FALSE`]).
    pub changed: &'a [AtomicU8],
}

/// `initial` (lines 2–7) for vertex `u`: distance infinity, except 0 at
/// `source`; `predist` equal to `dist`; only the source marked changed, so that
/// the first round relaxes its edges.
#[inline(always)]
pub fn initialize_vertex(
    u: usize,
    source: usize,
    dist: &[AtomicU32],
    predist: &[AtomicU32],
    changed: &[AtomicU8],
) {
    let is_source = u == source;
    let d = if is_source { 0 } else { INFINITY };
    dist[u].store(d, Relaxed);
    predist[u].store(d, Relaxed);
    changed[u].store(if is_source { TRUE } else { FALSE }, Relaxed);
}

/// The relax phase (lines 20–28) for vertex `u`: if `u` changed in the last
/// round, clear its mark and lower `predist(v)` of each successor `v` to
/// `dist(u) + w` with an atomic minimum (several vertices may share `v`).
///
/// Only the thread that owns `u` may call it for `u` in a round.
#[inline(always)]
pub fn relax_changed_vertex<W: Weight>(
    u: usize,
    successors: Csr<'_>,
    dist: &[AtomicU32],
    predist: &[AtomicU32],
    changed: &[AtomicU8],
) {
    if changed[u].load(Relaxed) == FALSE {
        return;
    }
    changed[u].store(FALSE, Relaxed);
    let dist_u = dist[u].load(Relaxed);
    for (v, w) in successors.edges(u) {
        predist[v].fetch_min(W::extend(dist_u, w), Relaxed);
    }
}

/// The commit phase (lines 33–40) for vertex `u`: if `predist(u) < dist(u)`,
/// copy it into `dist(u)` and mark `u` changed. Returns whether it changed.
///
/// Only the thread that owns `u` may call it for `u` in a round, and no thread
/// may lower `predist` meanwhile (a barrier separates the phases).
#[inline(always)]
pub fn commit_vertex(
    u: usize,
    dist: &[AtomicU32],
    predist: &[AtomicU32],
    changed: &[AtomicU8],
) -> bool {
    let candidate = predist[u].load(Relaxed);
    if candidate < dist[u].load(Relaxed) {
        dist[u].store(candidate, Relaxed);
        changed[u].store(TRUE, Relaxed);
        true
    } else {
        false
    }
}

/// Calls `f(u)` for each vertex `u < n` of thread `thread`: `thread`,
/// `thread + stride`, … (lines 20 and 27 of the paper).
#[inline(always)]
pub fn for_each_vertex(thread: usize, stride: usize, n: usize, mut f: impl FnMut(usize)) {
    let mut u = thread;
    while u < n {
        f(u);
        u += stride;
    }
}

/// The whole kernel body for thread `thread` of `stride` threads: initialize this
/// thread's vertices, then rounds of relax / barrier / commit / barrier until a
/// round changes nothing. Returns the number of rounds (the last one, which
/// changes nothing, included; at least 1).
///
/// `barrier()` must be a barrier over all `stride` threads that orders memory
/// (everything a thread wrote before it is visible to every thread after it),
/// and every thread must call `thread_loop` with the same `stride`, `source`,
/// `arrays` and `flags`: then every thread calls `barrier` the same number of
/// times and all return the same count.
///
/// The paper's loop has a race on its single flag: a thread that starts the
/// next round resets it to 0 (line 17) while a slower thread has still to test
/// it (line 14); that one then leaves the loop while the others go on, and the
/// barriers no longer match (a hang, or wrong distances). Here round `r`
/// raises and tests `flags[r % 2]`. No thread writes it between the second
/// barrier of round `r` and the first barrier of round `r + 1`, the window in
/// which every thread tests it, so all threads decide alike. The flag of round
/// `r + 1` (the one of round `r - 1`) is cleared by thread 0 in the commit
/// phase of round `r`: after the first barrier of round `r`, so after every
/// thread has tested it at the end of round `r - 1`; and before the second
/// barrier of round `r`, so before any thread raises it in the commit phase of
/// round `r + 1`. Thread 0 clears both flags before the initial barrier (shared
/// memory starts undefined).
#[inline(always)]
pub fn thread_loop<W: Weight>(
    thread: usize,
    stride: usize,
    source: usize,
    arrays: Arrays<'_>,
    flags: &RoundFlags,
    mut barrier: impl FnMut(),
) -> u32 {
    let Arrays {
        successors,
        dist,
        predist,
        changed,
    } = arrays;
    let n = dist.len();
    for_each_vertex(thread, stride, n, |u| {
        initialize_vertex(u, source, dist, predist, changed)
    });
    if thread == 0 {
        flags[0].store(FALSE as u32, Relaxed);
        flags[1].store(FALSE as u32, Relaxed);
    }
    barrier();
    let mut round: u32 = 0;
    loop {
        let flag = &flags[(round % 2) as usize];
        let next_flag = &flags[((round + 1) % 2) as usize];
        round += 1;
        for_each_vertex(thread, stride, n, |u| {
            relax_changed_vertex::<W>(u, successors, dist, predist, changed)
        });
        barrier();
        if thread == 0 {
            next_flag.store(FALSE as u32, Relaxed);
        }
        let mut any_changed = false;
        for_each_vertex(thread, stride, n, |u| {
            any_changed |= commit_vertex(u, dist, predist, changed)
        });
        // One store per thread rather than per changed vertex (the paper's
        // line 36): the same flag, less traffic on one address.
        if any_changed {
            flag.store(TRUE as u32, Relaxed);
        }
        barrier();
        if flag.load(Relaxed) == FALSE as u32 {
            return round;
        }
    }
}
