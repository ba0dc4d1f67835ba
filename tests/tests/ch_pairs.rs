//! Batched point-to-point queries of the contraction-hierarchy index
//! (`sssp::ch::pairs`): every distance of random pairs (sources with one
//! target and sources with many, answered one-to-many; unreachable parts;
//! zero weights) equals the Dijkstra oracle's, `f32` ones are within the
//! index's rounding bound, every unpacked path is a path of the graph of the
//! pair's length, a vertex out of range is an error naming its pair, and a
//! query allocates nothing of the graph's size once its thread is warm.

use std::collections::HashMap;

use sssp::ch::pairs::{MANY_TARGETS, pair_distances, pair_paths};
use sssp::ch::{self, BuildOptions, Hierarchy};
use sssp::generate::{GridSpec, grid_graph};
use sssp::{Error, Graph, oracle};
use sssp_tests::allocation::{LargestAllocation, largest_allocation};
use sssp_tests::index_cases::{any_index, one_way_grid, random_u32_case};
use sssp_tests::queries::check_path;
use sssp_tests::{F32Weights, TestRng, random_f32_graph, random_graph};

#[global_allocator]
static ALLOCATOR: LargestAllocation = LargestAllocation;

/// A random graph of up to `max_n` vertices ([`random_u32_case`]), its
/// index, and a description of case `case`.
fn random_index(rng: &mut TestRng, max_n: u64, case: usize) -> (Graph<'static>, Hierarchy, String) {
    let (graph, context) = random_u32_case(rng, max_n, case);
    let h = any_index(&graph);
    (graph, h, context)
}

/// Random pairs of `n` vertices: single pairs, and a few sources with
/// `MANY_TARGETS` targets or more (repeated targets included).
fn random_pairs(rng: &mut TestRng, n: usize, many: usize) -> Vec<(usize, usize)> {
    let vertex = |rng: &mut TestRng| rng.below(n as u64) as usize;
    let mut pairs: Vec<(usize, usize)> = (0..rng.range(0, 200))
        .map(|_| (vertex(rng), vertex(rng)))
        .collect();
    for _ in 0..rng.range(1, 3) {
        let s = vertex(rng);
        let count = rng.range(MANY_TARGETS as u64, many as u64);
        pairs.extend((0..count).map(|_| (s, vertex(rng))));
    }
    // Shuffled, so that the grouping by source has work to do.
    for i in (1..pairs.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        pairs.swap(i, j);
    }
    pairs
}

/// The oracle's tree of each source of `pairs`.
fn oracle_trees(graph: &Graph, pairs: &[(usize, usize)]) -> HashMap<usize, Vec<u32>> {
    let mut trees = HashMap::new();
    for &(s, _) in pairs {
        trees
            .entry(s)
            .or_insert_with(|| oracle::dijkstra(graph, s).expect("oracle"));
    }
    trees
}

/// Every distance and path of `pairs` against the oracle (`u32` weights).
fn check_u32(graph: &Graph, h: &Hierarchy, pairs: &[(usize, usize)], context: &str) {
    let trees = oracle_trees(graph, pairs);
    let dist = pair_distances(h, pairs).expect("pair distances");
    assert_eq!(dist.len(), pairs.len(), "{context}: one distance a pair");
    for (i, (&(s, t), &d)) in pairs.iter().zip(&dist).enumerate() {
        assert_eq!(d, trees[&s][t], "{context}: pair {i}: {s} → {t}");
    }
    let paths = pair_paths(h, pairs).expect("pair paths");
    assert_eq!(paths.dist, dist, "{context}: the paths' distances");
    assert_eq!(paths.offsets.len(), pairs.len() + 1);
    for (i, &(s, t)) in pairs.iter().enumerate() {
        let path = &paths.vertices[paths.offsets[i]..paths.offsets[i + 1]];
        if dist[i] == u32::MAX {
            assert!(path.is_empty(), "{context}: pair {i} unreachable, no path");
        } else {
            check_path(
                graph,
                path,
                (s, t),
                dist[i],
                &format!("{context}: pair {i}"),
            );
        }
    }
}

#[test]
fn pair_distances_and_paths_match_the_oracle_on_random_graphs() {
    let mut rng = TestRng::new("ch_pairs_random");
    for case in 0..60 {
        let (graph, h, context) = random_index(&mut rng, 300, case);
        let pairs = random_pairs(&mut rng, graph.num_vertices(), 400);
        check_u32(&graph, &h, &pairs, &context);
    }
}

#[test]
fn a_source_with_thousands_of_targets_matches_the_oracle_on_a_grid() {
    let mut rng = TestRng::new("ch_pairs_grid");
    // One-way streets: some arcs dropped, so some pairs are unreachable.
    let (graph, (w, hgt)) = one_way_grid(&mut rng, (20, 50), 0.15);
    let h = ch::build(&graph, &BuildOptions::default()).expect("build");
    let n = graph.num_vertices();
    // More targets than one task takes: the source is split over tasks.
    let mut pairs = random_pairs(&mut rng, n, 300);
    let s = rng.below(n as u64) as usize;
    pairs.extend((0..10_000).map(|_| (s, rng.below(n as u64) as usize)));
    let trees = oracle_trees(&graph, &pairs);
    let dist = pair_distances(&h, &pairs).expect("pair distances");
    for (i, (&(s, t), &d)) in pairs.iter().zip(&dist).enumerate() {
        assert_eq!(d, trees[&s][t], "grid {w}×{hgt}: pair {i}: {s} → {t}");
        assert_eq!(d, ch::query::distance(&h, s, t), "pair {i}: as one query");
    }
}

#[test]
fn f32_pair_distances_and_paths_are_within_the_index_bound() {
    let mut rng = TestRng::new("ch_pairs_f32");
    let styles = F32Weights::FINITE_SUMS;
    for case in 0..40 {
        let n = rng.range(1, 200) as usize;
        let m = rng.below((n * 3) as u64 + 1) as usize;
        let style = styles[rng.below(styles.len() as u64) as usize];
        let mut graph = random_f32_graph(&mut rng, n, m, style);
        if rng.chance(0.5) {
            graph = graph.undirected().expect("undirected");
        }
        let h = any_index(&graph);
        let levels = h.num_levels();
        let pairs = random_pairs(&mut rng, n, 300);
        let context = format!("case {case} (n {n}, m {m}, {style:?})");
        let dist = pair_distances(&h, &pairs).expect("pair distances");
        let mut by_source: HashMap<usize, (Vec<usize>, Vec<u32>)> = HashMap::new();
        for (&(s, t), &d) in pairs.iter().zip(&dist) {
            let (targets, words) = by_source.entry(s).or_default();
            targets.push(t);
            words.push(d);
        }
        for (s, (targets, words)) in by_source {
            oracle::check_f32_index(&graph, s, Some(&targets), &words, levels)
                .unwrap_or_else(|e| panic!("{context}: pairs of source {s}: {e}"));
        }
        let paths = pair_paths(&h, &pairs).expect("pair paths");
        for (i, &(s, t)) in pairs.iter().enumerate() {
            let path = &paths.vertices[paths.offsets[i]..paths.offsets[i + 1]];
            if paths.dist[i] == u32::MAX {
                assert_eq!(dist[i], u32::MAX, "{context}: pair {i} unreachable");
                continue;
            }
            oracle::check_f32_index_path(&graph, (s, t), path, paths.dist[i], levels)
                .unwrap_or_else(|e| panic!("{context}: path of pair {i}: {e}"));
        }
    }
}

#[test]
fn a_vertex_out_of_range_is_an_error_naming_its_pair() {
    let mut rng = TestRng::new("ch_pairs_bad_ids");
    let graph = random_graph(&mut rng, 50, 150, 10);
    let h = any_index(&graph);
    let mut pairs: Vec<(usize, usize)> = (0..100).map(|i| (i % 50, (i * 7) % 50)).collect();
    assert!(pair_distances(&h, &[]).expect("no pairs").is_empty());
    for (at, bad) in [(3, (50, 1)), (97, (2, 1 << 40)), (0, (usize::MAX, 0))] {
        let kept = pairs[at];
        pairs[at] = bad;
        for result in [
            pair_distances(&h, &pairs).map(drop),
            pair_paths(&h, &pairs).map(drop),
        ] {
            let Err(Error::InvalidArgument(message)) = result else {
                panic!("pair {at} {bad:?}: expected an error, got {result:?}");
            };
            let id = if bad.0 >= 50 { bad.0 } else { bad.1 };
            assert!(
                message.contains(&format!("pair {at} ")) && message.contains(&id.to_string()),
                "the message names the pair and the vertex: {message}"
            );
        }
        pairs[at] = kept;
    }
}

#[test]
fn a_warm_query_allocates_nothing_of_the_graphs_size() {
    let mut rng = TestRng::new("ch_pairs_allocation");
    let graph = grid_graph(&GridSpec::new(150, 150, rng.bits())).expect("grid");
    let h = ch::build(&graph, &BuildOptions::default()).expect("build");
    let n = graph.num_vertices();
    let vertex = |rng: &mut TestRng| rng.below(n as u64) as usize;
    // Warm: this thread's search arrays now hold n entries.
    for _ in 0..50 {
        ch::query::distance(&h, vertex(&mut rng), vertex(&mut rng));
    }
    for _ in 0..50 {
        let (s, t) = (vertex(&mut rng), vertex(&mut rng));
        let (_, bytes) = largest_allocation(|| ch::query::distance(&h, s, t));
        assert!(
            bytes < n,
            "a query {s} → {t} allocated {bytes} bytes in a graph of {n} vertices"
        );
    }
}

#[test]
fn point_to_point_queries_of_both_arc_forms_match_the_oracle() {
    // Enough single pairs that `pair_distances` reads a query graph built
    // for them (merged up and down rows, or one row for a symmetric index),
    // each also asked as one query over the index's own arcs; pairs from a
    // vertex to itself, unreachable pairs and zero weights included.
    let mut rng = TestRng::new("ch_pairs_arc_forms");
    for case in 0..40 {
        let (graph, h, context) = random_index(&mut rng, 400, case);
        let n = graph.num_vertices();
        let vertex = |rng: &mut TestRng| rng.below(n as u64) as usize;
        let mut pairs: Vec<(usize, usize)> = (0..n.max(64))
            .map(|_| (vertex(&mut rng), vertex(&mut rng)))
            .collect();
        pairs.extend((0..8).map(|_| vertex(&mut rng)).map(|v| (v, v)));
        let context = format!("{context}, seed {}", rng.seed);
        let trees = oracle_trees(&graph, &pairs);
        let dist = pair_distances(&h, &pairs).expect("pair distances");
        for (i, (&(s, t), &d)) in pairs.iter().zip(&dist).enumerate() {
            let expected = trees[&s][t];
            assert_eq!(d, expected, "{context}: pair {i}: {s} → {t}, batched");
            let one = ch::query::distance(&h, s, t);
            assert_eq!(one, expected, "{context}: pair {i}: {s} → {t}, one query");
        }
    }
}
