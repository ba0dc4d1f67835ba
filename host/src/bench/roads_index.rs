//! `host bench --preset roads-index`: contraction hierarchies on road
//! networks. For each graph: the index's build time and size, time per tree
//! from it (GPU batches left on the device, and CPU), the project's solve
//! without it, point-to-point queries and a many-to-many table, all checked
//! against the oracle; next to GAPBS's single-source solve (`--gapbs`) and
//! RoutingKit's CH (`--routingkit`: the `rk_ch` driver of
//! `../shared/baselines`), run on the same machine in the same run.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Timed runs of the trees left on the device (after a warm-up); the median counts.
const TREE_RUNS: usize = 5;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use super::baseline_report::Report;
use super::real::{GapbsRecord, GraphSize, run_gapbs};
use super::roads_cch::{self, CchRecord};
use sssp::algorithms::Algorithm;
use sssp::auto::plan::Solves;
use sssp::ch::{self, BuildOptions};
use sssp::formats::{self, LoadOptions};
use sssp::graph::Graph;
use sssp::options::Tuning;
use sssp::options::{Stop, Timing};
use sssp::solver::Solver;
use sssp::{Error, Result, oracle};

/// Trees timed on the CPU, the first of the timed sources (each tree is
/// kept, `n` words).
const CPU_TREES: usize = 1024;

/// Random pairs of the batched point-to-point column.
const BATCH_PAIRS: usize = 100_000;

/// Random pairs of the GPU's batched point-to-point column (enough for
/// every resident thread to answer several).
const GPU_BATCH_PAIRS: usize = 1_000_000;

/// Timed calls of the GPU's batched pairs (after a warm-up); the median
/// counts.
const GPU_PAIR_RUNS: usize = 3;

/// What a roads-index benchmark runs.
#[derive(Clone, Debug)]
pub struct IndexPlan {
    /// The graph files.
    pub graphs: Vec<PathBuf>,
    /// Random sources whose trees are timed.
    pub trees: usize,
    /// Sources and targets of the table (and point-to-point pairs).
    pub table: usize,
    /// Seed of the random sources, targets and pairs.
    pub seed: u64,
    /// GAPBS's `sssp`, if it is to run.
    pub gapbs: Option<PathBuf>,
    /// Its trials per Δ.
    pub gapbs_trials: u32,
    /// RoutingKit's `rk_ch` driver, if it is to run.
    pub routingkit: Option<PathBuf>,
    /// RoutingKit's `rk_cch` driver, if it is to run.
    pub routingkit_cch: Option<PathBuf>,
    /// Where edge lists and `.gr` files for the baselines are written.
    pub scratch: PathBuf,
}

/// RoutingKit's CH on one graph (its own report).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RoutingKitRecord {
    /// CH build, one thread, ms.
    pub build_ms: f64,
    /// Mean one-to-one query, µs.
    pub one_to_one_us: f64,
    /// The `table × table` many-to-many table, ms.
    pub table_ms: f64,
}

/// Everything measured on one graph.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct IndexRecord {
    /// The graph measured (its fields at the record's top level).
    #[serde(flatten)]
    pub of: GraphSize,
    /// Index build, ms (host clock), and the threads it used.
    pub build_ms: f64,
    /// Threads of the build and the CPU trees.
    pub threads: usize,
    /// Levels of the hierarchy.
    pub levels: usize,
    /// Shortcut arcs.
    pub shortcuts: usize,
    /// Index file bytes over the graph's CSR bytes.
    pub size_ratio: f64,
    /// Per tree, GPU batches pipelined and left on the device, µs.
    pub gpu_tree_us: Option<f64>,
    /// Sources per GPU batch.
    pub gpu_lanes: Option<usize>,
    /// Per tree on the CPU (all threads), µs.
    pub cpu_tree_us: f64,
    /// The project's solve without the index (`auto`, median of 10), ms.
    pub solve_ms: f64,
    /// What `auto` ran.
    pub solve_algorithm: String,
    /// Mean point-to-point distance query on the CPU (one thread), µs.
    pub one_to_one_us: f64,
    /// Batched point-to-point queries on the CPU (`ch::pairs`, all threads,
    /// [`BATCH_PAIRS`] random pairs), pairs per second.
    #[serde(default)]
    pub pairs_per_s: Option<f64>,
    /// Batched point-to-point queries on the GPU (`gpu::pairs`,
    /// [`GPU_BATCH_PAIRS`] random pairs, the whole call: copies and the
    /// host's work included), pairs per second.
    #[serde(default)]
    pub gpu_pairs_per_s: Option<f64>,
    /// The table on the GPU (when there is one), ms.
    pub gpu_table_ms: Option<f64>,
    /// The table on the CPU (bucket method, all threads), ms.
    pub cpu_table_ms: f64,
    /// GAPBS from vertex 0.
    pub gapbs: Option<GapbsRecord>,
    /// RoutingKit.
    pub routingkit: Option<RoutingKitRecord>,
    /// The customizable index and its customization.
    #[serde(default)]
    pub cch: Option<CchRecord>,
}

/// Everything one roads-index benchmark measured.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct IndexReport {
    /// The GPU's name, or `none`.
    pub device: String,
    /// The table's size (sources = targets).
    pub table: usize,
    /// Trees timed per graph.
    pub trees: usize,
    /// One record per graph.
    pub records: Vec<IndexRecord>,
    /// Graphs without a hierarchy, with the build's message.
    pub refused: Vec<(String, String)>,
}

/// Runs `plan` on `solver`; `progress` gets a line per step. Every tree,
/// table entry and query distance that is timed is first checked against the
/// oracle on a sample (three trees, three table rows, ten queries); a
/// difference is an [`Error::Mismatch`].
pub fn run(
    plan: &IndexPlan,
    solver: &Solver,
    progress: &mut dyn FnMut(&str),
) -> Result<IndexReport> {
    let mut report = IndexReport {
        device: match solver.gpu() {
            Some(gpu) => gpu.name()?,
            None => "none".into(),
        },
        table: plan.table,
        trees: plan.trees,
        records: Vec::new(),
        refused: Vec::new(),
    };
    for path in &plan.graphs {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        progress(&format!("{name}: loading"));
        let graph =
            formats::load_with(path, None, LoadOptions::default(), &mut |_| {})?.into_graph()?;
        match measure(plan, solver, &graph, &name, progress) {
            Ok(record) => report.records.push(record),
            Err(Error::NoHierarchy(why)) => {
                progress(&format!("{name}: no hierarchy: {why}"));
                report.refused.push((name, why));
            }
            Err(e) => return Err(e),
        }
    }
    Ok(report)
}

fn measure(
    plan: &IndexPlan,
    solver: &Solver,
    graph: &Graph,
    name: &str,
    progress: &mut dyn FnMut(&str),
) -> Result<IndexRecord> {
    let n = graph.num_vertices();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(plan.seed);
    let mut draw = |count: usize| -> Vec<usize> {
        (0..count)
            .map(|_| (rng.next_u64() % n.max(1) as u64) as usize)
            .collect()
    };
    let (sources, table_sources, table_targets) =
        (draw(plan.trees), draw(plan.table), draw(plan.table));
    progress(&format!("{name}: building the index"));
    let start = Instant::now();
    let h = ch::build(graph, &BuildOptions::default())?;
    let build_ms = start.elapsed().as_secs_f64() * 1e3;
    let graph_bytes = 4 * (graph.offsets().len() + 2 * graph.num_edges());

    progress(&format!("{name}: trees"));
    let sample = &sources[..sources.len().min(3)];
    let expected: Vec<Vec<u32>> = sample
        .iter()
        .map(|&s| oracle::dijkstra(graph, s))
        .collect::<Result<_>>()?;
    let mismatch = |what: String| Error::Mismatch {
        vertex: 0,
        expected: "the oracle's distances".into(),
        found: what,
        count: 1,
        num_vertices: n,
    };
    let mut trees = solver.index_trees(&h, None)?;
    let (rows, _) = trees.solve(sample, Timing::default())?;
    if rows.iter().zip(&expected).any(|(row, e)| &row.dist != e) {
        return Err(mismatch(format!("other trees from the index on {name}")));
    }
    let gpu_lanes = trees.gpu_shape().map(|(lanes, _)| lanes);
    trees.trees_on_device(&sources)?; // warm-up
    // The median of a few runs: one batch of small trees is a few ms.
    let mut runs = Vec::with_capacity(TREE_RUNS);
    for _ in 0..TREE_RUNS {
        runs.extend(trees.trees_on_device(&sources)?);
    }
    let gpu_tree_us = (!runs.is_empty())
        .then(|| sssp::solution::median(&runs) * 1e3 / sources.len().max(1) as f64);
    let cpu_sources = &sources[..sources.len().min(CPU_TREES)];
    let start = Instant::now();
    let cpu_trees = ch::phast::trees(&h, cpu_sources);
    let cpu_tree_us = start.elapsed().as_secs_f64() * 1e6 / cpu_sources.len().max(1) as f64;
    if cpu_trees.iter().zip(&expected).any(|(row, e)| row != e) {
        return Err(mismatch(format!(
            "other CPU trees from the index on {name}"
        )));
    }

    progress(&format!("{name}: queries and tables"));
    let pairs: Vec<(usize, usize)> = table_sources
        .iter()
        .copied()
        .zip(table_targets.iter().copied())
        .collect();
    let start = Instant::now();
    let answers: Vec<u32> = pairs
        .iter()
        .map(|&(s, t)| ch::query::distance(&h, s, t))
        .collect();
    let one_to_one_us = start.elapsed().as_secs_f64() * 1e6 / pairs.len().max(1) as f64;
    for (&(s, t), &answer) in pairs.iter().zip(&answers).take(10) {
        let d = oracle::dijkstra(graph, s)?[t];
        if answer != d {
            return Err(mismatch(format!(
                "another point-to-point distance {s} → {t}"
            )));
        }
    }
    // The same pairs first, then random ones, in one batch on every thread.
    let mut batch = pairs.clone();
    batch.extend(draw(BATCH_PAIRS).into_iter().zip(draw(BATCH_PAIRS)));
    let start = Instant::now();
    let batched = ch::pairs::pair_distances(&h, &batch)?;
    let pairs_per_s = batch.len() as f64 / start.elapsed().as_secs_f64().max(1e-9);
    if batched[..answers.len()] != answers[..] {
        return Err(mismatch(format!("other batched pair distances on {name}")));
    }
    let gpu_pairs_per_s = match solver.gpu() {
        Some(gpu) => {
            let mut gpu_batch = batch.clone();
            let more = GPU_BATCH_PAIRS.saturating_sub(gpu_batch.len());
            gpu_batch.extend(draw(more).into_iter().zip(draw(more)));
            let mut on_gpu = sssp::gpu::pairs::GpuPairs::new(gpu, &h)?;
            let first = on_gpu.distances(&gpu_batch)?; // warm-up
            if first[..batched.len()] != batched[..] {
                return Err(mismatch(format!("other GPU pair distances on {name}")));
            }
            let mut runs = Vec::with_capacity(GPU_PAIR_RUNS);
            for _ in 0..GPU_PAIR_RUNS {
                let start = Instant::now();
                on_gpu.distances(&gpu_batch)?;
                runs.push(start.elapsed().as_secs_f64());
            }
            Some(gpu_batch.len() as f64 / sssp::solution::median(&runs).max(1e-9))
        }
        None => None,
    };
    let check_table = |table: &[u32], what: &str| -> Result<()> {
        let width = table_targets.len();
        for (i, &s) in table_sources.iter().enumerate().take(3) {
            let expected = oracle::dijkstra(graph, s)?;
            let row = &table[i * width..(i + 1) * width];
            if row
                .iter()
                .zip(&table_targets)
                .any(|(&d, &t)| d != expected[t])
            {
                return Err(mismatch(format!("other {what} table entries on {name}")));
            }
        }
        Ok(())
    };
    let gpu_table_ms = if trees.device() == sssp::algorithms::Processor::Gpu {
        let (table, _) = trees.table(&table_sources, &table_targets)?; // warm-up
        check_table(&table, "GPU")?;
        Some(trees.table(&table_sources, &table_targets)?.1)
    } else {
        None
    };
    let start = Instant::now();
    let table = ch::query::table(&h, &table_sources, &table_targets);
    let cpu_table_ms = start.elapsed().as_secs_f64() * 1e3;
    check_table(&table, "CPU")?;

    progress(&format!("{name}: the solve without the index"));
    let timing = Timing {
        warmup: 1,
        runs: 10,
    };
    let mut prepared =
        solver.prepare_for(graph, Algorithm::Auto, Tuning::default(), (0, Solves::Many))?;
    let solved = prepared.solve(0, Stop::default(), false, timing)?;
    if solved.dist != oracle::dijkstra(graph, 0)? {
        return Err(mismatch(format!("other distances from auto on {name}")));
    }

    let gapbs = match &plan.gapbs {
        Some(gapbs) => {
            progress(&format!("{name}: GAPBS Δ sweep"));
            Some(run_gapbs(
                gapbs,
                (plan.gapbs_trials, &plan.scratch),
                graph,
                0,
                name,
            )?)
        }
        None => None,
    };
    // The graph as a DIMACS file for RoutingKit's drivers, written once.
    let gr = plan.scratch.join(format!("{name}.rk.gr"));
    if plan.routingkit.is_some() || plan.routingkit_cch.is_some() {
        write_gr(graph, &gr)?;
    }
    let routingkit = match &plan.routingkit {
        Some(rk) => {
            progress(&format!("{name}: RoutingKit"));
            Some(run_routingkit(rk, plan, &gr, name)?)
        }
        None => None,
    };
    progress(&format!("{name}: the customizable index"));
    let cch = roads_cch::measure(
        solver,
        graph,
        (sample, &expected),
        (plan.routingkit_cch.as_deref(), &gr),
        name,
    )?;
    if gr.exists() {
        std::fs::remove_file(&gr).map_err(|source| Error::Io {
            path: gr.clone(),
            source,
        })?;
    }
    Ok(IndexRecord {
        of: GraphSize::of(name, graph),
        build_ms,
        threads: rayon::current_num_threads(),
        levels: h.num_levels(),
        shortcuts: h.num_shortcuts(),
        size_ratio: h.size_bytes() as f64 / graph_bytes.max(1) as f64,
        gpu_tree_us,
        gpu_lanes,
        cpu_tree_us,
        solve_ms: solved.median_ms(),
        solve_algorithm: prepared.algorithm().name().into(),
        one_to_one_us,
        pairs_per_s: Some(pairs_per_s),
        gpu_pairs_per_s,
        gpu_table_ms,
        cpu_table_ms,
        gapbs,
        routingkit,
        cch: Some(cch),
    })
}

/// Writes `graph` as a DIMACS `.gr` file (ids from 1) for RoutingKit.
fn write_gr(graph: &Graph, gr: &Path) -> Result<()> {
    let io_error = |source| Error::Io {
        path: gr.to_path_buf(),
        source,
    };
    let mut out = BufWriter::new(std::fs::File::create(gr).map_err(io_error)?);
    writeln!(out, "p sp {} {}", graph.num_vertices(), graph.num_edges()).map_err(io_error)?;
    let csr = graph.csr();
    for u in 0..graph.num_vertices() {
        for (v, w) in csr.edges(u) {
            writeln!(out, "a {} {} {w}", u + 1, v + 1).map_err(io_error)?;
        }
    }
    out.flush().map_err(io_error)
}

/// Runs RoutingKit's `rk_ch` on the DIMACS file `gr` and reads its report.
fn run_routingkit(rk: &Path, plan: &IndexPlan, gr: &Path, name: &str) -> Result<RoutingKitRecord> {
    let table = plan.table.to_string();
    let report = Report::of(rk, &[gr.as_os_str(), table.as_ref()])?;
    let value = |key: &str| report.value::<f64>(key);
    let table_key = format!("ch_table_{0}x{0}_ms=", plan.table);
    match (
        value("ch_build_s="),
        value("ch_one_to_one_us="),
        value(&table_key),
    ) {
        (Some(build_s), Some(one_to_one_us), Some(table_ms)) if report.success => {
            Ok(RoutingKitRecord {
                build_ms: build_s * 1e3,
                one_to_one_us,
                table_ms,
            })
        }
        _ => Err(Error::InvalidArgument(format!(
            "{}: RoutingKit on {name} gave no report (exit {}): {}",
            rk.display(),
            report.status,
            report.text
        ))),
    }
}

/// The markdown summary: one row per graph, ratios against GAPBS and
/// RoutingKit where they ran.
pub fn markdown(report: &IndexReport) -> String {
    let ratio = |base: Option<f64>, ours: Option<f64>| match (base, ours) {
        (Some(b), Some(o)) if o > 0.0 && b >= 10.0 * o => format!(" ({:.0}×)", b / o),
        (Some(b), Some(o)) if o > 0.0 => format!(" ({:.2}×)", b / o),
        _ => String::new(),
    };
    let ms = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.3}"));
    let mut text = format!(
        "# Road networks from a contraction-hierarchy index\n\nDevice: {}. Trees: {} random \
         sources per graph; table and point-to-point pairs: {t} × {t}. Ratios in parentheses: \
         the baseline's time over ours.\n\n",
        report.device,
        report.trees,
        t = report.table
    );
    text.push_str(
        "| graph | build ms (threads) | RoutingKit build ms | index/CSR | GAPBS ms (Δ) | \
         solve ms (auto) | GPU µs/tree | CPU µs/tree | one-to-one µs | RoutingKit µs | \
         batched pairs/s | GPU pairs/s (× RoutingKit's rate) | GPU table ms | CPU table ms | \
         RoutingKit table ms |\n",
    );
    text.push_str("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for r in &report.records {
        let gapbs_ms = r.gapbs.as_ref().map(|g| g.best_ms);
        let rk = r.routingkit.as_ref();
        text.push_str(&format!(
            "| {} | {:.0} ({}) | {}{} | {:.2} | {} | {:.3} ({}) | {}{} | {:.1}{} | {:.2} | {}{} | {} | {}{} | {} | {:.2} | {}{} |\n",
            r.of.graph,
            r.build_ms,
            r.threads,
            ms(rk.map(|k| k.build_ms)),
            ratio(rk.map(|k| k.build_ms), Some(r.build_ms)),
            r.size_ratio,
            r.gapbs
                .as_ref()
                .map_or("-".into(), |g| format!("{:.3} ({})", g.best_ms, g.best_delta)),
            r.solve_ms,
            r.solve_algorithm,
            ms(r.gpu_tree_us),
            ratio(gapbs_ms.map(|g| g * 1e3), r.gpu_tree_us),
            r.cpu_tree_us,
            ratio(gapbs_ms.map(|g| g * 1e3), Some(r.cpu_tree_us)),
            r.one_to_one_us,
            ms(rk.map(|k| k.one_to_one_us)),
            ratio(rk.map(|k| k.one_to_one_us), Some(r.one_to_one_us)),
            r.pairs_per_s.map_or("-".into(), |p| format!("{p:.0}")),
            r.gpu_pairs_per_s.map_or("-".into(), |p| format!("{p:.0}")),
            // RoutingKit's rate on one thread over ours: the inverse.
            ratio(
                r.gpu_pairs_per_s,
                rk.map(|k| 1e6 / k.one_to_one_us.max(1e-9))
            ),
            ms(r.gpu_table_ms),
            r.cpu_table_ms,
            ms(rk.map(|k| k.table_ms)),
            ratio(
                rk.map(|k| k.table_ms),
                Some(r.gpu_table_ms.unwrap_or(r.cpu_table_ms))
            ),
        ));
    }
    for (graph, why) in &report.refused {
        text.push_str(&format!("\n{graph}: no index ({why}).\n"));
    }
    text.push_str(&format!(
        "\nGPU µs/tree: batches pipelined with the host's upward searches, trees left on the \
         device (host clock, upward searches included; the median of {TREE_RUNS} runs after a \
         warm-up). CPU µs/tree: eight sources per thread, \
         every thread. Batched pairs/s: the one-to-one pairs and {BATCH_PAIRS} random pairs in \
         one call of `ch::pairs::pair_distances` on every thread. GPU pairs/s: those pairs and \
         random ones up to {GPU_BATCH_PAIRS} in one call of `gpu::pairs::GpuPairs::distances` \
         (copies included; the median of {GPU_PAIR_RUNS} calls after a warm-up), against \
         RoutingKit's one-to-one queries per second on one thread. Ratios of trees are against GAPBS's single-source time; the table ratio \
         uses the GPU table where there is one.\n",
    ));
    let cch: Vec<(&str, &CchRecord)> = report
        .records
        .iter()
        .filter_map(|r| Some((r.of.graph.as_str(), r.cch.as_ref()?)))
        .collect();
    if !cch.is_empty() {
        text.push_str("\n## Live weights: the customizable index\n\n");
        text.push_str(&roads_cch::markdown_rows(&cch));
        text.push_str(
            "\nCustomization of the graph's own weights, the median of 3 after a warm-up: on \
             the CPU (every thread, host clock), on the GPU (CUDA events: the weights' upload, \
             the customization and the download; the triangles uploaded once before); every \
             customized index's trees checked against the oracle, the GPU's words against the \
             CPU's. 1 % (0.01 %) changed: every 100th (10,000th) arc of the graph at twice its weight plus one, \
             re-customized from the customization (`Cch::recustomize`: only the arcs whose \
             weight can change), checked against a whole customization. RoutingKit: its CCH \
             customization (`rk_cch`) on one thread and on every core, and its partial \
             customization after 1 % of the arcs changed, its own clock.\n",
        );
    }
    text
}
