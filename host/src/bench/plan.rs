//! What a benchmark runs: sizes, algorithms, graphs, repetitions; and the
//! presets that reproduce the papers' experiments.

use serde::{Deserialize, Serialize};

use sssp::algorithms::Algorithm;
pub use sssp::algorithms::Layout;
use sssp::generate::RandomGraphSpec;
use sssp::{Error, Result};

/// What the benchmark's reports say of the catalogue's layouts.
pub trait LayoutNames {
    /// `list` or `matrix`.
    fn name(self) -> &'static str;
    /// `lists` or `matrices`.
    fn plural(self) -> &'static str;
    /// The unit of the size axis: 2^20 vertices for lists, 2^10 for matrices.
    fn size_unit(self) -> (usize, &'static str);
}

impl LayoutNames for Layout {
    fn name(self) -> &'static str {
        match self {
            Layout::List => "list",
            Layout::Matrix => "matrix",
        }
    }

    fn plural(self) -> &'static str {
        match self {
            Layout::List => "lists",
            Layout::Matrix => "matrices",
        }
    }

    fn size_unit(self) -> (usize, &'static str) {
        match self {
            Layout::List => (1 << 20, "2^20"),
            Layout::Matrix => (1 << 10, "2^10"),
        }
    }
}

/// A benchmark plan.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BenchPlan {
    /// Name (the preset's, or `custom`).
    pub name: String,
    /// Lists or matrices.
    pub layout: Layout,
    /// Vertex counts.
    pub sizes: Vec<usize>,
    /// Predecessors per vertex; `None`: 7 for lists, n/5 for matrices (Martín et al.).
    pub degree: Option<u32>,
    /// Algorithm names, in the order they run.
    pub algorithm_names: Vec<String>,
    /// Random graphs per size.
    pub graphs_per_size: u32,
    /// Timed repetitions of each GPU algorithm on each graph.
    pub repetitions: u32,
    /// Untimed solves before them.
    pub warmup: u32,
    /// Timed repetitions of each CPU algorithm on each graph.
    pub cpu_repetitions: u32,
    /// Base seed; graph `g` of size index `s` uses `seed + 1000 s + g`.
    pub seed: u64,
    /// Whether to run the untimed measuring solve that counts working threads.
    pub measure_threads: bool,
}

const LIST_GPU: &[&str] = &[
    "f-gpu",
    "f-gpu-2min",
    "f-gpu-no-atomic",
    "u-gpu",
    "u-gpu-2min",
    "u-gpu-plus",
    "u-h1",
    "u-h2",
    "u-h3",
];

impl BenchPlan {
    fn new(name: &str, layout: Layout, sizes: Vec<usize>, algorithms: &[&str]) -> Self {
        BenchPlan {
            name: name.to_string(),
            layout,
            sizes,
            degree: None,
            algorithm_names: algorithms.iter().map(|s| s.to_string()).collect(),
            graphs_per_size: 3,
            repetitions: 5,
            warmup: 1,
            cpu_repetitions: 1,
            seed: 1,
            measure_threads: true,
        }
    }

    /// The plans of a preset:
    /// - `quick`: lists of 2^16..2^20 vertices, the main variants, one graph each
    ///   (well under a minute on an H100);
    /// - `fig6`: Martín et al. Fig. 6, lists of 1..11 × 2^20 vertices, degree 7,
    ///   every list variant and F^CPU, U^CPU (25 graphs per size in the paper);
    /// - `fig7`: Martín et al. Fig. 7, matrices of 1..15 × 2^10 vertices, degree n/5;
    /// - `tables`: Ortega-Arranz et al. Tables I and II: CPU and GPU Martín against
    ///   GPU Crauser (general and economic), successor and predecessor forms, on
    ///   lists (1..11 × 2^20) and matrices of degree 7 (1..15 × 2^10);
    /// - `beyond`: the solvers beyond the papers on the papers' lists (1..11 × 2^20): `fast`,
    ///   `fast-crauser`, `near-far` and `auto` against the faithful F^GPU and the
    ///   best paper variant (Crauser economic, successors).
    pub fn preset(name: &str) -> Result<Vec<BenchPlan>> {
        let lists = |k: usize| (1..=k).map(|i| i << 20).collect::<Vec<_>>();
        let matrices = |k: usize| (1..=k).map(|i| i << 10).collect::<Vec<_>>();
        Ok(match name {
            "quick" => {
                let mut plan = BenchPlan::new(
                    "quick",
                    Layout::List,
                    vec![1 << 16, 1 << 18, 1 << 20],
                    &[
                        "f-gpu",
                        "f-gpu-2min",
                        "u-gpu",
                        "u-gpu-plus",
                        "crauser-general-succ",
                        "crauser-economic-pred",
                        "f-cpu",
                    ],
                );
                plan.graphs_per_size = 1;
                vec![plan]
            }
            "fig6" => {
                let mut algorithms = LIST_GPU.to_vec();
                algorithms.extend(["f-cpu", "u-cpu"]);
                vec![BenchPlan::new("fig6", Layout::List, lists(11), &algorithms)]
            }
            "fig7" => vec![BenchPlan::new(
                "fig7",
                Layout::Matrix,
                matrices(15),
                &[
                    "matrix-f-gpu",
                    "matrix-u-gpu",
                    "matrix-f-cpu",
                    "matrix-u-cpu",
                ],
            )],
            "tables" => {
                let list = BenchPlan::new(
                    "tables-lists",
                    Layout::List,
                    lists(11),
                    &[
                        "f-gpu",
                        "u-gpu",
                        "crauser-general-succ",
                        "crauser-general-pred",
                        "crauser-economic-succ",
                        "crauser-economic-pred",
                        "f-cpu",
                        "u-cpu",
                    ],
                );
                let mut matrix = BenchPlan::new(
                    "tables-matrices",
                    Layout::Matrix,
                    matrices(15),
                    &[
                        "matrix-f-gpu",
                        "matrix-u-gpu",
                        "matrix-crauser-general-succ",
                        "matrix-crauser-general-pred",
                        "matrix-crauser-economic-succ",
                        "matrix-crauser-economic-pred",
                        "matrix-f-cpu",
                        "matrix-u-cpu",
                    ],
                );
                matrix.degree = Some(7);
                vec![list, matrix]
            }
            "beyond" => {
                let mut plan = BenchPlan::new(
                    "beyond",
                    Layout::List,
                    lists(11),
                    &[
                        "f-gpu-2min",
                        "crauser-economic-succ",
                        "fast",
                        "fast-crauser",
                        "near-far",
                        "auto",
                    ],
                );
                plan.measure_threads = false;
                vec![plan]
            }
            other => {
                return Err(Error::InvalidArgument(format!(
                    "unknown preset `{other}`; one of: quick, fig6, fig7, tables, beyond"
                )));
            }
        })
    }

    /// The algorithms, parsed from their names.
    pub fn algorithms(&self) -> Result<Vec<Algorithm>> {
        self.algorithm_names
            .iter()
            .map(|name| name.parse::<Algorithm>().map_err(Error::InvalidArgument))
            .collect()
    }

    /// The generator's parameters for a graph of `n` vertices.
    pub fn graph_spec(&self, n: usize, seed: u64) -> RandomGraphSpec {
        let degree = self.degree.unwrap_or(match self.layout {
            Layout::List => 7,
            Layout::Matrix => (n / 5) as u32,
        });
        RandomGraphSpec {
            degree,
            ..RandomGraphSpec::papers(n, seed)
        }
    }
}
