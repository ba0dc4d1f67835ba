//! `f32` weights on the GPU: every exact GPU algorithm, each kernel's `_f32`
//! instantiation, against the `f32` oracle bit for bit (which itself is checked
//! against Dijkstra in `f64`), with the CPU model's iteration count where the
//! iterations are deterministic; and the shortest-path tree. Ignored unless
//! run with `--include-ignored` on a machine with a CUDA GPU.

use gpu_kernels::distance::Weight;
use sssp::algorithms::{Algorithm, Processor};
use sssp::gpu::context::Gpu;
use sssp::graph::WeightKind;
use sssp::options::Tuning;
use sssp::{Graph, cpu, oracle};
use sssp_tests::gpu::{gpu, solve};
use sssp_tests::models::check_against_model;
use sssp_tests::{
    F32Weights, TestRng, check_against_oracle, check_tree, exact_algorithms, random_f32_graph,
    random_small_f32_graph,
};

fn check_all(gpu: &Gpu, graph: &Graph, source: usize, matrix_limit: usize, context: &str) {
    assert_eq!(graph.weight_kind(), WeightKind::F32);
    let expected = oracle::dijkstra(graph, source);
    if let Ok(expected) = &expected {
        oracle::check_f32_against_f64(graph, source, expected)
            .unwrap_or_else(|e| panic!("{context}: the f32 oracle against f64: {e}"));
    }
    for algo in exact_algorithms(Processor::Gpu, graph.num_vertices(), matrix_limit) {
        let result = solve(gpu, algo, graph, source, Tuning::default());
        let Some(iterations) =
            check_against_oracle(&expected, result, &format!("{context}, {algo}"))
        else {
            continue;
        };
        if let Some(form) = algo.spec().model {
            check_against_model(gpu, algo, graph, source, form, iterations, context);
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn every_gpu_algorithm_matches_the_f32_oracle_on_small_graphs() {
    let gpu = gpu();
    let mut rng =
        TestRng::new("gpu_f32::every_gpu_algorithm_matches_the_f32_oracle_on_small_graphs");
    for case in 0..100 {
        let graph = random_small_f32_graph(&mut rng, 60);
        let source = rng.below(graph.num_vertices() as u64) as usize;
        let context = format!(
            "case {case}: n = {}, m = {}, source {source}, seed {}",
            graph.num_vertices(),
            graph.num_edges(),
            rng.seed
        );
        check_all(&gpu, &graph, source, 64, &context);
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn every_gpu_algorithm_matches_the_f32_oracle_on_larger_graphs() {
    let gpu = gpu();
    let mut rng =
        TestRng::new("gpu_f32::every_gpu_algorithm_matches_the_f32_oracle_on_larger_graphs");
    // Distinct float distances: DA2CF settles about one vertex per iteration,
    // so these stay in the thousands of vertices.
    for (n, style) in [
        (257, F32Weights::Fractional),
        (1500, F32Weights::Mixed),
        (2048, F32Weights::Tiny),
        (3000, F32Weights::Huge),
        (4096, F32Weights::Fractional),
    ] {
        let m = rng.range(n as u64, 8 * n as u64) as usize;
        let graph = random_f32_graph(&mut rng, n, m, style);
        let source = rng.below(n as u64) as usize;
        let context = format!("{style:?}: n = {n}, m = {m}, seed {}", rng.seed);
        check_all(&gpu, &graph, source, 1500, &context);
    }
    // Quarter weights: few distinct distances, large graphs.
    for n in [65_537usize, 1 << 18] {
        let graph = random_f32_graph(&mut rng, n, 7 * n, F32Weights::Quarters);
        let context = format!("Quarters: n = {n}, seed {}", rng.seed);
        check_all(&gpu, &graph, 0, 0, &context);
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn near_far_with_a_band_narrower_than_an_ulp_still_converges() {
    let gpu = gpu();
    let mut rng =
        TestRng::new("gpu_f32::near_far_with_a_band_narrower_than_an_ulp_still_converges");
    let n = 5000;
    let graph = random_f32_graph(&mut rng, n, 6 * n, F32Weights::Fractional);
    let expected = oracle::dijkstra(&graph, 0);
    // Δ = the smallest subnormal: `T + Δ == T` for every normal threshold, so
    // only the far minimum moves the threshold on.
    for delta in [
        1u32,
        <f32 as Weight>::from_f64(0.5),
        <f32 as Weight>::from_f64(1e6),
    ] {
        let tuning = Tuning {
            delta: Some(delta),
            ..Tuning::default()
        };
        let context = format!("Δ word {delta:#x}, seed {}", rng.seed);
        let result = solve(&gpu, Algorithm::NearFar, &graph, 0, tuning);
        check_against_oracle(&expected, result, &context);
        let cpu = Algorithm::NearFarCpu.solve_cpu_tuned(&graph, 0, tuning);
        check_against_oracle(&expected, cpu.map(|(d, i)| (d, i.unwrap_or(0))), &context);
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn gpu_tree_on_f32_graphs_matches_the_cpu_tree() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_f32::gpu_tree_on_f32_graphs_matches_the_cpu_tree");
    for case in 0..40 {
        let graph = random_small_f32_graph(&mut rng, 300);
        let source = rng.below(graph.num_vertices() as u64) as usize;
        let Ok(expected) = oracle::dijkstra(&graph, source) else {
            continue;
        };
        let context = format!("case {case}, seed {}", rng.seed);
        let tree = sssp::gpu::parents::shortest_path_tree(&gpu, &graph, source, &expected)
            .unwrap_or_else(|e| panic!("{context}: {e}"));
        check_tree(&graph, source, &expected, &tree, &context);
        let on_cpu = cpu::parents::shortest_path_tree(&graph, source, &expected).unwrap();
        assert!(tree == on_cpu, "{context}: the GPU and CPU trees differ");
    }
}
