//! `host --graph FILE`: load, upload, solve, summarize, verify, write.

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, ValueEnum};
use gpu_kernels::distance::{INFINITY, Weight};
use sssp::algorithms::{Algorithm, Device, Tuning};
use sssp::distances;
use sssp::formats::output::{self, Rows};
use sssp::formats::{self, InputNumbering, LoadedGraph};
use sssp::graph::WeightKind;
use sssp::shortcuts::Shortcuts;
use sssp::solver::{Prepared, SourceSolution, Stop, Timer, Timing};
use sssp::{Error, Graph, Result, Solver, oracle, parents};

use super::report::{
    Human, JsonAbout, JsonAlgorithm, JsonDistance, JsonInput, JsonPath, JsonSource, JsonSummary,
    JsonTimes, TableRow, print_table,
};
use super::{FormatArg, WeightsArg};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DeviceChoice {
    /// A GPU algorithm on the GPU if there is one, else `delta-cpu` (with a notice).
    Auto,
    /// The GPU; an error if there is none.
    Gpu,
    /// The CPU: a GPU algorithm is replaced by `delta-cpu` (parallel Δ-stepping).
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

/// Where `partition` adds shortcuts to its pieces (`sssp::shortcuts`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShortcutsArg {
    /// In resident mode, and in paged mode where fewer shortcuts than arcs
    /// are estimated (road networks, not grids).
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl From<ShortcutsArg> for Shortcuts {
    fn from(arg: ShortcutsArg) -> Shortcuts {
        match arg {
            ShortcutsArg::Auto => Shortcuts::Auto,
            ShortcutsArg::Always => Shortcuts::Always,
            ShortcutsArg::Never => Shortcuts::Never,
        }
    }
}

/// How `--output` writes distances and `--parents` the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// `vertex distance` (`vertex parent`) lines with the input's vertex ids
    /// (1-based for .gr and .mtx), `inf` when unreachable (`-` for no parent);
    /// f32 distances in the shortest form that reads back to the same float.
    /// With --sources: `source vertex distance` lines.
    Text,
    /// Raw little-endian values, one per vertex in order (no header):
    /// distances as u32s, 4294967295 (u32::MAX) when unreachable, or for f32
    /// weights as f32s, +inf when unreachable; parents as 0-based u32 ids,
    /// 4294967295 for no parent. With --sources: one row per source, in
    /// order (a row-major sources × vertices matrix).
    Bin,
}

impl OutputFormat {
    fn name(self) -> &'static str {
        output::OutputFormat::from(self).name()
    }
}

impl From<OutputFormat> for output::OutputFormat {
    fn from(format: OutputFormat) -> output::OutputFormat {
        match format {
            OutputFormat::Text => output::OutputFormat::Text,
            OutputFormat::Bin => output::OutputFormat::Bin,
        }
    }
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The graph: g.csr (.csr, see graphs/README.md), DIMACS (.gr), Matrix Market
    /// (.mtx), edge list (.el, .wel, .txt); a text format may be gzipped (.gr.gz, …).
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
    /// (`partition`/`near-far` on high-diameter graphs, else the fastest of
    /// `fast-crauser`, `near-far` and `fast` in a trial from the source;
    /// docs/PERFORMANCE.md), or
    /// `matrix-f-gpu` with `--layout matrix`.
    #[arg(long, value_delimiter = ',')]
    algo: Vec<Algorithm>,
    /// Band width Δ of `near-far` (default: 32 · mean weight / the smaller of
    /// the mean and the median out-degree), window of `partition` (default:
    /// chosen in a trial from the first source, from 8 · mean weight halved
    /// or doubled while faster) and bucket width of `delta-cpu` (fixed for
    /// the solve; by default it adapts as the solve goes): a positive integer
    /// for u32 weights, a positive real (`0.5`) for f32 weights.
    #[arg(long, value_name = "D", value_parser = parse_delta)]
    delta: Option<String>,
    /// Where `partition` adds shortcuts to its pieces: for each piece, an arc
    /// from each vertex entered from another piece to each vertex on its
    /// border, weighted by their distance inside the piece (u32 weights only;
    /// the distances do not change, the shortest-path tree gets shallower).
    /// `auto` adds them in resident mode, and in paged mode where a sample of
    /// the pieces predicts fewer shortcuts than the graph has arcs. The
    /// window then spans 8 mean shortcut weights unless --delta is given.
    #[arg(long, value_enum, default_value_t = ShortcutsArg::Auto)]
    shortcuts: ShortcutsArg,
    /// Threads a block of `partition` (256, 384 or 768: three, two or one
    /// block a multiprocessor, so smaller or larger pieces). Default: 256,
    /// and `--algo auto`'s trial tries the others.
    #[arg(long, value_name = "THREADS")]
    block_threads: Option<u32>,
    /// How the algorithms store the graph: adjacency lists (CSR), or an n×n
    /// weight matrix built on load (`--algo f-gpu` then runs `matrix-f-gpu`).
    #[arg(long, value_enum, default_value_t = Layout::List)]
    layout: Layout,
    /// Source vertex, in the input file's numbering: 0-based for .csr and edge
    /// lists, 1-based for .gr and .mtx (there --source 1 is the first vertex).
    /// Default: the first vertex.
    #[arg(long)]
    source: Option<u64>,
    /// Several sources, comma-separated (input numbering): the graph is read
    /// and uploaded once and solved from each; one distance row per source.
    #[arg(long, value_delimiter = ',', value_name = "S,S,…")]
    sources: Option<Vec<u64>>,
    /// Sources from a file: one id per line, or a DIMACS .ss file (`p aux sp
    /// ss N`, `s ID` lines); like --sources.
    #[arg(long, value_name = "FILE")]
    sources_file: Option<PathBuf>,
    /// Report only distances <= D (scipy's `limit`): farther vertices are
    /// reported unreached. A number in the weights' type (`10`, `2.5`).
    #[arg(long, value_name = "D", value_parser = parse_limit, allow_negative_numbers = true)]
    limit: Option<String>,
    /// Point-to-point query: stop once T's distance is final (input
    /// numbering) and print its distance and a shortest path; vertices farther
    /// than T are reported unreached.
    #[arg(long, value_name = "T")]
    target: Option<u64>,
    /// Read every arc in both directions (files that list each undirected
    /// edge once: SNAP, Matrix Market general).
    #[arg(long)]
    undirected: bool,
    /// Every weight 1 (hop counts; u32).
    #[arg(long)]
    unweighted: bool,
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
    /// Timed solves per source; the summary gives their median, min and max.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Untimed solves before the timed ones (default: 1 on the GPU, 0 on the CPU).
    #[arg(long)]
    warmup: Option<u32>,
    /// A contraction-hierarchy index of the graph (`host preprocess`): the
    /// trees come from it (PHAST; on the GPU in batches of --batch sources),
    /// with the same distances, trees and outputs as without it.
    #[arg(long, value_name = "FILE")]
    index: Option<PathBuf>,
    /// With --index: the distances from every source to each of these
    /// targets (input numbering), a |sources| × |targets| table instead of
    /// trees (--output writes `source target distance` lines, or with
    /// `--output-format bin` the row-major matrix).
    #[arg(long, value_delimiter = ',', value_name = "T,T,…", requires = "index")]
    targets: Option<Vec<u64>>,
    /// Like --targets, from a file (one id per line, or a DIMACS .ss file).
    #[arg(
        long,
        value_name = "FILE",
        requires = "index",
        conflicts_with = "targets"
    )]
    targets_file: Option<PathBuf>,
    /// GPU streams that solve the sources at the same time, each with its own
    /// copy of the solver's state (1: one source after another; default: 4
    /// for 32 sources or more with near-far, fast and fast-crauser, else 1).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=256))]
    streams: Option<u32>,
    /// Sources per GPU sweep with --index (default: the sources, in whole
    /// warps, at most 256).
    #[arg(long, value_name = "K", requires = "index", value_parser = clap::value_parser!(u32).range(1..=1024))]
    batch: Option<u32>,
}

/// Solves as `args` say. Errors name vertices in the input's numbering.
pub fn run(args: &SolveArgs) -> Result<()> {
    let mut base = 0;
    match solve(args, &mut base) {
        Ok(None) => Ok(()),
        Ok(Some(failed_check)) => Err(failed_check),
        Err(e) => Err(e.renumbered(base)),
    }
}

/// [`run`], setting `base` to the input's first vertex id once it is known;
/// `Ok(Some(..))` is the first failed `--verify` or `--certify` check, its
/// vertices already in the input's numbering.
fn solve(args: &SolveArgs, base: &mut u32) -> Result<Option<Error>> {
    let path = args
        .graph
        .as_deref()
        .ok_or_else(|| Error::InvalidArgument("--graph is required".into()))?;
    for (given, flag) in [
        (args.output.is_some(), "--output"),
        (args.parents.is_some(), "--parents"),
        (args.path_to.is_some(), "--path-to"),
        (args.target.is_some(), "--target"),
    ] {
        if given && args.algo.len() > 1 {
            return Err(Error::InvalidArgument(format!(
                "{flag} takes a single --algo"
            )));
        }
    }
    let many_sources = args.sources.is_some() || args.sources_file.is_some();
    if many_sources && args.path_to.is_some() {
        return Err(Error::InvalidArgument(
            "--path-to takes a single source (--source), not --sources".into(),
        ));
    }
    let algorithms = requested_algorithms(args)?;
    let out = Human { quiet: args.json };
    let load_start = Instant::now();
    let loaded = formats::load_with(
        path,
        args.format.map(Into::into),
        super::load_options(args.weights),
        &mut |_| {},
    )?;
    let graph = transformed(loaded.graph()?, args)?;
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
            .map(|text| weight_word("--delta", text, kind, false))
            .transpose()?,
        shortcuts: args.shortcuts.into(),
        edge_lanes: None,
        chain_hops: None,
        entries_first: None,
        growth: Default::default(),
        block_threads: args.block_threads,
    };
    let numbering = loaded.numbering();
    *base = numbering.base;
    let source_ids = source_ids(args, numbering)?;
    let sources = source_ids
        .iter()
        .map(|&id| source_vertex(&loaded, &graph, id))
        .collect::<Result<Vec<_>>>()?;
    let stop = Stop {
        limit: args
            .limit
            .as_deref()
            .map(|text| weight_word("--limit", text, kind, true))
            .transpose()?,
        target: args
            .target
            .map(|id| vertex_of(&loaded, &graph, "--target", id))
            .transpose()?,
    };
    let path_target = match (args.path_to, stop.target) {
        (Some(id), Some(target)) if vertex_of(&loaded, &graph, "--path-to", id)? != target => {
            return Err(Error::InvalidArgument(
                "--path-to and --target name different vertices: --target prints the path to \
                 its vertex; leave out --path-to"
                    .into(),
            ));
        }
        (Some(id), _) => Some(vertex_of(&loaded, &graph, "--path-to", id)?),
        (None, target) => target,
    };
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
    let id_note = if numbering.base == 0 {
        String::new()
    } else {
        format!(" (vertex ids from {} as in the file)", numbering.base)
    };
    if many_sources {
        let shown: Vec<String> = source_ids.iter().take(8).map(u64::to_string).collect();
        let more = if source_ids.len() > 8 { " …" } else { "" };
        out.line(format_args!(
            "sources      {}: {}{more}{id_note}",
            source_ids.len(),
            shown.join(" ")
        ));
    } else {
        out.line(format_args!("source       {}{id_note}", source_ids[0]));
    }
    if let Some(limit) = stop.limit {
        out.line(format_args!(
            "limit        {} (farther vertices are reported unreached)",
            distances::display(kind, limit)
        ));
    }
    if let Some(target) = args.target {
        out.line(format_args!(
            "target       {target} (the solve stops once its distance is final)"
        ));
    }
    out.line(format_args!(
        "load         {load_ms:.1} ms (read, parse and validate)"
    ));
    let json_input = JsonInput {
        graph: path.display().to_string(),
        format: loaded.format().name(),
        gzip: loaded.gzip(),
        vertices: graph.num_vertices(),
        edges: graph.num_edges(),
        weights: kind.name(),
        numbering_base: numbering.base,
        source: source_ids[0],
        sources: many_sources.then(|| source_ids.clone()),
        limit: stop.limit.map(|d| JsonDistance::new(kind, d)),
        target: args.target,
        load_ms,
    };
    if let Some(index) = &args.index {
        let target_ids = match (&args.targets, &args.targets_file) {
            (Some(list), _) => Some(list.clone()),
            (None, Some(file)) => Some(formats::sources::read_sources(file)?),
            (None, None) => None,
        };
        let targets = target_ids
            .as_ref()
            .map(|ids| {
                ids.iter()
                    .map(|&id| vertex_of(&loaded, &graph, "--targets", id))
                    .collect::<Result<Vec<_>>>()
            })
            .transpose()?;
        let query = IndexedQuery {
            targets,
            sources: &sources,
            source_ids: &source_ids,
            stop,
            path_target,
            many_sources,
            numbering,
        };
        return solve_indexed(args, &graph, index, (&query, json_input), &out);
    }

    let solver = open_solver(args, &algorithms)?;
    let device_name = match solver.gpu() {
        Some(gpu) => Some(gpu.name()?),
        None => None,
    };
    if let Some(name) = &device_name {
        out.line(format_args!("device       {name}"));
    }

    let timing = Timing {
        warmup: args
            .warmup
            .unwrap_or(if solver.gpu().is_some() { 1 } else { 0 }),
        runs: args.runs,
    };
    let mut verifier = Verifier::new(args.verify, &graph, &sources, stop, numbering.base);
    let mut table = Vec::new();
    let mut json_rows = Vec::new();
    let mut first_failure = None;
    let mut json_path = None;
    for &requested in &algorithms {
        // Prepared as requested, so that `auto` can still change its mind
        // (its trial).
        let mut prepared = solver.prepare(&graph, requested, tuning, sources[0])?;
        let algo = prepared.algorithm();
        if let Some(choice) = prepared.auto_choice() {
            out.line("");
            out.line(format_args!(
                "auto         chose {}: {}",
                choice.algorithm, choice.reason
            ));
        }
        if tuning.delta.is_some() && !algo.takes_delta() {
            eprintln!("notice: `{algo}` does not use --delta");
        }
        let spec = algo.spec();
        out.line("");
        out.line(format_args!("algorithm    {algo} ({})", spec.paper));
        if !spec.exact {
            eprintln!(
                "warning: `{algo}` is for measurement only and can give wrong distances; --verify counts them"
            );
        }
        if let Some(prepare_ms) = prepared.prepare_ms() {
            out.line(format_args!(
                "prepare      {prepare_ms:.1} ms (upload, and transpose or precompute where needed)"
            ));
        }
        if let Some(layout) = prepared.layout() {
            out.line(format_args!("layout       {layout}"));
        }
        let on_gpu = prepared.device() == Device::Gpu;
        let streams = args.streams.map(|k| k as usize);
        let batch = prepared.solve_many(&sources, (stop, false, timing), streams)?;
        if many_sources {
            out.line(format_args!(
                "solves       {} sources in {:.3} ms on {} stream{} (host clock, warm-ups and \
                 copies included; {:.1} ms of it preparing the streams' solvers)",
                sources.len(),
                batch.wall_ms,
                batch.streams,
                if batch.streams == 1 { "" } else { "s" },
                batch.streams_prepare_ms
            ));
        }
        let mut rows = Vec::with_capacity(sources.len());
        let mut json_sources = Vec::new();
        let mut verdicts = Vec::new();
        for ((row, &source), &source_id) in batch.rows.into_iter().zip(&sources).zip(&source_ids) {
            let row = SolvedRow {
                tree: if wants_tree {
                    Some(timed_tree(&prepared, source, &row.dist, &out)?)
                } else {
                    None
                },
                row,
            };
            let summary = distances::summarize(&row.row.dist);
            if many_sources {
                out.line(format_args!(
                    "source {source_id:<6} reached {}, max distance {}, checksum {:016x}, {}",
                    summary.reached,
                    distances::display(kind, summary.max_distance),
                    summary.checksum,
                    solve_note(&row.row, timing, on_gpu)
                ));
            } else {
                if let Some(iterations) = row.row.iterations {
                    out.line(format_args!("iterations   {iterations}"));
                }
                out.line(format_args!(
                    "solve        {}",
                    solve_note(&row.row, timing, on_gpu)
                ));
                print_summary(&out, graph.num_vertices(), kind, &summary);
            }
            if let (Some(tree), Some(target)) = (&row.tree, path_target) {
                let path = tree_path(tree, &row.row.dist, kind, source, target, numbering)?;
                print_path(&out, kind, row.row.dist[target], &path, source_id);
                json_path = Some(path);
            }
            let check = check_row(args, &graph, &mut verifier, &row, &out)?;
            json_sources.push(json_source(source_id, &row.row, &summary, &check));
            if let Some(failure) = check.failure {
                first_failure.get_or_insert(failure);
            }
            verdicts.push(check.verdict);
            rows.push(row);
        }
        if many_sources && (args.verify || args.certify) {
            let failed = verdicts.iter().filter(|v| !is_success(v)).count();
            out.line(format_args!(
                "checked      {} of {} sources passed",
                sources.len() - failed,
                sources.len()
            ));
        }
        write_outputs(args, &rows, kind, numbering, many_sources, &out)?;
        table.push(TableRow {
            algorithm: algo.name(),
            iterations: json_sources[0].iterations,
            times: json_sources[0].solve_ms,
            verdict: verdicts[0].clone(),
        });
        let about = JsonAbout {
            name: algo.name(),
            requested: requested.name(),
            paper: spec.paper,
            device: if on_gpu { "gpu" } else { "cpu" },
            prepare_ms: prepared.prepare_ms(),
            timer: match rows[0].row.timer {
                Timer::CudaEvents => "cuda-events",
                Timer::Host => "host",
            },
        };
        json_rows.push(JsonAlgorithm::new(about, json_sources, many_sources));
    }
    if table.len() > 1 {
        print_table(&out, &table);
    }
    if args.json {
        print_json(args, json_input, device_name, json_rows, json_path)?;
    }
    Ok(first_failure)
}

/// One source's entry of the `--json` summary (`source_id` in the input's
/// numbering).
fn json_source(
    source_id: u64,
    row: &SourceSolution,
    summary: &distances::Summary,
    check: &RowCheck,
) -> JsonSource {
    JsonSource {
        source: source_id,
        iterations: row.iterations,
        solve_ms: JsonTimes::of(&row.times_ms),
        reached: summary.reached,
        max_distance: JsonDistance::new(row.weight_kind(), summary.max_distance),
        checksum: format!("{:016x}", summary.checksum),
        verified: check.verified,
        mismatches: check.mismatches,
        tree_verified: check.tree_verified,
    }
}

/// Prints the `--json` summary.
fn print_json(
    args: &SolveArgs,
    input: JsonInput,
    device: Option<String>,
    algorithms: Vec<JsonAlgorithm>,
    path: Option<JsonPath>,
) -> Result<()> {
    let summary = JsonSummary {
        input,
        device,
        algorithms,
        output: args.output.as_ref().map(|p| p.display().to_string()),
        parents: args.parents.as_ref().map(|p| p.display().to_string()),
        output_format: (args.output.is_some() || args.parents.is_some())
            .then_some(args.output_format.name()),
        path,
    };
    let text = serde_json::to_string_pretty(&summary)
        .map_err(|e| Error::InvalidArgument(format!("cannot write the JSON summary: {e}")))?;
    println!("{text}");
    Ok(())
}

/// What [`solve_indexed`] answers, as [`solve`] parsed it.
struct IndexedQuery<'q> {
    /// `--targets`: a table instead of trees.
    targets: Option<Vec<usize>>,
    sources: &'q [usize],
    source_ids: &'q [u64],
    stop: Stop,
    path_target: Option<usize>,
    many_sources: bool,
    numbering: InputNumbering,
}

/// `--index`: the trees of the sources from the index, reported, checked and
/// written as [`solve`] does for a solver.
fn solve_indexed(
    args: &SolveArgs,
    graph: &Graph,
    index: &std::path::Path,
    (query, json_input): (&IndexedQuery, JsonInput),
    out: &Human,
) -> Result<Option<Error>> {
    for (given, flag) in [
        (!args.algo.is_empty(), "--algo"),
        (args.delta.is_some(), "--delta"),
        (args.layout == Layout::Matrix, "--layout matrix"),
    ] {
        if given {
            return Err(Error::InvalidArgument(format!(
                "{flag} does not apply with --index (the trees come from the index)"
            )));
        }
    }
    let start = Instant::now();
    let hierarchy = sssp::ch::Hierarchy::load(index)?;
    hierarchy.check_graph(graph, index)?;
    out.line(format_args!(
        "index        {} ({} levels, {} shortcuts; read and checked in {:.1} ms)",
        index.display(),
        hierarchy.num_levels(),
        hierarchy.num_shortcuts(),
        start.elapsed().as_secs_f64() * 1e3
    ));
    let solver = match args.device {
        DeviceChoice::Cpu => Solver::new(sssp::solver::Device::Cpu)?,
        DeviceChoice::Gpu => Solver::new(sssp::solver::Device::Gpu(args.gpu))?,
        DeviceChoice::Auto => match Solver::new(sssp::solver::Device::Gpu(args.gpu)) {
            Err(Error::NoGpu(reason)) => {
                eprintln!("notice: no CUDA GPU available ({reason}); the trees run on the CPU");
                Solver::new(sssp::solver::Device::Cpu)?
            }
            other => other?,
        },
    };
    if let Some(gpu) = solver.gpu() {
        out.line(format_args!("device       {}", gpu.name()?));
    }
    // A batch no wider than the sources need, in whole warps.
    let lanes = args.batch.unwrap_or_else(|| {
        (query.sources.len().div_ceil(32) * 32).min(sssp::gpu::phast::DEFAULT_LANES as usize) as u32
    });
    let mut trees = sssp::ch::TreeSolver::new(&solver, &hierarchy, Some(lanes))?;
    let on_gpu = trees.device() == Device::Gpu;
    out.line("");
    match trees.gpu_shape() {
        Some((lanes, (block_levels, levels))) => out.line(format_args!(
            "algorithm    phast (PHAST on the GPU: batches of {lanes} sources; {block_levels} of \
             {levels} levels swept by one block)"
        )),
        None => out.line("algorithm    phast-cpu (PHAST on the CPU, one tree per thread)"),
    }
    if let Some(ms) = trees.prepare_ms() {
        out.line(format_args!("prepare      {ms:.1} ms (upload)"));
    }
    let kind = graph.weight_kind();
    if kind == WeightKind::F32 && args.parents.is_some() {
        return Err(Error::InvalidArgument(
            "--parents does not apply to an index of f32 weights: its distances are sums \
             rounded in another order than along the graph's arcs, so no arc is tight; \
             solve without --index for trees (--path-to gives the index's own path)"
                .into(),
        ));
    }
    if let Some(targets) = &query.targets {
        return solve_table(args, graph, &mut trees, query, targets, out);
    }
    let timing = Timing {
        warmup: args.warmup.unwrap_or(if on_gpu { 1 } else { 0 }),
        runs: args.runs,
    };
    // Whole trees: with f32 weights `--verify` checks them before the stop
    // cuts them.
    let (rows, times) = trees.solve(query.sources, timing)?;
    let per_tree = times.total_ms / times.trees.max(1) as f64;
    out.line(format_args!(
        "trees        {} in {:.3} ms: {per_tree:.4} ms per tree (host timer, copies included; \
         upward searches {:.3} ms, GPU sweeps {:.3} ms by CUDA events)",
        times.trees, times.total_ms, times.search_ms, times.sweep_ms
    ));
    let mut verifier = Verifier::new(
        args.verify,
        graph,
        query.sources,
        query.stop,
        query.numbering.base,
    );
    // With f32 weights no arc is tight: `--path-to` takes the index's own
    // path instead of a tree's.
    let wants_tree =
        args.parents.is_some() || (query.path_target.is_some() && kind == WeightKind::U32);
    let mut solved = Vec::with_capacity(rows.len());
    let mut first_failure = None;
    let (mut json_sources, mut json_path) = (Vec::new(), None);
    for (mut row, &source_id) in rows.into_iter().zip(query.source_ids) {
        let index_check = (args.verify && kind == WeightKind::F32).then(|| {
            oracle::check_f32_index(graph, row.source, None, &row.dist, hierarchy.num_levels())
        });
        query.stop.apply(&mut row.dist);
        let tree = if wants_tree {
            Some(sssp::cpu::parents::shortest_path_tree(
                graph, row.source, &row.dist,
            )?)
        } else {
            None
        };
        let summary = distances::summarize(&row.dist);
        if query.many_sources {
            out.line(format_args!(
                "source {source_id:<6} reached {}, max distance {}, checksum {:016x}",
                summary.reached,
                distances::display(kind, summary.max_distance),
                summary.checksum,
            ));
        } else {
            print_summary(out, graph.num_vertices(), kind, &summary);
        }
        let mut path_check = None;
        match (&tree, query.path_target) {
            (Some(tree), Some(target)) => {
                let path = tree_path(tree, &row.dist, kind, row.source, target, query.numbering)?;
                print_path(out, kind, row.dist[target], &path, source_id);
                json_path = Some(path);
            }
            (None, Some(target)) => {
                let found = sssp::ch::query::point_to_point(&hierarchy, row.source, target)?;
                let dist = found.as_ref().map_or(INFINITY, |(d, _)| *d);
                if let (true, Some((d, path))) = (args.verify, &found) {
                    let ends = (row.source, target);
                    let levels = hierarchy.num_levels();
                    path_check = Some(oracle::check_f32_index_path(graph, ends, path, *d, levels));
                }
                let path = JsonPath {
                    target: query.numbering.external(target),
                    reachable: found.is_some(),
                    distance: found.as_ref().map(|(d, _)| JsonDistance::new(kind, *d)),
                    vertices: found
                        .map(|(_, path)| path)
                        .unwrap_or_default()
                        .into_iter()
                        .map(|v| query.numbering.external(v))
                        .collect(),
                };
                print_path(out, kind, dist, &path, source_id);
                json_path = Some(path);
            }
            _ => {}
        }
        let row = SolvedRow { row, tree };
        let mut check = match index_check {
            Some(result) => {
                let verdict = index_verdict(row.row.dist.len());
                RowCheck::of(report_check(result, &verdict, query.numbering, out)?)
            }
            None => check_row(args, graph, &mut verifier, &row, out)?,
        };
        if let Some(result) = path_check {
            let verdict = "the path's arcs are the graph's, its length within the index's f32 \
                           rounding bound of the distance and the f64 oracle's";
            let failure = report_check(result, verdict, query.numbering, out)?;
            check.tree_verified = Some(failure.is_none());
            check.failure = check.failure.or(failure);
        }
        json_sources.push(json_source(source_id, &row.row, &summary, &check));
        if let Some(failure) = check.failure {
            first_failure.get_or_insert(failure);
        }
        solved.push(row);
    }
    write_outputs(
        args,
        &solved,
        kind,
        query.numbering,
        query.many_sources,
        out,
    )?;
    if args.json {
        let about = JsonAbout {
            name: if on_gpu { "phast" } else { "phast-cpu" },
            requested: "index",
            paper: "PHAST (Delling et al.) on a contraction hierarchy",
            device: if on_gpu { "gpu" } else { "cpu" },
            prepare_ms: trees.prepare_ms(),
            timer: "host",
        };
        let algorithm = JsonAlgorithm::new(about, json_sources, query.many_sources);
        let device = solver.gpu().map(|gpu| gpu.name()).transpose()?;
        print_json(args, json_input, device, vec![algorithm], json_path)?;
    }
    Ok(first_failure)
}

/// `--index` with `--targets`: the table from every source to every target,
/// timed, checked against the oracle with `--verify`, and written.
fn solve_table(
    args: &SolveArgs,
    graph: &Graph,
    trees: &mut sssp::ch::TreeSolver,
    query: &IndexedQuery,
    targets: &[usize],
    out: &Human,
) -> Result<Option<Error>> {
    for (given, flag) in [
        (args.parents.is_some(), "--parents"),
        (args.path_to.is_some(), "--path-to"),
        (args.target.is_some(), "--target"),
        (args.limit.is_some(), "--limit"),
        (args.certify, "--certify"),
        (args.json, "--json"),
    ] {
        if given {
            return Err(Error::InvalidArgument(format!(
                "{flag} applies to trees, not to a table (--targets)"
            )));
        }
    }
    let kind = graph.weight_kind();
    if args.warmup.unwrap_or(1) > 0 {
        trees.table(query.sources, targets)?;
    }
    let mut times = Vec::with_capacity(args.runs as usize);
    let mut table = Vec::new();
    for _ in 0..args.runs {
        let (result, ms) = trees.table(query.sources, targets)?;
        times.push(ms);
        table = result;
    }
    let how = match trees.device() {
        Device::Gpu => "GPU: PHAST batches, target columns gathered there",
        Device::Cpu => "CPU: the bucket method",
    };
    out.line(format_args!(
        "table        {} × {} in {:.3} ms (median of {}; {how}; host timer, copies included)",
        query.sources.len(),
        targets.len(),
        sssp::solver::median(&times),
        times.len()
    ));
    let width = targets.len().max(1);
    let mut failure = None;
    if args.verify && kind == WeightKind::F32 {
        let levels = trees.hierarchy().num_levels();
        let mut result = Ok(());
        for (row, &source) in table.chunks(width).zip(query.sources) {
            result = oracle::check_f32_index(graph, source, Some(targets), row, levels);
            if result.is_err() {
                break;
            }
        }
        failure = report_check(result, &index_verdict(table.len()), query.numbering, out)?;
    } else if args.verify {
        let start = Instant::now();
        let mut differing = 0;
        let mut first = None;
        for (row, &source) in table.chunks(width).zip(query.sources) {
            let expected = oracle::dijkstra(graph, source)?;
            for (&t, &d) in targets.iter().zip(row) {
                if expected[t] != d {
                    differing += 1;
                    first.get_or_insert((t, expected[t], d));
                }
            }
        }
        match first {
            None => out.line(format_args!(
                "verified: all {} table entries equal the oracle's ({:.1} ms)",
                table.len(),
                start.elapsed().as_secs_f64() * 1e3
            )),
            Some((t, expected, found)) => {
                out.line(format_args!(
                    "verification FAILED: {differing} of {} table entries differ",
                    table.len()
                ));
                failure = Some(
                    Error::Mismatch {
                        vertex: t,
                        expected: distances::display(kind, expected),
                        found: distances::display(kind, found),
                        count: differing,
                        num_vertices: table.len(),
                    }
                    .renumbered(query.numbering.base),
                );
            }
        }
    }
    if let Some(file) = &args.output {
        output::write_table(
            file,
            (query.sources, targets),
            &table,
            kind,
            query.numbering,
            args.output_format.into(),
        )?;
        out.line(format_args!("output       {}", file.display()));
    }
    Ok(failure)
}

/// What a passed check of `count` distances of an `f32` index says
/// ([`oracle::check_f32_index`]).
fn index_verdict(count: usize) -> String {
    format!("all {count} distances are within the index's f32 rounding bound of the f64 oracle's")
}

/// Prints the verdict of a check, `verified` when it passed: a mismatch is
/// the failure to report (in the input's numbering); other errors end the run.
fn report_check(
    result: Result<()>,
    verified: &str,
    numbering: InputNumbering,
    out: &Human,
) -> Result<Option<Error>> {
    match result {
        Ok(()) => {
            out.line(format_args!("verified: {verified}"));
            Ok(None)
        }
        Err(mismatch @ Error::Mismatch { .. }) => {
            let mismatch = mismatch.renumbered(numbering.base);
            out.line(format_args!("NOT verified: {mismatch}"));
            Ok(Some(mismatch))
        }
        Err(other) => Err(other),
    }
}

/// The algorithms to run: `--algo` (default `auto`), in matrix form with
/// `--layout matrix`; `--delta` checked against them.
fn requested_algorithms(args: &SolveArgs) -> Result<Vec<Algorithm>> {
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
             add `--algo near-far` (or `near-far-cpu`, `delta-cpu`, `auto`), or drop --delta",
            algorithms
                .iter()
                .map(|a| a.name())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(algorithms)
}

/// The loaded graph as `--undirected` and `--unweighted` ask.
fn transformed<'a>(graph: Graph<'a>, args: &SolveArgs) -> Result<Graph<'a>> {
    let graph = if args.undirected {
        graph.undirected()?
    } else {
        graph
    };
    Ok(if args.unweighted {
        graph.unweighted()?
    } else {
        graph
    })
}

/// The sources in the input's numbering: `--sources`, `--sources-file`, or
/// `--source` (default: the first vertex).
fn source_ids(args: &SolveArgs, numbering: InputNumbering) -> Result<Vec<u64>> {
    let given = [
        args.source.is_some(),
        args.sources.is_some(),
        args.sources_file.is_some(),
    ];
    if given.iter().filter(|&&g| g).count() > 1 {
        return Err(Error::InvalidArgument(
            "give the sources once: --source, --sources or --sources-file".into(),
        ));
    }
    if let Some(list) = &args.sources {
        return Ok(list.clone());
    }
    if let Some(file) = &args.sources_file {
        return formats::sources::read_sources(file);
    }
    Ok(vec![args.source.unwrap_or(numbering.external(0))])
}

/// The solver for `--device` and `--gpu`; the CPU alone when no requested
/// algorithm runs on the GPU. Without a GPU under `--device auto`, GPU
/// algorithms run as the CPU fallback, with a notice.
fn open_solver(args: &SolveArgs, algorithms: &[Algorithm]) -> Result<Solver> {
    let wants_gpu = algorithms.iter().any(|a| a.spec().device == Device::Gpu);
    let solver = match args.device {
        DeviceChoice::Cpu => Solver::new(sssp::solver::Device::Cpu)?,
        _ if !wants_gpu => Solver::new(sssp::solver::Device::Cpu)?,
        DeviceChoice::Gpu => Solver::new(sssp::solver::Device::Gpu(args.gpu))?,
        DeviceChoice::Auto => match Solver::new(sssp::solver::Device::Gpu(args.gpu)) {
            Ok(solver) => solver,
            Err(Error::NoGpu(reason)) => {
                eprintln!(
                    "notice: no CUDA GPU available ({reason}); solving on the CPU with {} instead",
                    fallback_name()
                );
                Solver::new(sssp::solver::Device::Cpu)?
            }
            Err(e) => return Err(e),
        },
    };
    Ok(solver)
}

/// The CPU fallback as the notice names it.
fn fallback_name() -> String {
    match sssp::solver::FALLBACK {
        Algorithm::Dijkstra => "the oracle".to_string(),
        other => format!("`{other}`"),
    }
}

/// How a row was solved, for the `solve` line.
fn solve_note(row: &SourceSolution, timing: Timing, on_gpu: bool) -> String {
    let times = JsonTimes::of(&row.times_ms);
    match (on_gpu, times.runs) {
        (true, 1) => format!(
            "{:.3} ms (GPU, CUDA events, after {} warm-up runs)",
            times.median, timing.warmup
        ),
        (true, runs) => format!(
            "{:.3} ms (GPU, CUDA events; median of {runs} runs after {} warm-up, min {:.3}, max {:.3})",
            times.median, timing.warmup, times.min, times.max
        ),
        (false, 1) => format!("{:.1} ms (CPU, host timer)", times.median),
        (false, runs) => format!(
            "{:.3} ms (CPU, host timer; median of {runs} runs after {} warm-up, min {:.3}, max {:.3})",
            times.median, timing.warmup, times.min, times.max
        ),
    }
}

/// One source's solve and, when asked for, its tree.
struct SolvedRow {
    row: SourceSolution,
    tree: Option<Vec<u32>>,
}

/// The tree of a solve, timed on the host.
fn timed_tree(prepared: &Prepared, source: usize, dist: &[u32], out: &Human) -> Result<Vec<u32>> {
    let start = Instant::now();
    let tree = prepared.tree(source, dist)?;
    let device = match prepared.device() {
        Device::Gpu => "GPU",
        Device::Cpu => "CPU",
    };
    out.line(format_args!(
        "tree         {:.1} ms ({device}, host timer, transpose and copies included)",
        start.elapsed().as_secs_f64() * 1e3
    ));
    Ok(tree)
}

/// The oracle's distances for `--verify`, solved once per source and kept
/// for every algorithm, bounded like the solves.
struct Verifier<'g> {
    enabled: bool,
    /// The input's first vertex id, for messages.
    base: u32,
    graph: &'g Graph<'g>,
    stop: Stop,
    expected: Vec<Option<Vec<u32>>>,
    sources: Vec<usize>,
}

impl<'g> Verifier<'g> {
    fn new(enabled: bool, graph: &'g Graph<'g>, sources: &[usize], stop: Stop, base: u32) -> Self {
        Verifier {
            enabled,
            base,
            graph,
            stop,
            expected: vec![None; sources.len()],
            sources: sources.to_vec(),
        }
    }

    /// The oracle's distances from `source` (bounded by the query's stop).
    fn expected(&mut self, source: usize, out: &Human) -> Result<&[u32]> {
        let slot = self
            .sources
            .iter()
            .position(|&s| s == source)
            .ok_or_else(|| Error::InvalidArgument(format!("{source} is not a source")))?;
        if self.expected[slot].is_none() {
            let start = Instant::now();
            let mut dist = oracle::dijkstra(self.graph, source)?;
            // For f32 the oracle's distances must also be within rounding
            // of the exact (f64) lengths: equality with the f32 oracle
            // alone would not catch a rounding error shared by both. Once
            // per graph and source: every run is then compared with them exactly.
            if self.graph.weight_kind() == WeightKind::F32 {
                oracle::check_f32_against_f64(self.graph, source, &dist)?;
            }
            self.stop.apply(&mut dist);
            self.expected[slot] = Some(dist);
            out.line(format_args!(
                "oracle       {:.1} ms (CPU Dijkstra)",
                start.elapsed().as_secs_f64() * 1e3
            ));
        }
        Ok(self.expected[slot].as_deref().unwrap_or_default())
    }
}

/// What `--verify` and `--certify` said of one row.
struct RowCheck {
    verdict: String,
    verified: Option<bool>,
    mismatches: Option<usize>,
    tree_verified: Option<bool>,
    failure: Option<Error>,
}

impl RowCheck {
    /// The check of a row whose one verification (with `--verify`) gave
    /// `failure`.
    fn of(failure: Option<Error>) -> RowCheck {
        let mismatches = match &failure {
            Some(Error::Mismatch { count, .. }) => *count,
            _ => 0,
        };
        RowCheck {
            verdict: if failure.is_none() {
                "verified".into()
            } else {
                format!("{mismatches} wrong")
            },
            verified: Some(failure.is_none()),
            mismatches: Some(mismatches),
            tree_verified: None,
            failure,
        }
    }
}

/// Whether a verdict is a pass (or no check).
fn is_success(verdict: &str) -> bool {
    matches!(verdict, "-" | "verified" | "certified")
}

/// Checks one row with `--certify` and `--verify`, printing the verdicts.
fn check_row(
    args: &SolveArgs,
    graph: &Graph,
    verifier: &mut Verifier,
    solved: &SolvedRow,
    out: &Human,
) -> Result<RowCheck> {
    let (row, kind) = (&solved.row, graph.weight_kind());
    let mut check = RowCheck {
        verdict: "-".into(),
        verified: None,
        mismatches: None,
        tree_verified: None,
        failure: None,
    };
    if args.certify {
        let start = Instant::now();
        let result = if verifier.stop.is_bounded() {
            Err(Error::InvalidArgument(
                "--certify checks complete distances; with --limit or --target use --verify".into(),
            ))
        } else {
            distances::certify(graph, row.source, &row.dist)
        };
        let ms = start.elapsed().as_secs_f64() * 1e3;
        match result {
            Ok(()) => {
                out.line(format_args!(
                    "certified: all {} distances are shortest ({ms:.1} ms, CPU certificate)",
                    row.dist.len()
                ));
                check.verdict = "certified".into();
                check.verified = Some(true);
            }
            Err(wrong) => {
                out.line(format_args!("NOT certified: {wrong}"));
                check.verdict = "not certified".into();
                check.verified = Some(false);
                check.failure = Some(wrong);
            }
        }
    }
    if verifier.enabled {
        let base = verifier.base;
        let expected = verifier.expected(row.source, out)?;
        let what = match kind {
            WeightKind::U32 => "the oracle's",
            WeightKind::F32 => "the f32 oracle's and are within f32 rounding of the f64 oracle's",
        };
        match distances::compare(kind, expected, &row.dist) {
            Ok(()) => {
                out.line(format_args!(
                    "verified: all {} distances equal {what}",
                    row.dist.len()
                ));
                check.verdict = "verified".into();
                (check.verified, check.mismatches) = (Some(true), Some(0));
            }
            Err(mismatch) => {
                let mismatch = mismatch.renumbered(base);
                out.line(format_args!("NOT verified: {mismatch}"));
                let count = match &mismatch {
                    Error::Mismatch { count, .. } => *count,
                    _ => row.dist.len(),
                };
                check.verdict = format!("{count} wrong");
                (check.verified, check.mismatches) = (Some(false), Some(count));
                check.failure.get_or_insert(mismatch);
            }
        }
        if let Some(tree) = &solved.tree {
            match parents::check(graph, row.source, expected, tree) {
                Ok(()) => {
                    out.line("verified: the tree is the one the oracle's distances give");
                    check.tree_verified = Some(true);
                }
                Err(wrong) => {
                    let wrong = wrong.renumbered(base);
                    out.line(format_args!("NOT verified: {wrong}"));
                    check.tree_verified = Some(false);
                    check.failure.get_or_insert(wrong);
                }
            }
        }
    }
    Ok(check)
}

/// Writes `--output` and `--parents`: one row per source.
fn write_outputs(
    args: &SolveArgs,
    rows: &[SolvedRow],
    kind: WeightKind,
    numbering: InputNumbering,
    many_sources: bool,
    out: &Human,
) -> Result<()> {
    let format = args.output_format.into();
    if let Some(file) = &args.output {
        let dist: Vec<(usize, &[u32])> = rows
            .iter()
            .map(|r| (r.row.source, &r.row.dist[..]))
            .collect();
        output::write_distances(file, shape(&dist, many_sources), kind, numbering, format)?;
        out.line(format_args!("output       {}", file.display()));
    }
    if let Some(file) = &args.parents {
        let trees: Vec<(usize, &[u32])> = rows
            .iter()
            .filter_map(|r| r.tree.as_deref().map(|t| (r.row.source, t)))
            .collect();
        output::write_parents(file, shape(&trees, many_sources), numbering, format)?;
        out.line(format_args!("parents      {}", file.display()));
    }
    Ok(())
}

/// The rows as written: without their source for a single `--source`.
fn shape<'a>(rows: &'a [(usize, &'a [u32])], many_sources: bool) -> Rows<'a> {
    match rows {
        [(_, row)] if !many_sources => Rows::Single(row),
        _ => Rows::PerSource(rows),
    }
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

/// The graph vertex of a vertex option (`--path-to`, `--target`), given in the
/// input's numbering.
fn vertex_of(loaded: &LoadedGraph, graph: &Graph, flag: &str, id: u64) -> Result<usize> {
    let numbering = loaded.numbering();
    let n = graph.num_vertices();
    numbering.internal(id, n).ok_or_else(|| {
        Error::InvalidArgument(format!(
            "{flag} vertex {id} is out of range: the graph has {n} vertices, numbered {} as \
             in the {} file",
            numbering.id_range(n),
            loaded.format()
        ))
    })
}

/// The `reached`, `max distance` and `checksum` lines of one source.
fn print_summary(out: &Human, n: usize, kind: WeightKind, summary: &distances::Summary) {
    out.line(format_args!(
        "reached      {} of {n} vertices",
        summary.reached
    ));
    out.line(format_args!(
        "max distance {}",
        distances::display(kind, summary.max_distance)
    ));
    out.line(format_args!("checksum     {:016x}", summary.checksum));
}

/// The `path` line: the path to its target (at distance word `dist`), or
/// that it is unreachable from `source_id`.
fn print_path(out: &Human, kind: WeightKind, dist: u32, path: &JsonPath, source_id: u64) {
    if path.reachable {
        let ids: Vec<String> = path.vertices.iter().map(u64::to_string).collect();
        out.line(format_args!(
            "path         to {}: length {}, {} edges: {}",
            path.target,
            distances::display(kind, dist),
            ids.len().saturating_sub(1),
            ids.join(" ")
        ));
    } else {
        out.line(format_args!(
            "path         to {}: unreachable from {source_id}",
            path.target
        ));
    }
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

/// Checks the syntax of `--delta` at once: a positive finite number (whether
/// it must be an integer depends on the graph's weights, see [`weight_word`]).
fn parse_delta(text: &str) -> std::result::Result<String, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(text.trim().to_string()),
        _ => Err(format!("`{text}` is not a positive number")),
    }
}

/// Checks the syntax of `--limit` at once: a non-negative number.
fn parse_limit(text: &str) -> std::result::Result<String, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x >= 0.0 && !x.is_nan() => Ok(text.trim().to_string()),
        _ => Err(format!("`{text}` is not a non-negative number")),
    }
}

/// The weight word of `--delta` (`zero_ok` false: a positive integer for
/// `u32` weights, a positive real that is a finite nonzero `f32` for `f32`
/// weights) or `--limit` (`zero_ok` true: any non-negative number; for `u32`
/// weights its integer part, so that `d <= limit` keeps its meaning; `inf`
/// or a number past the largest distance bounds nothing).
fn weight_word(flag: &str, text: &str, kind: WeightKind, zero_ok: bool) -> Result<u32> {
    if zero_ok {
        let value = text.trim().parse::<f64>().unwrap_or(f64::NAN);
        if value.is_nan() || value < 0.0 {
            return Err(Error::InvalidArgument(format!(
                "{flag} {text}: a non-negative number is needed"
            )));
        }
        let max = match kind {
            WeightKind::U32 => <u32 as Weight>::to_f64(<u32 as Weight>::MAX_DISTANCE),
            WeightKind::F32 => <f32 as Weight>::to_f64(<f32 as Weight>::MAX_DISTANCE),
        };
        return Ok(match kind {
            _ if value >= max => INFINITY,
            WeightKind::U32 => value.floor() as u32,
            // The largest f32 not above the value: `d <= limit` for f32 words.
            WeightKind::F32 => {
                let rounded = value as f32;
                if f64::from(rounded) > value {
                    f32::from_bits(rounded.to_bits() - 1).to_bits()
                } else {
                    rounded.to_bits()
                }
            }
        });
    }
    let invalid = |what: &str| {
        Err(Error::InvalidArgument(format!(
            "{flag} {text}: the graph has {} weights, so Δ must be {what}",
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
