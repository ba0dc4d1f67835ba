//! The options of `host --graph FILE`: the graph, the query, the checks, the
//! outputs and the device.

use std::path::PathBuf;

use clap::Args;
use sssp::algorithms::{Algorithm, Layout};
use sssp::formats::output::OutputFormat;
use sssp::partition::shortcuts::Shortcuts;

use super::args::{FormatArg, LayoutArg, OutputFormatArg, ShortcutsArg, WeightsArg};
use super::device::DeviceChoice;

/// The options of a solve (`host --graph FILE ...`).
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The graph: g.csr (.csr, see graphs/README.md), DIMACS (.gr), Matrix Market
    /// (.mtx), edge list (.el, .wel, .txt); a text format may be gzipped (.gr.gz, …).
    /// The format comes from the extension unless --format names it.
    #[arg(long, required = true)]
    pub graph: Option<PathBuf>,
    /// The graph's format, instead of guessing it from the extension (a `.gz`
    /// file is still decompressed).
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Read a text graph's weights as this type: `f32` reads reals (`a 1 2
    /// 0.5`) in DIMACS, edge lists and Matrix Market `integer` files. Default:
    /// u32, except f32 for Matrix Market `real` files (which refuse u32). A
    /// g.csr file's type is in its header.
    #[arg(long, value_enum)]
    pub weights: Option<WeightsArg>,
    /// The algorithm (`host algos` lists them); several, comma-separated, are
    /// solved one after another and compared in a table. Default: `auto`
    /// (`partition`/`near-far` on high-diameter graphs, else the fastest of
    /// `fast-crauser`, `near-far` and `fast` in a trial from the source;
    /// docs/PERFORMANCE.md), or
    /// `matrix-f-gpu` with `--layout matrix`.
    #[arg(long, value_delimiter = ',')]
    pub algo: Vec<Algorithm>,
    /// Band width Δ of `near-far` (default: 32 · mean weight / the smaller of
    /// the mean and the median out-degree), window of `partition` (default:
    /// chosen in a trial from the first source, from 8 · mean weight halved
    /// or doubled while faster) and bucket width of `delta-cpu` (fixed for
    /// the solve; by default it adapts as the solve goes): a positive integer
    /// for u32 weights, a positive real (`0.5`) for f32 weights.
    #[arg(long, value_name = "D", value_parser = parse_delta)]
    pub delta: Option<String>,
    /// Where `partition` adds shortcuts to its pieces: for each piece, an arc
    /// from each vertex entered from another piece to each vertex on its
    /// border, weighted by their distance inside the piece (u32 weights only;
    /// the distances do not change, the shortest-path tree gets shallower).
    /// `auto` adds them in resident mode, and in paged mode where a sample of
    /// the pieces predicts fewer shortcuts than the graph has arcs. The
    /// window then spans 8 mean shortcut weights unless --delta is given.
    #[arg(long, value_enum, default_value_t = ShortcutsArg(Shortcuts::Auto))]
    pub shortcuts: ShortcutsArg,
    /// Threads a block of `partition` (256, 384 or 768: three, two or one
    /// block a multiprocessor, so smaller or larger pieces). Default: 256,
    /// and `--algo auto`'s trial tries the others.
    #[arg(long, value_name = "THREADS")]
    pub block_threads: Option<u32>,
    /// How the algorithms store the graph: adjacency lists (CSR), or an n×n
    /// weight matrix built on load (`--algo f-gpu` then runs `matrix-f-gpu`).
    #[arg(long, value_enum, default_value_t = LayoutArg(Layout::List))]
    pub layout: LayoutArg,
    /// Source vertex, in the input file's numbering: 0-based for .csr and edge
    /// lists, 1-based for .gr and .mtx (there --source 1 is the first vertex).
    /// Default: the first vertex.
    #[arg(long)]
    pub source: Option<u64>,
    /// Several sources, comma-separated (input numbering): the graph is read
    /// and uploaded once and solved from each; one distance row per source.
    #[arg(long, value_delimiter = ',', value_name = "S,S,…")]
    pub sources: Option<Vec<u64>>,
    /// Sources from a file: one id per line, or a DIMACS .ss file (`p aux sp
    /// ss N`, `s ID` lines); like --sources.
    #[arg(long, value_name = "FILE")]
    pub sources_file: Option<PathBuf>,
    /// Report only distances <= D (scipy's `limit`): farther vertices are
    /// reported unreached. A number in the weights' type (`10`, `2.5`).
    #[arg(long, value_name = "D", value_parser = parse_limit, allow_negative_numbers = true)]
    pub limit: Option<String>,
    /// Point-to-point query: stop once T's distance is final (input
    /// numbering) and print its distance and a shortest path; vertices farther
    /// than T are reported unreached.
    #[arg(long, value_name = "T")]
    pub target: Option<u64>,
    /// Read every arc in both directions (files that list each undirected
    /// edge once: SNAP, Matrix Market general).
    #[arg(long)]
    pub undirected: bool,
    /// Every weight 1 (hop counts; u32).
    #[arg(long)]
    pub unweighted: bool,
    /// Also solve with the CPU oracle and compare every distance.
    #[arg(long)]
    pub verify: bool,
    /// Check the distances with a linear-time certificate on the CPU (every
    /// edge respected, every reached vertex attained by an in-edge; positive
    /// integer weights only, other graphs are refused before solving) instead
    /// of re-solving: for graphs too large for the oracle.
    #[arg(long)]
    pub certify: bool,
    /// Skip the certificate checked on the GPU after every GPU solve (every
    /// arc respected, every reached vertex at the end of a path of tight arcs
    /// from the source; a failure is an error, exit 1), for benchmarking.
    #[arg(long)]
    pub no_certificate: bool,
    /// Write the distances to this file (see --output-format).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// How --output writes the distances and --parents the tree.
    #[arg(long, value_enum, default_value_t = OutputFormatArg(OutputFormat::Text))]
    pub output_format: OutputFormatArg,
    /// Write the shortest-path tree to this file (see --output-format): each
    /// reached vertex's parent on a shortest path from the source (the closest
    /// such vertex, then the smallest), computed after the solve on the same
    /// device; the source and unreached vertices have none.
    #[arg(long, value_name = "FILE")]
    pub parents: Option<PathBuf>,
    /// Print a shortest path from the source to this vertex (in the input's
    /// numbering, like --source) and its length, read from the shortest-path
    /// tree; with --json, it goes into the JSON object.
    #[arg(long, value_name = "T")]
    pub path_to: Option<u64>,
    /// Print one JSON object with the summary on stdout instead of the human
    /// summary (notices and warnings stay on stderr).
    #[arg(long)]
    pub json: bool,
    /// Where to solve.
    #[arg(long, value_enum, default_value_t = DeviceChoice::Auto)]
    pub device: DeviceChoice,
    /// CUDA device ordinal.
    #[arg(long, default_value_t = 0)]
    pub gpu: usize,
    /// Timed solves per source; the summary gives their median, min and max.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// Untimed solves before the timed ones (default: 1 on the GPU, 0 on the CPU).
    #[arg(long)]
    pub warmup: Option<u32>,
    /// A contraction-hierarchy index of the graph (`host preprocess`): the
    /// trees come from it (PHAST; on the GPU in batches of --batch sources),
    /// with the same distances, trees and outputs as without it.
    #[arg(long, value_name = "FILE")]
    pub index: Option<PathBuf>,
    /// With --index: the distances from every source to each of these
    /// targets (input numbering), a |sources| × |targets| table instead of
    /// trees (--output writes `source target distance` lines, or with
    /// `--output-format bin` the row-major matrix).
    #[arg(long, value_delimiter = ',', value_name = "T,T,…", requires = "index")]
    pub targets: Option<Vec<u64>>,
    /// Like --targets, from a file (one id per line, or a DIMACS .ss file).
    #[arg(
        long,
        value_name = "FILE",
        requires = "index",
        conflicts_with = "targets"
    )]
    pub targets_file: Option<PathBuf>,
    /// With --index: the distance of each (source, target) pair of this
    /// file (one `source target` pair a line, input numbering, `#` comments),
    /// answered on the CPU in parallel; --output writes `source target
    /// distance` lines (or with `--output-format bin` one word a pair).
    #[arg(long, value_name = "FILE", requires = "index", conflicts_with_all = ["targets", "targets_file"])]
    pub pairs: Option<PathBuf>,
    /// With --pairs: unpack each pair's shortest path; --output appends its
    /// vertices to the pair's line.
    #[arg(long, requires = "pairs")]
    pub paths: bool,
    /// GPU streams that solve the sources at the same time, each with its own
    /// copy of the solver's state (1: one source after another; default: 4
    /// for 32 sources or more with near-far, fast and fast-crauser, else 1).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub streams: Option<u32>,
    /// Sources per GPU sweep with --index (default: the sources, in whole
    /// warps, at most 1024; fewer where their distances would not fit a
    /// quarter of the GPU's free memory or 32-bit indices).
    #[arg(long, value_name = "K", requires = "index", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub batch: Option<u32>,
    /// With --index: per source, the vertices within distance D and (with
    /// --values) the sum of their values, reduced on the GPU; no tree is
    /// copied.
    #[arg(long, value_name = "D", requires = "index", value_parser = parse_limit)]
    pub within: Option<String>,
    /// With --within: a file of one number per vertex (whitespace
    /// separated, in vertex order) to sum.
    #[arg(long, value_name = "FILE", requires = "within")]
    pub values: Option<PathBuf>,
    /// With --index: each vertex's distance from its nearest source and
    /// that source (smallest index on ties); --output gets the rows.
    #[arg(long, requires = "index", conflicts_with = "within")]
    pub nearest: bool,
    /// With --index: spread the sources over these CUDA devices, one host
    /// thread and one copy of the index each, in batches handed out as the
    /// devices finish: `all`, or ordinals (`0,1,3`; an ordinal twice is two
    /// workers on one device, for testing). For --within, --nearest and
    /// streamed trees (--sources without checks); one source's tree never
    /// spans devices.
    #[arg(long, value_name = "all|N,N,…", requires = "index", value_parser = parse_gpus)]
    pub gpus: Option<sssp::multi::Gpus>,
    /// With --within: from every vertex (all-pairs accessibility): each
    /// vertex's count and value sum within D, streamed over the devices;
    /// --output gets `vertex count sum` lines.
    #[arg(
        long,
        requires = "within",
        conflicts_with_all = ["source", "sources", "sources_file", "nearest"]
    )]
    pub all_sources: bool,
    /// A progress line on stderr for --all-sources (on by default when
    /// stderr is a terminal).
    #[arg(long)]
    pub progress: bool,
}

/// Checks the syntax of `--delta` at once: a positive finite number (whether
/// it must be an integer depends on the graph's weights, see `input::weight_word`).
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

/// Parses `--gpus`: `all` or device ordinals separated by commas.
fn parse_gpus(text: &str) -> std::result::Result<sssp::multi::Gpus, String> {
    text.parse().map_err(|e: sssp::Error| match e {
        sssp::Error::InvalidArgument(message) => message,
        other => other.to_string(),
    })
}
