//! The partition-local solver without a GPU: the kernel's per-block logic run by emulated blocks of OS threads, all at once as on the GPU, in resident mode (`gpu_kernels::partition::block_solve`, one block per piece) and paged mode (fewer blocks than pieces, claiming them in turn). Every distance against the oracle, on small random graphs with random piece sizes, block and thread counts and window widths, zero weights and unreachable vertices, `f32` weights, grids and rome99.

mod partition_helpers;

use gpu_kernels::distance::INFINITY;
use gpu_kernels::partition::{OUTBOX_SLOTS, auto_delta};
use sssp::generate::{GridSpec, grid_graph};
use sssp::graph::WeightKind;
use sssp::options::Stop;
use sssp::partition::pieces::partition;
use sssp::{Graph, formats, oracle};
use sssp_tests::{
    TestRng, check_against_oracle, find_graph, random_graph, random_small_f32_graph,
    random_small_graph,
};

use partition_helpers::*;

#[test]
fn blocks_on_threads_match_the_oracle_on_small_random_graphs() {
    let mut rng = TestRng::new("blocks_on_threads_match_the_oracle_on_small_random_graphs");
    for case in 0..2000 {
        let (graph, source) = small_random_graph(&mut rng);
        let (capacity, blocks, delta) = small_random_blocks(&mut rng, &graph);
        let n = graph.num_vertices();
        let context = format!("case {case}, n {n}, source {source}, seed {}", rng.seed);
        check(
            &graph,
            (source, Stop::default()),
            capacity,
            blocks,
            delta,
            &context,
        );
    }
}

#[test]
fn limits_and_targets_bound_the_solve_and_keep_every_distance_within_exact() {
    let mut rng = TestRng::new("limits_and_targets_bound_the_solve");
    let mut bounded_cases = 0;
    for case in 0..1000 {
        let (graph, source) = small_random_graph(&mut rng);
        let n = graph.num_vertices();
        let Ok(full) = oracle::dijkstra(&graph, source) else {
            continue; // overflowing graphs: the overflow tests cover them
        };
        // A limit among the reached distances (or just above one), a target
        // anywhere: the source, an unreachable vertex or beyond the limit.
        let reached: Vec<u32> = full.iter().copied().filter(|&d| d != INFINITY).collect();
        let limit = rng.chance(0.6).then(|| {
            let d = reached[rng.below(reached.len() as u64) as usize];
            d.saturating_add(rng.below(2) as u32)
        });
        let target = (limit.is_none() || rng.chance(0.5)).then(|| rng.below(n as u64) as usize);
        let stop = Stop { limit, target };
        let (capacity, blocks, delta) = small_random_blocks(&mut rng, &graph);
        let context = format!(
            "case {case}, n {n}, source {source}, {stop:?}, seed {}",
            rng.seed
        );
        check(&graph, (source, stop), capacity, blocks, delta, &context);
        bounded_cases += 1;
    }
    assert!(
        bounded_cases > 500,
        "only {bounded_cases} bounded cases ran"
    );
}

#[test]
fn paged_blocks_match_the_oracle_with_many_more_pieces_than_blocks() {
    let mut rng = TestRng::new("paged_blocks_match_the_oracle_with_many_more_pieces_than_blocks");
    for case in 0..1000 {
        let graph = if rng.chance(0.2) {
            random_small_f32_graph(&mut rng, 40)
        } else {
            random_small_graph(&mut rng, 80)
        };
        let n = graph.num_vertices();
        let source = rng.below(n as u64) as usize;
        let capacity = rng.range(1, (n as u64 / 2).max(1) + 1) as usize;
        let threads = rng.range(1, 4) as usize;
        let blocks = Blocks {
            threads,
            warp_size: if rng.chance(0.5) { threads } else { 1 },
            edges_in_shared: rng.chance(0.5),
            paged: Some(rng.range(1, 5) as usize),
            edge_lanes: rng.range(1, 10) as u32,
            chain_hops: rng.range(0, 5) as u32,
            entries_first: rng.chance(0.5),
        };
        let kind = graph.weight_kind();
        let delta = match rng.below(3) {
            0 => 1,
            1 => u32::MAX / 2,
            _ => match kind {
                WeightKind::U32 => auto_delta::<u32>(graph.csr()),
                WeightKind::F32 => auto_delta::<f32>(graph.csr()),
            },
        };
        let context = format!(
            "case {case}, n {n}, source {source}, capacity {capacity}, {blocks:?}, delta {delta}, \
             seed {}",
            rng.seed
        );
        let parts = partition(&graph, capacity).unwrap_or_else(|e| panic!("{context}: {e}"));
        let result = match kind {
            WeightKind::U32 => {
                solve_on_threads::<u32>(&parts, kind, (source, Stop::default()), delta, blocks)
            }
            WeightKind::F32 => {
                solve_on_threads::<f32>(&parts, kind, (source, Stop::default()), delta, blocks)
            }
        };
        check_against_oracle(&oracle::dijkstra(&graph, source), result, &context);
    }
}

#[test]
fn blocks_on_threads_match_the_oracle_on_larger_graphs_grids_and_rome99() {
    let mut rng =
        TestRng::new("blocks_on_threads_match_the_oracle_on_larger_graphs_grids_and_rome99");
    for n in [500, 3000] {
        let max_weight = [0u32, 1, 20, 1 << 20][rng.below(4) as usize];
        let m = rng.range(n as u64, 4 * n as u64) as usize;
        let graph = random_graph(&mut rng, n, m, max_weight);
        let source = rng.below(n as u64) as usize;
        let context = format!("random n {n}, max weight {max_weight}, seed {}", rng.seed);
        let capacity = n.div_ceil(rng.range(1, 8) as usize);
        check(
            &graph,
            (source, Stop::default()),
            capacity,
            (rng.range(1, 4) as usize, rng.range(1, 5) as usize),
            auto_delta::<u32>(graph.csr()),
            &context,
        );
    }
    let grid = grid_graph(&GridSpec::new(80, 60, rng.bits())).unwrap();
    let source = rng.below(grid.num_vertices() as u64) as usize;
    for (capacity, delta) in [(600, 400), (1200, 1), (4800, auto_delta::<u32>(grid.csr()))] {
        check(
            &grid,
            (source, Stop::default()),
            capacity,
            (3, 3),
            delta,
            &format!("grid 80×60, seed {}", rng.seed),
        );
    }
    let rome = find_graph("rome99.gr");
    let rome = formats::load(&rome, None).unwrap();
    let rome = rome.graph().unwrap();
    for capacity in [500, 1700] {
        check(
            &rome,
            (0, Stop::default()),
            capacity,
            (2, 2),
            auto_delta::<u32>(rome.csr()),
            "rome99",
        );
    }
}

#[test]
fn a_hub_that_reaches_more_pieces_than_an_outbox_holds() {
    // The hub's first round improves a vertex in each of about 3 × OUTBOX_SLOTS
    // pieces: the outbox fills and the rest are sent directly.
    let mut rng = TestRng::new("a_hub_that_reaches_more_pieces_than_an_outbox_holds");
    let leaves = 3 * OUTBOX_SLOTS as u32;
    let mut edges: Vec<(u32, u32, u32)> = (1..=leaves)
        .map(|leaf| (0, leaf, rng.range(0, 50) as u32))
        .collect();
    for _ in 0..leaves {
        let (a, b) = (rng.range(1, leaves as u64), rng.range(1, leaves as u64));
        edges.push((a as u32, b as u32, rng.range(0, 50) as u32));
    }
    let graph = Graph::from_edges(leaves as usize + 1, &edges).unwrap();
    for delta in [1, u32::MAX / 2] {
        let context = format!("hub with {leaves} leaves, seed {}", rng.seed);
        check(&graph, (0, Stop::default()), 2, (1, 3), delta, &context);
    }
}
