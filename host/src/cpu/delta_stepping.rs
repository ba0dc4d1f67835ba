//! `delta-cpu`: parallel Δ-stepping on the CPU's cores (rayon), the solver
//! used where there is no GPU.
//!
//! The shape of GAPBS's `sssp` (Beamer et al.), written anew: buckets of
//! width Δ processed in order; the current bucket's vertices form a shared
//! frontier that the threads take in chunks; a relaxation lowers the head's
//! distance with an atomic minimum and puts the head into the relaxing
//! thread's own bin for its new bucket; after the frontier, a thread keeps
//! relaxing its own bin of the current bucket while that bin is small
//! ("bucket fusion": no barrier for the many tiny rounds of road networks);
//! then the smallest non-empty bucket over all threads becomes the next
//! frontier: every thread offers its smallest bucket, and after a barrier
//! publishes its own bin of the chosen one as its part of the frontier, so
//! that no thread works alone between rounds. Stale entries (a vertex whose
//! distance has since left the bucket) are skipped; duplicate entries only
//! repeat work.
//!
//! Buckets are `⌊d / Δ⌋` of the distance's value, so any weight type works
//! (for `f32`, the real value over the real Δ). Each thread keeps a window of
//! [`WINDOW`] buckets from the current one and a *far* list beyond it, which
//! is re-binned when the window runs dry: distances up to `u32::MAX` with
//! Δ = 1 need no bins for every bucket in between.

use std::cell::UnsafeCell;
use std::collections::VecDeque;
use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, SeqCst};
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize};
use std::sync::{Condvar, Mutex};

use gpu_kernels::distance::{INFINITY, Weight};

use crate::graph::{Graph, with_weight_type};
use crate::solver::Stop;
use crate::{Error, Result, distances};
use gpu_kernels::csr::Csr;

/// What one solve returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeltaStepping {
    /// One distance word per vertex, [`INFINITY`] when unreached or beyond
    /// the stop's bound.
    pub dist: Vec<u32>,
    /// Rounds: frontiers processed by all threads together (buckets, and
    /// repeated rounds of a bucket that fusion did not empty).
    pub rounds: u32,
}

/// Buckets each thread bins directly; farther ones wait in its far list.
pub const WINDOW: usize = 1024;

/// A thread keeps relaxing its own bin of the current bucket, without a
/// barrier, while the bin holds fewer vertices than this.
const FUSION_LIMIT: usize = 1000;

/// Frontier vertices a thread takes at a time.
const CHUNK: usize = 64;

/// Solves from `source` with bucket width `delta` (a positive weight word of
/// the graph's kind; default: [`default_delta`]) on the threads of rayon's
/// current pool ([`threads_for_pool`]), stopping early as `stop` allows:
/// once every remaining bucket lies beyond the limit, or once the target's
/// bucket is done. The distances come back bounded as [`Stop::apply`] says.
/// A distance too large for the weight type is [`Error::DistanceOverflow`].
pub fn delta_stepping(
    graph: &Graph,
    source: usize,
    delta: Option<u32>,
    stop: Stop,
) -> Result<DeltaStepping> {
    distances::check_source(graph, source)?;
    if let Some(t) = stop.target.filter(|&t| t >= graph.num_vertices()) {
        return Err(Error::InvalidArgument(format!(
            "target vertex {t} is out of range: the graph has {} vertices",
            graph.num_vertices()
        )));
    }
    let delta = match delta {
        Some(0) => {
            return Err(Error::InvalidArgument(
                "delta-cpu's bucket width Δ must be positive".into(),
            ));
        }
        Some(delta) => delta,
        None => with_weight_type!(graph.weight_kind(), W => default_delta::<W>(graph, source)),
    };
    let mut result =
        with_weight_type!(graph.weight_kind(), W => solve::<W>(graph, source, delta, stop));
    distances::check_overflow(graph.weight_kind(), &result.dist)?;
    stop.apply(&mut result.dist);
    Ok(result)
}

/// Vertices the breadth-first probe of [`default_delta`] visits at most.
const PROBE_VERTICES: usize = 1 << 14;

/// Edges it scans at most: on a road network the vertex limit comes first
/// (about 40,000 edges), on a graph with hubs this one, so that the probe
/// stays a small part of a solve (150,000 edges on soc-Epinions1 without it).
const PROBE_EDGES: usize = 1 << 16;

/// Buckets that [`default_delta`] lays across its estimate of the
/// eccentricity. On 16 cores (docs/PERFORMANCE.md), GAPBS's best Δ and this
/// solver's put 50–70 buckets across the true eccentricity of the shared
/// road networks and 20–80 across soc-Epinions1's; the estimate below is
/// about half the true one on the roads.
const BUCKETS_ACROSS: f64 = 25.0;

/// The default bucket width from `source`, a weight word: the larger of two
/// widths, at least the smallest positive word.
/// - Meyer and Sanders' Δ ≈ (largest weight) / (degree), so that a bucket's
///   vertices relax about one edge each into the same bucket, with the 99th
///   percentile of an even sample of 1024 weights for the largest (a few
///   outliers do not set it);
/// - an estimate of the eccentricity of `source` over [`BUCKETS_ACROSS`]:
///   enough vertices per bucket to keep many threads busy, where the first
///   width would make thousands of tiny rounds (road networks). The
///   estimate: the breadth-first levels needed to visit [`PROBE_VERTICES`]
///   vertices (or scan [`PROBE_EDGES`] edges), times the mean weight,
///   times √(n / visited) for the rest of the graph as if it grew like a
///   plane.
pub fn default_delta<W: Weight>(graph: &Graph, source: usize) -> u32 {
    let (n, m) = (graph.num_vertices(), graph.num_edges());
    if n == 0 || m == 0 {
        return 1;
    }
    let weights = graph.weights();
    let step = m.div_ceil(1024);
    let mut sample: Vec<f64> = weights
        .iter()
        .step_by(step)
        .map(|&w| W::to_f64(w))
        .collect();
    sample.sort_by(f64::total_cmp);
    let p99 = sample[(sample.len() - 1) * 99 / 100];
    let mean = sample.iter().sum::<f64>() / sample.len() as f64;
    let (levels, visited) = graph.probe_depth(source, PROBE_VERTICES, PROBE_EDGES);
    let eccentricity = levels as f64 * mean * (n as f64 / visited as f64).max(1.0).sqrt();
    let delta = (p99 * n as f64 / m as f64).max(eccentricity / BUCKETS_ACROSS);
    W::from_f64(delta.min(W::to_f64(W::MAX_DISTANCE) / 2.0)).max(1)
}

/// One thread's bins: `window[k]` holds vertices put into bucket `base + k`
/// (`base`: the current bucket), `far` those beyond the window, the smallest
/// of their buckets in `far_min`. Only its thread touches them.
struct Bins {
    window: VecDeque<Vec<u32>>,
    far: Vec<u32>,
    far_min: u64,
    /// Emptied bins kept for reuse: a road network's solve opens thousands.
    spare: Vec<Vec<u32>>,
}

impl Default for Bins {
    fn default() -> Self {
        Bins {
            window: VecDeque::new(),
            far: Vec::new(),
            far_min: u64::MAX,
            spare: Vec::new(),
        }
    }
}

impl Bins {
    /// Puts `v` into bucket `bucket` (`>= base`).
    #[inline(always)]
    fn put(&mut self, v: u32, bucket: u64, base: u64) {
        let k = (bucket - base) as usize;
        match self.window.get_mut(k) {
            Some(bin) => bin.push(v),
            None => self.put_beyond(v, bucket, k),
        }
    }

    /// [`Bins::put`] into a bucket `k` past the window's open bins: opens
    /// bins up to it, or puts `v` into the far list.
    #[cold]
    fn put_beyond(&mut self, v: u32, bucket: u64, k: usize) {
        if k >= WINDOW {
            self.far.push(v);
            self.far_min = self.far_min.min(bucket);
            return;
        }
        while self.window.len() <= k {
            let bin = self.spare.pop().unwrap_or_default();
            self.window.push_back(bin);
        }
        self.window[k].push(v);
    }

    /// The smallest bucket holding a vertex (`u64::MAX`: none).
    fn next_bucket(&self, base: u64) -> u64 {
        let in_window = self.window.iter().position(|bin| !bin.is_empty());
        in_window
            .map_or(u64::MAX, |k| base + k as u64)
            .min(self.far_min)
    }

    /// Moves from bucket `base` to bucket `next` (`<=` every non-empty bucket
    /// here): the bins in between go, and where `next` is the far list's
    /// smallest bucket, the far vertices are binned again from there by
    /// their current distance (`bucket_of`); entries whose distance has
    /// dropped below `next` are stale.
    fn advance(&mut self, base: u64, next: u64, bucket_of: impl Fn(u32) -> u64) {
        let steps = ((next - base) as usize).min(self.window.len());
        for mut bin in self.window.drain(..steps) {
            bin.clear();
            self.spare.push(bin);
        }
        if next == self.far_min {
            self.far_min = u64::MAX;
            for v in std::mem::take(&mut self.far) {
                let b = bucket_of(v);
                if b >= next {
                    self.put(v, b, next);
                }
            }
        }
    }
}

/// Each thread's part of the current round's frontier, its bin of the
/// current bucket. Written only by its owner, between the two barriers that
/// end a round; read by every thread only during a round, after them. The
/// barriers order the accesses, as the standard library's barriers would.
struct Segments(Vec<UnsafeCell<Vec<u32>>>);

// SAFETY: see the type's documentation: no segment is written while any
// thread can read it; the barrier's release-acquire pairs publish the writes.
unsafe impl Sync for Segments {}

/// How distance words of a weight type fall into buckets of width Δ (a
/// weight word).
trait Buckets: Weight {
    /// The bucket of distance word `d`. Buckets past `u64::MAX - 1` (huge
    /// `f32` distances over a small Δ) and the overflow word share the last
    /// one, which keeps the order and leaves `u64::MAX` free to mean "no
    /// bucket".
    fn bucket(d: u32, delta: u32) -> u64;
}

impl Buckets for u32 {
    /// An integer division, as GAPBS does: cheaper than through `f64`.
    #[inline(always)]
    fn bucket(d: u32, delta: u32) -> u64 {
        if d > Self::MAX_DISTANCE {
            return u64::MAX - 1;
        }
        (d / delta) as u64
    }
}

impl Buckets for f32 {
    #[inline(always)]
    fn bucket(d: u32, delta: u32) -> u64 {
        if d > Self::MAX_DISTANCE {
            return u64::MAX - 1;
        }
        ((Self::to_f64(d) / Self::to_f64(delta)) as u64).min(u64::MAX - 1)
    }
}

/// A barrier for the threads of one parallel region that spins, then
/// sleeps: a round of a road network is a few microseconds of work, less than
/// a sleeping barrier takes to wake its threads; but a thread that only
/// yielded would keep its core busy, and two threads that the scheduler put
/// on one core would then share it for the whole solve (doubling its time)
/// instead of one moving to the core left idle. How long it spins depends on
/// whether the threads have a core each ([`SPINS`], [`SHARED_CORE_SPINS`]).
struct SpinBarrier {
    threads: usize,
    /// Spins of a waiting thread before it sleeps.
    spins: u32,
    /// Apart: the arrivals' updates would evict the line that the waiting
    /// threads spin on.
    arrived: Padded<AtomicUsize>,
    generation: Padded<AtomicUsize>,
    /// Threads asleep in [`SpinBarrier::sleep`], and what they sleep on.
    sleepers: AtomicUsize,
    lock: Mutex<()>,
    wake: Condvar,
}

/// Spins of a waiting thread before it sleeps where every thread has a core
/// of its own: about 6 ms of `pause` on the H100 machine's Xeon. A sleeping
/// thread of a virtual machine wakes late (its virtual CPU halted), so a
/// round it sleeps in stalls the next ones too: with 370 µs of spins, solves
/// there fell into sleeping at almost every barrier, 10–15× slower
/// (docs/PERFORMANCE.md, 2026-11-27).
const SPINS: u32 = 1 << 18;

/// Spins before a thread sleeps where the threads outnumber the cores
/// (about 370 µs): a spinning thread then holds a core that a thread still
/// working may need.
const SHARED_CORE_SPINS: u32 = 1 << 14;

impl SpinBarrier {
    fn new(threads: usize) -> Self {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        SpinBarrier {
            threads,
            spins: if threads <= cores {
                SPINS
            } else {
                SHARED_CORE_SPINS
            },
            arrived: Padded(AtomicUsize::new(0)),
            generation: Padded(AtomicUsize::new(0)),
            sleepers: AtomicUsize::new(0),
            lock: Mutex::new(()),
            wake: Condvar::new(),
        }
    }

    /// Returns once every thread has called it (as often).
    fn wait(&self) {
        let generation = self.generation.0.load(Acquire);
        if self.arrived.0.fetch_add(1, AcqRel) + 1 == self.threads {
            self.arrived.0.store(0, Relaxed);
            self.generation.0.store(generation.wrapping_add(1), SeqCst);
            // SeqCst with `sleep`'s count and re-check: either this sees a
            // sleeper, or the sleeper sees the new generation.
            if self.sleepers.load(SeqCst) > 0 {
                let _held = self.lock.lock().unwrap_or_else(|e| e.into_inner());
                self.wake.notify_all();
            }
            return;
        }
        for _ in 0..self.spins {
            if self.generation.0.load(Acquire) != generation {
                return;
            }
            std::hint::spin_loop();
        }
        self.sleep(generation);
    }

    /// Sleeps until the generation moves past `generation`.
    #[cold]
    fn sleep(&self, generation: usize) {
        let mut held = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.sleepers.fetch_add(1, SeqCst);
        while self.generation.0.load(SeqCst) == generation {
            held = self.wake.wait(held).unwrap_or_else(|e| e.into_inner());
        }
        self.sleepers.fetch_sub(1, SeqCst);
    }
}

/// A value alone on its cache lines (two, for the adjacent-line
/// prefetcher): the counters that every thread updates must not share a line
/// with what the threads only read, or each update would evict it from every
/// other core.
#[repr(align(128))]
struct Padded<T>(T);

/// The state every thread of a solve shares.
struct Shared<'a> {
    csr: Csr<'a>,
    dist: &'a [AtomicU32],
    /// Δ, a weight word.
    delta: u32,
    segments: Segments,
    /// Per round parity: the next chunk of the frontier to take, and the
    /// smallest bucket any thread holds after the round (double-buffered, so
    /// that thread 0 resets the next round's while the others still read
    /// this round's).
    cursor: [Padded<AtomicUsize>; 2],
    next: Padded<[AtomicU64; 2]>,
    rounds: AtomicU32,
    barrier: Padded<SpinBarrier>,
}

/// Pools of at least this many threads leave one core free by default
/// ([`threads_for_pool`]).
pub const SPARE_CORE_FROM: usize = 8;

/// The threads a solve runs on in a rayon pool of `pool` threads: all of
/// them where the caller sized the pool (`sized_by_caller`: a pool it
/// built, or `RAYON_NUM_THREADS`), else, in rayon's global pool of one
/// thread per core, one fewer from [`SPARE_CORE_FROM`] cores up. Every round
/// waits at a barrier for its slowest thread, so with a thread on every
/// core, anything else the machine runs stalls all of them while it holds
/// a core; a core left free takes such work (on the H100 machine's 16
/// cores, solves on 16 threads had 3–10× slower outliers that 15 did not,
/// docs/PERFORMANCE.md).
pub fn threads_for_pool(pool: usize, sized_by_caller: bool) -> usize {
    if sized_by_caller || pool < SPARE_CORE_FROM {
        pool.max(1)
    } else {
        pool - 1
    }
}

/// [`delta_stepping`] for weights `W`, before the overflow check and the
/// bound: one parallel region on rayon's pool. A round: every thread takes
/// chunks of the frontier (all threads' segments), relaxes its own small bin
/// of the bucket (fusion) and offers its smallest bucket; a barrier; every
/// thread reads the smallest, moves its bins there and publishes its bin of
/// it as its segment; a barrier. As in GAPBS, no thread works alone between
/// rounds.
fn solve<W: Buckets>(graph: &Graph, source: usize, delta_word: u32, stop: Stop) -> DeltaStepping {
    let n = graph.num_vertices();
    let threads = threads_for_pool(
        rayon::current_num_threads(),
        rayon::current_thread_index().is_some() || std::env::var_os("RAYON_NUM_THREADS").is_some(),
    );
    let mut segments: Vec<UnsafeCell<Vec<u32>>> =
        (0..threads).map(|_| UnsafeCell::new(Vec::new())).collect();
    segments[0] = UnsafeCell::new(vec![source as u32]);
    // Zeroed pages from the allocator; each thread fills its own stripe
    // with INFINITY, so that the pages are faulted in and filled in
    // parallel rather than by this thread alone.
    let mut dist = vec![0u32; n];
    let shared = Shared {
        csr: graph.csr(),
        dist: distances::as_atomic(&mut dist),
        delta: delta_word,
        segments: Segments(segments),
        cursor: [Padded(AtomicUsize::new(0)), Padded(AtomicUsize::new(0))],
        next: Padded([AtomicU64::new(u64::MAX), AtomicU64::new(u64::MAX)]),
        rounds: AtomicU32::new(1),
        barrier: Padded(SpinBarrier::new(threads)),
    };
    let bucket_of = |v: u32| W::bucket(shared.dist[v as usize].load(Relaxed), shared.delta);
    rayon::broadcast(|context| {
        // A pool smaller than the count taken above cannot occur inside
        // one `broadcast`; a larger index would be a rayon bug.
        let me = context.index();
        if me >= threads {
            return; // a core left free (`threads_for_pool`)
        }
        let stripe = me * n / threads..(me + 1) * n / threads;
        for d in &shared.dist[stripe.clone()] {
            d.store(INFINITY, Relaxed);
        }
        if stripe.contains(&source) {
            shared.dist[source].store(0, Relaxed);
        }
        shared.barrier.0.wait();
        let mut bins = Bins::default();
        let (mut base, mut parity) = (0u64, 0usize);
        loop {
            relax_round::<W>(&shared, &mut bins, base, parity);
            shared.next.0[parity].fetch_min(bins.next_bucket(base), Relaxed);
            shared.barrier.0.wait();
            let next = shared.next.0[parity].load(Relaxed);
            if me == 0 {
                shared.next.0[1 - parity].store(u64::MAX, Relaxed);
                shared.cursor[1 - parity].0.store(0, Relaxed);
            }
            if next == u64::MAX || stopped::<W>(&shared, stop, next) {
                break;
            }
            bins.advance(base, next, bucket_of);
            // SAFETY: only this thread writes its segment, and only here,
            // between the two barriers, while no thread reads segments.
            let segment = unsafe { &mut *shared.segments.0[me].get() };
            segment.clear();
            if let Some(bin) = bins.window.front_mut() {
                std::mem::swap(segment, bin);
            }
            base = next;
            if me == 0 {
                shared.rounds.fetch_add(1, Relaxed);
            }
            parity = 1 - parity;
            shared.barrier.0.wait();
        }
    });
    let rounds = shared.rounds.into_inner();
    DeltaStepping { dist, rounds }
}

/// Whether the solve ends before bucket `next` (every bucket below it is
/// done): a limit below it, or a target in one of them.
fn stopped<W: Buckets>(shared: &Shared, stop: Stop, next: u64) -> bool {
    let delta = shared.delta;
    let past_limit = stop.limit.is_some_and(|l| W::bucket(l, delta) < next);
    let target_final = stop.target.is_some_and(|t| {
        let dt = shared.dist[t].load(Relaxed);
        dt != INFINITY && W::bucket(dt, delta) < next
    });
    past_limit || target_final
}

/// One thread's share of a round in bucket `base`: chunks of the frontier,
/// then its own small bin of the bucket (bucket fusion).
fn relax_round<W: Buckets>(shared: &Shared, bins: &mut Bins, base: u64, parity: usize) {
    // Local copies: the loop below reads them for every edge.
    let (delta, csr, dist) = (shared.delta, shared.csr, shared.dist);
    let relax = |u: u32, bins: &mut Bins| {
        let du = dist[u as usize].load(Relaxed);
        // Every relaxation now starts at `base` or later, so a distance can
        // only have left this bucket downwards within it or not at all: a
        // vertex whose distance is in another bucket is a stale entry.
        if du == INFINITY || W::bucket(du, delta) != base {
            return;
        }
        for (v, w) in csr.edges(u as usize) {
            let candidate = W::extend(du, w);
            let slot = &dist[v];
            // An atomic minimum that starts from the value just compared,
            // as GAPBS's compare-and-swap loop does.
            let mut current = slot.load(Relaxed);
            while candidate < current {
                match slot.compare_exchange_weak(current, candidate, Relaxed, Relaxed) {
                    Ok(_) => {
                        bins.put(v as u32, W::bucket(candidate, delta), base);
                        break;
                    }
                    Err(actual) => current = actual,
                }
            }
        }
    };
    // SAFETY: no segment is written during a round (see `Segments`).
    let segment_of = |i: usize| unsafe { &*shared.segments.0[i].get() }.as_slice();
    let total: usize = (0..shared.segments.0.len())
        .map(|i| segment_of(i).len())
        .sum();
    let (mut segment, mut offset) = (0, 0);
    loop {
        let start = shared.cursor[parity].0.fetch_add(CHUNK, Relaxed);
        if start >= total {
            break;
        }
        // Chunks are taken in increasing order: walk on from the last one.
        let mut at = start;
        while at < (start + CHUNK).min(total) {
            while offset + segment_of(segment).len() <= at {
                offset += segment_of(segment).len();
                segment += 1;
            }
            relax(segment_of(segment)[at - offset], bins);
            at += 1;
        }
    }
    while bins
        .window
        .front()
        .is_some_and(|bin| !bin.is_empty() && bin.len() < FUSION_LIMIT)
    {
        // Swapped for a spare bin, not taken: both keep their capacity, so
        // the many short iterations of a road network do not regrow a bin.
        let spare = bins.spare.pop().unwrap_or_default();
        let mut own = std::mem::replace(&mut bins.window[0], spare);
        for &u in &own {
            relax(u, bins);
        }
        own.clear();
        bins.spare.push(own);
    }
}
