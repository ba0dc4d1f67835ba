//! `delta-cpu`: parallel Δ-stepping on the CPU's cores, the solver used
//! where there is no GPU. The calling thread and as many more as rayon's
//! current pool has (fewer for a small graph) solve together, and fewer
//! still where the machine leaves them no core to run on (`Crowding`).
//!
//! The shape of GAPBS's `sssp` (Beamer et al.), written anew: buckets of
//! width Δ processed in order; the current bucket's vertices form a shared
//! frontier that the threads take in chunks; a relaxation lowers the head's
//! distance with an atomic minimum and puts the head into the relaxing
//! thread's own bin for its new bucket. Unlike GAPBS, a thread takes the
//! chunks of its own part of the frontier (the vertices it binned) before
//! helping with the others': their distances, written by its own atomic
//! minimum, are still in its cache, where another thread would miss on each
//! (15–25% of a road network's solve on two cores). After the frontier, a
//! thread keeps
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
//!
//! Unlike GAPBS, whose Δ is the user's, Δ adapts between buckets unless
//! `--delta` fixes it ([`BucketWidth`]): from Meyer and Sanders' width
//! ([`default_delta`]) it doubles after a bucket that gave the threads few
//! vertices while the frontier grows slowly, and halves back after one that
//! gave them many; each thread's bins merge in pairs or split to follow.
//! Every thread decides from the same counts, so all keep the same Δ. Any
//! order of buckets gives the shortest distances (a vertex whose distance
//! falls is binned again); the width only decides how much work is repeated
//! and how many rounds, hence barriers, the solve takes.

use std::cell::UnsafeCell;
use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::Mutex;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize};

use gpu_kernels::distance::{INFINITY, SATURATED, Weight};

use super::barrier::{Aborted, Barrier, Padded};
use super::crowding::Crowding;
use super::free_cores::free_cores;
use crate::graph::{Graph, with_weight_type};
use crate::options::Stop;
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
    /// The widest Δ the solve used, a weight word.
    pub widest: u32,
    /// How often it changed Δ ([`BucketWidth::Adaptive`]).
    pub rescales: u32,
}

/// Buckets each thread bins directly; farther ones wait in its far list.
pub const WINDOW: usize = 1024;

/// A thread keeps relaxing its own bin of the current bucket, without a
/// barrier, while the bin holds fewer vertices than this.
const FUSION_LIMIT: usize = 1000;

/// Frontier vertices a thread takes at a time.
const CHUNK: usize = 64;

/// Solves from `source` on as many threads as rayon's current pool has
/// ([`threads_for_pool`], fewer for a small graph: [`EDGES_PER_THREAD`]) with buckets of width `delta` (a positive weight
/// word of the graph's kind) or, by default, of a width adapted as the solve
/// goes ([`BucketWidth::Adaptive`] from [`default_delta`]), stopping early as
/// `stop` allows: once every remaining bucket lies beyond the limit, or once
/// the target's bucket is done. The distances come back bounded as
/// [`Stop::apply`] says. A distance too large for the weight type is
/// [`Error::DistanceOverflow`].
pub fn delta_stepping(
    graph: &Graph,
    source: usize,
    delta: Option<u32>,
    stop: Stop,
) -> Result<DeltaStepping> {
    let width = match delta {
        Some(delta) => BucketWidth::Fixed(delta),
        None => BucketWidth::Adaptive {
            start: with_weight_type!(graph.weight_kind(), W => default_delta::<W>(graph)),
            per_thread: VERTICES_PER_THREAD,
        },
    };
    delta_stepping_with(graph, source, width, stop)
}

/// How wide the buckets of a solve are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BucketWidth {
    /// Δ, a positive weight word, for the whole solve (`--delta`).
    Fixed(u32),
    /// Δ starts at `start` and changes between buckets: after a bucket that
    /// relaxed fewer than `per_thread` / 2 vertices a thread, it doubles;
    /// after one that relaxed more than 2 · `per_thread`, it halves, but
    /// never below `start`. A round then has about `per_thread` vertices for
    /// every thread, wherever the solve is in the graph: a road network's
    /// wavefront is narrow near the source and wide in its middle, and no
    /// one width suits both.
    Adaptive {
        /// The first and narrowest Δ, a positive weight word.
        start: u32,
        /// The vertices a bucket should relax per thread.
        per_thread: usize,
    },
}

/// The vertices a bucket should give each thread ([`BucketWidth::Adaptive`]):
/// enough that the two barriers of a round (a few microseconds on 16 cores)
/// are small against its relaxations (tens of nanoseconds each, more where
/// they miss the cache).
pub const VERTICES_PER_THREAD: usize = 512;

/// [`delta_stepping`] with the bucket width given in full.
pub fn delta_stepping_with(
    graph: &Graph,
    source: usize,
    width: BucketWidth,
    stop: Stop,
) -> Result<DeltaStepping> {
    solve_checked(graph, source, width, stop, None)
}

/// [`delta_stepping`] with thread `thread` made to panic in its first round:
/// for the tests of a failing thread, which must fail the solve with
/// [`Error::Internal`] rather than leave the others waiting.
#[doc(hidden)]
pub fn delta_stepping_panicking_in(
    graph: &Graph,
    source: usize,
    thread: usize,
) -> Result<DeltaStepping> {
    let start = with_weight_type!(graph.weight_kind(), W => default_delta::<W>(graph));
    let width = BucketWidth::Fixed(start);
    solve_checked(graph, source, width, Stop::default(), Some(thread))
}

/// [`delta_stepping_with`], with `panic_in` for the tests.
fn solve_checked(
    graph: &Graph,
    source: usize,
    width: BucketWidth,
    stop: Stop,
    panic_in: Option<usize>,
) -> Result<DeltaStepping> {
    distances::check_source(graph, source)?;
    if let Some(t) = stop.target.filter(|&t| t >= graph.num_vertices()) {
        return Err(Error::InvalidArgument(format!(
            "target vertex {t} is out of range: the graph has {} vertices",
            graph.num_vertices()
        )));
    }
    if let BucketWidth::Fixed(0) | BucketWidth::Adaptive { start: 0, .. } = width {
        return Err(Error::InvalidArgument(
            "delta-cpu's bucket width Δ must be positive".into(),
        ));
    }
    let (mut result, overflowed) = with_weight_type!(
        graph.weight_kind(),
        W => solve::<W>(graph, source, width, stop, panic_in)
    )?;
    if overflowed {
        distances::check_overflow(graph.weight_kind(), &result.dist)?;
    }
    stop.apply(&mut result.dist);
    Ok(result)
}

/// The default first width, a weight word: Meyer and Sanders' Δ ≈
/// (largest weight) / (degree), at least the smallest positive word, so
/// that a bucket's vertices relax about one edge each into the same bucket;
/// the 99th percentile of an even sample of 1024 weights stands for the
/// largest (a few outliers do not set it). Narrower buckets would save no
/// relaxations, only add rounds; wider ones are the adaptation's to choose
/// ([`BucketWidth::Adaptive`]).
pub fn default_delta<W: Weight>(graph: &Graph) -> u32 {
    let (n, m) = (graph.num_vertices(), graph.num_edges());
    if n == 0 || m == 0 {
        return 1;
    }
    let step = m.div_ceil(1024);
    let mut sample: Vec<f64> = graph
        .weights()
        .iter()
        .step_by(step)
        .map(|&w| W::to_f64(w))
        .collect();
    sample.sort_by(f64::total_cmp);
    let p99 = sample[(sample.len() - 1) * 99 / 100];
    let delta = p99 * n as f64 / m as f64;
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

    /// Moves from bucket `base` to bucket `next` as [`Bins::advance`] does,
    /// and to buckets twice as wide ([`Rescale::Widen`]): then `next / 2`.
    /// Bins merge in pairs; the far list stays, its smallest bucket halved.
    fn widen(&mut self, base: u64, next: u64) {
        let old = std::mem::take(&mut self.window);
        for (k, mut bin) in old.into_iter().enumerate() {
            let bucket = base + k as u64;
            if bucket >= next && !bin.is_empty() {
                let j = (bucket / 2 - next / 2) as usize;
                while self.window.len() <= j {
                    let spare = self.spare.pop().unwrap_or_default();
                    self.window.push_back(spare);
                }
                if self.window[j].is_empty() {
                    std::mem::swap(&mut self.window[j], &mut bin);
                } else {
                    self.window[j].extend_from_slice(&bin);
                }
            }
            bin.clear();
            self.spare.push(bin);
        }
        if self.far_min != u64::MAX {
            self.far_min /= 2;
        }
    }

    /// Moves from bucket `base` to bucket `next` as [`Bins::advance`] does,
    /// and to buckets at most half as wide ([`Rescale::Narrow`]): then
    /// `2 next`. The binned vertices go into their new buckets
    /// (`new_bucket`; those below `2 next` are stale); the far list stays,
    /// its smallest bucket doubled, a bound that [`Bins::advance`] makes
    /// exact when the solve gets there.
    fn narrow(&mut self, base: u64, next: u64, new_bucket: impl Fn(u32) -> u64) {
        // Before the loop, which may add to the far list in the new width;
        // never `u64::MAX` ("none") while the list holds a vertex.
        if self.far_min != u64::MAX {
            self.far_min = self.far_min.saturating_mul(2).min(u64::MAX - 1);
        }
        let old = std::mem::take(&mut self.window);
        let new_base = 2 * next;
        for (k, mut bin) in old.into_iter().enumerate() {
            if base + k as u64 >= next {
                for &v in &bin {
                    let b = new_bucket(v);
                    if b >= new_base {
                        self.put(v, b, new_base);
                    }
                }
            }
            bin.clear();
            self.spare.push(bin);
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

    /// Δ twice as wide, where the word can hold it: bucket `b` of `delta`
    /// is then within bucket `b / 2` of the result.
    fn doubled(delta: u32) -> Option<u32>;

    /// Δ at most half as wide, where it stays positive: bucket `b` of
    /// `delta` then lies in bucket `2 b` of the result or later.
    fn halved(delta: u32) -> Option<u32>;
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

    fn doubled(delta: u32) -> Option<u32> {
        delta.checked_mul(2)
    }

    fn halved(delta: u32) -> Option<u32> {
        (delta >= 2).then_some(delta / 2)
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

    // Exact in binary floating point: the quotients that make the buckets
    // scale by exactly two.
    fn doubled(delta: u32) -> Option<u32> {
        let wider = f32::from_bits(delta) * 2.0;
        wider.is_finite().then_some(wider.to_bits())
    }

    fn halved(delta: u32) -> Option<u32> {
        let narrower = f32::from_bits(delta) / 2.0;
        narrower.is_normal().then_some(narrower.to_bits())
    }
}

/// The state every thread of a solve shares.
struct Shared<'a> {
    csr: Csr<'a>,
    dist: &'a [AtomicU32],
    segments: Segments,
    /// Per segment: the next chunk of it to take. Reset by the segment's
    /// owner when it publishes the segment, as no thread reads it then.
    cursors: Vec<Padded<AtomicUsize>>,
    /// Per round parity: the smallest bucket any thread holds after the
    /// round, and the vertices the round relaxed (double-buffered, so that
    /// thread 0 resets the next round's while the others still read this
    /// round's).
    next: Padded<[AtomicU64; 2]>,
    relaxed: Padded<[AtomicUsize; 2]>,
    /// Whether a relaxation stored [`SATURATED`]: only then does the
    /// caller look for the overflowing vertices.
    overflowed: AtomicBool,
    rounds: AtomicU32,
    /// [`DeltaStepping::widest`] and [`DeltaStepping::rescales`], which
    /// every thread knows alike; thread 0 stores them.
    widest: AtomicU32,
    rescales: AtomicU32,
    barrier: Padded<Barrier>,
    /// The threads still working ([`Crowding`]), as the last barrier
    /// decided.
    active: AtomicUsize,
    crowding: Crowding,
    /// Per thread that keeps working: the vertices that a thread leaving
    /// the solve left it, to bin again.
    handoff: Vec<Mutex<Vec<u32>>>,
    /// What a thread's panic said: the solve then fails.
    panicked: Mutex<Option<String>>,
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

/// Edges for each thread of a solve in rayon's global pool: a smaller graph
/// takes fewer threads, the smallest one (the calling thread alone, no
/// barrier), as starting a thread costs about as much as relaxing tens of
/// thousands of edges.
pub const EDGES_PER_THREAD: usize = 50_000;

/// The threads a solve on `graph` runs on: [`threads_for_pool`] of rayon's
/// current pool, no more than one per [`EDGES_PER_THREAD`] edges, nor than
/// the cores other work leaves free now ([`free_cores`]), unless the caller
/// sized the pool. (Next to a busy thread on each of 16 cores, 15 threads
/// took 90–96 ms on USA-road-d.NY where Dijkstra on one took 37–64 ms,
/// docs/PERFORMANCE.md.)
fn threads_for(graph: &Graph) -> usize {
    let sized_by_caller =
        rayon::current_thread_index().is_some() || std::env::var_os("RAYON_NUM_THREADS").is_some();
    let threads = threads_for_pool(rayon::current_num_threads(), sized_by_caller);
    if sized_by_caller {
        threads
    } else {
        let by_size = threads.min(graph.num_edges() / EDGES_PER_THREAD).max(1);
        if by_size == 1 {
            return 1;
        }
        by_size.min(free_cores(rayon::current_num_threads()))
    }
}

/// [`delta_stepping`] for weights `W`, before the overflow check and the
/// bound: the calling thread and [`threads_for`] − 1 more run [`work`]; a
/// thread that panics fails the solve ([`Error::Internal`]) and releases the
/// others from the barrier. `panic_in`: a thread made to panic, for tests.
fn solve<W: Buckets>(
    graph: &Graph,
    source: usize,
    width: BucketWidth,
    stop: Stop,
    panic_in: Option<usize>,
) -> Result<(DeltaStepping, bool)> {
    let n = graph.num_vertices();
    let threads = threads_for(graph);
    let (start, per_bucket) = match width {
        BucketWidth::Fixed(delta) => (delta, None),
        BucketWidth::Adaptive { start, per_thread } => (start, Some(per_thread * threads)),
    };
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
        segments: Segments(segments),
        cursors: (0..threads).map(|_| Padded(AtomicUsize::new(0))).collect(),
        next: Padded([AtomicU64::new(u64::MAX), AtomicU64::new(u64::MAX)]),
        relaxed: Padded([AtomicUsize::new(0), AtomicUsize::new(0)]),
        overflowed: AtomicBool::new(false),
        rounds: AtomicU32::new(1),
        widest: AtomicU32::new(start),
        rescales: AtomicU32::new(0),
        barrier: Padded(Barrier::new(threads)),
        active: AtomicUsize::new(threads),
        crowding: Crowding::new(),
        handoff: (0..threads).map(|_| Mutex::new(Vec::new())).collect(),
        panicked: Mutex::new(None),
    };
    let job = Job {
        source,
        stop,
        start,
        per_bucket,
        panic_in,
    };
    let run = |me: usize| {
        let worked = std::panic::catch_unwind(AssertUnwindSafe(|| work::<W>(&shared, &job, me)));
        if let Err(payload) = worked {
            let message = crate::panics::message(payload.as_ref());
            let mut panicked = shared.panicked.lock().unwrap_or_else(|e| e.into_inner());
            panicked.get_or_insert(message);
            shared.barrier.0.abort();
        }
    };
    let started = std::thread::scope(|scope| {
        for me in 1..threads {
            let run = &run;
            let spawned = std::thread::Builder::new()
                .name(format!("delta-cpu {me}"))
                .spawn_scoped(scope, move || run(me));
            if let Err(error) = spawned {
                shared.barrier.0.abort();
                return Err(Error::Internal(format!(
                    "delta-cpu could not start a thread: {error}"
                )));
            }
        }
        run(0);
        Ok(())
    });
    started?;
    let panicked = shared.panicked.into_inner();
    if let Some(message) = panicked.unwrap_or_else(|e| e.into_inner()) {
        return Err(Error::Internal(format!(
            "a delta-cpu thread panicked: {message}"
        )));
    }
    let (rounds, widest, rescales) = (
        shared.rounds.into_inner(),
        shared.widest.into_inner(),
        shared.rescales.into_inner(),
    );
    let overflowed = shared.overflowed.into_inner();
    let result = DeltaStepping {
        dist,
        rounds,
        widest,
        rescales,
    };
    Ok((result, overflowed))
}

/// What every thread of a solve is given.
struct Job {
    source: usize,
    stop: Stop,
    /// The first width, a weight word.
    start: u32,
    /// [`Adaptation::per_bucket`], where the width adapts.
    per_bucket: Option<usize>,
    panic_in: Option<usize>,
}

/// Thread `me`'s part of a solve. A round: every thread takes chunks of the
/// frontier (its own segment first), relaxes its own small bin of the
/// bucket (fusion) and offers its smallest bucket; a barrier; every thread
/// reads the smallest, moves its bins there (of a new width, where the
/// bucket just done says so: every thread reads the same counts and decides
/// alike) and publishes its bin of it as its segment; a barrier. As in
/// GAPBS, no thread works alone between rounds. Where the threads crowd
/// each other ([`Crowding`]), the first barrier of a round also decides
/// that some leave: they hand their bins over before the second barrier.
fn work<W: Buckets>(shared: &Shared, job: &Job, me: usize) -> Result<(), Aborted> {
    let n = shared.dist.len();
    let threads = shared.segments.0.len();
    let barrier = &shared.barrier.0;
    let bucket_of = |v: u32, delta: u32| W::bucket(shared.dist[v as usize].load(Relaxed), delta);
    let stripe = me * n / threads..(me + 1) * n / threads;
    for d in &shared.dist[stripe.clone()] {
        d.store(INFINITY, Relaxed);
    }
    if stripe.contains(&job.source) {
        shared.dist[job.source].store(0, Relaxed);
    }
    barrier.wait(|| {})?;
    let mut bins = Bins::default();
    let (mut base, mut parity, mut delta) = (0u64, 0usize, job.start);
    let mut adaptation = job
        .per_bucket
        .map(|per_bucket| Adaptation::new(job.start, per_bucket));
    let (mut widest, mut rescales, mut active) = (job.start, 0, threads);
    loop {
        if job.panic_in == Some(me) {
            panic!("a panic asked for by a test");
        }
        let relaxed = relax_round::<W>(shared, me, &mut bins, base, delta);
        shared.next.0[parity].fetch_min(bins.next_bucket(base), Relaxed);
        if adaptation.is_some() {
            shared.relaxed.0[parity].fetch_add(relaxed, Relaxed);
        }
        barrier.wait(|| {
            let keep = shared.crowding.threads(barrier, active);
            shared.active.store(keep, Relaxed);
        })?;
        let mut next = shared.next.0[parity].load(Relaxed);
        if me == 0 {
            shared.next.0[1 - parity].store(u64::MAX, Relaxed);
            shared.relaxed.0[1 - parity].store(0, Relaxed);
        }
        if next == u64::MAX || stopped::<W>(shared, job.stop, next, delta) {
            if me == 0 {
                shared.widest.store(widest, Relaxed);
                shared.rescales.store(rescales, Relaxed);
            }
            return Ok(());
        }
        let rescale = match &mut adaptation {
            // Buckets that large hold only overflowing distances.
            Some(adaptation) if next < u64::MAX / 4 => {
                let relaxed = shared.relaxed.0[parity].load(Relaxed);
                adaptation.after_round::<W>(delta, relaxed, next != base)
            }
            _ => None,
        };
        match rescale {
            Some(Rescale::Widen(wider)) => {
                bins.widen(base, next);
                (delta, next, widest) = (wider, next / 2, wider);
            }
            Some(Rescale::Narrow(narrower)) => {
                bins.narrow(base, next, |v| bucket_of(v, narrower));
                (delta, next) = (narrower, 2 * next);
            }
            None => bins.advance(base, next, |v| bucket_of(v, delta)),
        }
        rescales += u32::from(rescale.is_some());
        // SAFETY: only this thread writes its segment, and only here,
        // between the two barriers, while no thread reads segments.
        let segment = unsafe { &mut *shared.segments.0[me].get() };
        segment.clear();
        shared.cursors[me].0.store(0, Relaxed);
        if let Some(bin) = bins.window.front_mut() {
            std::mem::swap(segment, bin);
        }
        base = next;
        if me == 0 {
            shared.rounds.fetch_add(1, Relaxed);
        }
        parity = 1 - parity;
        let keep = shared.active.load(Relaxed);
        if me >= keep {
            // Leaving: its segment stays for this round; its bins go to a
            // thread that stays.
            let mut handoff = shared.handoff[me % keep]
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            bins.window
                .iter()
                .for_each(|bin| handoff.extend_from_slice(bin));
            handoff.extend_from_slice(&bins.far);
        }
        barrier.wait(|| barrier.set_threads(keep))?;
        if me >= keep {
            return Ok(());
        }
        if keep < active {
            let handed =
                std::mem::take(&mut *shared.handoff[me].lock().unwrap_or_else(|e| e.into_inner()));
            for v in handed {
                let b = bucket_of(v, delta);
                if b >= base {
                    bins.put(v, b, base);
                }
            }
            active = keep;
        }
    }
}

/// A change of the bucket width, to the word it holds.
enum Rescale {
    /// Twice as wide: bucket `b` becomes part of bucket `b / 2`.
    Widen(u32),
    /// At most half as wide: bucket `b` becomes buckets `2 b` and later.
    Narrow(u32),
}

/// The vertices over which [`Adaptation`] measures the frontier's density:
/// the first buckets of a road network relax a handful each at the first
/// width, those of a random graph too, and their ratios say nothing.
const GROWTH_SAMPLE: usize = 32;

/// A solve's adaptation of its bucket width ([`BucketWidth::Adaptive`]).
/// Every thread keeps one and feeds it the same counts, so all rescale
/// alike.
struct Adaptation {
    /// The first and narrowest width, a weight word.
    start: u32,
    /// The vertices a bucket should relax, over all threads.
    per_bucket: usize,
    /// Vertices relaxed in the current bucket so far.
    relaxed: usize,
    /// Vertices relaxed, and the width covered, in the buckets finished
    /// since the last sample ended: a sample ends once it holds
    /// [`GROWTH_SAMPLE`] vertices.
    sample: (usize, f64),
    /// Vertices per unit of width in the last sample.
    last_density: Option<f64>,
}

impl Adaptation {
    fn new(start: u32, per_bucket: usize) -> Self {
        Adaptation {
            start,
            per_bucket,
            relaxed: 0,
            sample: (0, 0.0),
            last_density: None,
        }
    }

    /// The rescale, if any, after a round that relaxed `round` vertices in
    /// a bucket of width `delta`, `done` if no vertex is left in it. A
    /// bucket that relaxed too many narrows the buckets (not below
    /// `start`). A small one widens them, but only where the frontier grows
    /// slowly: at the end of a sample with no more than twice the vertices
    /// per unit of width of the sample before. Near the source of a graph
    /// whose frontier explodes (random, scale-free), the first buckets are
    /// small too, and a width doubled there would be too wide a few buckets
    /// on, where a bucket as wide relaxes many vertices before their
    /// distances are final, and their successors after them (70% more
    /// relaxations on a 2^18-vertex Kronecker graph without this test).
    fn after_round<W: Buckets>(&mut self, delta: u32, round: usize, done: bool) -> Option<Rescale> {
        self.relaxed += round;
        if !done {
            return None;
        }
        let relaxed = std::mem::take(&mut self.relaxed);
        self.sample.0 += relaxed;
        self.sample.1 += W::to_f64(delta);
        let mut slow_growth = false;
        if self.sample.0 >= GROWTH_SAMPLE {
            let density = self.sample.0 as f64 / self.sample.1;
            slow_growth = self.last_density.is_some_and(|last| density <= 2.0 * last);
            self.last_density = Some(density);
            self.sample = (0, 0.0);
        }
        if relaxed > 2 * self.per_bucket {
            W::halved(delta)
                .filter(|&narrower| W::to_f64(narrower) >= W::to_f64(self.start))
                .map(Rescale::Narrow)
        } else if relaxed < self.per_bucket / 2 && slow_growth {
            W::doubled(delta).map(Rescale::Widen)
        } else {
            None
        }
    }
}

/// Whether the solve ends before bucket `next` of width `delta` (every
/// bucket below it is done): a limit below it, or a target in one of them.
fn stopped<W: Buckets>(shared: &Shared, stop: Stop, next: u64, delta: u32) -> bool {
    let past_limit = stop.limit.is_some_and(|l| W::bucket(l, delta) < next);
    let target_final = stop.target.is_some_and(|t| {
        let dt = shared.dist[t].load(Relaxed);
        dt != INFINITY && W::bucket(dt, delta) < next
    });
    past_limit || target_final
}

/// Thread `me`'s share of a round in bucket `base` of width `delta`: chunks
/// of the frontier, its own segment's first, then its own small bin of the
/// bucket (bucket fusion).
/// Returns the vertices it relaxed (stale entries skipped).
fn relax_round<W: Buckets>(
    shared: &Shared,
    me: usize,
    bins: &mut Bins,
    base: u64,
    delta: u32,
) -> usize {
    // Local copies: the loop below reads them for every edge.
    let (csr, dist) = (shared.csr, shared.dist);
    let mut relaxed = 0;
    let mut relax = |u: u32, bins: &mut Bins| {
        let du = dist[u as usize].load(Relaxed);
        // Every relaxation now starts at `base` or later, so a distance can
        // only have left this bucket downwards within it or not at all: a
        // vertex whose distance is in another bucket is a stale entry.
        if du == INFINITY || W::bucket(du, delta) != base {
            return;
        }
        relaxed += 1;
        for (v, w) in csr.edges(u as usize) {
            let candidate = W::extend(du, w);
            let slot = &dist[v];
            // An atomic minimum that starts from the value just compared,
            // as GAPBS's compare-and-swap loop does.
            let mut current = slot.load(Relaxed);
            while candidate < current {
                match slot.compare_exchange_weak(current, candidate, Relaxed, Relaxed) {
                    Ok(_) => {
                        if candidate == SATURATED {
                            shared.overflowed.store(true, Relaxed);
                        }
                        bins.put(v as u32, W::bucket(candidate, delta), base);
                        break;
                    }
                    Err(actual) => current = actual,
                }
            }
        }
    };
    // Its own segment first: this thread binned those vertices, so their
    // distances (and often their neighbours') are in its cache; then the
    // chunks the other threads have not taken yet.
    let threads = shared.segments.0.len();
    for k in 0..threads {
        let owner = (me + k) % threads;
        // SAFETY: no segment is written during a round (see `Segments`).
        let segment = unsafe { &*shared.segments.0[owner].get() }.as_slice();
        let cursor = &shared.cursors[owner].0;
        // Reading first: a segment already taken costs no write to a line
        // that other threads read.
        while cursor.load(Relaxed) < segment.len() {
            let start = cursor.fetch_add(CHUNK, Relaxed);
            let Some(chunk) = segment.get(start..(start + CHUNK).min(segment.len())) else {
                break;
            };
            for &u in chunk {
                relax(u, bins);
            }
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
    relaxed
}
