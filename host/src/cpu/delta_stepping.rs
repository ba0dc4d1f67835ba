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
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering::Relaxed};

use gpu_kernels::distance::{INFINITY, Weight};

use crate::graph::{Graph, with_weight_type};
use crate::solver::Stop;
use crate::{Error, Result, distances, variants};

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
/// the graph's kind; default: [`variants::near_far_delta`]'s rule,
/// 32 · mean weight / mean out-degree) on the threads of rayon's current
/// pool, stopping early as `stop` allows: once every remaining bucket lies
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
    let delta = variants::near_far_delta(graph, delta)?;
    let mut result =
        with_weight_type!(graph.weight_kind(), W => solve::<W>(graph, source, delta, stop));
    distances::check_overflow(graph.weight_kind(), &result.dist)?;
    stop.apply(&mut result.dist);
    Ok(result)
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

/// [`delta_stepping`] for weights `W`, before the overflow check and the bound.
fn solve<W: Weight>(graph: &Graph, source: usize, delta_word: u32, stop: Stop) -> DeltaStepping {
    let n = graph.num_vertices();
    let csr = graph.csr();
    let delta = W::to_f64(delta_word);
    let dist: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(INFINITY)).collect();
    dist[source].store(0, Relaxed);
    let threads = rayon::current_num_threads().max(1);
    let bins: Vec<Mutex<Bins>> = (0..threads).map(|_| Mutex::default()).collect();
    let limit_bucket = stop.limit.map(|l| bucket::<W>(l, delta));
    let mut frontier: Vec<u32> = vec![source as u32];
    let mut base: u64 = 0;
    let mut rounds = 0;
    loop {
        if limit_bucket.is_some_and(|b| base > b) {
            break;
        }
        if let Some(t) = stop.target {
            let dt = dist[t].load(Relaxed);
            if dt != INFINITY && bucket::<W>(dt, delta) < base {
                break;
            }
        }
        rounds += 1;
        let cursor = AtomicUsize::new(0);
        let relax = |u: u32, bins: &mut Bins| {
            let du = dist[u as usize].load(Relaxed);
            // Stale: lowered into an earlier bucket is impossible (every
            // relaxation now starts at `base` or later), so only a distance
            // that is no longer in this bucket's range is skipped.
            if du == INFINITY || bucket::<W>(du, delta) != base {
                return;
            }
            for (v, w) in csr.edges(u as usize) {
                let candidate = W::extend(du, w);
                let slot = &dist[v];
                if candidate < slot.load(Relaxed) && candidate < slot.fetch_min(candidate, Relaxed)
                {
                    bins.put(v as u32, bucket::<W>(candidate, delta), base);
                }
            }
        };
        rayon::broadcast(|context| {
            let mut mine = bins[context.index()]
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            loop {
                let start = cursor.fetch_add(CHUNK, Relaxed);
                if start >= frontier.len() {
                    break;
                }
                for &u in &frontier[start..(start + CHUNK).min(frontier.len())] {
                    relax(u, &mut mine);
                }
            }
            // Bucket fusion: the thread's own small share of this bucket.
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
        });
        // The next bucket: the smallest non-empty one of any thread, in a
        // window or a far list.
        let mut all: Vec<std::sync::MutexGuard<'_, Bins>> = bins
            .iter()
            .map(|b| b.lock().unwrap_or_else(|e| e.into_inner()))
            .collect();
        let next = loop {
            let in_window = all.iter().filter_map(|b| b.first()).min();
            let far_min = all.iter().map(|b| b.far_min).min().unwrap_or(u64::MAX);
            match in_window {
                Some(k) if base + (k as u64) < far_min => break Some(base + k as u64),
                _ if far_min == u64::MAX => break None,
                // A far list reaches the next bucket: every far vertex is
                // binned again from there by its current distance (the
                // windows below it are empty); entries whose distance has
                // dropped below it are stale.
                _ => {
                    for bins in all.iter_mut() {
                        let steps = ((far_min - base) as usize).min(bins.window.len());
                        bins.window.drain(..steps);
                        bins.far_min = u64::MAX;
                        for v in std::mem::take(&mut bins.far) {
                            let b = bucket::<W>(dist[v as usize].load(Relaxed), delta);
                            if b >= far_min {
                                bins.put(v, b, far_min);
                            }
                        }
                    }
                    base = far_min;
                }
            }
        };
        let Some(next) = next else { break };
        frontier.clear();
        for bins in all.iter_mut() {
            let steps = ((next - base) as usize).min(bins.window.len());
            bins.window.drain(..steps);
            if let Some(bin) = bins.window.front_mut() {
                frontier.append(bin);
            }
        }
        base = next;
    }
    DeltaStepping {
        dist: dist.into_iter().map(AtomicU32::into_inner).collect(),
        rounds,
    }
}
