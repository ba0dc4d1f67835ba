//! `host preprocess --customizable` and `host customize`: the
//! metric-independent part of a customizable contraction hierarchy
//! ([`sssp::cch`]), then an index of any weights of the same arcs from it.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use sssp::cch::Cch;
use sssp::formats::atomic;
use sssp::gpu::cch::GpuCustomizer;
use sssp::gpu::context::Gpu;
use sssp::{Graph, Result};

use super::graph_input::GraphArgs;
use super::output::check_outputs;

#[derive(Debug, Args)]
pub struct CustomizeArgs {
    /// The customizable hierarchy (`host preprocess --customizable`).
    #[arg(long)]
    index: PathBuf,
    /// The graph of the weights: the arcs of the graph the hierarchy was
    /// built from (or some of them), `u32` weights.
    #[command(flatten)]
    input: GraphArgs,
    /// The contraction-hierarchy index to write (as `host preprocess`'s).
    #[arg(long, short)]
    output: PathBuf,
    /// Customize on GPU 0 instead of the CPU (for one customization the
    /// CPU is faster: the GPU's start and upload cost more than it saves).
    #[arg(long)]
    gpu: bool,
}

fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

/// Builds and writes the customizable hierarchy of `graph`.
pub(super) fn preprocess(graph: &Graph, output: &Path) -> Result<()> {
    let start = Instant::now();
    let cch = Cch::build(graph)?;
    let build_ms = ms(start);
    atomic::write_via_path(output, |temp| cch.save(temp))?;
    let s = cch.supergraph();
    println!(
        "build        {build_ms:.1} ms ({} threads)",
        rayon::current_num_threads()
    );
    println!("levels       {}", s.num_levels());
    println!("arcs         {}", s.num_arcs());
    println!("triangles    {}", cch.triangles().len());
    println!("index        {}", output.display());
    Ok(())
}

pub fn run(args: &CustomizeArgs) -> Result<()> {
    check_outputs(
        &[("--index", &args.index), ("--graph", &args.input.graph)],
        &[("--output", &args.output)],
    )?;
    let graph = args.input.load()?;
    let start = Instant::now();
    let cch = Cch::load(&args.index)?;
    println!(
        "read         {:.1} ms ({})",
        ms(start),
        args.index.display()
    );
    let start = Instant::now();
    let mut weights = cch.initial_weights(&graph)?;
    println!("weights      {:.1} ms", ms(start));
    let start = Instant::now();
    if args.gpu {
        let gpu = Gpu::new(0)?;
        let mut customizer = GpuCustomizer::new(&gpu, &cch)?;
        let gpu_ms = customizer.customize_in_place(&mut weights)?;
        println!("customize    {gpu_ms:.1} ms on the GPU (with the copies)");
    } else {
        cch.customize_weights(&mut weights);
        println!(
            "customize    {:.1} ms ({} threads)",
            ms(start),
            rayon::current_num_threads()
        );
    }
    let start = Instant::now();
    let hierarchy = cch.hierarchy(&weights)?;
    println!("convert      {:.1} ms", ms(start));
    atomic::write_via_path(&args.output, |temp| hierarchy.save(temp))?;
    println!(
        "arcs         {} up, {} down, {} of them shortcuts",
        hierarchy.up.len(),
        hierarchy.down.len(),
        hierarchy.num_shortcuts()
    );
    println!("index        {}", args.output.display());
    Ok(())
}
