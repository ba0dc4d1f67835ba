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
//! frontier. Stale entries (a vertex whose distance has since left the
//! bucket) are skipped; duplicate entries only repeat work.
//!
//! Buckets are `⌊d / Δ⌋` of the distance's value, so any weight type works
//! (for `f32`, the real value over the real Δ). Each thread keeps a window of
//! [`WINDOW`] buckets from the current one and a *far* list beyond it, which
//! is re-binned when the window runs dry: distances up to `u32::MAX` with
//! Δ = 1 need no bins for every bucket in between.

use std::collections::VecDeque;
use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize};
use std::sync::{Mutex, RwLock};

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
/// current pool, stopping early as `stop` allows: once every remaining bucket lies
/// beyond the limit, or once the target's bucket is done. The distances come
/// back bounded as [`Stop::apply`] says. A distance too large for the weight
/// type is [`Error::DistanceOverflow`].
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
        None => with_weight_type!(graph.weight_kind(), W => default_delta::<W>(graph)),
    };
    let mut result =
        with_weight_type!(graph.weight_kind(), W => solve::<W>(graph, source, delta, stop));
    distances::check_overflow(graph.weight_kind(), &result.dist)?;
    stop.apply(&mut result.dist);
    Ok(result)
}

/// The default bucket width, a weight word: the 99th percentile of the
/// weights (of an even sample of 1024) over the mean out-degree, at least the
/// smallest positive word. Meyer and Sanders' analysis takes Δ ≈ (largest
/// weight) / (degree), so that a bucket's vertices relax about one edge each
/// into the same bucket; the percentile keeps a few outlier weights from
/// setting it. Measured on this project's shared graphs on 2 cores
/// (docs/PERFORMANCE.md), it lands in each graph's flat optimum.
pub fn default_delta<W: Weight>(graph: &Graph) -> u32 {
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
    let delta = p99 * n as f64 / m as f64;
    W::from_f64(delta.min(W::to_f64(W::MAX_DISTANCE) / 2.0)).max(1)
}

/// One thread's bins: `window[k]` holds vertices put into bucket `base + k`
/// (`base`: the current bucket), `far` those beyond the window, the smallest
/// of their buckets in `far_min`.
struct Bins {
    window: VecDeque<Vec<u32>>,
    far: Vec<u32>,
    far_min: u64,
}

impl Default for Bins {
    fn default() -> Self {
        Bins {
            window: VecDeque::new(),
            far: Vec::new(),
            far_min: u64::MAX,
        }
    }
}

impl Bins {
    /// Puts `v` into bucket `bucket` (`>= base`).
    fn put(&mut self, v: u32, bucket: u64, base: u64) {
        let k = (bucket - base) as usize;
        if k >= WINDOW {
            self.far.push(v);
            self.far_min = self.far_min.min(bucket);
            return;
        }
        if self.window.len() <= k {
            self.window.resize_with(k + 1, Vec::new);
        }
        self.window[k].push(v);
    }

    /// The first non-empty window bin, relative to the base.
    fn first(&self) -> Option<usize> {
        self.window.iter().position(|bin| !bin.is_empty())
    }
}

/// The bucket of distance word `d`. Buckets past `u64::MAX - 1` (huge `f32`
/// distances over a small Δ) and the overflow word share the last one, which
/// keeps the order and leaves `u64::MAX` free to mean "no bucket".
#[inline(always)]
fn bucket<W: Weight>(d: u32, delta: f64) -> u64 {
    if d > W::MAX_DISTANCE {
        return u64::MAX - 1;
    }
    ((W::to_f64(d) / delta) as u64).min(u64::MAX - 1)
}

/// A barrier for the threads of one parallel region that spins briefly, then
/// yields: a round of a road network is a few microseconds of work, less than
/// a sleeping barrier takes to wake its threads.
struct SpinBarrier {
    threads: usize,
    arrived: AtomicUsize,
    generation: AtomicUsize,
}

impl SpinBarrier {
    fn new(threads: usize) -> Self {
        SpinBarrier {
            threads,
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
        }
    }

    /// Returns once every thread has called it (as often).
    fn wait(&self) {
        let generation = self.generation.load(Acquire);
        if self.arrived.fetch_add(1, AcqRel) + 1 == self.threads {
            self.arrived.store(0, Relaxed);
            self.generation.store(generation.wrapping_add(1), Release);
            return;
        }
        let mut spins = 0u32;
        while self.generation.load(Acquire) == generation {
            if spins < 4096 {
                std::hint::spin_loop();
                spins += 1;
            } else {
                std::thread::yield_now();
            }
        }
    }
}

/// The state every thread of a solve shares.
struct Shared<'a> {
    csr: Csr<'a>,
    dist: Vec<AtomicU32>,
    delta: f64,
    bins: Vec<Mutex<Bins>>,
    /// The current round's vertices; written by thread 0 between barriers.
    frontier: RwLock<Vec<u32>>,
    /// The next chunk of the frontier to take.
    cursor: AtomicUsize,
    /// The current bucket, and whether the solve is over (thread 0 writes both
    /// between barriers).
    base: AtomicU64,
    done: AtomicBool,
    rounds: AtomicU32,
    barrier: SpinBarrier,
}

/// [`delta_stepping`] for weights `W`, before the overflow check and the
/// bound: one parallel region on rayon's pool, rounds separated by
/// [`SpinBarrier`]s, thread 0 choosing the next bucket between them.
fn solve<W: Weight>(graph: &Graph, source: usize, delta_word: u32, stop: Stop) -> DeltaStepping {
    let n = graph.num_vertices();
    let threads = rayon::current_num_threads().max(1);
    let shared = Shared {
        csr: graph.csr(),
        dist: (0..n).map(|_| AtomicU32::new(INFINITY)).collect(),
        delta: W::to_f64(delta_word),
        bins: (0..threads).map(|_| Mutex::default()).collect(),
        frontier: RwLock::new(vec![source as u32]),
        cursor: AtomicUsize::new(0),
        base: AtomicU64::new(0),
        done: AtomicBool::new(false),
        rounds: AtomicU32::new(1),
        barrier: SpinBarrier::new(threads),
    };
    shared.dist[source].store(0, Relaxed);
    rayon::broadcast(|context| {
        // A pool smaller than the count taken above cannot occur inside
        // one `broadcast`; a larger index would be a rayon bug.
        let me = context.index();
        loop {
            relax_round::<W>(&shared, me);
            shared.barrier.wait();
            if me == 0 {
                next_round::<W>(&shared, stop);
            }
            shared.barrier.wait();
            if shared.done.load(Relaxed) {
                break;
            }
        }
    });
    DeltaStepping {
        dist: shared.dist.into_iter().map(AtomicU32::into_inner).collect(),
        rounds: shared.rounds.into_inner(),
    }
}

/// One thread's share of a round: chunks of the frontier, then its own small
/// bin of the current bucket (bucket fusion).
fn relax_round<W: Weight>(shared: &Shared, me: usize) {
    let base = shared.base.load(Relaxed);
    let delta = shared.delta;
    let mut mine = shared.bins[me].lock().unwrap_or_else(|e| e.into_inner());
    let relax = |u: u32, bins: &mut Bins| {
        let du = shared.dist[u as usize].load(Relaxed);
        // Every relaxation now starts at `base` or later, so a distance can
        // only have left this bucket downwards within it or not at all: a
        // vertex whose distance is in another bucket is a stale entry.
        if du == INFINITY || bucket::<W>(du, delta) != base {
            return;
        }
        for (v, w) in shared.csr.edges(u as usize) {
            let candidate = W::extend(du, w);
            let slot = &shared.dist[v];
            if candidate < slot.load(Relaxed) && candidate < slot.fetch_min(candidate, Relaxed) {
                bins.put(v as u32, bucket::<W>(candidate, delta), base);
            }
        }
    };
    {
        let frontier = shared.frontier.read().unwrap_or_else(|e| e.into_inner());
        loop {
            let start = shared.cursor.fetch_add(CHUNK, Relaxed);
            if start >= frontier.len() {
                break;
            }
            for &u in &frontier[start..(start + CHUNK).min(frontier.len())] {
                relax(u, &mut mine);
            }
        }
    }
    while mine
        .window
        .front()
        .is_some_and(|bin| !bin.is_empty() && bin.len() < FUSION_LIMIT)
    {
        let own = std::mem::take(&mut mine.window[0]);
        for u in own {
            relax(u, &mut mine);
        }
    }
}

/// Thread 0 between two rounds: the next bucket (the smallest non-empty one
/// of any thread, in a window or a far list) and its frontier, or the end.
fn next_round<W: Weight>(shared: &Shared, stop: Stop) {
    let delta = shared.delta;
    let mut base = shared.base.load(Relaxed);
    let mut all: Vec<std::sync::MutexGuard<'_, Bins>> = shared
        .bins
        .iter()
        .map(|b| b.lock().unwrap_or_else(|e| e.into_inner()))
        .collect();
    let next = loop {
        let in_window = all.iter().filter_map(|b| b.first()).min();
        let far_min = all.iter().map(|b| b.far_min).min().unwrap_or(u64::MAX);
        match in_window {
            Some(k) if base + (k as u64) < far_min => break Some(base + k as u64),
            _ if far_min == u64::MAX => break None,
            // A far list reaches the next bucket: every far vertex is binned
            // again from there by its current distance (the windows below it
            // are empty); entries whose distance has dropped below it are stale.
            _ => {
                for bins in all.iter_mut() {
                    let steps = ((far_min - base) as usize).min(bins.window.len());
                    bins.window.drain(..steps);
                    bins.far_min = u64::MAX;
                    for v in std::mem::take(&mut bins.far) {
                        let b = bucket::<W>(shared.dist[v as usize].load(Relaxed), delta);
                        if b >= far_min {
                            bins.put(v, b, far_min);
                        }
                    }
                }
                base = far_min;
            }
        }
    };
    let stopped = |next: u64| {
        // Every bucket below `next` is done: a limit below it, or a target
        // in one of them, ends the solve.
        let past_limit = stop.limit.is_some_and(|l| bucket::<W>(l, delta) < next);
        let target_final = stop.target.is_some_and(|t| {
            let dt = shared.dist[t].load(Relaxed);
            dt != INFINITY && bucket::<W>(dt, delta) < next
        });
        past_limit || target_final
    };
    let mut frontier = shared.frontier.write().unwrap_or_else(|e| e.into_inner());
    frontier.clear();
    match next {
        Some(next) if !stopped(next) => {
            for bins in all.iter_mut() {
                let steps = ((next - base) as usize).min(bins.window.len());
                bins.window.drain(..steps);
                if let Some(bin) = bins.window.front_mut() {
                    frontier.append(bin);
                }
            }
            shared.base.store(next, Relaxed);
            shared.cursor.store(0, Relaxed);
            shared.rounds.fetch_add(1, Relaxed);
        }
        _ => shared.done.store(true, Relaxed),
    }
}
