//! The CPU oracle against a brute-force Bellman-Ford, and the overflow rules.

use gpu_kernels::distance::{INFINITY, MAX_DISTANCE};
use sssp::{Error, Graph, oracle};
use sssp_tests::{TestRng, random_small_graph};

/// Bellman-Ford in u64: n - 1 rounds over every edge (`u64::MAX` = unreachable).
fn bellman_ford(graph: &Graph, source: usize) -> Vec<u64> {
    let n = graph.num_vertices();
    let csr = graph.csr();
    let mut dist = vec![u64::MAX; n];
    dist[source] = 0;
    for _ in 0..n {
        let mut changed = false;
        for u in 0..n {
            if dist[u] == u64::MAX {
                continue;
            }
            for (v, w) in csr.edges(u) {
                if dist[u] + (w as u64) < dist[v] {
                    dist[v] = dist[u] + w as u64;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    dist
}

#[test]
fn dijkstra_matches_bellman_ford_on_random_graphs() {
    let mut rng = TestRng::new("dijkstra_matches_bellman_ford_on_random_graphs");
    let mut unreachable_seen = 0;
    for case in 0..500 {
        let graph = random_small_graph(&mut rng, 40);
        let source = rng.below(graph.num_vertices() as u64) as usize;
        let expected = bellman_ford(&graph, source);
        let found = oracle::dijkstra_u64(&graph, source);
        unreachable_seen += expected.iter().filter(|&&d| d == u64::MAX).count();
        assert_eq!(
            found, expected,
            "case {case} (seed {}), source {source}, graph {graph:?}",
            rng.seed
        );
    }
    assert!(
        unreachable_seen > 0,
        "the random graphs should include unreachable vertices"
    );
}

#[test]
fn handles_self_loops_parallel_edges_and_zero_weights() {
    // 0 -(5)-> 1, 0 -(2)-> 1 (parallel), 1 -(0)-> 2, 2 -(0)-> 2 (self-loop), 3 unreachable.
    let graph =
        Graph::from_edges(4, &[(0, 1, 5), (0, 1, 2), (1, 2, 0), (2, 2, 0), (3, 0, 1)]).unwrap();
    assert_eq!(
        oracle::dijkstra(&graph, 0).unwrap(),
        vec![0, 2, 2, INFINITY]
    );
}

#[test]
fn distances_that_do_not_fit_are_errors_not_wrapped() {
    // A chain whose last distance is MAX_DISTANCE + 1.
    let w = MAX_DISTANCE / 2 + 1;
    let graph = Graph::from_edges(3, &[(0, 1, w), (1, 2, w)]).unwrap();
    match oracle::dijkstra(&graph, 0) {
        Err(Error::DistanceOverflow {
            vertex: 2,
            count: 1,
            ..
        }) => {}
        other => panic!("expected an overflow at vertex 2, got {other:?}"),
    }
    // Exactly MAX_DISTANCE fits.
    let graph = Graph::from_edges(3, &[(0, 1, w), (1, 2, w - 1)]).unwrap();
    assert_eq!(
        oracle::dijkstra(&graph, 0).unwrap(),
        vec![0, w, MAX_DISTANCE]
    );
}

#[test]
fn source_out_of_range_is_an_error() {
    let graph = Graph::from_edges(2, &[(0, 1, 1)]).unwrap();
    assert!(matches!(
        oracle::dijkstra(&graph, 2),
        Err(Error::SourceOutOfRange {
            vertex: 2,
            num_vertices: 2
        })
    ));
}
