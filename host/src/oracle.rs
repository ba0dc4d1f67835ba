//! The CPU oracle: Dijkstra's algorithm with a binary heap. Every GPU result is
//! checked against it (`--verify`, the tests).
//!
//! - Integer weights: 64-bit distances, which cannot overflow, converted to the
//!   solvers' `u32` words ([`dijkstra`]).
//! - `f32` weights: two oracles. [`dijkstra`] runs in `f32` with the kernels'
//!   own addition ([`Weight::extend`]), so every GPU solver must match it bit
//!   for bit: with non-negative weights a rounded sum is never below its first
//!   term and never decreases when that term grows, so every algorithm here
//!   converges to the same smallest rounded path length. [`check_f32_against_f64`]
//!   then checks those words against Dijkstra in `f64` within the rounding
//!   bound of `f32` sums.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use approx::relative_eq;
use gpu_kernels::distance::{INFINITY, Weight};

use crate::distances::{check_distances, check_overflow, display, to_u32_distances};
use crate::graph::{Graph, WeightKind};
use crate::{Error, Result};

/// Shortest distances from `source` in 64-bit arithmetic (no overflow is possible:
/// a path has fewer than 2^32 edges of weight below 2^32); `u64::MAX` marks an
/// unreachable vertex.
///
/// # Panics
/// If `source` is not a vertex of `graph`.
pub fn dijkstra_u64(graph: &Graph, source: usize) -> Vec<u64> {
    let n = graph.num_vertices();
    assert!(source < n, "source {source} out of range for {n} vertices");
    let csr = graph.csr();
    let mut dist = vec![u64::MAX; n];
    let mut heap = BinaryHeap::new();
    dist[source] = 0;
    heap.push(Reverse((0u64, source as u32)));
    while let Some(Reverse((d, u))) = heap.pop() {
        let u = u as usize;
        if d > dist[u] {
            continue; // a stale entry: `u` was settled with a smaller distance
        }
        for (v, w) in csr.edges(u) {
            let candidate = d + w as u64;
            if candidate < dist[v] {
                dist[v] = candidate;
                heap.push(Reverse((candidate, v as u32)));
            }
        }
    }
    dist
}

/// Shortest distances from `source` as the solvers report them (words of the
/// graph's weight kind, [`INFINITY`] for unreachable vertices), or
/// [`crate::Error::DistanceOverflow`] if one does not fit.
pub fn dijkstra(graph: &Graph, source: usize) -> Result<Vec<u32>> {
    crate::distances::check_source(graph, source)?;
    match graph.weight_kind() {
        WeightKind::U32 => to_u32_distances(&dijkstra_u64(graph, source)),
        WeightKind::F32 => {
            let dist = dijkstra_words::<f32>(graph, source);
            check_overflow(WeightKind::F32, &dist)?;
            Ok(dist)
        }
    }
}

/// Dijkstra over distance words with the kernels' addition `W::extend`
/// (saturating, never wrapping), from a `source` already checked.
fn dijkstra_words<W: Weight>(graph: &Graph, source: usize) -> Vec<u32> {
    let csr = graph.csr();
    let mut dist = vec![INFINITY; graph.num_vertices()];
    let mut heap = BinaryHeap::new();
    dist[source] = 0;
    heap.push(Reverse((0u32, source as u32)));
    while let Some(Reverse((d, u))) = heap.pop() {
        let u = u as usize;
        if d > dist[u] {
            continue;
        }
        for (v, w) in csr.edges(u) {
            let candidate = W::extend(d, w);
            if candidate < dist[v] {
                dist[v] = candidate;
                heap.push(Reverse((candidate, v as u32)));
            }
        }
    }
    dist
}

/// Shortest distances from `source` in `f64` (`f64::INFINITY` when
/// unreachable), with the number of edges of the shortest path found, for a
/// graph of `f32` weights. Every `f32` is an `f64`, and an `f64` sum of `h`
/// of them is within `h · 2^-53` of the exact length (relatively). `source`
/// is already checked.
fn dijkstra_f64(graph: &Graph, source: usize) -> (Vec<f64>, Vec<u32>) {
    let csr = graph.csr();
    let n = graph.num_vertices();
    let (mut dist, mut hops) = (vec![f64::INFINITY; n], vec![0u32; n]);
    let mut heap = BinaryHeap::new();
    dist[source] = 0.0;
    // Non-negative f64s order like their bit patterns.
    heap.push(Reverse((0.0f64.to_bits(), source as u32)));
    while let Some(Reverse((bits, u))) = heap.pop() {
        let (d, u) = (f64::from_bits(bits), u as usize);
        if d > dist[u] {
            continue;
        }
        for (v, w) in csr.edges(u) {
            let candidate = d + f32::from_bits(w) as f64;
            if candidate < dist[v] {
                dist[v] = candidate;
                hops[v] = hops[u] + 1;
                heap.push(Reverse((candidate.to_bits(), v as u32)));
            }
        }
    }
    (dist, hops)
}

/// Checks `f32` distance words (a solver's, already equal to [`dijkstra`]'s)
/// against Dijkstra in `f64`: the same vertices reached, and every distance
/// within the rounding bound.
///
/// The bound: with `u = 2^-24` (half an `f32` ulp, relatively), each rounded
/// addition multiplies a partial sum by at most `1 ± u`. The `f32` result
/// `d32(v)` is the rounded length of some path `P` of `h32` edges, so it is at
/// least `d64(v) · (1 - u)^h32`; and the rounded length of the exact shortest
/// path (`h64` edges) is at least `d32(v)`, so `d32(v) <= d64(v) · (1 + u)^h64`.
/// Hence `|d32 - d64| <= h · u · d64 · (1 + O(h·u))` with `h = max(h32, h64)`,
/// plus the `f64` oracle's own error (`h · 2^-53`) and, for sums in the
/// subnormal range, where rounding is absolute, `h · 2^-150`. `h32` is the
/// fewest edges of a path whose rounded length is `d32(v)` (a breadth-first
/// search over the edges with `extend(d32(u), w) = d32(v)`).
pub fn check_f32_against_f64(graph: &Graph, source: usize, dist: &[u32]) -> Result<()> {
    check_f32_weights(graph)?;
    check_distances(graph, source, dist)?;
    let (exact, hops64) = dijkstra_f64(graph, source);
    let hops32 = tight_hops(graph, source, dist);
    check_f32_within(dist, &exact, |v| {
        // No path of tight edges gives `dist[v]`: it is no rounded path length.
        (hops32[v] != u32::MAX).then(|| {
            let hops = hops64[v].max(hops32[v]) as f64;
            Tolerance {
                relative: hops * (f32::EPSILON as f64 / 2.0 + f64::EPSILON / 2.0),
                absolute: hops * 2f64.powi(-150),
            }
        })
    })
}

/// Checks the `f32` distance words of a contraction-hierarchy index of
/// `levels` levels ([`crate::ch`]) from `source` against Dijkstra in `f64`:
/// `dist[i]` is the distance of vertex `vertices[i]` (`None`: of vertex `i`,
/// a whole tree). The same vertices must be reached, and every distance be
/// within the index's rounding bound.
///
/// The bound, with `u = 2^-24` and `e = 2^-53`: an index distance is the
/// rounded sum of the weights of some up-down path of at most
/// `k = 2 (levels - 1)` arcs (each arc goes to another level), added in some
/// order. Each arc's weight is an `f64` sum of the graph's weights rounded
/// once to `f32`, and at most `k - 1` rounded additions follow, so each term
/// is off by a factor within `(1 ± u)^k`: the distance is at least
/// `d64 · (1 - u)^k`, up to `f64` rounding. The hierarchy keeps, for every
/// shortest path, an up-down path no longer up to its `f64` witness
/// comparisons (at most `levels` nested ones, each off by at most `2 n e`
/// relatively), whose rounded sum bounds the distance from above. Hence
/// `|d - d64| <= (k u + (2 levels + 1) n e) · d64 · (1 + O(k u))`, and in the
/// subnormal range `2 k · 2^-150` more.
pub fn check_f32_index(
    graph: &Graph,
    source: usize,
    vertices: Option<&[usize]>,
    dist: &[u32],
    levels: usize,
) -> Result<()> {
    check_f32_weights(graph)?;
    crate::distances::check_source(graph, source)?;
    let n = graph.num_vertices();
    let wanted = vertices.map_or(n, <[usize]>::len);
    if dist.len() != wanted || vertices.is_some_and(|v| v.iter().any(|&v| v >= n)) {
        return Err(Error::InvalidArgument(format!(
            "{} distances for {wanted} vertices of a graph of {n}",
            dist.len()
        )));
    }
    let (exact, _) = dijkstra_f64(graph, source);
    let exact: Vec<f64> = match vertices {
        Some(vertices) => vertices.iter().map(|&v| exact[v]).collect(),
        None => exact,
    };
    let tolerance = index_tolerance(graph, levels);
    check_f32_within(dist, &exact, |_| Some(tolerance)).map_err(|e| match vertices {
        Some(vertices) => e.with_vertex(|i| vertices[i]),
        None => e,
    })
}

/// Checks a path of an `f32` index from `source` to `target` (graph
/// vertices, `source` first) with the index's distance `dist` for it: every
/// step is an arc of the graph, `dist` is within the index's rounding bound
/// of the shortest distance ([`check_f32_index`]), and the exact (`f64`)
/// length of the path is within that bound of `dist` (`dist` is this path's
/// weights summed in some order).
pub fn check_f32_index_path(
    graph: &Graph,
    (source, target): (usize, usize),
    path: &[usize],
    dist: u32,
    levels: usize,
) -> Result<()> {
    check_f32_index(graph, source, Some(&[target]), &[dist], levels)?;
    let wrong = |why: String| Error::Mismatch {
        vertex: target,
        expected: format!("a path from {source}"),
        found: why,
        count: 1,
        num_vertices: graph.num_vertices(),
    };
    if path.first() != Some(&source) || path.last() != Some(&target) {
        return Err(wrong(format!(
            "a path from {:?} to {:?}",
            path.first(),
            path.last()
        )));
    }
    let csr = graph.csr();
    let mut length = 0.0;
    for pair in path.windows(2) {
        let weight = csr
            .edges(pair[0])
            .filter(|&(v, _)| v == pair[1])
            .map(|(_, w)| <f32 as Weight>::to_f64(w))
            .min_by(f64::total_cmp)
            .ok_or_else(|| wrong(format!("a step {} → {} that is no arc", pair[0], pair[1])))?;
        length += weight;
    }
    check_f32_within(&[dist], &[length], |_| Some(index_tolerance(graph, levels))).map_err(|_| {
        wrong(format!(
            "a path of length {length} for distance {}",
            display(WeightKind::F32, dist)
        ))
    })
}

/// The index's rounding bound (see [`check_f32_index`]).
fn index_tolerance(graph: &Graph, levels: usize) -> Tolerance {
    let k = 2.0 * levels.saturating_sub(1) as f64;
    Tolerance {
        relative: k * f32::EPSILON as f64 / 2.0
            + (2.0 * levels as f64 + 1.0) * graph.num_vertices() as f64 * f64::EPSILON,
        absolute: 2.0 * k * 2f64.powi(-150),
    }
}

fn check_f32_weights(graph: &Graph) -> Result<()> {
    if graph.weight_kind() != WeightKind::F32 {
        return Err(Error::InvalidArgument(format!(
            "the f64 check is for f32 weights, and this graph has {} weights",
            graph.weight_kind().name()
        )));
    }
    Ok(())
}

/// How far an `f32` distance may be from the `f64` one: first-order terms,
/// which [`check_f32_within`] widens by 1% for the higher-order ones.
#[derive(Clone, Copy)]
struct Tolerance {
    relative: f64,
    absolute: f64,
}

/// Checks `dist` against the `f64` distances `exact`: the same vertices
/// reached, each reached distance within `tolerance(v)` (`None`: wrong).
fn check_f32_within(
    dist: &[u32],
    exact: &[f64],
    tolerance: impl Fn(usize) -> Option<Tolerance>,
) -> Result<()> {
    let n = dist.len();
    let mut first = None;
    let mut count = 0;
    for v in 0..n {
        let ok = match (dist[v], exact[v].is_finite()) {
            (INFINITY, reached) => !reached,
            (_, false) => false,
            (d, true) => tolerance(v).is_some_and(|t| {
                relative_eq!(
                    <f32 as Weight>::to_f64(d),
                    exact[v],
                    epsilon = t.absolute * 1.01,
                    max_relative = t.relative * 1.01
                )
            }),
        };
        if !ok {
            count += 1;
            first.get_or_insert(v);
        }
    }
    match first {
        None => Ok(()),
        Some(v) => Err(Error::Mismatch {
            vertex: v,
            expected: format!("{} (the f64 oracle, within f32 rounding)", exact[v]),
            found: display(WeightKind::F32, dist[v]),
            count,
            num_vertices: n,
        }),
    }
}

/// For each vertex reached in `dist`, the fewest edges of a path from `source`
/// whose every edge is tight (`extend(dist[u], w) == dist[v]`); `u32::MAX`
/// where there is none.
fn tight_hops(graph: &Graph, source: usize, dist: &[u32]) -> Vec<u32> {
    let csr = graph.csr();
    let mut hops = vec![u32::MAX; graph.num_vertices()];
    let mut queue = std::collections::VecDeque::from([source]);
    hops[source] = 0;
    while let Some(u) = queue.pop_front() {
        for (v, w) in csr.edges(u) {
            if hops[v] == u32::MAX && <f32 as Weight>::extend(dist[u], w) == dist[v] {
                hops[v] = hops[u] + 1;
                queue.push_back(v);
            }
        }
    }
    hops
}
