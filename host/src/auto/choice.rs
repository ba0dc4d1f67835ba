//! `--algo auto`: where DA2CF would run one iteration per distinct distance
//! (high diameter, or a wide weight range), the faster of
//! [`BUCKETED_CANDIDATES`] (the partition-local solver, expected on deep
//! graphs such as road networks and grids, and near-far); on the other
//! graphs, the fastest of [`TRIAL_CANDIDATES`]. The trials run from the
//! source on a GPU, when the solver is prepared.

use crate::algorithms::Algorithm;
use crate::graph::{Graph, with_weight_type};
use gpu_kernels::distance::{INFINITY, Weight};

/// Vertices the breadth-first probe visits at most.
const PROBE_VERTICES: usize = 1 << 16;

/// Estimated DA2CF iterations above which a bucketed solver (the partition
/// solver or near-far) is chosen.
const NEAR_FAR_ABOVE: f64 = 1000.0;

/// Breadth-first levels of the probe, per square root of the vertices it
/// visited, above which a graph counts as deep, the partition solver's kind.
/// A plane's levels grow like the square root of the vertices reached, a
/// small world's like a logarithm. Measured from vertex 0 (the probe's
/// levels / √visited): road networks 0.55–1.4 (road-BAY-pace 141 / 256,
/// road-luxembourg-osm 363 / 256, rome99 47 / 58), a 1000² grid 1.4; where
/// shortest-path trees are hundreds of hops deep and each hop's latency is
/// what the partition solver cuts. Kronecker, uniform, the papers' and
/// social graphs 0.01–0.04 (soc-Epinions1 9 / 218: 47,676 vertices reach),
/// where the partition solver's pieces may have large boundaries
/// (soc-Epinions1 with weights 10..1009: 5.4 ms, near-far 0.41 ms) or not
/// (a random graph of degree 7: 0.37 ms, near-far 0.47 ms), so a trial
/// decides.
const DEEP_LEVELS_PER_ROOT: f64 = 0.25;

/// What the solver tries on a graph of low diameter, where `choose` picks
/// `fast-crauser`: which of them is fastest depends on more than the probe
/// sees (iteration counts against per-iteration cost: near-far runs a fifth
/// of the iterations on a small social graph, `fast`'s iterations are cheaper
/// where Crauser's rule saves few), so the solver times each from the source
/// when it prepares `auto` ([`crate::solver::Solver::prepare`]) and keeps the
/// fastest.
pub const TRIAL_CANDIDATES: [Algorithm; 3] =
    [Algorithm::FastCrauser, Algorithm::NearFar, Algorithm::Fast];

/// What the solver tries on a graph with many distinct distances, where
/// `choose` picks the partition solver (deep graphs) or near-far: the two
/// solvers whose iterations do not follow the distinct distances. The
/// partition solver wins on road networks by 3–5× but lost to near-far on a
/// 50³ grid (docs/PERFORMANCE.md, 2026-11-27), which the
/// probe counts as deep too.
pub const BUCKETED_CANDIDATES: [Algorithm; 2] = [Algorithm::NearFar, Algorithm::Partition];

/// Solves per candidate in a trial; the best time counts (the first may
/// pay for cold caches).
pub const TRIAL_SOLVES: usize = 2;

/// What `auto` chose, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The algorithm to run.
    pub algorithm: Algorithm,
    /// The estimate behind the choice, for the user.
    pub reason: String,
    /// The candidates the solver times from the source, keeping the fastest
    /// ([`TRIAL_CANDIDATES`] or [`BUCKETED_CANDIDATES`]). `fast` and
    /// `fast-crauser` are candidates only where the
    /// estimates say DA2CF runs few iterations: elsewhere they would run one
    /// per distinct distance, a trial of seconds on a million real weights.
    pub trial: &'static [Algorithm],
}

/// Chooses the partition solver for `graph` from `source` when it has a high
/// diameter and is deep in hops, near-far when it has a high diameter but
/// is shallow (many distinct distances over few hops: real weights on a
/// social graph), else `fast-crauser`; the solver's trial ([`Choice::trial`])
/// may replace the last two.
///
/// DA2CF takes one iteration per distinct distance. Two lower estimates of
/// that count, a bucketed solver if either is above `NEAR_FAR_ABOVE`, the
/// probe's breadth-first levels choosing which (`DEEP_LEVELS_PER_ROOT`):
/// - the breadth-first levels from `source` needed to visit
///   `PROBE_VERTICES` vertices (or all it reaches), times the mean weight
///   over the smallest non-zero weight (the distance values one level spans):
///   about 30 on the papers' graphs (degree 7, weights 1..10), thousands on a
///   road network or a grid;
/// - the distinct distances among the `PROBE_VERTICES` vertices closest to
///   `source` (a Dijkstra stopped there): real weights make nearly every
///   distance distinct, which the first estimate cannot see (on the papers'
///   graphs with `f32` weights in `[1, 10)` it stays at about 50).
///
/// Cost: a BFS over at most 2^16 vertices, a pass over the weights, and a
/// partial Dijkstra only where the first estimate does not decide, stopped
/// as soon as it has seen more than `NEAR_FAR_ABOVE` distinct distances
/// (the choice is the same as from all 2^16): on a road network a few
/// hundred vertices, on a small-world graph with few distinct distances
/// at most 2^16. (Run to the end, with a hash map, it took 20–28 ms of a
/// one-off call on road networks of 0.1–0.3 M vertices.)
pub fn choose(graph: &Graph, source: usize) -> Choice {
    let (levels, visited) = if source < graph.num_vertices() {
        graph.probe_depth(source, PROBE_VERTICES)
    } else {
        (0, 0)
    };
    let deep = levels as f64 > DEEP_LEVELS_PER_ROOT * (visited as f64).sqrt();
    let weights = graph.weights();
    // Non-negative weight words order like their values (also for `f32`).
    let min_word = weights.iter().copied().filter(|&w| w > 0).min();
    let value = |w: u32| with_weight_type!(graph.weight_kind(), W => W::to_f64(w));
    let min_weight = min_word.map_or(1.0, value);
    let mean_weight = if weights.is_empty() {
        1.0
    } else {
        with_weight_type!(graph.weight_kind(), W => {
            weights.iter().map(|&w| W::to_f64(w)).sum::<f64>()
        }) / weights.len() as f64
    };
    let estimate = levels as f64 * (mean_weight / min_weight).max(1.0);
    // Only whether either estimate passes the bound matters.
    let distinct = if estimate > NEAR_FAR_ABOVE {
        None
    } else {
        Some(with_weight_type!(graph.weight_kind(), W => {
            probe_distinct_distances::<W>(graph, source, NEAR_FAR_ABOVE as usize)
        }))
    };
    let many_distinct = distinct.is_some_and(|d| d as f64 > NEAR_FAR_ABOVE);
    let algorithm = if estimate <= NEAR_FAR_ABOVE && !many_distinct {
        // Crauser's rule settles every vertex Martín's does and often more,
        // so never more iterations; on the H100 it measured 0.92–1.01× of
        // `fast`'s time on the papers' graphs and 0.6–0.8× on Kronecker,
        // uniform and social graphs (docs/PERFORMANCE.md).
        Algorithm::FastCrauser
    } else if deep {
        // Many distinct distances make DA2CF slow: the partition-local
        // solver, paged where the graph is too large for its resident mode.
        Algorithm::Partition
    } else {
        // Many distinct distances over few hops: a trial of near-far and the
        // partition solver.
        Algorithm::NearFar
    };
    Choice {
        algorithm,
        trial: match algorithm {
            Algorithm::FastCrauser => &TRIAL_CANDIDATES,
            Algorithm::NearFar | Algorithm::Partition => &BUCKETED_CANDIDATES,
            _ => &[],
        },
        reason: format!(
            "about {estimate:.0} distinct distances estimated ({levels} BFS levels × mean weight \
             {mean_weight:.1} / smallest weight {min_weight}){}; above {NEAR_FAR_ABOVE:.0}, \
             partition on a deep graph (more than {DEEP_LEVELS_PER_ROOT} BFS levels per \
             √visited: {levels} for {visited}), else near-far, either checked in a trial of both",
            match distinct {
                None => String::new(),
                Some(d) => format!(
                    ", {}{} among the {} closest vertices",
                    if many_distinct { "more than " } else { "" },
                    d.min(NEAR_FAR_ABOVE as usize),
                    PROBE_VERTICES.min(graph.num_vertices())
                ),
            }
        ),
    }
}

/// The distinct distances among the first `PROBE_VERTICES` vertices that
/// Dijkstra (in the weights' own arithmetic) settles from `source`, counted
/// up to `most + 1` (then it stops).
fn probe_distinct_distances<W: Weight>(graph: &Graph, source: usize, most: usize) -> usize {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    if source >= graph.num_vertices() {
        return 0;
    }
    let csr = graph.csr();
    // Dense: one pass over a word per vertex costs less than hashing.
    let mut dist = vec![INFINITY; graph.num_vertices()];
    let mut heap = BinaryHeap::from([Reverse((0u32, source))]);
    dist[source] = 0;
    let (mut settled, mut distinct, mut last) = (0, 0, None);
    while let Some(Reverse((d, u))) = heap.pop() {
        if d > dist[u] {
            continue;
        }
        settled += 1;
        if last != Some(d) {
            distinct += 1;
            last = Some(d);
        }
        if settled == PROBE_VERTICES || distinct > most {
            break;
        }
        for (v, w) in csr.edges(u) {
            let candidate = W::extend(d, w);
            if candidate < dist[v] {
                dist[v] = candidate;
                heap.push(Reverse((candidate, v)));
            }
        }
    }
    distinct
}
