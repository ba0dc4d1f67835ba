//! The kernels' per-thread logic, driven on the CPU through the DA2CF loop
//! (`sssp::cpu`), against the oracle; the block reduction against a plain minimum.

use std::collections::BTreeSet;

use gpu_kernels::distance::{INFINITY, MAX_DISTANCE, SATURATED};
use sssp::generate::{RandomGraphSpec, random_graph};
use sssp::{Error, Graph, cpu, oracle};
use sssp_tests::{
    TestRng, check_against_oracle, fig5_graph, random_graph as random_edges, random_graph_weighted,
    random_small_graph,
};

/// With positive weights DA2CF settles one distance value per iteration: the
/// loop runs once per distinct finite distance (the source's 0 included). A
/// zero-weight edge can put a vertex at the current value after it was settled,
/// which takes an extra iteration at the same value.
fn distinct_finite(dist: &[u32]) -> u32 {
    dist.iter()
        .filter(|&&d| d != INFINITY)
        .collect::<BTreeSet<_>>()
        .len() as u32
}

fn check(graph: &Graph, source: usize, context: &str) {
    let expected = oracle::dijkstra(graph, source);
    let result = cpu::da2cf_f(graph, source).map(|r| (r.dist, r.iterations));
    let Some(iterations) = check_against_oracle(&expected, result, context) else {
        return;
    };
    let expected = expected.unwrap_or_default();
    let distinct = distinct_finite(&expected);
    if graph.weights().iter().all(|&w| w > 0) {
        assert_eq!(iterations, distinct, "{context}: iteration count");
    } else {
        assert!(
            iterations >= distinct,
            "{context}: {} iterations for {distinct} values",
            iterations
        );
    }
}

#[test]
fn da2cf_f_matches_the_oracle_on_small_random_graphs() {
    let mut rng = TestRng::new("da2cf_f_matches_the_oracle_on_small_random_graphs");
    for case in 0..500 {
        let graph = random_small_graph(&mut rng, 60);
        let source = rng.below(graph.num_vertices() as u64) as usize;
        check(&graph, source, &format!("case {case}, seed {}", rng.seed));
    }
}

#[test]
fn da2cf_f_matches_the_oracle_across_block_boundaries() {
    let mut rng = TestRng::new("da2cf_f_matches_the_oracle_across_block_boundaries");
    // Sizes around the reduction's 512 values per block and 512^2 per two passes.
    for n in [511, 512, 513, 1023, 1024, 1025, 5000] {
        let m = rng.range(n as u64, 4 * n as u64) as usize;
        let max_weight = 1 + rng.below(20) as u32;
        let graph = random_edges(&mut rng, n, m, max_weight);
        check(
            &graph,
            rng.below(n as u64) as usize,
            &format!("n = {n}, seed {}", rng.seed),
        );
    }
}

#[test]
fn da2cf_f_matches_the_oracle_on_the_papers_graph() {
    let mut rng = TestRng::new("da2cf_f_matches_the_oracle_on_the_papers_graph");
    let graph = random_graph(&RandomGraphSpec::papers(300_000, rng.bits())).unwrap();
    check(&graph, 0, &format!("papers' graph, seed {}", rng.seed));
}

#[test]
fn fig5_counterexample_gives_2_for_the_last_vertex() {
    let graph = fig5_graph(1024);
    let result = cpu::da2cf_f(&graph, 0).unwrap();
    assert_eq!(result.dist[1023], 2);
    assert!(result.dist[1..1023].iter().all(|&d| d == 1));
    assert_eq!(result.dist, oracle::dijkstra(&graph, 0).unwrap());
    assert_eq!(result.iterations, 3);
}

#[test]
fn overflowing_distances_are_reported_like_the_oracle() {
    let w = MAX_DISTANCE / 2 + 1;
    // 2 overflows through 1, but 3 is reached by a short path too.
    let graph = Graph::from_edges(4, &[(0, 1, w), (1, 2, w), (1, 3, w), (0, 3, 5)]).unwrap();
    match cpu::da2cf_f(&graph, 0) {
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
    // Without the overflowing edge, the huge weights still give exact results.
    let graph = Graph::from_edges(4, &[(0, 1, w), (1, 3, w), (0, 3, 5), (3, 2, u32::MAX)]).unwrap();
    assert!(matches!(
        cpu::da2cf_f(&graph, 0),
        Err(Error::DistanceOverflow { vertex: 2, .. })
    ));
    let graph = Graph::from_edges(3, &[(0, 1, w), (1, 2, w - 1)]).unwrap();
    assert_eq!(
        cpu::da2cf_f(&graph, 0).unwrap().dist,
        vec![0, w, MAX_DISTANCE]
    );
}

#[test]
fn block_reduction_equals_the_plain_minimum() {
    let mut rng = TestRng::new("block_reduction_equals_the_plain_minimum");
    for _ in 0..200 {
        let n = rng.range(1, 3000) as usize;
        let dist: Vec<u32> = (0..n)
            .map(|_| match rng.below(10) {
                0 => INFINITY,
                1 => SATURATED,
                _ => rng.below(1000) as u32,
            })
            .collect();
        let unsettled: Vec<u8> = (0..n).map(|_| rng.chance(0.3) as u8).collect();
        let expected = (0..n)
            .filter(|&i| unsettled[i] != 0)
            .map(|i| dist[i])
            .min()
            .unwrap_or(INFINITY);
        assert_eq!(
            cpu::minimum(&dist, &unsettled),
            expected,
            "n = {n}, seed {}",
            rng.seed
        );
    }
}

#[test]
fn source_out_of_range_is_an_error() {
    let graph = Graph::from_edges(3, &[(0, 1, 1)]).unwrap();
    assert!(matches!(
        cpu::da2cf_f(&graph, 3),
        Err(Error::SourceOutOfRange { .. })
    ));
}

/// The measuring mode's count of working `relax` threads, from the distances
/// alone. Push: every reachable vertex is in the frontier for exactly one
/// `relax` (Martín's and Crauser's economic rule). Pull with Martín's rule and positive weights:
/// a vertex whose distance is the r-th smallest distinct value (the source's 0
/// is the 0th) is unsettled in iterations 1..=r, an unreachable one in all of
/// them.
#[test]
fn working_thread_counts_follow_from_the_distances() {
    use sssp::variants::{Frontier, Relax};
    let mut rng = TestRng::new("working_thread_counts_follow_from_the_distances");
    for case in 0..300 {
        let context = format!("case {case}, seed {}", rng.seed);
        let n = rng.range(1, 300) as usize;
        let m = rng.below(4 * n as u64 + 1) as usize;
        let max_weight = [1u32, 3, 10, 1000][rng.below(4) as usize];
        let graph = random_graph_weighted(&mut rng, n, m, 1..=max_weight);
        let source = rng.below(n as u64) as usize;
        let dist = oracle::dijkstra(&graph, source).unwrap();
        let values: Vec<u32> = dist
            .iter()
            .copied()
            .filter(|&d| d != INFINITY)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let iterations = values.len() as u64;
        let reachable = dist.iter().filter(|&&d| d != INFINITY).count() as u64;
        let pull: u64 = dist
            .iter()
            .map(|&d| match d {
                INFINITY => iterations,
                d => values.binary_search(&d).unwrap() as u64,
            })
            .sum();
        for rule in [Frontier::Martin, Frontier::CrauserEconomic] {
            let push_model = cpu::da2cf_model(&graph, source, Relax::Push, rule).unwrap();
            // The solver is the model without the count.
            let solver = cpu::da2cf(&graph, source, Relax::Push, rule).unwrap();
            assert_eq!(
                (&solver.dist, solver.iterations, solver.working_threads),
                (&push_model.dist, push_model.iterations, None),
                "{context}, push/{rule:?}: solver against model"
            );
            assert_eq!(
                push_model.working_threads,
                Some(reachable),
                "{context}, push/{rule:?}: working threads"
            );
        }
        // Crauser's general rule stops once only vertices without out-edges
        // (Δ_node infinite) are left; those may never enter a frontier.
        let with_out_edges = (0..n)
            .filter(|&v| dist[v] != INFINITY && graph.offsets()[v] < graph.offsets()[v + 1])
            .count() as u64;
        let general = cpu::da2cf_model(&graph, source, Relax::Push, Frontier::CrauserGeneral)
            .unwrap()
            .working_threads
            .unwrap();
        assert!(
            (with_out_edges..=reachable).contains(&general),
            "{context}, push/CrauserGeneral: {general} working threads, \
             {with_out_edges} reachable with out-edges, {reachable} reachable"
        );
        let pull_model = cpu::da2cf_model(&graph, source, Relax::Pull, Frontier::Martin).unwrap();
        assert_eq!(
            pull_model.working_threads,
            Some(pull),
            "{context}, pull/Martin: working threads"
        );
    }
}
