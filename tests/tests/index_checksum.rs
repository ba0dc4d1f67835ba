//! The graph checksum an index stores covers what the hierarchy depends on:
//! the vertex count, the weight kind and the lightest arc of each pair of
//! vertices, self-loops left out. Files of one graph that differ in the
//! order of arcs, in heavier parallel arcs or in self-loops share their
//! index (as the CLI's graph, arcs as in the file, and Python's, parallel
//! arcs merged to the lightest, do); a graph with the same vertices and
//! another lightest arc is refused as such.

use sssp::ch::index::graph_checksum;
use sssp::ch::{self, BuildOptions, Hierarchy};
use sssp::{Error, Graph};
use sssp_tests::{TempDir, TestRng, random_graph};

/// The arcs of `graph` as `(tail, head, weight)`.
fn arcs(graph: &Graph) -> Vec<(u32, u32, u32)> {
    let csr = graph.csr();
    (0..graph.num_vertices())
        .flat_map(|u| csr.edges(u).map(move |(v, w)| (u as u32, v as u32, w)))
        .collect()
}

/// `graph` with its arcs shuffled, heavier copies of some arcs and
/// self-loops added: the same lightest graph.
fn same_lightest(rng: &mut TestRng, graph: &Graph) -> Graph<'static> {
    let mut edges = arcs(graph);
    let n = graph.num_vertices() as u64;
    for k in 0..edges.len() / 3 {
        let (u, v, w) = edges[k];
        edges.push((u, v, w + rng.below(4) as u32));
        let loop_at = rng.below(n) as u32;
        edges.push((loop_at, loop_at, rng.below(9) as u32));
    }
    for i in (1..edges.len()).rev() {
        edges.swap(i, rng.below(i as u64 + 1) as usize);
    }
    Graph::from_edges(graph.num_vertices(), &edges).expect("graph")
}

/// `graph` with parallel arcs merged to the lightest and self-loops dropped,
/// each vertex's arcs sorted (what Python's `load` gives).
fn merged(graph: &Graph) -> Graph<'static> {
    let mut edges = arcs(graph);
    edges.retain(|&(u, v, _)| u != v);
    edges.sort_unstable();
    edges.dedup_by_key(|&mut (u, v, _)| (u, v));
    Graph::from_edges(graph.num_vertices(), &edges).expect("graph")
}

/// An index of `built` saved and checked against `used`.
fn check(built: &Graph, used: &Graph, dir: &TempDir) -> sssp::Result<()> {
    let path = dir.path("index.ch");
    ch::build(built, &BuildOptions::default())?.save(&path)?;
    Hierarchy::load(&path)?.check_graph(used, &path)
}

#[test]
fn parallel_arcs_self_loops_and_arc_order_do_not_change_the_checksum() {
    let mut rng = TestRng::new("index_checksum_same");
    let dir = TempDir::new("index_checksum_same");
    for case in 0..8 {
        let n = rng.range(2, 150) as usize;
        let m = rng.range(n as u64, 4 * n as u64) as usize;
        let graph = random_graph(&mut rng, n, m, [3, 50, 1000][case % 3]);
        let context = format!("graph {case} (n {n}, m {m})");
        let other = same_lightest(&mut rng, &graph);
        let lightest = merged(&graph);
        assert_eq!(graph_checksum(&graph), graph_checksum(&other), "{context}");
        assert_eq!(
            graph_checksum(&graph),
            graph_checksum(&lightest),
            "{context}"
        );
        for (built, used) in [(&graph, &other), (&other, &lightest), (&lightest, &graph)] {
            check(built, used, &dir).unwrap_or_else(|e| panic!("{context}: {e}"));
        }
    }
}

#[test]
fn another_lightest_arc_is_the_same_vertices_but_other_arcs() {
    let mut rng = TestRng::new("index_checksum_other");
    let dir = TempDir::new("index_checksum_other");
    for case in 0..8 {
        let n = rng.range(2, 150) as usize;
        let graph = merged(&random_graph(&mut rng, n, 3 * n, 100));
        let mut edges = arcs(&graph);
        if edges.is_empty() {
            continue;
        }
        let k = rng.below(edges.len() as u64) as usize;
        // A lighter parallel arc (a heavier one changes nothing), or a
        // lightest arc raised: scipy's sum of parallel arcs does that.
        if case % 2 == 0 && edges[k].2 > 0 {
            let (u, v, w) = edges[k];
            edges.push((u, v, w - 1));
        } else {
            edges[k].2 += 1;
        }
        let other = Graph::from_edges(n, &edges).expect("graph");
        assert_ne!(
            graph_checksum(&graph),
            graph_checksum(&other),
            "case {case}"
        );
        match check(&graph, &other, &dir) {
            Err(Error::Index { reason, .. }) => {
                assert!(
                    reason.contains("the same vertices but other arcs"),
                    "{reason}"
                )
            }
            other => panic!("case {case}: expected the other arcs refused, got {other:?}"),
        }
    }
}

/// rome99 as the CLI reads it (its parallel arcs kept) and as Python's
/// `load` gives it (merged to the lightest): one index serves both.
#[test]
fn one_rome99_index_for_the_file_and_its_lightest_arcs() {
    let path = sssp_tests::find_graph("rome99.gr");
    let graph = sssp::formats::load(&path, None)
        .and_then(|loaded| loaded.into_graph())
        .expect("rome99");
    let lightest = merged(&graph);
    assert!(
        lightest.num_edges() < graph.num_edges(),
        "rome99 has parallel arcs"
    );
    let dir = TempDir::new("index_checksum_rome99");
    check(&graph, &lightest, &dir).expect("the file's index for the merged graph");
    check(&lightest, &graph, &dir).expect("the merged graph's index for the file");
}
