//! The near-far solver (`gpu_kernels::near_far`) without a GPU: its whole loop
//! run by one thread (`sssp::cpu::near_far`), and by emulated warps of OS
//! threads handing over between a small and a large team as the host does
//! between the block and grid kernels. Distances against the oracle, for
//! every band width from 1 up; and `--algo auto`'s choice.

use std::sync::atomic::Ordering::Relaxed;

use gpu_kernels::distance::{INFINITY, Weight};
use gpu_kernels::near_far::{
    HUB_CHUNK, HUB_DEGREE, auto_delta, hub_slots, thread_loop, wants_hubs,
};
use sssp::algorithms::Algorithm;
use sssp::auto::choice::{BUCKETED_CANDIDATES, TRIAL_CANDIDATES, choose};
use sssp::cpu::near_far::{NearFarHostState, near_far};
use sssp::generate::{GridSpec, RandomGraphSpec, grid_graph, random_graph};
use sssp::gpu::resident::{LoopStop, WorkLimits, run_loop_launches};
use sssp::options::Stop;
use sssp::{Graph, formats, oracle};
use sssp_tests::queries::bounded_oracle;
use sssp_tests::teams::{ModelLoop, run_on_threads, warps_of};
use sssp_tests::{
    TestRng, check_against_oracle, fig5_graph, find_graph, hub_graph, random_graph as random_edges,
    random_small_graph,
};

fn check(graph: &Graph, source: usize, delta: Option<u32>, context: &str) -> Option<u32> {
    let expected = oracle::dijkstra(graph, source);
    let result = near_far(graph, source, delta).map(|r| (r.dist, r.iterations));
    check_against_oracle(&expected, result, &format!("{context}, delta {delta:?}"))
}

#[test]
fn near_far_matches_the_oracle_on_small_random_graphs_for_any_delta() {
    let mut rng = TestRng::new("near_far_matches_the_oracle_on_small_random_graphs_for_any_delta");
    for case in 0..800 {
        let graph = random_small_graph(&mut rng, 60);
        let source = rng.below(graph.num_vertices() as u64) as usize;
        let delta = [
            None,
            Some(1),
            Some(rng.range(1, 50) as u32),
            Some(u32::MAX / 2),
        ][rng.below(4) as usize];
        check(
            &graph,
            source,
            delta,
            &format!("case {case}, seed {}", rng.seed),
        );
    }
}

#[test]
fn near_far_matches_the_oracle_on_larger_graphs() {
    let mut rng = TestRng::new("near_far_matches_the_oracle_on_larger_graphs");
    for n in [1, 2, 1000, 5000, 20_000] {
        let m = rng.range(0, 5 * n as u64) as usize;
        let max_weight = [0u32, 1, 20, 1 << 20, u32::MAX / 8][rng.below(5) as usize];
        let graph = random_edges(&mut rng, n, m, max_weight);
        let source = rng.below(n as u64) as usize;
        let context = format!(
            "n = {n}, m = {m}, max weight {max_weight}, seed {}",
            rng.seed
        );
        check(&graph, source, None, &context);
        check(&graph, source, Some(rng.range(1, 1000) as u32), &context);
    }
    let papers = random_graph(&RandomGraphSpec::papers(50_000, rng.bits())).unwrap();
    check(
        &papers,
        0,
        None,
        &format!("papers' graph, seed {}", rng.seed),
    );
    check(&fig5_graph(1024), 0, None, "Fig. 5");
}

#[test]
fn near_far_takes_few_iterations_on_grids_and_rome99() {
    let mut rng = TestRng::new("near_far_takes_few_iterations_on_grids_and_rome99");
    let grid = grid_graph(&GridSpec::new(200, 200, rng.bits())).unwrap();
    let source = rng.below(grid.num_vertices() as u64) as usize;
    let context = format!("grid 200×200, seed {}", rng.seed);
    let iterations = check(&grid, source, None, &context).unwrap();
    let da2cf = Algorithm::FastCpu
        .solve_cpu(&grid, source)
        .unwrap()
        .1
        .unwrap();
    assert!(
        iterations * 4 < da2cf,
        "{context}: near-far took {iterations} iterations, DA2CF {da2cf}"
    );
    let rome = find_graph("rome99.gr");
    let rome = formats::load(&rome, None).unwrap();
    let rome = rome.graph().unwrap();
    for delta in [None, Some(1), Some(100), Some(100_000)] {
        check(&rome, 0, delta, "rome99");
    }
}

/// Near-far on emulated warps under the host's schedule
/// (`run_loop_launches`, stopping where `LoopStop` says): a team of `small`
/// warps while the waiting work is at most `block_max`, one of `large` warps
/// while it is at least `grid_min`, hubs above `hub_degree` out-edges (no
/// hubs: `None`), `ahead` launches queued before the first read.
/// Checks that the kernel's exit and the host's stop agree. Returns the
/// distances as the loop left them (beyond a `stop`'s bound tentative) and
/// the launches that ran an iteration.
fn switching(
    graph: &Graph,
    (source, delta, hub_degree, stop): (usize, u32, Option<u32>, Stop),
    (small, large, warp_size): (usize, usize, usize),
    (block_max, grid_min, ahead): (u32, u32, u32),
) -> (Vec<u32>, u32) {
    let mut state =
        NearFarHostState::with_hub_degree(graph, source, delta, hub_degree.unwrap_or(u32::MAX));
    state.stop = stop;
    let arrays = state.arrays(graph);
    let limits = WorkLimits {
        block_max,
        grid_min,
    };
    let mut model = ModelLoop::new(
        |form, (min_work, max_work)| {
            let warps = warps_of(form, (small, large));
            run_on_threads((warps, warp_size), |t| {
                if hub_degree.is_some() {
                    thread_loop::<u32, true>(arrays, delta, min_work, max_work, t)
                } else {
                    thread_loop::<u32, false>(arrays, delta, min_work, max_work, t)
                }
            })
        },
        || LoopStop::from(state.snapshot()),
    );
    let run = run_loop_launches(limits, 1, ahead, &mut model).unwrap();
    assert!(run.launches >= model.worked.max(ahead));
    let dist = state.dist.iter().map(|d| d.load(Relaxed)).collect();
    (dist, model.worked)
}

#[test]
fn near_far_on_emulated_warps_switching_teams_matches_the_oracle() {
    let mut rng = TestRng::new("near_far_on_emulated_warps_switching_teams_matches_the_oracle");
    let mut switched = 0;
    for case in 0..40 {
        let n = rng.range(1, 1500) as usize;
        let m = rng.range(0, 6 * n as u64) as usize;
        let max_weight = [0u32, 1, 10, 1000][rng.below(4) as usize];
        let graph = random_edges(&mut rng, n, m, max_weight);
        let source = rng.below(n as u64) as usize;
        let delta = rng.range(1, 2000) as u32;
        let block_max = rng.range(1, 100) as u32;
        let grid_min = rng.range(0, block_max as u64) as u32;
        let hub_degree =
            [None, Some(0), Some(1), Some(3), Some(16), Some(HUB_DEGREE)][rng.below(6) as usize];
        let teams = (
            rng.range(1, 2) as usize,
            rng.range(2, 4) as usize,
            [1, 2, 4, 8][rng.below(4) as usize],
        );
        let ahead = rng.range(1, 4) as u32;
        let context = format!(
            "case {case}, n = {n}, m = {m}, max weight {max_weight}, delta {delta}, \
             hub degree {hub_degree:?}, teams {teams:?}, limits ({block_max}, {grid_min}), \
             {ahead} ahead, seed {}",
            rng.seed
        );
        let solve = (source, delta, hub_degree, Stop::default());
        let limits = (block_max, grid_min, ahead);
        let (dist, launches) = switching(&graph, solve, teams, limits);
        check_against_oracle(&oracle::dijkstra(&graph, source), Ok((dist, ())), &context);
        if launches > 2 {
            switched += 1;
        }
    }
    assert!(switched > 10, "only {switched} solves switched teams");
}

/// A limit or a target: no vertex beyond the bound is relaxed (with a
/// limit, no distance beyond it and an edge is ever stored), and every
/// distance within it is exact, on emulated warps switching teams, with and
/// without hubs.
#[test]
fn near_far_stops_early_at_a_limit_or_a_target() {
    let mut rng = TestRng::new("near_far_stops_early_at_a_limit_or_a_target");
    for case in 0..200 {
        let n = rng.range(1, 1500) as usize;
        let m = rng.range(0, 6 * n as u64) as usize;
        // Small weights (and zeros) make many vertices share the bound's
        // distance exactly.
        let max_weight = [0u32, 1, 2, 3, 10, 1000][rng.below(6) as usize];
        let graph = if rng.chance(0.3) && n >= 2 {
            hub_graph(&mut rng, (n, m), (2, 300..=600), max_weight)
        } else {
            random_edges(&mut rng, n, m, max_weight)
        };
        let source = rng.below(n as u64) as usize;
        let full = oracle::dijkstra(&graph, source).expect("no overflow with these weights");
        let reached: Vec<u32> = full.iter().copied().filter(|&d| d != INFINITY).collect();
        let limit = rng
            .chance(0.6)
            .then(|| reached[rng.below(reached.len() as u64) as usize] + rng.below(2) as u32);
        let target = (limit.is_none() || rng.chance(0.5)).then(|| rng.below(n as u64) as usize);
        let stop = Stop { limit, target };
        let delta = [1, 2, rng.range(1, 2000) as u32][rng.below(3) as usize];
        let hub_degree = [None, Some(1), Some(HUB_DEGREE)][rng.below(3) as usize];
        let teams = (
            1,
            rng.range(2, 4) as usize,
            [1, 4, 8][rng.below(3) as usize],
        );
        let block_max = rng.range(1, 100) as u32;
        let ahead = rng.range(1, 3) as u32;
        let context = format!(
            "case {case}, n = {n}, m = {m}, max weight {max_weight}, {stop:?}, delta {delta}, \
             hub degree {hub_degree:?}, teams {teams:?}, {ahead} ahead, seed {}",
            rng.seed
        );
        let solve = (source, delta, hub_degree, stop);
        let (mut dist, _) = switching(&graph, solve, teams, (block_max, block_max / 2, ahead));
        if let Some(limit) = limit {
            let cap = u32::extend(limit, max_weight);
            let beyond = dist.iter().filter(|&&d| d > cap && d != INFINITY).count();
            assert_eq!(
                beyond, 0,
                "{context}: distances beyond the limit and an edge"
            );
        }
        stop.apply(&mut dist);
        let expected = bounded_oracle(&graph, source, stop);
        check_against_oracle(&Ok(expected), Ok((dist, ())), &context);
    }
}

/// Hubs, vertices of many more edges than the rest, are walked by the whole
/// team one iteration after they joined the near list: graphs with a few
/// hubs of 300–2,000 edges, every hub threshold from 0 (every vertex with an
/// edge) up, on emulated warps switching teams and on one thread.
#[test]
fn near_far_with_hubs_matches_the_oracle() {
    let mut rng = TestRng::new("near_far_with_hubs_matches_the_oracle");
    for case in 0..30 {
        let n = rng.range(2, 1500) as usize;
        let m = rng.range(0, 4 * n as u64) as usize;
        let hubs = rng.range(1, 6) as usize;
        let max_weight = [0u32, 1, 10, 1000][rng.below(4) as usize];
        let graph = hub_graph(&mut rng, (n, m), (hubs, 300..=2000), max_weight);
        let source = rng.below(n as u64) as usize;
        let delta = rng.range(1, 5000) as u32;
        let hub_degree = [0, 1, 31, 299, HUB_DEGREE, 3000][rng.below(6) as usize];
        let hub_degree = Some(hub_degree);
        let teams = (
            rng.range(1, 2) as usize,
            rng.range(2, 4) as usize,
            [1, 4, 8][rng.below(3) as usize],
        );
        let block_max = rng.range(1, 200) as u32;
        let ahead = rng.range(1, 3) as u32;
        let context = format!(
            "case {case}, n = {n}, m = {m}, {hubs} hubs, max weight {max_weight}, \
             delta {delta}, hub degree {hub_degree:?}, teams {teams:?}, {ahead} ahead, seed {}",
            rng.seed
        );
        let expected = oracle::dijkstra(&graph, source);
        let solve = (source, delta, hub_degree, Stop::default());
        let (dist, _) = switching(&graph, solve, teams, (block_max, block_max / 2, ahead));
        check_against_oracle(&expected, Ok((dist, ())), &context);
        check(&graph, source, Some(delta), &context);
    }
}

#[test]
fn hub_lists_hold_every_chunk_of_an_iterations_hubs() {
    for (n, m, hub_degree, slots) in [
        (10, 0, 0, 1),
        (10, 5, 0, 5),
        (10, 500, 0, 11),
        (1000, 5000, 256, 19 + 19),
        (1000, 257, 256, 1 + 1),
        (1000, 256, 256, 1),
    ] {
        assert_eq!(
            hub_slots(n, m, hub_degree),
            slots,
            "n {n}, m {m}, hub degree {hub_degree}"
        );
    }
    // The bound itself: every vertex of a random graph with hubs a hub of
    // the same iteration, their chunks counted.
    let mut rng = TestRng::new("hub_lists_hold_every_chunk_of_an_iterations_hubs");
    for _ in 0..200 {
        let n = rng.range(1, 500) as usize;
        let m = rng.range(0, 2000) as usize;
        let graph = hub_graph(&mut rng, (n, m), (3, 0..=3000), 1);
        let hub_degree = [0, 1, 7, HUB_DEGREE][rng.below(4) as usize];
        let offsets = graph.offsets();
        let chunks: usize = (0..n)
            .map(|u| (offsets[u + 1] - offsets[u]) as usize)
            .filter(|&d| d > hub_degree as usize)
            .map(|d| d.div_ceil(HUB_CHUNK))
            .sum();
        let slots = hub_slots(n, graph.num_edges(), hub_degree);
        assert!(
            chunks <= slots,
            "{chunks} chunks, {slots} slots, seed {}",
            rng.seed
        );
    }
}

#[test]
fn the_hub_form_is_for_graphs_whose_hubs_hold_a_sixteenth_of_the_edges() {
    let star = |leaves: u32, ring: u32| {
        let n = 1 + leaves + ring;
        let mut edges: Vec<(u32, u32, u32)> = (1..=leaves).map(|v| (0, v, 1)).collect();
        edges.extend((0..ring).map(|k| (1 + leaves + k, 1 + leaves + (k + 1) % ring, 1)));
        Graph::from_edges(n as usize, &edges).unwrap()
    };
    let hub = HUB_DEGREE + 1;
    // The hub's edges against the ring's: all, a sixteenth exactly, just
    // below.
    assert!(wants_hubs(star(hub, 0).offsets()));
    assert!(wants_hubs(star(hub, 15 * hub).offsets()));
    assert!(!wants_hubs(star(hub, 15 * hub + 1).offsets()));
    // No vertex above the hub degree, or no edges.
    assert!(!wants_hubs(star(HUB_DEGREE, 0).offsets()));
    assert!(!wants_hubs(Graph::from_edges(3, &[]).unwrap().offsets()));
}

/// `auto`: `fast-crauser` and the DA2CF trial on the papers' graphs (few
/// distinct distances); near-far and the bucketed trial on shallow graphs
/// with many; the partition solver, checked in the same trial, on grids and
/// roads (deep).
#[test]
fn auto_picks_by_distinct_distances_and_depth() {
    let mut rng = TestRng::new("auto_picks_by_distinct_distances_and_depth");
    let spec = RandomGraphSpec::papers(200_000, rng.bits());
    let papers = random_graph(&spec).unwrap();
    let choice = choose(&papers, 0);
    assert_eq!(
        (choice.algorithm, choice.trial),
        (Algorithm::FastCrauser, &TRIAL_CANDIDATES[..]),
        "{}, seed {}",
        choice.reason,
        rng.seed
    );
    // The same edges with real weights in [1, 10): nearly every distance is
    // distinct, so DA2CF would settle about one vertex per iteration (and no
    // trial may run it); the graph is shallow in hops: near-far, or the
    // partition solver if a trial finds it faster.
    let real = random_graph(&RandomGraphSpec {
        weight_kind: sssp::graph::WeightKind::F32,
        ..spec
    })
    .unwrap();
    let choice = choose(&real, 0);
    assert_eq!(
        (choice.algorithm, choice.trial),
        (Algorithm::NearFar, &BUCKETED_CANDIDATES[..]),
        "{}, seed {}",
        choice.reason,
        rng.seed
    );
    let grid = grid_graph(&GridSpec::new(400, 400, rng.bits())).unwrap();
    let choice = choose(&grid, 0);
    assert_eq!(
        (choice.algorithm, choice.trial),
        (Algorithm::Partition, &BUCKETED_CANDIDATES[..]),
        "seed {}",
        rng.seed
    );
    let rome = find_graph("rome99.gr");
    let rome = formats::load(&rome, None).unwrap();
    assert_eq!(
        choose(&rome.graph().unwrap(), 0).algorithm,
        Algorithm::Partition
    );
    // A random graph with a wide weight range has about as many distinct
    // distances as vertices, and few levels: near-far too.
    let wide = random_edges(&mut rng, 100_000, 700_000, 1 << 30);
    assert_eq!(
        choose(&wide, 0).algorithm,
        Algorithm::NearFar,
        "seed {}",
        rng.seed
    );
}

#[test]
fn auto_delta_follows_the_mean_weight_and_degree() {
    let edges: Vec<(u32, u32, u32)> = (0..100u32).map(|v| (v, (v + 1) % 100, 10)).collect();
    let ring = Graph::from_edges(100, &edges).unwrap();
    // 32 · 10 / 1.
    assert_eq!(auto_delta::<u32>(ring.csr()), 320);
    let empty = Graph::from_edges(5, &[]).unwrap();
    assert_eq!(auto_delta::<u32>(empty.csr()), 1);
}

/// A zero band width never advances the band: refused by the one place that
/// resolves `Δ` for the CPU and GPU solvers alike, and the default is `auto_delta`.
#[test]
fn a_zero_delta_is_refused_and_none_is_auto_delta() {
    let graph = fig5_graph(8);
    let refused = near_far(&graph, 0, Some(0));
    assert!(
        matches!(&refused, Err(sssp::Error::InvalidArgument(m)) if m.contains("band width")),
        "{refused:?}"
    );
    assert_eq!(
        sssp::variants::near_far_delta(&graph, None).unwrap(),
        auto_delta::<u32>(graph.csr())
    );
}

#[test]
fn the_block_loop_limit_follows_the_mean_degree() {
    use sssp::gpu::resident::BLOCK_EDGES_PER_THREAD;
    let block = gpu_kernels::launch::COMPACT_BLOCK_SIZE as f64;
    let mut last = u32::MAX;
    for degree in [0.0, 1.0, 2.5, 6.7, 30.0, 1e4] {
        let limits = WorkLimits::for_mean_degree(degree)
            .checked()
            .expect("valid limits");
        // About BLOCK_EDGES_PER_THREAD edges per thread, fewer vertices as
        // the degree grows, and a grid range below the block's.
        let edges = limits.block_max as f64 * degree.max(1.0);
        assert!(
            limits.block_max == 4
                || (edges - BLOCK_EDGES_PER_THREAD * block).abs() <= degree.max(1.0),
            "degree {degree}: {limits:?}"
        );
        assert!(limits.block_max <= last, "degree {degree}: {limits:?}");
        assert!(limits.grid_min >= 1 && limits.grid_min <= limits.block_max);
        last = limits.block_max;
    }
}

#[test]
fn the_median_degree_is_that_of_the_sorted_positive_degrees() {
    use gpu_kernels::near_far::median_positive_degree;
    let offsets_of = |degrees: &[u32]| {
        let mut offsets = vec![0u32];
        for &d in degrees {
            offsets.push(offsets.last().copied().unwrap_or(0) + d);
        }
        offsets
    };
    // The edges of the counted range, and no vertex with edges.
    assert_eq!(
        median_positive_degree(&offsets_of(&[256, 0, 256])),
        Some(256)
    );
    assert_eq!(median_positive_degree(&offsets_of(&[257, 0, 257])), None);
    assert_eq!(median_positive_degree(&offsets_of(&[1, 300, 300])), None);
    assert_eq!(median_positive_degree(&offsets_of(&[1, 1, 300])), Some(1));
    assert_eq!(median_positive_degree(&offsets_of(&[0, 0])), None);
    assert_eq!(median_positive_degree(&[0]), None);
    let mut rng = TestRng::new("the_median_degree_is_that_of_the_sorted_positive_degrees");
    for _ in 0..2000 {
        let n = rng.range(0, 300) as usize;
        // Degrees from a mix of ranges: many zeros, small ones, hubs.
        let degrees: Vec<u32> = (0..n)
            .map(|_| match rng.range(0, 3) {
                0 => 0,
                1 => rng.range(1, 8) as u32,
                2 => rng.range(1, 300) as u32,
                _ => rng.range(200, 5000) as u32,
            })
            .collect();
        let offsets = offsets_of(&degrees);
        let mut positive: Vec<u32> = degrees.iter().copied().filter(|&d| d > 0).collect();
        positive.sort_unstable();
        let expected = (!positive.is_empty())
            .then(|| positive[(positive.len() - 1) / 2])
            .filter(|&median| median <= 256);
        assert_eq!(
            median_positive_degree(&offsets),
            expected,
            "degrees {degrees:?}, seed {}",
            rng.seed
        );
    }
}

#[test]
fn auto_delta_sizes_the_band_for_the_typical_degree_where_hubs_skew_the_mean() {
    // 100 vertices of out-degree 1 and one hub of 900 edges, weight 10:
    // mean degree 10, median 1, so the band is 32 · 10 / 1.
    let mut edges: Vec<(u32, u32, u32)> = (0..100).map(|v| (v, (v + 1) % 101, 10)).collect();
    edges.extend((0..900).map(|i| (100, i % 100, 10)));
    let skewed = Graph::from_edges(101, &edges).unwrap();
    assert_eq!(auto_delta::<u32>(skewed.csr()), 320);
    // Equal degrees: the mean (here 4 = the median): 32 · 10 / 4.
    let even: Vec<(u32, u32, u32)> = (0..100)
        .flat_map(|v| (1..=4).map(move |k| (v, (v + k) % 100, 10)))
        .collect();
    let even = Graph::from_edges(100, &even).unwrap();
    assert_eq!(auto_delta::<u32>(even.csr()), 80);
}
