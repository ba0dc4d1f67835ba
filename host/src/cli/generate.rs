//! `host gen`: a generated graph to a g.csr file: the papers' random graph
//! (`--kind random`, the default) or a 2-D grid with random weights (`--kind
//! grid`, a road-network stand-in).

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, ValueEnum};
use sssp::algorithms::Layout;
use sssp::formats::{atomic, csr};
use sssp::generate::{GridSpec, RandomGraphSpec, grid_graph, random_graph};
use sssp::graph::WeightKind;
use sssp::matrix::matrix_spec;
use sssp::{Error, Result};

use super::args::{LayoutArg, WeightsArg, parse_count};
use super::output::check_outputs;

/// The kind of graph `host gen` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Kind {
    /// The papers' random graph: `--vertices` vertices, each with `--degree`
    /// random predecessors.
    Random,
    /// A `--width` × `--height` 4-neighbor grid, both directions of every
    /// neighbor pair, each direction with its own random weight; row-major ids.
    Grid,
}

#[derive(Debug, Args)]
pub struct GenArgs {
    /// What to generate: `random` (the papers' graphs) or `grid` (a 2-D grid,
    /// the classic road-network stand-in).
    #[arg(long, value_enum, default_value_t = Kind::Random)]
    kind: Kind,
    /// Number of vertices (`--kind random`); accepts binary suffixes: 1Mi = 2^20,
    /// 11Mi = 11·2^20.
    #[arg(long, short = 'n', value_parser = parse_count)]
    vertices: Option<usize>,
    /// Vertices per row of a grid (`--kind grid`); accepts binary suffixes (4Ki).
    #[arg(long, value_parser = parse_count)]
    width: Option<usize>,
    /// Rows of a grid (`--kind grid`); accepts binary suffixes (4Ki).
    #[arg(long, value_parser = parse_count)]
    height: Option<usize>,
    /// Random predecessors per vertex (`--kind random`; default: 7 for lists, n/5
    /// for matrices).
    #[arg(long)]
    degree: Option<u32>,
    /// The experiment the graph is for: `list` (the papers' adjacency-list graphs,
    /// degree 7) or `matrix` (Martín et al.'s matrix graphs, degree n/5; degree 7
    /// reproduces Ortega-Arranz et al.). Either way the file is g.csr. Only picks
    /// the default `--degree` of random graphs.
    #[arg(long, value_enum, default_value_t = LayoutArg(Layout::List))]
    layout: LayoutArg,
    /// Smallest edge weight.
    #[arg(long, default_value_t = 1)]
    min_weight: u32,
    /// Largest edge weight [default: 10 for random graphs (the papers'), 100 for
    /// grids].
    #[arg(long)]
    max_weight: Option<u32>,
    /// The weight type: `u32` (integers uniform in min..=max) or, for `--kind
    /// random` only, `f32` (reals uniform in [min, max), the same edges as the
    /// u32 graph of the same seed). Grids have u32 weights.
    #[arg(long, value_enum, default_value_t = WeightsArg(WeightKind::U32))]
    weights: WeightsArg,
    /// Seed: the same seed gives the same file on any machine.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The g.csr file to write.
    #[arg(long, short)]
    output: PathBuf,
}

/// A usage error: an option that the kind needs is missing, or one it does not
/// take is given.
fn usage(kind: &str, message: &str) -> Error {
    Error::InvalidArgument(format!("host gen --kind {kind}: {message}"))
}

pub fn run(args: &GenArgs) -> Result<()> {
    check_outputs(&[], &[("--output", &args.output)])?;
    let start = Instant::now();
    let graph = match args.kind {
        Kind::Random => {
            if args.width.is_some() || args.height.is_some() {
                return Err(usage(
                    "random",
                    "--width and --height are for --kind grid; give --vertices",
                ));
            }
            let vertices = args
                .vertices
                .ok_or_else(|| usage("random", "--vertices is required"))?;
            let degree = match args.layout.0 {
                Layout::List => args.degree.unwrap_or(7),
                Layout::Matrix => matrix_spec(vertices, args.degree, args.seed).degree,
            };
            random_graph(&RandomGraphSpec {
                num_vertices: vertices,
                degree,
                min_weight: args.min_weight,
                max_weight: args.max_weight.unwrap_or(10),
                seed: args.seed,
                weight_kind: args.weights.into(),
            })?
        }
        Kind::Grid => {
            if args.vertices.is_some() || args.degree.is_some() {
                return Err(usage(
                    "grid",
                    "--vertices and --degree are for --kind random; give --width and --height",
                ));
            }
            if args.weights.0 != WeightKind::U32 {
                return Err(usage(
                    "grid",
                    "grids have u32 weights only; leave out --weights f32",
                ));
            }
            let (Some(width), Some(height)) = (args.width, args.height) else {
                return Err(usage("grid", "--width and --height are required"));
            };
            grid_graph(&GridSpec {
                width,
                height,
                min_weight: args.min_weight,
                max_weight: args.max_weight.unwrap_or(100),
                seed: args.seed,
            })?
        }
    };
    let generated = start.elapsed();
    atomic::write_via_path(&args.output, |temp| csr::write(&graph, temp))?;
    println!(
        "wrote {}: {} vertices, {} edges, {} weights (generated in {:.2} s, written in {:.2} s)",
        args.output.display(),
        graph.num_vertices(),
        graph.num_edges(),
        graph.weight_kind().name(),
        generated.as_secs_f64(),
        (start.elapsed() - generated).as_secs_f64()
    );
    Ok(())
}
