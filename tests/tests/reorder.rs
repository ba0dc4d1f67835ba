//! Vertex reordering: permutations are bijections, relabelling keeps every
//! edge, distances map back to the original ids, the orders are the documented
//! ones, and BFS and RCM create locality on a shuffled grid.

use std::collections::BTreeSet;

use sssp::generate::{GridSpec, grid_graph};
use sssp::reorder::{self, Order, Permutation};
use sssp::{Error, Graph, oracle};
use sssp_tests::{TestRng, random_graph, random_small_graph};

/// Every edge as `(tail, head, weight)`, sorted: the edge multiset.
fn edge_multiset(graph: &Graph) -> Vec<(u32, u32, u32)> {
    let csr = graph.csr();
    let mut edges: Vec<(u32, u32, u32)> = (0..graph.num_vertices())
        .flat_map(|u| csr.edges(u).map(move |(v, w)| (u as u32, v as u32, w)))
        .collect();
    edges.sort_unstable();
    edges
}

/// A uniformly random permutation (Fisher–Yates).
fn random_permutation(rng: &mut TestRng, n: usize) -> Permutation {
    let mut order: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    Permutation::from_old_of_new(order).unwrap()
}

/// Every order of this module on `graph`, BFS rooted at `root`.
fn all_orders(graph: &Graph, root: usize) -> Vec<(&'static str, Permutation)> {
    Order::ALL
        .iter()
        .map(|&order| (order.name(), order.permutation(graph, root).unwrap()))
        .collect()
}

fn assert_bijection(p: &Permutation, n: usize, context: &str) {
    assert_eq!(p.len(), n, "{context}: length");
    let mut seen = vec![false; n];
    for old in 0..n {
        let new = p.new_id(old);
        assert!(new < n && !seen[new], "{context}: new id {new} of {old}");
        seen[new] = true;
        assert_eq!(p.old_id(new), old, "{context}: old_id(new_id({old}))");
        assert_eq!(p.old_of_new()[new] as usize, old, "{context}");
        assert_eq!(p.new_of_old()[old] as usize, new, "{context}");
    }
}

/// The graphs the correctness tests run on: random ones of every shape (small
/// and dense, sparse with unreachable parts, large enough for the parallel
/// passes) and grids.
fn test_graphs(rng: &mut TestRng) -> Vec<(String, Graph<'static>)> {
    let mut graphs = Vec::new();
    for k in 0..40 {
        graphs.push((format!("small graph {k}"), random_small_graph(rng, 30)));
    }
    graphs.push(("sparse 2000".into(), random_graph(rng, 2000, 1500, 20)));
    graphs.push((
        "40000 / 200000".into(),
        random_graph(rng, 40_000, 200_000, 100),
    ));
    graphs.push((
        "empty 5".into(),
        Graph::from_edges(5, &[]).expect("no edges is a graph"),
    ));
    for (w, h) in [(1, 1), (1, 7), (9, 1), (13, 11), (300, 250)] {
        let spec = GridSpec {
            width: w,
            height: h,
            min_weight: rng.range(0, 3) as u32,
            max_weight: rng.range(3, 50) as u32,
            seed: rng.bits(),
        };
        graphs.push((format!("grid {w} × {h}"), grid_graph(&spec).unwrap()));
    }
    graphs
}

#[test]
fn solving_the_relabelled_graph_gives_the_original_distances() {
    let mut rng = TestRng::new("solving_the_relabelled_graph_gives_the_original_distances");
    for (name, graph) in test_graphs(&mut rng) {
        let n = graph.num_vertices();
        let source = rng.below(n as u64) as usize;
        let expected = oracle::dijkstra_u64(&graph, source);
        let expected_u32 = oracle::dijkstra(&graph, source);
        let mut orders = all_orders(&graph, source);
        orders.push(("random", random_permutation(&mut rng, n)));
        orders.push((
            "bfs from another root",
            reorder::bfs(&graph, rng.below(n as u64) as usize).unwrap(),
        ));
        for (order, p) in orders {
            let context = format!("{name}, order {order}, source {source}, seed {}", rng.seed);
            assert_bijection(&p, n, &context);
            let relabelled = p.apply(&graph);
            assert_eq!(relabelled.num_vertices(), n, "{context}");
            assert_eq!(relabelled.num_edges(), graph.num_edges(), "{context}");
            let found = oracle::dijkstra_u64(&relabelled, p.new_id(source));
            assert_eq!(p.map_back(&found), expected, "{context}");
            // The u32 distances the solvers report, where they fit.
            if let Ok(expected) = &expected_u32 {
                let found = oracle::dijkstra(&relabelled, p.new_id(source)).unwrap();
                assert_eq!(&p.map_distances_back(&found), expected, "{context}");
            }
        }
    }
}

#[test]
fn apply_gives_each_new_vertex_the_edges_of_its_old_one_in_order() {
    let mut rng = TestRng::new("apply_gives_each_new_vertex_the_edges_of_its_old_one_in_order");
    for (name, graph) in test_graphs(&mut rng) {
        let n = graph.num_vertices();
        let p = random_permutation(&mut rng, n);
        let relabelled = p.apply(&graph);
        let (old_csr, new_csr) = (graph.csr(), relabelled.csr());
        for old in 0..n {
            let expected: Vec<(usize, u32)> =
                old_csr.edges(old).map(|(v, w)| (p.new_id(v), w)).collect();
            let found: Vec<(usize, u32)> = new_csr.edges(p.new_id(old)).collect();
            assert_eq!(found, expected, "{name}: vertex {old}, seed {}", rng.seed);
        }
        // The inverse undoes it exactly (lists keep their order), so the edge
        // multiset is the original one.
        let back = p.inverse().apply(&relabelled);
        assert_eq!(edge_multiset(&back), edge_multiset(&graph), "{name}");
        assert_eq!(back, graph, "{name}");
        assert_eq!(p.inverse().inverse(), p);
        let values: Vec<u64> = (0..n as u64).map(|v| v * 7 + 1).collect();
        assert_eq!(p.map_back(&p.map_forward(&values)), values, "{name}");
    }
}

#[test]
fn every_order_is_a_bijection_and_deterministic() {
    let mut rng = TestRng::new("every_order_is_a_bijection_and_deterministic");
    for (name, graph) in test_graphs(&mut rng) {
        let n = graph.num_vertices();
        let root = rng.below(n as u64) as usize;
        for ((order, a), (_, b)) in all_orders(&graph, root)
            .into_iter()
            .zip(all_orders(&graph.clone(), root))
        {
            assert_bijection(&a, n, &format!("{name}, {order}"));
            assert_eq!(a, b, "{name}, {order}: the same input gives the same order");
        }
    }
}

#[test]
fn invalid_permutations_and_roots_are_rejected() {
    for (bad, what) in [
        (vec![0, 0], "duplicate"),
        (vec![1, 2], "out of range"),
        (vec![2, 0, 3], "out of range"),
        (vec![0, 2, 1, 2], "duplicate"),
    ] {
        assert!(
            matches!(
                Permutation::from_old_of_new(bad.clone()),
                Err(Error::InvalidArgument(_))
            ),
            "{bad:?}: {what}"
        );
        assert!(
            matches!(
                Permutation::from_new_of_old(bad.clone()),
                Err(Error::InvalidArgument(_))
            ),
            "{bad:?}: {what}"
        );
    }
    let p = Permutation::from_new_of_old(vec![2, 0, 1]).unwrap();
    assert_eq!(p.old_of_new(), &[1, 2, 0]);
    assert_eq!(p, Permutation::from_old_of_new(vec![1, 2, 0]).unwrap());
    assert_eq!(p.map_distances_back(&[10, 11, 12]), vec![12, 10, 11]);
    assert!(Permutation::identity(4).is_identity() && !p.is_identity());
    assert!(Permutation::from_old_of_new(Vec::new()).unwrap().is_empty());

    let graph = Graph::from_edges(3, &[(0, 1, 1)]).unwrap();
    assert!(matches!(
        reorder::bfs(&graph, 3),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        Order::Rcm.permutation(&graph, 3),
        Err(Error::SourceOutOfRange { .. })
    ));
    for order in Order::ALL {
        assert_eq!(order.name().parse::<Order>().unwrap(), order);
    }
    assert!("reverse".parse::<Order>().is_err());

    // A graph of no vertices has one (empty) order of each kind.
    let none = Graph::new(vec![0], vec![], vec![]).unwrap();
    for p in [
        reorder::identity(&none),
        reorder::bfs(&none, 0).unwrap(),
        reorder::rcm(&none),
        reorder::degree_sorted(&none),
    ] {
        assert!(p.is_empty());
        assert_eq!(p.apply(&none), none);
    }
}

/// What `from_old_of_new` says about `bad`.
fn rejection(bad: Vec<u32>) -> String {
    match Permutation::from_old_of_new(bad) {
        Err(Error::InvalidArgument(message)) => message,
        other => panic!("not rejected as invalid: {other:?}"),
    }
}

#[test]
fn a_rejected_permutation_names_its_first_bad_index() {
    assert_eq!(
        rejection(vec![0, 2, 1, 2, 7]),
        "not a permutation: old_of_new[3] = 2: 2 already occurs at index 1"
    );
    assert_eq!(
        rejection(vec![0, 9, 1, 1]),
        "not a permutation: old_of_new[1] = 9: out of range for 4 vertices"
    );
    // Large maps, checked on all threads: the first bad index still wins.
    let mut rng = TestRng::new("a_rejected_permutation_names_its_first_bad_index");
    for _ in 0..20 {
        let n = rng.range(2, 1 << 20) as usize;
        let mut map: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            map.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let round_trip = Permutation::from_old_of_new(map.clone())
            .unwrap_or_else(|e| panic!("seed {}: a permutation rejected: {e}", rng.seed));
        assert_eq!(round_trip.old_of_new(), &map[..], "seed {}", rng.seed);
        let (first, second) = {
            let a = rng.below(n as u64) as usize;
            let b = rng.below(n as u64) as usize;
            (a.min(b), a.max(b))
        };
        if first == second {
            continue;
        }
        let mut duplicated = map.clone();
        duplicated[second] = map[first];
        // Other damage after the first bad index must not be reported instead.
        if second + 1 < n {
            duplicated[n - 1] = n as u32 + 5;
        }
        assert_eq!(
            rejection(duplicated),
            format!(
                "not a permutation: old_of_new[{second}] = {}: {} already occurs at index {first}",
                map[first], map[first]
            ),
            "seed {}",
            rng.seed
        );
    }
}

/// The undirected view: distinct neighbors in either direction, self excluded.
fn undirected(graph: &Graph) -> Vec<BTreeSet<u32>> {
    let mut sets = vec![BTreeSet::new(); graph.num_vertices()];
    for (u, v, _) in edge_multiset(graph) {
        if u != v {
            sets[u as usize].insert(v);
            sets[v as usize].insert(u);
        }
    }
    sets
}

#[test]
fn bfs_is_breadth_first_over_both_directions_with_neighbors_by_id() {
    let mut rng = TestRng::new("bfs_is_breadth_first_over_both_directions_with_neighbors_by_id");
    for (name, graph) in test_graphs(&mut rng) {
        let n = graph.num_vertices();
        let root = rng.below(n as u64) as usize;
        // The reference: the definition, on sets.
        let sets = undirected(&graph);
        let mut visited = vec![false; n];
        let mut expected: Vec<u32> = Vec::new();
        for start in std::iter::once(root).chain(0..n) {
            if visited[start] {
                continue;
            }
            visited[start] = true;
            let mut head = expected.len();
            expected.push(start as u32);
            while head < expected.len() {
                let u = expected[head] as usize;
                head += 1;
                for &v in &sets[u] {
                    if !visited[v as usize] {
                        visited[v as usize] = true;
                        expected.push(v);
                    }
                }
            }
        }
        let p = reorder::bfs(&graph, root).unwrap();
        assert_eq!(p.old_of_new(), &expected[..], "{name}, root {root}");
    }
}

#[test]
fn rcm_is_a_reversed_cuthill_mckee_order() {
    let mut rng = TestRng::new("rcm_is_a_reversed_cuthill_mckee_order");
    for (name, graph) in test_graphs(&mut rng) {
        let n = graph.num_vertices();
        let sets = undirected(&graph);
        let mut cm = reorder::rcm(&graph).old_of_new().to_vec();
        cm.reverse();
        let mut position = vec![0usize; n];
        for (i, &v) in cm.iter().enumerate() {
            position[v as usize] = i;
        }
        // Cuthill–McKee: each vertex but a component's first is discovered from
        // its earliest-placed neighbor (its parent); vertices come by increasing
        // (parent position, degree, id); a component starts only when every
        // vertex before it has all its neighbors before it.
        let mut previous: Option<(usize, usize, u32)> = None;
        // The largest position of a neighbor of a vertex placed so far.
        let mut reach = 0;
        for (i, &v) in cm.iter().enumerate() {
            let parent = sets[v as usize]
                .iter()
                .map(|&u| position[u as usize])
                .filter(|&p| p < i)
                .min();
            match parent {
                None => {
                    assert!(
                        i == 0 || reach < i,
                        "{name}: component start {v} at {i} while a component is open"
                    );
                    previous = None;
                }
                Some(p) => {
                    let key = (p, sets[v as usize].len(), v);
                    if let Some(previous) = previous {
                        assert!(
                            previous < key,
                            "{name}: vertex {v} at {i}: {previous:?} then {key:?}"
                        );
                    }
                    previous = Some(key);
                }
            }
            reach = sets[v as usize]
                .iter()
                .map(|&u| position[u as usize])
                .fold(reach, usize::max);
        }
    }
}

#[test]
fn degree_sorted_orders_by_decreasing_out_degree_stably() {
    let mut rng = TestRng::new("degree_sorted_orders_by_decreasing_out_degree_stably");
    for (name, graph) in test_graphs(&mut rng) {
        let offsets = graph.offsets();
        let degree = |v: u32| offsets[v as usize + 1] - offsets[v as usize];
        let order = reorder::degree_sorted(&graph);
        for pair in order.old_of_new().windows(2) {
            let (a, b) = (pair[0], pair[1]);
            assert!(
                degree(a) > degree(b) || (degree(a) == degree(b) && a < b),
                "{name}: {a} (degree {}) before {b} (degree {})",
                degree(a),
                degree(b)
            );
        }
    }
    // A star with a hub of degree above n (parallel edges): the other branch.
    let mut edges: Vec<(u32, u32, u32)> = (0..10).map(|k| (2, k % 4, 1)).collect();
    edges.push((3, 0, 1));
    let star = Graph::from_edges(4, &edges).unwrap();
    assert_eq!(reorder::degree_sorted(&star).old_of_new(), &[2, 3, 0, 1]);
}

#[test]
fn span_and_bandwidth_of_small_graphs() {
    let graph = Graph::from_edges(4, &[(0, 2, 1), (2, 1, 1), (3, 3, 1), (1, 0, 5)]).unwrap();
    // Spans 2, 1, 0 (a self-loop) and 1.
    assert_eq!(reorder::mean_edge_span(&graph), 1.0);
    assert_eq!(reorder::bandwidth(&graph), 2);
    let empty = Graph::from_edges(3, &[]).unwrap();
    assert_eq!(reorder::mean_edge_span(&empty), 0.0);
    assert_eq!(reorder::bandwidth(&empty), 0);
    // A row-major grid: horizontal edges span 1, vertical ones the width.
    let grid = grid_graph(&GridSpec::new(10, 5, 1)).unwrap();
    assert_eq!(reorder::bandwidth(&grid), 10);
    let (horizontal, vertical) = (2 * 9 * 5, 2 * 10 * 4);
    assert_eq!(
        reorder::mean_edge_span(&grid),
        (horizontal + 10 * vertical) as f64 / (horizontal + vertical) as f64
    );
}

#[test]
fn bfs_and_rcm_restore_the_locality_of_a_shuffled_grid() {
    let mut rng = TestRng::new("bfs_and_rcm_restore_the_locality_of_a_shuffled_grid");
    let (w, h) = (120, 90);
    let grid = grid_graph(&GridSpec::new(w, h, rng.bits())).unwrap();
    let shuffled = random_permutation(&mut rng, w * h).apply(&grid);
    let before = reorder::mean_edge_span(&shuffled);
    assert!(
        before > (w * h / 5) as f64,
        "a random order spans about n/3: {before}"
    );
    let root = rng.below((w * h) as u64) as usize;
    for (name, p) in [
        ("rcm", reorder::rcm(&shuffled)),
        ("bfs", reorder::bfs(&shuffled, root).unwrap()),
    ] {
        let ordered = p.apply(&shuffled);
        let after = reorder::mean_edge_span(&ordered);
        println!(
            "{name}: mean edge span {before:.1} -> {after:.1}, bandwidth {} -> {}",
            reorder::bandwidth(&shuffled),
            reorder::bandwidth(&ordered)
        );
        assert!(
            after * 10.0 <= before,
            "{name}: mean edge span {before:.1} -> {after:.1}, seed {}",
            rng.seed
        );
        // BFS levels of a grid are diamonds of at most 2(w + h) vertices.
        assert!(
            reorder::bandwidth(&ordered) as usize <= 2 * (w + h),
            "{name}: bandwidth {}",
            reorder::bandwidth(&ordered)
        );
    }
    // From a corner (RCM's pseudo-peripheral start) the levels are
    // anti-diagonals, so RCM's bandwidth is at most about the shorter side
    // times two.
    let rcm = reorder::rcm(&shuffled).apply(&shuffled);
    assert!(reorder::bandwidth(&rcm) as usize <= 2 * w.min(h) + 2);
}
