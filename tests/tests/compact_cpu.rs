//! The compacted, device-resident DA2CF (`gpu_kernels::compact`) without a GPU:
//! its whole loop run by one thread (`sssp::cpu::compact`), by several OS
//! threads with a barrier (what a block or the grid does), and handed from one
//! team to another when the sets leave a size range (what the host does between
//! the block and grid kernels). Distances against the oracle; iterations
//! against the paper variants with the same settling rule.

use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize};

use gpu_kernels::compact::{Exit, Sequential, Team, thread_loop};
use sssp::cpu::compact::{CompactRule, CompactState, compact_da2cf, delta_node};
use sssp::cpu::da2cf;
use sssp::generate::{RandomGraphSpec, random_graph};
use sssp::variants::{Frontier, Relax};
use sssp::{Graph, oracle};
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

/// A barrier for `n` OS threads that gives up, with a panic, once any thread
/// of the launch has panicked (`aborted`): a bug that panics one lane must
/// fail the test, not leave the others waiting forever.
struct Barrier<'a> {
    n: usize,
    arrived: AtomicUsize,
    generation: AtomicUsize,
    aborted: &'a AtomicBool,
}

impl<'a> Barrier<'a> {
    fn new(n: usize, aborted: &'a AtomicBool) -> Self {
        Barrier {
            n,
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
            aborted,
        }
    }

    fn wait(&self) {
        let generation = self.generation.load(Acquire);
        if self.arrived.fetch_add(1, AcqRel) + 1 == self.n {
            self.arrived.store(0, Relaxed);
            self.generation.fetch_add(1, Release);
            return;
        }
        while self.generation.load(Acquire) == generation {
            assert!(!self.aborted.load(Relaxed), "another thread panicked");
            std::thread::yield_now();
        }
    }
}

/// Sets the launch's `aborted` flag when its thread unwinds from a panic.
struct AbortOnPanic<'a>(&'a AtomicBool);

impl Drop for AbortOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Relaxed);
        }
    }
}

/// What the lanes of one emulated warp share: a barrier and one exchange slot
/// per lane.
struct WarpShared<'a> {
    barrier: Barrier<'a>,
    slots: Vec<AtomicU32>,
    base: AtomicU32,
}

impl<'a> WarpShared<'a> {
    fn new(lanes: usize, aborted: &'a AtomicBool) -> Self {
        WarpShared {
            barrier: Barrier::new(lanes, aborted),
            slots: (0..lanes).map(|_| AtomicU32::new(0)).collect(),
            base: AtomicU32::new(0),
        }
    }
}

/// A team of OS threads with a `std` barrier, in warps of `warp_size` lanes
/// whose warp-wide calls go through their [`WarpShared`] (every lane writes
/// its value, waits for the others, reads what it needs, waits again), so
/// the warp-uniform structure of the loop and the cross-lane arithmetic of
/// the relax phase run as on the GPU. `minimum_into` is a plain atomic
/// minimum per thread (the GPU reduces per block first; the result is the
/// same).
struct Threads<'a> {
    thread: usize,
    threads: usize,
    warp_size: usize,
    barrier: &'a Barrier<'a>,
    warp: &'a WarpShared<'a>,
}

impl Threads<'_> {
    fn lane(&self) -> usize {
        self.thread % self.warp_size
    }

    /// Every lane publishes `value`; returns all lanes' values.
    fn exchange(&self, value: u32) -> Vec<u32> {
        self.warp.slots[self.lane()].store(value, Relaxed);
        self.warp.barrier.wait();
        let values = self.warp.slots.iter().map(|s| s.load(Relaxed)).collect();
        self.warp.barrier.wait();
        values
    }
}

impl Team for Threads<'_> {
    fn thread(&self) -> usize {
        self.thread
    }
    fn threads(&self) -> usize {
        self.threads
    }
    fn warp_size(&self) -> usize {
        self.warp_size
    }
    fn barrier(&self) {
        self.barrier.wait();
    }
    fn reserve_where(&self, wants: bool, len: &AtomicU32) -> u32 {
        let wanting = self.exchange(wants as u32);
        let count: u32 = wanting.iter().sum();
        let below: u32 = wanting[..self.lane()].iter().sum();
        if wants && below == 0 {
            self.warp.base.store(len.fetch_add(count, Relaxed), Relaxed);
        }
        self.warp.barrier.wait();
        let base = self.warp.base.load(Relaxed);
        self.warp.barrier.wait();
        base + below
    }
    fn warp_inclusive_sum(&self, value: u32) -> u32 {
        self.exchange(value)[..=self.lane()].iter().sum()
    }
    fn warp_shuffle(&self, value: u32, src: usize) -> u32 {
        self.exchange(value)[src]
    }
    fn minimum_into(&self, value: u32, target: &AtomicU32) {
        target.fetch_min(value, Relaxed);
    }
}

/// One launch: `warps` warps of `warp_size` OS threads run the loop over
/// `state` until it converges or the work leaves `min_work..=max_work`; every
/// thread must return the same exit.
fn launch(
    graph: &Graph,
    delta_node: &[u32],
    state: &CompactState,
    (warps, warp_size): (usize, usize),
    (min_work, max_work): (u32, u32),
) -> Exit {
    let threads = warps * warp_size;
    let aborted = AtomicBool::new(false);
    let barrier = Barrier::new(threads, &aborted);
    let shared: Vec<WarpShared> = (0..warps)
        .map(|_| WarpShared::new(warp_size, &aborted))
        .collect();
    let arrays = state.arrays(graph, delta_node);
    let exits: Vec<Exit> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|thread| {
                let (barrier, warp, aborted) = (&barrier, &shared[thread / warp_size], &aborted);
                scope.spawn(move || {
                    let _guard = AbortOnPanic(aborted);
                    let team = Threads {
                        thread,
                        threads,
                        warp_size,
                        barrier,
                        warp,
                    };
                    thread_loop(arrays, min_work, max_work, &team)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a thread panicked"))
            .collect()
    });
    assert!(exits.iter().all(|&e| e == exits[0]), "threads disagree");
    exits[0]
}

/// Work of the state where the last launch stopped.
fn work(state: &CompactState) -> u32 {
    let s = &state.state;
    let p = (s.iteration.load(Relaxed) % 2) as usize;
    s.frontier_len[p].load(Relaxed) + s.kept_len[p].load(Relaxed)
}

/// The host's schedule on the CPU: a "block" of `small` warps while the work
/// is at most `block_max`, a "grid" of `large` warps while it is at least
/// `grid_min`, warps of `warp_size` lanes. Returns the distances, iterations
/// and launches.
fn switching(
    graph: &Graph,
    source: usize,
    rule: CompactRule,
    (small, large, warp_size): (usize, usize, usize),
    (block_max, grid_min): (u32, u32),
) -> (Vec<u32>, u32, u32) {
    let delta_node = delta_node(graph, rule);
    let state = CompactState::new(graph.num_vertices(), source);
    let mut launches = 0;
    loop {
        launches += 1;
        let exit = if work(&state) <= block_max {
            launch(
                graph,
                &delta_node,
                &state,
                (small, warp_size),
                (0, block_max),
            )
        } else {
            launch(
                graph,
                &delta_node,
                &state,
                (large, warp_size),
                (grid_min, u32::MAX),
            )
        };
        if exit == Exit::Converged {
            break;
        }
    }
    let iterations = state.state.iteration.load(Relaxed);
    let dist = state.dist.iter().map(|d| d.load(Relaxed)).collect();
    (dist, iterations, launches)
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
        let expected = oracle::dijkstra(&graph, source);
        for rule in RULES {
            let context = format!(
                "case {case}, n = {n}, m = {m}, max weight {max_weight}, {rule:?}, \
                 teams {teams:?}, limits ({block_max}, {grid_min}), seed {}",
                rng.seed
            );
            let (dist, iterations, launches) =
                switching(&graph, source, rule, teams, (block_max, grid_min));
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
    let exit = thread_loop(state.arrays(&graph, &delta_node), 2, u32::MAX, &Sequential);
    assert_eq!(exit, Exit::OutOfRange);
    assert_eq!(state.state.iteration.load(Relaxed), 0);
    assert_eq!(work(&state), 1);
    // Then a launch that accepts it runs to the end, as the oracle says.
    let exit = thread_loop(state.arrays(&graph, &delta_node), 0, u32::MAX, &Sequential);
    assert_eq!(exit, Exit::Converged);
    let dist: Vec<u32> = state.dist.iter().map(|d| d.load(Relaxed)).collect();
    assert_eq!(dist, oracle::dijkstra(&graph, 0).unwrap());
}
