//! PHAST on the GPU against the oracle: trees from contraction hierarchies of
//! random graphs and grids, in batches of several sizes (full and partial
//! batches, one lane and several warps per vertex), and rome99; with `f32`
//! weights, trees and tables equal the CPU sweep's bit for bit and are
//! within the index's rounding bound of the `f64` oracle.
//! Ignored unless run with `--include-ignored` on a machine with a CUDA GPU.

use sssp::ch::{self, BuildOptions};
use sssp::generate::{GridSpec, grid_graph};
use sssp::graph::WeightKind;
use sssp::options::Timing;
use sssp::{Graph, Solver, formats, oracle};
use sssp_tests::{F32Weights, TestRng, find_graph, random_f32_graph, random_graph};

/// The index of `graph`, whatever its shortcuts cost: random graphs have no
/// hierarchy to speak of.
fn build_unbounded(graph: &Graph, context: &str) -> ch::Hierarchy {
    let options = BuildOptions {
        max_core_ratio: usize::MAX,
        ..BuildOptions::default()
    };
    ch::build(graph, &options).unwrap_or_else(|e| panic!("{context}: {e}"))
}

fn check_trees(solver: &Solver, graph: &Graph, sources: &[usize], lanes: u32, context: &str) {
    let h = build_unbounded(graph, context);
    let mut trees = solver
        .index_trees(&h, Some(lanes))
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    assert!(
        trees.gpu_shape().is_some(),
        "{context}: the trees run on the GPU"
    );
    let timing = Timing { warmup: 1, runs: 2 };
    let (rows, times) = trees
        .solve(sources, timing)
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    assert_eq!(times.trees, 2 * sources.len());
    assert_eq!(rows.len(), sources.len());
    let cpu = ch::phast::trees(&h, sources);
    for ((row, &s), cpu) in rows.iter().zip(sources).zip(cpu) {
        assert_eq!(row.source, s);
        assert!(
            row.dist == cpu,
            "{context}: tree of source {s} differs from the CPU sweep's"
        );
        match graph.weight_kind() {
            WeightKind::U32 => {
                let expected = oracle::dijkstra(graph, s).expect("oracle");
                assert!(
                    row.dist == expected,
                    "{context}: tree of source {s} differs from the oracle's"
                );
            }
            WeightKind::F32 => {
                oracle::check_f32_index(graph, s, None, &row.dist, h.num_levels())
                    .unwrap_or_else(|e| panic!("{context}: tree of source {s}: {e}"));
            }
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn phast_trees_match_the_oracle_on_random_graphs_in_every_batch_shape() {
    let solver = Solver::new(sssp::Device::Gpu(0)).expect("a GPU");
    let mut rng = TestRng::new("gpu_ch::phast_random");
    for case in 0..60 {
        let n = rng.range(1, 1500) as usize;
        let m = rng.below(3 * n as u64 + 1) as usize;
        let max_weight = [0u32, 1, 10, 1000][rng.below(4) as usize];
        let graph = random_graph(&mut rng, n, m, max_weight);
        let lanes = [1u32, 5, 32, 64, 96][rng.below(5) as usize];
        let count = rng.range(1, 2 * lanes as u64 + 3) as usize;
        let sources: Vec<usize> = (0..count).map(|_| rng.below(n as u64) as usize).collect();
        check_trees(
            &solver,
            &graph,
            &sources,
            lanes,
            &format!("case {case} (n {n}, m {m}, lanes {lanes})"),
        );
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn f32_phast_trees_and_tables_are_the_cpu_sweeps_and_within_the_bound() {
    let solver = Solver::new(sssp::Device::Gpu(0)).expect("a GPU");
    let mut rng = TestRng::new("gpu_ch::phast_f32");
    let styles = F32Weights::FINITE_SUMS;
    for case in 0..40 {
        let n = rng.range(1, 1500) as usize;
        let m = rng.below(3 * n as u64 + 1) as usize;
        let style = styles[rng.below(styles.len() as u64) as usize];
        let graph = random_f32_graph(&mut rng, n, m, style);
        let lanes = [1u32, 5, 32, 64, 96][rng.below(5) as usize];
        let count = rng.range(1, 2 * lanes as u64 + 3) as usize;
        let sources: Vec<usize> = (0..count).map(|_| rng.below(n as u64) as usize).collect();
        let context = format!("case {case} (n {n}, m {m}, {style:?}, lanes {lanes})");
        check_trees(&solver, &graph, &sources, lanes, &context);
        // The GPU table gathers the same sweep's columns.
        let h = build_unbounded(&graph, &context);
        let mut trees = solver.index_trees(&h, Some(lanes)).expect("trees");
        let targets: Vec<usize> = (0..rng.range(1, 50))
            .map(|_| rng.below(n as u64) as usize)
            .collect();
        let (table, _) = trees.table(&sources, &targets).expect("table");
        let cpu = ch::phast::trees(&h, &sources);
        for (i, row) in table.chunks(targets.len()).enumerate() {
            let expected: Vec<u32> = targets.iter().map(|&t| cpu[i][t]).collect();
            assert_eq!(row, &expected[..], "{context}: table row {i}");
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn phast_trees_match_the_oracle_on_grids_and_rome99() {
    let solver = Solver::new(sssp::Device::Gpu(0)).expect("a GPU");
    let mut rng = TestRng::new("gpu_ch::phast_grids");
    for case in 0..3 {
        let (w, h) = (rng.range(50, 400) as usize, rng.range(50, 400) as usize);
        let graph = grid_graph(&GridSpec::new(w, h, rng.bits())).expect("grid");
        let n = graph.num_vertices();
        let sources: Vec<usize> = (0..40).map(|_| rng.below(n as u64) as usize).collect();
        check_trees(
            &solver,
            &graph,
            &sources,
            32,
            &format!("grid {case} ({w}×{h})"),
        );
    }
    let graph = formats::load(find_graph("rome99.gr"), None)
        .and_then(|g| g.into_graph())
        .expect("rome99");
    let sources: Vec<usize> = (0..70).map(|i| i * 47).collect();
    check_trees(&solver, &graph, &sources, 32, "rome99");
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn gpu_tables_and_pipelined_trees_match_the_oracle() {
    let solver = Solver::new(sssp::Device::Gpu(0)).expect("a GPU");
    let mut rng = TestRng::new("gpu_ch::tables");
    for case in 0..8 {
        let (w, hgt) = (rng.range(20, 200) as usize, rng.range(20, 200) as usize);
        let graph = grid_graph(&GridSpec::new(w, hgt, rng.bits())).expect("grid");
        let n = graph.num_vertices();
        let h = ch::build(&graph, &BuildOptions::default()).expect("build");
        let lanes = [1u32, 32, 64, 256][rng.below(4) as usize];
        let mut trees = solver.index_trees(&h, Some(lanes)).expect("trees");
        let sources: Vec<usize> = (0..rng.range(1, 300))
            .map(|_| rng.below(n as u64) as usize)
            .collect();
        let targets: Vec<usize> = (0..rng.range(1, 200))
            .map(|_| rng.below(n as u64) as usize)
            .collect();
        let (table, _) = trees.table(&sources, &targets).expect("table");
        assert_eq!(table.len(), sources.len() * targets.len());
        let cpu = ch::query::table(&h, &sources, &targets);
        for (i, &s) in sources.iter().enumerate() {
            let expected = oracle::dijkstra(&graph, s).expect("oracle");
            for (j, &t) in targets.iter().enumerate() {
                let context = format!("case {case} ({w}×{hgt}, lanes {lanes}): {s} → {t}");
                assert_eq!(table[i * targets.len() + j], expected[t], "{context} (GPU)");
                assert_eq!(cpu[i * targets.len() + j], expected[t], "{context} (CPU)");
            }
        }
        let ms = trees.trees_on_device(&sources).expect("pipelined trees");
        assert!(
            ms.is_some_and(|ms| ms > 0.0),
            "case {case}: a time for the trees on the GPU"
        );
    }
}
