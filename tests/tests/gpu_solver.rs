//! The library facade on the GPU: the same random queries as on the CPU (several
//! sources, limits, targets, trees) for every exact GPU algorithm on lists,
//! also solved on several streams at once, and repeated solves that must not
//! leak device memory.

use sssp::algorithms::{self, Algorithm};
use sssp::generate::{GridSpec, grid_graph};
use sssp::options::{Device, Stop};
use sssp::solver::{Query, Solver};
use sssp_tests::queries::{check_random_queries, check_random_row_batches, check_row_batch};
use sssp_tests::{TestRng, random_graph};

fn gpu_solver() -> Solver {
    Solver::new(Device::Gpu(0)).expect("a CUDA GPU")
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn gpu_queries_of_several_sources_with_limits_targets_and_trees_match_the_oracle() {
    let mut rng = TestRng::new("gpu_queries");
    let solver = gpu_solver();
    let algorithms: Vec<Algorithm> = sssp_tests::exact_algorithms(algorithms::Processor::Gpu, 0, 0);
    check_random_queries(&solver, &algorithms, &mut rng, (12, 300), (4, 1));
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn queries_solved_on_several_streams_at_once_match_the_oracle() {
    let mut rng = TestRng::new("gpu_streams");
    let solver = gpu_solver();
    let algorithms: Vec<Algorithm> = sssp_tests::exact_algorithms(algorithms::Processor::Gpu, 0, 0);
    for streams in [2, 5, 16] {
        check_random_queries(&solver, &algorithms, &mut rng, (3, 300), (40, streams));
    }
    // Large enough for the grid loops: cooperative launches take turns.
    check_random_queries(
        &solver,
        &[
            Algorithm::NearFar,
            Algorithm::Fast,
            Algorithm::Partition,
            Algorithm::BfGrid,
        ],
        &mut rng,
        (2, 60_000),
        (24, 6),
    );
}

/// Rows streamed to a sink (`Prepared::solve_rows`: the partition solver
/// finishes them on the GPU and pipelines their copies) equal the bounded
/// oracle, in order, on small graphs and on graphs of many pieces.
#[test]
#[ignore = "needs a CUDA GPU"]
fn rows_streamed_to_a_sink_match_the_oracle_in_order() {
    let mut rng = TestRng::new("gpu_row_batches");
    let solver = gpu_solver();
    let mut algorithms: Vec<Algorithm> =
        sssp_tests::exact_algorithms(algorithms::Processor::Gpu, 0, 0);
    algorithms.push(Algorithm::Auto);
    check_random_row_batches(&solver, &algorithms, &mut rng, (8, 1, 300), 9);
    // Deep graphs of many pieces (paged too), limits and targets included.
    let deep = [Algorithm::Partition, Algorithm::NearFar, Algorithm::Auto];
    for side in [300, 700] {
        let graph = grid_graph(&GridSpec::new(side, side, rng.bits())).expect("a grid");
        let n = graph.num_vertices();
        let sources: Vec<usize> = (0..5).map(|_| rng.below(n as u64) as usize).collect();
        let stops = [
            Stop::default(),
            Stop {
                limit: Some(rng.range(1, 50_000) as u32),
                target: None,
            },
            Stop {
                limit: None,
                target: Some(rng.below(n as u64) as usize),
            },
        ];
        for (stop, &algorithm) in stops.iter().flat_map(|s| deep.iter().map(move |a| (*s, a))) {
            let context = format!("grid {side}², {algorithm}, {stop:?}, seed {}", rng.seed);
            check_row_batch(&solver, &graph, algorithm, (&sources, stop), &context);
        }
    }
}

/// A row that overflows is an error from `solve_rows` too (the flags of
/// the GPU's gather), naming the first vertex beyond the range.
#[test]
#[ignore = "needs a CUDA GPU"]
fn streamed_rows_report_overflow() {
    let solver = gpu_solver();
    // A path of 5,000 arcs of 2^22: vertex 1,024 is the first beyond u32.
    let edges: Vec<(u32, u32, u32)> = (0..5_000).map(|v| (v, v + 1, 1 << 22)).collect();
    let graph = sssp::Graph::from_edges(5_001, &edges).expect("a path");
    let first = (0..=5_000u64)
        .find(|&v| v << 22 > gpu_kernels::distance::MAX_DISTANCE as u64)
        .expect("overflows") as usize;
    for algorithm in [Algorithm::Partition, Algorithm::NearFar, Algorithm::Auto] {
        let mut prepared = solver
            .prepare(&graph, algorithm, Default::default(), 0)
            .expect("prepares");
        let result = prepared.solve_rows(&[0, 0], Stop::default(), &mut |_, _| Ok(()));
        match result {
            Err(sssp::Error::DistanceOverflow { vertex, count, .. }) => {
                assert_eq!((vertex, count), (first, 5_001 - first), "{algorithm}");
            }
            other => panic!("{algorithm}: expected an overflow at vertex {first}, got {other:?}"),
        }
    }
}

/// The partition solver's preparation sets its kernels' shared-memory limit
/// to many sizes (the resident capacity search, the shortcuts' edge budget),
/// and each launch sets it to its own: lanes that prepare while other lanes
/// launch must take turns, or a launch finds the limit lowered (invalid
/// value). Many lanes, prepared at once, racing launches of the first ones.
#[test]
#[ignore = "needs a CUDA GPU"]
fn partition_lanes_prepare_while_other_lanes_launch() {
    let mut rng = TestRng::new("gpu_partition_lanes");
    let solver = gpu_solver();
    for round in 0..12 {
        let n = rng.range(50, 4_000) as usize;
        let graph = random_graph(&mut rng, n, 3 * n, 1_000);
        let sources: Vec<usize> = (0..48).map(|_| rng.below(n as u64) as usize).collect();
        let context = format!("round {round}, n {n}, seed {}", rng.seed);
        let query = Query::from_sources(sources.clone())
            .algorithm(Algorithm::Partition)
            .streams(16);
        let solution = solver
            .solve(&graph, &query)
            .unwrap_or_else(|e| panic!("{context}: {e}"));
        for (row, &source) in solution.rows.iter().zip(&sources) {
            assert_eq!(
                row.dist,
                sssp::oracle::dijkstra(&graph, source).expect("oracle"),
                "{context}, source {source}"
            );
        }
    }
}

/// Batches on eight streams leak no device memory: free memory after each
/// of 48 rounds (after a warm-up) may not trend down by more than an eighth
/// of one batch's footprint a round on the least-squares fit, which the
/// driver pool's one-off steps of a few MiB do not reach and a leak of any
/// sizeable part of each batch does; nor may 48 rounds lose more than
/// [`LEAK_BOUND`] in all.
#[test]
#[ignore = "needs a CUDA GPU"]
fn batches_on_several_streams_leak_no_device_memory() {
    const STREAMS: usize = 8;
    const ROUNDS: usize = 48;
    let mut rng = TestRng::new("gpu_streams_leak");
    let solver = gpu_solver();
    let gpu = solver.gpu().expect("a GPU");
    let graph = random_graph(&mut rng, 20_000, 80_000, 100);
    let sources: Vec<usize> = (0..32).map(|_| rng.below(20_000) as usize).collect();
    let query = Query::from_sources(sources.clone())
        .algorithm(Algorithm::NearFar)
        .streams(STREAMS);
    // A batch's footprint, at least: each stream's copy of the graph (row
    // offsets, targets, weights) and a row of distances; ~6 MB here.
    let (n, m) = (graph.num_vertices() as u64, graph.num_edges() as u64);
    let footprint = STREAMS as u64 * ((n + 1) * 4 + m * 8 + n * 4);
    // Warm-up: the context's and the pool's own allocations settle.
    for _ in 0..3 {
        solver.solve(&graph, &query).expect("solves");
    }
    let (free_before, _) = gpu.memory_info().expect("memory info");
    let mut used = Vec::with_capacity(ROUNDS);
    for round in 0..ROUNDS {
        let solution = solver.solve(&graph, &query).expect("solves");
        if round % 12 == 0 {
            for (row, &s) in solution.rows.iter().zip(&sources) {
                let expected = sssp::oracle::dijkstra(&graph, s).expect("oracle");
                assert_eq!(
                    row.dist, expected,
                    "round {round}, source {s}, seed {}",
                    rng.seed
                );
            }
        }
        let (free, _) = gpu.memory_info().expect("memory info");
        used.push(free_before as i64 - free as i64);
    }
    let per_round = sssp_tests::trend::check_growth(&used, footprint as f64 / 8.0)
        .unwrap_or_else(|e| panic!("batches of {footprint} bytes, seed {}: {e}", rng.seed));
    let lost = used[ROUNDS - 1];
    assert!(
        lost <= LEAK_BOUND as i64,
        "{lost} bytes of device memory lost over {ROUNDS} batches ({per_round:.0} a round); \
         bytes in use after each round: {used:?}"
    );
}

/// The most free device memory a thousand solves may lose or gain: a few
/// of the driver pool's steps, far below the ~1 GB a leak of one solve's
/// buffers would show.
const LEAK_BOUND: u64 = 64 << 20;

#[test]
#[ignore = "needs a CUDA GPU"]
fn a_thousand_solves_leak_no_device_memory() {
    let mut rng = TestRng::new("gpu_leak");
    let solver = gpu_solver();
    let gpu = solver.gpu().expect("a GPU");
    let graph = random_graph(&mut rng, 20_000, 80_000, 100);
    let expected = sssp::oracle::dijkstra(&graph, 0).expect("oracle");
    for algorithm in [Algorithm::Fast, Algorithm::NearFar, Algorithm::FGpu] {
        let query = Query::from_sources([0]).algorithm(algorithm);
        // One solve first: the context's own allocations settle.
        solver.solve(&graph, &query).expect("solves");
        let (free_before, _) = gpu.memory_info().expect("memory info");
        // Each call uploads the graph and allocates the solver's state anew.
        for k in 0..1000 {
            let solution = solver.solve(&graph, &query).expect("solves");
            if k % 250 == 0 {
                assert_eq!(solution.rows[0].dist, expected, "{algorithm}, solve {k}");
            }
        }
        let (free_after, _) = gpu.memory_info().expect("memory info");
        // The graph and state are ~1 MB: a leak of one solve's buffers per
        // call would be ~1 GB after 1000 calls. The stream-ordered
        // allocator's pool keeps what it reserved in chunks of megabytes
        // (4 MiB more seen after the first batch, once a step of exactly 16
        // MiB over 1000 `fast` solves: docs/PERFORMANCE.md), so the bound is
        // a few such steps, 64 MiB.
        assert!(
            free_before.abs_diff(free_after) <= LEAK_BOUND,
            "{algorithm}: free device memory {free_before} before and {free_after} after 1000 solves"
        );
        // And a prepared solver: the graph stays on the device.
        let mut prepared = solver
            .prepare(&graph, algorithm, Default::default(), 0)
            .expect("prepares");
        for k in 0..1000 {
            let source = rng.below(graph.num_vertices() as u64) as usize;
            let row = prepared
                .solve(source, Stop::default(), false, Default::default())
                .expect("solves");
            if k % 100 == 0 {
                assert_eq!(
                    row.dist,
                    sssp::oracle::dijkstra(&graph, source).expect("oracle"),
                    "{algorithm}, prepared solve {k} from {source}, seed {}",
                    rng.seed
                );
            }
        }
        drop(prepared);
        let (free_end, _) = gpu.memory_info().expect("memory info");
        assert!(
            free_before.abs_diff(free_end) <= LEAK_BOUND,
            "{algorithm}: free device memory {free_before} before and {free_end} after a prepared solver"
        );
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn auto_keeps_the_fastest_trial_candidate_on_low_diameter_graphs() {
    // Random graphs of small diameter and small weights, like the papers':
    // `auto` runs its trial of DA2CF and near-far there.
    check_auto_trial("gpu_auto_trial", 10, &sssp::auto::choice::TRIAL_CANDIDATES);
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn auto_tries_the_bucketed_solvers_on_shallow_graphs_with_many_distinct_distances() {
    // The same shape with weights up to 10^6: nearly every distance is
    // distinct, and the graph is shallow: near-far against partition.
    check_auto_trial(
        "gpu_auto_bucketed_trial",
        1_000_000,
        &sssp::auto::choice::BUCKETED_CANDIDATES,
    );
}

/// Solves random graphs of small diameter (weights up to `max_weight`) from
/// two sources with `auto`: it must run one of `candidates`, name every
/// candidate's time in its reason, and give the oracle's distances.
fn check_auto_trial(name: &str, max_weight: u32, candidates: &[sssp::algorithms::Algorithm]) {
    let mut rng = TestRng::new(name);
    let solver = gpu_solver();
    for case in 0..4 {
        let n = rng.range(2_000, 60_000) as usize;
        let graph = random_graph(&mut rng, n, 8 * n, max_weight);
        let sources = [0, rng.below(n as u64) as usize];
        let context = format!("case {case}, n {n}, seed {}", rng.seed);
        let solution = solver
            .solve(&graph, &Query::from_sources(sources))
            .unwrap_or_else(|e| panic!("{context}: {e}"));
        let choice = solution.auto.as_ref().expect("auto's choice");
        assert!(
            candidates.contains(&solution.algorithm),
            "{context}: {} ran ({})",
            solution.algorithm,
            choice.reason
        );
        assert_eq!(choice.trial, candidates, "{context}: {}", choice.reason);
        assert_eq!(choice.algorithm, solution.algorithm, "{context}");
        for candidate in candidates {
            assert!(
                choice.reason.contains(&format!("{candidate} ")),
                "{context}: the reason names every candidate's time: {}",
                choice.reason
            );
        }
        for (row, &source) in solution.rows.iter().zip(&sources) {
            let expected = sssp::oracle::dijkstra(&graph, source).expect("oracle");
            assert_eq!(row.dist, expected, "{context}, source {source}");
        }
    }
}
