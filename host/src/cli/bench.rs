//! `host bench`: runs benchmark plans and writes CSV, JSON, a markdown summary
//! and plots.

use std::path::{Path, PathBuf};

use crate::bench::{self, BenchPlan, Report, plot, report};
use crate::bench::{real, roads_index};
use clap::Args;

use super::args::parse_count;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sssp::Solver;
use sssp::algorithms::{Algorithm, Processor};
use sssp::gpu::bandwidth::copy_bandwidth;
use sssp::options::Timing;
use sssp::{Error, Result};

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// quick (under a minute), fig6 (Martín et al. Fig. 6, lists), fig7 (Fig. 7,
    /// matrices), tables (Ortega-Arranz et al. Tables I and II), beyond (fast,
    /// near-far and auto against the paper variants, lists), real (graph files:
    /// --graphs or --graph-dir, optionally against GAPBS with --gapbs),
    /// roads-index (contraction hierarchies on graph files: build, trees,
    /// queries, tables; with --gapbs and --routingkit).
    #[arg(long, default_value = "quick")]
    preset: String,
    /// Run only these plans of the preset (e.g. `tables-lists`; comma-separated).
    #[arg(long, value_delimiter = ',')]
    plans: Option<Vec<String>>,
    /// Replace the preset's vertex counts (comma-separated; 1Mi = 2^20).
    #[arg(long, value_delimiter = ',', value_parser = parse_count)]
    sizes: Option<Vec<usize>>,
    /// Replace the preset's algorithms (comma-separated `--algo` names).
    #[arg(long, value_delimiter = ',')]
    algos: Option<Vec<String>>,
    /// Random graphs per size.
    #[arg(long)]
    graphs_per_size: Option<u32>,
    /// Timed repetitions of each GPU algorithm per graph (at least 5 for reports).
    #[arg(long)]
    reps: Option<u32>,
    /// Timed repetitions of each CPU algorithm per graph.
    #[arg(long)]
    cpu_reps: Option<u32>,
    /// Base seed of the graphs.
    #[arg(long)]
    seed: Option<u64>,
    /// Skip the untimed measuring solve that counts working relax threads.
    #[arg(long)]
    no_thread_count: bool,
    /// Output folder (default: `bench-results/<preset>`).
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Do not run anything: merge these earlier `runs.json` files (runs split
    /// over several calls) and write the summary and plots of them all.
    #[arg(long, value_delimiter = ',')]
    from: Option<Vec<PathBuf>>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// `--preset real`: these graph files (any format the solver reads).
    #[arg(long, value_delimiter = ',')]
    graphs: Option<Vec<PathBuf>>,
    /// `--preset real`: every graph file of this folder (when --graphs is not
    /// given).
    #[arg(long, default_value = "../shared/graphs")]
    graph_dir: PathBuf,
    /// `--preset real`: GAPBS's `sssp` binary, run on the same graph and
    /// source in the same run with its Δ swept (its threads: OMP_NUM_THREADS).
    #[arg(long, value_name = "PATH")]
    gapbs: Option<PathBuf>,
    /// `--preset real`: trials of each GAPBS run (its median is taken).
    #[arg(long, default_value_t = 8)]
    gapbs_trials: u32,
    /// `--preset roads-index`: RoutingKit's `rk_ch` driver
    /// (`../shared/baselines/rk_ch.cpp`, built on the same machine).
    #[arg(long, value_name = "PATH")]
    routingkit: Option<PathBuf>,
    /// `--preset roads-index`: RoutingKit's `rk_cch` driver
    /// (`../shared/baselines/rk_cch.cpp`, built on the same machine), for
    /// the customization columns.
    #[arg(long, value_name = "PATH")]
    routingkit_cch: Option<PathBuf>,
    /// `--preset roads-index`: random sources whose trees are timed (on the
    /// CPU the first 1024 of them).
    #[arg(long, default_value_t = 4096)]
    trees: usize,
    /// `--preset roads-index`: sources and targets of the many-to-many table
    /// (and point-to-point pairs).
    #[arg(long, default_value_t = 1000)]
    table: usize,
}

pub fn run(args: &BenchArgs) -> Result<()> {
    if let Some(files) = &args.from {
        let reports = files
            .iter()
            .map(|path| {
                let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
                    path: path.clone(),
                    source,
                })?;
                serde_json::from_str::<Report>(&text).map_err(|e| {
                    Error::InvalidArgument(format!(
                        "{}: not a bench runs.json: {e}",
                        path.display()
                    ))
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let report = Report::merge(reports)
            .ok_or_else(|| Error::InvalidArgument("--from names no file".into()))?;
        return write_outputs(&out_dir(args)?, report);
    }
    if args.preset == "real" {
        return run_real(args);
    }
    if args.preset == "roads-index" {
        return run_roads_index(args);
    }
    let plans = plans(args)?;
    // The output folder first: a bad one fails before the device is opened.
    let out = out_dir(args)?;
    let (solver, device, copy_bytes_per_s) = open_device(&plans)?;
    let progress = progress_bar(args, &plans)?;
    // A checkpoint of everything finished so far, so that a run stopped early
    // (a time limit) still leaves its graphs for `--from`; a file of its own,
    // so that an earlier complete `runs.json` in `out` is not replaced by a
    // partial one. Removed once the full outputs are written.
    let checkpoint = out.join(CHECKPOINT);
    let mut records = Vec::new();
    for plan in &plans {
        let mut save = |current: &[bench::Record]| {
            let so_far = Report {
                device: device.clone(),
                copy_bytes_per_s,
                plans: plans.clone(),
                records: records.iter().chain(current).cloned().collect(),
            };
            let partial = out.join(format!("{CHECKPOINT}.tmp"));
            report::write_file(&partial, &report::json(&so_far)?)?;
            std::fs::rename(&partial, &checkpoint).map_err(|source| Error::Write {
                path: partial.clone(),
                source,
            })
        };
        let done = bench::run(plan, &solver, &progress, &mut save)?;
        records.extend(done);
    }
    progress.finish_and_clear();

    write_outputs(
        &out,
        Report {
            device,
            copy_bytes_per_s,
            plans,
            records,
        },
    )?;
    match std::fs::remove_file(&checkpoint) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::Write {
            path: checkpoint,
            source: e,
        }),
        _ => Ok(()),
    }
}

/// The preset's plans, only those of `--plans`, with the options' overrides.
fn plans(args: &BenchArgs) -> Result<Vec<BenchPlan>> {
    let mut plans = BenchPlan::preset(&args.preset)?;
    if let Some(only) = &args.plans {
        let names: Vec<String> = plans.iter().map(|p| p.name.clone()).collect();
        if let Some(unknown) = only.iter().find(|o| !names.contains(o)) {
            return Err(Error::InvalidArgument(format!(
                "preset `{}` has no plan `{unknown}`; its plans: {}",
                args.preset,
                names.join(", ")
            )));
        }
        plans.retain(|p| only.contains(&p.name));
    }
    for plan in &mut plans {
        if let Some(sizes) = &args.sizes {
            plan.sizes = sizes.clone();
        }
        if let Some(algos) = &args.algos {
            plan.algorithm_names = algos.clone();
        }
        plan.graphs_per_size = args.graphs_per_size.unwrap_or(plan.graphs_per_size).max(1);
        plan.repetitions = args.reps.unwrap_or(plan.repetitions).max(1);
        plan.cpu_repetitions = args.cpu_reps.unwrap_or(plan.cpu_repetitions).max(1);
        plan.seed = args.seed.unwrap_or(plan.seed);
        plan.measure_threads &= !args.no_thread_count;
        plan.algorithms()?;
    }
    Ok(plans)
}

/// The device the plans need (the GPU where one of their algorithms runs
/// there), its name and its measured copy bandwidth.
fn open_device(plans: &[BenchPlan]) -> Result<(Solver, String, Option<f64>)> {
    let needs_gpu = plans.iter().any(|p| {
        p.algorithms()
            .is_ok_and(|a| a.iter().any(|a| a.spec().device == Processor::Gpu))
    });
    let solver = Solver::new(if needs_gpu {
        sssp::options::Device::Gpu(0)
    } else {
        sssp::options::Device::Cpu
    })?;
    let (device, copy_bytes_per_s) = match solver.gpu() {
        Some(gpu) => {
            let (free, _) = gpu.memory_info()?;
            let bytes = (1usize << 30).min(free as usize / 4);
            (gpu.name()?, Some(copy_bandwidth(gpu, bytes, 20)?))
        }
        None => ("none (CPU algorithms only)".to_string(), None),
    };
    if let Some(bw) = copy_bytes_per_s {
        eprintln!(
            "{device}: device-to-device copy {:.0} GB/s (read + write)",
            bw / 1e9
        );
    }

    Ok((solver, device, copy_bytes_per_s))
}

/// The progress bar of the plans' solves (hidden with `--quiet`).
fn progress_bar(args: &BenchArgs, plans: &[BenchPlan]) -> Result<ProgressBar> {
    let total: u64 = plans
        .iter()
        .map(|p| (p.sizes.len() * p.graphs_per_size as usize * p.algorithm_names.len()) as u64)
        .sum();
    let progress = ProgressBar::new(total);
    if args.quiet {
        progress.set_draw_target(ProgressDrawTarget::hidden());
    }
    progress.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
            .map_err(|e| Error::InvalidArgument(e.to_string()))?
            .progress_chars("=> "),
    );
    Ok(progress)
}

/// `host bench --preset real`: graph files, every candidate verified, GAPBS
/// in the same run.
fn run_real(args: &BenchArgs) -> Result<()> {
    let graphs = match &args.graphs {
        Some(graphs) => graphs.clone(),
        None => real::graphs_in(&args.graph_dir)?,
    };
    let algorithms = match &args.algos {
        Some(names) => names
            .iter()
            .map(|name| name.parse().map_err(Error::InvalidArgument))
            .collect::<Result<Vec<Algorithm>>>()?,
        None => real::RealPlan::DEFAULT_ALGORITHMS.to_vec(),
    };
    let out = out_dir(args)?;
    let plan = real::RealPlan {
        graphs,
        algorithms,
        timing: Timing {
            warmup: 1,
            runs: args.reps.unwrap_or(10).max(1),
        },
        gapbs: args.gapbs.clone(),
        gapbs_trials: args.gapbs_trials,
        scratch: out.clone(),
    };
    let solver = Solver::new(sssp::options::Device::Auto)?;
    if let Some(reason) = solver.no_gpu_reason() {
        eprintln!("notice: no CUDA GPU ({reason}): GPU algorithms run as their CPU fallback");
    }
    let quiet = args.quiet;
    let report = real::run(&plan, &solver, &mut |step| {
        if !quiet {
            eprintln!("{step}");
        }
    })?;
    report::write_file(&out.join("runs.csv"), &real::csv(&report))?;
    let json = serde_json::to_string_pretty(&report)
        .map_err(|e| Error::InvalidArgument(format!("cannot write runs.json: {e}")))?;
    report::write_file(&out.join("runs.json"), &json)?;
    let summary = real::markdown(&report);
    report::write_file(&out.join("summary.md"), &summary)?;
    println!("{summary}");
    println!(
        "wrote runs.csv, runs.json and summary.md to {}",
        out.display()
    );
    Ok(())
}

/// `--preset roads-index`: contraction hierarchies on road graphs.
fn run_roads_index(args: &BenchArgs) -> Result<()> {
    let graphs = match &args.graphs {
        Some(graphs) => graphs.clone(),
        None => real::graphs_in(&args.graph_dir)?,
    };
    let out = out_dir(args)?;
    let plan = roads_index::IndexPlan {
        graphs,
        trees: args.trees.max(1),
        table: args.table.max(1),
        seed: args.seed.unwrap_or(5),
        gapbs: args.gapbs.clone(),
        gapbs_trials: args.gapbs_trials,
        routingkit: args.routingkit.clone(),
        routingkit_cch: args.routingkit_cch.clone(),
        scratch: out.clone(),
    };
    let solver = Solver::new(sssp::options::Device::Auto)?;
    if let Some(reason) = solver.no_gpu_reason() {
        eprintln!("notice: no CUDA GPU ({reason}): trees and tables run on the CPU only");
    }
    let quiet = args.quiet;
    let report = roads_index::run(&plan, &solver, &mut |step| {
        if !quiet {
            eprintln!("{step}");
        }
    })?;
    let json = serde_json::to_string_pretty(&report)
        .map_err(|e| Error::InvalidArgument(format!("cannot write runs.json: {e}")))?;
    report::write_file(&out.join("runs.json"), &json)?;
    let summary = roads_index::markdown(&report);
    report::write_file(&out.join("summary.md"), &summary)?;
    println!("{summary}");
    println!("wrote runs.json and summary.md to {}", out.display());
    Ok(())
}

/// The checkpoint of a bench run in progress, in its output folder.
const CHECKPOINT: &str = "runs.partial.json";

/// The output folder (`--out`, or `bench-results/<preset>`), created.
fn out_dir(args: &BenchArgs) -> Result<PathBuf> {
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("bench-results").join(&args.preset));
    std::fs::create_dir_all(&out).map_err(|source| Error::Write {
        path: out.clone(),
        source,
    })?;
    Ok(out)
}

/// Writes `runs.csv`, `runs.json`, `summary.md` and the plots of `report`
/// into the folder `out`.
fn write_outputs(out: &Path, report: Report) -> Result<()> {
    report::write_file(&out.join("runs.csv"), &report::csv(&report))?;
    report::write_file(&out.join("runs.json"), &report::json(&report)?)?;
    let summary = report::markdown(&report);
    report::write_file(&out.join("summary.md"), &summary)?;
    for plan in &report.plans {
        let records: Vec<&bench::Record> = report
            .records
            .iter()
            .filter(|r| r.plan == plan.name)
            .collect();
        let rows = report::rows(&records, &plan.algorithm_names);
        if !rows.is_empty() {
            plot::draw(out, &plan.name, plan.layout, &rows)?;
        }
    }
    println!("{summary}");
    println!(
        "wrote {}/{{runs.csv, runs.json, summary.md, *-time.svg/png, *-speedup.svg/png}}",
        out.display()
    );
    Ok(())
}
