//! `host --graph g.csr`: load, upload, solve, summarize, verify, write.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, ValueEnum};
use sssp::algorithms::{Algorithm, Device};
use sssp::distances::{self, check_source};
use sssp::format::GraphFile;
use sssp::gpu::Gpu;
use sssp::{Error, Graph, Result, oracle};

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

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The graph, a g.csr file (see graphs/README.md).
    #[arg(long, required = true)]
    graph: Option<PathBuf>,
    /// The algorithm (`host algos` lists them); several, comma-separated, are
    /// solved one after another and compared in a table.
    #[arg(long, default_value = "f-gpu", value_delimiter = ',')]
    algo: Vec<Algorithm>,
    /// How the algorithms store the graph: adjacency lists (CSR), or an n×n
    /// weight matrix built on load (`--algo f-gpu` then runs `matrix-f-gpu`).
    #[arg(long, value_enum, default_value_t = Layout::List)]
    layout: Layout,
    /// Source vertex (0-based).
    #[arg(long, default_value_t = 0)]
    source: u64,
    /// Also solve with the CPU oracle and compare every distance.
    #[arg(long)]
    verify: bool,
    /// Write `vertex distance` lines (`inf` when unreachable) to this file.
    #[arg(long, short)]
    output: Option<PathBuf>,
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
    let load_start = Instant::now();
    let file = GraphFile::open(path)?;
    let graph = file.graph()?;
    let load_s = load_start.elapsed().as_secs_f64();
    let source = usize::try_from(args.source).unwrap_or(usize::MAX);
    check_source(&graph, source)?;
    println!("graph        {}", path.display());
    println!("vertices     {}", graph.num_vertices());
    println!("edges        {}", graph.num_edges());
    println!("source       {source}");
    println!("load         {:.1} ms (read and validate)", load_s * 1e3);

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
    if let Some(gpu) = &gpu {
        println!("device       {}", gpu.name()?);
    }

    let mut expected: Option<Vec<u32>> = None;
    let mut rows = Vec::new();
    let mut first_failure = None;
    for &requested in &algorithms {
        // Without a GPU, a GPU algorithm is replaced by the oracle.
        let algo = match (&gpu, requested.info().device) {
            (None, Device::Gpu) => Algorithm::Dijkstra,
            _ => requested,
        };
        let info = algo.info();
        println!();
        println!("algorithm    {algo} ({})", info.paper);
        if !info.exact {
            eprintln!(
                "warning: `{algo}` is for measurement only and can give wrong distances; --verify counts them"
            );
        }
        let run = match &gpu {
            Some(gpu) if info.device == Device::Gpu => {
                solve_on_gpu(gpu, &graph, algo, source as u32, args)?
            }
            _ => solve_on_cpu(&graph, algo, source)?,
        };
        let summary = distances::summarize(&run.dist);
        println!(
            "reached      {} of {} vertices",
            summary.reached,
            graph.num_vertices()
        );
        println!("max distance {}", summary.max_distance);
        println!("checksum     {:016x}", summary.checksum);
        if let Some(output) = &args.output {
            write_distances(output, &run.dist)?;
            println!("output       {}", output.display());
        }
        let mut verdict = "-".to_string();
        if args.verify {
            if expected.is_none() {
                let start = Instant::now();
                expected = Some(oracle::dijkstra(&graph, source)?);
                println!(
                    "oracle       {:.1} ms (CPU Dijkstra)",
                    start.elapsed().as_secs_f64() * 1e3
                );
            }
            let expected = expected.as_deref().unwrap_or_default();
            match distances::compare(expected, &run.dist) {
                Ok(()) => {
                    println!(
                        "verified: all {} distances equal the oracle's",
                        run.dist.len()
                    );
                    verdict = "verified".into();
                }
                Err(mismatch) => {
                    println!("NOT verified: {mismatch}");
                    verdict = match &mismatch {
                        Error::Mismatch { count, .. } => format!("{count} wrong"),
                        _ => "wrong".into(),
                    };
                    first_failure.get_or_insert(mismatch);
                }
            }
        }
        rows.push((algo, run, verdict));
    }
    if rows.len() > 1 {
        println!();
        println!(
            "{:<26} {:>10} {:>12} {:>12} {:>12}  verify",
            "algorithm", "iterations", "median ms", "min ms", "max ms"
        );
        for (algo, run, verdict) in &rows {
            let iterations = run.iterations.map_or("-".to_string(), |i| i.to_string());
            let (median, min, max) = run.times_ms;
            println!(
                "{:<26} {iterations:>10} {median:>12.3} {min:>12.3} {max:>12.3}  {verdict}",
                algo.name()
            );
        }
    }
    first_failure.map_or(Ok(()), Err)
}

/// One algorithm's result: distances, iterations and (median, min, max) times.
struct Run {
    dist: Vec<u32>,
    iterations: Option<u32>,
    times_ms: (f64, f64, f64),
}

fn solve_on_cpu(graph: &Graph, algo: Algorithm, source: usize) -> Result<Run> {
    let start = Instant::now();
    let (dist, iterations) = algo.solve_cpu(graph, source)?;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    if let Some(iterations) = iterations {
        println!("iterations   {iterations}");
    }
    println!("solve        {ms:.1} ms (CPU, host timer)");
    Ok(Run {
        dist,
        iterations,
        times_ms: (ms, ms, ms),
    })
}

fn solve_on_gpu(
    gpu: &Gpu,
    graph: &Graph,
    algo: Algorithm,
    source: u32,
    args: &SolveArgs,
) -> Result<Run> {
    let start = Instant::now();
    let mut solver = algo.prepare_gpu(gpu, graph)?;
    gpu.synchronize()?;
    println!(
        "prepare      {:.1} ms (upload, and transpose or precompute where needed)",
        start.elapsed().as_secs_f64() * 1e3
    );
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
    println!("iterations   {iterations}");
    let (median, min, max) = (times[times.len() / 2], times[0], times[times.len() - 1]);
    if times.len() == 1 {
        println!(
            "solve        {median:.3} ms (GPU, CUDA events, after {} warm-up runs)",
            args.warmup
        );
    } else {
        println!(
            "solve        {median:.3} ms (GPU, CUDA events; median of {} runs after {} warm-up, min {min:.3}, max {max:.3})",
            times.len(),
            args.warmup,
        );
    }
    Ok(Run {
        dist: solver.distances()?,
        iterations: Some(iterations),
        times_ms: (median, min, max),
    })
}

fn write_distances(path: &Path, dist: &[u32]) -> Result<()> {
    let io_error = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::create(path).map_err(io_error)?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    for (v, &d) in dist.iter().enumerate() {
        writeln!(out, "{v} {}", distances::display(d)).map_err(io_error)?;
    }
    out.flush().map_err(io_error)
}
