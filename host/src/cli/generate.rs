//! `host gen`: the papers' random graph to a g.csr file.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use sssp::generate::{RandomGraphSpec, random_graph};
use sssp::matrix::matrix_spec;
use sssp::{Result, format};

#[derive(Debug, Args)]
pub struct GenArgs {
    /// Number of vertices; accepts binary suffixes: 1Mi = 2^20, 11Mi = 11·2^20.
    #[arg(long, short = 'n', value_parser = super::parse_count)]
    vertices: usize,
    /// Random predecessors per vertex (default: 7 for lists, n/5 for matrices).
    #[arg(long)]
    degree: Option<u32>,
    /// The experiment the graph is for: `list` (the papers' adjacency-list graphs,
    /// degree 7) or `matrix` (Martín et al.'s matrix graphs, degree n/5; degree 7
    /// reproduces Ortega-Arranz et al.). Either way the file is g.csr.
    #[arg(long, value_enum, default_value_t = super::solve::Layout::List)]
    layout: super::solve::Layout,
    /// Smallest edge weight.
    #[arg(long, default_value_t = 1)]
    min_weight: u32,
    /// Largest edge weight.
    #[arg(long, default_value_t = 10)]
    max_weight: u32,
    /// Seed: the same seed gives the same file on any machine.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The g.csr file to write.
    #[arg(long, short)]
    output: PathBuf,
}

pub fn run(args: &GenArgs) -> Result<()> {
    let degree = match args.layout {
        super::solve::Layout::List => args.degree.unwrap_or(7),
        super::solve::Layout::Matrix => matrix_spec(args.vertices, args.degree, args.seed).degree,
    };
    let spec = RandomGraphSpec {
        num_vertices: args.vertices,
        degree,
        min_weight: args.min_weight,
        max_weight: args.max_weight,
        seed: args.seed,
    };
    let start = Instant::now();
    let graph = random_graph(&spec)?;
    let generated = start.elapsed();
    format::write(&graph, &args.output)?;
    println!(
        "wrote {}: {} vertices, {} edges (generated in {:.2} s, written in {:.2} s)",
        args.output.display(),
        graph.num_vertices(),
        graph.num_edges(),
        generated.as_secs_f64(),
        (start.elapsed() - generated).as_secs_f64()
    );
    Ok(())
}
