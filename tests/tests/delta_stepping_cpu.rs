//! `delta-cpu`, the parallel Δ-stepping on the CPU: every distance against the
//! oracle on random graphs of every awkward shape, on pools of 1 to 8 threads,
//! with Δ from 1 to huge; limits and targets against an independently bounded
//! oracle; overflow.

use gpu_kernels::distance::INFINITY;
use sssp::cpu::delta_stepping::{BucketWidth, WINDOW, delta_stepping, delta_stepping_with};
use sssp::generate::{GridSpec, grid_graph};
use sssp::options::Stop;
use sssp::{Error, Graph, oracle};
use sssp_tests::queries::bounded;
use sssp_tests::{
    TestRng, random_graph, random_graph_weighted, random_small_f32_graph, random_small_graph,
};

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

/// A first width for an adaptive solve of `graph`: a small positive word
/// of its weight type.
fn small_start(rng: &mut TestRng, graph: &Graph) -> u32 {
    match graph.weight_kind() {
        sssp::graph::WeightKind::F32 => (rng.range(1, 64) as f32 / 8.0).to_bits(),
        sssp::graph::WeightKind::U32 => rng.range(1, 20) as u32,
    }
}

#[test]
fn adaptive_widths_match_the_oracle_with_limits_and_targets() {
    // Small targets per thread, so that the width changes often, both ways;
    // weights far beyond the window, so that the far lists take part.
    let mut rng = TestRng::new("delta_adaptive");
    let mut rescales = 0;
    for round in 0..300 {
        let graph = match rng.below(4) {
            0 => random_small_f32_graph(&mut rng, 80),
            1 => random_small_graph(&mut rng, 80),
            2 => {
                let n = rng.range(200, 3_000) as usize;
                let m = rng.range(n as u64, 6 * n as u64) as usize;
                random_graph(&mut rng, n, m, 100)
            }
            _ => {
                let n = rng.range(50, 1_000) as usize;
                let far = 3 * WINDOW as u32 * 20;
                random_graph_weighted(&mut rng, n, 3 * n, 0..=far)
            }
        };
        let n = graph.num_vertices();
        let source = rng.below(n as u64) as usize;
        let width = BucketWidth::Adaptive {
            start: small_start(&mut rng, &graph),
            per_thread: [1, 2, 4, 16, 64][rng.below(5) as usize],
        };
        let threads = [1, 2, 3, 8][rng.below(4) as usize];
        let expected = oracle::dijkstra(&graph, source);
        let stop = match &expected {
            Ok(full) if rng.chance(0.3) => {
                let reached: Vec<u32> = full.iter().copied().filter(|&d| d != INFINITY).collect();
                let pick = reached[rng.below(reached.len() as u64) as usize];
                if rng.chance(0.5) {
                    Stop {
                        limit: Some(pick),
                        target: None,
                    }
                } else {
                    let t = rng.below(n as u64) as usize;
                    Stop {
                        limit: None,
                        target: Some(t),
                    }
                }
            }
            _ => Stop::default(),
        };
        let context = format!(
            "round {round}, source {source}, {width:?}, {stop:?}, {threads} threads, seed {}",
            rng.seed
        );
        let found = on_threads(threads, || delta_stepping_with(&graph, source, width, stop));
        if let Ok(result) = &found {
            rescales += result.rescales;
        }
        let expected = expected.map(|full| bounded(&full, stop));
        sssp_tests::check_against_oracle(&expected, found.map(|r| (r.dist, r.rounds)), &context);
    }
    assert!(
        rescales > 0,
        "no solve changed its width (seed {})",
        rng.seed
    );
}

#[test]
fn adaptive_widths_widen_near_the_source_and_narrow_where_the_front_is_wide() {
    // On a grid, the buckets near the source hold a few vertices and those
    // across its middle many: the width must go up and come down again.
    let mut rng = TestRng::new("delta_adaptive_grid");
    let grid = grid_graph(&GridSpec {
        width: 200,
        height: 200,
        min_weight: 1,
        max_weight: 100,
        seed: rng.bits(),
    })
    .expect("a grid");
    let start = 10;
    let width = BucketWidth::Adaptive {
        start,
        per_thread: 64,
    };
    let expected = oracle::dijkstra(&grid, 0);
    let found = on_threads(2, || delta_stepping_with(&grid, 0, width, Stop::default()));
    let result = found.as_ref().expect("a solve").clone();
    sssp_tests::check_against_oracle(&expected, found.map(|r| (r.dist, r.rounds)), "grid");
    assert!(result.widest > start, "never widened: {result:?}");
    let widenings = (result.widest / start).ilog2();
    assert!(
        result.rescales > widenings,
        "{} rescales reach Δ {} from {start} without narrowing (seed {})",
        result.rescales,
        result.widest,
        rng.seed
    );
    let fixed = delta_stepping(&grid, 0, Some(start), Stop::default()).expect("a solve");
    assert_eq!(
        (fixed.widest, fixed.rescales),
        (start, 0),
        "a fixed Δ changed"
    );
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
    let no_width = BucketWidth::Adaptive {
        start: 0,
        per_thread: 1,
    };
    assert!(delta_stepping_with(&small, 0, no_width, Stop::default()).is_err());
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
