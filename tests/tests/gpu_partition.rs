//! The partition-local solver on the GPU against the oracle, resident and
//! paged: random graphs with random window widths and several sources per
//! prepared solver, `f32` weights, grids up to a million vertices, rome99,
//! paged mode with many more pieces than blocks, and a 2048² grid too large
//! for resident mode, shortcuts in both modes with trees and paths. Ignored unless run with `--include-ignored` on a
//! machine with a CUDA GPU.

use gpu_kernels::launch::{PARTITION_BLOCK_SIZE, PARTITION_BLOCK_SIZES};
use sssp::algorithms::Algorithm;
use sssp::auto::plan::Solves;
use sssp::generate::{GridSpec, grid_graph};
use sssp::gpu::context::Gpu;
use sssp::gpu::solver::GpuSolver;
use sssp::partition::growth::Growth;
use sssp::partition::options::{Paging, PartitionOptions, PartitionTuning};
use sssp::partition::shortcuts::Shortcuts;
use sssp::partition::solver::Partition;
use sssp::solver::{Query, Solver};
use sssp::{Graph, formats, oracle};
use sssp_tests::gpu::gpu;
use sssp_tests::{
    F32Weights, TestRng, check_against_oracle, check_tree, find_graph, random_f32_graph,
    random_graph as random_edges,
};

/// Prepares the solver once and checks every distance from each source.
/// Returns the solver, to ask how it was laid out.
fn check<'a>(
    gpu: &'a Gpu,
    graph: &Graph,
    sources: &[usize],
    options: &PartitionOptions,
    context: &str,
) -> Partition<'a> {
    let context = format!("{context}, {options:?}");
    let mut solver =
        Partition::new(gpu, graph, options).unwrap_or_else(|e| panic!("{context}: {e}"));
    let shape = format!(
        "{} pieces of at most {}, edges in {} memory, paged blocks {:?}",
        solver.pieces(),
        solver.capacity(),
        if solver.edges_in_shared_memory() {
            "shared"
        } else {
            "global"
        },
        solver.paged_blocks()
    );
    for &source in sources {
        let result = solver
            .run(source as u32)
            .and_then(|stats| Ok((solver.distances()?, stats.iterations)));
        let context = format!("{context}, {shape}, source {source}");
        if let Some(rounds) =
            check_against_oracle(&oracle::dijkstra(graph, source), result, &context)
        {
            eprintln!("{context}: {rounds} rounds at most in a block");
        }
    }
    solver
}

/// One of the block sizes the partition solver may be launched with.
fn random_block_size(rng: &mut TestRng) -> u32 {
    PARTITION_BLOCK_SIZES[rng.below(PARTITION_BLOCK_SIZES.len() as u64) as usize]
}

/// Options with window width `delta` and the given paging.
fn options(delta: Option<u32>, paging: Paging) -> PartitionOptions {
    PartitionOptions {
        delta,
        paging,
        ..Default::default()
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn partition_matches_the_oracle_on_random_graphs() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_partition::partition_matches_the_oracle_on_random_graphs");
    for case in 0..40 {
        let n = rng.range(1, 200_000) as usize;
        let m = rng.range(0, 4 * n as u64) as usize;
        let max_weight = [0u32, 1, 10, 1000, 1 << 20][rng.below(5) as usize];
        let graph = random_edges(&mut rng, n, m, max_weight);
        let sources: Vec<usize> = (0..3).map(|_| rng.below(n as u64) as usize).collect();
        let delta = [None, Some(1), Some(rng.range(1, 100_000) as u32)][rng.below(3) as usize];
        let context = format!(
            "case {case}: n = {n}, m = {m}, max weight {max_weight}, seed {}",
            rng.seed
        );
        for paging in [Paging::WhenNeeded, Paging::Always] {
            let options = PartitionOptions {
                tuning: PartitionTuning {
                    edge_lanes: Some(rng.range(1, 32) as u32),
                    chain_hops: Some(rng.range(0, 6) as u32),
                    entries_first: Some(rng.chance(0.5)),
                    growth: [Growth::Breadth, Growth::Compact][rng.below(2) as usize],
                    block_threads: Some(random_block_size(&mut rng)),
                    ..Default::default()
                },
                ..options(delta, paging)
            };
            check(&gpu, &graph, &sources, &options, &context);
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn partition_matches_the_f32_oracle() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_partition::partition_matches_the_f32_oracle");
    for (case, &style) in F32Weights::ALL.iter().enumerate() {
        let n = rng.range(1, 50_000) as usize;
        let m = rng.range(0, 4 * n as u64) as usize;
        let graph = random_f32_graph(&mut rng, n, m, style);
        let source = rng.below(n as u64) as usize;
        let context = format!(
            "case {case}: {style:?}, n = {n}, m = {m}, seed {}",
            rng.seed
        );
        for paging in [Paging::WhenNeeded, Paging::Always] {
            let options = PartitionOptions {
                tuning: PartitionTuning {
                    block_threads: Some(random_block_size(&mut rng)),
                    ..Default::default()
                },
                ..options(None, paging)
            };
            check(&gpu, &graph, &[source], &options, &context);
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn partition_matches_the_oracle_on_grids_and_rome99() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_partition::partition_matches_the_oracle_on_grids_and_rome99");
    for (width, height) in [(1, 1000), (300, 300), (1000, 1000)] {
        let grid = grid_graph(&GridSpec::new(width, height, rng.bits())).unwrap();
        let n = grid.num_vertices() as u64;
        let sources = [0, rng.below(n) as usize, n as usize - 1];
        let context = format!("grid {width}×{height}, seed {}", rng.seed);
        for paging in [Paging::WhenNeeded, Paging::Always] {
            check(&gpu, &grid, &sources, &options(None, paging), &context);
        }
    }
    let rome = find_graph("rome99.gr");
    let rome = formats::load(&rome, None).unwrap();
    let rome = rome.graph().unwrap();
    for delta in [None, Some(1), Some(100_000)] {
        for paging in [Paging::WhenNeeded, Paging::Always] {
            // 3,353 vertices: every piece's edges fit in shared memory.
            let solver = check(
                &gpu,
                &rome,
                &[0, 1000, 3352],
                &options(delta, paging),
                "rome99",
            );
            assert!(
                solver.edges_in_shared_memory(),
                "rome99's edges should be in shared memory"
            );
            assert_eq!(
                solver.paged_blocks().is_some(),
                paging == Paging::Always,
                "rome99 fits resident mode"
            );
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn paged_partition_matches_the_oracle_with_many_more_pieces_than_blocks() {
    let gpu = gpu();
    let mut rng = TestRng::new(
        "gpu_partition::paged_partition_matches_the_oracle_with_many_more_pieces_than_blocks",
    );
    let rome = find_graph("rome99.gr");
    let rome = formats::load(&rome, None).unwrap();
    let rome = rome.graph().unwrap();
    for case in 0..30 {
        let graph = if case % 3 == 0 {
            rome.clone()
        } else {
            let n = rng.range(1, 100_000) as usize;
            let m = rng.range(0, 4 * n as u64) as usize;
            let max_weight = [0u32, 1, 10, 1000, 1 << 20][rng.below(5) as usize];
            random_edges(&mut rng, n, m, max_weight)
        };
        let n = graph.num_vertices();
        let options = PartitionOptions {
            delta: [None, Some(1), Some(rng.range(1, 100_000) as u32)][rng.below(3) as usize],
            paging: Paging::Always,
            capacity: Some(rng.range(1, 600) as u32),
            blocks: Some(rng.range(1, 40) as u32),
            tuning: PartitionTuning {
                shortcuts: [Shortcuts::Auto, Shortcuts::Always][rng.below(2) as usize],
                edge_lanes: [None, Some(rng.range(1, 32) as u32)][rng.below(2) as usize],
                chain_hops: [None, Some(rng.range(0, 6) as u32)][rng.below(2) as usize],
                entries_first: [None, Some(false), Some(true)][rng.below(3) as usize],
                // Paged: the pieces grow breadth-first whatever this says.
                growth: [Growth::Breadth, Growth::Compact][rng.below(2) as usize],
                block_threads: [None, Some(random_block_size(&mut rng))][rng.below(2) as usize],
            },
        };
        let sources: Vec<usize> = (0..3).map(|_| rng.below(n as u64) as usize).collect();
        let context = format!("case {case}: n = {n}, seed {}", rng.seed);
        check(&gpu, &graph, &sources, &options, &context);
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn partition_pages_a_grid_too_large_for_resident_mode() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_partition::partition_pages_a_grid_too_large_for_resident_mode");
    // 12 bytes a vertex in shared memory: 4 M vertices are more than the
    // ~30 MB of an H100's shared memory hold.
    let grid = grid_graph(&GridSpec::new(2048, 2048, rng.bits())).unwrap();
    let n = grid.num_vertices() as u64;
    let context = format!("grid 2048×2048, seed {}", rng.seed);
    let solver = check(
        &gpu,
        &grid,
        &[0, rng.below(n) as usize],
        &options(None, Paging::WhenNeeded),
        &context,
    );
    assert!(solver.paged_blocks().is_some(), "{context}: not paged");
    assert!(
        solver.edges_in_shared_memory(),
        "{context}: edges in global memory"
    );
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn partition_runs_in_blocks_of_every_size_and_refuses_others() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_partition::partition_runs_in_blocks_of_every_size");
    let rome = formats::load(find_graph("rome99.gr"), None).unwrap();
    let rome = rome.graph().unwrap().into_owned();
    let grid = grid_graph(&GridSpec::new(300, 300, rng.bits())).unwrap();
    for (name, graph) in [("rome99", &rome), ("grid 300×300", &grid)] {
        let n = graph.num_vertices() as u64;
        let sources = [0, rng.below(n) as usize, n as usize - 1];
        let context = format!("{name}, seed {}", rng.seed);
        for paging in [Paging::WhenNeeded, Paging::Always] {
            let mut pieces = Vec::new();
            for threads in [None].into_iter().chain(PARTITION_BLOCK_SIZES.map(Some)) {
                let options = PartitionOptions {
                    tuning: PartitionTuning {
                        block_threads: threads,
                        ..Default::default()
                    },
                    ..options(None, paging)
                };
                let solver = check(&gpu, graph, &sources, &options, &context);
                let threads = threads.unwrap_or(PARTITION_BLOCK_SIZE);
                assert_eq!(solver.block_threads(), threads, "{context}");
                let layout = solver.layout().expect("a layout line");
                assert!(
                    layout.contains(&format!(" of {threads} threads")),
                    "{context}: {layout}"
                );
                pieces.push((threads, solver.pieces()));
            }
            // Resident mode: larger blocks, fewer of them a multiprocessor,
            // so fewer and larger pieces.
            if paging == Paging::WhenNeeded {
                let counts: Vec<u32> = pieces[1..].iter().map(|&(_, k)| k).collect();
                assert!(
                    counts.windows(2).all(|w| w[0] >= w[1]) && counts[0] > counts[2],
                    "{context}: pieces by block size {pieces:?}"
                );
            }
        }
    }
    for threads in [0, 32, 300, 512, 1024] {
        let options = PartitionOptions {
            tuning: PartitionTuning {
                block_threads: Some(threads),
                ..Default::default()
            },
            ..options(None, Paging::WhenNeeded)
        };
        match Partition::new(&gpu, &rome, &options) {
            Err(sssp::Error::InvalidArgument(message)) => {
                assert!(message.contains(&format!("not {threads}")), "{message}");
            }
            Err(e) => panic!("blocks of {threads} threads: {e}"),
            Ok(_) => panic!("blocks of {threads} threads were accepted"),
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn partition_with_shortcuts_matches_the_oracle_in_both_modes() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_partition::partition_with_shortcuts_matches_the_oracle");
    let rome = formats::load(find_graph("rome99.gr"), None).unwrap();
    let rome = rome.graph().unwrap().into_owned();
    let mut graphs = vec![
        ("rome99".to_string(), rome),
        (
            "grid 300×300".to_string(),
            grid_graph(&GridSpec::new(300, 300, rng.bits())).unwrap(),
        ),
    ];
    for case in 0..8 {
        let n = rng.range(1, 100_000) as usize;
        let m = rng.range(0, 4 * n as u64) as usize;
        let max_weight = [0u32, 1, 10, 1000, 1 << 20][rng.below(5) as usize];
        let graph = random_edges(&mut rng, n, m, max_weight);
        graphs.push((
            format!("random case {case}, n {n}, m {m}, max weight {max_weight}"),
            graph,
        ));
    }
    for (name, graph) in &graphs {
        let n = graph.num_vertices() as u64;
        let sources = [0, rng.below(n) as usize, n as usize - 1];
        let context = format!("{name}, seed {}", rng.seed);
        for paging in [Paging::WhenNeeded, Paging::Always] {
            for shortcuts in [Shortcuts::Auto, Shortcuts::Always, Shortcuts::Never] {
                let delta =
                    [None, Some(1), Some(rng.range(1, 100_000) as u32)][rng.below(3) as usize];
                let options = PartitionOptions {
                    delta,
                    paging,
                    tuning: PartitionTuning {
                        shortcuts,
                        block_threads: Some(random_block_size(&mut rng)),
                        ..Default::default()
                    },
                    ..Default::default()
                };
                let solver = check(&gpu, graph, &sources, &options, &context);
                // rome99 and the grid are cut into pieces with borders: they
                // get shortcuts when asked for, and by default in resident
                // mode.
                let resident = solver.paged_blocks().is_none();
                let expected = match shortcuts {
                    Shortcuts::Auto => (resident && !name.starts_with("random")).then_some(true),
                    Shortcuts::Always => (!name.starts_with("random")).then_some(true),
                    Shortcuts::Never => Some(false),
                };
                if let Some(expected) = expected {
                    assert_eq!(
                        solver.shortcuts_added() > 0,
                        expected,
                        "{context}, {options:?}: {} shortcuts",
                        solver.shortcuts_added()
                    );
                }
            }
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn partition_with_shortcuts_gives_the_oracles_tree_and_paths() {
    // Parents come from the caller's graph, never from a shortcut.
    let solver = Solver::new(sssp::Device::Gpu(0)).expect("a GPU");
    let mut rng = TestRng::new("gpu_partition::partition_with_shortcuts_gives_the_oracles_tree");
    let rome = formats::load(find_graph("rome99.gr"), None).unwrap();
    let rome = rome.graph().unwrap().into_owned();
    let grid = grid_graph(&GridSpec::new(200, 150, rng.bits())).unwrap();
    for (name, graph) in [("rome99", &rome), ("grid 200×150", &grid)] {
        let n = graph.num_vertices();
        let sources: Vec<usize> = (0..3).map(|_| rng.below(n as u64) as usize).collect();
        let context = format!("{name}, seed {}", rng.seed);
        let query = Query::from_sources(sources.clone())
            .algorithm(Algorithm::Partition)
            .with_parents();
        let solution = solver
            .solve(graph, &query)
            .unwrap_or_else(|e| panic!("{context}: {e}"));
        for row in &solution.rows {
            let expected = oracle::dijkstra(graph, row.source).unwrap();
            let context = format!("{context}, source {}", row.source);
            assert_eq!(row.dist, expected, "{context}: distances");
            let tree = row.parents.as_deref().expect("parents were asked for");
            check_tree(graph, row.source, &expected, tree, &context);
            let target = rng.below(n as u64) as usize;
            if let Some(path) = row.path_to(target).unwrap() {
                let csr = graph.csr();
                let length: u64 = path
                    .windows(2)
                    .map(|step| {
                        csr.edges(step[0])
                            .filter(|&(v, _)| v == step[1])
                            .map(|(_, w)| u64::from(w))
                            .min()
                            .unwrap_or_else(|| {
                                panic!("{context}: no arc {} -> {}", step[0], step[1])
                            })
                    })
                    .sum();
                assert_eq!(
                    length,
                    u64::from(expected[target]),
                    "{context}: path to {target}"
                );
            }
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn prepared_partition_chooses_its_window_in_a_trial_unless_given_one() {
    let solver = Solver::new(sssp::Device::Gpu(0)).expect("a GPU");
    let mut rng = TestRng::new("gpu_partition::prepared_partition_chooses_its_window");
    let rome = formats::load(find_graph("rome99.gr"), None).unwrap();
    let rome = rome.graph().unwrap().into_owned();
    let grid = grid_graph(&GridSpec::new(160, 120, rng.bits())).unwrap();
    let real = random_f32_graph(&mut rng, 3_000, 12_000, F32Weights::Fractional);
    for (name, graph) in [("rome99", &rome), ("grid 160×120", &grid), ("f32", &real)] {
        let n = graph.num_vertices();
        let first = rng.below(n as u64) as usize;
        let context = format!("{name}, seed {}", rng.seed);
        let prepare = |tuning| {
            solver
                .prepare(graph, Algorithm::Partition, tuning, first)
                .unwrap_or_else(|e| panic!("{context}: {e}"))
        };
        let mut prepared = prepare(Default::default());
        let layout = prepared.layout().expect("a layout line");
        let window = prepared.tuning().delta.expect("the trial fixes the window");
        let value = match graph.weight_kind() {
            sssp::graph::WeightKind::U32 => window.to_string(),
            sssp::graph::WeightKind::F32 => f64::from(f32::from_bits(window)).to_string(),
        };
        assert!(
            layout.contains(&format!("window {value}, the fastest in a trial (")),
            "{context}: {layout}"
        );
        let trial = &layout[layout.find("a trial (").unwrap()..];
        assert!(trial.contains(&format!("{value} ")), "{context}: {layout}");
        let lanes = prepared
            .tuning()
            .partition
            .edge_lanes
            .expect("the trial fixes the edge lanes");
        assert!(
            layout.contains(&format!("{lanes} edge lanes, the fastest in a trial (")),
            "{context}: {layout}"
        );
        let hops = prepared
            .tuning()
            .partition
            .chain_hops
            .expect("the trial fixes the chain hops");
        assert!(
            layout.contains(&format!("chains of {hops} hops, the fastest in a trial (")),
            "{context}: {layout}"
        );
        let entries_first = prepared
            .tuning()
            .partition
            .entries_first
            .expect("the trial fixes entries first");
        let entries = if entries_first {
            "entries first"
        } else {
            "entries not first"
        };
        assert!(
            layout.contains(&format!("; {entries}, the faster in a trial (")),
            "{context}: {layout}"
        );
        for _ in 0..3 {
            let source = rng.below(n as u64) as usize;
            let row = prepared
                .solve(source, Default::default(), false, Default::default())
                .unwrap_or_else(|e| panic!("{context}: {e}"));
            assert_eq!(
                row.dist,
                oracle::dijkstra(graph, source).unwrap(),
                "{context}, source {source}"
            );
        }
        // A window, edge lanes and chain hops given are kept: no trial.
        let given = prepare(sssp::options::Tuning {
            delta: Some(window),
            partition: PartitionTuning {
                edge_lanes: Some(lanes),
                chain_hops: Some(hops),
                entries_first: Some(entries_first),
                ..Default::default()
            },
            ..Default::default()
        });
        let layout = given.layout().expect("a layout line");
        assert!(!layout.contains("trial"), "{context}: {layout}");
        assert!(
            layout.contains(&format!("; {lanes} edge lanes")),
            "{context}: {layout}"
        );
        assert_eq!(given.tuning().delta, Some(window), "{context}");
        assert_eq!(
            given.tuning().partition.edge_lanes,
            Some(lanes),
            "{context}"
        );
        assert!(
            layout.contains(&format!("; chains of {hops} hops")),
            "{context}: {layout}"
        );
        assert_eq!(given.tuning().partition.chain_hops, Some(hops), "{context}");
        assert!(
            layout.ends_with(&format!("; {entries}")),
            "{context}: {layout}"
        );
        assert_eq!(
            given.tuning().partition.entries_first,
            Some(entries_first),
            "{context}"
        );
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn auto_tries_partition_with_and_without_shortcuts_and_near_far_on_deep_graphs() {
    let solver = Solver::new(sssp::Device::Gpu(0)).expect("a GPU");
    let mut rng = TestRng::new("gpu_partition::auto_tries_partition_on_deep_graphs");
    let rome = formats::load(find_graph("rome99.gr"), None).unwrap();
    let rome = rome.graph().unwrap().into_owned();
    let grid = grid_graph(&GridSpec::new(150, 150, rng.bits())).unwrap();
    for (name, graph) in [("rome99", &rome), ("grid 150²", &grid)] {
        let n = graph.num_vertices();
        let sources = [0, rng.below(n as u64) as usize];
        let context = format!("{name}, seed {}", rng.seed);
        // Kept for any number of solves: one form of the partition solver
        // against near-far, not the whole trial; the same distances.
        let mut kept = solver
            .prepare(graph, Algorithm::Auto, Default::default(), sources[0])
            .unwrap_or_else(|e| panic!("{context}: {e}"));
        let reason = kept.auto_choice().expect("auto's choice").reason.clone();
        assert!(
            reason.contains("kept for any number of solves") && !reason.contains("in a trial from"),
            "{context}: {reason}"
        );
        for &source in &sources {
            let row = kept
                .solve(source, Default::default(), false, Default::default())
                .unwrap_or_else(|e| panic!("{context}: {e}"));
            assert_eq!(
                row.dist,
                oracle::dijkstra(graph, source).unwrap(),
                "{context}, kept, source {source}"
            );
        }
        drop(kept);
        // Prepared for so many solves that the whole trial pays.
        let mut prepared = solver
            .prepare_for(
                graph,
                Algorithm::Auto,
                Default::default(),
                (sources[0], Solves::Many),
            )
            .unwrap_or_else(|e| panic!("{context}: {e}"));
        let batch = prepared
            .solve_many(&sources, Default::default(), None)
            .unwrap_or_else(|e| panic!("{context}: {e}"));
        let solution = prepared.into_solution(batch.rows);
        let choice = solution.auto.as_ref().expect("auto's choice");
        assert_eq!(
            choice.trial,
            sssp::auto::choice::BUCKETED_CANDIDATES,
            "{context}"
        );
        assert!(
            choice.trial.contains(&solution.algorithm),
            "{context}: {}",
            choice.reason
        );
        // Resident mode adds shortcuts on both: the trial tries without too,
        // and compact pieces with and without.
        for name in [
            "partition ",
            "partition without shortcuts ",
            "partition with compact pieces ",
            "partition with compact pieces without shortcuts ",
            "near-far ",
        ] {
            assert!(
                choice.reason.contains(name),
                "{context}: no time for {name}in {}",
                choice.reason
            );
        }
        // Where the partition solver was the fastest, its pieces are tried
        // in blocks of the other sizes too.
        let other_sizes = PARTITION_BLOCK_SIZES
            .iter()
            .filter(|&&t| t != PARTITION_BLOCK_SIZE)
            .filter(|t| {
                choice
                    .reason
                    .contains(&format!(" in blocks of {t} threads "))
            })
            .count();
        let expected = match solution.algorithm {
            Algorithm::Partition => PARTITION_BLOCK_SIZES.len() - 1,
            _ => 0,
        };
        assert_eq!(other_sizes, expected, "{context}: {}", choice.reason);
        for row in &solution.rows {
            assert_eq!(
                row.dist,
                oracle::dijkstra(graph, row.source).unwrap(),
                "{context}, source {}",
                row.source
            );
        }
    }
}
