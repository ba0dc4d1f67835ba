//! What `host --graph …` prints: the human summary on stdout, or one JSON
//! object with `--json`.

use std::fmt::Display;

use gpu_kernels::distance::Weight;
use serde::Serialize;
use sssp::distances;
use sssp::graph::WeightKind;

/// The human summary on stdout, or nothing with `--json`.
pub struct Human {
    /// Print nothing (`--json`).
    pub quiet: bool,
}

impl Human {
    /// Prints one line.
    pub fn line(&self, text: impl Display) {
        if !self.quiet {
            println!("{text}");
        }
    }
}

/// The `--json` summary.
#[derive(Serialize)]
pub struct JsonSummary {
    /// The graph and the query (the first fields).
    #[serde(flatten)]
    pub input: JsonInput,
    pub device: Option<String>,
    /// What opening the GPU cost.
    pub startup: Option<JsonStartup>,
    pub algorithms: Vec<JsonAlgorithm>,
    pub output: Option<String>,
    /// The `--parents` file.
    pub parents: Option<String>,
    /// The format of `output` and `parents`, when either is written.
    pub output_format: Option<&'static str>,
    /// The `--path-to` (or `--target`) path.
    pub path: Option<JsonPath>,
}

/// What opening the GPU cost: the driver and context, and the kernels'
/// module (machine code, or PTX the driver compiled).
#[derive(Serialize)]
pub struct JsonStartup {
    pub context_ms: f64,
    pub module_ms: f64,
    pub module: &'static str,
}

impl JsonStartup {
    /// The startup of `gpu`.
    pub fn of(gpu: &sssp::gpu::context::Gpu) -> JsonStartup {
        let startup = gpu.startup();
        JsonStartup {
            context_ms: startup.context_ms,
            module_ms: startup.module_ms,
            module: match startup.module {
                sssp::gpu::kernels::ModuleForm::Cubin => "cubin",
                sssp::gpu::kernels::ModuleForm::Ptx => "ptx",
            },
        }
    }
}

/// What the `--json` summary says of the graph and the query, the same with
/// and without `--index`.
#[derive(Serialize, Clone)]
pub struct JsonInput {
    pub graph: String,
    pub format: &'static str,
    pub gzip: bool,
    pub vertices: usize,
    pub edges: usize,
    /// The weight type, `u32` or `f32`: how to read the distances.
    pub weights: &'static str,
    /// The input's id of the first vertex (0 or 1): `source` and `--output` use it.
    pub numbering_base: u32,
    /// The (first) source, in the input's numbering.
    pub source: u64,
    /// Every source, with `--sources`/`--sources-file`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sources: Option<Vec<u64>>,
    /// `--limit`, as a distance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<JsonDistance>,
    /// `--target`, in the input's numbering.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<u64>,
    pub load_ms: f64,
}

/// The `--path-to` entry of the `--json` summary, ids in the input's numbering.
#[derive(Serialize)]
pub struct JsonPath {
    pub target: u64,
    pub reachable: bool,
    /// The path's length (the target's distance); `null` when unreachable.
    pub distance: Option<JsonDistance>,
    /// From the source to the target; empty when unreachable.
    pub vertices: Vec<u64>,
}

/// One algorithm's entry of the `--json` summary; with several sources, the
/// per-source figures are in `sources` and the top-level ones are the first
/// source's.
#[derive(Serialize)]
pub struct JsonAlgorithm {
    pub name: &'static str,
    pub requested: &'static str,
    pub paper: &'static str,
    pub device: &'static str,
    pub iterations: Option<u32>,
    pub prepare_ms: Option<f64>,
    pub solve_ms: JsonTimes,
    pub timer: &'static str,
    #[serde(flatten)]
    pub check: JsonCheck,
    /// One entry per source, with several sources.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sources: Option<Vec<JsonSource>>,
}

/// What a `--json` algorithm entry says besides its sources' figures.
pub struct JsonAbout {
    pub name: &'static str,
    pub requested: &'static str,
    pub paper: &'static str,
    pub device: &'static str,
    pub prepare_ms: Option<f64>,
    pub timer: &'static str,
}

impl JsonAlgorithm {
    /// The entry of an algorithm that solved `sources` (at least one, in
    /// order): the first source's figures at the top, and with `many`
    /// (`--sources`) every source's in `sources`.
    pub fn new(about: JsonAbout, mut sources: Vec<JsonSource>, many: bool) -> JsonAlgorithm {
        let first = sources.remove(0);
        JsonAlgorithm {
            name: about.name,
            requested: about.requested,
            paper: about.paper,
            device: about.device,
            iterations: first.iterations,
            prepare_ms: about.prepare_ms,
            solve_ms: first.solve_ms,
            timer: about.timer,
            check: first.check.clone(),
            sources: many.then(|| {
                sources.insert(0, first);
                sources
            }),
        }
    }
}

/// One source's figures in a multi-source `--json` summary.
#[derive(Serialize)]
pub struct JsonSource {
    /// In the input's numbering.
    pub source: u64,
    pub iterations: Option<u32>,
    pub solve_ms: JsonTimes,
    #[serde(flatten)]
    pub check: JsonCheck,
}

/// What a `--json` entry says of one source's distances: how many are
/// reached, the largest, their checksum, and what `--verify` found.
#[derive(Serialize, Clone)]
pub struct JsonCheck {
    pub reached: usize,
    pub max_distance: JsonDistance,
    pub checksum: String,
    pub verified: Option<bool>,
    pub mismatches: Option<usize>,
    /// With --verify and a tree (--parents, --path-to): whether it is the one
    /// the oracle's distances give.
    pub tree_verified: Option<bool>,
}

impl JsonCheck {
    /// The entry of distances of weights `kind` that `summary` sums up,
    /// without verdicts.
    pub fn new(kind: WeightKind, summary: &distances::Summary) -> Self {
        JsonCheck {
            reached: summary.reached,
            max_distance: JsonDistance::new(kind, summary.max_distance),
            checksum: format!("{:016x}", summary.checksum),
            verified: None,
            mismatches: None,
            tree_verified: None,
        }
    }
}

/// A finite distance in the `--json` summary: an integer for u32 weights, the
/// exact value of the f32 as a JSON number (an f64) for f32 weights.
#[derive(Serialize, Clone, Copy)]
#[serde(untagged)]
pub enum JsonDistance {
    Integer(u32),
    Real(f64),
}

impl JsonDistance {
    /// The finite distance word `d` of `kind`.
    pub fn new(kind: WeightKind, d: u32) -> JsonDistance {
        match kind {
            WeightKind::U32 => JsonDistance::Integer(d),
            WeightKind::F32 => JsonDistance::Real(<f32 as Weight>::to_f64(d)),
        }
    }
}

/// Median, min and max of timed solves, ms.
#[derive(Serialize, Clone, Copy)]
pub struct JsonTimes {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub runs: usize,
}

impl JsonTimes {
    /// The summary of `times` (ms).
    pub fn of(times: &[f64]) -> JsonTimes {
        let min = times.iter().copied().fold(f64::INFINITY, f64::min);
        let max = times.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        JsonTimes {
            median: sssp::solver::median(times),
            min: if times.is_empty() { 0.0 } else { min },
            max: if times.is_empty() { 0.0 } else { max },
            runs: times.len(),
        }
    }
}

/// One line of the table printed when several algorithms ran.
pub struct TableRow {
    pub algorithm: &'static str,
    pub iterations: Option<u32>,
    pub times: JsonTimes,
    pub verdict: String,
}

/// Prints the comparison table of several algorithms.
pub fn print_table(out: &Human, rows: &[TableRow]) {
    out.line("");
    out.line(format_args!(
        "{:<26} {:>10} {:>12} {:>12} {:>12}  verify",
        "algorithm", "iterations", "median ms", "min ms", "max ms"
    ));
    for row in rows {
        let iterations = row.iterations.map_or("-".to_string(), |i| i.to_string());
        let JsonTimes {
            median, min, max, ..
        } = row.times;
        out.line(format_args!(
            "{:<26} {iterations:>10} {median:>12.3} {min:>12.3} {max:>12.3}  {}",
            row.algorithm, row.verdict
        ));
    }
}
