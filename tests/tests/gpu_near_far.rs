//! The near-far solver on the GPU against the oracle: random graphs with
//! random band widths and small work limits (forcing the hand-over between
//! the block and grid loops), graphs with hubs (walked by the whole team),
//! grids, rome99, and the papers' graphs.
//! Ignored unless run with `--include-ignored` on a machine with a CUDA GPU.

use gpu_kernels::near_far::HUB_DEGREE;
use sssp::generate::{GridSpec, RandomGraphSpec, grid_graph, random_graph};
use sssp::gpu::context::Gpu;
use sssp::gpu::near_far::NearFar;
use sssp::gpu::resident::WorkLimits;
use sssp::gpu::solver::GpuSolver;
use sssp::{Graph, formats, oracle};
use sssp_tests::gpu::gpu;
use sssp_tests::{
    TestRng, check_against_oracle, find_graph, hub_graph, random_graph as random_edges,
};

/// Solves on the GPU (`hubs`: the loop's form, hubs above `Some(degree)` or
/// none; `None`: the default, by `wants_hubs`) and checks every distance;
/// returns the launches.
fn check(
    gpu: &Gpu,
    graph: &Graph,
    (source, delta, hubs): (usize, Option<u32>, Option<Option<u32>>),
    limits: WorkLimits,
    context: &str,
) -> u32 {
    let context = format!("{context}, delta {delta:?}, hubs {hubs:?}, {limits:?}");
    let solver = match hubs {
        None => NearFar::with_limits(gpu, graph, delta, limits),
        Some(hubs) => NearFar::with_options(gpu, graph, delta, limits, hubs),
    };
    let mut solver = solver.unwrap_or_else(|e| panic!("{context}: {e}"));
    let result = solver
        .run(source as u32)
        .and_then(|stats| Ok((solver.distances()?, stats.iterations)));
    check_against_oracle(&oracle::dijkstra(graph, source), result, &context);
    solver.launches()
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn near_far_switching_between_block_and_grid_matches_the_oracle() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_near_far::near_far_switching_between_block_and_grid");
    let mut switched = 0;
    for case in 0..40 {
        let n = rng.range(1, 100_000) as usize;
        let m = rng.range(0, 8 * n as u64) as usize;
        let max_weight = [0u32, 1, 10, 1000, 1 << 20][rng.below(5) as usize];
        let graph = random_edges(&mut rng, n, m, max_weight);
        let source = rng.below(n as u64) as usize;
        let delta = [None, Some(1), Some(rng.range(1, 100_000) as u32)][rng.below(3) as usize];
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
        let hubs =
            [None, Some(Some(HUB_DEGREE)), Some(Some(0)), Some(Some(31))][rng.below(4) as usize];
        if check(&gpu, &graph, (source, delta, hubs), limits, &context) > 2 {
            switched += 1;
        }
    }
    eprintln!("{switched} cases switched loops");
    assert!(switched >= 5, "only {switched} cases switched loops");
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn near_far_on_grids_rome99_and_the_papers_graphs() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_near_far::near_far_on_grids_rome99_and_the_papers_graphs");
    let limits = WorkLimits::default();
    for (width, height) in [(1, 1000), (300, 300), (1000, 1000)] {
        let grid = grid_graph(&GridSpec::new(width, height, rng.bits())).unwrap();
        let source = rng.below(grid.num_vertices() as u64) as usize;
        let context = format!("grid {width}×{height}, seed {}", rng.seed);
        check(&gpu, &grid, (source, None, None), limits, &context);
    }
    let rome = find_graph("rome99.gr");
    let rome = formats::load(&rome, None).expect("graphs/rome99.gr loads");
    let rome = rome.graph().expect("rome99 is a valid graph");
    for delta in [None, Some(1), Some(1000)] {
        check(&gpu, &rome, (0, delta, None), limits, "rome99");
    }
    for n in [1usize << 10, 1 << 16, 1 << 20] {
        let graph = random_graph(&RandomGraphSpec::papers(n, rng.bits())).unwrap();
        let source = rng.below(n as u64) as usize;
        let context = format!("papers' graph n = {n}, seed {}", rng.seed);
        check(&gpu, &graph, (source, None, None), limits, &context);
    }
}

/// Hubs of more than `HUB_DEGREE` out-edges go to the hub lists and are
/// walked by the whole block or grid in the next iteration: graphs with a
/// few hubs of up to 100,000 edges, in both loops and across hand-overs.
#[test]
#[ignore = "needs a CUDA GPU"]
fn near_far_with_hubs_matches_the_oracle() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_near_far::near_far_with_hubs_matches_the_oracle");
    for case in 0..30 {
        let n = rng.range(2, 200_000) as usize;
        let m = rng.range(0, 6 * n as u64) as usize;
        let hubs = rng.range(1, 40) as usize;
        let largest = [300usize, 3000, 100_000][rng.below(3) as usize];
        let max_weight = [0u32, 1, 100, 1 << 20][rng.below(4) as usize];
        let graph = hub_graph(&mut rng, (n, m), (hubs, 257..=largest), max_weight);
        let source = rng.below(n as u64) as usize;
        let delta = [None, Some(1), Some(rng.range(1, 100_000) as u32)][rng.below(3) as usize];
        let block_max = rng.range(1, 1 << 14) as u32;
        let limits = [
            WorkLimits::default(),
            WorkLimits {
                block_max,
                grid_min: rng.range(0, block_max as u64) as u32,
            },
        ][rng.below(2) as usize];
        let context = format!(
            "case {case}: n = {n}, m = {m}, {hubs} hubs of up to {largest} edges, \
             max weight {max_weight}, seed {}",
            rng.seed
        );
        // The hub form, a low hub degree, and the default (either form).
        check(
            &gpu,
            &graph,
            (source, delta, Some(Some(HUB_DEGREE))),
            limits,
            &context,
        );
        let low = rng.range(0, 300) as u32;
        check(
            &gpu,
            &graph,
            (source, delta, Some(Some(low))),
            limits,
            &context,
        );
        check(&gpu, &graph, (source, delta, None), limits, &context);
    }
}
