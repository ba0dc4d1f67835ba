//! The compacted, device-resident DA2CF (`gpu_kernels::compact`) without a GPU:
//! its whole loop run by one thread (`sssp::cpu::compact`), by several OS
//! threads with a barrier (what a block or the grid does), and handed from one
//! team to another when the sets leave a size range (what the host does between
//! the block and grid kernels). Distances against the oracle; iterations
//! against the paper variants with the same settling rule.

use std::sync::atomic::Ordering::Relaxed;

use gpu_kernels::compact::thread_loop;
use gpu_kernels::team::{Exit, Sequential};
use sssp::cpu::compact::{CompactRule, CompactState, compact_da2cf, delta_node};
use sssp::cpu::da2cf;
use sssp::generate::{RandomGraphSpec, random_graph};
use sssp::gpu::resident::{LoopStop, WorkLimits, run_loop_launches};
use sssp::variants::{Frontier, Relax};
use sssp::{Graph, oracle};
use sssp_tests::teams::{ModelLoop, run_on_threads, warps_of};
use sssp_tests::{
    TestRng, check_against_oracle, fig5_graph, random_graph as random_edges, random_small_graph,
};

const RULES: [CompactRule; 2] = [CompactRule::Martin, CompactRule::Crauser];

/// The paper variant that settles the same frontiers as `rule`.
fn paper_rule(rule: CompactRule) -> Frontier {
    match rule {
        CompactRule::Martin => Frontier::Martin,
        CompactRule::Crauser => Frontier::CrauserGeneral,
    }
}

/// The sequential compacted DA2CF against the oracle, and its iterations
/// against the paper variant's (push relaxation, same rule).
fn check(graph: &Graph, source: usize, context: &str) {
    let expected = oracle::dijkstra(graph, source);
    for rule in RULES {
        let context = format!("{context}, {rule:?}");
        let result = compact_da2cf(graph, source, rule).map(|r| (r.dist, r.iterations));
        let Some(iterations) = check_against_oracle(&expected, result, &context) else {
            continue;
        };
        let paper = da2cf::da2cf(graph, source, Relax::Push, paper_rule(rule))
            .unwrap_or_else(|e| panic!("{context}: paper variant: {e}"));
        assert_eq!(iterations, paper.iterations, "{context}: iterations");
    }
}

#[test]
fn compact_matches_the_oracle_and_the_papers_iterations_on_small_random_graphs() {
    let mut rng =
        TestRng::new("compact_matches_the_oracle_and_the_papers_iterations_on_small_random_graphs");
    for case in 0..800 {
        let graph = random_small_graph(&mut rng, 60);
        let source = rng.below(graph.num_vertices() as u64) as usize;
        check(&graph, source, &format!("case {case}, seed {}", rng.seed));
    }
}

#[test]
fn compact_matches_the_oracle_on_larger_random_graphs() {
    let mut rng = TestRng::new("compact_matches_the_oracle_on_larger_random_graphs");
    for n in [1, 2, 100, 1023, 1024, 1025, 5000, 20_000] {
        let m = rng.range(0, 5 * n as u64) as usize;
        let max_weight = [0u32, 1, 20, 1 << 20, u32::MAX / 8][rng.below(5) as usize];
        let graph = random_edges(&mut rng, n, m, max_weight);
        let source = rng.below(n as u64) as usize;
        let context = format!(
            "n = {n}, m = {m}, max weight {max_weight}, seed {}",
            rng.seed
        );
        check(&graph, source, &context);
    }
}

#[test]
fn compact_matches_the_oracle_on_the_papers_graph_and_fig5() {
    let mut rng = TestRng::new("compact_matches_the_oracle_on_the_papers_graph_and_fig5");
    let graph = random_graph(&RandomGraphSpec::papers(50_000, rng.bits())).unwrap();
    let source = rng.below(50_000) as usize;
    check(&graph, source, &format!("papers' graph, seed {}", rng.seed));
    check(&fig5_graph(1024), 0, "Fig. 5");
}

/// One launch: `warps` warps of `warp_size` OS threads run the loop over
/// `state` until it converges or the work leaves `min_work..=max_work`.
fn launch(
    graph: &Graph,
    delta_node: &[u32],
    state: &CompactState,
    team: (usize, usize),
    (min_work, max_work): (u32, u32),
) -> Exit {
    let arrays = state.arrays(graph, delta_node);
    run_on_threads(team, |t| thread_loop::<u32>(arrays, min_work, max_work, t))
}

/// The host's schedule (`run_loop_launches`, stopping where `LoopStop` says)
/// on the CPU: a "block" of `small` warps, a "grid" of `large` warps, warps of
/// `warp_size` lanes, handing over at `block_max` and `grid_min`, `ahead`
/// launches queued before the first read. Checks that the kernel's exit and
/// the host's stop agree. Returns the distances, iterations and the launches
/// that ran an iteration.
fn switching(
    graph: &Graph,
    source: usize,
    rule: CompactRule,
    (small, large, warp_size): (usize, usize, usize),
    (block_max, grid_min, ahead): (u32, u32, u32),
) -> (Vec<u32>, u32, u32) {
    let delta_node = delta_node(graph, rule);
    let state = CompactState::new(graph.num_vertices(), source);
    let limits = WorkLimits {
        block_max,
        grid_min,
    };
    let mut model = ModelLoop::new(
        |form, work| {
            let warps = warps_of(form, (small, large));
            launch(graph, &delta_node, &state, (warps, warp_size), work)
        },
        || LoopStop::from(state.snapshot()),
    );
    let run = run_loop_launches(limits, 1, ahead, &mut model).unwrap();
    assert!(run.launches >= model.worked.max(ahead));
    let dist = state.dist.iter().map(|d| d.load(Relaxed)).collect();
    (dist, run.iterations, model.worked)
}

#[test]
fn compact_on_real_threads_switching_teams_matches_the_oracle() {
    let mut rng = TestRng::new("compact_on_real_threads_switching_teams_matches_the_oracle");
    let mut switched = 0;
    for case in 0..40 {
        let n = rng.range(1, 1500) as usize;
        let m = rng.range(0, 6 * n as u64) as usize;
        let max_weight = [0u32, 1, 10, 1000][rng.below(4) as usize];
        let graph = random_edges(&mut rng, n, m, max_weight);
        let source = rng.below(n as u64) as usize;
        let block_max = rng.range(1, 200) as u32;
        let grid_min = rng.range(0, block_max as u64) as u32;
        let teams = (
            rng.range(1, 2) as usize,
            rng.range(2, 4) as usize,
            [1, 2, 4, 8][rng.below(4) as usize],
        );
        let ahead = rng.range(1, 4) as u32;
        let expected = oracle::dijkstra(&graph, source);
        for rule in RULES {
            let context = format!(
                "case {case}, n = {n}, m = {m}, max weight {max_weight}, {rule:?}, \
                 teams {teams:?}, limits ({block_max}, {grid_min}), {ahead} ahead, seed {}",
                rng.seed
            );
            let limits = (block_max, grid_min, ahead);
            let (dist, iterations, launches) = switching(&graph, source, rule, teams, limits);
            let sequential = compact_da2cf(&graph, source, rule)
                .unwrap_or_else(|e| panic!("{context}: sequential: {e}"));
            check_against_oracle(&expected, Ok((dist, ())), &context);
            assert_eq!(iterations, sequential.iterations, "{context}: iterations");
            if launches > 2 {
                switched += 1;
            }
        }
    }
    // The schedule must really have handed over between teams.
    assert!(switched > 10, "only {switched} solves switched teams");
}

#[test]
fn a_launch_outside_its_range_changes_nothing() {
    let graph = fig5_graph(64);
    let delta_node = delta_node(&graph, CompactRule::Martin);
    let state = CompactState::new(64, 0);
    // Work 1 (the source) is below a minimum of 2: nothing may run.
    let exit = thread_loop::<u32>(state.arrays(&graph, &delta_node), 2, u32::MAX, &Sequential);
    assert_eq!(exit, Exit::OutOfRange);
    assert_eq!(state.state.iteration.load(Relaxed), 0);
    assert_eq!(LoopStop::from(state.snapshot()).work, 1);
    // Then a launch that accepts it runs to the end, as the oracle says.
    let exit = thread_loop::<u32>(state.arrays(&graph, &delta_node), 0, u32::MAX, &Sequential);
    assert_eq!(exit, Exit::Converged);
    let dist: Vec<u32> = state.dist.iter().map(|d| d.load(Relaxed)).collect();
    assert_eq!(dist, oracle::dijkstra(&graph, 0).unwrap());
}
