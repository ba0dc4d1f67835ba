//! DA2CF on adjacency matrices on the CPU (the matrix kernels' per-thread logic,
//! run block by block with the GPU's chunked staging) against the oracle, with
//! several block sizes and odd vertex counts; the matrix built from a CSR; the
//! papers' matrix graphs.

use gpu_kernels::distance::{INFINITY, MAX_DISTANCE, SATURATED};
use sssp::algorithms::{Algorithm, Layout, Processor};
use sssp::cpu::matrix::{da2cf_matrix, da2cf_matrix_blocks};
use sssp::generate::random_graph as papers_graph;
use sssp::matrix::{MAX_MATRIX_VERTICES, NO_EDGE, WeightMatrix, matrix_spec};
use sssp::variants::{Frontier, Relax};
use sssp::{Error, Graph, cpu, oracle};
use sssp_tests::models::{DA2CF_FORMS as FORMS, check_form_iterations};
use sssp_tests::{TestRng, fig5_graph, random_graph, random_small_graph};

/// Block sizes for the CPU model of a block: tiny, odd, a warp, the GPU's.
const BLOCK_SIZES: [usize; 8] = [1, 2, 3, 4, 5, 7, 32, 256];

/// Compares one matrix form with the oracle's `expected` (overflow included)
/// and returns its iterations and working `relax` threads (`None` when both
/// overflow).
fn check(
    matrix: &WeightMatrix,
    expected: &sssp::Result<Vec<u32>>,
    source: usize,
    (relax, rule): (Relax, Frontier),
    block_dim: usize,
    context: &str,
) -> Option<(u32, Option<u64>)> {
    let result = da2cf_matrix_blocks(matrix, source, relax, rule, block_dim);
    let context = format!("{context}, {relax:?}/{rule:?}, block {block_dim}, source {source}");
    match expected {
        Ok(expected) => {
            let result = result.unwrap_or_else(|e| panic!("{context}: {e}"));
            assert_eq!(result.dist.len(), expected.len(), "{context}");
            if let Some(v) = (0..expected.len()).find(|&v| expected[v] != result.dist[v]) {
                panic!(
                    "{context}: vertex {v} expected {}, got {}; matrix {matrix:?}",
                    expected[v], result.dist[v]
                );
            }
            Some((result.iterations, result.working_threads))
        }
        Err(Error::DistanceOverflow { vertex, count, .. }) => {
            assert!(
                matches!(result, Err(Error::DistanceOverflow { vertex: v, count: c, .. }) if (v, c) == (*vertex, *count)),
                "{context}: the oracle overflows at {vertex} ({count} vertices), got {result:?}"
            );
            None
        }
        Err(e) => panic!("{context}: oracle failed: {e}"),
    }
}

/// Every form on one graph; checks push = pull iterations, iterations and
/// working `relax` threads equal to the list forms', and Crauser's iterations
/// never more than Martín's. Returns the iterations of the six forms.
fn check_all_forms(
    graph: &Graph,
    source: usize,
    block_dim: usize,
    context: &str,
) -> Vec<Option<u32>> {
    let matrix = WeightMatrix::from_graph(graph).unwrap();
    let expected = oracle::dijkstra(graph, source);
    let results: Vec<Option<(u32, Option<u64>)>> = FORMS
        .iter()
        .map(|&form| check(&matrix, &expected, source, form, block_dim, context))
        .collect();
    for (k, &(relax, rule)) in FORMS.iter().enumerate() {
        if let Some(matrix_result) = results[k] {
            // The same algorithm on the same graph: the list form settles the
            // same vertices in the same iterations, with the same flags set
            // before each `relax`.
            let list = cpu::da2cf_model(graph, source, relax, rule).unwrap();
            assert_eq!(
                matrix_result,
                (list.iterations, list.working_threads),
                "{context}, {relax:?}/{rule:?}: matrix vs list iterations and working threads"
            );
        }
    }
    let iterations: Vec<Option<u32>> = results.iter().map(|r| r.map(|r| r.0)).collect();
    check_form_iterations(&iterations, context);
    iterations
}

#[test]
fn every_matrix_form_matches_the_oracle_on_small_random_graphs() {
    let mut rng = TestRng::new("every_matrix_form_matches_the_oracle_on_small_random_graphs");
    for case in 0..400 {
        let graph = random_small_graph(&mut rng, 50);
        let source = rng.below(graph.num_vertices() as u64) as usize;
        let block_dim = BLOCK_SIZES[rng.below(BLOCK_SIZES.len() as u64) as usize];
        check_all_forms(
            &graph,
            source,
            block_dim,
            &format!("case {case}, seed {}", rng.seed),
        );
    }
}

#[test]
fn every_block_size_gives_the_same_result_on_odd_vertex_counts() {
    let mut rng = TestRng::new("every_block_size_gives_the_same_result_on_odd_vertex_counts");
    for case in 0..40 {
        // Odd n, often not a multiple of the block, sometimes below it.
        let n = 2 * rng.range(0, 60) as usize + 1;
        let m = rng.below(4 * (n * n) as u64 / 3 + 1) as usize;
        let max_weight = [0u32, 1, 10, 1000][rng.below(4) as usize];
        let graph = random_graph(&mut rng, n, m, max_weight);
        let source = rng.below(n as u64) as usize;
        let context = format!("case {case}, n = {n}, m = {m}, seed {}", rng.seed);
        let reference = check_all_forms(&graph, source, 256, &context);
        for block_dim in BLOCK_SIZES {
            assert_eq!(
                check_all_forms(&graph, source, block_dim, &context),
                reference,
                "{context}, block {block_dim}"
            );
        }
    }
}

#[test]
fn the_papers_matrix_graphs_of_both_degrees_match_the_oracle() {
    let mut rng = TestRng::new("the_papers_matrix_graphs_of_both_degrees_match_the_oracle");
    for n in [1usize, 2, 3, 5, 31, 255, 256, 257, 333, 1021] {
        for degree in [None, Some(7)] {
            let spec = matrix_spec(n, degree, rng.bits());
            let graph = papers_graph(&spec).unwrap();
            let source = rng.below(n as u64) as usize;
            let block_dim = [4usize, 32, 256][rng.below(3) as usize];
            let context = format!("n = {n}, degree {}, seed {}", spec.degree, rng.seed);
            let iterations = check_all_forms(&graph, source, block_dim, &context);
            if n >= 255 {
                println!("{context}: iterations {iterations:?}");
            }
        }
    }
}

#[test]
fn crauser_saves_iterations_on_the_papers_matrix_graph() {
    let mut rng = TestRng::new("crauser_saves_iterations_on_the_papers_matrix_graph");
    let n = rng.range(500, 1500) as usize;
    let graph = papers_graph(&matrix_spec(n, Some(7), rng.bits())).unwrap();
    let context = format!("n = {n}, degree 7, seed {}", rng.seed);
    let iterations = check_all_forms(&graph, 0, 256, &context);
    let (martin, general, economic) = (
        iterations[0].unwrap(),
        iterations[2].unwrap(),
        iterations[4].unwrap(),
    );
    println!("iterations: Martín {martin}, Crauser general {general}, economic {economic}");
    assert!(
        general < martin,
        "{context}: with weights 1..=10 the general frontier should save iterations"
    );
}

#[test]
fn every_matrix_form_solves_fig5() {
    let graph = fig5_graph(1024);
    let matrix = WeightMatrix::from_graph(&graph).unwrap();
    let expected = oracle::dijkstra(&graph, 0).unwrap();
    for (relax, rule) in FORMS {
        for block_dim in [32, 256] {
            let result = da2cf_matrix_blocks(&matrix, 0, relax, rule, block_dim).unwrap();
            assert_eq!(result.dist[1023], 2, "{relax:?}/{rule:?}");
            assert_eq!(result.dist, expected, "{relax:?}/{rule:?}");
        }
    }
}

#[test]
fn overflow_is_reported_like_the_oracle() {
    let w = MAX_DISTANCE / 2 + 1;
    let overflowing = Graph::from_edges(4, &[(0, 1, w), (1, 2, w), (1, 3, w), (0, 3, 5)]).unwrap();
    let fitting = Graph::from_edges(3, &[(0, 1, w), (1, 2, w - 1), (2, 0, u32::MAX)]).unwrap();
    let max_weight = Graph::from_edges(3, &[(0, 1, u32::MAX), (0, 2, 3)]).unwrap();
    for (relax, rule) in FORMS {
        let solve =
            |graph: &Graph| da2cf_matrix(&WeightMatrix::from_graph(graph).unwrap(), 0, relax, rule);
        match solve(&overflowing) {
            Err(Error::DistanceOverflow {
                vertex: 2,
                count: 1,
                ..
            }) => {}
            other => panic!("{relax:?}/{rule:?}: expected an overflow at vertex 2, got {other:?}"),
        }
        assert_eq!(
            solve(&fitting).unwrap().dist,
            vec![0, w, MAX_DISTANCE],
            "{relax:?}/{rule:?}"
        );
        match solve(&max_weight) {
            Err(Error::DistanceOverflow {
                vertex: 1,
                count: 1,
                ..
            }) => {}
            other => panic!("{relax:?}/{rule:?}: expected an overflow at vertex 1, got {other:?}"),
        }
    }
}

#[test]
fn from_graph_keeps_the_smallest_parallel_edge_and_marks_missing_ones() {
    let graph = Graph::from_edges(
        4,
        &[
            (0, 1, 9),
            (0, 1, 4),
            (0, 1, 7),
            (1, 1, 3),
            (1, 1, 0),
            (2, 3, u32::MAX),
            (3, 0, SATURATED),
            (3, 2, 0),
        ],
    )
    .unwrap();
    let matrix = WeightMatrix::from_graph(&graph).unwrap();
    assert_eq!(matrix.num_vertices(), 4);
    assert_eq!(matrix.weights().len(), 16);
    assert_eq!(matrix.bytes(), 64);
    assert_eq!(
        matrix.weight(0, 1),
        Some(4),
        "parallel edges keep the smallest weight"
    );
    assert_eq!(matrix.weight(1, 1), Some(0), "self-loops too");
    assert_eq!(
        matrix.weight(2, 3),
        Some(SATURATED),
        "u32::MAX is stored as SATURATED"
    );
    assert_eq!(matrix.weight(3, 0), Some(SATURATED));
    assert_eq!(matrix.weight(3, 2), Some(0));
    assert_eq!(matrix.weight(1, 0), None, "edges have a direction");
    assert_eq!(matrix.weights()[4], NO_EDGE);
    assert_eq!(NO_EDGE, INFINITY);
    assert_eq!(matrix.num_edges(), 5);
    assert_eq!(matrix.min_weight(), 0);
    let empty = WeightMatrix::from_graph(&Graph::from_edges(3, &[]).unwrap()).unwrap();
    assert!(empty.weights().iter().all(|&w| w == NO_EDGE));
    assert_eq!(empty.min_weight(), INFINITY);
}

#[test]
fn from_graph_matches_the_edge_list_on_random_graphs() {
    let mut rng = TestRng::new("from_graph_matches_the_edge_list_on_random_graphs");
    for _ in 0..50 {
        let graph = random_small_graph(&mut rng, 40);
        let n = graph.num_vertices();
        let matrix = WeightMatrix::from_graph(&graph).unwrap();
        let mut expected = vec![None::<u32>; n * n];
        for u in 0..n {
            for (v, w) in graph.csr().edges(u) {
                let slot = &mut expected[u * n + v];
                *slot = Some(slot.map_or(w, |x| x.min(w)));
            }
        }
        for u in 0..n {
            for v in 0..n {
                assert_eq!(
                    matrix.weight(u, v),
                    expected[u * n + v],
                    "({u}, {v}), seed {}",
                    rng.seed
                );
            }
        }
    }
}

#[test]
fn too_large_matrices_are_refused() {
    let n = MAX_MATRIX_VERTICES + 1;
    let graph = Graph::new(vec![0u32; n + 1], Vec::new(), Vec::new()).unwrap();
    match WeightMatrix::from_graph(&graph) {
        Err(Error::InvalidArgument(message)) => {
            assert!(message.contains(&n.to_string()), "{message}")
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert!(matches!(
        WeightMatrix::entries_for(usize::MAX),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        WeightMatrix::entries_for(1 << 40),
        Err(Error::InvalidArgument(_))
    ));
    assert_eq!(
        WeightMatrix::entries_for(MAX_MATRIX_VERTICES).unwrap(),
        1 << 32
    );
    assert_eq!(
        WeightMatrix::bytes_for(15 * 1024),
        4 * 15 * 1024 * 15 * 1024
    );
    assert!(matches!(
        WeightMatrix::from_entries(3, vec![0; 8]),
        Err(Error::InvalidArgument(_))
    ));
    // The catalogue's matrix algorithms refuse it the same way.
    assert!(matches!(
        Algorithm::MatrixUCpu.solve_cpu(&graph, 0),
        Err(Error::InvalidArgument(_))
    ));
}

#[test]
fn bad_arguments_are_errors() {
    let matrix = WeightMatrix::from_graph(&fig5_graph(8)).unwrap();
    for relax in [Relax::PushNoAtomic, Relax::PullPlus] {
        assert!(matches!(
            da2cf_matrix(&matrix, 0, relax, Frontier::Martin),
            Err(Error::InvalidArgument(_))
        ));
    }
    assert!(matches!(
        da2cf_matrix_blocks(&matrix, 0, Relax::Pull, Frontier::Martin, 0),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        da2cf_matrix(&matrix, 8, Relax::Push, Frontier::Martin),
        Err(Error::SourceOutOfRange {
            vertex: 8,
            num_vertices: 8
        })
    ));
}

#[test]
fn matrix_spec_follows_the_papers() {
    let spec = matrix_spec(15 * 1024, None, 5);
    assert_eq!(
        (
            spec.num_vertices,
            spec.degree,
            spec.min_weight,
            spec.max_weight,
            spec.seed
        ),
        (15 * 1024, 3072, 1, 10, 5)
    );
    assert_eq!(matrix_spec(1024, Some(7), 1).degree, 7);
    assert_eq!(
        matrix_spec(3, None, 1).degree,
        1,
        "at least one predecessor"
    );
    let graph = papers_graph(&matrix_spec(100, None, 9)).unwrap();
    assert_eq!(graph.num_edges(), 100 * 20);
    assert!(graph.weights().iter().all(|&w| (1..=10).contains(&w)));
}

#[test]
fn the_catalogues_matrix_cpu_algorithms_are_exact() {
    let mut rng = TestRng::new("the_catalogues_matrix_cpu_algorithms_are_exact");
    let graph = random_graph(&mut rng, 301, 3000, 10);
    let source = rng.below(301) as usize;
    let expected = oracle::dijkstra(&graph, source).unwrap();
    let matrix_algorithms: Vec<Algorithm> = Algorithm::ALL
        .iter()
        .copied()
        .filter(|a| a.spec().layout == Layout::Matrix)
        .collect();
    assert_eq!(matrix_algorithms.len(), 8, "{matrix_algorithms:?}");
    for algo in matrix_algorithms {
        if algo.spec().device == Processor::Cpu {
            let (dist, iterations) = algo
                .solve_cpu(&graph, source)
                .unwrap_or_else(|e| panic!("{algo}: {e}"));
            assert_eq!(dist, expected, "{algo}, seed {}", rng.seed);
            assert!(iterations.is_some(), "{algo}");
        } else {
            assert!(algo.spec().exact, "{algo}");
        }
    }
}
