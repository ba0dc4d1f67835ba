//! The build's no-hierarchy rule: grids and grid-plan road networks (jittered
//! points, Euclidean lengths, one-way streets, gaps), whose hierarchies have
//! more shortcuts than a rural road network's, get an index whose trees equal
//! the oracle's on every vertex; a dense random graph (no small separators)
//! is refused with the clear error within its first rounds.

use sssp::ch::{self, BuildOptions};
use sssp::generate::{GridSpec, grid_graph};
use sssp::{Error, Graph, oracle};
use sssp_tests::{TestRng, random_graph};

/// A `width` × `height` grid-plan road network: vertex `(x, y)` at `(x, y)`
/// plus a jitter of up to 0.35 per coordinate; each pair of grid neighbours is
/// a street unless it is a gap (10 %), one-way in a random direction (20 %)
/// or two-way; an arc weighs its street's length times 100, rounded.
fn road_grid(rng: &mut TestRng, width: usize, height: usize) -> Graph<'static> {
    let mut jitter = || (rng.below(701) as f64 - 350.0) / 1000.0;
    let points: Vec<(f64, f64)> = (0..width * height)
        .map(|v| ((v % width) as f64 + jitter(), (v / width) as f64 + jitter()))
        .collect();
    let mut arcs = Vec::new();
    for u in 0..width * height {
        let right = (u % width + 1 < width).then_some(u + 1);
        let down = (u / width + 1 < height).then_some(u + width);
        for v in [right, down].into_iter().flatten() {
            if rng.chance(0.1) {
                continue;
            }
            let (dx, dy) = (points[u].0 - points[v].0, points[u].1 - points[v].1);
            let length = ((100.0 * dx.hypot(dy)).round() as u32).max(1);
            let (a, b) = (u as u32, v as u32);
            if rng.chance(0.2) {
                arcs.push(if rng.chance(0.5) {
                    (a, b, length)
                } else {
                    (b, a, length)
                });
            } else {
                arcs.extend([(a, b, length), (b, a, length)]);
            }
        }
    }
    Graph::from_edges(width * height, &arcs).expect("road grid")
}

/// Builds `graph`'s index with the default options and compares the trees
/// of `sources` random sources with the oracle's, on every vertex.
fn check_index(rng: &mut TestRng, graph: &Graph, sources: usize, context: &str) {
    let h = ch::build(graph, &BuildOptions::default())
        .unwrap_or_else(|e| panic!("{context}: a grid-like graph has a hierarchy: {e}"));
    h.validate()
        .unwrap_or_else(|e| panic!("{context}: invalid index: {e}"));
    let n = graph.num_vertices();
    let sources: Vec<usize> = (0..sources).map(|_| rng.below(n as u64) as usize).collect();
    let trees = ch::phast::trees(&h, &sources);
    for (tree, &s) in trees.iter().zip(&sources) {
        let expected = oracle::dijkstra(graph, s).expect("oracle");
        assert!(
            tree == &expected,
            "{context}: the tree of source {s} differs"
        );
    }
    let index_arcs = h.up.len() + h.down.len();
    assert!(
        index_arcs <= 8 * graph.num_edges().max(1),
        "{context}: {index_arcs} arcs in the index of a graph of {} arcs",
        graph.num_edges()
    );
}

#[test]
fn grids_get_an_index_whose_trees_equal_the_oracle() {
    let mut rng = TestRng::new("ch_rule_grids");
    for (w, h) in [(120, 100), (40, 250)] {
        let graph = grid_graph(&GridSpec::new(w, h, rng.bits())).expect("grid");
        check_index(&mut rng, &graph, 4, &format!("grid {w}×{h}"));
    }
}

#[test]
fn grid_plan_road_networks_get_an_index_whose_trees_equal_the_oracle() {
    let mut rng = TestRng::new("ch_rule_road_grids");
    for (w, h) in [(110, 110), (200, 30)] {
        let graph = road_grid(&mut rng, w, h);
        check_index(&mut rng, &graph, 4, &format!("road grid {w}×{h}"));
    }
}

/// The rounds a refusal names ("after R rounds").
fn rounds_of(reason: &str) -> u32 {
    let after = reason.split("after ").nth(1).expect("the rounds");
    after
        .split(' ')
        .next()
        .unwrap_or("")
        .parse()
        .expect("a round count")
}

#[test]
fn dense_random_graphs_are_refused_within_their_first_rounds() {
    let mut rng = TestRng::new("ch_rule_dense_random");
    for (n, degree) in [(3000, 10), (2000, 16), (20_000, 12)] {
        let graph = random_graph(&mut rng, n, n * degree, 100);
        match ch::build(&graph, &BuildOptions::default()) {
            Err(Error::NoHierarchy(reason)) => {
                assert!(
                    reason.contains("no small separators"),
                    "n {n}, degree {degree}: the reason names the cause: {reason}"
                );
                let rounds = rounds_of(&reason);
                assert!(
                    rounds <= 3,
                    "n {n}, degree {degree}: refused only after {rounds} rounds: {reason}"
                );
            }
            other => panic!(
                "n {n}, degree {degree}: expected NoHierarchy, got {:?}",
                other.map(|h| h.num_shortcuts())
            ),
        }
    }
}
