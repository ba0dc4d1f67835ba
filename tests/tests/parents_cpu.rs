//! Shortest-path trees on the CPU (`sssp::cpu::parents`, the tree kernel's
//! per-thread logic), from the distances of every CPU solver, checked against
//! the tree that the oracle's distances give (`sssp::parents::check`); the
//! check itself, paths, and the per-thread logic's edge cases.

use std::sync::atomic::{AtomicU32, Ordering};

use gpu_kernels::csr::Csr;
use gpu_kernels::distance::{INFINITY, MAX_DISTANCE, SATURATED};
use gpu_kernels::parents::{NO_PARENT, NOT_IN_TREE, join_round};
use sssp::algorithms::{Algorithm, Processor};
use sssp::generate::{GridSpec, grid_graph};
use sssp::{Error, Graph, cpu, formats, oracle, parents};
use sssp_tests::{
    TestRng, check_tree, find_graph, random_graph as random_edges, random_small_graph,
};

/// Every exact CPU solver (the oracle included).
fn cpu_solvers() -> Vec<Algorithm> {
    Algorithm::ALL
        .iter()
        .copied()
        .filter(|a| a.spec().device == Processor::Cpu && a.spec().exact)
        .filter(|a| a.spec().solves_graphs())
        .collect()
}

/// Solves with `algo`, builds the CPU tree from its distances and checks it
/// against the oracle's distances. A graph whose distances overflow has no tree
/// to check (the solver reports the overflow, as tested elsewhere).
fn check(graph: &Graph, source: usize, algo: Algorithm, context: &str) {
    let Ok(expected) = oracle::dijkstra(graph, source) else {
        return;
    };
    let (dist, _) = algo
        .solve_cpu(graph, source)
        .unwrap_or_else(|e| panic!("{context}, {algo}: {e}"));
    let tree = cpu::parents::shortest_path_tree(graph, source, &dist)
        .unwrap_or_else(|e| panic!("{context}, {algo}: {e}"));
    check_tree(
        graph,
        source,
        &expected,
        &tree,
        &format!("{context}, {algo}"),
    );
}

#[test]
fn cpu_tree_is_the_oracles_on_small_random_graphs() {
    let mut rng = TestRng::new("cpu_tree_is_the_oracles_on_small_random_graphs");
    let solvers = cpu_solvers();
    for case in 0..600 {
        let graph = random_small_graph(&mut rng, 60);
        let source = rng.below(graph.num_vertices() as u64) as usize;
        let algo = solvers[case % solvers.len()];
        check(
            &graph,
            source,
            algo,
            &format!("case {case}, seed {}", rng.seed),
        );
    }
}

#[test]
fn cpu_tree_is_the_oracles_on_larger_graphs_with_zero_weights_and_ties() {
    let mut rng =
        TestRng::new("cpu_tree_is_the_oracles_on_larger_graphs_with_zero_weights_and_ties");
    for n in [1usize, 2, 255, 256, 257, 1000, 5000] {
        for max_weight in [0u32, 1, 10, 1000] {
            let m = rng.range(0, 6 * n as u64) as usize;
            let graph = random_edges(&mut rng, n, m, max_weight);
            let source = rng.below(n as u64) as usize;
            let context = format!(
                "n = {n}, m = {m}, max weight {max_weight}, seed {}",
                rng.seed
            );
            check(&graph, source, Algorithm::UCpu, &context);
        }
    }
    // A grid with zero weights only: the whole tree is built by breadth-first
    // rounds over zero-weight edges, one round per level.
    let grid = grid_graph(&GridSpec {
        width: 40,
        height: 30,
        min_weight: 0,
        max_weight: 0,
        seed: rng.bits(),
    })
    .unwrap();
    check(
        &grid,
        rng.below(1200) as usize,
        Algorithm::Dijkstra,
        &format!("zero-weight grid, seed {}", rng.seed),
    );
}

#[test]
fn cpu_tree_of_rome99_is_the_oracles() {
    let path = find_graph("rome99.gr");
    let loaded = formats::load(&path, None).unwrap();
    let graph = loaded.graph().unwrap();
    let mut rng = TestRng::new("cpu_tree_of_rome99_is_the_oracles");
    for source in [0, graph.num_vertices() - 1, rng.below(3353) as usize] {
        check(
            &graph,
            source,
            Algorithm::FCpu,
            &format!("rome99 from {source}, seed {}", rng.seed),
        );
    }
}

/// Two vertices at the same distance joined both ways by zero-weight edges,
/// each also reached from a larger vertex: "the smallest `u` with
/// `dist[u] + w = dist[v]`" would make them each other's parent. The tree takes
/// the positive edges, and a vertex reached only through zero-weight edges the
/// vertex that joined the tree first.
#[test]
fn zero_weight_cycles_still_give_a_tree() {
    // 2 -> 0 and 2 -> 1 of weight 5; 0 <-> 1 of weight 0.
    let graph = Graph::from_edges(3, &[(2, 0, 5), (2, 1, 5), (0, 1, 0), (1, 0, 0)]).unwrap();
    let dist = oracle::dijkstra(&graph, 2).unwrap();
    let tree = cpu::parents::shortest_path_tree(&graph, 2, &dist).unwrap();
    assert_eq!(tree, vec![2, 2, NO_PARENT]);
    check_tree(&graph, 2, &dist, &tree, "two-cycle");
    // 3 -> 2 of weight 1, then 2 -> 1 -> 0 and 0 -> 1, 0 -> 2 of weight 0: 1 and
    // 0 are reached only through zero-weight edges, 1 first.
    let graph =
        Graph::from_edges(4, &[(3, 2, 1), (2, 1, 0), (1, 0, 0), (0, 1, 0), (0, 2, 0)]).unwrap();
    let dist = oracle::dijkstra(&graph, 3).unwrap();
    assert_eq!(dist, vec![1, 1, 1, 0]);
    let tree = cpu::parents::shortest_path_tree(&graph, 3, &dist).unwrap();
    assert_eq!(tree, vec![1, 2, 3, NO_PARENT]);
    check_tree(&graph, 3, &dist, &tree, "zero-weight chain");
    // From a source with a zero-weight edge back to it: the source keeps no parent.
    let graph = Graph::from_edges(2, &[(0, 1, 0), (1, 0, 0)]).unwrap();
    let tree = cpu::parents::shortest_path_tree(&graph, 0, &[0, 0]).unwrap();
    assert_eq!(tree, vec![NO_PARENT, 0]);
}

/// The per-thread logic on hand-made distances: a saturated sum never counts as
/// tight, nor does an unreached predecessor, even where `INFINITY + 0 =
/// INFINITY` equals the vertex's distance; vertices without an exact distance
/// get no parent.
#[test]
fn unreached_and_saturated_distances_never_match() {
    // Vertex 2's predecessors: 0 (weight u32::MAX) and 1 (weight 0); vertex 3's:
    // 1 (weight 0); vertex 4's: 0 (weight u32::MAX).
    let offsets = [0, 0, 0, 2, 3, 4];
    let sources = [0, 1, 1, 0];
    let weights = [u32::MAX, 0, 0, u32::MAX];
    let predecessors = Csr {
        offsets: &offsets,
        targets: &sources,
        weights: &weights,
    };
    let source = 0;
    let dist = [
        MAX_DISTANCE - 1,
        INFINITY,
        MAX_DISTANCE,
        INFINITY,
        SATURATED,
    ];
    let level: Vec<AtomicU32> = (0..5).map(|_| AtomicU32::new(0)).collect();
    let mut parent = [0u32; 5];
    let mut more = [false; 5];
    for round in 0..3 {
        for v in 0..5 {
            more[v] = join_round::<u32>(
                v,
                source,
                round,
                predecessors,
                &dist,
                &mut parent[v],
                &level,
            );
        }
        if round == 0 {
            // Only vertex 2 is reached at an exact distance without a parent yet.
            assert_eq!(more, [false, false, true, false, false]);
        } else {
            assert_eq!(more, [false; 5], "round {round}");
        }
    }
    assert_eq!(parent, [NO_PARENT; 5]);
    let levels: Vec<u32> = level.iter().map(|l| l.load(Ordering::Relaxed)).collect();
    assert_eq!(
        levels,
        [0, NOT_IN_TREE, NOT_IN_TREE, NOT_IN_TREE, NOT_IN_TREE]
    );
}

/// A graph and its tree for the check's rejection tests: 0 -> 1 (2), 0 -> 2 (1),
/// 2 -> 1 (1), 1 -> 3 (1), 2 -> 3 (5); vertex 4 unreached. From 0: distances
/// 0, 2, 1, 3, inf; 1 has two tight in-edges (from 0 and 2), its parent is 0.
fn small() -> (Graph<'static>, Vec<u32>, Vec<u32>) {
    let graph = Graph::from_edges(
        5,
        &[
            (0, 1, 2),
            (0, 2, 1),
            (2, 1, 1),
            (1, 3, 1),
            (2, 3, 5),
            (4, 0, 1),
        ],
    )
    .unwrap();
    let dist = oracle::dijkstra(&graph, 0).unwrap();
    assert_eq!(dist, vec![0, 2, 1, 3, INFINITY]);
    let tree = vec![NO_PARENT, 0, 0, 1, NO_PARENT];
    (graph, dist, tree)
}

#[test]
fn the_check_rejects_every_wrong_parent() {
    let (graph, dist, tree) = small();
    parents::check(&graph, 0, &dist, &tree).unwrap();
    assert_eq!(
        cpu::parents::shortest_path_tree(&graph, 0, &dist).unwrap(),
        tree
    );
    let wrong = |v: usize, p: u32| {
        let mut wrong = tree.clone();
        wrong[v] = p;
        wrong
    };
    for (what, bad, vertex) in [
        ("a parent for the source", wrong(0, 4), 0),
        ("a tight parent that is not the smallest", wrong(1, 2), 1),
        ("a parent on no tight edge", wrong(3, 2), 3),
        ("a parent on no edge", wrong(2, 3), 2),
        ("no parent for a reached vertex", wrong(3, NO_PARENT), 3),
        ("a parent for an unreached vertex", wrong(4, 0), 4),
    ] {
        match parents::check(&graph, 0, &dist, &bad) {
            Err(Error::TreeMismatch {
                vertex: v,
                count: 1,
                ..
            }) if v == vertex => {}
            other => panic!("{what}: expected a mismatch at vertex {vertex}, got {other:?}"),
        }
    }
    assert!(matches!(
        parents::check(&graph, 0, &dist, &tree[..4]),
        Err(Error::TreeMismatch { count: 1, .. })
    ));
    // Distances that no shortest path gives, a bad source, too few distances.
    let mut not_shortest = dist.clone();
    not_shortest[3] = 2;
    for (source, dist) in [(0, &not_shortest[..]), (5, &dist[..]), (0, &dist[..4])] {
        assert!(
            matches!(
                parents::check(&graph, source, dist, &tree),
                Err(Error::InvalidArgument(_) | Error::SourceOutOfRange { .. })
            ),
            "source {source}, distances {dist:?}"
        );
    }
    assert!(cpu::parents::shortest_path_tree(&graph, 5, &dist).is_err());
    assert!(cpu::parents::shortest_path_tree(&graph, 0, &dist[..4]).is_err());
}

#[test]
fn paths_follow_the_tree_and_reject_what_is_not_one() {
    let (_, _, tree) = small();
    assert_eq!(parents::path(&tree, 0, 3).unwrap(), Some(vec![0, 1, 3]));
    assert_eq!(parents::path(&tree, 0, 0).unwrap(), Some(vec![0]));
    assert_eq!(parents::path(&tree, 0, 4).unwrap(), None);
    assert!(parents::path(&tree, 0, 5).is_err());
    // A cycle, an id out of range, a chain that ends away from the source.
    for bad in [
        vec![NO_PARENT, 3, 0, 1, NO_PARENT],
        vec![NO_PARENT, 9, 0, 1, NO_PARENT],
        vec![NO_PARENT, 4, 0, 1, NO_PARENT],
    ] {
        assert!(
            matches!(parents::path(&bad, 0, 3), Err(Error::InvalidArgument(_))),
            "{bad:?}"
        );
    }
}
