//! The shortest-path tree on the GPU (`sssp::gpu::parents`, kernel
//! `parents_join_round`) after every GPU solver, checked against the tree that
//! the oracle's distances give and against the CPU tree. Ignored unless run
//! with `--include-ignored` on a machine with a CUDA GPU.

use sssp::algorithms::{Algorithm, Layout, Processor};
use sssp::generate::{GridSpec, RandomGraphSpec, grid_graph, random_graph};
use sssp::gpu::context::Gpu;
use sssp::{Graph, cpu, formats, oracle};
use sssp_tests::gpu::gpu;
use sssp_tests::{
    TestRng, check_tree, find_graph, random_graph as random_edges, random_small_graph,
};

/// The GPU algorithms that must always be right (all but F^GPU_no_Atomic),
/// the matrix forms only where `matrix` (they need n² entries).
fn exact_gpu_algorithms(matrix: bool) -> Vec<Algorithm> {
    Algorithm::ALL
        .iter()
        .copied()
        .filter(|a| a.spec().device == Processor::Gpu && a.spec().exact)
        .filter(|a| a.spec().solves_graphs())
        .filter(|a| matrix || a.spec().layout == Layout::List)
        .collect()
}

/// Solves with `algo` on the GPU, builds the GPU tree from its distances and
/// checks it against the oracle's distances and the CPU tree. A graph whose
/// distances overflow has no tree to check (gpu.rs tests the overflow).
fn check(gpu: &Gpu, graph: &Graph, source: usize, algo: Algorithm, context: &str) {
    let context = format!("{context}, {algo}");
    let Ok(expected) = oracle::dijkstra(graph, source) else {
        return;
    };
    let mut solver = sssp_tests::gpu::prepare(gpu, algo, graph, source, Default::default())
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    solver
        .run(source as u32)
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    let dist = solver
        .distances()
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    let tree = sssp::gpu::parents::shortest_path_tree(gpu, graph, source, &dist)
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    check_tree(graph, source, &expected, &tree, &context);
    let on_cpu = cpu::parents::shortest_path_tree(graph, source, &expected)
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    assert!(tree == on_cpu, "{context}: the GPU and CPU trees differ");
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn gpu_tree_after_every_gpu_algorithm_on_small_random_graphs() {
    let gpu = gpu();
    let mut rng =
        TestRng::new("gpu_parents::gpu_tree_after_every_gpu_algorithm_on_small_random_graphs");
    let algorithms = exact_gpu_algorithms(true);
    for case in 0..120 {
        let graph = random_small_graph(&mut rng, 80);
        let source = rng.below(graph.num_vertices() as u64) as usize;
        for &algo in &algorithms {
            let context = format!("case {case}, seed {}", rng.seed);
            check(&gpu, &graph, source, algo, &context);
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn gpu_tree_across_block_boundaries_with_zero_weights_and_ties() {
    let gpu = gpu();
    let mut rng =
        TestRng::new("gpu_parents::gpu_tree_across_block_boundaries_with_zero_weights_and_ties");
    let algorithms = exact_gpu_algorithms(false);
    for n in [1usize, 2, 255, 256, 257, 4096, 65_537, 262_147] {
        for max_weight in [0u32, 1, 10, 1000] {
            let m = rng.range(0, 8 * n as u64) as usize;
            let graph = random_edges(&mut rng, n, m, max_weight);
            let source = rng.below(n as u64) as usize;
            let algo = algorithms[rng.below(algorithms.len() as u64) as usize];
            let context = format!(
                "n = {n}, m = {m}, max weight {max_weight}, seed {}",
                rng.seed
            );
            check(&gpu, &graph, source, algo, &context);
        }
    }
    // Zero weights only: one breadth-first round per level of the tree.
    let grid = grid_graph(&GridSpec {
        width: 300,
        height: 200,
        min_weight: 0,
        max_weight: 0,
        seed: rng.bits(),
    })
    .unwrap();
    let source = rng.below(60_000) as usize;
    let context = format!("zero-weight grid, seed {}", rng.seed);
    check(&gpu, &grid, source, Algorithm::FGpu, &context);
    let papers = random_graph(&RandomGraphSpec::papers(1 << 20, rng.bits())).unwrap();
    let source = rng.below(1 << 20) as usize;
    let context = format!("papers' graph n = 2^20, seed {}", rng.seed);
    check(&gpu, &papers, source, Algorithm::UGpu, &context);
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn gpu_tree_of_rome99_is_the_oracles() {
    let path = find_graph("rome99.gr");
    let gpu = gpu();
    let loaded = formats::load(&path, None).unwrap();
    let graph = loaded.graph().unwrap();
    let mut rng = TestRng::new("gpu_parents::gpu_tree_of_rome99_is_the_oracles");
    let n = graph.num_vertices();
    for source in [0, n - 1, rng.below(n as u64) as usize] {
        for algo in exact_gpu_algorithms(false) {
            let context = format!("rome99 from {source}, seed {}", rng.seed);
            check(&gpu, &graph, source, algo, &context);
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn gpu_tree_rejects_a_bad_source_or_distance_count() {
    let gpu = gpu();
    let graph = Graph::from_edges(3, &[(0, 1, 4), (1, 2, 4)]).unwrap();
    let tree =
        |source, dist: &[u32]| sssp::gpu::parents::shortest_path_tree(&gpu, &graph, source, dist);
    assert!(matches!(
        tree(3, &[0, 4, 8]),
        Err(sssp::Error::SourceOutOfRange {
            vertex: 3,
            num_vertices: 3
        })
    ));
    assert!(matches!(
        tree(0, &[0, 4]),
        Err(sssp::Error::InvalidArgument(_))
    ));
    assert_eq!(tree(0, &[0, 4, 8]).unwrap(), vec![u32::MAX, 0, 1]);
    assert_eq!(
        tree(1, &[u32::MAX, 0, 4]).unwrap(),
        vec![u32::MAX, u32::MAX, 1]
    );
}
