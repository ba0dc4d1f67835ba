//! `delta-cpu`, the parallel Δ-stepping on the CPU: every distance against the
//! oracle on random graphs of every awkward shape, on pools of 1 to 8 threads,
//! with Δ from 1 to huge; limits and targets against an independently bounded
//! oracle; overflow.

use sssp::cpu::delta_stepping::{WINDOW, delta_stepping};
use sssp::generate::{GridSpec, grid_graph};
use sssp::solver::Stop;
use sssp::{Error, Graph, oracle};
use sssp_tests::queries::bounded;
use sssp_tests::{TestRng, random_graph, random_small_f32_graph, random_small_graph};

/// Runs `work` on a rayon pool of `threads` threads.
fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
        .install(work)
}

/// Checks `delta-cpu` from `source` with `delta` on `threads` threads
/// against the oracle: the same distances, or the same overflow.
fn check(graph: &Graph, source: usize, delta: Option<u32>, threads: usize, context: &str) {
    let expected = oracle::dijkstra(graph, source);
    let found = on_threads(threads, || {
        delta_stepping(graph, source, delta, Stop::default())
    });
    sssp_tests::check_against_oracle(
        &expected,
        found.map(|r| (r.dist, r.rounds)),
        &format!("{context}, source {source}, Δ {delta:?}, {threads} threads"),
    );
}

#[test]
fn random_graphs_of_every_shape_match_the_oracle() {
    let mut rng = TestRng::new("delta_random");
    for round in 0..300 {
        let graph = if rng.chance(0.25) {
            random_small_f32_graph(&mut rng, 80)
        } else {
            random_small_graph(&mut rng, 80)
        };
        let n = graph.num_vertices();
        let source = rng.below(n as u64) as usize;
        let delta = match rng.below(4) {
            0 => None,
            1 => Some(1),
            2 => Some(rng.range(1, 50) as u32),
            // Huge: one bucket, Bellman-Ford-like rounds.
            _ => Some(u32::MAX / 2),
        };
        // f32 Δ must be a positive finite float's word.
        let delta = match graph.weight_kind() {
            sssp::graph::WeightKind::F32 => delta.map(|d| (d.min(1 << 20) as f32).to_bits()),
            sssp::graph::WeightKind::U32 => delta,
        };
        let threads = [1, 2, 3, 8][rng.below(4) as usize];
        check(
            &graph,
            source,
            delta,
            threads,
            &format!("round {round}, seed {}", rng.seed),
        );
    }
}

#[test]
fn larger_graphs_and_grids_match_the_oracle() {
    let mut rng = TestRng::new("delta_large");
    for round in 0..6 {
        let n = rng.range(1_000, 20_000) as usize;
        let graph = random_graph(&mut rng, n, 4 * n, [1, 10, 1000][round % 3]);
        let source = rng.below(n as u64) as usize;
        check(
            &graph,
            source,
            None,
            4,
            &format!("random {round}, seed {}", rng.seed),
        );
    }
    let grid = grid_graph(&GridSpec {
        width: 150,
        height: 120,
        min_weight: 0,
        max_weight: 100,
        seed: rng.bits(),
    })
    .expect("a grid");
    for delta in [None, Some(1), Some(7), Some(100_000)] {
        check(&grid, 0, delta, 3, &format!("grid, seed {}", rng.seed));
    }
}

#[test]
fn distances_far_beyond_the_window_of_buckets_match_the_oracle() {
    // A path of long edges with Δ = 1: each vertex is thousands of buckets
    // beyond the last, so every step goes through the far lists.
    let mut rng = TestRng::new("delta_far");
    let n = 200;
    let mut edges: Vec<(u32, u32, u32)> = (0..n as u32 - 1)
        .map(|v| (v, v + 1, rng.range(1, 3 * WINDOW as u64) as u32))
        .collect();
    // Shortcuts that look good early and lose later.
    for _ in 0..100 {
        let u = rng.below(n as u64) as u32;
        let v = rng.below(n as u64) as u32;
        edges.push((u, v, rng.range(0, 10 * WINDOW as u64) as u32));
    }
    let graph = Graph::from_edges(n, &edges).expect("graph");
    for threads in [1, 2, 8] {
        check(&graph, 0, Some(1), threads, &format!("seed {}", rng.seed));
    }
}

#[test]
fn limits_and_targets_report_exactly_the_bounded_distances() {
    let mut rng = TestRng::new("delta_bounds");
    for round in 0..200 {
        let graph = random_small_graph(&mut rng, 60);
        let n = graph.num_vertices();
        let source = rng.below(n as u64) as usize;
        let max = graph
            .weights()
            .iter()
            .copied()
            .max()
            .unwrap_or(0)
            .min(1 << 20);
        let limit = rng
            .chance(0.6)
            .then(|| rng.below(3 * max as u64 + 2) as u32);
        let target = rng.chance(0.6).then(|| rng.below(n as u64) as usize);
        let delta = [None, Some(1), Some(rng.range(1, 30) as u32)][rng.below(3) as usize];
        let stop = Stop { limit, target };
        let context = format!(
            "round {round}, source {source}, {stop:?}, Δ {delta:?}, seed {}",
            rng.seed
        );
        let expected = match oracle::dijkstra(&graph, source) {
            Ok(full) => bounded(&full, stop),
            Err(_) => continue, // overflowing graphs: see the overflow test
        };
        let found = on_threads([1, 2, 4][round % 3], || {
            delta_stepping(&graph, source, delta, stop)
        })
        .unwrap_or_else(|e| panic!("{context}: {e}"));
        if let Some(v) = (0..n).find(|&v| found.dist[v] != expected[v]) {
            panic!(
                "{context}: vertex {v}: expected {}, got {}",
                expected[v], found.dist[v]
            );
        }
    }
}

#[test]
fn overflow_is_an_error_and_bad_arguments_are_refused() {
    let graph = Graph::from_edges(3, &[(0, 1, u32::MAX - 10), (1, 2, u32::MAX - 10)]).unwrap();
    match delta_stepping(&graph, 0, None, Stop::default()) {
        Err(Error::DistanceOverflow { vertex, count, .. }) => assert_eq!((vertex, count), (2, 1)),
        other => panic!("expected an overflow, got {other:?}"),
    }
    let small = Graph::from_edges(2, &[(0, 1, 1)]).unwrap();
    assert!(delta_stepping(&small, 2, None, Stop::default()).is_err());
    assert!(delta_stepping(&small, 0, Some(0), Stop::default()).is_err());
    let far_target = Stop {
        limit: None,
        target: Some(5),
    };
    assert!(delta_stepping(&small, 0, None, far_target).is_err());
    let one = Graph::from_edges(1, &[]).unwrap();
    let result = delta_stepping(&one, 0, None, Stop::default()).unwrap();
    assert_eq!(result.dist, vec![0]);
}

#[test]
fn a_default_pool_of_many_cores_leaves_one_free_and_a_sized_pool_is_used_whole() {
    use sssp::cpu::delta_stepping::{SPARE_CORE_FROM, threads_for_pool};
    for pool in 1..=64 {
        assert_eq!(
            threads_for_pool(pool, true),
            pool,
            "pool of {pool} sized by the caller"
        );
        let expected = if pool >= SPARE_CORE_FROM {
            pool - 1
        } else {
            pool
        };
        assert_eq!(
            threads_for_pool(pool, false),
            expected,
            "default pool of {pool}"
        );
    }
    assert_eq!(threads_for_pool(0, false), 1);
}
