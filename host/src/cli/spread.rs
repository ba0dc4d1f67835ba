//! `--gpus` and `--all-sources` with `--index`: the sources spread over
//! several devices ([`sssp::multi::IndexSpread`]) for `--within`,
//! `--nearest` and streamed trees, and all-pairs accessibility (`--within D
//! --all-sources`) with its progress line.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use sssp::ch::{Hierarchy, Values};
use sssp::formats::output::OutputFormat;
use sssp::multi::{IndexSpread, Meter, Worker, WorkerReport};
use sssp::{Error, Result, Solver};

use super::device::DeviceChoice;
use super::index_rows::{self, print_nearest, print_within, read_values};
use super::input::{Query, weight_word};
use super::report::Human;
use super::solve_args::SolveArgs;
use super::streamed::SummarySink;

/// Whether `args` ask for a spread.
pub fn wanted(args: &SolveArgs) -> bool {
    args.gpus.is_some() || args.all_sources
}

/// Answers `query` from `hierarchy` spread over the devices of `--gpus`
/// (without it, `solver`'s device).
pub fn run(
    args: &SolveArgs,
    query: &Query,
    (hierarchy, solver): (&Hierarchy, &Solver),
    out: &Human,
) -> Result<()> {
    let workers = workers(args, solver)?;
    let mut spread = IndexSpread::new(hierarchy, workers);
    if let Some(lanes) = args.batch {
        spread = spread.lanes(lanes);
    }
    let start = Instant::now();
    let reports = if args.all_sources {
        accessibility(args, query, &spread, out)?
    } else if args.within.is_some() {
        let (limit, values) = within_args(args, hierarchy)?;
        let (rows, reports) = spread.within(
            &query.sources,
            limit,
            values.as_deref().map(Values::F64),
            None,
        )?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        print_within(args, query, &rows, (ms, &on(&reports)), out);
        reports
    } else if args.nearest {
        let (nearest, reports) = spread.nearest(&query.sources)?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        print_nearest(args, query, (hierarchy.weight_kind, &nearest), ms, out)?;
        reports
    } else if index_rows::streams(args, query) && !args.json {
        trees(args, query, &spread, out)?
    } else {
        return Err(Error::InvalidArgument(
            "--gpus applies to --within, --nearest and streamed trees (--sources without \
             --verify, --certify, --json, --parents, --path-to or --runs)"
                .into(),
        ));
    };
    print_reports(&reports, out);
    Ok(())
}

/// The workers of `--gpus`: the CPU under `--device cpu`, or under `auto`
/// on a machine without a GPU (with a notice); without `--gpus`, the
/// solver's device.
fn workers(args: &SolveArgs, solver: &Solver) -> Result<Vec<Worker>> {
    if args.device == DeviceChoice::Cpu {
        return Ok(vec![Worker::Cpu]);
    }
    let Some(gpus) = &args.gpus else {
        return Ok(vec![match solver.gpu() {
            Some(_) => Worker::Gpu(args.gpu),
            None => Worker::Cpu,
        }]);
    };
    match gpus.workers() {
        Err(Error::NoGpu(reason)) if args.device == DeviceChoice::Auto => {
            eprintln!("notice: no CUDA GPU available ({reason}); the trees run on the CPU");
            Ok(vec![Worker::Cpu])
        }
        other => other,
    }
}

/// `--within`'s limit as a weight word, and `--values`.
fn within_args(args: &SolveArgs, hierarchy: &Hierarchy) -> Result<(u32, Option<Vec<f64>>)> {
    let text = args.within.as_deref().unwrap_or("0");
    let limit = weight_word("--within", text, hierarchy.weight_kind, true)?;
    let values = args.values.as_deref().map(read_values).transpose()?;
    Ok((limit, values))
}

/// The trees of the sources streamed from every worker, summarized (and
/// written) as they come.
fn trees(
    args: &SolveArgs,
    query: &Query,
    spread: &IndexSpread,
    out: &Human,
) -> Result<Vec<WorkerReport>> {
    if args.output.is_some()
        && OutputFormat::from(args.output_format) == OutputFormat::Bin
        && spread.workers().len() > 1
    {
        return Err(Error::InvalidArgument(
            "--output-format bin with several --gpus: the rows come from the devices out of \
             order; write text (each line names its source)"
                .into(),
        ));
    }
    let kind = spread.hierarchy().weight_kind;
    let mut sink = SummarySink::new(args, query, kind)?;
    let start = Instant::now();
    let reports = spread.solve_rows(&query.sources, query.stop, &mut |i, row| sink.take(i, row))?;
    let wall_ms = start.elapsed().as_secs_f64() * 1e3;
    let count = query.sources.len();
    out.line(format_args!(
        "trees        {count} in {wall_ms:.3} ms: {:.4} ms per tree (host timer; streamed from \
         {} workers, summarized{} as they come)",
        wall_ms / count.max(1) as f64,
        reports.len(),
        if sink.writes() { " and written" } else { "" }
    ));
    let summaries = sink.finish(args, out)?;
    index_rows::print_tree_summaries(query, kind, &summaries, out);
    Ok(reports)
}

/// `--within D --all-sources`: every vertex's count and value sum within
/// `D`, summarized, written to `--output` as `vertex count sum` lines.
fn accessibility(
    args: &SolveArgs,
    query: &Query,
    spread: &IndexSpread,
    out: &Human,
) -> Result<Vec<WorkerReport>> {
    let hierarchy = spread.hierarchy();
    let (limit, values) = within_args(args, hierarchy)?;
    let meter = Meter::new(
        "accessibility",
        args.progress || std::io::stderr().is_terminal(),
    );
    let progress = |done: usize, total: usize| meter.show(done, total);
    let start = Instant::now();
    let (access, reports) =
        spread.accessibility(limit, values.as_deref().map(Values::F64), Some(&progress))?;
    meter.end();
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let n = access.counts.len();
    let most = access.counts.iter().copied().max().unwrap_or(0);
    let mean = access.counts.iter().map(|&c| f64::from(c)).sum::<f64>() / n.max(1) as f64;
    let text = args.within.as_deref().unwrap_or("0");
    out.line(format_args!(
        "accessibility {n} vertices within {text} in {ms:.3} ms: {mean:.1} vertices on average, \
         {most} at most{}",
        match values {
            Some(_) => format!(
                ", value sums {:.6e} in all",
                access.sums.iter().sum::<f64>()
            ),
            None => String::new(),
        }
    ));
    let Some(path) = &args.output else {
        return Ok(reports);
    };
    let write_error = |source| Error::Write {
        path: path.clone(),
        source,
    };
    let file = std::fs::File::create(path).map_err(write_error)?;
    let mut file = std::io::BufWriter::new(file);
    for (v, (count, sum)) in access.counts.iter().zip(&access.sums).enumerate() {
        let vertex = query.numbering.external(v);
        writeln!(file, "{vertex} {count} {sum}").map_err(write_error)?;
    }
    file.flush().map_err(write_error)?;
    out.line(format_args!("output       {}", path.display()));
    Ok(reports)
}

/// Where the work of `reports` ran: `CPU`, or `N GPU workers`.
fn on(reports: &[WorkerReport]) -> String {
    match reports.iter().all(|r| r.worker == Worker::Cpu) {
        true => "CPU".into(),
        false => format!("{} GPU workers", reports.len()),
    }
}

/// The `devices` line: how many workers, and the rows each took.
fn print_reports(reports: &[WorkerReport], out: &Human) {
    let each: Vec<String> = reports
        .iter()
        .map(|r| {
            format!(
                "{} took {} sources in {} batches ({:.1} ms)",
                r.worker, r.rows, r.batches, r.ms
            )
        })
        .collect();
    out.line(format_args!(
        "devices      {} worker{}: {}",
        reports.len(),
        if reports.len() == 1 { "" } else { "s" },
        each.join(", ")
    ));
}
