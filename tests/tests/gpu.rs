//! Every GPU algorithm of the catalogue against the CPU oracle, every distance
//! compared. Ignored unless run with `--include-ignored` on a machine with a
//! CUDA GPU.

use gpu_kernels::distance::MAX_DISTANCE;
use sssp::algorithms::{Algorithm, Layout, Processor};
use sssp::generate::{RandomGraphSpec, random_graph};
use sssp::gpu::context::Gpu;
use sssp::options::Tuning;
use sssp::{Error, Graph, oracle};
use sssp_tests::gpu::{gpu, solve};
use sssp_tests::models::check_against_model;
use sssp_tests::{
    TestRng, check_against_oracle, fig5_graph, random_graph as random_edges, random_small_graph,
};

/// The GPU algorithms that must always be right (all but F^GPU_no_Atomic).
fn exact_gpu_algorithms() -> Vec<Algorithm> {
    // Matrix algorithms have their own tests (gpu_matrix.rs): n² entries do not fit the larger graphs here.
    Algorithm::ALL
        .iter()
        .copied()
        .filter(|a| {
            a.spec().device == Processor::Gpu
                && a.spec().exact
                && a.spec().layout == Layout::List
                && a.spec().solves_graphs()
        })
        .collect()
}

/// Every exact GPU algorithm against the oracle on one graph.
fn check_all(gpu: &Gpu, graph: &Graph, source: usize, context: &str) {
    let expected = oracle::dijkstra(graph, source);
    for algo in exact_gpu_algorithms() {
        let result = solve(gpu, algo, graph, source, Tuning::default());
        // A matched overflow has nothing more to check.
        let Some(iterations) =
            check_against_oracle(&expected, result, &format!("{context}, {algo}"))
        else {
            continue;
        };
        if let Some(form) = algo
            .spec()
            .model
            .filter(|_| graph.num_vertices() <= 100_000)
        {
            check_against_model(gpu, algo, graph, source, form, iterations, context);
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn every_gpu_algorithm_matches_the_oracle_on_small_random_graphs() {
    let gpu = gpu();
    let mut rng =
        TestRng::new("gpu::every_gpu_algorithm_matches_the_oracle_on_small_random_graphs");
    for case in 0..120 {
        let graph = random_small_graph(&mut rng, 80);
        let source = rng.below(graph.num_vertices() as u64) as usize;
        check_all(
            &gpu,
            &graph,
            source,
            &format!("case {case}, seed {}", rng.seed),
        );
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn every_gpu_algorithm_matches_the_oracle_from_1_to_2_pow_20_vertices() {
    let gpu = gpu();
    let mut rng =
        TestRng::new("gpu::every_gpu_algorithm_matches_the_oracle_from_1_to_2_pow_20_vertices");
    for n in [
        1usize, 2, 3, 255, 256, 257, 511, 512, 513, 4096, 65_537, 262_147,
    ] {
        let m = rng.range(0, 8 * n as u64) as usize;
        let max_weight = [0u32, 1, 10, 1000][rng.below(4) as usize];
        let graph = random_edges(&mut rng, n, m, max_weight);
        let source = rng.below(n as u64) as usize;
        check_all(
            &gpu,
            &graph,
            source,
            &format!(
                "random n = {n}, m = {m}, max weight {max_weight}, seed {}",
                rng.seed
            ),
        );
    }
    for n in [1usize << 10, 1 << 16, 1 << 20] {
        let graph = random_graph(&RandomGraphSpec::papers(n, rng.bits())).unwrap();
        let source = rng.below(n as u64) as usize;
        check_all(
            &gpu,
            &graph,
            source,
            &format!("papers' graph n = {n}, seed {}", rng.seed),
        );
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn fig5_counterexample_every_exact_algorithm_100_times_and_no_atomic_measured() {
    let gpu = gpu();
    let graph = fig5_graph(1024);
    let expected = oracle::dijkstra(&graph, 0).unwrap();
    for algo in exact_gpu_algorithms() {
        let mut solver =
            sssp_tests::gpu::prepare(&gpu, algo, &graph, 0, Tuning::default()).unwrap();
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
    // F^GPU_no_Atomic: measured, not asserted (the race may or may not show).
    let mut solver = Algorithm::FGpuNoAtomic.prepare_gpu(&gpu, &graph).unwrap();
    let mut wrong_runs = 0;
    let mut values = std::collections::BTreeSet::new();
    for _ in 0..100 {
        solver.run(0).unwrap();
        let dist = solver.distances().unwrap();
        values.insert(dist[1023]);
        wrong_runs += (dist != expected) as u32;
    }
    println!(
        "f-gpu-no-atomic on Fig. 5 (n = 1024): {wrong_runs} of 100 runs wrong; dist[1023] took the values {values:?}"
    );
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn overflow_is_reported_not_wrapped() {
    let gpu = gpu();
    let w = MAX_DISTANCE / 2 + 1;
    let overflowing = Graph::from_edges(4, &[(0, 1, w), (1, 2, w), (1, 3, w), (0, 3, 5)]).unwrap();
    let fitting = Graph::from_edges(3, &[(0, 1, w), (1, 2, w - 1), (2, 0, u32::MAX)]).unwrap();
    for algo in exact_gpu_algorithms() {
        match solve(&gpu, algo, &overflowing, 0, Tuning::default()) {
            Err(Error::DistanceOverflow {
                vertex: 2,
                count: 1,
                ..
            }) => {}
            other => panic!("{algo}: expected an overflow at vertex 2, got {other:?}"),
        }
        assert_eq!(
            solve(&gpu, algo, &fitting, 0, Tuning::default()).unwrap().0,
            vec![0, w, MAX_DISTANCE],
            "{algo}"
        );
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn bad_source_is_an_error_and_the_solver_stays_usable() {
    let gpu = gpu();
    let graph = Graph::from_edges(3, &[(0, 1, 4), (1, 2, 4)]).unwrap();
    for algo in exact_gpu_algorithms() {
        let mut solver =
            sssp_tests::gpu::prepare(&gpu, algo, &graph, 0, Tuning::default()).unwrap();
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
}
