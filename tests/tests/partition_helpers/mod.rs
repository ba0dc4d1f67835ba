//! Helpers shared by the partition solver's CPU tests: the kernel's blocks emulated by OS threads, the oracle's check of their distances, and partitions checked for their promises.
// Each test file uses some of them.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU32};

use gpu_kernels::distance::{INFINITY, NO_TARGET, Weight};
use gpu_kernels::partition::{
    Global, Local, Pieces, Placement, RoundSettings, auto_delta, block_solve, initialize_piece,
    initialize_vertex, shared_words,
};
use gpu_kernels::team::BlockTeam;
use sssp::distances::check_overflow;
use sssp::graph::WeightKind;
use sssp::options::Stop;
use sssp::partition::growth::Growth;
use sssp::partition::pieces::{
    JOINED_SLACK, Partitioning, partition, partition_grown, partition_joined,
    partition_with_regions,
};
use sssp::partition::shortcuts::add_shortcuts;
use sssp::{Graph, oracle};
use sssp_tests::queries::bounded;
use sssp_tests::teams::{AbortOnPanic, Barrier};
use sssp_tests::{TestRng, check_against_oracle, random_small_f32_graph, random_small_graph};

/// One OS thread of an emulated block: the block's last thread is its
/// communication thread; the compute threads form warps of `warp_size`
/// (a divisor of their number), each with its own barrier.
pub struct Thread<'a> {
    pub thread: usize,
    pub threads: usize,
    pub warp_size: usize,
    pub barrier: &'a Barrier<'a>,
    pub compute_barrier: &'a Barrier<'a>,
    pub warp_barrier: Option<&'a Barrier<'a>>,
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

pub fn words(len: usize, value: u32) -> Vec<AtomicU32> {
    (0..len).map(|_| AtomicU32::new(value)).collect()
}

/// How the emulated blocks run.
#[derive(Clone, Copy, Debug)]
pub struct Blocks {
    /// Compute threads per block (each block has a communication thread more).
    pub threads: usize,
    /// Compute threads per warp (`BlockTeam::warp_size`).
    pub warp_size: usize,
    /// Whether the blocks keep their pieces' edges in shared memory.
    pub edges_in_shared: bool,
    /// Paged mode with this many blocks; `None`: one resident block per piece.
    pub paged: Option<usize>,
    /// Compute threads that share a frontier vertex's edges
    /// (`RoundSettings::edge_lanes`).
    pub edge_lanes: u32,
    /// Hops a warp chains in a round at most (`RoundSettings::chain_hops`).
    pub chain_hops: u32,
    /// Whether rounds take the entries first (`RoundSettings::entries_first`).
    pub entries_first: bool,
}

/// Solves from `source` (original id) on the pieces of `parts`, bounded as
/// `stop` says (its target an original id): the kernels' initialization,
/// then the emulated blocks. Returns the distances in original ids, bounded
/// (`Stop::apply`) and checked for overflow like the GPU solver's, and the
/// most rounds a block ran.
pub fn solve_on_threads<W: Weight>(
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
                    let placement =
                        paged.map_or(Placement::Resident, |blocks| Placement::Paged { blocks });
                    block_solve::<W>(
                        block, placement, source, settings, pieces, global, &local, &team,
                    );
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
pub fn check(
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
pub fn edge_list(graph: &Graph) -> Vec<(u32, u32, u32)> {
    let csr = graph.csr();
    let mut edges: Vec<(u32, u32, u32)> = (0..graph.num_vertices())
        .flat_map(|u| csr.edges(u).map(move |(v, w)| (u as u32, v as u32, w)))
        .collect();
    edges.sort_unstable();
    edges
}

/// `graph` cut into pieces of `capacity` by `partition`, or in `regions`
/// regions.
pub fn cut(graph: &Graph, capacity: usize, regions: Option<usize>, context: &str) -> Partitioning {
    match regions {
        None => partition(graph, capacity),
        Some(regions) => partition_with_regions(graph, capacity, regions),
    }
    .unwrap_or_else(|e| panic!("{context}: {e}"))
}

/// Everything a partitioning of `graph` into pieces of `capacity` promises
/// (see `sssp::partition`): as cut, pieces of `capacity` but the last;
/// `joined` (`partition_joined`), of up to a quarter more.
pub fn check_partitioning(
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

/// The disjoint union of `graphs` and `isolated` vertices without edges, in
/// that order of ids.
pub fn disjoint_union(graphs: &[&Graph], isolated: usize) -> Graph<'static> {
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

/// A small random graph (`f32` weights one time in five) and a source.
pub fn small_random_graph(rng: &mut TestRng) -> (Graph<'static>, usize) {
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
pub fn small_random_blocks(rng: &mut TestRng, graph: &Graph) -> (usize, (usize, usize), u32) {
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
