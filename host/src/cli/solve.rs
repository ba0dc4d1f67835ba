//! `host --graph FILE`: load, upload, solve, summarize, verify, write.

use std::fmt::Display;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, ValueEnum};
use gpu_kernels::distance::{INFINITY, Weight};
use serde::Serialize;
use sssp::algorithms::{Algorithm, Device, Tuning};
use sssp::distances;
use sssp::formats::{self, InputNumbering, LoadedGraph};
use sssp::gpu::Gpu;
use sssp::graph::WeightKind;
use sssp::parents::NO_PARENT;
use sssp::{Error, Graph, Result, cpu, oracle, parents};

use super::{FormatArg, WeightsArg};

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

/// How `--output` writes distances and `--parents` the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// `vertex distance` (`vertex parent`) lines with the input's vertex ids
    /// (1-based for .gr and .mtx), `inf` when unreachable (`-` for no parent);
    /// f32 distances in the shortest form that reads back to the same float.
    Text,
    /// Raw little-endian values, one per vertex in order (no header):
    /// distances as u32s, 4294967295 (u32::MAX) when unreachable, or for f32
    /// weights as f32s, +inf when unreachable; parents as 0-based u32 ids,
    /// 4294967295 for no parent.
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
    /// Read a text graph's weights as this type: `f32` reads reals (`a 1 2
    /// 0.5`) in DIMACS, edge lists and Matrix Market `integer` files. Default:
    /// u32, except f32 for Matrix Market `real` files (which refuse u32). A
    /// g.csr file's type is in its header.
    #[arg(long, value_enum)]
    weights: Option<WeightsArg>,
    /// The algorithm (`host algos` lists them); several, comma-separated, are
    /// solved one after another and compared in a table. Default: `auto`
    /// (`fast`, or `near-far` on high-diameter graphs; docs/PERFORMANCE.md), or
    /// `matrix-f-gpu` with `--layout matrix`.
    #[arg(long, value_delimiter = ',')]
    algo: Vec<Algorithm>,
    /// Band width Δ of `near-far` (default: 32 · mean weight / mean degree): a
    /// positive integer for u32 weights, a positive real (`0.5`) for f32
    /// weights.
    #[arg(long, value_name = "D", value_parser = parse_delta)]
    delta: Option<String>,
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
    /// Check the distances with a linear-time certificate on the CPU (every
    /// edge respected, every reached vertex attained by an in-edge; positive
    /// integer weights only, other graphs are refused before solving) instead
    /// of re-solving: for graphs too large for the oracle.
    #[arg(long)]
    certify: bool,
    /// Write the distances to this file (see --output-format).
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// How --output writes the distances and --parents the tree.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    output_format: OutputFormat,
    /// Write the shortest-path tree to this file (see --output-format): each
    /// reached vertex's parent on a shortest path from the source (the smallest
    /// such vertex), computed after the solve on the same device; the source and
    /// unreached vertices have none.
    #[arg(long, value_name = "FILE")]
    parents: Option<PathBuf>,
    /// Print a shortest path from the source to this vertex (in the input's
    /// numbering, like --source) and its length, read from the shortest-path
    /// tree; with --json, it goes into the JSON object.
    #[arg(long, value_name = "T")]
    path_to: Option<u64>,
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
    /// The weight type, `u32` or `f32`: how to read the distances.
    weights: &'static str,
    /// The input's id of the first vertex (0 or 1): `source` and `--output` use it.
    numbering_base: u32,
    source: u64,
    load_ms: f64,
    device: Option<String>,
    algorithms: Vec<JsonAlgorithm>,
    output: Option<String>,
    /// The `--parents` file.
    parents: Option<String>,
    /// The format of `output` and `parents`, when either is written.
    output_format: Option<&'static str>,
    /// The `--path-to` path.
    path: Option<JsonPath>,
}

/// The `--path-to` entry of the `--json` summary, ids in the input's numbering.
#[derive(Serialize)]
struct JsonPath {
    target: u64,
    reachable: bool,
    /// The path's length (the target's distance); `null` when unreachable.
    distance: Option<JsonDistance>,
    /// From the source to the target; empty when unreachable.
    vertices: Vec<u64>,
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
    max_distance: JsonDistance,
    checksum: String,
    verified: Option<bool>,
    mismatches: Option<usize>,
    /// With --verify and a tree (--parents, --path-to): whether it is the one
    /// the oracle's distances give.
    tree_verified: Option<bool>,
}

/// A finite distance in the `--json` summary: an integer for u32 weights, the
/// exact value of the f32 as a JSON number (an f64) for f32 weights.
#[derive(Serialize, Clone, Copy)]
#[serde(untagged)]
enum JsonDistance {
    Integer(u32),
    Real(f64),
}

impl JsonDistance {
    /// The finite distance word `d` of `kind`.
    fn new(kind: WeightKind, d: u32) -> JsonDistance {
        match kind {
            WeightKind::U32 => JsonDistance::Integer(d),
            WeightKind::F32 => JsonDistance::Real(<f32 as Weight>::to_f64(d)),
        }
    }
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
    for (given, flag) in [
        (args.output.is_some(), "--output"),
        (args.parents.is_some(), "--parents"),
        (args.path_to.is_some(), "--path-to"),
    ] {
        if given && args.algo.len() > 1 {
            return Err(Error::InvalidArgument(format!(
                "{flag} takes a single --algo"
            )));
        }
    }
    let algorithms: Vec<Algorithm> = match args.layout {
        Layout::List if args.algo.is_empty() => vec![Algorithm::Auto],
        Layout::Matrix if args.algo.is_empty() => vec![Algorithm::MatrixFGpu],
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
    if args.delta.is_some() && !algorithms.iter().any(|a| a.takes_delta()) {
        return Err(Error::InvalidArgument(format!(
            "--delta is near-far's band width, and no requested algorithm ({}) takes it: \
             add `--algo near-far` (or `near-far-cpu`, `auto`), or drop --delta",
            algorithms
                .iter()
                .map(|a| a.name())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let out = Human { quiet: args.json };
    let load_start = Instant::now();
    let loaded = formats::load_with(
        path,
        args.format.map(Into::into),
        super::load_options(args.weights),
        &mut |_| {},
    )?;
    let graph = loaded.graph()?;
    let load_ms = load_start.elapsed().as_secs_f64() * 1e3;
    if args.certify {
        // What the certificate cannot judge depends on the graph alone: refuse
        // before solving, not as a failed check afterwards.
        distances::check_certifiable(&graph)?;
    }
    let kind = graph.weight_kind();
    let tuning = Tuning {
        delta: args
            .delta
            .as_deref()
            .map(|text| delta_word(text, kind))
            .transpose()?,
    };
    let numbering = loaded.numbering();
    let source_id = args.source.unwrap_or(numbering.external(0));
    let source = source_vertex(&loaded, &graph, source_id)?;
    let path_target = args
        .path_to
        .map(|id| path_target(&loaded, &graph, id))
        .transpose()?;
    let wants_tree = args.parents.is_some() || path_target.is_some();
    out.line(format_args!("graph        {}", path.display()));
    out.line(format_args!(
        "format       {}{}",
        loaded.format(),
        if loaded.gzip() { " (gzip)" } else { "" }
    ));
    out.line(format_args!("vertices     {}", graph.num_vertices()));
    out.line(format_args!("edges        {}", graph.num_edges()));
    out.line(format_args!("weights      {}", kind.name()));
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
    let mut json_path = None;
    for &requested in &algorithms {
        // Without a GPU, a GPU algorithm is replaced by the oracle.
        let algo = match (&gpu, requested.info().device) {
            (None, Device::Gpu) => Algorithm::Dijkstra,
            _ => requested,
        };
        let algo = if algo == Algorithm::Auto {
            let choice = sssp::auto::choose(&graph, source);
            out.line("");
            out.line(format_args!(
                "auto         chose {}: {}",
                choice.algorithm, choice.reason
            ));
            choice.algorithm
        } else {
            algo
        };
        if tuning.delta.is_some() && !algo.takes_delta() {
            eprintln!("notice: `{algo}` does not use --delta");
        }
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
            Some(gpu) => solve_on_gpu(gpu, &graph, algo, source as u32, tuning, args, &out)?,
            None => solve_on_cpu(&graph, algo, source, tuning, &out)?,
        };
        let summary = distances::summarize(&run.dist);
        out.line(format_args!(
            "reached      {} of {} vertices",
            summary.reached,
            graph.num_vertices()
        ));
        out.line(format_args!(
            "max distance {}",
            distances::display(kind, summary.max_distance)
        ));
        out.line(format_args!("checksum     {:016x}", summary.checksum));
        if let Some(output) = &args.output {
            write_distances(output, &run.dist, kind, numbering, args.output_format)?;
            out.line(format_args!("output       {}", output.display()));
        }
        let tree = if wants_tree {
            Some(shortest_path_tree(on_gpu, &graph, source, &run.dist, &out)?)
        } else {
            None
        };
        if let (Some(tree), Some(file)) = (&tree, &args.parents) {
            write_parents(file, tree, numbering, args.output_format)?;
            out.line(format_args!("parents      {}", file.display()));
        }
        if let (Some(tree), Some(target)) = (&tree, path_target) {
            let path = tree_path(tree, &run.dist, kind, source, target, numbering)?;
            if path.reachable {
                let ids: Vec<String> = path.vertices.iter().map(u64::to_string).collect();
                out.line(format_args!(
                    "path         to {}: length {}, {} edges: {}",
                    path.target,
                    distances::display(kind, run.dist[target]),
                    ids.len().saturating_sub(1),
                    ids.join(" ")
                ));
            } else {
                out.line(format_args!(
                    "path         to {}: unreachable from {source_id}",
                    path.target
                ));
            }
            json_path = Some(path);
        }
        let mut verdict = "-".to_string();
        let (mut verified, mut mismatches, mut tree_verified) = (None, None, None);
        if args.certify {
            let start = Instant::now();
            let result = distances::certify(&graph, source, &run.dist);
            let ms = start.elapsed().as_secs_f64() * 1e3;
            match result {
                Ok(()) => {
                    out.line(format_args!(
                        "certified: all {} distances are shortest ({ms:.1} ms, CPU certificate)",
                        run.dist.len()
                    ));
                    verdict = "certified".into();
                    verified = Some(true);
                }
                Err(wrong) => {
                    out.line(format_args!("NOT certified: {wrong}"));
                    verdict = "not certified".into();
                    verified = Some(false);
                    first_failure.get_or_insert(wrong);
                }
            }
        }
        if args.verify {
            if expected.is_none() {
                let start = Instant::now();
                let dist = oracle::dijkstra(&graph, source)?;
                // For f32 the oracle's distances must also be within rounding
                // of the exact (f64) lengths: equality with the f32 oracle
                // alone would not catch a rounding error shared by both. Once
                // per graph: every run is then compared with them exactly.
                if kind == WeightKind::F32 {
                    oracle::check_f32_against_f64(&graph, source, &dist)?;
                }
                expected = Some(dist);
                out.line(format_args!(
                    "oracle       {:.1} ms (CPU Dijkstra)",
                    start.elapsed().as_secs_f64() * 1e3
                ));
            }
            let expected = expected.as_deref().unwrap_or_default();
            let what = match kind {
                WeightKind::U32 => "the oracle's",
                WeightKind::F32 => {
                    "the f32 oracle's and are within f32 rounding of the f64 oracle's"
                }
            };
            match distances::compare(kind, expected, &run.dist) {
                Ok(()) => {
                    out.line(format_args!(
                        "verified: all {} distances equal {what}",
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
            if let Some(tree) = &tree {
                match parents::check(&graph, source, expected, tree) {
                    Ok(()) => {
                        out.line("verified: the tree is the one the oracle's distances give");
                        tree_verified = Some(true);
                    }
                    Err(wrong) => {
                        out.line(format_args!("NOT verified: {wrong}"));
                        tree_verified = Some(false);
                        first_failure.get_or_insert(wrong);
                    }
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
            max_distance: JsonDistance::new(kind, summary.max_distance),
            checksum: format!("{:016x}", summary.checksum),
            verified,
            mismatches,
            tree_verified,
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
        let format_name = match args.output_format {
            OutputFormat::Text => "text",
            OutputFormat::Bin => "bin",
        };
        let summary = JsonSummary {
            graph: path.display().to_string(),
            format: loaded.format().name(),
            gzip: loaded.gzip(),
            vertices: graph.num_vertices(),
            edges: graph.num_edges(),
            weights: kind.name(),
            numbering_base: numbering.base,
            source: source_id,
            load_ms,
            device: device_name,
            algorithms: json_rows,
            output: args.output.as_ref().map(|p| p.display().to_string()),
            parents: args.parents.as_ref().map(|p| p.display().to_string()),
            output_format: (args.output.is_some() || args.parents.is_some()).then_some(format_name),
            path: json_path,
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

/// The graph vertex of `--path-to`, given in the input's numbering.
fn path_target(loaded: &LoadedGraph, graph: &Graph, id: u64) -> Result<usize> {
    let numbering = loaded.numbering();
    let n = graph.num_vertices();
    numbering.internal(id, n).ok_or_else(|| {
        Error::InvalidArgument(format!(
            "--path-to vertex {id} is out of range: the graph has {n} vertices, numbered {} as \
             in the {} file",
            numbering.id_range(n),
            loaded.format()
        ))
    })
}

/// The shortest-path tree of a solve's distances, on the GPU that solved or on
/// the CPU.
fn shortest_path_tree(
    gpu: Option<&Gpu>,
    graph: &Graph,
    source: usize,
    dist: &[u32],
    out: &Human,
) -> Result<Vec<u32>> {
    let start = Instant::now();
    let (tree, device) = match gpu {
        Some(gpu) => (
            sssp::gpu::parents::shortest_path_tree(gpu, graph, source, dist)?,
            "GPU",
        ),
        None => (
            cpu::parents::shortest_path_tree(graph, source, dist)?,
            "CPU",
        ),
    };
    out.line(format_args!(
        "tree         {:.1} ms ({device}, host timer, transpose and copies included)",
        start.elapsed().as_secs_f64() * 1e3
    ));
    Ok(tree)
}

/// The `--path-to` path from `source` to `target` in `tree`, in the input's
/// numbering; `dist` are the distance words of `kind`.
fn tree_path(
    tree: &[u32],
    dist: &[u32],
    kind: WeightKind,
    source: usize,
    target: usize,
    numbering: InputNumbering,
) -> Result<JsonPath> {
    let path = parents::path(tree, source, target)?;
    Ok(JsonPath {
        target: numbering.external(target),
        reachable: path.is_some(),
        distance: path.as_ref().map(|_| JsonDistance::new(kind, dist[target])),
        vertices: path
            .unwrap_or_default()
            .into_iter()
            .map(|v| numbering.external(v))
            .collect(),
    })
}

/// One algorithm's result: distances, iterations and (median, min, max) times.
struct Run {
    dist: Vec<u32>,
    iterations: Option<u32>,
    prepare_ms: Option<f64>,
    times_ms: (f64, f64, f64),
    runs: usize,
}

fn solve_on_cpu(
    graph: &Graph,
    algo: Algorithm,
    source: usize,
    tuning: Tuning,
    out: &Human,
) -> Result<Run> {
    let start = Instant::now();
    let (dist, iterations) = algo.solve_cpu_tuned(graph, source, tuning)?;
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
    tuning: Tuning,
    args: &SolveArgs,
    out: &Human,
) -> Result<Run> {
    let start = Instant::now();
    let mut solver = algo.prepare_gpu_tuned(gpu, graph, tuning)?;
    gpu.synchronize()?;
    let prepare_ms = start.elapsed().as_secs_f64() * 1e3;
    out.line(format_args!(
        "prepare      {prepare_ms:.1} ms (upload, and transpose or precompute where needed)"
    ));
    let timed = solver.time_runs(source, args.warmup, args.runs)?;
    let (mut times, iterations) = (timed.times_ms, timed.iterations);
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

/// Writes `dist`, distance words of `kind`, to `path`: `vertex distance`
/// lines with the input's vertex ids, or the raw little-endian values: the
/// words themselves for `u32` ([`INFINITY`] = `u32::MAX` when unreachable);
/// for `f32` the floats, whose bit patterns the words are, with `+inf` for
/// [`INFINITY`] so that the file is a plain `f32` array.
fn write_distances(
    path: &Path,
    dist: &[u32],
    kind: WeightKind,
    numbering: InputNumbering,
    format: OutputFormat,
) -> Result<()> {
    let text = |d| distances::display(kind, d);
    match (kind, format) {
        (WeightKind::F32, OutputFormat::Bin) => {
            let floats: Vec<u32> = dist
                .iter()
                .map(|&d| match d {
                    INFINITY => f32::INFINITY.to_bits(),
                    d => d,
                })
                .collect();
            write_per_vertex(path, &floats, numbering, format, text)
        }
        _ => write_per_vertex(path, dist, numbering, format, text),
    }
}

/// Checks the syntax of `--delta` at once: a positive finite number (whether
/// it must be an integer depends on the graph's weights, see [`delta_word`]).
fn parse_delta(text: &str) -> std::result::Result<String, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(text.trim().to_string()),
        _ => Err(format!("`{text}` is not a positive number")),
    }
}

/// The weight word of `--delta`: a positive integer for `u32` weights, a
/// positive real that is a finite nonzero `f32` for `f32` weights.
fn delta_word(text: &str, kind: WeightKind) -> Result<u32> {
    let invalid = |what: &str| {
        Err(Error::InvalidArgument(format!(
            "--delta {text}: the graph has {} weights, so Δ must be {what}",
            kind.name()
        )))
    };
    match kind {
        WeightKind::U32 => match text.parse::<u32>() {
            Ok(delta) if delta > 0 => Ok(delta),
            _ => invalid(&format!("a positive integer (at most {})", u32::MAX)),
        },
        WeightKind::F32 => match text.parse::<f32>() {
            Ok(delta) if delta.is_finite() && delta > 0.0 => Ok(delta.to_bits()),
            _ => invalid(&format!(
                "a positive real that is a nonzero f32 (at most {:e})",
                f32::MAX
            )),
        },
    }
}

/// Writes the tree `parent` to `path`: `vertex parent` lines with the input's
/// vertex ids and `-` for no parent, or the raw little-endian `u32`s (0-based
/// ids, [`NO_PARENT`] for none).
fn write_parents(
    path: &Path,
    parent: &[u32],
    numbering: InputNumbering,
    format: OutputFormat,
) -> Result<()> {
    write_per_vertex(path, parent, numbering, format, |p| match p {
        NO_PARENT => "-".to_string(),
        p => numbering.external(p as usize).to_string(),
    })
}

/// Writes one `u32` per vertex to `path`: `vertex text(value)` lines with the
/// input's vertex ids, or the raw little-endian values.
fn write_per_vertex(
    path: &Path,
    values: &[u32],
    numbering: InputNumbering,
    format: OutputFormat,
    text: impl Fn(u32) -> String,
) -> Result<()> {
    let io_error = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::create(path).map_err(io_error)?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    match format {
        OutputFormat::Text => {
            for (v, &value) in values.iter().enumerate() {
                writeln!(out, "{} {}", numbering.external(v), text(value)).map_err(io_error)?;
            }
        }
        OutputFormat::Bin => {
            for chunk in values.chunks(1 << 14) {
                let bytes: Vec<u8> = chunk.iter().flat_map(|d| d.to_le_bytes()).collect();
                out.write_all(&bytes).map_err(io_error)?;
            }
        }
    }
    out.flush().map_err(io_error)
}
