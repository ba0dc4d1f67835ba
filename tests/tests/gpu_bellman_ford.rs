//! "Algorithm 1" (Bellman-Ford style) on the GPU, both forms (one block; the
//! whole grid with a grid barrier), against the CPU oracle, every distance
//! compared. Ignored unless run with `--include-ignored` on a machine with a
//! CUDA GPU.

use gpu_kernels::distance::MAX_DISTANCE;
use sssp::cpu::bellman_ford::bellman_ford;
use sssp::generate::{RandomGraphSpec, random_graph};
use sssp::gpu::bellman_ford::{BellmanFord, BellmanFordForm};
use sssp::gpu::context::Gpu;
use sssp::gpu::solver::GpuSolver;
use sssp::{Error, Graph, Result, oracle};
use sssp_tests::gpu::gpu;
use sssp_tests::{TestRng, fig5_graph, random_graph as random_edges, random_small_graph};

const FORMS: [BellmanFordForm; 2] = [BellmanFordForm::Block, BellmanFordForm::Grid];

/// Solves on the GPU and returns the distances and the rounds.
fn solve(
    gpu: &Gpu,
    graph: &Graph,
    form: BellmanFordForm,
    source: usize,
) -> Result<(Vec<u32>, u32)> {
    sssp_tests::gpu::run(&mut BellmanFord::new(gpu, graph, form)?, source)
}

fn check(gpu: &Gpu, graph: &Graph, form: BellmanFordForm, source: usize, context: &str) {
    let context = format!("{form:?}: {context}");
    let result = solve(gpu, graph, form, source);
    let expected = match oracle::dijkstra(graph, source) {
        Ok(expected) => expected,
        // Large weights on long paths: both must report the same overflow.
        Err(Error::DistanceOverflow { vertex, count, .. }) => match result {
            Err(Error::DistanceOverflow {
                vertex: v,
                count: c,
                ..
            }) if (v, c) == (vertex, count) => return,
            other => panic!(
                "{context}: the oracle overflows at vertex {vertex} ({count} vertices), the GPU gave {other:?}"
            ),
        },
        Err(e) => panic!("{context}: oracle failed: {e}"),
    };
    let (found, rounds) = result.unwrap_or_else(|e| panic!("{context}: {e}"));
    let differing: Vec<usize> = (0..expected.len())
        .filter(|&v| expected[v] != found[v])
        .collect();
    if let Some(&v) = differing.first() {
        panic!(
            "{context}: {} of {} distances differ; first at vertex {v}: expected {}, got {}",
            differing.len(),
            expected.len(),
            expected[v],
            found[v]
        );
    }
    assert!(rounds >= 1, "{context}: {rounds} rounds");
    // Each round is a deterministic function of the last (`dist` is frozen
    // while the atomic minima run), so the rounds are the CPU model's.
    let (_, cpu_rounds) = bellman_ford(graph, source).unwrap();
    assert_eq!(rounds, cpu_rounds, "{context}: rounds");
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn bellman_ford_matches_the_oracle_on_small_random_graphs() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu::bellman_ford_matches_the_oracle_on_small_random_graphs");
    for case in 0..300 {
        let graph = random_small_graph(&mut rng, 80);
        let source = rng.below(graph.num_vertices() as u64) as usize;
        for form in FORMS {
            check(
                &gpu,
                &graph,
                form,
                source,
                &format!("case {case}, seed {}", rng.seed),
            );
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn bellman_ford_matches_the_oracle_from_1_to_2_pow_20_vertices() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu::bellman_ford_matches_the_oracle_from_1_to_2_pow_20_vertices");
    for n in [
        1usize,
        2,
        3,
        1023,
        1024,
        1025,
        2048,
        4096 + 1,
        65_537,
        262_144 + 3,
    ] {
        let m = rng.range(0, 8 * n as u64) as usize;
        let max_weight = [0u32, 1, 10, 1000, u32::MAX / 64][rng.below(5) as usize];
        let graph = random_edges(&mut rng, n, m, max_weight);
        let source = rng.below(n as u64) as usize;
        for form in FORMS {
            check(
                &gpu,
                &graph,
                form,
                source,
                &format!(
                    "random n = {n}, m = {m}, max weight {max_weight}, seed {}",
                    rng.seed
                ),
            );
        }
    }
    for n in [1usize << 10, 1 << 16, 1 << 20] {
        let graph = random_graph(&RandomGraphSpec::papers(n, rng.bits())).unwrap();
        let source = rng.below(n as u64) as usize;
        for form in FORMS {
            check(
                &gpu,
                &graph,
                form,
                source,
                &format!("papers' graph n = {n}, seed {}", rng.seed),
            );
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn fig5_counterexample_is_right_100_times_in_a_row() {
    let gpu = gpu();
    let graph = fig5_graph(1024);
    let expected = oracle::dijkstra(&graph, 0).unwrap();
    for form in FORMS {
        let mut solver = BellmanFord::new(&gpu, &graph, form).unwrap();
        for run in 0..100 {
            let stats = solver.run(0).unwrap();
            let dist = solver.distances().unwrap();
            assert_eq!(
                dist[1023], 2,
                "{form:?}, run {run}: the last vertex must be at distance 2"
            );
            assert_eq!(dist, expected, "{form:?}, run {run}");
            assert_eq!(stats.iterations, 3, "{form:?}, run {run}: rounds");
        }
    }
}

/// A path through all vertices in shuffled order: one round per edge, so
/// thousands of barriers in one launch (the grid barrier's state is reused
/// every time) and a flag that changes hands every round.
#[test]
#[ignore = "needs a CUDA GPU"]
fn a_long_path_takes_one_round_per_edge_in_one_launch() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu::a_long_path_takes_one_round_per_edge_in_one_launch");
    for n in [5_000usize, 40_000] {
        let mut order: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let edges: Vec<(u32, u32, u32)> = order.windows(2).map(|p| (p[0], p[1], 2)).collect();
        let graph = Graph::from_edges(n, &edges).unwrap();
        for form in FORMS {
            let mut solver = BellmanFord::new(&gpu, &graph, form).unwrap();
            for _ in 0..2 {
                let stats = solver.run(order[0]).unwrap();
                assert_eq!(stats.iterations, n as u32, "{form:?}, n = {n}: rounds");
                let dist = solver.distances().unwrap();
                for (hops, &v) in order.iter().enumerate() {
                    assert_eq!(dist[v as usize], 2 * hops as u32, "{form:?}, n = {n}");
                }
            }
        }
    }
}

/// A path of 2^19 vertices on the grid form: every co-resident block takes
/// part (on an H100, 264 blocks of 1024 threads for 512 blocks' worth of
/// vertices) in about a million grid barriers in one launch.
#[test]
#[ignore = "needs a CUDA GPU"]
fn the_grid_barrier_holds_over_a_million_barriers_with_every_block() {
    let gpu = gpu();
    let mut rng =
        TestRng::new("gpu::the_grid_barrier_holds_over_a_million_barriers_with_every_block");
    let n = 1usize << 19;
    let mut order: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let edges: Vec<(u32, u32, u32)> = order.windows(2).map(|p| (p[0], p[1], 1)).collect();
    let graph = Graph::from_edges(n, &edges).unwrap();
    let mut solver = BellmanFord::new(&gpu, &graph, BellmanFordForm::Grid).unwrap();
    let stats = solver.run(order[0]).unwrap();
    println!(
        "{} rounds on {} blocks in {:.1} ms ({:.2} us per round)",
        stats.iterations,
        solver.blocks(),
        stats.solve_ms,
        1000.0 * stats.solve_ms as f64 / stats.iterations as f64
    );
    assert_eq!(stats.iterations, n as u32);
    let dist = solver.distances().unwrap();
    for (hops, &v) in order.iter().enumerate() {
        assert_eq!(dist[v as usize], hops as u32);
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn overflow_is_reported_not_wrapped() {
    let gpu = gpu();
    let w = MAX_DISTANCE / 2 + 1;
    for form in FORMS {
        let graph = Graph::from_edges(4, &[(0, 1, w), (1, 2, w), (1, 3, w), (0, 3, 5)]).unwrap();
        match solve(&gpu, &graph, form, 0) {
            Err(Error::DistanceOverflow {
                vertex: 2,
                count: 1,
                ..
            }) => {}
            other => panic!("{form:?}: expected an overflow at vertex 2, got {other:?}"),
        }
        let graph = Graph::from_edges(3, &[(0, 1, w), (1, 2, w - 1)]).unwrap();
        assert_eq!(
            solve(&gpu, &graph, form, 0).unwrap().0,
            vec![0, w, MAX_DISTANCE],
            "{form:?}"
        );
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn bad_source_is_an_error_and_the_solver_stays_usable() {
    let gpu = gpu();
    let graph = Graph::from_edges(3, &[(0, 1, 4), (1, 2, 4)]).unwrap();
    for form in FORMS {
        let mut solver = BellmanFord::new(&gpu, &graph, form).unwrap();
        assert!(matches!(
            solver.run(3),
            Err(Error::SourceOutOfRange {
                vertex: 3,
                num_vertices: 3
            })
        ));
        solver.run(1).unwrap();
        assert_eq!(
            solver.distances().unwrap(),
            vec![u32::MAX, 0, 4],
            "{form:?}"
        );
        solver.run(0).unwrap();
        assert_eq!(solver.distances().unwrap(), vec![0, 4, 8], "{form:?}");
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn the_grid_form_uses_every_co_resident_block_it_needs() {
    let gpu = gpu();
    let n = 1 << 20;
    let graph = random_graph(&RandomGraphSpec::papers(n, 7)).unwrap();
    let solver = BellmanFord::new(&gpu, &graph, BellmanFordForm::Grid).unwrap();
    // The co-resident maximum: the blocks for more vertices than fit.
    let max = gpu
        .kernels()
        .bellman_ford
        .grid_blocks(
            gpu.stream().context(),
            sssp::graph::WeightKind::U32,
            u32::MAX,
        )
        .unwrap();
    println!(
        "grid form: {} blocks, at most {max} co-resident",
        solver.blocks()
    );
    assert_eq!(solver.blocks(), max.min(n.div_ceil(1024) as u32));
    let small = Graph::from_edges(10, &[(0, 1, 1)]).unwrap();
    let solver = BellmanFord::new(&gpu, &small, BellmanFordForm::Grid).unwrap();
    assert_eq!(solver.blocks(), 1);
}
