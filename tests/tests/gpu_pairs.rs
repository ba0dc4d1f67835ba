//! Batched point-to-point distances on the GPU (`sssp::gpu::pairs`): on
//! fresh random graphs and grids (zero weights, unreachable parts, `u32`
//! and `f32` weights) every distance equals the CPU's batched pairs, and
//! `u32` ones the Dijkstra oracle's; tables too small for most queries send
//! them to the CPU and still give every distance; batches of several sizes
//! reuse the scratch (epochs) without stale entries; a vertex out of range
//! is an error naming its pair. Needs a CUDA GPU.

use sssp::ch::Hierarchy;
use sssp::ch::pairs::pair_distances;
use sssp::gpu::pairs::GpuPairs;
use sssp::{Error, Graph, oracle};
use sssp_tests::gpu::gpu;
use sssp_tests::index_cases::{any_index, one_way_grid, random_f32_case};
use sssp_tests::{TestRng, random_graph};

/// `count` random pairs of `n` vertices.
fn random_pairs(rng: &mut TestRng, n: usize, count: usize) -> Vec<(usize, usize)> {
    (0..count)
        .map(|_| (rng.below(n as u64) as usize, rng.below(n as u64) as usize))
        .collect()
}

/// The GPU's distances of `pairs` against the CPU's and, for `u32`
/// weights, the oracle's.
fn check(
    on_gpu: &mut GpuPairs,
    graph: &Graph,
    h: &Hierarchy,
    pairs: &[(usize, usize)],
    context: &str,
) {
    let dist = on_gpu
        .distances(pairs)
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    let cpu = pair_distances(h, pairs).expect("cpu pairs");
    assert_eq!(dist.len(), pairs.len(), "{context}");
    for (i, ((&(s, t), &d), &c)) in pairs.iter().zip(&dist).zip(&cpu).enumerate() {
        assert_eq!(d, c, "{context}: pair {i}: {s} → {t}, GPU against CPU");
    }
    if graph.weight_kind() == sssp::graph::WeightKind::U32 {
        let mut trees = std::collections::HashMap::new();
        for (i, (&(s, t), &d)) in pairs.iter().zip(&dist).enumerate() {
            let tree = trees
                .entry(s)
                .or_insert_with(|| oracle::dijkstra(graph, s).expect("oracle"));
            assert_eq!(
                d, tree[t],
                "{context}: pair {i}: {s} → {t}, GPU against the oracle"
            );
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn gpu_pairs_equal_the_oracle_on_random_graphs() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_pairs_random");
    for case in 0..40 {
        let n = rng.range(1, 300) as usize;
        let m = rng.below((n * 3) as u64 + 1) as usize;
        let max_weight = [0u32, 1, 10, 1000][rng.below(4) as usize];
        let mut graph = random_graph(&mut rng, n, m, max_weight);
        if rng.chance(0.5) {
            graph = graph.undirected().expect("undirected");
        }
        let h = any_index(&graph);
        let mut on_gpu = GpuPairs::new(&gpu, &h).expect("upload");
        let context = format!(
            "case {case} (n {n}, m {m}, max weight {max_weight}, seed {})",
            rng.seed
        );
        // Batches of several sizes through the same scratch.
        for count in [0, 1, 37, 1000, 5000] {
            let pairs = random_pairs(&mut rng, n, count);
            check(
                &mut on_gpu,
                &graph,
                &h,
                &pairs,
                &format!("{context}, {count} pairs"),
            );
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn gpu_pairs_are_exact_on_grids_with_tables_of_every_size() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_pairs_grids");
    for case in 0..6 {
        let (graph, (w, hgt)) = one_way_grid(&mut rng, (20, 120), 0.1);
        let h = any_index(&graph);
        let mut on_gpu = GpuPairs::new(&gpu, &h).expect("upload");
        let context = format!("case {case}, grid {w}×{hgt}, seed {}", rng.seed);
        let pairs = random_pairs(&mut rng, graph.num_vertices(), 20_000);
        check(
            &mut on_gpu,
            &graph,
            &h,
            &pairs,
            &format!("{context}, sized scratch"),
        );
        let sized = on_gpu.overflowed();
        // Tables and heaps too small for most queries: the CPU answers those.
        let (table, heap) = (1 << rng.range(1, 6), rng.range(1, 64) as u32);
        on_gpu.set_scratch_shape(table, heap).expect("shape");
        check(
            &mut on_gpu,
            &graph,
            &h,
            &pairs,
            &format!("{context}, table {table}, heap {heap}"),
        );
        assert!(
            on_gpu.overflowed() > sized,
            "{context}: tables of {table} and heaps of {heap} overflow"
        );
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn gpu_f32_pairs_equal_the_cpu_within_the_index_bound() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_pairs_f32");
    for case in 0..30 {
        let (graph, context) = random_f32_case(&mut rng, 200, case);
        let n = graph.num_vertices();
        let h = any_index(&graph);
        let mut on_gpu = GpuPairs::new(&gpu, &h).expect("upload");
        let s = rng.below(n as u64) as usize;
        let targets: Vec<usize> = (0..n).collect();
        let pairs: Vec<(usize, usize)> = targets.iter().map(|&t| (s, t)).collect();
        let dist = on_gpu.distances(&pairs).expect("gpu pairs");
        oracle::check_f32_index(&graph, s, Some(&targets), &dist, h.num_levels())
            .unwrap_or_else(|e| panic!("{context}: source {s}: {e}"));
        let more = random_pairs(&mut rng, n, 2000);
        check(&mut on_gpu, &graph, &h, &more, &context);
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn a_vertex_out_of_range_is_an_error_naming_its_pair() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_pairs_bad_ids");
    let graph = random_graph(&mut rng, 50, 150, 10);
    let h = any_index(&graph);
    let mut on_gpu = GpuPairs::new(&gpu, &h).expect("upload");
    let mut pairs = random_pairs(&mut rng, 50, 100);
    pairs[71] = (3, 50);
    match on_gpu.distances(&pairs) {
        Err(Error::InvalidArgument(message)) => {
            assert!(
                message.contains("pair 71") && message.contains("50"),
                "{message}"
            )
        }
        other => panic!("expected an error naming pair 71, got {other:?}"),
    }
    assert!(
        on_gpu.set_scratch_shape(3, 4).is_err(),
        "a table of 3 entries"
    );
}
