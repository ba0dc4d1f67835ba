//! Helpers shared by the test files: fresh seeds that are printed (and can be
//! replayed), and random graphs with the awkward cases the solvers must handle.

pub mod gpu;
pub mod index_cases;
pub mod models;
pub mod queries;
pub mod reductions;
pub mod teams;
pub mod trend;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use sssp::Graph;

/// A seeded random generator for one test. The seed is fresh each run unless
/// `SSSP_TEST_SEED` is set; it is printed, and cargo shows it when the test fails.
pub struct TestRng {
    /// The seed this generator started from.
    pub seed: u64,
    rng: Xoshiro256PlusPlus,
}

impl TestRng {
    /// A fresh generator for the test `name`; prints the seed and how to replay it.
    pub fn new(name: &str) -> Self {
        let seed = match std::env::var("SSSP_TEST_SEED") {
            Ok(s) => s.parse().expect("SSSP_TEST_SEED must be a u64"),
            Err(_) => {
                let nanos = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos() as u64)
                    .unwrap_or(0);
                // Mix in the test name so parallel tests started together differ.
                name.bytes()
                    .fold(nanos, |h, b| h.rotate_left(5) ^ b as u64)
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            }
        };
        println!("{name}: seed {seed} (replay with SSSP_TEST_SEED={seed})");
        TestRng {
            seed,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }

    /// A uniform value in `0..bound` (`bound > 0`).
    pub fn below(&mut self, bound: u64) -> u64 {
        ((self.rng.next_u64() as u128 * bound as u128) >> 64) as u64
    }

    /// A uniform value in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    /// Raw 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.rng.next_u64()
    }
}

/// A random directed graph of `n` vertices and `m` uniformly drawn edges
/// (self-loops and parallel edges included) with weights in `0..=max_weight`.
/// Sparse draws leave vertices unreachable; small `max_weight` gives many ties
/// and zero-weight edges.
pub fn random_graph(rng: &mut TestRng, n: usize, m: usize, max_weight: u32) -> Graph<'static> {
    random_graph_weighted(rng, n, m, 0..=max_weight)
}

/// A random directed graph of `n` vertices and `m` uniformly drawn edges
/// (self-loops and parallel edges included) with weights uniform in `weights`
/// (e.g. `1..=max` for positive weights). Each edge draws its tail, head and
/// weight in that order.
pub fn random_graph_weighted(
    rng: &mut TestRng,
    n: usize,
    m: usize,
    weights: std::ops::RangeInclusive<u32>,
) -> Graph<'static> {
    let (lo, hi) = (*weights.start() as u64, *weights.end() as u64);
    assert!(lo <= hi, "empty weight range {weights:?}");
    let edges: Vec<(u32, u32, u32)> = (0..m)
        .map(|_| {
            let u = rng.below(n as u64) as u32;
            let v = rng.below(n as u64) as u32;
            let w = rng.range(lo, hi) as u32;
            (u, v, w)
        })
        .collect();
    Graph::from_edges(n, &edges).expect("random edges form a valid graph")
}

/// A random directed graph of `n` vertices: `m` uniformly drawn edges, then
/// `hubs` vertices (drawn, possibly repeated) with `hub_degree` more
/// out-edges each, to uniformly drawn heads; weights in `0..=max_weight`. The
/// scale-free shape in small: a few vertices hold a large share of the edges.
pub fn hub_graph(
    rng: &mut TestRng,
    (n, m): (usize, usize),
    (hubs, hub_degree): (usize, std::ops::RangeInclusive<usize>),
    max_weight: u32,
) -> Graph<'static> {
    let edge = |rng: &mut TestRng, u: u32| {
        let v = rng.below(n as u64) as u32;
        (u, v, rng.range(0, max_weight as u64) as u32)
    };
    let mut edges: Vec<(u32, u32, u32)> = Vec::new();
    for _ in 0..m {
        let u = rng.below(n as u64) as u32;
        edges.push(edge(rng, u));
    }
    for _ in 0..hubs {
        let u = rng.below(n as u64) as u32;
        let degree = rng.range(*hub_degree.start() as u64, *hub_degree.end() as u64);
        for _ in 0..degree {
            edges.push(edge(rng, u));
        }
    }
    Graph::from_edges(n, &edges).expect("random edges form a valid graph")
}

/// A random small graph of a random shape: 1..=`max_n` vertices, density from
/// empty to dense, weights from all-zero to large.
pub fn random_small_graph(rng: &mut TestRng, max_n: usize) -> Graph<'static> {
    let n = rng.range(1, max_n as u64) as usize;
    let m = rng.below((n * n) as u64 + 1) as usize;
    let max_weight = [0u32, 1, 3, 10, 1000, u32::MAX / 4][rng.below(6) as usize];
    random_graph(rng, n, m, max_weight)
}

/// The algorithms of the catalogue on `device` that must always be right
/// (all but F^GPU_no_Atomic); the matrix forms, which hold n² entries, only
/// for graphs of up to `matrix_limit` vertices.
pub fn exact_algorithms(
    device: sssp::algorithms::Processor,
    n: usize,
    matrix_limit: usize,
) -> Vec<sssp::algorithms::Algorithm> {
    sssp::algorithms::Algorithm::ALL
        .iter()
        .copied()
        .filter(|a| a.spec().device == device && a.spec().exact)
        .filter(|a| a.spec().solves_graphs())
        .filter(|a| a.spec().layout == sssp::algorithms::Layout::List || n <= matrix_limit)
        .collect()
}

/// How [`random_f32_graph`] draws its weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum F32Weights {
    /// Fractional values in `0..10`, zeros included.
    Fractional,
    /// Magnitudes from `1e-3` to `1e6` mixed, so that a small weight after a
    /// large distance is absorbed (`d + w == d`).
    Mixed,
    /// Subnormals, zeros and a few normal values.
    Tiny,
    /// Values near `f32::MAX / 8`: sums of a few overflow.
    Huge,
    /// Multiples of `0.25` in `0.25..=10`: few distinct distances, so DA2CF
    /// needs few iterations on large graphs too.
    Quarters,
}

impl F32Weights {
    /// Every style whose sums along paths stay finite (all but `Huge`).
    pub const FINITE_SUMS: [F32Weights; 4] = [
        F32Weights::Fractional,
        F32Weights::Mixed,
        F32Weights::Tiny,
        F32Weights::Quarters,
    ];

    /// Every style.
    pub const ALL: [F32Weights; 5] = [
        F32Weights::Fractional,
        F32Weights::Mixed,
        F32Weights::Tiny,
        F32Weights::Huge,
        F32Weights::Quarters,
    ];

    /// One weight of this style.
    pub fn draw(self, rng: &mut TestRng) -> f32 {
        let unit = (rng.bits() >> 40) as f32 / (1u64 << 24) as f32; // 0..1
        match self {
            F32Weights::Fractional if rng.chance(0.05) => 0.0,
            F32Weights::Fractional => 10.0 * unit,
            F32Weights::Mixed => 10f32.powi(rng.range(0, 9) as i32 - 3) * (1.0 + unit),
            F32Weights::Tiny if rng.chance(0.2) => 1.0 + unit,
            F32Weights::Tiny => f32::from_bits(rng.range(0, 0x007f_ffff) as u32),
            F32Weights::Huge => f32::MAX / 8.0 * (0.5 + unit),
            F32Weights::Quarters => rng.range(1, 40) as f32 / 4.0,
        }
    }
}

/// A random directed graph of `n` vertices and `m` uniformly drawn edges
/// (self-loops and parallel edges included) with `f32` weights of `style`.
pub fn random_f32_graph(
    rng: &mut TestRng,
    n: usize,
    m: usize,
    style: F32Weights,
) -> Graph<'static> {
    let edges: Vec<(u32, u32, u32)> = (0..m)
        .map(|_| {
            let u = rng.below(n as u64) as u32;
            let v = rng.below(n as u64) as u32;
            (u, v, style.draw(rng).to_bits())
        })
        .collect();
    Graph::from_edges(n, &edges)
        .and_then(|g| g.with_weight_kind(sssp::graph::WeightKind::F32))
        .expect("random f32 edges form a valid graph")
}

/// A random small `f32` graph of a random shape and weight style.
pub fn random_small_f32_graph(rng: &mut TestRng, max_n: usize) -> Graph<'static> {
    let n = rng.range(1, max_n as u64) as usize;
    let m = rng.below((n * n) as u64 + 1) as usize;
    let style = F32Weights::ALL[rng.below(F32Weights::ALL.len() as u64) as usize];
    random_f32_graph(rng, n, m, style)
}

/// The counterexample of Martín et al., Fig. 5, against Harish & Narayanan: from
/// vertex 0 an edge of weight 1 to each of `1..=n-2`, and from each of those an
/// edge to `n - 1`, all of different weights (`w(i, n-1) = n - 1 - i`), so that in
/// the second iteration `n - 2` frontier vertices race to lower `dist[n - 1]`,
/// whose right answer is 2 (through vertex `n - 2`).
pub fn fig5_graph(n: usize) -> Graph<'static> {
    assert!(n >= 3);
    let last = (n - 1) as u32;
    let mut edges: Vec<(u32, u32, u32)> = (1..last).map(|i| (0, i, 1)).collect();
    edges.extend((1..last).map(|i| (i, last, last - i)));
    Graph::from_edges(n, &edges).expect("Fig. 5 graph is valid")
}

/// Checks a solver's result against the oracle's (`sssp::oracle::dijkstra` on
/// the same graph and source, computed once by the caller): the same distance at
/// every vertex, or the same overflow (first vertex and count). Returns the
/// solver's other output (iterations, rounds) when there were distances, `None`
/// for a matched overflow; panics with `context` otherwise.
pub fn check_against_oracle<T>(
    expected: &sssp::Result<Vec<u32>>,
    result: sssp::Result<(Vec<u32>, T)>,
    context: &str,
) -> Option<T> {
    use sssp::Error::DistanceOverflow;
    match expected {
        Ok(expected) => {
            let (found, other) = result.unwrap_or_else(|e| panic!("{context}: {e}"));
            assert_eq!(
                found.len(),
                expected.len(),
                "{context}: number of distances"
            );
            let differing: Vec<usize> = (0..expected.len())
                .filter(|&v| expected[v] != found[v])
                .collect();
            if let Some(&v) = differing.first() {
                panic!(
                    "{context}: {} of {} distances differ; first at vertex {v}: expected {}, got {}",
                    differing.len(),
                    expected.len(),
                    expected[v],
                    found[v]
                );
            }
            Some(other)
        }
        // Large weights on long paths: both must report the same overflow.
        Err(DistanceOverflow { vertex, count, .. }) => match result {
            Err(DistanceOverflow {
                vertex: v,
                count: c,
                ..
            }) if (v, c) == (*vertex, *count) => None,
            Err(e) => panic!(
                "{context}: the oracle overflows at vertex {vertex} ({count} vertices), the solver: {e}"
            ),
            Ok(_) => panic!(
                "{context}: the oracle overflows at vertex {vertex} ({count} vertices), the solver did not"
            ),
        },
        Err(e) => panic!("{context}: the oracle failed: {e}"),
    }
}

/// Checks a shortest-path tree from `source` against the oracle's distances
/// `expected` with `sssp::parents::check` (every parent the expected one), then
/// walks the tree's paths to up to 64 targets spread over the vertices: each
/// runs from the source along edges of the graph and is as long as the
/// target's distance; unreached targets have none. Panics with `context`.
pub fn check_tree(graph: &Graph, source: usize, expected: &[u32], tree: &[u32], context: &str) {
    use gpu_kernels::distance::{MAX_DISTANCE, Weight};
    if let Err(e) = sssp::parents::check(graph, source, expected, tree) {
        panic!("{context}: {e}");
    }
    let n = graph.num_vertices();
    for target in (0..n).step_by((n / 64).max(1)) {
        let path = sssp::parents::path(tree, source, target)
            .unwrap_or_else(|e| panic!("{context}: the path to {target}: {e}"));
        let Some(path) = path else {
            assert!(
                expected[target] > MAX_DISTANCE,
                "{context}: vertex {target} is reached but the tree has no path to it"
            );
            continue;
        };
        assert_eq!(
            (path[0], path[path.len() - 1]),
            (source, target),
            "{context}: the path to {target} has the wrong ends: {path:?}"
        );
        // The path's length in the weights' own arithmetic, edge after edge.
        let extend = match graph.weight_kind() {
            sssp::graph::WeightKind::U32 => <u32 as Weight>::extend,
            sssp::graph::WeightKind::F32 => <f32 as Weight>::extend,
        };
        let length = path.windows(2).fold(0u32, |length, edge| {
            let weight = graph.csr().edges(edge[0]).filter(|&(v, _)| v == edge[1]);
            let w = weight.map(|(_, w)| w).min().unwrap_or_else(|| {
                panic!(
                    "{context}: the path to {target} takes {} -> {}, which is no edge",
                    edge[0], edge[1]
                )
            });
            extend(length, w)
        });
        assert_eq!(
            length, expected[target],
            "{context}: the path to {target} ({path:?}) is not a shortest path"
        );
    }
}

/// `graphs/NAME` (e.g. `rome99.gr`): from `$SSSP_GRAPHS_DIR` (set by
/// `dist/run-tests.sh` to the graphs copied beside the test binaries), the
/// source tree, or the working directory or its parent. A graph found in none
/// of them fails the test, naming every path tried: a test that cannot read
/// its graph must not pass.
pub fn find_graph(name: &str) -> std::path::PathBuf {
    let mut dirs: Vec<std::path::PathBuf> = std::env::var_os("SSSP_GRAPHS_DIR")
        .map(std::path::PathBuf::from)
        .into_iter()
        .collect();
    dirs.extend([
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../graphs"),
        std::path::PathBuf::from("graphs"),
        std::path::PathBuf::from("../graphs"),
    ]);
    let tried: Vec<std::path::PathBuf> = dirs.iter().map(|dir| dir.join(name)).collect();
    tried
        .iter()
        .find(|path| path.exists())
        .cloned()
        .unwrap_or_else(|| panic!("graphs/{name} not found; tried {tried:?} (set SSSP_GRAPHS_DIR)"))
}

/// Checks that a lying header allocates nothing big: an allocator that records
/// the largest allocation of the current thread.
pub mod allocation {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    /// A global allocator (forwarding to `System`) that records the largest
    /// allocation of each thread; register it with `#[global_allocator]` in a test
    /// binary to use [`largest_allocation`].
    pub struct LargestAllocation;

    thread_local! {
        static LARGEST: Cell<usize> = const { Cell::new(0) };
    }

    fn note(size: usize) {
        let _ = LARGEST.try_with(|l| l.set(l.get().max(size)));
    }

    // SAFETY: every method forwards to `System` with the caller's arguments
    // unchanged, so `System`'s guarantees carry over; `note` does not allocate.
    unsafe impl GlobalAlloc for LargestAllocation {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            note(layout.size());
            // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
            unsafe { System.alloc(layout) }
        }
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            note(layout.size());
            // SAFETY: the caller upholds `GlobalAlloc::alloc_zeroed`'s contract.
            unsafe { System.alloc_zeroed(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: `ptr` was allocated by `System` with `layout`.
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            note(new_size);
            // SAFETY: the caller upholds `GlobalAlloc::realloc`'s contract.
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    /// Runs `f` and returns its result and the largest allocation it made on this
    /// thread (0 unless [`LargestAllocation`] is the binary's global allocator).
    pub fn largest_allocation<T>(f: impl FnOnce() -> T) -> (T, usize) {
        // A probe, so that a binary without the allocator fails instead of
        // reporting 0 for everything.
        LARGEST.with(|l| l.set(0));
        drop(std::hint::black_box(Vec::<u8>::with_capacity(4096)));
        assert!(
            LARGEST.with(|l| l.get()) >= 4096,
            "register LargestAllocation as the #[global_allocator] of this test binary"
        );
        LARGEST.with(|l| l.set(0));
        let value = f();
        (value, LARGEST.with(|l| l.get()))
    }
}

/// A fresh directory under the system temp dir for one test, removed on drop.
pub struct TempDir(std::path::PathBuf);

impl TempDir {
    /// A new, empty directory whose name contains `test` and the process id.
    pub fn new(test: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!("sssp-{test}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    /// The path of `name` inside the directory.
    pub fn path(&self, name: &str) -> std::path::PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
