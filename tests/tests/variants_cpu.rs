//! Every CPU form of DA2CF and of Crauser's frontier (the kernels' per-thread
//! logic run on the CPU) against the oracle, and Crauser's iteration counts
//! against Martín's; the catalogue's CPU algorithms, names, and the agreement
//! of its specs.

use std::collections::HashSet;

use sssp::algorithms::{Algorithm, Family, Layout, Processor};
use sssp::variants::{CompactRule, Frontier, Relax};
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

/// Every CPU algorithm is exact, and one with a CPU model in its spec takes the
/// model's iterations (the GPU tests check the GPU algorithms' models).
#[test]
fn every_cpu_algorithm_of_the_catalogue_runs_and_is_exact() {
    let mut rng = TestRng::new("every_cpu_algorithm_of_the_catalogue_runs_and_is_exact");
    let graph = random_graph(&mut rng, 500, 2000, 10);
    let expected = oracle::dijkstra(&graph, 0).unwrap();
    for &algo in Algorithm::ALL
        .iter()
        .filter(|a| a.spec().device == Processor::Cpu && a.spec().solves_graphs())
    {
        let (dist, iterations) = algo
            .solve_cpu(&graph, 0)
            .unwrap_or_else(|e| panic!("{algo}: {e}"));
        assert_eq!(dist, expected, "{algo}, seed {}", rng.seed);
        if let Some((relax, rule)) = algo.spec().model {
            let model = cpu::da2cf_model(&graph, 0, relax, rule).unwrap();
            assert_eq!(
                iterations,
                Some(model.iterations),
                "{algo}, seed {}",
                rng.seed
            );
        }
    }
}

/// What the catalogue's specs state of each algorithm agrees: with the
/// solver family (which reads Δ, which has a CPU model, where it can run),
/// and between an algorithm and its matrix twin.
#[test]
fn the_catalogue_is_consistent() {
    let mut names = HashSet::new();
    for &algo in Algorithm::ALL {
        let spec = algo.spec();
        assert!(names.insert(spec.name), "{algo}: a name twice");
        assert_eq!(
            spec.takes_delta,
            matches!(
                spec.family,
                Family::NearFar | Family::Partition(_) | Family::DeltaStepping | Family::Auto
            ),
            "{algo}: takes Δ exactly where its solver reads it"
        );
        // The form of the CPU loop whose iterations the algorithm repeats.
        let model = match spec.family {
            Family::Da2cf(config) => {
                let relax = if config.relax.is_pull() {
                    Relax::Pull
                } else {
                    Relax::Push
                };
                Some((relax, config.frontier))
            }
            Family::Hybrid(_) => Some((Relax::Pull, Frontier::Martin)),
            Family::Compact(CompactRule::Martin) => Some((Relax::Push, Frontier::Martin)),
            Family::Compact(CompactRule::Crauser) => Some((Relax::Push, Frontier::CrauserGeneral)),
            _ => None,
        };
        assert_eq!(spec.model, model, "{algo}: CPU model");
        if let Family::Da2cf(config) = spec.family {
            // Only the GPU's list solver chooses its minimum's passes, and
            // only the GPU's relaxations depart from push and pull.
            if spec.device == Processor::Cpu || spec.layout == Layout::Matrix {
                assert_eq!(config.minimum_passes, 2, "{algo}");
            }
            if spec.device == Processor::Cpu {
                assert!(matches!(config.relax, Relax::Push | Relax::Pull), "{algo}");
            }
        }
        let device = match spec.family {
            Family::Hybrid(_)
            | Family::Partition(_)
            | Family::Auto
            | Family::BellmanFord(Some(_)) => Some(Processor::Gpu),
            Family::DeltaStepping | Family::Dijkstra | Family::BellmanFord(None) => {
                Some(Processor::Cpu)
            }
            // The index's trees exist on either device.
            Family::Index => Some(spec.device),
            _ => None,
        };
        assert!(device.is_none_or(|d| d == spec.device), "{algo}: device");
        assert_eq!(
            spec.exact,
            !matches!(spec.family, Family::Da2cf(c) if c.relax == Relax::PushNoAtomic),
            "{algo}: only the racy push can be wrong"
        );
        match spec.layout {
            Layout::Matrix => {
                assert!(matches!(spec.family, Family::Da2cf(_)), "{algo}");
                assert_eq!(spec.matrix_twin, None, "{algo}");
                assert_eq!(algo.on_matrix(), Some(algo));
            }
            Layout::List => assert_eq!(algo.on_matrix(), spec.matrix_twin, "{algo}"),
        }
        if let Some(twin) = spec.matrix_twin {
            let twin_spec = twin.spec();
            assert_eq!(twin_spec.layout, Layout::Matrix, "{algo} → {twin}");
            assert_eq!(twin_spec.device, spec.device, "{algo} → {twin}");
            assert_eq!(
                twin_spec.model, spec.model,
                "{algo} → {twin}: the same form"
            );
        }
    }
    // The model of every GPU algorithm is also in the catalogue: a CPU DA2CF
    // form on lists.
    let cpu_forms: Vec<_> = Algorithm::ALL
        .iter()
        .map(|a| a.spec())
        .filter(|s| s.device == Processor::Cpu && s.layout == Layout::List)
        .filter(|s| matches!(s.family, Family::Da2cf(_)))
        .filter_map(|s| s.model)
        .collect();
    for &algo in Algorithm::ALL {
        if let Some(model) = algo.spec().model {
            assert!(cpu_forms.contains(&model), "{algo}: {model:?}");
        }
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
