//! DA2CF F^GPU on the GPU against the CPU oracle, every distance compared.
//! Ignored unless run with `--include-ignored` on a machine with a CUDA GPU.

use gpu_kernels::distance::MAX_DISTANCE;
use sssp::generate::{RandomGraphSpec, random_graph};
use sssp::gpu::Gpu;
use sssp::gpu::da2cf::Da2cf;
use sssp::gpu::memory::DeviceGraph;
use sssp::{Error, Graph, Result, cpu, oracle};
use sssp_tests::{TestRng, fig5_graph, random_graph as random_edges, random_small_graph};

fn gpu() -> Gpu {
    Gpu::new(0).expect(
        "these tests need a CUDA GPU (run them with --include-ignored only where there is one)",
    )
}

/// Solves on the GPU and returns the distances and iteration count.
fn solve(gpu: &Gpu, graph: &Graph, source: u32) -> Result<(Vec<u32>, u32)> {
    let device_graph = DeviceGraph::upload(gpu, graph)?;
    let mut solver = Da2cf::new(gpu, &device_graph)?;
    let stats = solver.run(source)?;
    Ok((solver.distances()?, stats.iterations))
}

fn check(gpu: &Gpu, graph: &Graph, source: usize, context: &str) {
    let result = solve(gpu, graph, source as u32);
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
    let (found, iterations) = result.unwrap_or_else(|e| panic!("{context}: {e}"));
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
    // The same loop as the CPU model, so the same number of iterations.
    if expected.len() <= 300_000 {
        assert_eq!(
            iterations,
            cpu::da2cf_f(graph, source).unwrap().iterations,
            "{context}: iterations"
        );
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn da2cf_f_matches_the_oracle_on_small_random_graphs() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu::da2cf_f_matches_the_oracle_on_small_random_graphs");
    for case in 0..300 {
        let graph = random_small_graph(&mut rng, 80);
        let source = rng.below(graph.num_vertices() as u64) as usize;
        check(
            &gpu,
            &graph,
            source,
            &format!("case {case}, seed {}", rng.seed),
        );
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn da2cf_f_matches_the_oracle_from_1_to_2_pow_20_vertices() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu::da2cf_f_matches_the_oracle_from_1_to_2_pow_20_vertices");
    for n in [
        1usize,
        2,
        3,
        255,
        256,
        257,
        511,
        512,
        513,
        4096,
        65_537,
        262_144 + 3,
    ] {
        let m = rng.range(0, 8 * n as u64) as usize;
        let max_weight = [0u32, 1, 10, 1000][rng.below(4) as usize];
        let graph = random_edges(&mut rng, n, m, max_weight);
        let source = rng.below(n as u64) as usize;
        check(
            &gpu,
            &graph,
            source,
            &format!("random n = {n}, m = {m}, seed {}", rng.seed),
        );
    }
    for n in [1usize << 10, 1 << 16, 1 << 20] {
        let graph = random_graph(&RandomGraphSpec::papers(n, rng.bits())).unwrap();
        let source = rng.below(n as u64) as usize;
        check(
            &gpu,
            &graph,
            source,
            &format!("papers' graph n = {n}, seed {}", rng.seed),
        );
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn fig5_counterexample_is_right_100_times_in_a_row() {
    let gpu = gpu();
    let graph = fig5_graph(1024);
    let expected = oracle::dijkstra(&graph, 0).unwrap();
    let device_graph = DeviceGraph::upload(&gpu, &graph).unwrap();
    let mut solver = Da2cf::new(&gpu, &device_graph).unwrap();
    for run in 0..100 {
        let stats = solver.run(0).unwrap();
        let dist = solver.distances().unwrap();
        assert_eq!(
            dist[1023], 2,
            "run {run}: the last vertex must be at distance 2"
        );
        assert_eq!(dist, expected, "run {run}");
        assert_eq!(stats.iterations, 3, "run {run}");
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn overflow_is_reported_not_wrapped() {
    let gpu = gpu();
    let w = MAX_DISTANCE / 2 + 1;
    let graph = Graph::from_edges(4, &[(0, 1, w), (1, 2, w), (1, 3, w), (0, 3, 5)]).unwrap();
    match solve(&gpu, &graph, 0) {
        Err(Error::DistanceOverflow {
            vertex: 2,
            count: 1,
            ..
        }) => {}
        other => panic!("expected an overflow at vertex 2, got {other:?}"),
    }
    let graph = Graph::from_edges(3, &[(0, 1, w), (1, 2, w - 1)]).unwrap();
    assert_eq!(solve(&gpu, &graph, 0).unwrap().0, vec![0, w, MAX_DISTANCE]);
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn bad_source_is_an_error_and_the_solver_stays_usable() {
    let gpu = gpu();
    let graph = Graph::from_edges(3, &[(0, 1, 4), (1, 2, 4)]).unwrap();
    let device_graph = DeviceGraph::upload(&gpu, &graph).unwrap();
    let mut solver = Da2cf::new(&gpu, &device_graph).unwrap();
    assert!(matches!(
        solver.run(3),
        Err(Error::SourceOutOfRange {
            vertex: 3,
            num_vertices: 3
        })
    ));
    solver.run(1).unwrap();
    assert_eq!(solver.distances().unwrap(), vec![u32::MAX, 0, 4]);
}
