//! The benchmark harness (`host bench`): a plan of graph sizes × algorithms ×
//! graphs per size × repetitions, on graphs the program generates itself
//! (seeded), every result verified against the oracle, reported as CSV, JSON,
//! a markdown summary and plots.
//!
//! Timing rules (the device tool's METHOD.md): GPU solves are timed with CUDA
//! events around the whole solve, after warm-up solves, repeated (median, min,
//! max); uploads are timed separately; the working-thread counts come from a
//! separate, untimed measuring solve; the device's copy bandwidth is measured
//! once at the start and the achieved bandwidth of each algorithm is reported
//! against it through a byte model (see [`floor_bytes`]).

pub mod baseline_report;
pub mod gapbs_graph;
pub mod plan;
pub mod plot;
pub mod real;
pub mod report;
pub mod roads_cch;
pub mod roads_index;

use std::time::Instant;

use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};

pub use plan::{BenchPlan, Layout, LayoutNames};
use sssp::algorithms::{Algorithm, Processor};
use sssp::auto::plan::Solves;
use sssp::generate::random_graph;
use sssp::graph::Graph;
use sssp::options::Tuning;
use sssp::options::{Stop, Timing};
use sssp::solver::Solver;
use sssp::{Error, Result, distances, oracle};

/// One algorithm on one graph: every repetition's time and what was checked.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    /// The plan (preset) this belongs to.
    pub plan: String,
    /// `list` or `matrix`.
    pub layout: String,
    /// Vertices.
    pub n: usize,
    /// Edges.
    pub m: usize,
    /// Index of the graph among those of its size.
    pub graph: u32,
    /// The generator's seed for this graph.
    pub seed: u64,
    /// `--algo` name.
    pub algorithm: String,
    /// `GPU` or `CPU`.
    pub device: String,
    /// Iterations of its main loop (DA2CF forms and Bellman-Ford rounds).
    pub iterations: Option<u32>,
    /// Each timed repetition, in ms (CUDA events for GPU algorithms, a host
    /// timer for CPU ones).
    pub times_ms: Vec<f64>,
    /// Median of `times_ms`.
    pub median_ms: f64,
    /// Preparation (upload, transpose, precomputation), ms, host timer.
    pub prepare_ms: f64,
    /// The oracle's time on this graph, ms.
    pub oracle_ms: f64,
    /// Whether every distance equals the oracle's.
    pub verified: bool,
    /// Distances that differ from the oracle's.
    pub wrong: usize,
    /// Bytes of the byte model ([`floor_bytes`]).
    pub floor_bytes: u64,
    /// `floor_bytes / median`, bytes per second.
    pub achieved_bytes_per_s: f64,
    /// `relax` threads launched over one solve (measuring mode).
    pub launched_threads: Option<u64>,
    /// `relax` threads that found work (measuring mode).
    pub working_threads: Option<u64>,
}

/// Everything one `host bench` produced.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// The GPU's name, or `none`.
    pub device: String,
    /// Measured device-to-device copy bandwidth (read + write), bytes/s.
    pub copy_bytes_per_s: Option<f64>,
    /// The plans that ran.
    pub plans: Vec<BenchPlan>,
    /// One record per algorithm and graph.
    pub records: Vec<Record>,
}

impl Report {
    /// Several reports as one (runs split over several machines or calls):
    /// records concatenated, plans of the same name merged with the union of
    /// their sizes; the device and copy bandwidth of the first report.
    pub fn merge(reports: Vec<Report>) -> Option<Report> {
        let mut reports = reports.into_iter();
        let mut merged = reports.next()?;
        for report in reports {
            for plan in report.plans {
                match merged.plans.iter_mut().find(|p| p.name == plan.name) {
                    Some(existing) => {
                        existing.sizes.extend(plan.sizes);
                        existing.sizes.sort_unstable();
                        existing.sizes.dedup();
                    }
                    None => merged.plans.push(plan),
                }
            }
            merged.records.extend(report.records);
        }
        Some(merged)
    }
}

/// The fewest bytes any DA2CF-style solve of this graph moves, the yardstick
/// for its achieved bandwidth: per iteration a scan of the vertex state (frontier
/// flag 1 B in `relax`, distance + flag 5 B in `minimum`, distance + two flags
/// read and written 8 B in `update`: 14 B per vertex), and once per solve the
/// graph (4 B per row offset, per edge 8 B of target and weight plus a 1 B flag
/// and a 4 B distance touched at random: 13 B) — or for a matrix its 4·n² bytes.
pub fn floor_bytes(layout: Layout, n: usize, m: usize, iterations: u32) -> u64 {
    let scans = 14 * n as u64 * iterations.max(1) as u64;
    match layout {
        Layout::List => scans + 4 * (n as u64 + 1) + 13 * m as u64,
        Layout::Matrix => scans + 4 * (n as u64) * (n as u64),
    }
}

/// Runs `plan`; GPU algorithms need `gpu`. `progress` ticks once per
/// algorithm and graph. After each graph, `after_graph` gets the plan's
/// records so far (the CLI saves them, so that a run cut short keeps its
/// finished graphs).
pub fn run(
    plan: &BenchPlan,
    solver: &Solver,
    progress: &ProgressBar,
    after_graph: &mut dyn FnMut(&[Record]) -> Result<()>,
) -> Result<Vec<Record>> {
    let algorithms = plan.algorithms()?;
    if solver.gpu().is_none() && algorithms.iter().any(|a| a.spec().device == Processor::Gpu) {
        return Err(Error::NoGpu(format!(
            "plan `{}` times GPU algorithms",
            plan.name
        )));
    }
    let mut records = Vec::new();
    for (size_index, &n) in plan.sizes.iter().enumerate() {
        for graph_index in 0..plan.graphs_per_size {
            let seed = plan
                .seed
                .wrapping_add(1000 * size_index as u64 + graph_index as u64);
            let spec = plan.graph_spec(n, seed);
            progress.set_message(format!(
                "{}: n = {n}, graph {}: generating",
                plan.name,
                graph_index + 1
            ));
            let graph = random_graph(&spec)?;
            // The oracle runs on another core while the GPU-only algorithms are
            // timed (they wait on the GPU, not on host memory); hybrids and CPU
            // algorithms are timed after it, alone.
            let (gpu_only, host_bound): (Vec<Algorithm>, Vec<Algorithm>) = algorithms
                .iter()
                .partition(|a| a.spec().device == Processor::Gpu && !a.is_hybrid());
            let (oracle_result, mut measured) = std::thread::scope(|scope| {
                let oracle = scope.spawn(|| {
                    let start = Instant::now();
                    oracle::dijkstra(&graph, 0).map(|d| (d, start.elapsed().as_secs_f64() * 1e3))
                });
                let measured: Vec<(Algorithm, Result<Measured>)> = gpu_only
                    .iter()
                    .map(|&algo| {
                        progress.set_message(format!(
                            "{}: n = {n}, graph {}: {algo}",
                            plan.name,
                            graph_index + 1
                        ));
                        (algo, measure(plan, solver, &graph, algo))
                    })
                    .collect();
                (
                    oracle.join().unwrap_or_else(|_| {
                        Err(Error::Internal("the oracle thread panicked".into()))
                    }),
                    measured,
                )
            });
            let (expected, oracle_ms) = oracle_result?;
            for &algo in &host_bound {
                progress.set_message(format!(
                    "{}: n = {n}, graph {}: {algo}",
                    plan.name,
                    graph_index + 1
                ));
                measured.push((algo, measure(plan, solver, &graph, algo)));
            }
            measured.sort_by_key(|(algo, _)| algorithms.iter().position(|a| a == algo));
            for (algo, measured) in measured {
                let measured = measured?;
                let wrong = match distances::compare(graph.weight_kind(), &expected, &measured.dist)
                {
                    Ok(()) => 0,
                    Err(Error::Mismatch { count, .. }) => count,
                    Err(e) => return Err(e),
                };
                if wrong > 0 && algo.spec().exact {
                    return Err(Error::Mismatch {
                        vertex: 0,
                        expected: "the oracle's distances".into(),
                        found: format!(
                            "{wrong} different distances from {algo} (n = {n}, seed {seed})"
                        ),
                        count: wrong,
                        num_vertices: n,
                    });
                }
                let median_ms = median(&measured.times_ms);
                let floor = floor_bytes(
                    plan.layout,
                    n,
                    graph.num_edges(),
                    measured.iterations.unwrap_or(1),
                );
                records.push(Record {
                    plan: plan.name.clone(),
                    layout: plan.layout.name().to_string(),
                    n,
                    m: graph.num_edges(),
                    graph: graph_index,
                    seed,
                    algorithm: algo.name().to_string(),
                    device: if algo.spec().device == Processor::Gpu {
                        "GPU"
                    } else {
                        "CPU"
                    }
                    .to_string(),
                    iterations: measured.iterations,
                    median_ms,
                    times_ms: measured.times_ms,
                    prepare_ms: measured.prepare_ms,
                    oracle_ms,
                    verified: wrong == 0,
                    wrong,
                    floor_bytes: floor,
                    achieved_bytes_per_s: floor as f64 / (median_ms / 1e3),
                    launched_threads: measured.threads.map(|t| t.launched),
                    working_threads: measured.threads.map(|t| t.working),
                });
                progress.inc(1);
            }
            after_graph(&records)?;
        }
    }
    Ok(records)
}

struct Measured {
    dist: Vec<u32>,
    iterations: Option<u32>,
    times_ms: Vec<f64>,
    prepare_ms: f64,
    threads: Option<sssp::gpu::solver::ThreadCount>,
}

/// Solves from vertex 0 with a solver prepared for many solves (`auto`'s whole
/// trial: [`sssp::solver::Solver::prepare_for`] with `Solves::Many`), then
/// [`sssp::solver::Prepared::solve`]: GPU algorithms with the plan's warm-up
/// and repetitions, CPU ones `cpu_repetitions` times.
fn measure(plan: &BenchPlan, solver: &Solver, graph: &Graph, algo: Algorithm) -> Result<Measured> {
    let mut prepared = solver.prepare_for(graph, algo, Tuning::default(), (0, Solves::Many))?;
    let timing = match prepared.device() {
        Processor::Gpu => Timing {
            warmup: plan.warmup,
            runs: plan.repetitions.max(1),
        },
        Processor::Cpu => Timing {
            warmup: 0,
            runs: plan.cpu_repetitions.max(1),
        },
    };
    let row = prepared.solve(0, Stop::default(), false, timing)?;
    let threads = if plan.measure_threads {
        prepared.count_working_threads(0)?
    } else {
        None
    };
    Ok(Measured {
        dist: row.dist,
        iterations: row.iterations,
        times_ms: row.times_ms,
        prepare_ms: prepared.prepare_ms().unwrap_or(0.0),
        threads,
    })
}

pub use sssp::solver::median;
