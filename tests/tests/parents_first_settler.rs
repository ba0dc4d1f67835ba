//! The shortest-path tree's rule against scipy's: scipy's Dijkstra sets a
//! vertex's predecessor when it finds a strictly shorter distance, so the
//! predecessor is the first settled vertex that gives the final distance. A
//! reference Dijkstra that does the same, settling ties of distance by id,
//! must give the CPU tree (`sssp::cpu::parents`, the tree kernel's per-thread
//! logic) exactly when all weights are positive; with zero weights, where
//! Dijkstra's settling order within a distance depends on its queue, the two
//! parents may differ only by that order.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use gpu_kernels::distance::{INFINITY, SATURATED, Weight};
use gpu_kernels::parents::NO_PARENT;
use sssp::graph::{Graph, WeightKind};
use sssp::{cpu, oracle};
use sssp_tests::{F32Weights, TestRng, check_tree, random_f32_graph, random_graph_weighted};

/// Scipy's Dijkstra from `source` in the weights' own arithmetic, ties of
/// distance settled by id: the distances, each vertex's predecessor (the
/// first settled vertex to give its final distance, [`NO_PARENT`] for none)
/// and each vertex's place in the settling order (`usize::MAX`: never).
fn first_settlers(graph: &Graph, source: usize) -> (Vec<u32>, Vec<u32>, Vec<usize>) {
    let extend: fn(u32, u32) -> u32 = match graph.weight_kind() {
        WeightKind::U32 => <u32 as Weight>::extend,
        WeightKind::F32 => <f32 as Weight>::extend,
    };
    let n = graph.num_vertices();
    let mut dist = vec![INFINITY; n];
    let mut pred = vec![NO_PARENT; n];
    let mut settled_at = vec![usize::MAX; n];
    let mut queue = BinaryHeap::from([Reverse((0u32, source))]);
    dist[source] = 0;
    let mut order = 0;
    while let Some(Reverse((d, u))) = queue.pop() {
        if settled_at[u] != usize::MAX || d != dist[u] {
            continue;
        }
        settled_at[u] = order;
        order += 1;
        for (v, w) in graph.csr().edges(u) {
            let through_u = extend(d, w);
            if settled_at[v] == usize::MAX && through_u < SATURATED && through_u < dist[v] {
                dist[v] = through_u;
                pred[v] = u as u32;
                queue.push(Reverse((through_u, v)));
            }
        }
    }
    (dist, pred, settled_at)
}

/// The CPU tree from `source` on `graph` and the reference's predecessors,
/// after checking the tree against the oracle's distances (which the
/// reference must give too), with each vertex's place in the reference's
/// settling order. `None` where the distances overflow.
fn both_trees(graph: &Graph, source: usize, context: &str) -> Option<[Vec<usize>; 3]> {
    let expected = oracle::dijkstra(graph, source).ok()?;
    let (dist, pred, settled_at) = first_settlers(graph, source);
    assert_eq!(dist, expected, "{context}: the reference's distances");
    let tree = cpu::parents::shortest_path_tree(graph, source, &expected)
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    check_tree(graph, source, &expected, &tree, context);
    let ids = |p: Vec<u32>| p.into_iter().map(|p| p as usize).collect();
    Some([ids(tree), ids(pred), settled_at])
}

#[test]
fn with_positive_weights_the_parents_are_scipys_first_settlers() {
    let mut rng = TestRng::new("with_positive_weights_the_parents_are_scipys_first_settlers");
    for case in 0..600 {
        let n = rng.range(1, 80) as usize;
        let m = rng.below(6 * n as u64 + 1) as usize;
        let graph = if case % 4 == 3 {
            // Quarters: exact f32 sums, many ties.
            random_f32_graph(&mut rng, n, m, F32Weights::Quarters)
        } else {
            random_graph_weighted(&mut rng, n, m, 1..=3)
        };
        let source = rng.below(n as u64) as usize;
        let context = format!("case {case}, n = {n}, m = {m}, seed {}", rng.seed);
        let Some([tree, pred, _]) = both_trees(&graph, source, &context) else {
            continue;
        };
        if let Some(v) = (0..n).find(|&v| tree[v] != pred[v]) {
            panic!(
                "{context}: vertex {v} has parent {} where scipy's Dijkstra (ties by id) has {}",
                tree[v], pred[v]
            );
        }
    }
}

#[test]
fn with_zero_weights_the_parents_differ_from_first_settlers_only_in_settling_order() {
    let mut rng = TestRng::new(
        "with_zero_weights_the_parents_differ_from_first_settlers_only_in_settling_order",
    );
    let mut differing = 0;
    for case in 0..600 {
        let n = rng.range(1, 80) as usize;
        let m = rng.below(6 * n as u64 + 1) as usize;
        let graph = random_graph_weighted(&mut rng, n, m, 0..=3);
        let source = rng.below(n as u64) as usize;
        let context = format!("case {case}, n = {n}, m = {m}, seed {}", rng.seed);
        let Some([tree, pred, settled_at]) = both_trees(&graph, source, &context) else {
            continue;
        };
        let dist = oracle::dijkstra(&graph, source).unwrap();
        for v in (0..n).filter(|&v| tree[v] != pred[v]) {
            differing += 1;
            let (ours, theirs) = (tree[v], pred[v]);
            // Both are tight parents (check_tree, and the reference's own
            // relaxation) at one distance, and the reference settled its own
            // first: the order within a distance is all that differs.
            assert!(
                ours != NO_PARENT as usize && theirs != NO_PARENT as usize,
                "{context}: vertex {v} has parent {ours} where the reference has {theirs}"
            );
            assert_eq!(
                dist[ours], dist[theirs],
                "{context}: vertex {v}'s parent {ours} is not at the distance of the \
                 reference's {theirs}"
            );
            assert!(
                settled_at[theirs] < settled_at[ours],
                "{context}: vertex {v}'s parent {ours} was settled before the reference's {theirs}"
            );
        }
    }
    // The case exists: a zero-weight edge makes a larger id settle first.
    assert!(differing > 0, "no graph had zero-weight ties");
}

/// Scipy's test graph (`directed_G` of scipy's test_shortest_path.py) and
/// its undirected form, with the predecessors that the test expects. From
/// vertex 4 of the undirected graph, vertex 1 is reached at distance 4 both
/// from 4 itself and from 3 (at distance 2): scipy's predecessor, and the
/// tree's, is 4.
#[test]
fn scipys_test_graph_has_scipys_predecessors() {
    let arcs = [
        (0, 1, 3),
        (0, 2, 3),
        (1, 3, 2),
        (1, 4, 4),
        (3, 0, 1),
        (4, 0, 2),
        (4, 3, 2),
    ];
    let both_ways: Vec<(u32, u32, u32)> = arcs
        .iter()
        .flat_map(|&(u, v, w)| [(u, v, w), (v, u, w)])
        .collect();
    const NONE: i64 = -9999;
    let directed = [
        [NONE, 0, 0, 1, 1],
        [3, NONE, 0, 1, 1],
        [NONE; 5],
        [3, 0, 0, NONE, 1],
        [4, 0, 0, 4, NONE],
    ];
    let undirected = [
        [NONE, 0, 0, 0, 0],
        [1, NONE, 0, 1, 1],
        [2, 0, NONE, 0, 0],
        [3, 3, 0, NONE, 3],
        [4, 4, 0, 4, NONE],
    ];
    for (edges, scipy) in [(&arcs[..], directed), (&both_ways[..], undirected)] {
        let graph = Graph::from_edges(5, edges).unwrap();
        for (source, expected) in scipy.iter().enumerate() {
            let dist = oracle::dijkstra(&graph, source).unwrap();
            let tree = cpu::parents::shortest_path_tree(&graph, source, &dist).unwrap();
            let tree: Vec<i64> = tree
                .iter()
                .map(|&p| if p == NO_PARENT { NONE } else { p as i64 })
                .collect();
            assert_eq!(
                &tree,
                expected,
                "{} edges, from vertex {source}",
                edges.len()
            );
        }
    }
}
