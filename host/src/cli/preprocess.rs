//! `host preprocess --graph G --output G.ch`: builds a contraction-hierarchy
//! index of a graph ([`sssp::ch`]) and writes it.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use sssp::Result;
use sssp::ch::{BuildOptions, build};
use sssp::formats::atomic;

use super::graph_input::GraphArgs;
use super::output::check_outputs;

#[derive(Debug, Args)]
pub struct PreprocessArgs {
    #[command(flatten)]
    input: GraphArgs,
    /// The index file to write.
    #[arg(long, short)]
    output: PathBuf,
    /// Write the metric-independent part of a customizable contraction
    /// hierarchy (a `.cch` file) instead; `host customize` then makes an
    /// index of any weights of the same arcs from it in a fraction of the
    /// time.
    #[arg(long)]
    customizable: bool,
}

pub fn run(args: &PreprocessArgs) -> Result<()> {
    check_outputs(
        &[("--graph", &args.input.graph)],
        &[("--output", &args.output)],
    )?;
    let graph = args.input.load()?;
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
