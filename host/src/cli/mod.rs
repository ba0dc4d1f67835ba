//! The command line: its commands and their dispatch.

mod algos;
mod args;
mod bench;
mod check;
mod convert;
mod customize;
mod device;
mod generate;
mod graph_input;
mod index;
mod index_rows;
mod input;
mod output;
mod pairs;
mod preprocess;
mod ptx;
mod report;
mod solve;
mod solve_args;
mod spread;
mod streamed;

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use sssp::Result;

const EXAMPLES: &str = "\
Examples:
  host --graph graphs/sample.csr --verify
  host --graph g.csr --algo u-gpu-plus --runs 5
  host --graph g.csr --source 3 --output distances.txt
  host --graph graphs/rome99.gr --device cpu --verify --source 1
  host --graph graphs/rome99.gr --path-to 3353 --parents tree.txt
  host --graph graphs/rome99.gr --sources 1,5,9 --limit 5000 --output d.txt
  host --graph graphs/rome99.gr --sources-file sources.ss --output-format bin --output d.bin
  host --graph graphs/rome99.gr --target 3353
  host --graph soc.el --undirected --unweighted --source 0
  host --graph web.mtx.gz --json --output d.bin --output-format bin
  host --graph roads-km.gr --weights f32 --device cpu --verify
  host convert roads.gr.gz roads.csr
  host preprocess --graph roads.gr.gz --output roads.ch
  host --graph roads.gr.gz --index roads.ch --sources 1,5,9 --verify
  host --graph roads.gr.gz --index roads.ch --pairs pairs.txt --output d.txt
  host --graph roads.gr.gz --index roads.ch --within 5000 --all-sources --gpus all -o a.txt
  host algos
  host gen --vertices 1Mi --seed 7 --output g.csr
  host ptx --output kernels.ptx";

/// Single-source shortest paths on an NVIDIA GPU, with kernels written in Rust.
///
/// Without a subcommand, solves SSSP on `--graph` with `--algo` (default:
/// `auto`: `partition` (`near-far`) on high-diameter graphs such as road
/// networks, else the fastest of `fast-crauser`, `near-far` and `fast` in a
/// trial from the source) on the GPU and prints a summary. The graph may be g.csr, DIMACS .gr, Matrix Market .mtx or
/// an edge list (.el, .wel, .txt), text formats optionally gzipped (.gz). Vertex ids
/// (`--source`, `--output`, `--parents`, `--path-to`) follow the input file:
/// 1-based for .gr and .mtx, 0-based for .csr and edge lists.
#[derive(Debug, Parser)]
#[command(
    name = "host",
    version,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = EXAMPLES
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    solve: solve_args::SolveArgs,
}

/// A subcommand's `--help` examples, one command a line: `Example:` before
/// one, `Examples:` before more.
macro_rules! examples {
    ($line:literal) => {
        concat!("Example:\n  ", $line)
    };
    ($first:literal $(, $line:literal)+ $(,)?) => {
        concat!("Examples:\n  ", $first $(, "\n  ", $line)+)
    };
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Write a generated graph as a g.csr file: the papers' random graph (each
    /// vertex gets `--degree` random predecessors, integer weights uniform in
    /// min..=max, or with `--weights f32` reals uniform in [min, max)), or with
    /// `--kind grid` a 2-D grid with random integer weights (the classic
    /// stand-in for road networks).
    #[command(
        after_help = examples!(
            "host gen --vertices 11Mi --degree 7 --seed 1 --output big.csr",
            "host gen --vertices 1Mi --weights f32 --min-weight 0 --max-weight 1 --output real.csr",
            "host gen --kind grid --width 4Ki --height 4Ki --seed 1 --output grid.csr",
        )
    )]
    Gen(generate::GenArgs),
    /// Convert a graph in any input format (DIMACS .gr, Matrix Market .mtx,
    /// edge list .el/.txt, optionally .gz; or g.csr) to a g.csr file. Vertex k
    /// of a 1-based file (.gr, .mtx) becomes vertex k - 1. The weight type
    /// (u32, or f32 for Matrix Market `real` and with --weights f32) is kept.
    #[command(
        after_help = examples!(
            "host convert graphs/rome99.gr rome99.csr",
            "host convert --format edgelist --quiet soc.tsv.gz soc.csr",
            "host convert --weights f32 roads-km.gr roads-km.csr",
        )
    )]
    Convert(convert::ConvertArgs),
    /// List the algorithms that `--algo` takes, with their papers' names.
    #[command(after_help = examples!("host algos | grep crauser"))]
    Algos,
    /// Benchmark: sizes × algorithms × graphs × repetitions on generated graphs,
    /// every result verified; CSV, JSON, markdown summary and plots.
    #[command(
        after_help = examples!(
            "host bench --preset quick",
            "host bench --preset fig6 --graphs-per-size 3 --out docs/bench/fig6",
        )
    )]
    Bench(Box<bench::BenchArgs>),
    /// Build a contraction-hierarchy index of a road network (or any graph
    /// with a hierarchy) and write it; solving with `--index` then takes its
    /// trees from it (PHAST). Graphs without a hierarchy (social, web,
    /// Kronecker) are refused with a message.
    #[command(
        after_help = examples!(
            "host preprocess --graph roads.gr.gz --output roads.ch",
            "host --graph roads.gr.gz --index roads.ch --sources 1,5,9 --output d.txt",
        )
    )]
    Preprocess(preprocess::PreprocessArgs),
    /// Make a contraction-hierarchy index of a graph's weights from a
    /// customizable hierarchy of its arcs (`host preprocess
    /// --customizable`): new weights of the same roads in a fraction of a
    /// preprocessing's time.
    #[command(
        after_help = examples!(
            "host preprocess --customizable --graph roads.gr.gz --output roads.cch",
            "host customize --index roads.cch --graph traffic.gr.gz --output traffic.ch",
        )
    )]
    Customize(customize::CustomizeArgs),
    /// Print the PTX of the kernels embedded in this binary.
    #[command(
        after_help = examples!("host ptx --output kernels.ptx && ptxas -arch=sm_90 kernels.ptx -o /dev/null")
    )]
    Ptx {
        /// Write the PTX to this file instead of standard output.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
}

/// Runs the command line.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Some(Command::Gen(args)) => generate::run(&args),
        Some(Command::Convert(args)) => convert::run(&args),
        Some(Command::Ptx { output }) => ptx::write(output),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Preprocess(args)) => preprocess::run(&args),
        Some(Command::Customize(args)) => customize::run(&args),
        Some(Command::Algos) => {
            algos::list();
            Ok(())
        }
        None => output::check_solve_outputs(&cli.solve).and_then(|()| solve::run(&cli.solve)),
    }
}
