//! The library facade on the CPU: queries of several sources with limits,
//! targets and trees against the oracle; the CPU fallback for GPU algorithms;
//! `--undirected` and `--unweighted` graphs; source lists; bad queries.

use std::path::Path;

use gpu_kernels::distance::INFINITY;
use sssp::algorithms::{self, Algorithm};
use sssp::formats::sources::parse_sources;
use sssp::options::{Device, Stop};
use sssp::solver::{FALLBACK, Query, Solver};
use sssp::{Error, Graph};
use sssp_tests::queries::{bounded_oracle, check_random_queries, check_random_row_batches};
use sssp_tests::{TestRng, random_graph};

/// The list-based CPU algorithms that take any graph.
fn cpu_list_algorithms() -> Vec<Algorithm> {
    sssp_tests::exact_algorithms(algorithms::Processor::Cpu, 0, 0)
}

#[test]
fn queries_of_several_sources_with_limits_targets_and_trees_match_the_oracle() {
    let mut rng = TestRng::new("cpu_queries");
    let solver = Solver::new(Device::Cpu).expect("a CPU solver");
    // Several streams asked for: the CPU solves one source after another.
    check_random_queries(&solver, &cpu_list_algorithms(), &mut rng, (40, 60), (4, 3));
}

#[test]
fn rows_streamed_to_a_sink_match_the_oracle_in_order() {
    let mut rng = TestRng::new("cpu_row_batches");
    let solver = Solver::new(Device::Cpu).expect("a CPU solver");
    let mut algorithms = cpu_list_algorithms();
    algorithms.push(Algorithm::Auto);
    check_random_row_batches(&solver, &algorithms, &mut rng, (20, 1, 80), 6);
}

#[test]
fn gpu_algorithms_fall_back_to_the_cpu_on_a_cpu_solver() {
    let mut rng = TestRng::new("cpu_fallback");
    let solver = Solver::new(Device::Cpu).expect("a CPU solver");
    assert!(solver.gpu().is_none());
    assert!(solver.no_gpu_reason().is_some());
    let graph = random_graph(&mut rng, 50, 200, 9);
    for algorithm in [Algorithm::Auto, Algorithm::Fast, Algorithm::NearFar] {
        let query = Query::from_sources([0, 7]).algorithm(algorithm).limit(12);
        let solution = solver.solve(&graph, &query).expect("solves");
        assert_eq!(solution.requested, algorithm);
        assert_eq!(solution.algorithm, FALLBACK);
        assert_eq!(solution.device, algorithms::Processor::Cpu);
        for row in &solution.rows {
            let stop = Stop {
                limit: Some(12),
                target: None,
            };
            assert_eq!(row.dist, bounded_oracle(&graph, row.source, stop));
        }
    }
}

#[test]
fn a_prepared_solver_reuses_its_graph_for_many_sources() {
    let mut rng = TestRng::new("cpu_prepared");
    let solver = Solver::new(Device::Cpu).expect("a CPU solver");
    let graph = random_graph(&mut rng, 300, 1200, 20);
    let mut prepared = solver
        .prepare(&graph, Algorithm::NearFarCpu, Default::default(), 0)
        .expect("prepares");
    for source in 0..graph.num_vertices() {
        let row = prepared
            .solve(source, Stop::default(), false, Default::default())
            .expect("solves");
        assert_eq!(
            row.dist,
            sssp::oracle::dijkstra(&graph, source).expect("oracle"),
            "source {source}, seed {}",
            rng.seed
        );
    }
}

#[test]
fn distances_read_as_numbers_and_paths_follow_the_tree() {
    let graph = Graph::from_edges(4, &[(0, 1, 2), (1, 2, 3), (0, 2, 9)]).expect("graph");
    let solver = Solver::new(Device::Cpu).expect("a CPU solver");
    let solution = solver
        .solve(&graph, &Query::from_sources([0]).with_parents())
        .expect("solves");
    let row = &solution.rows[0];
    assert_eq!(row.distance(2), Some(5.0));
    assert_eq!(row.distance(3), None);
    assert_eq!(row.distances_f64(), vec![0.0, 2.0, 5.0, f64::INFINITY]);
    assert_eq!(row.path_to(2).expect("a tree"), Some(vec![0, 1, 2]));
    assert_eq!(row.path_to(3).expect("a tree"), None);
    let without = solver
        .solve(&graph, &Query::from_sources([0]))
        .expect("solves");
    assert!(without.rows[0].path_to(2).is_err(), "no tree was asked for");
}

#[test]
fn bad_queries_are_errors_that_name_the_problem() {
    let graph = Graph::from_edges(3, &[(0, 1, 1)]).expect("graph");
    let solver = Solver::new(Device::Cpu).expect("a CPU solver");
    let message = |query: Query| match solver.solve(&graph, &query) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("{query:?} should fail"),
    };
    assert!(message(Query::from_sources([])).contains("at least one source"));
    assert!(message(Query::from_sources([3])).contains("source vertex 3"));
    assert!(message(Query::from_sources([0]).target(5)).contains("target vertex 5"));
    let mut no_runs = Query::from_sources([0]);
    no_runs.timing.runs = 0;
    assert!(message(no_runs).contains("timed run"));
}

#[test]
fn a_gpu_solver_without_a_driver_is_a_no_gpu_error() {
    if sssp::gpu::context::driver_present() {
        // On a machine with a driver the same call must give a GPU solver.
        let solver = Solver::new(Device::Gpu(0)).expect("a GPU solver where there is a driver");
        assert!(solver.gpu().is_some());
        return;
    }
    match Solver::new(Device::Gpu(0)) {
        Err(Error::NoGpu(reason)) => assert!(reason.contains("libcuda"), "{reason}"),
        Err(e) => panic!("expected NoGpu, got {e}"),
        Ok(_) => panic!("a GPU solver without a driver"),
    }
    let auto = Solver::new(Device::Auto).expect("auto falls back to the CPU");
    assert!(auto.gpu().is_none() && auto.no_gpu_reason().is_some());
}

#[test]
fn undirected_graphs_have_both_directions_and_keep_every_distance() {
    let mut rng = TestRng::new("undirected");
    for round in 0..30 {
        let n = rng.range(1, 40) as usize;
        let m = rng.below(3 * n as u64) as usize;
        let graph = random_graph(&mut rng, n, m, 20);
        let undirected = graph.undirected().expect("doubles");
        assert_eq!(undirected.num_edges(), 2 * m);
        // The same graph built independently: every edge and its reverse.
        let mut edges = Vec::new();
        for u in 0..n {
            for (v, w) in graph.csr().edges(u) {
                edges.push((u as u32, v as u32, w));
                edges.push((v as u32, u as u32, w));
            }
        }
        let expected = Graph::from_edges(n, &edges).expect("graph");
        for source in 0..n {
            assert_eq!(
                sssp::oracle::dijkstra(&undirected, source).expect("oracle"),
                sssp::oracle::dijkstra(&expected, source).expect("oracle"),
                "round {round}, source {source}, seed {}",
                rng.seed
            );
        }
    }
}

#[test]
fn unweighted_graphs_give_hop_counts() {
    let mut rng = TestRng::new("unweighted");
    for round in 0..30 {
        let n = rng.range(1, 60) as usize;
        let m = rng.below(3 * n as u64) as usize;
        let graph = random_graph(&mut rng, n, m, 1000);
        let unweighted = graph.unweighted().expect("ones");
        assert!(unweighted.weights().iter().all(|&w| w == 1));
        // Breadth-first hop counts, written out here.
        let mut hops = vec![INFINITY; n];
        hops[0] = 0;
        let mut queue = std::collections::VecDeque::from([0usize]);
        while let Some(u) = queue.pop_front() {
            for (v, _) in graph.csr().edges(u) {
                if hops[v] == INFINITY {
                    hops[v] = hops[u] + 1;
                    queue.push_back(v);
                }
            }
        }
        assert_eq!(
            sssp::oracle::dijkstra(&unweighted, 0).expect("oracle"),
            hops,
            "round {round}, seed {}",
            rng.seed
        );
    }
}

#[test]
fn source_lists_read_ids_and_dimacs_ss_files() {
    let path = Path::new("sources.txt");
    let read = |text: &str| parse_sources(text.as_bytes(), path);
    assert_eq!(
        read("3\n\n# a comment\n1\n3\n").expect("ids"),
        vec![3, 1, 3]
    );
    assert_eq!(
        read("c DIMACS\np aux sp ss 2\nc\ns 5\ns 1\n").expect("ss"),
        vec![5, 1]
    );
    let error = |text: &str| read(text).expect_err(text).to_string();
    assert!(error("1\nx\n").contains("sources.txt:2: `x` is not a vertex id"));
    assert!(error("p aux sp ss 3\ns 1\n").contains("announces 3 sources"));
    assert!(error("").contains("lists no source"));
    assert!(error("p aux sp ss 1\n7\n").contains("expected a source line `s ID`"));
    assert!(error("1 2\n").contains("one vertex id per line"));
    assert!(error("1\np aux sp ss 1\n").contains("problem line"));
}

#[test]
fn internal_errors_exit_with_1_and_errors_renumber_their_vertices() {
    let internal = Error::Internal("a buffer too short".into());
    assert_eq!(internal.exit_code(), 1);
    assert!(internal.to_string().contains("a bug"), "{internal}");
    let overflow = Error::DistanceOverflow {
        vertex: 4,
        count: 2,
        weight_type: "u32",
        max: "1".into(),
    };
    assert_eq!(overflow.exit_code(), 2);
    let shown = overflow.renumbered(1).to_string();
    assert!(shown.contains("vertex 5 does not fit"), "{shown}");
}
