//! "Algorithm 1" (Bellman-Ford style): the kernels' per-thread logic driven on
//! the CPU round by round (`sssp::cpu::bellman_ford`) and by real threads with a
//! barrier (`gpu_kernels::bellman_ford::thread_loop`, the kernels' whole body),
//! against the oracle; the round count against an independent hop-limited
//! Bellman-Ford.

use std::sync::Barrier;
use std::sync::atomic::{AtomicU8, AtomicU32};

use gpu_kernels::bellman_ford::{Arrays, RoundFlags, thread_loop};
use gpu_kernels::distance::{INFINITY, MAX_DISTANCE, SATURATED};
use sssp::cpu::bellman_ford::bellman_ford;
use sssp::generate::{RandomGraphSpec, random_graph};
use sssp::{Error, Graph, oracle};
use sssp_tests::{
    TestRng, check_against_oracle, fig5_graph, random_graph as random_edges, random_small_graph,
};

/// The rounds the loop must take, from a plain synchronous Bellman-Ford: `D_0`
/// is 0 at the source and infinity elsewhere, and
/// `D_k(v) = min(D_{k-1}(v), min over edges (u, v, w) of D_{k-1}(u) + w)`,
/// saturating at `SATURATED`. Round `k` of the kernels leaves `dist = D_k`
/// whatever the order of the atomic minima (`dist` does not change during the
/// relax phase), so the loop stops at the first `k >= 1` with `D_k = D_{k-1}`.
fn expected_rounds(graph: &Graph, source: usize) -> u32 {
    let n = graph.num_vertices();
    let extend = |d: u64, w: u32| {
        if d == INFINITY as u64 {
            d
        } else {
            (d + w as u64).min(SATURATED as u64)
        }
    };
    let mut dist = vec![INFINITY as u64; n];
    dist[source] = 0;
    let mut rounds = 0;
    loop {
        rounds += 1;
        let mut next = dist.clone();
        for (u, &dist_u) in dist.iter().enumerate() {
            for (v, w) in graph.csr().edges(u) {
                next[v] = next[v].min(extend(dist_u, w));
            }
        }
        if next == dist {
            return rounds;
        }
        dist = next;
    }
}

/// The CPU model against the oracle, and its rounds against [`expected_rounds`].
fn check(graph: &Graph, source: usize, context: &str) {
    let result = bellman_ford(graph, source);
    let rounds = result.as_ref().map(|&(_, r)| r).ok();
    check_against_oracle(
        &oracle::dijkstra(graph, source),
        result.map(|(d, _)| (d, ())),
        context,
    );
    let expected = expected_rounds(graph, source);
    if let Some(rounds) = rounds {
        assert_eq!(rounds, expected, "{context}: rounds");
    }
    assert!(expected >= 1 && expected as usize <= graph.num_vertices().max(1));
}

/// `thread_loop` run by `threads` OS threads with a `std` barrier (what the
/// kernels do with `__syncthreads()` or the grid barrier): the distances and
/// the rounds every thread returned.
fn threaded(graph: &Graph, source: usize, threads: usize) -> (Vec<u32>, Vec<u32>) {
    let n = graph.num_vertices();
    let dist: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
    let predist: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
    let changed: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
    // Garbage in the flags, as in shared memory at launch.
    let flags: RoundFlags = [AtomicU32::new(7), AtomicU32::new(u32::MAX)];
    let arrays = Arrays {
        successors: graph.csr(),
        dist: &dist,
        predist: &predist,
        changed: &changed,
    };
    let barrier = Barrier::new(threads);
    let rounds = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|thread| {
                let (flags, barrier) = (&flags, &barrier);
                scope.spawn(move || {
                    thread_loop::<u32>(thread, threads, source, arrays, flags, || {
                        barrier.wait();
                    })
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a thread panicked"))
            .collect()
    });
    let dist = dist.into_iter().map(AtomicU32::into_inner).collect();
    (dist, rounds)
}

#[test]
fn bellman_ford_matches_the_oracle_on_small_random_graphs() {
    let mut rng = TestRng::new("bellman_ford_matches_the_oracle_on_small_random_graphs");
    for case in 0..600 {
        let graph = random_small_graph(&mut rng, 60);
        let source = rng.below(graph.num_vertices() as u64) as usize;
        check(&graph, source, &format!("case {case}, seed {}", rng.seed));
    }
}

#[test]
fn bellman_ford_matches_the_oracle_on_larger_random_graphs() {
    let mut rng = TestRng::new("bellman_ford_matches_the_oracle_on_larger_random_graphs");
    for n in [1, 2, 3, 100, 1023, 1024, 1025, 5000] {
        let m = rng.range(0, 4 * n as u64) as usize;
        let max_weight = [0u32, 1, 20, 1 << 20, u32::MAX / 8][rng.below(5) as usize];
        let graph = random_edges(&mut rng, n, m, max_weight);
        check(
            &graph,
            rng.below(n as u64) as usize,
            &format!(
                "n = {n}, m = {m}, max weight {max_weight}, seed {}",
                rng.seed
            ),
        );
    }
}

#[test]
fn bellman_ford_matches_the_oracle_on_the_papers_graph() {
    let mut rng = TestRng::new("bellman_ford_matches_the_oracle_on_the_papers_graph");
    let graph = random_graph(&RandomGraphSpec::papers(100_000, rng.bits())).unwrap();
    let source = rng.below(100_000) as usize;
    check(&graph, source, &format!("papers' graph, seed {}", rng.seed));
}

#[test]
fn fig5_counterexample_gives_2_for_the_last_vertex() {
    let graph = fig5_graph(1024);
    let (dist, rounds) = bellman_ford(&graph, 0).unwrap();
    assert_eq!(dist[1023], 2);
    assert!(dist[1..1023].iter().all(|&d| d == 1));
    assert_eq!(dist, oracle::dijkstra(&graph, 0).unwrap());
    // Source's edges, then the middle vertices' edges, then a round with no change.
    assert_eq!(rounds, 3);
}

#[test]
fn a_single_vertex_takes_one_round() {
    let graph = Graph::from_edges(1, &[(0, 0, 5), (0, 0, 0)]).unwrap();
    assert_eq!(bellman_ford(&graph, 0).unwrap(), (vec![0], 1));
    let graph = Graph::from_edges(3, &[(1, 2, 1)]).unwrap();
    assert_eq!(
        bellman_ford(&graph, 0).unwrap(),
        (vec![0, INFINITY, INFINITY], 1)
    );
}

#[test]
fn a_path_takes_one_round_per_edge_and_one_more() {
    // Vertices in shuffled order along the path, so that strides do not follow it.
    let mut rng = TestRng::new("a_path_takes_one_round_per_edge_and_one_more");
    let n = 300;
    let mut order: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let edges: Vec<(u32, u32, u32)> = order.windows(2).map(|p| (p[0], p[1], 3)).collect();
    let graph = Graph::from_edges(n, &edges).unwrap();
    let (dist, rounds) = bellman_ford(&graph, order[0] as usize).unwrap();
    assert_eq!(rounds, n as u32);
    for (hops, &v) in order.iter().enumerate() {
        assert_eq!(dist[v as usize], 3 * hops as u32);
    }
}

#[test]
fn overflowing_distances_are_reported_like_the_oracle() {
    let w = MAX_DISTANCE / 2 + 1;
    // 2 overflows through 1, but 3 is reached by a short path too.
    let graph = Graph::from_edges(4, &[(0, 1, w), (1, 2, w), (1, 3, w), (0, 3, 5)]).unwrap();
    match bellman_ford(&graph, 0) {
        Err(Error::DistanceOverflow {
            vertex: 2,
            count: 1,
            ..
        }) => {}
        other => panic!("expected an overflow at vertex 2, got {other:?}"),
    }
    assert!(matches!(
        oracle::dijkstra(&graph, 0),
        Err(Error::DistanceOverflow { vertex: 2, .. })
    ));
    // u32::MAX as a weight, and a saturated vertex that keeps relaxing (a cycle).
    let graph = Graph::from_edges(
        4,
        &[(0, 1, w), (1, 3, w), (0, 3, 5), (3, 2, u32::MAX), (2, 2, 1)],
    )
    .unwrap();
    assert!(matches!(
        bellman_ford(&graph, 0),
        Err(Error::DistanceOverflow {
            vertex: 2,
            count: 1,
            ..
        })
    ));
    // Exactly the largest distance is exact.
    let graph = Graph::from_edges(3, &[(0, 1, w), (1, 2, w - 1)]).unwrap();
    assert_eq!(bellman_ford(&graph, 0).unwrap().0, vec![0, w, MAX_DISTANCE]);
}

#[test]
fn source_out_of_range_is_an_error() {
    let graph = Graph::from_edges(3, &[(0, 1, 1)]).unwrap();
    assert!(matches!(
        bellman_ford(&graph, 3),
        Err(Error::SourceOutOfRange { .. })
    ));
}

#[test]
fn thread_loop_on_real_threads_matches_the_oracle_and_the_rounds() {
    let mut rng = TestRng::new("thread_loop_on_real_threads_matches_the_oracle_and_the_rounds");
    for case in 0..150 {
        let graph = if case % 10 == 9 {
            let n = rng.range(500, 3000) as usize;
            let m = rng.range(n as u64, 4 * n as u64) as usize;
            let max_weight = 1 + rng.below(30) as u32;
            random_edges(&mut rng, n, m, max_weight)
        } else {
            random_small_graph(&mut rng, 80)
        };
        let n = graph.num_vertices();
        let source = rng.below(n as u64) as usize;
        // Fewer threads than vertices, as many, and more (idle threads must
        // still meet every barrier).
        let threads = [1, 2, 3, 8, n, n + 5][rng.below(6) as usize].clamp(1, 64);
        let context = format!("case {case}, {threads} threads, seed {}", rng.seed);
        let (dist, rounds) = threaded(&graph, source, threads);
        assert!(
            rounds.iter().all(|&r| r == rounds[0]),
            "{context}: threads disagree on the rounds: {rounds:?}"
        );
        let overflow = sssp::distances::check_overflow(sssp::graph::WeightKind::U32, &dist);
        check_against_oracle(
            &oracle::dijkstra(&graph, source),
            overflow.map(|()| (dist, ())),
            &context,
        );
        assert_eq!(
            rounds[0],
            expected_rounds(&graph, source),
            "{context}: rounds"
        );
    }
}
