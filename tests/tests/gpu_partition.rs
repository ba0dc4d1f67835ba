//! The partition-local solver on the GPU against the oracle: random graphs
//! with random window widths and several sources per prepared solver, `f32`
//! weights, grids up to a million vertices, rome99, and the refusal of a
//! graph too large for resident mode. Ignored unless run with
//! `--include-ignored` on a machine with a CUDA GPU.

use sssp::generate::{GridSpec, grid_graph};
use sssp::gpu::partition::Partition;
use sssp::gpu::{Gpu, GpuSolver};
use sssp::{Graph, formats, oracle};
use sssp_tests::gpu::gpu;
use sssp_tests::{
    F32Weights, TestRng, check_against_oracle, find_graph, random_f32_graph,
    random_graph as random_edges,
};

/// Prepares the solver once and checks every distance from each source.
/// Returns whether the pieces' edges were in shared memory.
fn check(gpu: &Gpu, graph: &Graph, sources: &[usize], delta: Option<u32>, context: &str) -> bool {
    let context = format!("{context}, delta {delta:?}");
    let mut solver = Partition::new(gpu, graph, delta).unwrap_or_else(|e| panic!("{context}: {e}"));
    let shape = format!(
        "{} pieces of at most {}, edges in {} memory",
        solver.pieces(),
        solver.capacity(),
        if solver.edges_in_shared_memory() {
            "shared"
        } else {
            "global"
        }
    );
    for &source in sources {
        let result = solver
            .run(source as u32)
            .and_then(|stats| Ok((solver.distances()?, stats.iterations)));
        let context = format!("{context}, {shape}, source {source}");
        if let Some(rounds) =
            check_against_oracle(&oracle::dijkstra(graph, source), result, &context)
        {
            eprintln!("{context}: {rounds} rounds at most in a block");
        }
    }
    solver.edges_in_shared_memory()
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn partition_matches_the_oracle_on_random_graphs() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_partition::partition_matches_the_oracle_on_random_graphs");
    for case in 0..40 {
        let n = rng.range(1, 200_000) as usize;
        let m = rng.range(0, 4 * n as u64) as usize;
        let max_weight = [0u32, 1, 10, 1000, 1 << 20][rng.below(5) as usize];
        let graph = random_edges(&mut rng, n, m, max_weight);
        let sources: Vec<usize> = (0..3).map(|_| rng.below(n as u64) as usize).collect();
        let delta = [None, Some(1), Some(rng.range(1, 100_000) as u32)][rng.below(3) as usize];
        let context = format!(
            "case {case}: n = {n}, m = {m}, max weight {max_weight}, seed {}",
            rng.seed
        );
        check(&gpu, &graph, &sources, delta, &context);
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn partition_matches_the_f32_oracle() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_partition::partition_matches_the_f32_oracle");
    for (case, &style) in F32Weights::ALL.iter().enumerate() {
        let n = rng.range(1, 50_000) as usize;
        let m = rng.range(0, 4 * n as u64) as usize;
        let graph = random_f32_graph(&mut rng, n, m, style);
        let source = rng.below(n as u64) as usize;
        let context = format!(
            "case {case}: {style:?}, n = {n}, m = {m}, seed {}",
            rng.seed
        );
        check(&gpu, &graph, &[source], None, &context);
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn partition_matches_the_oracle_on_grids_and_rome99() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_partition::partition_matches_the_oracle_on_grids_and_rome99");
    for (width, height) in [(1, 1000), (300, 300), (1000, 1000)] {
        let grid = grid_graph(&GridSpec::new(width, height, rng.bits())).unwrap();
        let n = grid.num_vertices() as u64;
        let sources = [0, rng.below(n) as usize, n as usize - 1];
        let context = format!("grid {width}×{height}, seed {}", rng.seed);
        check(&gpu, &grid, &sources, None, &context);
    }
    let rome = find_graph("rome99.gr");
    let rome = formats::load(&rome, None).unwrap();
    let rome = rome.graph().unwrap();
    for delta in [None, Some(1), Some(100_000)] {
        // 3,353 vertices: every piece's edges fit in shared memory.
        assert!(
            check(&gpu, &rome, &[0, 1000, 3352], delta, "rome99"),
            "rome99's edges should be in shared memory"
        );
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn partition_refuses_a_graph_too_large_for_shared_memory() {
    let gpu = gpu();
    // 12 bytes a vertex in shared memory: 8 M vertices are several times the
    // ~30 MB of an H100's shared memory.
    let graph = Graph::from_edges(8 << 20, &[]).unwrap();
    let error = Partition::new(&gpu, &graph, None)
        .err()
        .expect("a graph too large for resident mode");
    assert!(error.to_string().contains("near-far"), "{error}");
}
