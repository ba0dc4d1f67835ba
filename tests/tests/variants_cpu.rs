//! Every CPU form of DA2CF and of Crauser's frontier (the kernels' per-thread
//! logic run on the CPU) against the oracle, and Crauser's iteration counts
//! against Martín's.

use sssp::algorithms::{Algorithm, Device};
use sssp::variants::{Frontier, Relax};
use sssp::{Error, Graph, cpu, oracle};
use sssp_tests::models::{DA2CF_FORMS as FORMS, check_form_iterations};
use sssp_tests::{TestRng, check_against_oracle, fig5_graph, random_graph, random_small_graph};

/// Compares one form with the oracle (overflow included) and returns its iterations.
fn check(graph: &Graph, source: usize, relax: Relax, rule: Frontier, context: &str) -> Option<u32> {
    let expected = oracle::dijkstra(graph, source);
    let result = cpu::da2cf(graph, source, relax, rule).map(|r| (r.dist, r.iterations));
    check_against_oracle(
        &expected,
        result,
        &format!("{context}, {relax:?}/{rule:?}, source {source}"),
    )
}

#[test]
fn every_form_matches_the_oracle_on_small_random_graphs() {
    let mut rng = TestRng::new("every_form_matches_the_oracle_on_small_random_graphs");
    for case in 0..300 {
        let graph = random_small_graph(&mut rng, 50);
        let source = rng.below(graph.num_vertices() as u64) as usize;
        let context = format!("case {case}, seed {}", rng.seed);
        let iterations: Vec<Option<u32>> = FORMS
            .iter()
            .map(|&(relax, rule)| check(&graph, source, relax, rule, &context))
            .collect();
        check_form_iterations(&iterations, &context);
    }
}

#[test]
fn crauser_needs_no_more_iterations_than_martin_on_the_papers_graph() {
    let mut rng = TestRng::new("crauser_needs_no_more_iterations_than_martin_on_the_papers_graph");
    let n = rng.range(1000, 20_000) as usize;
    let graph = random_graph(&mut rng, n, 7 * n, 10);
    let source = rng.below(n as u64) as usize;
    let context = format!("n = {n}, seed {}", rng.seed);
    let martin = check(&graph, source, Relax::Push, Frontier::Martin, &context).unwrap();
    let general = check(
        &graph,
        source,
        Relax::Push,
        Frontier::CrauserGeneral,
        &context,
    )
    .unwrap();
    let economic = check(
        &graph,
        source,
        Relax::Pull,
        Frontier::CrauserEconomic,
        &context,
    )
    .unwrap();
    println!("iterations: Martín {martin}, Crauser general {general}, economic {economic}");
    assert!(general <= martin && economic <= martin);
    assert!(
        general < martin,
        "{context}: with weights 1..=10 the general frontier should save iterations"
    );
}

#[test]
fn every_form_solves_fig5() {
    let graph = fig5_graph(1024);
    for (relax, rule) in FORMS {
        let result = cpu::da2cf(&graph, 0, relax, rule).unwrap();
        assert_eq!(result.dist[1023], 2, "{relax:?}/{rule:?}");
    }
}

#[test]
fn gpu_only_relaxations_are_refused_on_the_cpu() {
    let graph = fig5_graph(8);
    for relax in [Relax::PushNoAtomic, Relax::PullPlus] {
        assert!(matches!(
            cpu::da2cf(&graph, 0, relax, Frontier::Martin),
            Err(Error::InvalidArgument(_))
        ));
    }
}

#[test]
fn every_cpu_algorithm_of_the_catalogue_runs_and_is_exact() {
    let mut rng = TestRng::new("every_cpu_algorithm_of_the_catalogue_runs_and_is_exact");
    let graph = random_graph(&mut rng, 500, 2000, 10);
    let expected = oracle::dijkstra(&graph, 0).unwrap();
    for &algo in Algorithm::ALL
        .iter()
        .filter(|a| a.info().device == Device::Cpu)
    {
        let (dist, _) = algo
            .solve_cpu(&graph, 0)
            .unwrap_or_else(|e| panic!("{algo}: {e}"));
        assert_eq!(dist, expected, "{algo}, seed {}", rng.seed);
    }
}

#[test]
fn names_round_trip_and_unknown_names_list_the_choices() {
    for &algo in Algorithm::ALL {
        assert_eq!(algo.name().parse::<Algorithm>(), Ok(algo));
    }
    let error = "no-such-algo".parse::<Algorithm>().unwrap_err();
    assert!(
        error.contains("f-gpu") && error.contains("crauser-general-pred"),
        "{error}"
    );
}
