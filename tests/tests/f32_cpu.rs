//! `f32` weights on the CPU: the `f32` oracle against Dijkstra in `f64` (within
//! the rounding bound, and a check that can fail), and every CPU algorithm, the
//! kernels' per-thread logic instantiated for `f32`, equal to the `f32` oracle
//! bit for bit.

use gpu_kernels::distance::{INFINITY, SATURATED};
use sssp::algorithms::Processor;
use sssp::graph::WeightKind;
use sssp::{Error, Graph, cpu, oracle};
use sssp_tests::{
    F32Weights, TestRng, check_against_oracle, check_tree, exact_algorithms, random_f32_graph,
    random_small_f32_graph,
};

fn check_cpu_algorithms(graph: &Graph, source: usize, matrix_limit: usize, context: &str) {
    let expected = oracle::dijkstra(graph, source);
    if let Ok(expected) = &expected {
        oracle::check_f32_against_f64(graph, source, expected)
            .unwrap_or_else(|e| panic!("{context}: the f32 oracle against f64: {e}"));
        let tree = cpu::parents::shortest_path_tree(graph, source, expected)
            .unwrap_or_else(|e| panic!("{context}: tree: {e}"));
        check_tree(graph, source, expected, &tree, context);
    }
    for algo in exact_algorithms(Processor::Cpu, graph.num_vertices(), matrix_limit) {
        let result = algo.solve_cpu(graph, source);
        check_against_oracle(&expected, result, &format!("{context}, {algo}"));
    }
}

#[test]
fn f32_oracle_is_within_rounding_of_the_f64_oracle() {
    let mut rng = TestRng::new("f32_oracle_is_within_rounding_of_the_f64_oracle");
    for style in [F32Weights::Fractional, F32Weights::Mixed, F32Weights::Tiny] {
        for round in 0..20 {
            let n = rng.range(1, 3000) as usize;
            let m = rng.below(6 * n as u64 + 1) as usize;
            let graph = random_f32_graph(&mut rng, n, m, style);
            let source = rng.below(n as u64) as usize;
            let dist = oracle::dijkstra(&graph, source).expect("no overflow in this style");
            oracle::check_f32_against_f64(&graph, source, &dist).unwrap_or_else(|e| {
                panic!("{style:?}, round {round}, n = {n}, m = {m}, source {source}: {e}")
            });
        }
    }
}

#[test]
fn f64_check_rejects_distances_beyond_rounding() {
    let mut rng = TestRng::new("f64_check_rejects_distances_beyond_rounding");
    let n = 2000;
    // Vertex 0 may draw no out-edges (about 1 graph in 3000): then draw again.
    let (graph, dist, far) = loop {
        let graph = random_f32_graph(&mut rng, n, 8 * n, F32Weights::Fractional);
        let dist = oracle::dijkstra(&graph, 0).unwrap();
        let far: Vec<usize> = (1..n)
            .filter(|&v| dist[v] != INFINITY && f32::from_bits(dist[v]) > 1.0)
            .collect();
        if !far.is_empty() {
            break (graph, dist, far);
        }
    };
    let v = far[rng.below(far.len() as u64) as usize];

    // A relative error of 1e-4 is far above a few hops of 2^-24. (Vertices
    // whose shortest paths run through `v` fail too: their distances are no
    // longer rounded lengths of tight paths.)
    let mut wrong = dist.clone();
    wrong[v] = (f32::from_bits(dist[v]) * 1.0001).to_bits();
    match oracle::check_f32_against_f64(&graph, 0, &wrong) {
        Err(Error::Mismatch { vertex, .. }) => assert!(vertex <= v),
        other => panic!("vertex {v} off by 1e-4: {other:?}"),
    }
    // (One ulp off may still be some longer path's rounded length, within the
    // bound: that is what the exact comparison with the f32 oracle is for.)
    // Reachability must agree exactly.
    let mut unreached = dist.clone();
    unreached[v] = INFINITY;
    assert!(matches!(
        oracle::check_f32_against_f64(&graph, 0, &unreached),
        Err(Error::Mismatch { vertex, .. }) if vertex <= v
    ));
    // A graph of integer weights is not the f64 check's business.
    let integers = Graph::from_edges(2, &[(0, 1, 1)]).unwrap();
    assert!(oracle::check_f32_against_f64(&integers, 0, &[0, 1]).is_err());
}

#[test]
fn every_cpu_algorithm_matches_the_f32_oracle_on_small_graphs() {
    let mut rng = TestRng::new("every_cpu_algorithm_matches_the_f32_oracle_on_small_graphs");
    for round in 0..150 {
        let graph = random_small_f32_graph(&mut rng, 40);
        let source = rng.below(graph.num_vertices() as u64) as usize;
        let context = format!(
            "round {round}: n = {}, m = {}, source {source}",
            graph.num_vertices(),
            graph.num_edges()
        );
        check_cpu_algorithms(&graph, source, 64, &context);
    }
}

#[test]
fn every_cpu_algorithm_matches_the_f32_oracle_on_larger_graphs() {
    let mut rng = TestRng::new("every_cpu_algorithm_matches_the_f32_oracle_on_larger_graphs");
    for style in F32Weights::ALL {
        let n = rng.range(500, 3000) as usize;
        let m = rng.range(n as u64, 7 * n as u64) as usize;
        let graph = random_f32_graph(&mut rng, n, m, style);
        let context = format!("{style:?}: n = {n}, m = {m}");
        check_cpu_algorithms(&graph, 0, 600, &context);
    }
}

/// Weights too small to change a large distance: `1e8 + 1 == 1e8` in `f32`,
/// so vertices 1, 2 and 3 all end at `1e8`, and 3 (reached from 2 and from 1)
/// must not cycle in the tree.
#[test]
fn absorbed_weights_give_equal_distances_and_a_tree() {
    let w = |x: f32| x.to_bits();
    let edges = [
        (0, 1, w(1e8)),
        (1, 2, w(1.0)),
        (2, 3, w(1.0)),
        (3, 2, w(0.5)),
        (0, 4, w(2.0)),
        (4, 5, w(0.25)),
    ];
    let graph = Graph::from_edges(7, &edges)
        .and_then(|g| g.with_weight_kind(WeightKind::F32))
        .unwrap();
    let expected: Vec<u32> = [0.0, 1e8, 1e8, 1e8, 2.0, 2.25]
        .iter()
        .map(|&x: &f32| x.to_bits())
        .chain([INFINITY])
        .collect();
    assert_eq!(oracle::dijkstra(&graph, 0).unwrap(), expected);
    check_cpu_algorithms(&graph, 0, 64, "absorbed weights");
    let tree = cpu::parents::shortest_path_tree(&graph, 0, &expected).unwrap();
    assert_eq!(&tree[1..4], &[0, 1, 2]);
}

#[test]
fn f32_sums_that_overflow_are_errors_not_infinite_distances() {
    let big = (f32::MAX / 2.0 * 1.5).to_bits();
    let graph = Graph::from_edges(3, &[(0, 1, big), (1, 2, big)])
        .and_then(|g| g.with_weight_kind(WeightKind::F32))
        .unwrap();
    match oracle::dijkstra(&graph, 0) {
        Err(Error::DistanceOverflow {
            vertex: 2,
            count: 1,
            weight_type: "f32",
            ..
        }) => {}
        other => panic!("expected an f32 overflow at vertex 2, got {other:?}"),
    }
    for algo in exact_algorithms(Processor::Cpu, 3, 64) {
        assert!(
            matches!(
                algo.solve_cpu(&graph, 0),
                Err(Error::DistanceOverflow { vertex: 2, .. })
            ),
            "{algo}"
        );
    }
    assert_eq!(
        <f32 as gpu_kernels::distance::Weight>::extend(big, big),
        SATURATED
    );
}

#[test]
fn invalid_f32_weights_are_rejected_naming_the_edge() {
    for (bad, what) in [
        ((-1.0f32).to_bits(), "negative"),
        ((-0.0f32).to_bits(), "-0.0"),
        (f32::NAN.to_bits(), "NaN"),
        (f32::INFINITY.to_bits(), "infinite"),
    ] {
        let result = Graph::from_edges(2, &[(0, 1, 0), (1, 0, bad)])
            .unwrap()
            .with_weight_kind(WeightKind::F32);
        let defect = result.expect_err(what);
        assert_eq!(defect.index, 1, "{what}: {defect}");
    }
    // `from_f32_weights` stores -0.0 as +0.0 and rejects the rest.
    let graph = Graph::from_f32_weights(vec![0u32, 1, 1], vec![1u32], &[-0.0]).unwrap();
    assert_eq!(graph.weights(), &[0]);
    assert!(Graph::from_f32_weights(vec![0u32, 1, 1], vec![1u32], &[f32::NAN]).is_err());
}
