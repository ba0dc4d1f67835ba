//! `host preprocess --graph G --output G.ch`: builds a contraction-hierarchy
//! index of a graph ([`sssp::ch`]) and writes it.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use sssp::ch::{BuildOptions, build};
use sssp::formats::{self, atomic};
use sssp::{Graph, Result};

use super::args::{FormatArg, WeightsArg, load_options};
use super::output::check_outputs;

#[derive(Debug, Args)]
pub struct PreprocessArgs {
    /// The graph, in any input format (as for solving).
    #[arg(long)]
    graph: PathBuf,
    /// The index file to write.
    #[arg(long, short)]
    output: PathBuf,
    /// The graph's format, instead of guessing it from the extension.
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Read a text graph's weights as this type (an index keeps it: u32 or f32).
    #[arg(long, value_enum)]
    weights: Option<WeightsArg>,
    /// Read every arc in both directions (then solve with --undirected too).
    #[arg(long)]
    undirected: bool,
    /// Every weight 1 (then solve with --unweighted too).
    #[arg(long)]
    unweighted: bool,
    /// Write the metric-independent part of a customizable contraction
    /// hierarchy (a `.cch` file) instead; `host customize` then makes an
    /// index of any weights of the same arcs from it in a fraction of the
    /// time.
    #[arg(long)]
    customizable: bool,
}

/// How to read the graph of `preprocess` and `customize`.
pub(super) struct GraphInput<'a> {
    pub graph: &'a Path,
    pub format: Option<FormatArg>,
    pub weights: Option<WeightsArg>,
    pub undirected: bool,
    pub unweighted: bool,
}

/// Loads the graph, transformed as asked, and prints its size and load time.
pub(super) fn load_graph(input: &GraphInput) -> Result<Graph<'static>> {
    let start = Instant::now();
    let loaded = formats::load_with(
        input.graph,
        input.format.map(Into::into),
        load_options(input.weights),
        &mut |_| {},
    )?;
    let mut graph = loaded.graph()?.into_owned();
    if input.undirected {
        graph = graph.undirected()?;
    }
    if input.unweighted {
        graph = graph.unweighted()?;
    }
    println!("graph        {}", input.graph.display());
    println!("vertices     {}", graph.num_vertices());
    println!("edges        {}", graph.num_edges());
    println!("load         {:.1} ms", start.elapsed().as_secs_f64() * 1e3);
    Ok(graph)
}

pub fn run(args: &PreprocessArgs) -> Result<()> {
    check_outputs(&[("--graph", &args.graph)], &[("--output", &args.output)])?;
    let graph = load_graph(&GraphInput {
        graph: &args.graph,
        format: args.format,
        weights: args.weights,
        undirected: args.undirected,
        unweighted: args.unweighted,
    })?;
    if args.customizable {
        return super::customize::preprocess(&graph, &args.output);
    }
    let start = Instant::now();
    let hierarchy = build(&graph, &BuildOptions::default())?;
    let build_ms = start.elapsed().as_secs_f64() * 1e3;
    atomic::write_via_path(&args.output, |temp| hierarchy.save(temp))?;
    let graph_bytes = 4 * (graph.offsets().len() + 2 * graph.num_edges());
    println!(
        "build        {build_ms:.1} ms ({} threads)",
        rayon::current_num_threads()
    );
    println!("levels       {}", hierarchy.num_levels());
    println!(
        "arcs         {} up, {} down, {} of them shortcuts",
        hierarchy.up.len(),
        hierarchy.down.len(),
        hierarchy.num_shortcuts()
    );
    println!(
        "index        {} ({} bytes, {:.2}× the graph's CSR)",
        args.output.display(),
        hierarchy.size_bytes(),
        hierarchy.size_bytes() as f64 / graph_bytes.max(1) as f64
    );
    Ok(())
}
