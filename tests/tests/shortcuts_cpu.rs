//! The partition solver's shortcuts (`sssp::shortcuts`) on the CPU: they keep
//! every distance, each one is a piece-local distance from an entry to a
//! border vertex of its piece, the pruned set still gives every such distance,
//! the edge budget holds, and they make a grid's shortest-path tree shallower.
//! The solver's logic on the graphs with shortcuts is in `partition_cpu`.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::Range;

use sssp::Graph;
use sssp::generate::{GridSpec, grid_graph};
use sssp::partition::pieces::{Partitioning, partition};
use sssp::partition::shortcuts::{SAMPLE_EVERY, add_shortcuts, estimate_shortcuts, few_shortcuts};
use sssp::{formats, oracle};
use sssp_tests::{TestRng, find_graph, random_graph, random_small_f32_graph, random_small_graph};

/// Shortest distances from `from` over the arcs of `graph` whose both ends
/// pass `keep` (u64, `u64::MAX` where unreached).
fn dijkstra_within(graph: &Graph, from: usize, keep: impl Fn(usize) -> bool) -> Vec<u64> {
    let n = graph.num_vertices();
    let csr = graph.csr();
    let mut dist = vec![u64::MAX; n];
    let mut heap = BinaryHeap::new();
    dist[from] = 0;
    heap.push(Reverse((0u64, from)));
    while let Some(Reverse((d, u))) = heap.pop() {
        if d != dist[u] {
            continue;
        }
        for (v, w) in csr.edges(u) {
            if keep(v) && d + u64::from(w) < dist[v] {
                dist[v] = d + u64::from(w);
                heap.push(Reverse((dist[v], v)));
            }
        }
    }
    dist
}

/// Piece `p`'s vertex range.
fn piece(parts: &Partitioning, p: usize) -> Range<usize> {
    parts.starts[p] as usize..parts.starts[p + 1] as usize
}

/// Whether `v` is on its piece's border: entered from, or leaving to, another
/// piece (in the graph without shortcuts, `plain`).
fn on_border(parts: &Partitioning, plain: &Graph, v: usize) -> bool {
    let p = parts.piece_of[v] as usize;
    v < parts.boundary_ends[p] as usize
        || plain
            .csr()
            .edges(v)
            .any(|(x, _)| parts.piece_of[x] as usize != p)
}

/// `parts` with shortcuts within `most_edges` a piece, checked: the old
/// arcs are kept in order, every added arc runs from an entry to another
/// border vertex of its piece at their piece-local distance, and no piece
/// grows past `most_edges` (or its own arcs, if more). Returns the new
/// partitioning and the number added.
fn with_checked_shortcuts(
    parts: &Partitioning,
    most_edges: usize,
    context: &str,
) -> (Partitioning, usize) {
    let plain = &parts.graph;
    let mut with = parts.clone();
    let added = add_shortcuts(&mut with, most_edges).unwrap_or_else(|e| panic!("{context}: {e}"));
    let graph = &with.graph;
    assert_eq!(
        graph.num_edges(),
        plain.num_edges() + added.count,
        "{context}: arcs"
    );
    for u in 0..graph.num_vertices() {
        let (old, new) = (plain.csr(), graph.csr());
        let own = old.edges(u).count();
        let edges: Vec<(usize, u32)> = new.edges(u).collect();
        assert_eq!(
            edges[..own],
            old.edges(u).collect::<Vec<_>>()[..],
            "{context}: vertex {u}'s own arcs"
        );
        if edges.len() == own {
            continue;
        }
        let p = parts.piece_of[u] as usize;
        let range = piece(parts, p);
        assert!(
            u < parts.boundary_ends[p] as usize,
            "{context}: shortcut from {u}, not an entry of piece {p}"
        );
        let local = dijkstra_within(plain, u, |v| range.contains(&v));
        for &(x, w) in &edges[own..] {
            assert!(
                range.contains(&x) && x != u && on_border(parts, plain, x),
                "{context}: shortcut {u} -> {x} leaves piece {p} or ends inside it"
            );
            assert_eq!(
                u64::from(w),
                local[x],
                "{context}: shortcut {u} -> {x}'s weight"
            );
        }
    }
    for p in 0..parts.pieces() {
        let range = piece(parts, p);
        let count = |g: &Graph| (g.offsets()[range.end] - g.offsets()[range.start]) as usize;
        assert!(
            count(graph) <= most_edges.max(count(plain)),
            "{context}: piece {p} holds {} arcs, more than {most_edges}",
            count(graph)
        );
    }
    (with, added.count)
}

#[test]
fn shortcuts_keep_every_distance_and_join_border_vertices_of_a_piece() {
    let mut rng = TestRng::new("shortcuts_keep_every_distance");
    let mut added_total = 0;
    for case in 0..1500 {
        let graph = if case % 4 == 0 {
            let n = rng.range(50, 400) as usize;
            let max_weight = [0u32, 1, 20, 1 << 20][rng.below(4) as usize];
            let m = rng.range(n as u64, 3 * n as u64) as usize;
            random_graph(&mut rng, n, m, max_weight)
        } else {
            random_small_graph(&mut rng, 60)
        };
        let n = graph.num_vertices();
        let capacity = rng.range(1, n as u64) as usize;
        let most_edges = if rng.chance(0.5) {
            usize::MAX
        } else {
            rng.range(0, 4 * n as u64) as usize
        };
        let context = format!(
            "case {case}, n {n}, capacity {capacity}, most edges {most_edges}, seed {}",
            rng.seed
        );
        let parts = partition(&graph, capacity).unwrap();
        let (with, added) = with_checked_shortcuts(&parts, most_edges, &context);
        added_total += added;
        for _ in 0..3 {
            let source = rng.below(n as u64) as usize;
            let expected = oracle::dijkstra(&parts.graph, source);
            let found = oracle::dijkstra(&with.graph, source);
            match (&expected, &found) {
                (Ok(e), Ok(f)) => {
                    if let Some(v) = (0..n).find(|&v| e[v] != f[v]) {
                        panic!(
                            "{context}, source {source}: vertex {v} at {} with shortcuts, {} without",
                            f[v], e[v]
                        );
                    }
                }
                (Err(e), Err(f)) => assert_eq!(e.to_string(), f.to_string(), "{context}"),
                _ => panic!("{context}, source {source}: {expected:?} against {found:?}"),
            }
        }
    }
    assert!(added_total > 1000, "only {added_total} shortcuts in all");
}

#[test]
fn pruned_shortcuts_still_give_every_distance_between_border_vertices() {
    // Between the border vertices of a piece, the shortcuts and the arcs that
    // join two border vertices directly must give every piece-local distance
    // from an entry: what was left out is covered by another entry's arcs.
    let mut rng = TestRng::new("pruned_shortcuts_still_give_every_distance");
    let grid = grid_graph(&GridSpec::new(40, 30, rng.bits())).unwrap();
    let rome = formats::load(find_graph("rome99.gr"), None).unwrap();
    let rome = rome.graph().unwrap().into_owned();
    let mut graphs: Vec<(String, Graph<'static>, usize)> = vec![
        ("grid 40×30".into(), grid, 60),
        ("rome99".into(), rome, 150),
    ];
    for case in 0..60 {
        let n = rng.range(20, 300) as usize;
        let max_weight = [0u32, 1, 3, 1000][rng.below(4) as usize];
        let m = rng.range(n as u64, 3 * n as u64) as usize;
        let graph = random_graph(&mut rng, n, m, max_weight);
        let capacity = rng.range(3, (n as u64 / 2).max(4)) as usize;
        graphs.push((format!("random case {case}, n {n}"), graph, capacity));
    }
    let mut pruned_somewhere = false;
    for (name, graph, capacity) in graphs {
        let context = format!("{name}, capacity {capacity}, seed {}", rng.seed);
        let parts = partition(&graph, capacity).unwrap();
        let (with, _) = with_checked_shortcuts(&parts, usize::MAX, &context);
        let plain = &parts.graph;
        for p in 0..parts.pieces() {
            let range = piece(&parts, p);
            let border: Vec<usize> = range
                .clone()
                .filter(|&v| on_border(&parts, plain, v))
                .collect();
            for a in range.start..parts.boundary_ends[p] as usize {
                let local = dijkstra_within(plain, a, |v| range.contains(&v));
                let over = dijkstra_within(&with.graph, a, |v| {
                    range.contains(&v) && on_border(&parts, plain, v)
                });
                for &x in &border {
                    assert_eq!(
                        over[x], local[x],
                        "{context}: piece {p}, from entry {a} to border vertex {x}"
                    );
                }
                // Some reachable border vertex two or more hops away without a
                // shortcut of its own: pruning happened.
                let shortcut_heads: Vec<usize> =
                    with.graph.csr().edges(a).map(|(x, _)| x).collect();
                pruned_somewhere |= border
                    .iter()
                    .any(|&x| x != a && local[x] != u64::MAX && !shortcut_heads.contains(&x));
            }
        }
    }
    assert!(pruned_somewhere, "no shortcut was ever left out");
}

/// The most hops on the fewest-hop shortest paths from `source`.
fn tree_depth(graph: &Graph, source: usize) -> u32 {
    let csr = graph.csr();
    let mut best = vec![(u64::MAX, u32::MAX); graph.num_vertices()];
    let mut heap = BinaryHeap::new();
    best[source] = (0, 0);
    heap.push(Reverse((0u64, 0u32, source)));
    while let Some(Reverse((d, h, u))) = heap.pop() {
        if (d, h) != best[u] {
            continue;
        }
        for (v, w) in csr.edges(u) {
            let key = (d + u64::from(w), h + 1);
            if key < best[v] {
                best[v] = key;
                heap.push(Reverse((key.0, key.1, v)));
            }
        }
    }
    best.iter()
        .filter(|&&(d, _)| d != u64::MAX)
        .map(|&(_, h)| h)
        .max()
        .unwrap_or(0)
}

#[test]
fn shortcuts_make_a_grids_shortest_path_tree_shallower() {
    let mut rng = TestRng::new("shortcuts_make_a_grids_tree_shallower");
    let grid = grid_graph(&GridSpec::new(120, 100, rng.bits())).unwrap();
    let parts = partition(&grid, 300).unwrap();
    let (with, added) = with_checked_shortcuts(&parts, usize::MAX, "grid 120×100");
    let source = parts.permutation.new_id(0);
    let (before, after) = (
        tree_depth(&parts.graph, source),
        tree_depth(&with.graph, source),
    );
    assert!(
        added > 0 && 2 * after < before,
        "grid 120×100, seed {}: {added} shortcuts, tree depth {before} -> {after}",
        rng.seed
    );
}

#[test]
fn graphs_with_f32_weights_get_no_shortcuts() {
    let mut rng = TestRng::new("graphs_with_f32_weights_get_no_shortcuts");
    for _ in 0..20 {
        let graph = random_small_f32_graph(&mut rng, 40);
        let mut parts = partition(&graph, 3).unwrap();
        let before = parts.graph.clone();
        let added = add_shortcuts(&mut parts, usize::MAX).unwrap();
        assert_eq!(added.count, 0, "seed {}", rng.seed);
        assert_eq!(parts.graph, before, "seed {}", rng.seed);
    }
}

#[test]
fn the_estimate_from_every_piece_is_the_count() {
    let mut rng = TestRng::new("the_estimate_from_every_piece_is_the_count");
    for case in 0..200 {
        let graph = random_small_graph(&mut rng, 80);
        let n = graph.num_vertices();
        let capacity = rng.range(1, n as u64) as usize;
        let most_edges = rng.range(0, 4 * n as u64) as usize;
        let mut parts = partition(&graph, capacity).unwrap();
        let estimate = estimate_shortcuts(&parts, most_edges, 1);
        let added = add_shortcuts(&mut parts, most_edges).unwrap();
        assert_eq!(
            estimate, added.count,
            "case {case}, n {n}, capacity {capacity}, most edges {most_edges}, seed {}",
            rng.seed
        );
    }
    // A sample of one piece in four on a grid: within a fifth of the count.
    let grid = grid_graph(&GridSpec::new(160, 160, rng.bits())).unwrap();
    let mut parts = partition(&grid, 256).unwrap();
    let estimate = estimate_shortcuts(&parts, usize::MAX, 4) as f64;
    let count = add_shortcuts(&mut parts, usize::MAX).unwrap().count as f64;
    assert!(
        (estimate - count).abs() < 0.2 * count,
        "grid 160×160, seed {}: estimate {estimate}, count {count}",
        rng.seed
    );
}

/// `auto`'s paged-mode test counts the shortcuts the pieces have, however
/// few a block could keep: large pieces of a grid have more shortcuts than
/// arcs (an entry on each side reaches the whole border), rome99's pieces
/// far fewer.
#[test]
fn few_shortcuts_counts_all_the_pieces_have() {
    let mut rng = TestRng::new("few_shortcuts_counts_all_the_pieces_have");
    let grid = grid_graph(&GridSpec::new(400, 400, rng.bits())).unwrap();
    let parts = partition(&grid, 1_024).unwrap();
    let most_edges = (parts.most_edges() + parts.most_edges() / 4) as usize;
    assert!(
        estimate_shortcuts(&parts, most_edges, SAMPLE_EVERY) < grid.num_edges(),
        "seed {}: the kept ones are few",
        rng.seed
    );
    assert!(
        !few_shortcuts(&parts),
        "seed {}: all of them are not",
        rng.seed
    );
    let rome = formats::load(find_graph("rome99.gr"), None).unwrap();
    let rome = rome.graph().unwrap().into_owned();
    assert!(few_shortcuts(&partition(&rome, 256).unwrap()));
}
