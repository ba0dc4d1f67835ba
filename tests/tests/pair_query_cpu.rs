//! The GPU's per-thread point-to-point query (`gpu_kernels::pair_query`),
//! run on the host: on fresh random graphs (zero weights, unreachable
//! parts, directed and undirected) every distance equals the Dijkstra
//! oracle's, `f32` ones are within the index's rounding bound, and a
//! scratch too small for a query says so instead of answering: a small
//! table never gives a wrong distance.

use sssp::gpu::pairs::{ScratchVecs, host_queries, sample_usage};
use sssp::oracle;
use sssp_tests::TestRng;
use sssp_tests::index_cases::{any_index, one_way_grid, random_f32_case, random_u32_case};

#[test]
fn every_distance_equals_the_oracle_on_random_graphs() {
    let mut rng = TestRng::new("pair_query_random");
    let mut vecs = ScratchVecs::default();
    for case in 0..60 {
        let (graph, context) = random_u32_case(&mut rng, 300, case);
        let h = any_index(&graph);
        let n = graph.num_vertices();
        for _ in 0..8 {
            let s = rng.below(n as u64) as usize;
            let tree = oracle::dijkstra(&graph, s).expect("oracle");
            let pairs: Vec<(usize, usize)> = (0..n).map(|t| (s, t)).collect();
            for (t, d) in host_queries(&h, &mut vecs, &pairs).into_iter().enumerate() {
                assert_eq!(d, Some(tree[t]), "{context}: {s} → {t}");
            }
        }
    }
}

#[test]
fn a_small_scratch_overflows_rather_than_answers_wrong() {
    let mut rng = TestRng::new("pair_query_small_scratch");
    let mut overflowed = 0;
    let mut answered = 0;
    for case in 0..30 {
        let (graph, (w, hgt)) = one_way_grid(&mut rng, (5, 30), 0.0);
        let h = any_index(&graph);
        let context = format!("case {case}, grid {w}×{hgt}, seed {}", rng.seed);
        let table = 1 << rng.range(1, 7);
        let heap = rng.range(1, 40) as usize;
        let mut vecs = ScratchVecs::new(table, heap);
        let n = graph.num_vertices();
        for _ in 0..4 {
            let s = rng.below(n as u64) as usize;
            let tree = oracle::dijkstra(&graph, s).expect("oracle");
            let pairs: Vec<(usize, usize)> = (0..n).map(|t| (s, t)).collect();
            for (t, d) in host_queries(&h, &mut vecs, &pairs).into_iter().enumerate() {
                match d {
                    Some(d) => {
                        answered += 1;
                        assert_eq!(
                            d, tree[t],
                            "{context}: table {table}, heap {heap}: {s} → {t}"
                        );
                    }
                    None => overflowed += 1,
                }
            }
        }
    }
    assert!(overflowed > 0, "some queries outgrow the small tables");
    assert!(answered > 0, "some queries fit");
}

#[test]
fn f32_distances_are_within_the_index_bound() {
    let mut rng = TestRng::new("pair_query_f32");
    let mut vecs = ScratchVecs::default();
    for case in 0..40 {
        let (graph, context) = random_f32_case(&mut rng, 200, case);
        let h = any_index(&graph);
        let n = graph.num_vertices();
        for _ in 0..4 {
            let s = rng.below(n as u64) as usize;
            let targets: Vec<usize> = (0..n).collect();
            let pairs: Vec<(usize, usize)> = targets.iter().map(|&t| (s, t)).collect();
            let words: Vec<u32> = host_queries(&h, &mut vecs, &pairs)
                .into_iter()
                .map(|d| d.expect("fits"))
                .collect();
            oracle::check_f32_index(&graph, s, Some(&targets), &words, h.num_levels())
                .unwrap_or_else(|e| panic!("{context}: source {s}: {e}"));
        }
    }
}

#[test]
fn the_sample_measures_what_queries_use() {
    let mut rng = TestRng::new("pair_query_sample");
    let (graph, _) = one_way_grid(&mut rng, (20, 60), 0.0);
    let h = any_index(&graph);
    let usage = sample_usage(&h);
    assert!(
        usage.entries >= 2,
        "a query reaches its two ends: {usage:?}"
    );
    assert!(usage.keys >= 1, "{usage:?}");
    assert!(
        (usage.entries as usize) <= graph.num_vertices(),
        "no more entries than vertices: {usage:?}"
    );
}
