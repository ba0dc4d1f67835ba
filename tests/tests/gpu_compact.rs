//! The compacted, device-resident DA2CF on the GPU against the oracle, with the
//! hand-over between the block and grid loops forced by small work limits, on
//! high-diameter graphs (long paths, grids, rome99) where the block loop runs
//! thousands of iterations in one launch. Iterations against the CPU model.
//! Ignored unless run with `--include-ignored` on a machine with a CUDA GPU.

use sssp::cpu::compact::{CompactRule, compact_da2cf};
use sssp::generate::{GridSpec, RandomGraphSpec, grid_graph, random_graph};
use sssp::gpu::compact::CompactDa2cf;
use sssp::gpu::context::Gpu;
use sssp::gpu::resident::WorkLimits;
use sssp::gpu::solver::GpuSolver;
use sssp::{Graph, formats, oracle};
use sssp_tests::gpu::gpu;
use sssp_tests::{TestRng, check_against_oracle, find_graph, random_graph as random_edges};

const RULES: [CompactRule; 2] = [CompactRule::Martin, CompactRule::Crauser];

/// Solves from `source` with `limits` on the GPU; checks distances against
/// the oracle and iterations against the CPU model. Returns the launches.
fn check(gpu: &Gpu, graph: &Graph, source: usize, limits: WorkLimits, context: &str) -> u32 {
    let expected = oracle::dijkstra(graph, source);
    let mut launches = 0;
    for rule in RULES {
        let context = format!("{context}, {rule:?}, {limits:?}");
        let mut solver = CompactDa2cf::with_limits(gpu, graph, rule, limits)
            .unwrap_or_else(|e| panic!("{context}: {e}"));
        let result = solver
            .run(source as u32)
            .and_then(|stats| Ok((solver.distances()?, stats.iterations)));
        launches += solver.launches();
        let Some(iterations) = check_against_oracle(&expected, result, &context) else {
            continue;
        };
        let model = compact_da2cf(graph, source, rule)
            .unwrap_or_else(|e| panic!("{context}: CPU model: {e}"))
            .iterations;
        assert_eq!(iterations, model, "{context}: iterations");
    }
    launches
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn compact_switching_between_block_and_grid_matches_the_oracle() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_compact::compact_switching_between_block_and_grid");
    let mut switched = 0;
    // Kept small: with large weights a graph has about as many distinct
    // distances (iterations) as vertices, and grid iterations cost microseconds.
    for case in 0..30 {
        let n = rng.range(1, 50_000) as usize;
        let m = rng.range(0, 8 * n as u64) as usize;
        let max_weight = [0u32, 1, 10, 100][rng.below(4) as usize];
        let graph = random_edges(&mut rng, n, m, max_weight);
        let source = rng.below(n as u64) as usize;
        // Spread over scales (up to 2^5 .. 2^14), so that most cases hand over.
        let scale = 1 << rng.range(5, 14);
        let block_max = rng.range(1, scale) as u32;
        let limits = WorkLimits {
            block_max,
            grid_min: rng.range(0, block_max as u64) as u32,
        };
        let context = format!(
            "case {case}: n = {n}, m = {m}, max weight {max_weight}, seed {}",
            rng.seed
        );
        if check(&gpu, &graph, source, limits, &context) > 2 * RULES.len() as u32 {
            switched += 1;
        }
    }
    eprintln!("{switched} cases switched loops");
    assert!(switched >= 5, "only {switched} cases switched loops");
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn compact_on_the_papers_graphs_with_default_limits() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_compact::compact_on_the_papers_graphs_with_default_limits");
    for n in [1usize << 10, 1 << 16, 1 << 20, 3 << 20] {
        let graph = random_graph(&RandomGraphSpec::papers(n, rng.bits())).unwrap();
        let source = rng.below(n as u64) as usize;
        let context = format!("papers' graph n = {n}, seed {}", rng.seed);
        check(&gpu, &graph, source, WorkLimits::default(), &context);
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn compact_on_high_diameter_graphs() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_compact::compact_on_high_diameter_graphs");
    // A path of 100 000 vertices: 100 000 iterations, all in one block launch.
    let n = 100_000;
    let edges: Vec<(u32, u32, u32)> = (0..n as u32 - 1)
        .map(|v| (v, v + 1, rng.range(0, 5) as u32))
        .collect();
    let path = Graph::from_edges(n, &edges).unwrap();
    check(&gpu, &path, 0, WorkLimits::default(), "path");
    for (width, height) in [(300, 300), (1000, 1000)] {
        let grid = grid_graph(&GridSpec::new(width, height, rng.bits())).unwrap();
        let source = rng.below(grid.num_vertices() as u64) as usize;
        let context = format!("grid {width}×{height}, seed {}", rng.seed);
        check(&gpu, &grid, source, WorkLimits::default(), &context);
    }
    let rome = find_graph("rome99.gr");
    let loaded = formats::load(&rome, None).expect("graphs/rome99.gr loads");
    check(
        &gpu,
        &loaded.graph().expect("rome99 is a valid graph"),
        0,
        WorkLimits::default(),
        "rome99",
    );
}
