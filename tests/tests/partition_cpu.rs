//! The partition-local solver without a GPU: the partitioner
//! (`sssp::partition`, on one thread and in regions), and the kernel's
//! per-block logic run by emulated blocks of OS threads, all at once as on
//! the GPU: resident mode (`gpu_kernels::partition::block_loop`, one block per
//! piece) and paged mode (`paged_loop`, fewer blocks than pieces, claiming
//! them in turn). Every distance against the oracle, on thousands of small
//! random graphs with random piece sizes, block and thread counts and window
//! widths, zero weights and unreachable vertices, `f32` weights, grids and
//! rome99.

use std::collections::BTreeSet;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU32};

use gpu_kernels::distance::{INFINITY, MAX_DISTANCE, NO_TARGET, Weight};
use gpu_kernels::partition::{
    Global, Local, OUTBOX_SLOTS, Pieces, RoundSettings, auto_delta, block_loop, initialize_piece,
    initialize_vertex, paged_loop, shared_words,
};
use gpu_kernels::team::BlockTeam;
use sssp::distances::check_overflow;
use sssp::generate::{GridSpec, grid_graph};
use sssp::graph::WeightKind;
use sssp::partition::growth::Growth;
use sssp::partition::pieces::{JOINED_SLACK, Partitioning, partition, partition_grown, partition_joined, partition_with_regions};
use sssp::partition::shortcuts::add_shortcuts;
use sssp::options::Stop;
use sssp::{Graph, formats, oracle};
use sssp_tests::queries::bounded;
use sssp_tests::teams::{AbortOnPanic, Barrier};
use sssp_tests::{
    TestRng, check_against_oracle, find_graph, random_graph, random_small_f32_graph,
    random_small_graph,
};

/// One OS thread of an emulated block: the block's last thread is its
/// communication thread; the compute threads form warps of `warp_size`
/// (a divisor of their number), each with its own barrier.
struct Thread<'a> {
    thread: usize,
    threads: usize,
    warp_size: usize,
    barrier: &'a Barrier<'a>,
    compute_barrier: &'a Barrier<'a>,
    warp_barrier: Option<&'a Barrier<'a>>,
}

impl BlockTeam for Thread<'_> {
    fn thread(&self) -> usize {
        self.thread
    }
    fn threads(&self) -> usize {
        self.threads
    }
    fn comm_threads(&self) -> usize {
        1
    }
    fn barrier(&self) {
        self.barrier.wait();
    }
    fn compute_barrier(&self) {
        self.compute_barrier.wait();
    }
    fn warp_size(&self) -> usize {
        self.warp_size
    }
    fn sync_warp(&self) {
        self.warp_barrier
            .expect("only compute threads wait for their warp")
            .wait();
    }
    fn idle(&self) {
        self.barrier.check();
        std::thread::yield_now();
    }
}

fn words(len: usize, value: u32) -> Vec<AtomicU32> {
    (0..len).map(|_| AtomicU32::new(value)).collect()
}

/// How the emulated blocks run.
#[derive(Clone, Copy, Debug)]
struct Blocks {
    /// Compute threads per block (each block has a communication thread more).
    threads: usize,
    /// Compute threads per warp (`BlockTeam::warp_size`).
    warp_size: usize,
    /// Whether the blocks keep their pieces' edges in shared memory.
    edges_in_shared: bool,
    /// Paged mode with this many blocks; `None`: one resident block per piece.
    paged: Option<usize>,
    /// Compute threads that share a frontier vertex's edges
    /// (`RoundSettings::edge_lanes`).
    edge_lanes: u32,
    /// Hops a warp chains in a round at most (`RoundSettings::chain_hops`).
    chain_hops: u32,
    /// Whether rounds take the entries first (`RoundSettings::entries_first`).
    entries_first: bool,
}

/// Solves from `source` (original id) on the pieces of `parts`, bounded as
/// `stop` says (its target an original id): the kernels' initialization,
/// then the emulated blocks. Returns the distances in original ids, bounded
/// (`Stop::apply`) and checked for overflow like the GPU solver's, and the
/// most rounds a block ran.
fn solve_on_threads<W: Weight>(
    parts: &Partitioning,
    kind: WeightKind,
    (source, stop): (usize, Stop),
    delta: u32,
    blocks: Blocks,
) -> sssp::Result<(Vec<u32>, u32)> {
    let Blocks {
        threads,
        warp_size,
        edges_in_shared,
        paged,
        edge_lanes,
        chain_hops,
        entries_first,
    } = blocks;
    let settings = RoundSettings {
        delta,
        edge_lanes,
        chain_hops,
        entries_first,
    };
    // Chain queues for every warp, as the GPU's blocks have.
    let warps = threads / warp_size;
    let n = parts.graph.num_vertices();
    let k = parts.pieces();
    let capacity = parts
        .starts
        .windows(2)
        .map(|r| (r[1] - r[0]) as usize)
        .max()
        .unwrap_or(0);
    let edge_capacity = if edges_in_shared {
        parts.most_edges().max(1) as usize
    } else {
        0
    };
    let (dist, backing) = (words(n, 0), words(n, 3));
    let (notify, owner) = (words(k, 7), words(k, 5));
    let (pending, rounds, bound) = (AtomicU32::new(9), AtomicU32::new(9), AtomicU32::new(9));
    let source = parts.permutation.new_id(source);
    let target = stop.target.map(|t| parts.permutation.new_id(t));
    let global = Global {
        dist: &dist,
        backing: &backing,
        notify: &notify,
        owner: &owner,
        pending: &pending,
        rounds: &rounds,
        bound: &bound,
        target: target.map_or(NO_TARGET, |t| t as u32),
    };
    let first_bound = stop.limit.unwrap_or(INFINITY);
    for v in 0..n {
        initialize_vertex(v, &global);
    }
    for p in 0..k {
        initialize_piece(p, parts.piece_of[source] as usize, first_bound, &global);
    }
    let pieces = Pieces {
        successors: parts.graph.csr(),
        starts: &parts.starts,
        boundary_ends: &parts.boundary_ends,
        piece_of: &parts.piece_of,
    };
    let aborted = AtomicBool::new(false);
    let block_count = paged.unwrap_or(k);
    let shared: Vec<Vec<AtomicU32>> = (0..block_count)
        .map(|_| words(shared_words(capacity, edge_capacity, warps), 0xdead_beef))
        .collect();
    let barriers: Vec<Barrier> = (0..block_count)
        .map(|_| Barrier::new(threads + 1, &aborted))
        .collect();
    let compute_barriers: Vec<Barrier> = (0..block_count)
        .map(|_| Barrier::new(threads, &aborted))
        .collect();
    assert_eq!(threads % warp_size, 0, "compute threads in whole warps");
    let warp_barriers: Vec<Vec<Barrier>> = (0..block_count)
        .map(|_| {
            (0..threads / warp_size)
                .map(|_| Barrier::new(warp_size, &aborted))
                .collect()
        })
        .collect();
    std::thread::scope(|scope| {
        for (block, (((words, barrier), compute_barrier), warp_barriers)) in shared
            .iter()
            .zip(&barriers)
            .zip(&compute_barriers)
            .zip(&warp_barriers)
            .enumerate()
        {
            let local = Local::from_words(words, capacity, edge_capacity, warps)
                .expect("shared_words(capacity, edge_capacity, warps) words");
            for thread in 0..=threads {
                let (pieces, global, aborted) = (&pieces, &global, &aborted);
                scope.spawn(move || {
                    let _guard = AbortOnPanic(aborted);
                    let team = Thread {
                        thread,
                        threads: threads + 1,
                        warp_size,
                        barrier,
                        compute_barrier,
                        warp_barrier: warp_barriers.get(thread / warp_size),
                    };
                    match paged {
                        None => {
                            block_loop::<W>(block, source, settings, pieces, global, &local, &team)
                        }
                        Some(blocks) => paged_loop::<W>(
                            block, blocks, source, settings, pieces, global, &local, &team,
                        ),
                    }
                });
            }
        }
    });
    let result = if paged.is_some() { &backing } else { &dist };
    let renumbered: Vec<u32> = result.iter().map(|d| d.load(Relaxed)).collect();
    if let Some(limit) = stop.limit {
        // Early stop: no vertex above the limit was relaxed, so no distance
        // is above the limit plus an edge.
        let heaviest = parts.graph.weights().iter().copied().max().unwrap_or(0);
        let cap = W::extend(limit, heaviest);
        let above = renumbered.iter().filter(|&&d| d > cap && d != INFINITY);
        assert_eq!(
            above.count(),
            0,
            "distances beyond the limit {limit} and an edge"
        );
    }
    let mut dist = parts.permutation.map_distances_back(&renumbered);
    stop.apply(&mut dist);
    check_overflow(kind, &dist)?;
    assert_eq!(pending.load(Relaxed), 0, "tokens left at the end");
    if paged.is_some() {
        let held = owner.iter().filter(|o| o.load(Relaxed) != 0).count();
        assert_eq!(held, 0, "pieces still owned at the end");
    }
    Ok((dist, rounds.load(Relaxed)))
}

/// Partitions `graph` into pieces of `capacity` and checks the solve on
/// threads against the oracle: resident, with and without the edges in
/// shared memory, and paged on `paged_blocks` blocks (edges in shared memory
/// or not, alternately by the block count's parity).
fn check(
    graph: &Graph,
    (source, stop): (usize, Stop),
    capacity: usize,
    (threads, paged_blocks): (usize, usize),
    delta: u32,
    context: &str,
) {
    // Warps of one thread (1, 3 or 5 threads: each chains alone), one warp of
    // 2, two of 2 (4 threads) and two of 3 (6 threads); else one warp.
    let warp_size = match threads {
        1 | 3 | 5 => 1,
        2 | 4 => 2,
        6 => 3,
        _ => threads,
    };
    // Edge lanes of 1 to more than a warp, and pieces grown breadth-first or
    // compactly, with their fragments joined (up to a quarter over
    // `capacity`) or as cut, varied with the other parameters.
    let edge_lanes = [4, 1, 2, 3, 8, 64][(capacity + threads) % 6];
    // Chains of 0 (every improvement left dirty) to 4 hops.
    let chain_hops = [3, 0, 1, 2, 4][(capacity + delta as usize) % 5];
    let entries_first = (capacity / 2 + threads + delta as usize).is_multiple_of(2);
    let (joined, growth) = [
        (false, Growth::Breadth),
        (true, Growth::Breadth),
        (true, Growth::Compact),
        (false, Growth::Compact),
    ][(capacity + threads + delta as usize) % 4];
    let context = format!(
        "{context}, capacity {capacity}, {threads} threads in warps of {warp_size}, delta {delta}, \
         {edge_lanes} edge lanes, chains of {chain_hops} hops, entries first: {entries_first}, \
         pieces grown {growth:?}, joined: {joined}"
    );
    let parts = if joined {
        partition_joined(graph, capacity, growth)
    } else {
        partition_grown(graph, capacity, growth)
    }
    .unwrap_or_else(|e| panic!("{context}: {e}"));
    let expected = oracle::dijkstra(graph, source).map(|full| bounded(&full, stop));
    let kind = graph.weight_kind();
    let forms = [
        (false, None),
        (true, None),
        (paged_blocks % 2 == 0, Some(paged_blocks.max(1))),
    ];
    // The same pieces with shortcuts (u32 weights; none are added for f32):
    // resident with the edges in shared memory, and paged.
    let mut with_shortcuts = parts.clone();
    let added = add_shortcuts(&mut with_shortcuts, usize::MAX)
        .unwrap_or_else(|e| panic!("{context}: {e}"))
        .count;
    let shortcut_forms = [(true, None), (true, Some(paged_blocks.max(1)))];
    let runs = forms.iter().map(|&form| (&parts, form, "")).chain(
        shortcut_forms
            .iter()
            .filter(|_| added > 0)
            .map(|&form| (&with_shortcuts, form, ", with shortcuts")),
    );
    for (parts, (edges_in_shared, paged), shortcuts) in runs {
        let context = format!(
            "{context}, edges in shared memory: {edges_in_shared}, paged {paged:?}{shortcuts}"
        );
        let blocks = Blocks {
            threads,
            warp_size,
            edges_in_shared,
            paged,
            edge_lanes,
            chain_hops,
            entries_first,
        };
        let result = match kind {
            WeightKind::U32 => solve_on_threads::<u32>(parts, kind, (source, stop), delta, blocks),
            WeightKind::F32 => solve_on_threads::<f32>(parts, kind, (source, stop), delta, blocks),
        };
        check_against_oracle(&expected, result, &context);
    }
}

/// The edges of `graph` as a sorted list of `(tail, head, weight)`.
fn edge_list(graph: &Graph) -> Vec<(u32, u32, u32)> {
    let csr = graph.csr();
    let mut edges: Vec<(u32, u32, u32)> = (0..graph.num_vertices())
        .flat_map(|u| csr.edges(u).map(move |(v, w)| (u as u32, v as u32, w)))
        .collect();
    edges.sort_unstable();
    edges
}

/// `graph` cut into pieces of `capacity` by `partition`, or in `regions`
/// regions.
fn cut(graph: &Graph, capacity: usize, regions: Option<usize>, context: &str) -> Partitioning {
    match regions {
        None => partition(graph, capacity),
        Some(regions) => partition_with_regions(graph, capacity, regions),
    }
    .unwrap_or_else(|e| panic!("{context}: {e}"))
}

/// Everything a partitioning of `graph` into pieces of `capacity` promises
/// (see `sssp::partition`): as cut, pieces of `capacity` but the last;
/// `joined` (`partition_joined`), of up to a quarter more.
fn check_partitioning(
    graph: &Graph,
    parts: &Partitioning,
    capacity: usize,
    joined: bool,
    context: &str,
) {
    let most = if joined {
        capacity + capacity / JOINED_SLACK
    } else {
        capacity
    };
    let n = graph.num_vertices();
    let k = parts.pieces();
    assert_eq!(k, n.div_ceil(capacity), "{context}: number of pieces");
    assert_eq!(parts.starts.len(), k + 1, "{context}: starts");
    assert_eq!(parts.starts[0], 0, "{context}: first start");
    assert_eq!(parts.starts[k] as usize, n, "{context}: last start");
    for p in 0..k {
        let (start, end) = (parts.starts[p] as usize, parts.starts[p + 1] as usize);
        let size = end - start;
        assert!(size >= 1 && size <= most, "{context}: piece {p} of {size}");
        if p + 1 < k && !joined {
            assert_eq!(size, capacity, "{context}: piece {p} is not full");
        }
        let boundary = parts.boundary_ends[p] as usize;
        assert!(
            (start..=end).contains(&boundary),
            "{context}: piece {p}'s boundary"
        );
        // Every vertex in exactly one piece: the contiguous range's.
        for v in start..end {
            assert_eq!(parts.piece_of[v] as usize, p, "{context}: piece of {v}");
        }
    }
    // A bijection, and the renumbered graph is the same graph.
    let old_ids: BTreeSet<u32> = (0..n).map(|v| parts.permutation.old_id(v) as u32).collect();
    assert_eq!(old_ids.len(), n, "{context}: not a bijection");
    for old in 0..n {
        assert_eq!(
            parts.permutation.old_id(parts.permutation.new_id(old)),
            old,
            "{context}: round trip of {old}"
        );
    }
    let values: Vec<u32> = (0..n as u32)
        .map(|v| v.wrapping_mul(2_654_435_761))
        .collect();
    assert_eq!(
        parts
            .permutation
            .map_distances_back(&parts.permutation.map_forward(&values)),
        values,
        "{context}: distances do not map back"
    );
    let mapped_back: Vec<(u32, u32, u32)> = {
        let mut edges: Vec<(u32, u32, u32)> = edge_list(&parts.graph)
            .into_iter()
            .map(|(u, v, w)| {
                let old = |x: u32| parts.permutation.old_id(x as usize) as u32;
                (old(u), old(v), w)
            })
            .collect();
        edges.sort_unstable();
        edges
    };
    assert_eq!(mapped_back, edge_list(graph), "{context}: renumbered edges");
    // Edges between pieces enter boundary vertices; boundary vertices have one.
    let mut entered = vec![false; n];
    for (u, v, _) in edge_list(&parts.graph) {
        let (pu, pv) = (parts.piece_of[u as usize], parts.piece_of[v as usize]);
        if pu != pv {
            assert!(
                v < parts.boundary_ends[pv as usize],
                "{context}: edge {u} -> {v} from piece {pu} enters piece {pv} past its boundary"
            );
            entered[v as usize] = true;
        }
    }
    for p in 0..k {
        for v in parts.starts[p]..parts.boundary_ends[p] {
            assert!(
                entered[v as usize],
                "{context}: boundary vertex {v} has no outside edge"
            );
        }
    }
}

#[test]
fn partitions_cover_every_vertex_once_in_contiguous_pieces() {
    let mut rng = TestRng::new("partitions_cover_every_vertex_once_in_contiguous_pieces");
    for case in 0..500 {
        let graph = random_small_graph(&mut rng, 80);
        let capacity = rng.range(1, graph.num_vertices() as u64 + 2) as usize;
        let context = format!("case {case}, seed {}", rng.seed);
        let parts = cut(&graph, capacity, None, &context);
        check_partitioning(&graph, &parts, capacity, false, &context);
    }
    let grid = grid_graph(&GridSpec::new(57, 31, rng.bits())).unwrap();
    for capacity in [1, 64, 256, 1000, 2000] {
        let context = format!("grid 57×31, seed {}", rng.seed);
        let parts = cut(&grid, capacity, None, &context);
        check_partitioning(&grid, &parts, capacity, false, &context);
    }
    let empty = Graph::from_edges(0, &[]).unwrap();
    let parts = cut(&empty, 4, None, "no vertices");
    check_partitioning(&empty, &parts, 4, false, "no vertices");
    assert!(partition(&grid, 0).is_err(), "capacity 0");
}

/// The disjoint union of `graphs` and `isolated` vertices without edges, in
/// that order of ids.
fn disjoint_union(graphs: &[&Graph], isolated: usize) -> Graph<'static> {
    let mut edges = Vec::new();
    let mut base = 0;
    for graph in graphs {
        edges.extend(
            edge_list(graph)
                .into_iter()
                .map(|(u, v, w)| (u + base, v + base, w)),
        );
        base += graph.num_vertices() as u32;
    }
    Graph::from_edges(base as usize + isolated, &edges).unwrap()
}

#[test]
fn region_pieces_cover_every_vertex_once_in_contiguous_pieces() {
    let mut rng = TestRng::new("region_pieces_cover_every_vertex_once_in_contiguous_pieces");
    for case in 0..500 {
        // Dense ones, and sparse ones of many components and isolated vertices.
        let graph = if rng.chance(0.5) {
            random_small_graph(&mut rng, 80)
        } else {
            let n = rng.range(1, 80);
            let m = rng.below(n + 1) as usize;
            random_graph(&mut rng, n as usize, m, 10)
        };
        let n = graph.num_vertices();
        let capacity = rng.range(1, n as u64 + 2) as usize;
        // Up to more regions than vertices.
        let regions = rng.range(2, n as u64 + 3) as usize;
        let context = format!(
            "case {case}, n {n}, capacity {capacity}, {regions} regions, seed {}",
            rng.seed
        );
        let parts = cut(&graph, capacity, Some(regions), &context);
        check_partitioning(&graph, &parts, capacity, false, &context);
    }
    // Grids large enough for phase 1 to split its frontiers between threads,
    // alone and with other components no seed may reach.
    let grid = grid_graph(&GridSpec::new(300, 200, rng.bits())).unwrap();
    let small = grid_graph(&GridSpec::new(57, 31, rng.bits())).unwrap();
    let union = disjoint_union(&[&small, &grid, &small], 1000);
    for (name, graph) in [
        ("grid 300×200", &grid),
        ("three grids and isolated vertices", &union),
    ] {
        let n = graph.num_vertices();
        for (capacity, regions) in [(1, 7), (64, 2), (64, 13), (500, 8), (n, 5), (n + 9, 40)] {
            let context = format!(
                "{name}, capacity {capacity}, {regions} regions, seed {}",
                rng.seed
            );
            let parts = cut(graph, capacity, Some(regions), &context);
            check_partitioning(graph, &parts, capacity, false, &context);
        }
    }
    let empty = Graph::from_edges(0, &[]).unwrap();
    let parts = cut(&empty, 4, Some(8), "no vertices");
    check_partitioning(&empty, &parts, 4, false, "no vertices, 8 regions");
    assert!(partition_with_regions(&grid, 0, 8).is_err(), "capacity 0");
}

#[test]
fn region_pieces_do_not_depend_on_the_scheduling() {
    // The same regions give the same pieces run after run, on one thread or
    // on more threads than cores.
    let mut rng = TestRng::new("region_pieces_do_not_depend_on_the_scheduling");
    let grid = grid_graph(&GridSpec::new(300, 200, rng.bits())).unwrap();
    let random = random_graph(&mut rng, 20_000, 50_000, 100);
    let union = disjoint_union(&[&random, &grid], 500);
    let pool = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    };
    let (one, many) = (pool(1), pool(8));
    for (name, graph) in [("grid 300×200", &grid), ("random and grid", &union)] {
        for (capacity, regions) in [(64, 8), (500, 3), (50, 61)] {
            let context = format!(
                "{name}, capacity {capacity}, {regions} regions, seed {}",
                rng.seed
            );
            let first = many.install(|| cut(graph, capacity, Some(regions), &context));
            for (run, pool) in [("again", &many), ("on one thread", &one)] {
                let parts = pool.install(|| cut(graph, capacity, Some(regions), &context));
                assert_eq!(
                    parts.permutation.old_of_new(),
                    first.permutation.old_of_new(),
                    "{context}: {run}, other pieces"
                );
                assert_eq!(
                    parts.boundary_ends, first.boundary_ends,
                    "{context}: {run}, other boundaries"
                );
            }
        }
    }
}

#[test]
fn region_pieces_are_about_as_compact_as_sequential_ones_on_a_grid() {
    let mut rng = TestRng::new("region_pieces_are_about_as_compact_as_sequential_ones_on_a_grid");
    let grid = grid_graph(&GridSpec::new(512, 512, rng.bits())).unwrap();
    let boundary = |regions| {
        let parts = cut(&grid, 512, Some(regions), "grid 512×512");
        (0..parts.pieces())
            .map(|p| parts.boundary_ends[p] - parts.starts[p])
            .sum::<u32>()
    };
    let sequential = boundary(1);
    for regions in [2, 8, 32] {
        let in_regions = boundary(regions);
        assert!(
            f64::from(in_regions) <= 1.15 * f64::from(sequential),
            "{regions} regions: {in_regions} boundary vertices, one thread {sequential}, seed {}",
            rng.seed
        );
    }
}

#[test]
fn pieces_grow_breadth_first_on_a_grid() {
    // A 64×64 grid in pieces of 256: BFS-grown pieces are compact, so few
    // vertices are entered from outside (a row-major cut of 4 rows would have
    // 2 × 64 boundary vertices per piece).
    let grid = grid_graph(&GridSpec::new(64, 64, 1)).unwrap();
    let parts = partition(&grid, 256).unwrap();
    let boundary: u32 = (0..parts.pieces())
        .map(|p| parts.boundary_ends[p] - parts.starts[p])
        .sum();
    assert!(
        (boundary as usize) < grid.num_vertices() / 2,
        "{boundary} boundary vertices of {}",
        grid.num_vertices()
    );
}

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

/// A small random graph (`f32` weights one time in five) and a source.
fn small_random_graph(rng: &mut TestRng) -> (Graph<'static>, usize) {
    let graph = if rng.chance(0.2) {
        random_small_f32_graph(rng, 40)
    } else {
        random_small_graph(rng, 60)
    };
    let source = rng.below(graph.num_vertices() as u64) as usize;
    (graph, source)
}

/// Random pieces and blocks for `check` on `graph`: a capacity giving at
/// most 6 pieces (so that every block's threads can run at once), compute
/// threads of every warp size `check` chooses, 1–3 paged blocks, and a
/// window from 1 to huge or `auto_delta`'s.
fn small_random_blocks(rng: &mut TestRng, graph: &Graph) -> (usize, (usize, usize), u32) {
    let n = graph.num_vertices();
    let capacity = rng.range(n.div_ceil(6) as u64, n as u64) as usize;
    let threads = rng.range(1, 7) as usize;
    let paged_blocks = rng.range(1, 4) as usize;
    let delta = match rng.below(4) {
        0 => 1,
        1 => rng.range(1, 100) as u32,
        2 => u32::MAX / 2,
        _ => match graph.weight_kind() {
            WeightKind::U32 => auto_delta::<u32>(graph.csr()),
            WeightKind::F32 => auto_delta::<f32>(graph.csr()),
        },
    };
    (capacity, (threads, paged_blocks), delta)
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

#[test]
fn window_scaling_keeps_words_positive_and_capped() {
    use sssp::partition::search::scale_window;
    assert_eq!(scale_window::<u32>(400, 0.5), 200);
    assert_eq!(scale_window::<u32>(400, 2.0), 800);
    assert_eq!(scale_window::<u32>(1, 0.5), 1, "no zero window");
    let cap = scale_window::<u32>(MAX_DISTANCE, 2.0);
    assert!(
        cap.abs_diff(MAX_DISTANCE / 2) <= 1,
        "{cap}: capped at half the largest distance"
    );
    let real = |w: f32, factor| f32::from_bits(scale_window::<f32>(w.to_bits(), factor));
    assert_eq!(
        real(2.5, 0.5),
        1.25,
        "f32 windows scale the value, not the bits"
    );
    assert_eq!(real(2.5, 2.0), 5.0);
}

/// The window search on made-up timings: a valley at `best` (time grows
/// with the distance from it in halvings), with noise-free ties.
#[test]
fn window_search_walks_to_the_valley_within_its_steps() {
    use sssp::partition::search::{WINDOW_SEARCH_STEPS, scale_window, search_window};
    let mut rng = TestRng::new("window_search_walks_to_the_valley_within_its_steps");
    let (halvings, doublings) = WINDOW_SEARCH_STEPS;
    for round in 0..500 {
        let base = rng.range(1, 1 << 20) as u32;
        // The valley anywhere from far below to far above the base.
        let steps = rng.range(0, 16) as i32 - 8;
        let best = scale_window::<u32>(base, 2f64.powi(steps));
        let cost = |w: u32| ((f64::from(w) / f64::from(best)).log2().abs() * 100.0).round() as f32;
        let mut calls = 0;
        let (found, tried) = search_window(base, scale_window::<u32>, |w| {
            calls += 1;
            Ok::<f32, ()>(cost(w))
        })
        .unwrap();
        let context = format!(
            "round {round}, base {base}, valley {best}, seed {}, tried {tried:?}",
            rng.seed
        );
        assert_eq!(tried.len(), calls, "{context}");
        assert_eq!(tried[0].0, base, "{context}: the default first");
        // Never beyond its steps, never the same window twice.
        let lowest = (0..halvings).fold(base, |w, _| scale_window::<u32>(w, 0.5));
        let highest = (0..doublings).fold(base, |w, _| scale_window::<u32>(w, 2.0));
        assert!(
            tried.iter().all(|&(w, _)| (lowest..=highest).contains(&w)),
            "{context}"
        );
        let mut windows: Vec<u32> = tried.iter().map(|t| t.0).collect();
        windows.sort_unstable();
        windows.dedup();
        assert_eq!(windows.len(), tried.len(), "{context}");
        // It stops at the first step that is slower: the default, the steps
        // down to the valley and one past it (or the first halving, then the
        // steps up and one past).
        let most = if steps < 0 {
            1 + halvings.min(steps.unsigned_abs() + 1)
        } else {
            2 + doublings.min(steps as u32 + 1)
        };
        assert!(
            tried.len() <= most as usize,
            "{context}: at most {most} windows"
        );
        // The fastest tried, and the reachable window nearest the valley.
        let fastest = tried.iter().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        assert_eq!(cost(found), fastest.1, "{context}");
        let reachable = scale_window::<u32>(best, 1.0).clamp(lowest, highest);
        assert!(
            cost(found) <= cost(reachable) + 10.0,
            "{context}: found {found}, {reachable} reachable"
        );
    }
}

/// The edge-lanes search on made-up timings with a valley at each lane
/// count from 1 to 32: it starts at the default, keeps to 1..=32 lanes and
/// its steps, and returns the fastest it tried, the valley where reachable.
#[test]
fn edge_lanes_search_finds_the_valley_within_a_warp() {
    use sssp::partition::search::{DEFAULT_EDGE_LANES, EDGE_LANES_SEARCH_STEPS, search_edge_lanes};
    let (halvings, doublings) = EDGE_LANES_SEARCH_STEPS;
    let lowest = (DEFAULT_EDGE_LANES >> halvings).max(1);
    let highest = (DEFAULT_EDGE_LANES << doublings).min(32);
    for best in 1..=32u32 {
        let cost = |l: u32| (f64::from(l) / f64::from(best)).log2().abs() as f32;
        let (found, tried) =
            search_edge_lanes(DEFAULT_EDGE_LANES, |l| Ok::<f32, ()>(cost(l))).unwrap();
        let context = format!("valley at {best} lanes, tried {tried:?}");
        assert_eq!(
            tried[0].0, DEFAULT_EDGE_LANES,
            "{context}: the default first"
        );
        assert!(
            tried.iter().all(|&(l, _)| (lowest..=highest).contains(&l)),
            "{context}"
        );
        let fastest = tried.iter().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        assert_eq!(cost(found), fastest.1, "{context}");
        // Powers of two from the default: the valley's nearest one in reach.
        let reachable = best.next_power_of_two().clamp(lowest, highest);
        assert!(cost(found) <= cost(reachable), "{context}: found {found}");
    }
}

/// The chain-hops search on made-up timings with a valley at each count
/// from 0 to 8: it starts at the default, tries one hop fewer and, where
/// that is slower, one more, and returns the fastest it tried.
#[test]
fn chain_hops_search_tries_one_fewer_then_one_more() {
    use gpu_kernels::partition::DEFAULT_CHAIN_HOPS;
    use sssp::partition::search::search_chain_hops;
    for best in 0..=8u32 {
        let cost = |h: u32| h.abs_diff(best) as f32;
        let (found, tried) =
            search_chain_hops(DEFAULT_CHAIN_HOPS, |h| Ok::<f32, ()>(cost(h))).unwrap();
        let context = format!("valley at {best} hops, tried {tried:?}");
        let hops: Vec<u32> = tried.iter().map(|t| t.0).collect();
        let expected = if best < DEFAULT_CHAIN_HOPS {
            vec![DEFAULT_CHAIN_HOPS, DEFAULT_CHAIN_HOPS - 1]
        } else {
            vec![
                DEFAULT_CHAIN_HOPS,
                DEFAULT_CHAIN_HOPS - 1,
                DEFAULT_CHAIN_HOPS + 1,
            ]
        };
        assert_eq!(hops, expected, "{context}");
        let fastest = tried.iter().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        assert_eq!(found, fastest.0, "{context}");
        assert!(
            found.abs_diff(best) <= best.abs_diff(DEFAULT_CHAIN_HOPS),
            "{context}"
        );
    }
}

/// The entries-first trial times the default, then the other setting, and
/// keeps the faster.
#[test]
fn entries_first_search_tries_both_and_keeps_the_faster() {
    use sssp::partition::search::search_entries_first;
    for base in [false, true] {
        for faster in [0u32, 1] {
            let (found, tried) = search_entries_first(base, |on| {
                Ok::<f32, ()>(if on == faster { 1.0 } else { 2.0 })
            })
            .unwrap();
            let context = format!("default {base}, faster {faster}, tried {tried:?}");
            let settings: Vec<u32> = tried.iter().map(|t| t.0).collect();
            assert_eq!(settings, [u32::from(base), u32::from(!base)], "{context}");
            assert_eq!(found, faster, "{context}");
        }
    }
}

/// The fragments of each piece: how many of its vertices lie outside its
/// largest part connected inside the piece (edges of either direction).
fn fragment_vertices(parts: &Partitioning) -> Vec<usize> {
    let graph = &parts.graph;
    let n = graph.num_vertices();
    let mut neighbours = vec![Vec::new(); n];
    for (u, v, _) in edge_list(graph) {
        neighbours[u as usize].push(v as usize);
        neighbours[v as usize].push(u as usize);
    }
    let mut seen = vec![false; n];
    (0..parts.pieces())
        .map(|p| {
            let range = parts.starts[p] as usize..parts.starts[p + 1] as usize;
            let mut largest = 0;
            for v in range.clone() {
                if seen[v] {
                    continue;
                }
                seen[v] = true;
                let (mut stack, mut size) = (vec![v], 0);
                while let Some(x) = stack.pop() {
                    size += 1;
                    for &u in &neighbours[x] {
                        if range.contains(&u) && !seen[u] {
                            seen[u] = true;
                            stack.push(u);
                        }
                    }
                }
                largest = largest.max(size);
            }
            range.len() - largest
        })
        .collect()
}

/// `partition_joined`: the same promises as `partition` but pieces of up to
/// a quarter over the capacity, grown breadth-first or compactly; grown
/// breadth-first, no more fragment vertices than `partition` leaves (fewer
/// somewhere among the graphs). Compact pieces as cut (`partition_grown`)
/// keep `partition`'s promises.
#[test]
fn joined_pieces_keep_the_promises_with_fewer_fragments() {
    let mut rng = TestRng::new("joined_pieces_keep_the_promises_with_fewer_fragments");
    let grid = grid_graph(&GridSpec::new(57, 31, rng.bits())).unwrap();
    let mut graphs: Vec<(String, Graph)> = (0..300)
        .map(|case| (format!("case {case}"), random_small_graph(&mut rng, 80)))
        .collect();
    graphs.push(("grid 57×31".into(), grid));
    let mut joined_some = false;
    for (name, graph) in &graphs {
        let n = graph.num_vertices();
        for capacity in [rng.range(1, n as u64 + 2) as usize, 64, 100] {
            let context = format!("{name}, capacity {capacity}, seed {}", rng.seed);
            let plain = partition(graph, capacity).unwrap_or_else(|e| panic!("{context}: {e}"));
            let cut = |growth| {
                partition_joined(graph, capacity, growth)
                    .unwrap_or_else(|e| panic!("{context}, {growth:?}: {e}"))
            };
            let (joined, compact) = (cut(Growth::Breadth), cut(Growth::Compact));
            let compact_cut = partition_grown(graph, capacity, Growth::Compact)
                .unwrap_or_else(|e| panic!("{context}, compact as cut: {e}"));
            check_partitioning(
                graph,
                &compact_cut,
                capacity,
                false,
                &format!("{context}, compact as cut"),
            );
            check_partitioning(graph, &joined, capacity, true, &context);
            check_partitioning(
                graph,
                &compact,
                capacity,
                true,
                &format!("{context}, compact"),
            );
            let (before, after) = (fragment_vertices(&plain), fragment_vertices(&joined));
            let (before, after): (usize, usize) = (before.iter().sum(), after.iter().sum());
            assert!(
                after <= before,
                "{context}: {after} fragment vertices, {before} as cut"
            );
            joined_some |= after < before;
        }
    }
    assert!(
        joined_some,
        "seed {}: no fragment was ever joined",
        rng.seed
    );
}
