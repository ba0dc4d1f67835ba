//! Customizable contraction hierarchies on the CPU: customized with fresh
//! random weights (zero weights, parallel arcs, self-loops, one-way arcs,
//! several components), every tree and point-to-point distance and path from
//! the hierarchy equals the Dijkstra oracle's on the re-weighted graph, the
//! hierarchy passes the index checks, re-customization of the same CCH with
//! other weights is exact too, and the `.cch` file refuses corrupt input.

use std::path::Path;

use sssp::cch::Cch;
use sssp::ch::{self, Hierarchy};
use sssp::generate::{GridSpec, grid_graph};
use sssp::{Error, Graph, oracle};
use sssp_tests::queries::check_path;
use sssp_tests::{TempDir, TestRng, random_f32_graph, random_graph};

/// The index checks and, for `sources`, trees, distances and paths against
/// the oracle on `graph`.
fn check_customized(graph: &Graph, h: &Hierarchy, sources: &[usize], context: &str) {
    h.validate()
        .unwrap_or_else(|e| panic!("{context}: invalid index: {e}"));
    h.check_graph(graph, Path::new("customized"))
        .unwrap_or_else(|e| panic!("{context}: not an index of the graph: {e}"));
    let n = graph.num_vertices();
    let trees = ch::phast::trees(h, sources);
    for (i, &s) in sources.iter().enumerate() {
        let expected = oracle::dijkstra(graph, s).expect("oracle");
        assert_eq!(trees[i], expected, "{context}: tree of source {s}");
        for t in (0..n).step_by((n / 5).max(1)) {
            match ch::query::point_to_point(h, s, t).expect("query") {
                None => assert_eq!(expected[t], u32::MAX, "{context}: {s} → {t} unreached"),
                Some((d, path)) => {
                    assert_eq!(d, expected[t], "{context}: distance {s} → {t}");
                    check_path(graph, &path, (s, t), d, context);
                }
            }
        }
    }
}

/// `graph`'s arcs with fresh weights in `0..=max_weight`, each arc kept with
/// probability `keep` (a subset of the arcs: closed roads, one-way streets).
fn reweighted(rng: &mut TestRng, graph: &Graph, max_weight: u32, keep: f64) -> Graph<'static> {
    let mut edges = Vec::new();
    for u in 0..graph.num_vertices() {
        let range = graph.offsets()[u] as usize..graph.offsets()[u + 1] as usize;
        for &v in &graph.targets()[range] {
            if rng.chance(keep) {
                edges.push((u as u32, v, rng.range(0, max_weight as u64) as u32));
            }
        }
    }
    Graph::from_edges(graph.num_vertices(), &edges).expect("a valid graph")
}

fn sources(rng: &mut TestRng, n: usize) -> Vec<usize> {
    (0..3).map(|_| rng.below(n as u64) as usize).collect()
}

#[test]
fn customized_hierarchies_match_the_oracle_on_random_graphs() {
    let mut rng = TestRng::new("cch_random_graphs");
    for case in 0..120 {
        let n = rng.range(1, 150) as usize;
        let m = rng.below((n * 3) as u64 + 1) as usize;
        let max_weight = [0u32, 1, 3, 10, 1000][rng.below(5) as usize];
        let mut graph = random_graph(&mut rng, n, m, max_weight);
        if rng.chance(0.4) {
            graph = graph.undirected().expect("undirected");
        }
        let cch = Cch::build(&graph).expect("build");
        let context = format!("case {case} (n {n}, m {m}, seed {})", rng.seed);
        let h = cch.customize(&graph).expect("customize");
        let s = sources(&mut rng, n);
        check_customized(&graph, &h, &s, &context);
        for round in 0..2 {
            let keep = [1.0, 0.7][round];
            let max_weight = [0, 5, 100][rng.below(3) as usize];
            let other = reweighted(&mut rng, &graph, max_weight, keep);
            let h = cch.customize(&other).expect("re-customize");
            let s = sources(&mut rng, n);
            check_customized(&other, &h, &s, &format!("{context}, weights {round}"));
        }
    }
}

#[test]
fn customized_grids_with_one_way_streets_match_the_oracle() {
    let mut rng = TestRng::new("cch_grids");
    for case in 0..4 {
        let (width, height) = (rng.range(2, 60) as usize, rng.range(2, 40) as usize);
        let graph = grid_graph(&GridSpec::new(width, height, rng.bits())).expect("grid");
        let cch = Cch::build(&graph).expect("build");
        let n = graph.num_vertices();
        let context = format!("grid {width}×{height}, case {case}, seed {}", rng.seed);
        let h = cch.customize(&graph).expect("customize");
        assert!(h.is_symmetric() || !graph_is_symmetric(&graph), "{context}");
        check_customized(&graph, &h, &sources(&mut rng, n), &context);
        let one_way = reweighted(&mut rng, &graph, 50, 0.8);
        let h = cch.customize(&one_way).expect("re-customize");
        check_customized(&one_way, &h, &sources(&mut rng, n), &context);
    }
}

/// Whether every arc has a reverse arc of the same weight.
fn graph_is_symmetric(graph: &Graph) -> bool {
    let t = graph.transpose();
    (0..graph.num_vertices()).all(|v| {
        let mut a: Vec<(u32, u32)> = graph.csr().edges(v).map(|(u, w)| (u as u32, w)).collect();
        let mut b: Vec<(u32, u32)> = t.csr().edges(v).map(|(u, w)| (u as u32, w)).collect();
        a.sort_unstable();
        b.sort_unstable();
        a == b
    })
}

#[test]
fn the_order_is_deterministic_and_an_explicit_order_works() {
    let mut rng = TestRng::new("cch_deterministic");
    let graph = grid_graph(&GridSpec::new(25, 25, rng.bits())).expect("grid");
    let a = Cch::build(&graph).expect("build");
    let b = Cch::build(&graph).expect("build");
    assert_eq!(a, b, "seed {}", rng.seed);
    let n = graph.num_vertices();
    let order: Vec<u32> = (0..n as u32).rev().collect();
    let c = Cch::with_order(&graph, &order).expect("with order");
    let h = c.customize(&graph).expect("customize");
    check_customized(&graph, &h, &sources(&mut rng, n), "reversed order");
    assert!(matches!(
        Cch::with_order(&graph, &order[1..]),
        Err(Error::InvalidArgument(_))
    ));
}

#[test]
fn foreign_arcs_and_f32_weights_are_refused() {
    let mut rng = TestRng::new("cch_refusals");
    let path = Graph::from_edges(3, &[(0, 1, 1), (1, 2, 1)]).expect("path");
    let cch = Cch::build(&path).expect("build");
    let shortcut = Graph::from_edges(3, &[(0, 2, 1)]).expect("graph");
    // 0 — 2 may be a fill arc (then the customization is exact) or not
    // (then it is refused); never a wrong distance.
    match cch.customize(&shortcut) {
        Ok(h) => check_customized(&shortcut, &h, &[0, 1, 2], "fill arc"),
        Err(e) => assert!(matches!(e, Error::InvalidArgument(_)), "{e}"),
    }
    let star = Graph::from_edges(4, &[(0, 1, 1), (0, 2, 1), (0, 3, 1)]).expect("star");
    let cch = Cch::build(&star).expect("build");
    let h = cch.customize(&star).expect("customize");
    check_customized(&star, &h, &[0, 1, 2, 3], "star");
    let wrong_size = Graph::from_edges(5, &[(0, 1, 1)]).expect("graph");
    assert!(matches!(
        cch.customize(&wrong_size),
        Err(Error::InvalidArgument(_))
    ));
    let f32_graph = random_f32_graph(&mut rng, 4, 6, sssp_tests::F32Weights::Fractional);
    let cch = Cch::build(&f32_graph).expect("build");
    let err = cch.customize(&f32_graph).expect_err("f32 refused");
    assert!(err.to_string().contains("u32 weights"), "{err}");
}

#[test]
fn the_cch_file_round_trips_and_refuses_corrupt_files() {
    let mut rng = TestRng::new("cch_file");
    let dir = TempDir::new("cch_file");
    let graph = grid_graph(&GridSpec::new(12, 9, rng.bits())).expect("grid");
    let cch = Cch::build(&graph).expect("build");
    let file = dir.path("grid.cch");
    cch.save(&file).expect("save");
    let loaded = Cch::load(&file).expect("load");
    assert_eq!(loaded, cch);
    let bytes = std::fs::read(&file).expect("read");
    let corrupt = dir.path("corrupt.cch");
    for case in 0..200 {
        let mut changed = bytes.clone();
        match case % 3 {
            0 => changed.truncate(rng.below(bytes.len() as u64) as usize),
            1 => {
                let at = rng.below(bytes.len() as u64) as usize;
                changed[at] ^= 1 << rng.below(8);
            }
            _ => {
                // A header word rewritten, the checksum recomputed: only the
                // structural checks stand between it and the customization.
                let at = 8 + 4 * rng.below(4) as usize;
                changed[at..at + 4].copy_from_slice(&(rng.below(200) as u32).to_le_bytes());
                let body = changed.len().saturating_sub(8);
                let sum = fnv(&changed[..body]);
                changed[body..].copy_from_slice(&sum.to_le_bytes());
            }
        }
        if changed == bytes {
            continue;
        }
        std::fs::write(&corrupt, &changed).expect("write");
        match Cch::load(&corrupt) {
            Err(Error::Index { .. }) => {}
            Err(other) => panic!("case {case}: unexpected error {other}"),
            Ok(loaded) => {
                // An edit that keeps a valid supergraph must still customize
                // exactly (or refuse arcs it does not have).
                if let Ok(h) = loaded.customize(&graph) {
                    check_customized(&graph, &h, &[0], &format!("corrupt case {case}"));
                }
            }
        }
    }
}

/// FNV-1a, as the file's trailer.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// `graph` with a random share `changed` of its arcs given fresh weights in
/// `0..=max_weight` (some dropped: closures), the others kept as they are.
fn partly_reweighted(
    rng: &mut TestRng,
    graph: &Graph,
    changed: f64,
    max_weight: u32,
) -> Graph<'static> {
    let mut edges = Vec::new();
    let csr = graph.csr();
    for u in 0..graph.num_vertices() {
        for (v, w) in csr.edges(u) {
            if !rng.chance(changed) {
                edges.push((u as u32, v as u32, w));
            } else if !rng.chance(0.2) {
                edges.push((u as u32, v as u32, rng.range(0, max_weight as u64) as u32));
            }
        }
    }
    Graph::from_edges(graph.num_vertices(), &edges).expect("a valid graph")
}

#[test]
fn partial_recustomization_equals_a_whole_one() {
    let mut rng = TestRng::new("cch_partial");
    for case in 0..40 {
        let graph = if rng.chance(0.5) {
            let (w, h) = (rng.range(2, 40) as usize, rng.range(2, 40) as usize);
            grid_graph(&GridSpec::new(w, h, rng.bits())).expect("grid")
        } else {
            let n = rng.range(1, 200) as usize;
            let m = rng.below((n * 3) as u64 + 1) as usize;
            let max_weight = [0, 1, 10, 1000][rng.below(4) as usize];
            random_graph(&mut rng, n, m, max_weight)
        };
        let cch = Cch::build(&graph).expect("build");
        let n = graph.num_vertices();
        let mut old_initial = cch.initial_weights(&graph).expect("weights");
        let mut customized = old_initial.clone();
        cch.customize_weights(&mut customized);
        // Several rounds of changes on the same customization: small shares
        // (a few closures, some slower roads), and none at all.
        for round in 0..4 {
            let share = [0.0, 0.01, 0.1, 0.5][rng.below(4) as usize];
            let context = format!(
                "case {case}, round {round}, share {share}, seed {}",
                rng.seed
            );
            let changed = partly_reweighted(&mut rng, &graph, share, 100);
            let new_initial = cch.initial_weights(&changed).expect("new weights");
            let recomputed = cch
                .recustomize(&old_initial, &new_initial, &mut customized)
                .unwrap_or_else(|e| panic!("{context}: {e}"));
            let mut whole = new_initial.clone();
            cch.customize_weights(&mut whole);
            assert!(
                customized == whole,
                "{context}: other words than a whole customization"
            );
            if new_initial == old_initial {
                assert_eq!(recomputed, 0, "{context}: nothing changed");
            }
            let h = cch.hierarchy(&customized).expect("hierarchy");
            check_customized(&changed, &h, &sources(&mut rng, n), &context);
            old_initial = new_initial;
        }
    }
}

#[test]
fn recustomization_refuses_weights_of_another_hierarchy() {
    let mut rng = TestRng::new("cch_partial_refused");
    let graph = grid_graph(&GridSpec::new(10, 10, rng.bits())).expect("grid");
    let other = grid_graph(&GridSpec::new(12, 10, rng.bits())).expect("grid");
    let (cch, cch_other) = (
        Cch::build(&graph).expect("build"),
        Cch::build(&other).expect("build"),
    );
    let initial = cch.initial_weights(&graph).expect("weights");
    let foreign = cch_other.initial_weights(&other).expect("weights");
    let mut customized = initial.clone();
    match cch.recustomize(&initial, &foreign, &mut customized) {
        Err(Error::InvalidArgument(message)) => assert!(message.contains("arcs"), "{message}"),
        other => panic!("expected an error, got {other:?}"),
    }
}
