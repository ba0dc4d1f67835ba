//! `host --graph g.csr`: load, upload, solve, summarize, verify, write.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, ValueEnum};
use sssp::distances::{self, check_source};
use sssp::format::GraphFile;
use sssp::gpu::Gpu;
use sssp::gpu::da2cf::Da2cf;
use sssp::gpu::memory::DeviceGraph;
use sssp::{Error, Graph, Result, oracle};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DeviceChoice {
    /// The GPU if there is one, else the CPU oracle (with a notice).
    Auto,
    /// The GPU; an error if there is none.
    Gpu,
    /// The CPU oracle (Dijkstra with a binary heap).
    Cpu,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The graph, a g.csr file (see graphs/README.md).
    #[arg(long, required = true)]
    graph: Option<PathBuf>,
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

    let gpu = match args.device {
        DeviceChoice::Cpu => None,
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

    let dist = match &gpu {
        Some(gpu) => solve_on_gpu(gpu, &graph, source as u32, args)?,
        None => {
            let start = Instant::now();
            let dist = oracle::dijkstra(&graph, source)?;
            println!("device       CPU (Dijkstra, binary heap)");
            println!(
                "solve        {:.1} ms (CPU)",
                start.elapsed().as_secs_f64() * 1e3
            );
            dist
        }
    };

    let summary = distances::summarize(&dist);
    println!(
        "reached      {} of {} vertices",
        summary.reached,
        graph.num_vertices()
    );
    println!("max distance {}", summary.max_distance);
    println!("checksum     {:016x}", summary.checksum);

    if let Some(output) = &args.output {
        write_distances(output, &dist)?;
        println!("output       {}", output.display());
    }
    if args.verify {
        let start = Instant::now();
        let expected = oracle::dijkstra(&graph, source)?;
        println!(
            "oracle       {:.1} ms (CPU Dijkstra)",
            start.elapsed().as_secs_f64() * 1e3
        );
        distances::compare(&expected, &dist)?;
        println!("verified: all {} distances equal the oracle's", dist.len());
    }
    Ok(())
}

fn solve_on_gpu(gpu: &Gpu, graph: &Graph, source: u32, args: &SolveArgs) -> Result<Vec<u32>> {
    println!(
        "device       {} (DA2CF F^GPU: relax_F, minimum1+2, update)",
        gpu.name()?
    );
    let start = Instant::now();
    let device_graph = DeviceGraph::upload(gpu, graph)?;
    gpu.synchronize()?;
    println!(
        "upload       {:.1} ms (graph to GPU)",
        start.elapsed().as_secs_f64() * 1e3
    );
    let mut solver = Da2cf::new(gpu, &device_graph)?;
    for _ in 0..args.warmup {
        solver.run(source)?;
    }
    let mut times = Vec::with_capacity(args.runs as usize);
    let mut iterations = 0;
    for _ in 0..args.runs {
        let stats = solver.run(source)?;
        iterations = stats.iterations;
        times.push(stats.solve_ms);
    }
    times.sort_by(f32::total_cmp);
    println!("iterations   {iterations}");
    let median = times[times.len() / 2];
    if times.len() == 1 {
        println!(
            "solve        {median:.3} ms (GPU, CUDA events, after {} warm-up runs)",
            args.warmup
        );
    } else {
        println!(
            "solve        {median:.3} ms (GPU, CUDA events; median of {} runs after {} warm-up, min {:.3}, max {:.3})",
            times.len(),
            args.warmup,
            times[0],
            times[times.len() - 1]
        );
    }
    solver.distances()
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
