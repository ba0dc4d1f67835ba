//! The CSR graph: construction from edges and the (parallel) transpose.

use sssp::Graph;
use sssp_tests::{TestRng, random_graph};

fn sorted_edges(graph: &Graph, reversed: bool) -> Vec<(u32, u32, u32)> {
    let csr = graph.csr();
    let mut edges: Vec<(u32, u32, u32)> = (0..graph.num_vertices())
        .flat_map(|u| {
            csr.edges(u).map(move |(v, w)| {
                if reversed {
                    (v as u32, u as u32, w)
                } else {
                    (u as u32, v as u32, w)
                }
            })
        })
        .collect();
    edges.sort_unstable();
    edges
}

#[test]
fn parallel_transpose_equals_the_sequential_one_and_reverses_every_edge() {
    let mut rng =
        TestRng::new("parallel_transpose_equals_the_sequential_one_and_reverses_every_edge");
    for (n, m) in [
        (1, 0),
        (5, 100),
        (1000, 70_000),
        (70_000, 300_000),
        (3, 200_000),
    ] {
        let max_weight = rng.range(0, 100) as u32;
        let graph = random_graph(&mut rng, n, m, max_weight);
        let transposed = graph.transpose();
        assert_eq!(
            transposed,
            graph.transpose_sequential(),
            "n = {n}, m = {m}, seed {}",
            rng.seed
        );
        assert_eq!(
            sorted_edges(&transposed, true),
            sorted_edges(&graph, false),
            "n = {n}, m = {m}"
        );
    }
}

#[test]
fn from_edges_keeps_the_order_of_each_vertexs_edges() {
    let graph = Graph::from_edges(3, &[(2, 0, 5), (0, 2, 1), (2, 1, 7), (0, 1, 3)]).unwrap();
    assert_eq!(graph.offsets(), &[0, 2, 2, 4]);
    assert_eq!(graph.targets(), &[2, 1, 0, 1]);
    assert_eq!(graph.weights(), &[1, 3, 5, 7]);
    assert!(Graph::from_edges(2, &[(2, 0, 1)]).is_err());
}

/// What `Graph::probe_depth` should return, by a queue: vertices in the
/// order a breadth-first search discovers them (each vertex's edges in CSR
/// order), stopping at the same limit.
fn probe_by_queue(graph: &Graph, source: usize, max_vertices: usize) -> (u32, usize) {
    let csr = graph.csr();
    let mut level = vec![u32::MAX; graph.num_vertices()];
    level[source] = 0;
    let mut queue = std::collections::VecDeque::from([source]);
    let (mut last, mut visited) = (0, 1);
    if visited >= max_vertices {
        return (last, visited);
    }
    while let Some(u) = queue.pop_front() {
        for (v, _) in csr.edges(u) {
            if level[v] == u32::MAX {
                level[v] = level[u] + 1;
                last = level[v];
                visited += 1;
                queue.push_back(v);
            }
            if visited >= max_vertices {
                return (last, visited);
            }
        }
    }
    (last, visited)
}

#[test]
fn probe_depth_stops_at_its_limit_at_the_level_a_breadth_first_search_reached() {
    let mut rng =
        TestRng::new("probe_depth_stops_at_its_limit_at_the_level_a_breadth_first_search_reached");
    for _ in 0..200 {
        let n = rng.range(1, 3000) as usize;
        let m = rng.range(0, 4 * n as u64) as usize;
        let graph = random_graph(&mut rng, n, m, 10);
        let source = rng.range(0, n as u64 - 1) as usize;
        for max_vertices in [usize::MAX, rng.range(1, n as u64) as usize] {
            assert_eq!(
                graph.probe_depth(source, max_vertices),
                probe_by_queue(&graph, source, max_vertices),
                "n = {n}, m = {m}, source {source}, limit {max_vertices} vertices, seed {}",
                rng.seed
            );
        }
    }
}
