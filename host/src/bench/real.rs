//! `host bench --preset real`: the project's algorithms on graph files (road
//! networks, social graphs, meshes…), every result verified against the
//! oracle, and optionally GAPBS's parallel Δ-stepping (`sssp` of the GAP
//! Benchmark Suite) on the same graph and source in the same run, its Δ swept,
//! so that the speed-ups are ratios measured together.
//!
//! GAPBS reads the graph from its serialized format (`.wsg`, see
//! [`super::gapbs_graph`]) that this module writes from the loaded graph, so
//! both solve the same graph from the same vertex; its times are the median
//! of its trials ("Trial Time"), which exclude reading and building the
//! graph, like the GPU's CUDA-event times exclude loading and upload.

use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};

use super::gapbs_graph;
use sssp::algorithms::{self, Algorithm};
use sssp::auto::plan::Solves;
use sssp::formats::{self, LoadOptions};
use sssp::graph::{Graph, WeightKind};
use sssp::options::Tuning;
use sssp::options::{Stop, Timing};
use sssp::solver::{Solver, median};
use sssp::{Error, Result, distances, oracle};

/// What a real-graph benchmark runs.
#[derive(Clone, Debug)]
pub struct RealPlan {
    /// The graph files, any format the CLI reads.
    pub graphs: Vec<PathBuf>,
    /// The project's algorithms, in order (`auto` included to see its choice).
    pub algorithms: Vec<Algorithm>,
    /// Warm-up and timed solves of each algorithm.
    pub timing: Timing,
    /// GAPBS's `sssp` binary, if it is to run too.
    pub gapbs: Option<PathBuf>,
    /// Trials of each GAPBS run (`-n`).
    pub gapbs_trials: u32,
    /// Where GAPBS's edge lists are written.
    pub scratch: PathBuf,
}

impl RealPlan {
    /// The default candidates: every algorithm `auto` chooses from, and `auto`.
    pub const DEFAULT_ALGORITHMS: [Algorithm; 5] = [
        Algorithm::Auto,
        Algorithm::Partition,
        Algorithm::NearFar,
        Algorithm::FastCrauser,
        Algorithm::Fast,
    ];
}

/// The graph a record is of: its file's name and its size.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GraphSize {
    /// The graph file's name.
    pub graph: String,
    /// Vertices.
    pub n: usize,
    /// Arcs.
    pub m: usize,
}

impl GraphSize {
    /// The size of `graph`, whose file is `name`.
    pub fn of(name: &str, graph: &Graph) -> Self {
        GraphSize {
            graph: name.into(),
            n: graph.num_vertices(),
            m: graph.num_edges(),
        }
    }
}

/// One algorithm on one graph.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RealRecord {
    /// The graph.
    #[serde(flatten)]
    pub of: GraphSize,
    /// The source (0-based graph id).
    pub source: usize,
    /// The algorithm asked for.
    pub algorithm: String,
    /// What ran (`auto`'s choice).
    pub ran: String,
    /// `GPU` or `CPU`.
    pub device: String,
    /// Iterations of its main loop.
    pub iterations: Option<u32>,
    /// Every timed solve, ms.
    pub times_ms: Vec<f64>,
    /// Their median, ms.
    pub median_ms: f64,
    /// The preparation before the first solve (GPU: upload and allocation,
    /// and the partition solver's cut and shortcuts), ms; `None` on the CPU.
    #[serde(default)]
    pub prepare_ms: Option<f64>,
    /// What the GPU solver's preparation made of the graph (the CLI's
    /// `layout` line), if it says.
    #[serde(default)]
    pub layout: Option<String>,
    /// Whether every distance equals the oracle's.
    pub verified: bool,
    /// Why the algorithm did not run on this graph (it refused it: too large
    /// for its mode, say); the times are then empty.
    #[serde(default)]
    pub refused: Option<String>,
}

/// GAPBS on one graph: its best Δ and every Δ tried.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GapbsRecord {
    /// The graph file's name.
    pub graph: String,
    /// (Δ, median trial time in ms) for every Δ of the sweep.
    pub sweep: Vec<(u64, f64)>,
    /// The Δ with the smallest median.
    pub best_delta: u64,
    /// That median, ms.
    pub best_ms: f64,
}

/// Everything one real-graph benchmark measured.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RealReport {
    /// The GPU's name, or `none`.
    pub device: String,
    /// GAPBS's threads (`OMP_NUM_THREADS`, or all cores).
    pub gapbs_threads: Option<String>,
    /// The project's runs.
    pub records: Vec<RealRecord>,
    /// GAPBS's runs.
    pub gapbs: Vec<GapbsRecord>,
}

/// Runs `plan` on `solver`; `progress` gets a line per step.
pub fn run(plan: &RealPlan, solver: &Solver, progress: &mut dyn FnMut(&str)) -> Result<RealReport> {
    let mut report = RealReport {
        device: match solver.gpu() {
            Some(gpu) => gpu.name()?,
            None => "none".into(),
        },
        gapbs_threads: plan.gapbs.as_ref().map(|_| {
            std::env::var("OMP_NUM_THREADS").unwrap_or_else(|_| {
                std::thread::available_parallelism()
                    .map_or("?".into(), |n| format!("{n} (all cores)"))
            })
        }),
        records: Vec::new(),
        gapbs: Vec::new(),
    };
    for path in &plan.graphs {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        progress(&format!("{name}: loading"));
        let graph =
            formats::load_with(path, None, LoadOptions::default(), &mut |_| {})?.into_graph()?;
        let source = 0;
        let expected = oracle::dijkstra(&graph, source)?;
        for &algorithm in &plan.algorithms {
            progress(&format!("{name}: {algorithm}"));
            let record = |ran: Algorithm, device: &str| RealRecord {
                of: GraphSize::of(&name, &graph),
                source,
                algorithm: algorithm.name().into(),
                ran: ran.name().into(),
                device: device.into(),
                iterations: None,
                times_ms: Vec::new(),
                median_ms: f64::NAN,
                prepare_ms: None,
                layout: None,
                verified: false,
                refused: None,
            };
            let mut prepared = match solver.prepare_for(
                &graph,
                algorithm,
                Tuning::default(),
                (source, Solves::Many),
            ) {
                Ok(prepared) => prepared,
                // A solver that does not take this graph (a mode's size
                // limit, device memory) is reported, and the others go on.
                Err(e @ (Error::InvalidArgument(_) | Error::OutOfMemory { .. })) => {
                    progress(&format!("{name}: {algorithm} refused: {e}"));
                    report.records.push(RealRecord {
                        refused: Some(e.to_string()),
                        ..record(algorithm, "-")
                    });
                    continue;
                }
                Err(e) => return Err(e),
            };
            let row = prepared.solve(source, Stop::default(), false, plan.timing)?;
            let verified = distances::compare(graph.weight_kind(), &expected, &row.dist).is_ok();
            if !verified && algorithm.spec().exact {
                return Err(Error::Mismatch {
                    vertex: 0,
                    expected: "the oracle's distances".into(),
                    found: format!("different distances from {algorithm} on {name}"),
                    count: 1,
                    num_vertices: graph.num_vertices(),
                });
            }
            let device = match prepared.device() {
                algorithms::Processor::Gpu => "GPU",
                algorithms::Processor::Cpu => "CPU",
            };
            report.records.push(RealRecord {
                iterations: row.iterations,
                median_ms: row.median_ms(),
                times_ms: row.times_ms,
                prepare_ms: prepared.prepare_ms(),
                layout: prepared.layout(),
                verified,
                ..record(prepared.algorithm(), device)
            });
        }
        if let Some(gapbs) = &plan.gapbs {
            match graph.weight_kind() {
                WeightKind::F32 => progress(&format!(
                    "{name}: GAPBS skipped: it takes integer weights only"
                )),
                WeightKind::U32 => {
                    progress(&format!("{name}: GAPBS Δ sweep"));
                    report.gapbs.push(run_gapbs(
                        gapbs,
                        (plan.gapbs_trials, &plan.scratch),
                        &graph,
                        source,
                        &name,
                    )?);
                }
            }
        }
    }
    Ok(report)
}

/// The Δ values GAPBS may try on `graph`, ascending: powers of two from 1/16
/// to 1024 times its mean weight (social graphs do best near the mean weight,
/// road networks at tens to hundreds of times it), at least 1. Every Δ runs:
/// stopping once two in a row were slower than the best missed the best Δ of
/// a road network when the machine was noisy.
pub fn gapbs_deltas(graph: &Graph) -> Vec<u64> {
    let weights = graph.weights();
    let mean = if weights.is_empty() {
        1.0
    } else {
        weights.iter().map(|&w| w as f64).sum::<f64>() / weights.len() as f64
    };
    let mut deltas: Vec<u64> = (-4..=10)
        .map(|k| ((mean * 2f64.powi(k)).round() as u64).max(1))
        .collect();
    deltas.dedup();
    deltas
}

/// The Δ to try below a sweep (ascending in Δ, with median times) whose
/// smallest Δ was the fastest: half of it, down to 1. GAPBS's best Δ on
/// Kronecker graphs is 1 (86.8 ms on the H100 machine's 16 cores against
/// 106.6 at Δ 8, the sweep's smallest: docs/BENCHMARKS.md), below
/// [`gapbs_deltas`]'s 1/16 of the mean weight.
/// `None` when the fastest Δ is above the smallest, or that is 1.
pub fn gapbs_lower_delta(sweep: &[(u64, f64)]) -> Option<u64> {
    let &(smallest, time) = sweep.first()?;
    let fastest = sweep.iter().all(|&(_, t)| time <= t);
    (fastest && smallest > 1).then_some(smallest / 2)
}

/// Runs GAPBS's `sssp` on `graph` from `source` for each Δ of
/// [`gapbs_deltas`], then below them while [`gapbs_lower_delta`] says,
/// `trials` trials each, its `.wsg` file written in `scratch`.
pub(crate) fn run_gapbs(
    gapbs: &Path,
    (trials, scratch): (u32, &Path),
    graph: &Graph,
    source: usize,
    name: &str,
) -> Result<GapbsRecord> {
    let wsg = scratch.join(format!("{name}.wsg"));
    let io_error = |source| Error::Io {
        path: wsg.clone(),
        source,
    };
    let file = std::fs::File::create(&wsg).map_err(io_error)?;
    gapbs_graph::write_wsg(BufWriter::new(file), graph, &wsg)?;
    let run = |delta: u64| -> Result<f64> {
        let output = Command::new(gapbs)
            .arg("-f")
            .arg(&wsg)
            .args(["-r", &source.to_string()])
            .args(["-n", &trials.max(1).to_string()])
            .args(["-d", &delta.to_string()])
            .output()
            .map_err(|source| Error::Io {
                path: gapbs.to_path_buf(),
                source,
            })?;
        let text = String::from_utf8_lossy(&output.stdout);
        let trials: Vec<f64> = text
            .lines()
            .filter_map(|line| line.trim().strip_prefix("Trial Time:"))
            .filter_map(|t| t.trim().parse::<f64>().ok())
            .map(|s| s * 1e3)
            .collect();
        if !output.status.success() || trials.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "{}: GAPBS on {name} with Δ {delta} printed no trial time (exit {}): {}",
                gapbs.display(),
                output.status,
                String::from_utf8_lossy(&output.stderr)
            )));
        }
        Ok(median(&trials))
    };
    let mut sweep = Vec::new();
    for delta in gapbs_deltas(graph) {
        sweep.push((delta, run(delta)?));
    }
    while let Some(delta) = gapbs_lower_delta(&sweep) {
        sweep.insert(0, (delta, run(delta)?));
    }
    let (best_delta, best_ms) = sweep
        .iter()
        .copied()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap_or((0, f64::NAN));
    std::fs::remove_file(&wsg).map_err(io_error)?;
    Ok(GapbsRecord {
        graph: name.into(),
        sweep,
        best_delta,
        best_ms,
    })
}

/// The markdown summary: per graph, each algorithm's median and its speed-up
/// over GAPBS's best Δ, and `auto` against the fastest project algorithm.
pub fn markdown(report: &RealReport) -> String {
    let mut text = format!(
        "# Real graphs\n\nDevice: {}. GAPBS threads: {}. Times are medians in ms; every \
         project result verified against the oracle; source = vertex 0 (the file's first).\n\n",
        report.device,
        report.gapbs_threads.as_deref().unwrap_or("GAPBS not run")
    );
    text.push_str(
        "| graph | n | m | algorithm | ran | iterations | median ms | prepare ms | GAPBS best ms (Δ) | speed-up over GAPBS | verified |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut graphs: Vec<&str> = report.records.iter().map(|r| r.of.graph.as_str()).collect();
    graphs.dedup();
    let (mut auto_lines, mut layout_lines) = (Vec::new(), Vec::new());
    for graph in graphs {
        let gapbs = report.gapbs.iter().find(|g| g.graph == graph);
        let records: Vec<&RealRecord> = report
            .records
            .iter()
            .filter(|r| r.of.graph == graph)
            .collect();
        for r in &records {
            if let Some(why) = &r.refused {
                text.push_str(&format!(
                    "| {graph} | {} | {} | {} | refused: {why} | | | | | | |\n",
                    r.of.n, r.of.m, r.algorithm
                ));
                continue;
            }
            let (gapbs_cell, speedup) = match gapbs {
                Some(g) => (
                    format!("{:.3} ({})", g.best_ms, g.best_delta),
                    format!("{:.2}×", g.best_ms / r.median_ms),
                ),
                None => ("-".into(), "-".into()),
            };
            text.push_str(&format!(
                "| {graph} | {} | {} | {} | {} | {} | {:.3} | {} | {gapbs_cell} | {speedup} | {} |\n",
                r.of.n,
                r.of.m,
                r.algorithm,
                r.ran,
                r.iterations.map_or("-".into(), |i| i.to_string()),
                r.median_ms,
                r.prepare_ms.map_or("-".into(), |ms| format!("{ms:.1}")),
                r.verified
            ));
            if let Some(layout) = &r.layout {
                layout_lines.push(format!("- {graph}, {} ({}): {layout}", r.algorithm, r.ran));
            }
        }
        let best = records
            .iter()
            .filter(|r| r.algorithm != "auto" && r.refused.is_none())
            .min_by(|a, b| a.median_ms.total_cmp(&b.median_ms));
        if let (Some(auto), Some(best)) = (records.iter().find(|r| r.algorithm == "auto"), best) {
            // A choice outside `--algos` is no candidate of the run: then
            // the ratio only says how auto compares with those that ran.
            let listed = records.iter().any(|r| r.algorithm == auto.ran);
            auto_lines.push(format!(
                "- {graph}: auto ran {}{} in {:.3} ms; the fastest candidate, {}, {:.3} ms: auto is {:.2}× the best",
                auto.ran,
                if listed { "" } else { " (not in --algos)" },
                auto.median_ms,
                best.algorithm,
                best.median_ms,
                auto.median_ms / best.median_ms
            ));
        }
    }
    if !layout_lines.is_empty() {
        text.push_str("\nWhat each GPU solver's preparation made of the graph:\n\n");
        text.push_str(&layout_lines.join("\n"));
        text.push('\n');
    }
    if !auto_lines.is_empty() {
        text.push_str("\n`auto` against the fastest candidate:\n\n");
        text.push_str(&auto_lines.join("\n"));
        text.push('\n');
    }
    if !report.gapbs.is_empty() {
        text.push_str("\nGAPBS Δ sweeps (Δ: median ms):\n\n");
        for g in &report.gapbs {
            let cells: Vec<String> = g
                .sweep
                .iter()
                .map(|(d, ms)| format!("{d}: {ms:.3}"))
                .collect();
            text.push_str(&format!("- {}: {}\n", g.graph, cells.join(", ")));
        }
    }
    text
}

/// `runs.csv`: one line per project run and per GAPBS Δ.
pub fn csv(report: &RealReport) -> String {
    let mut text = String::from(
        "graph,n,m,solver,ran,device,iterations,delta,median_ms,verified,prepare_ms\n",
    );
    for r in report.records.iter().filter(|r| r.refused.is_none()) {
        text.push_str(&format!(
            "{},{},{},{},{},{},{},,{:.4},{},{}\n",
            r.of.graph,
            r.of.n,
            r.of.m,
            r.algorithm,
            r.ran,
            r.device,
            r.iterations.map_or(String::new(), |i| i.to_string()),
            r.median_ms,
            r.verified,
            r.prepare_ms.map_or(String::new(), |ms| format!("{ms:.2}"))
        ));
    }
    for g in &report.gapbs {
        let (n, m) = report
            .records
            .iter()
            .find(|r| r.of.graph == g.graph)
            .map_or((0, 0), |r| (r.of.n, r.of.m));
        for (delta, ms) in &g.sweep {
            text.push_str(&format!(
                "{},{n},{m},gapbs,gapbs,CPU,,{delta},{ms:.4},,\n",
                g.graph
            ));
        }
    }
    text
}

/// The graph files of a directory that the CLI reads (by extension), sorted.
pub fn graphs_in(dir: &Path) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|source| Error::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut graphs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && formats::detect(p).is_ok())
        .collect();
    graphs.sort();
    if graphs.is_empty() {
        return Err(Error::InvalidArgument(format!(
            "{}: no graph file (.gr, .mtx, .el, .csr, optionally .gz) in this folder",
            dir.display()
        )));
    }
    Ok(graphs)
}

/// The real-graph benchmark on the CPU path, and GAPBS's Δ sweep.
#[cfg(test)]
mod tests {
    use super::{RealPlan, csv, gapbs_deltas, gapbs_lower_delta, markdown, run};

    #[test]
    fn real_graph_bench_verifies_every_candidate_and_reports_them() {
        use sssp::algorithms::Algorithm;
        let rome = sssp_tests::find_graph("rome99.gr");
        let dir = sssp_tests::TempDir::new("real-bench");
        let plan = RealPlan {
            graphs: vec![rome],
            algorithms: vec![Algorithm::Auto, Algorithm::NearFarCpu, Algorithm::Dijkstra],
            timing: sssp::options::Timing { warmup: 0, runs: 2 },
            gapbs: None,
            gapbs_trials: 1,
            scratch: dir.path(""),
        };
        let solver = sssp::Solver::new(sssp::Device::Cpu).unwrap();
        let mut steps = Vec::new();
        let report = run(&plan, &solver, &mut |s| steps.push(s.to_string())).unwrap();
        assert_eq!(report.records.len(), 3);
        for record in &report.records {
            assert!(record.verified, "{record:?}");
            assert_eq!((record.of.n, record.of.m), (3353, 8870));
            assert_eq!(record.times_ms.len(), 2);
        }
        // Without a GPU, `auto` runs the CPU fallback.
        assert_eq!(report.records[0].ran, sssp::solver::FALLBACK.name());
        let summary = markdown(&report);
        assert!(
            summary.contains("| rome99.gr | 3353 | 8870 | near-far-cpu |"),
            "{summary}"
        );
        assert!(summary.contains("auto is"), "{summary}");
        // Its choice was no candidate of this run, and the summary says so.
        assert!(
            summary.contains("auto ran delta-cpu (not in --algos) in"),
            "{summary}"
        );
        assert_eq!(csv(&report).lines().count(), 1 + 3);
        // The preparation's column: CPU solvers prepare nothing.
        assert!(summary.contains("| median ms | prepare ms |"), "{summary}");
        assert!(report.records.iter().all(|r| r.prepare_ms.is_none()));
        let csv = csv(&report);
        assert!(csv.starts_with(
            "graph,n,m,solver,ran,device,iterations,delta,median_ms,verified,prepare_ms\n"
        ));
        assert!(
            csv.lines().all(|line| line.split(',').count() == 11),
            "{csv}"
        );
    }

    #[test]
    fn gapbs_deltas_span_the_mean_weight() {
        let graph = sssp::Graph::from_edges(3, &[(0, 1, 100), (1, 2, 300)]).unwrap();
        let deltas = gapbs_deltas(&graph);
        // Mean 200: 200/16 rounded .. 200·1024, ascending powers of two.
        assert_eq!(deltas.first(), Some(&13));
        assert_eq!(deltas.last(), Some(&204_800));
        assert!(deltas.contains(&200));
        assert!(deltas.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn gapbs_sweep_goes_below_its_range_while_the_smallest_delta_is_fastest() {
        assert_eq!(
            gapbs_lower_delta(&[(8, 100.0), (16, 120.0), (32, 130.0)]),
            Some(4)
        );
        assert_eq!(gapbs_lower_delta(&[(3, 90.0), (8, 100.0)]), Some(1));
        assert_eq!(
            gapbs_lower_delta(&[(8, 100.0), (16, 100.0)]),
            Some(4),
            "a tie counts"
        );
        assert_eq!(
            gapbs_lower_delta(&[(8, 100.0), (16, 90.0), (32, 130.0)]),
            None
        );
        assert_eq!(
            gapbs_lower_delta(&[(1, 80.0), (2, 100.0)]),
            None,
            "Δ 1 is the least"
        );
        assert_eq!(gapbs_lower_delta(&[]), None);
    }
}
