//! Contraction hierarchies on the CPU: every tree, point-to-point distance and
//! path, and table entry from the index equals the Dijkstra oracle's, on
//! random graphs (zero weights, parallel arcs, self-loops, unreachable parts),
//! grids with one-way streets; with `f32` weights every one is within the
//! index's rounding bound of the `f64` oracle; the index file refuses
//! corrupt, truncated and mismatched files.

use sssp::ch::{self, BuildOptions, Hierarchy};
use sssp::distances::check_overflow;
use sssp::generate::{GridSpec, grid_graph};
use sssp::graph::WeightKind;
use sssp::{Error, Graph, oracle};
use sssp_tests::queries::check_path;
use sssp_tests::{F32Weights, TempDir, TestRng, random_f32_graph, random_graph};

/// Every check of one graph: the index is valid, and for `sources`, trees,
/// point-to-point queries (distance and path) and the table to `targets`
/// match the oracle.
fn check_hierarchy(graph: &Graph, h: &Hierarchy, sources: &[usize], context: &str) {
    h.validate()
        .unwrap_or_else(|e| panic!("{context}: invalid index: {e}"));
    let n = graph.num_vertices();
    let targets: Vec<usize> = (0..n).step_by((n / 7).max(1)).collect();
    let table = ch::query::table(h, sources, &targets);
    let trees = ch::phast::trees(h, sources);
    for (i, &s) in sources.iter().enumerate() {
        let expected = oracle::dijkstra(graph, s).expect("oracle");
        assert_eq!(trees[i], expected, "{context}: tree of source {s}");
        for (j, &t) in targets.iter().enumerate() {
            assert_eq!(
                table[i * targets.len() + j],
                expected[t],
                "{context}: table entry {s} → {t}"
            );
            assert_eq!(
                ch::query::distance(h, s, t),
                expected[t],
                "{context}: bidirectional distance {s} → {t}"
            );
            let query = ch::query::point_to_point(h, s, t).expect("query");
            match query {
                None => assert_eq!(expected[t], u32::MAX, "{context}: {s} → {t} unreached"),
                Some((d, path)) => {
                    assert_eq!(d, expected[t], "{context}: distance {s} → {t}");
                    check_path(graph, &path, (s, t), d, context);
                }
            }
        }
    }
}

#[test]
fn trees_queries_and_tables_match_the_oracle_on_random_graphs() {
    let mut rng = TestRng::new("ch_random_graphs");
    for case in 0..150 {
        let n = rng.range(1, 60) as usize;
        let m = rng.below((n * 4) as u64 + 1) as usize;
        let max_weight = [0u32, 1, 3, 10, 1000][rng.below(5) as usize];
        let mut graph = random_graph(&mut rng, n, m, max_weight);
        // Half the cases undirected: the build keeps them symmetric and the
        // file stores their arcs once.
        let undirected = rng.chance(0.5);
        if undirected {
            graph = graph.undirected().expect("undirected");
        }
        let h = ch::build(&graph, &BuildOptions::default()).expect("build");
        if undirected {
            assert!(
                h.is_symmetric(),
                "case {case}: an undirected graph's index is symmetric"
            );
        }
        let sources: Vec<usize> = (0..3).map(|_| rng.below(n as u64) as usize).collect();
        check_hierarchy(
            &graph,
            &h,
            &sources,
            &format!("case {case} (n {n}, m {m}, undirected {undirected})"),
        );
    }
}

#[test]
fn small_witness_limits_add_shortcuts_but_never_change_a_distance() {
    let mut rng = TestRng::new("ch_small_witness_limits");
    for case in 0..40 {
        let n = rng.range(2, 200) as usize;
        let graph = random_graph(&mut rng, n, n * 3, 100);
        let options = BuildOptions {
            witness_scanned: rng.range(1, 8) as usize,
            priority_scanned: rng.range(1, 8) as usize,
            max_core_ratio: usize::MAX,
        };
        let h = ch::build(&graph, &options).expect("build");
        let sources: Vec<usize> = (0..2).map(|_| rng.below(n as u64) as usize).collect();
        check_hierarchy(&graph, &h, &sources, &format!("case {case} ({options:?})"));
    }
}

/// A grid whose arcs are removed at random, often in one direction only (one-way
/// streets), so parts become unreachable.
fn one_way_grid(rng: &mut TestRng, width: usize, height: usize) -> Graph<'static> {
    let grid = grid_graph(&GridSpec::new(width, height, rng.bits())).expect("grid");
    let csr = grid.csr();
    let edges: Vec<(u32, u32, u32)> = (0..grid.num_vertices())
        .flat_map(|u| csr.edges(u).map(move |(v, w)| (u as u32, v as u32, w)))
        .filter(|_| !rng.chance(0.15))
        .collect();
    Graph::from_edges(grid.num_vertices(), &edges).expect("grid edges")
}

#[test]
fn trees_match_the_oracle_on_grids_with_one_way_streets() {
    let mut rng = TestRng::new("ch_one_way_grids");
    for case in 0..4 {
        let (w, hgt) = (rng.range(5, 60) as usize, rng.range(5, 60) as usize);
        let graph = one_way_grid(&mut rng, w, hgt);
        let h = ch::build(&graph, &BuildOptions::default()).expect("build");
        let n = graph.num_vertices();
        let sources: Vec<usize> = (0..3).map(|_| rng.below(n as u64) as usize).collect();
        check_hierarchy(
            &graph,
            &h,
            &sources,
            &format!("grid case {case} ({w}×{hgt})"),
        );
        assert!(
            h.num_levels() < n,
            "levels contract more than one vertex each"
        );
    }
}

/// Every check of one `f32` graph's index: trees, tables and bidirectional
/// distances from `sources` are within the index's rounding bound of the
/// `f64` oracle ([`oracle::check_f32_index`]), and so is every point-to-point
/// path ([`oracle::check_f32_index_path`]).
fn check_f32_hierarchy(graph: &Graph, h: &Hierarchy, sources: &[usize], context: &str) {
    h.validate()
        .unwrap_or_else(|e| panic!("{context}: invalid index: {e}"));
    let n = graph.num_vertices();
    let levels = h.num_levels();
    let targets: Vec<usize> = (0..n).step_by((n / 7).max(1)).collect();
    let table = ch::query::table(h, sources, &targets);
    let trees = ch::phast::trees(h, sources);
    let within = |s: usize, vertices: Option<&[usize]>, dist: &[u32], what: &str| {
        oracle::check_f32_index(graph, s, vertices, dist, levels)
            .unwrap_or_else(|e| panic!("{context}: {what} of source {s}: {e}"));
    };
    for (i, &s) in sources.iter().enumerate() {
        within(s, None, &trees[i], "tree");
        let row = &table[i * targets.len()..(i + 1) * targets.len()];
        within(s, Some(&targets), row, "table row");
        let bidirectional: Vec<u32> = targets
            .iter()
            .map(|&t| ch::query::distance(h, s, t))
            .collect();
        within(s, Some(&targets), &bidirectional, "bidirectional distances");
        for &t in &targets {
            let Some((d, path)) = ch::query::point_to_point(h, s, t).expect("query") else {
                assert_eq!(trees[i][t], u32::MAX, "{context}: {s} → {t} unreached");
                continue;
            };
            oracle::check_f32_index_path(graph, (s, t), &path, d, levels)
                .unwrap_or_else(|e| panic!("{context}: path {s} → {t}: {e}"));
        }
    }
}

#[test]
fn f32_trees_queries_and_tables_are_within_the_index_bound() {
    let mut rng = TestRng::new("ch_f32");
    let styles = F32Weights::FINITE_SUMS;
    for case in 0..150 {
        let n = rng.range(1, 60) as usize;
        let m = rng.below((n * 4) as u64 + 1) as usize;
        let style = styles[rng.below(styles.len() as u64) as usize];
        let mut graph = random_f32_graph(&mut rng, n, m, style);
        let undirected = rng.chance(0.5);
        if undirected {
            graph = graph.undirected().expect("undirected");
        }
        let h = ch::build(&graph, &BuildOptions::default()).expect("build");
        assert_eq!(h.weight_kind, WeightKind::F32);
        let sources: Vec<usize> = (0..3).map(|_| rng.below(n as u64) as usize).collect();
        let context = format!("case {case} (n {n}, m {m}, {style:?}, undirected {undirected})");
        check_f32_hierarchy(&graph, &h, &sources, &context);
    }
}

#[test]
fn f32_indexes_of_grids_round_trip_and_stay_within_the_bound() {
    let mut rng = TestRng::new("ch_f32_grids");
    for case in 0..3 {
        let (w, hgt) = (rng.range(10, 50) as usize, rng.range(10, 50) as usize);
        let grid = one_way_grid(&mut rng, w, hgt);
        // Integer grid weights scaled to reals that no f32 sum keeps exact.
        let csr = grid.csr();
        let edges: Vec<(u32, u32, u32)> = (0..grid.num_vertices())
            .flat_map(|u| {
                csr.edges(u)
                    .map(move |(v, w)| (u as u32, v as u32, (w as f32 * 0.1).to_bits()))
            })
            .collect();
        let graph = Graph::from_edges(grid.num_vertices(), &edges)
            .and_then(|g| g.with_weight_kind(WeightKind::F32))
            .expect("f32 grid");
        let h = ch::build(&graph, &BuildOptions::default()).expect("build");
        let dir = TempDir::new("ch_f32_grids");
        let path = dir.path("g.ch");
        h.save(&path).expect("save");
        let loaded = Hierarchy::load(&path).expect("load");
        assert_eq!(loaded, h);
        loaded.check_graph(&graph, &path).expect("same graph");
        let n = graph.num_vertices();
        let sources: Vec<usize> = (0..3).map(|_| rng.below(n as u64) as usize).collect();
        check_f32_hierarchy(&graph, &loaded, &sources, &format!("f32 grid case {case}"));
    }
}

#[test]
fn the_f32_index_check_fails_on_a_wrong_distance() {
    let mut rng = TestRng::new("ch_f32_check");
    let graph = random_f32_graph(&mut rng, 40, 160, F32Weights::Fractional)
        .undirected()
        .expect("undirected");
    let h = ch::build(&graph, &BuildOptions::default()).expect("build");
    let tree = ch::phast::tree(&h, 0);
    let levels = h.num_levels();
    oracle::check_f32_index(&graph, 0, None, &tree, levels).expect("the index's own tree");
    let far = (0..tree.len())
        .filter(|&v| tree[v] != u32::MAX)
        .max_by_key(|&v| tree[v])
        .expect("a reached vertex");
    assert!(
        f32::from_bits(tree[far]) > 0.0,
        "the farthest vertex is away"
    );
    // One part in 10^4 more: far beyond the bound of a few dozen roundings.
    let mut longer = tree.clone();
    longer[far] = (f32::from_bits(tree[far]) * 1.0001).to_bits();
    let mut lost = tree.clone();
    lost[far] = u32::MAX;
    for (wrong, what) in [(longer, "a longer distance"), (lost, "an unreached vertex")] {
        match oracle::check_f32_index(&graph, 0, None, &wrong, levels) {
            Err(Error::Mismatch { vertex, .. }) => assert_eq!(vertex, far, "{what}"),
            other => panic!("{what} passed the check: {other:?}"),
        }
    }
}

/// Builds the index of `graph`, whose path 0 → 1 → 2 overflows a distance
/// of `kind`: the build refuses the shortcut, or the tree reports vertex 2's
/// overflow.
fn check_overflow_is_an_error(graph: &Graph, kind: WeightKind) {
    match ch::build(graph, &BuildOptions::default()) {
        Err(Error::DistanceOverflow { .. }) => {}
        Ok(h) => {
            let dist = ch::phast::tree(&h, 0);
            assert!(
                matches!(
                    check_overflow(kind, &dist),
                    Err(Error::DistanceOverflow { vertex: 2, .. })
                ),
                "{kind:?}: distance of vertex 2 overflows: {dist:?}"
            );
        }
        Err(e) => panic!("{kind:?}: unexpected error {e}"),
    }
}

#[test]
fn an_overflowing_shortcut_or_tree_is_an_overflow_error() {
    let big = u32::MAX / 2;
    let graph = Graph::from_edges(3, &[(0, 1, big), (1, 2, big), (2, 1, 1)]).unwrap();
    check_overflow_is_an_error(&graph, WeightKind::U32);
    let big = (f32::MAX * 0.75).to_bits();
    let graph = Graph::from_edges(3, &[(0, 1, big), (1, 2, big), (2, 1, 0)])
        .and_then(|g| g.with_weight_kind(WeightKind::F32))
        .unwrap();
    check_overflow_is_an_error(&graph, WeightKind::F32);
}

#[test]
fn index_files_round_trip_and_bad_files_are_refused() {
    let mut rng = TestRng::new("ch_index_files");
    let graph = one_way_grid(&mut rng, 20, 20);
    let h = ch::build(&graph, &BuildOptions::default()).expect("build");
    let dir = TempDir::new("ch_index_files");
    let path = dir.path("g.ch");
    h.save(&path).expect("save");
    let loaded = Hierarchy::load(&path).expect("load");
    assert_eq!(loaded, h);
    // A symmetric index (an undirected grid) round-trips with its arcs stored once.
    let grid = grid_graph(&GridSpec::new(15, 12, rng.bits())).expect("grid");
    let symmetric = ch::build(
        &grid.undirected().expect("undirected"),
        &BuildOptions::default(),
    )
    .expect("build");
    assert!(symmetric.is_symmetric());
    let both = dir.path("sym.ch");
    symmetric.save(&both).expect("save");
    assert_eq!(Hierarchy::load(&both).expect("load"), symmetric);
    assert!(symmetric.size_bytes() < 4 * (6 * symmetric.up.len()));
    loaded.check_graph(&graph, &path).expect("same graph");
    assert_eq!(
        std::fs::metadata(&path).unwrap().len() as usize,
        h.size_bytes()
    );

    let bytes = std::fs::read(&path).unwrap();
    let refused = |bytes: &[u8], what: &str| {
        std::fs::write(&path, bytes).unwrap();
        match Hierarchy::load(&path) {
            Err(e @ Error::Index { .. }) => println!("{what}: {e}"),
            other => panic!("{what}: expected an index error, got {other:?}"),
        }
    };
    refused(&bytes[..bytes.len() - 3], "truncated");
    refused(&bytes[..10], "truncated header");
    let mut flipped = bytes.clone();
    let at = rng.range(40, bytes.len() as u64 - 9) as usize;
    flipped[at] ^= 1 << rng.below(8);
    refused(&flipped, "one bit flipped");
    let mut magic = bytes.clone();
    magic[0] = b'X';
    refused(&magic, "bad magic");

    let other = one_way_grid(&mut rng, 20, 20);
    match loaded.check_graph(&other, &path) {
        Err(Error::Index { reason, .. }) => assert!(reason.contains("another graph"), "{reason}"),
        other => panic!("another graph accepted: {other:?}"),
    }
    let smaller = one_way_grid(&mut rng, 20, 19);
    assert!(matches!(
        loaded.check_graph(&smaller, &path),
        Err(Error::Index { .. })
    ));
}

#[test]
fn a_dense_random_graph_has_no_hierarchy() {
    let mut rng = TestRng::new("ch_no_hierarchy");
    let graph = random_graph(&mut rng, 1000, 20_000, 1000);
    match ch::build(&graph, &BuildOptions::default()) {
        Err(Error::NoHierarchy(reason)) => println!("{reason}"),
        other => panic!(
            "expected NoHierarchy, got {:?}",
            other.map(|h| h.num_shortcuts())
        ),
    }
}

#[test]
fn rome99_index_matches_the_oracle() {
    let path = sssp_tests::find_graph("rome99.gr");
    let graph = sssp::formats::load(&path, None)
        .and_then(|loaded| loaded.into_graph())
        .expect("rome99");
    let h = ch::build(&graph, &BuildOptions::default()).expect("build");
    println!(
        "rome99: {} levels, {} shortcuts, index {} bytes",
        h.num_levels(),
        h.num_shortcuts(),
        h.size_bytes()
    );
    check_hierarchy(&graph, &h, &[0, 1000, 3352], "rome99");
}

/// The GPU sweep's per-thread logic (`gpu_kernels::phast`), run on the CPU in
/// the kernels' order: clear, scatter the upward searches, each level's items
/// (on several threads, levels separated as by the barriers), then the rows
/// in graph order; every tree equals the oracle's.
#[test]
fn the_kernels_sweep_logic_matches_the_oracle() {
    use gpu_kernels::phast::{
        CLEARED_PER_ITEM, DownArcs, LANES_PER_ITEM, block_levels, clear_item, column_item,
        scatter_item, sweep_item,
    };
    use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
    let mut rng = TestRng::new("ch_kernel_logic");
    for case in 0..30 {
        let n = rng.range(1, 300) as usize;
        let max_weight = [0, 5, 1000][rng.below(3) as usize];
        let graph = random_graph(&mut rng, n, 3 * n, max_weight);
        let options = BuildOptions {
            max_core_ratio: usize::MAX,
            ..BuildOptions::default()
        };
        let h = ch::build(&graph, &options).expect("build");
        let lanes = LANES_PER_ITEM * rng.range(1, 10) as usize;
        let sources: Vec<usize> = (0..rng.range(1, lanes as u64))
            .map(|_| rng.below(n as u64) as usize)
            .collect();
        let dist: Vec<AtomicU32> = (0..n * lanes).map(|_| AtomicU32::new(7)).collect();
        (0..dist.len().div_ceil(CLEARED_PER_ITEM)).for_each(|i| clear_item(&dist, i));
        let mut entries = Vec::new();
        for (lane, &s) in sources.iter().enumerate() {
            let space = ch::query::upward_search(&h, &h.up, h.position[s]);
            for (&v, &d) in space.vertices.iter().zip(&space.dist) {
                entries.extend([(v as usize * lanes + lane) as u32, d]);
            }
        }
        (0..entries.len() / 2).for_each(|i| scatter_item(&entries, &dist, i));
        let down = DownArcs {
            offsets: &h.down.offsets,
            ends: &h.down.ends,
            weights: &h.down.weights,
        };
        let threads = rng.range(1, 4) as usize;
        for w in h.level_starts.windows(2) {
            let items = (w[1] - w[0]) as usize * (lanes / LANES_PER_ITEM);
            std::thread::scope(|scope| {
                for t in 0..threads {
                    let dist = &dist;
                    scope.spawn(move || {
                        for item in (t..items).step_by(threads) {
                            sweep_item::<u32>(down, dist, lanes, w[0] as usize, item);
                        }
                    });
                }
            });
        }
        let rows: Vec<AtomicU32> = (0..n * sources.len()).map(|_| AtomicU32::new(7)).collect();
        (0..rows.len()).for_each(|i| column_item(&dist, &h.position, lanes, &rows, 0, i));
        for (lane, &s) in sources.iter().enumerate() {
            let expected = oracle::dijkstra(&graph, s).expect("oracle");
            let found: Vec<u32> = rows[lane * n..(lane + 1) * n]
                .iter()
                .map(|d| d.load(Relaxed))
                .collect();
            assert_eq!(
                found, expected,
                "case {case}: lane {lane} (source {s}, {lanes} lanes)"
            );
        }
        let small = block_levels(&h.level_starts, lanes, 64, 2);
        assert!(small <= h.num_levels());
        assert!(
            h.level_starts[..=small]
                .windows(2)
                .all(|w| (w[1] - w[0]) as usize * (lanes / LANES_PER_ITEM) <= 128)
        );
    }
}

/// A sweep's lanes shrink to fit 32-bit indices and the memory budget,
/// stay a multiple of the lanes per item and never exceed what was asked
/// (rounded up to that multiple).
#[test]
fn sweep_lanes_shrink_to_fit() {
    use gpu_kernels::phast::LANES_PER_ITEM;
    use sssp::gpu::phast::fitting_lanes;
    let mut rng = TestRng::new("sweep_lanes_fit");
    for case in 0..2000 {
        let n = [rng.below(100), rng.below(1 << 24), rng.below(1 << 31)][rng.below(3) as usize]
            as usize;
        let asked = rng.range(1, 5000) as u32;
        let budget = [u64::MAX, rng.below(1 << 36)][rng.below(2) as usize];
        let step = LANES_PER_ITEM as u64;
        match fitting_lanes(n, asked, budget) {
            Some(lanes) => {
                let lanes = lanes as u64;
                assert!(
                    lanes >= step && lanes.is_multiple_of(step),
                    "case {case}: {lanes} lanes"
                );
                assert!(
                    lanes <= (asked as u64).next_multiple_of(step),
                    "case {case}"
                );
                assert!(
                    n as u64 * lanes <= u32::MAX as u64,
                    "case {case}: n {n}, {lanes} lanes"
                );
                assert!(
                    lanes == step || n as u64 * lanes * 4 <= budget,
                    "case {case}: n {n}, {lanes} lanes over a budget of {budget}"
                );
            }
            None => assert!(
                n as u64 * step > u32::MAX as u64,
                "case {case}: n {n} refused"
            ),
        }
    }
    assert_eq!(fitting_lanes(1000, 1024, u64::MAX), Some(1024));
    assert_eq!(
        fitting_lanes(1000, 1, u64::MAX),
        Some(LANES_PER_ITEM as u32)
    );
    assert_eq!(fitting_lanes(8_000_000, 1024, u64::MAX), Some(512));
}
