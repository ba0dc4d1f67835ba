//! The checks of the index's reductions against the oracle's trees, one
//! body for the CPU and GPU tests.

use gpu_kernels::distance::INFINITY;
use gpu_kernels::reductions::NO_SOURCE;
use sssp::ch::{self, BuildOptions, Nearest};
use sssp::{Graph, oracle};

use crate::{TestRng, random_graph};

/// Checks `within` (per source, the count and the value sum of the vertices
/// within `limit`) against the trees `trees` (one per source), with
/// `value(v)` each vertex's value (`None`: sums are 0).
pub fn check_within(
    within: &[(u32, f64)],
    trees: &[Vec<u32>],
    limit: u32,
    value: Option<&dyn Fn(usize) -> f64>,
    context: &str,
) {
    assert_eq!(within.len(), trees.len(), "{context}: one row a source");
    for (i, (&(count, sum), tree)) in within.iter().zip(trees).enumerate() {
        let near: Vec<usize> = (0..tree.len()).filter(|&v| tree[v] <= limit).collect();
        let want: f64 = value.map_or(0.0, |value| near.iter().map(|&v| value(v)).sum());
        assert_eq!(
            (count as usize, sum),
            (near.len(), want),
            "{context}: source {i}"
        );
    }
}

/// Checks `nearest` against the trees `trees` (one per source): each
/// vertex's smallest distance, and the first source attaining it.
pub fn check_nearest(nearest: &Nearest, trees: &[Vec<u32>], context: &str) {
    let n = trees.first().map_or(0, Vec::len);
    for v in 0..n {
        let best = trees.iter().map(|t| t[v]).min().unwrap_or(INFINITY);
        let from = trees.iter().position(|t| t[v] == best && best != INFINITY);
        assert_eq!(nearest.dist[v], best, "{context}: vertex {v}");
        assert_eq!(
            nearest.source[v],
            from.map_or(NO_SOURCE, |i| i as u32),
            "{context}: vertex {v}'s source"
        );
    }
}

/// A random graph of fewer than `most` vertices (zero, unit, small and large
/// weights) and its index.
pub fn random_graph_and_index(
    rng: &mut TestRng,
    most: u64,
) -> (sssp::Graph<'static>, ch::Hierarchy) {
    let n = rng.range(1, most) as usize;
    let m = rng.below((n * 4) as u64 + 1) as usize;
    let max_weight = [0u32, 1, 10, 1000][rng.below(4) as usize];
    let graph = random_graph(rng, n, m, max_weight);
    let h = ch::build(&graph, &BuildOptions::default()).expect("build");
    (graph, h)
}

/// `count` random sources of `graph` (repeats allowed) and the oracle's
/// tree of each.
pub fn random_sources_and_trees(
    rng: &mut TestRng,
    graph: &Graph,
    count: usize,
) -> (Vec<usize>, Vec<Vec<u32>>) {
    let n = graph.num_vertices() as u64;
    let sources: Vec<usize> = (0..count).map(|_| rng.below(n) as usize).collect();
    let trees = sources
        .iter()
        .map(|&s| oracle::dijkstra(graph, s).expect("oracle"))
        .collect();
    (sources, trees)
}
