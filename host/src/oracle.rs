//! The CPU oracle: Dijkstra's algorithm with a binary heap, in 64-bit distances.
//! Every GPU result is checked against it (`--verify`, the tests).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::Result;
use crate::distances::to_u32_distances;
use crate::graph::Graph;

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

/// Shortest distances from `source` as the solvers report them (`u32`,
/// [`gpu_kernels::distance::INFINITY`] for unreachable vertices), or
/// [`crate::Error::DistanceOverflow`] if one does not fit.
pub fn dijkstra(graph: &Graph, source: usize) -> Result<Vec<u32>> {
    crate::distances::check_source(graph, source)?;
    to_u32_distances(&dijkstra_u64(graph, source))
}
