//! Every GPU algorithm on adjacency matrices against the CPU oracle, every
//! distance compared, on the papers' matrix graphs of both degree regimes
//! (Martín et al.'s `n / 5`, Ortega-Arranz et al.'s 7). Ignored unless run with
//! `--include-ignored` on a machine with a CUDA GPU.

use gpu_kernels::distance::MAX_DISTANCE;
use sssp::algorithms::{Algorithm, Layout, Processor};
use sssp::generate::random_graph as papers_graph;
use sssp::gpu::context::Gpu;
use sssp::gpu::matrix::MatrixDa2cf;
use sssp::matrix::{MAX_MATRIX_VERTICES, WeightMatrix, matrix_spec};
use sssp::variants::{Frontier, Relax};
use sssp::{Error, Graph, Result, oracle};
use sssp_tests::gpu::gpu;
use sssp_tests::models::check_against_model;
use sssp_tests::{TestRng, check_against_oracle, fig5_graph, random_small_graph};

/// The GPU algorithms of the catalogue that work on adjacency matrices.
fn matrix_gpu_algorithms() -> Vec<Algorithm> {
    let algorithms: Vec<Algorithm> = Algorithm::ALL
        .iter()
        .copied()
        .filter(|a| a.spec().device == Processor::Gpu && a.spec().layout == Layout::Matrix)
        .collect();
    assert_eq!(algorithms.len(), 6, "{algorithms:?}");
    algorithms
}

fn solve(gpu: &Gpu, algo: Algorithm, graph: &Graph, source: u32) -> Result<(Vec<u32>, u32)> {
    let mut solver = algo.prepare_gpu(gpu, graph)?;
    let stats = solver.run(source)?;
    Ok((solver.distances()?, stats.iterations))
}

/// Every matrix GPU algorithm against the oracle on one graph; for graphs of at
/// most `model_limit` vertices, also its iterations and working `relax`
/// threads against the CPU model's (the list form, which settles the same
/// vertices in the same iterations).
fn check_all(gpu: &Gpu, graph: &Graph, source: usize, model_limit: usize, context: &str) {
    let expected = oracle::dijkstra(graph, source);
    for algo in matrix_gpu_algorithms() {
        let result = solve(gpu, algo, graph, source as u32);
        // A matched overflow has nothing more to check.
        let Some(iterations) =
            check_against_oracle(&expected, result, &format!("{context}, {algo}"))
        else {
            continue;
        };
        if graph.num_vertices() <= model_limit {
            let form = algo
                .spec()
                .model
                .expect("every matrix algorithm has a CPU model");
            check_against_model(gpu, algo, graph, source, form, iterations, context);
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn every_matrix_algorithm_matches_the_oracle_on_the_papers_matrices() {
    let gpu = gpu();
    let mut rng = TestRng::new(
        "gpu_matrix::every_matrix_algorithm_matches_the_oracle_on_the_papers_matrices",
    );
    for n in [1usize, 2, 3, 255, 256, 257, 1024, 3000] {
        for degree in [None, Some(7)] {
            let spec = matrix_spec(n, degree, rng.bits());
            let graph = papers_graph(&spec).unwrap();
            let source = rng.below(n as u64) as usize;
            let context = format!(
                "n = {n}, degree {}, source {source}, seed {}",
                spec.degree, rng.seed
            );
            check_all(&gpu, &graph, source, usize::MAX, &context);
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn every_matrix_algorithm_matches_the_oracle_at_15_ki_vertices() {
    let gpu = gpu();
    let mut rng =
        TestRng::new("gpu_matrix::every_matrix_algorithm_matches_the_oracle_at_15_ki_vertices");
    // The largest size of Fig. 7, Martín et al.'s degree n / 5 (47 M edges, a
    // 900 MiB matrix).
    let n = 15 * 1024;
    let spec = matrix_spec(n, None, rng.bits());
    let graph = papers_graph(&spec).unwrap();
    let source = rng.below(n as u64) as usize;
    let context = format!(
        "n = {n}, degree {}, source {source}, seed {}",
        spec.degree, rng.seed
    );
    check_all(&gpu, &graph, source, 0, &context);
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn every_matrix_algorithm_matches_the_oracle_on_small_random_graphs() {
    let gpu = gpu();
    let mut rng = TestRng::new(
        "gpu_matrix::every_matrix_algorithm_matches_the_oracle_on_small_random_graphs",
    );
    // Zero weights, self-loops, parallel edges, unreachable vertices and
    // overflowing paths.
    for case in 0..100 {
        let graph = random_small_graph(&mut rng, 80);
        let source = rng.below(graph.num_vertices() as u64) as usize;
        check_all(
            &gpu,
            &graph,
            source,
            usize::MAX,
            &format!("case {case}, seed {}", rng.seed),
        );
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn fig5_counterexample_every_matrix_algorithm_100_times() {
    let gpu = gpu();
    let graph = fig5_graph(1024);
    let expected = oracle::dijkstra(&graph, 0).unwrap();
    for algo in matrix_gpu_algorithms() {
        let mut solver = algo.prepare_gpu(&gpu, &graph).unwrap();
        for run in 0..100 {
            solver.run(0).unwrap();
            let dist = solver.distances().unwrap();
            assert_eq!(
                dist[1023], 2,
                "{algo}, run {run}: the last vertex must be at distance 2"
            );
            assert_eq!(dist, expected, "{algo}, run {run}");
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn overflow_is_reported_like_the_oracle() {
    let gpu = gpu();
    let w = MAX_DISTANCE / 2 + 1;
    let overflowing = Graph::from_edges(4, &[(0, 1, w), (1, 2, w), (1, 3, w), (0, 3, 5)]).unwrap();
    let fitting = Graph::from_edges(3, &[(0, 1, w), (1, 2, w - 1), (2, 0, u32::MAX)]).unwrap();
    let max_weight = Graph::from_edges(3, &[(0, 1, u32::MAX), (0, 2, 3)]).unwrap();
    for algo in matrix_gpu_algorithms() {
        match solve(&gpu, algo, &overflowing, 0) {
            Err(Error::DistanceOverflow {
                vertex: 2,
                count: 1,
                ..
            }) => {}
            other => panic!("{algo}: expected an overflow at vertex 2, got {other:?}"),
        }
        assert_eq!(
            solve(&gpu, algo, &fitting, 0).unwrap().0,
            vec![0, w, MAX_DISTANCE],
            "{algo}"
        );
        match solve(&gpu, algo, &max_weight, 0) {
            Err(Error::DistanceOverflow {
                vertex: 1,
                count: 1,
                ..
            }) => {}
            other => panic!("{algo}: expected an overflow at vertex 1, got {other:?}"),
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn bad_sources_sizes_and_relaxations_are_errors_and_the_solver_stays_usable() {
    let gpu = gpu();
    let graph = Graph::from_edges(3, &[(0, 1, 4), (1, 2, 4)]).unwrap();
    for algo in matrix_gpu_algorithms() {
        let mut solver = algo.prepare_gpu(&gpu, &graph).unwrap();
        assert!(
            matches!(
                solver.run(3),
                Err(Error::SourceOutOfRange {
                    vertex: 3,
                    num_vertices: 3
                })
            ),
            "{algo}"
        );
        solver.run(1).unwrap();
        assert_eq!(solver.distances().unwrap(), vec![u32::MAX, 0, 4], "{algo}");
    }
    let matrix = WeightMatrix::from_graph(&graph).unwrap();
    for relax in [Relax::PushNoAtomic, Relax::PullPlus] {
        assert!(matches!(
            MatrixDa2cf::new(&gpu, &matrix, relax, Frontier::Martin),
            Err(Error::InvalidArgument(_))
        ));
    }
    let n = MAX_MATRIX_VERTICES + 1;
    let too_large = Graph::new(vec![0u32; n + 1], Vec::new(), Vec::new()).unwrap();
    for algo in matrix_gpu_algorithms() {
        assert!(
            matches!(
                algo.prepare_gpu(&gpu, &too_large),
                Err(Error::InvalidArgument(_))
            ),
            "{algo}"
        );
    }
}
