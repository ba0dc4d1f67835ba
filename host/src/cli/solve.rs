//! `host --graph FILE`: load, upload, solve, summarize, verify, write.

use std::fmt::Display;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, ValueEnum};
use serde::Serialize;
use sssp::algorithms::{Algorithm, Device};
use sssp::distances;
use sssp::formats::{self, InputNumbering, LoadedGraph};
use sssp::gpu::Gpu;
use sssp::{Error, Graph, Result, oracle};

use super::FormatArg;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DeviceChoice {
    /// A GPU algorithm on the GPU if there is one, else the CPU oracle (with a notice).
    Auto,
    /// The GPU; an error if there is none.
    Gpu,
    /// The CPU: a GPU algorithm is replaced by the oracle (Dijkstra with a binary heap).
    Cpu,
}

/// The graph's representation on the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Layout {
    /// Adjacency lists (CSR).
    List,
    /// Adjacency matrix.
    Matrix,
}

/// How `--output` writes distances.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// `vertex distance` lines with the input's vertex ids (1-based for .gr and
    /// .mtx), `inf` when unreachable.
    Text,
    /// Raw little-endian u32 distances, one per vertex in order (no header),
    /// 4294967295 (u32::MAX) when unreachable.
    Bin,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The graph: g.csr (.csr, see graphs/README.md), DIMACS (.gr), Matrix Market
    /// (.mtx), edge list (.el, .txt); a text format may be gzipped (.gr.gz, …).
    /// The format comes from the extension unless --format names it.
    #[arg(long, required = true)]
    graph: Option<PathBuf>,
    /// The graph's format, instead of guessing it from the extension (a `.gz`
    /// file is still decompressed).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// The algorithm (`host algos` lists them); several, comma-separated, are
    /// solved one after another and compared in a table.
    #[arg(long, default_value = "f-gpu", value_delimiter = ',')]
    algo: Vec<Algorithm>,
    /// How the algorithms store the graph: adjacency lists (CSR), or an n×n
    /// weight matrix built on load (`--algo f-gpu` then runs `matrix-f-gpu`).
    #[arg(long, value_enum, default_value_t = Layout::List)]
    layout: Layout,
    /// Source vertex, in the input file's numbering: 0-based for .csr and edge
    /// lists, 1-based for .gr and .mtx (there --source 1 is the first vertex).
    /// Default: the first vertex.
    #[arg(long)]
    source: Option<u64>,
    /// Also solve with the CPU oracle and compare every distance.
    #[arg(long)]
    verify: bool,
    /// Write the distances to this file (see --output-format).
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// How --output writes the distances.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    output_format: OutputFormat,
    /// Print one JSON object with the summary on stdout instead of the human
    /// summary (notices and warnings stay on stderr).
    #[arg(long)]
    json: bool,
    /// Where to solve.
    #[arg(long, value_enum, default_value_t = DeviceChoice::Auto)]
    device: DeviceChoice,
    /// CUDA device ordinal.
    #[arg(long, default_value_t = 0)]
    gpu: usize,
    /// Timed GPU solves; the summary gives their median, min and max.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Untimed GPU solves before the timed ones.
    #[arg(long, default_value_t = 1)]
    warmup: u32,
}

/// The human summary on stdout, or nothing with `--json`.
struct Human {
    quiet: bool,
}

impl Human {
    fn line(&self, text: impl Display) {
        if !self.quiet {
            println!("{text}");
        }
    }
}

/// The `--json` summary.
#[derive(Serialize)]
struct JsonSummary {
    graph: String,
    format: &'static str,
    gzip: bool,
    vertices: usize,
    edges: usize,
    /// The input's id of the first vertex (0 or 1): `source` and `--output` use it.
    numbering_base: u32,
    source: u64,
    load_ms: f64,
    device: Option<String>,
    algorithms: Vec<JsonAlgorithm>,
    output: Option<String>,
    output_format: Option<&'static str>,
}

/// One algorithm's entry of the `--json` summary.
#[derive(Serialize)]
struct JsonAlgorithm {
    name: &'static str,
    requested: &'static str,
    paper: &'static str,
    device: &'static str,
    iterations: Option<u32>,
    prepare_ms: Option<f64>,
    solve_ms: JsonTimes,
    timer: &'static str,
    reached: usize,
    max_distance: u32,
    checksum: String,
    verified: Option<bool>,
    mismatches: Option<usize>,
}

#[derive(Serialize)]
struct JsonTimes {
    median: f64,
    min: f64,
    max: f64,
    runs: usize,
}

pub fn run(args: &SolveArgs) -> Result<()> {
    let path = args
        .graph
        .as_deref()
        .ok_or_else(|| Error::InvalidArgument("--graph is required".into()))?;
    if args.output.is_some() && args.algo.len() > 1 {
        return Err(Error::InvalidArgument(
            "--output takes a single --algo".into(),
        ));
    }
    let out = Human { quiet: args.json };
    let load_start = Instant::now();
    let loaded = formats::load(path, args.format.map(Into::into))?;
    let graph = loaded.graph()?;
    let load_ms = load_start.elapsed().as_secs_f64() * 1e3;
    let numbering = loaded.numbering();
    let source_id = args.source.unwrap_or(numbering.external(0));
    let source = source_vertex(&loaded, &graph, source_id)?;
    out.line(format_args!("graph        {}", path.display()));
    out.line(format_args!(
        "format       {}{}",
        loaded.format(),
        if loaded.gzip() { " (gzip)" } else { "" }
    ));
    out.line(format_args!("vertices     {}", graph.num_vertices()));
    out.line(format_args!("edges        {}", graph.num_edges()));
    if numbering.base == 0 {
        out.line(format_args!("source       {source_id}"));
    } else {
        out.line(format_args!(
            "source       {source_id} (vertex ids from {} as in the file)",
            numbering.base
        ));
    }
    out.line(format_args!(
        "load         {load_ms:.1} ms (read, parse and validate)"
    ));

    let algorithms: Vec<Algorithm> = match args.layout {
        Layout::List => args.algo.clone(),
        Layout::Matrix => args
            .algo
            .iter()
            .map(|&a| {
                a.on_matrix().ok_or_else(|| {
                    Error::InvalidArgument(format!("`{a}` has no adjacency-matrix form"))
                })
            })
            .collect::<Result<_>>()?,
    };
    let wants_gpu = algorithms.iter().any(|a| a.info().device == Device::Gpu);
    let gpu = match args.device {
        DeviceChoice::Cpu => None,
        _ if !wants_gpu => None,
        DeviceChoice::Gpu => Some(Gpu::new(args.gpu)?),
        DeviceChoice::Auto => match Gpu::new(args.gpu) {
            Ok(gpu) => Some(gpu),
            Err(Error::NoGpu(reason)) => {
                eprintln!(
                    "notice: no CUDA GPU available ({reason}); solving on the CPU with the oracle instead"
                );
                None
            }
            Err(e) => return Err(e),
        },
    };
    let device_name = match &gpu {
        Some(gpu) => Some(gpu.name()?),
        None => None,
    };
    if let Some(name) = &device_name {
        out.line(format_args!("device       {name}"));
    }

    let mut expected: Option<Vec<u32>> = None;
    let mut rows = Vec::new();
    let mut json_rows = Vec::new();
    let mut first_failure = None;
    for &requested in &algorithms {
        // Without a GPU, a GPU algorithm is replaced by the oracle.
        let algo = match (&gpu, requested.info().device) {
            (None, Device::Gpu) => Algorithm::Dijkstra,
            _ => requested,
        };
        let info = algo.info();
        out.line("");
        out.line(format_args!("algorithm    {algo} ({})", info.paper));
        if !info.exact {
            eprintln!(
                "warning: `{algo}` is for measurement only and can give wrong distances; --verify counts them"
            );
        }
        let on_gpu = gpu.as_ref().filter(|_| info.device == Device::Gpu);
        let run = match on_gpu {
            Some(gpu) => solve_on_gpu(gpu, &graph, algo, source as u32, args, &out)?,
            None => solve_on_cpu(&graph, algo, source, &out)?,
        };
        let summary = distances::summarize(&run.dist);
        out.line(format_args!(
            "reached      {} of {} vertices",
            summary.reached,
            graph.num_vertices()
        ));
        out.line(format_args!("max distance {}", summary.max_distance));
        out.line(format_args!("checksum     {:016x}", summary.checksum));
        if let Some(output) = &args.output {
            write_distances(output, &run.dist, numbering, args.output_format)?;
            out.line(format_args!("output       {}", output.display()));
        }
        let mut verdict = "-".to_string();
        let (mut verified, mut mismatches) = (None, None);
        if args.verify {
            if expected.is_none() {
                let start = Instant::now();
                expected = Some(oracle::dijkstra(&graph, source)?);
                out.line(format_args!(
                    "oracle       {:.1} ms (CPU Dijkstra)",
                    start.elapsed().as_secs_f64() * 1e3
                ));
            }
            let expected = expected.as_deref().unwrap_or_default();
            match distances::compare(expected, &run.dist) {
                Ok(()) => {
                    out.line(format_args!(
                        "verified: all {} distances equal the oracle's",
                        run.dist.len()
                    ));
                    verdict = "verified".into();
                    (verified, mismatches) = (Some(true), Some(0));
                }
                Err(mismatch) => {
                    out.line(format_args!("NOT verified: {mismatch}"));
                    let count = match &mismatch {
                        Error::Mismatch { count, .. } => *count,
                        _ => run.dist.len(),
                    };
                    verdict = format!("{count} wrong");
                    (verified, mismatches) = (Some(false), Some(count));
                    first_failure.get_or_insert(mismatch);
                }
            }
        }
        let (median, min, max) = run.times_ms;
        json_rows.push(JsonAlgorithm {
            name: algo.name(),
            requested: requested.name(),
            paper: info.paper,
            device: if on_gpu.is_some() { "gpu" } else { "cpu" },
            iterations: run.iterations,
            prepare_ms: run.prepare_ms,
            solve_ms: JsonTimes {
                median,
                min,
                max,
                runs: run.runs,
            },
            timer: if on_gpu.is_some() {
                "cuda-events"
            } else {
                "host"
            },
            reached: summary.reached,
            max_distance: summary.max_distance,
            checksum: format!("{:016x}", summary.checksum),
            verified,
            mismatches,
        });
        rows.push((algo, run, verdict));
    }
    if rows.len() > 1 {
        out.line("");
        out.line(format_args!(
            "{:<26} {:>10} {:>12} {:>12} {:>12}  verify",
            "algorithm", "iterations", "median ms", "min ms", "max ms"
        ));
        for (algo, run, verdict) in &rows {
            let iterations = run.iterations.map_or("-".to_string(), |i| i.to_string());
            let (median, min, max) = run.times_ms;
            out.line(format_args!(
                "{:<26} {iterations:>10} {median:>12.3} {min:>12.3} {max:>12.3}  {verdict}",
                algo.name()
            ));
        }
    }
    if args.json {
        let summary = JsonSummary {
            graph: path.display().to_string(),
            format: loaded.format().name(),
            gzip: loaded.gzip(),
            vertices: graph.num_vertices(),
            edges: graph.num_edges(),
            numbering_base: numbering.base,
            source: source_id,
            load_ms,
            device: device_name,
            algorithms: json_rows,
            output: args.output.as_ref().map(|p| p.display().to_string()),
            output_format: args.output.as_ref().map(|_| match args.output_format {
                OutputFormat::Text => "text",
                OutputFormat::Bin => "bin",
            }),
        };
        let text = serde_json::to_string_pretty(&summary)
            .map_err(|e| Error::InvalidArgument(format!("cannot write the JSON summary: {e}")))?;
        println!("{text}");
    }
    first_failure.map_or(Ok(()), Err)
}

/// The graph vertex of `--source`, given in the input's numbering.
fn source_vertex(loaded: &LoadedGraph, graph: &Graph, id: u64) -> Result<usize> {
    let numbering = loaded.numbering();
    let n = graph.num_vertices();
    match numbering.internal(id, n) {
        Some(v) => Ok(v),
        None if numbering.base == 0 => Err(Error::SourceOutOfRange {
            vertex: id,
            num_vertices: n,
        }),
        None => Err(Error::InvalidArgument(format!(
            "source vertex {id} is out of range: the graph has {n} vertices, numbered {} as in \
             the {} file",
            numbering.id_range(n),
            loaded.format()
        ))),
    }
}

/// One algorithm's result: distances, iterations and (median, min, max) times.
struct Run {
    dist: Vec<u32>,
    iterations: Option<u32>,
    prepare_ms: Option<f64>,
    times_ms: (f64, f64, f64),
    runs: usize,
}

fn solve_on_cpu(graph: &Graph, algo: Algorithm, source: usize, out: &Human) -> Result<Run> {
    let start = Instant::now();
    let (dist, iterations) = algo.solve_cpu(graph, source)?;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    if let Some(iterations) = iterations {
        out.line(format_args!("iterations   {iterations}"));
    }
    out.line(format_args!("solve        {ms:.1} ms (CPU, host timer)"));
    Ok(Run {
        dist,
        iterations,
        prepare_ms: None,
        times_ms: (ms, ms, ms),
        runs: 1,
    })
}

fn solve_on_gpu(
    gpu: &Gpu,
    graph: &Graph,
    algo: Algorithm,
    source: u32,
    args: &SolveArgs,
    out: &Human,
) -> Result<Run> {
    let start = Instant::now();
    let mut solver = algo.prepare_gpu(gpu, graph)?;
    gpu.synchronize()?;
    let prepare_ms = start.elapsed().as_secs_f64() * 1e3;
    out.line(format_args!(
        "prepare      {prepare_ms:.1} ms (upload, and transpose or precompute where needed)"
    ));
    for _ in 0..args.warmup {
        solver.run(source)?;
    }
    let mut times = Vec::with_capacity(args.runs as usize);
    let mut iterations = 0;
    for _ in 0..args.runs {
        let stats = solver.run(source)?;
        iterations = stats.iterations;
        times.push(stats.solve_ms as f64);
    }
    times.sort_by(f64::total_cmp);
    out.line(format_args!("iterations   {iterations}"));
    let (median, min, max) = (times[times.len() / 2], times[0], times[times.len() - 1]);
    if times.len() == 1 {
        out.line(format_args!(
            "solve        {median:.3} ms (GPU, CUDA events, after {} warm-up runs)",
            args.warmup
        ));
    } else {
        out.line(format_args!(
            "solve        {median:.3} ms (GPU, CUDA events; median of {} runs after {} warm-up, min {min:.3}, max {max:.3})",
            times.len(),
            args.warmup,
        ));
    }
    Ok(Run {
        dist: solver.distances()?,
        iterations: Some(iterations),
        prepare_ms: Some(prepare_ms),
        times_ms: (median, min, max),
        runs: times.len(),
    })
}

/// Writes `dist` to `path`: `vertex distance` lines with the input's vertex ids,
/// or the raw little-endian `u32`s.
fn write_distances(
    path: &Path,
    dist: &[u32],
    numbering: InputNumbering,
    format: OutputFormat,
) -> Result<()> {
    let io_error = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::create(path).map_err(io_error)?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    match format {
        OutputFormat::Text => {
            for (v, &d) in dist.iter().enumerate() {
                writeln!(out, "{} {}", numbering.external(v), distances::display(d))
                    .map_err(io_error)?;
            }
        }
        OutputFormat::Bin => {
            for chunk in dist.chunks(1 << 14) {
                let bytes: Vec<u8> = chunk.iter().flat_map(|d| d.to_le_bytes()).collect();
                out.write_all(&bytes).map_err(io_error)?;
            }
        }
    }
    out.flush().map_err(io_error)
}
