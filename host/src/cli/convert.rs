//! `host convert IN OUT.csr`: any input format to a g.csr file.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use sssp::formats::{self, Format};
use sssp::formats::{atomic, csr};
use sssp::{Error, Result};

use super::args::{FormatArg, WeightsArg, load_options};
use super::output::check_outputs;

/// Inputs at least this large get a progress bar (on a terminal, without --quiet).
const PROGRESS_MIN_BYTES: u64 = 4 << 20;

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The graph to read: .gr, .mtx, .el, .wel, .txt (optionally .gz) or .csr.
    input: PathBuf,
    /// The g.csr file to write.
    output: PathBuf,
    /// The input's format, instead of guessing it from the extension (a `.gz`
    /// file is still decompressed).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Read a text input's weights as this type: `f32` reads reals (`0.5`) in
    /// any text format. Default: u32, except f32 for Matrix Market `real`
    /// files (which refuse u32). The output keeps the type (g.csr weight_type).
    #[arg(long, value_enum)]
    weights: Option<WeightsArg>,
    /// No progress bar and no summary line.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: &ConvertArgs) -> Result<()> {
    check_outputs(
        &[("the input", &args.input)],
        &[("the output", &args.output)],
    )?;
    let format = args.format.map(Format::from);
    // Check the format before anything else, so that a bad name fails at once.
    let (detected, _) = match format {
        Some(f) => (f, formats::is_gzip(&args.input)),
        None => formats::detect(&args.input)?,
    };
    let size = std::fs::metadata(&args.input)
        .map_err(|source| Error::Io {
            path: args.input.clone(),
            source,
        })?
        .len();
    let bar = if args.quiet || !std::io::stderr().is_terminal() || size < PROGRESS_MIN_BYTES {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::new(size);
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{bar:40}] {bytes}/{total_bytes} ({bytes_per_sec}, {eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        bar.set_message(format!("reading {}", args.input.display()));
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    };
    let start = Instant::now();
    let loaded = formats::load_with(
        &args.input,
        Some(detected),
        load_options(args.weights),
        &mut |bytes| bar.inc(bytes),
    );
    bar.finish_and_clear();
    let loaded = loaded?;
    let numbering = loaded.numbering();
    let graph = loaded.graph()?;
    let read = start.elapsed();
    atomic::write_via_path(&args.output, |temp| csr::write(&graph, temp))?;
    if !args.quiet {
        let renumbered = if numbering.base != 0 {
            format!(
                "; vertex k of the input is vertex k - {} in the output",
                numbering.base
            )
        } else {
            String::new()
        };
        println!(
            "wrote {}: {} vertices, {} edges ({} weights) from {} {}{} (read in {:.2} s, written in {:.2} s){renumbered}",
            args.output.display(),
            graph.num_vertices(),
            graph.num_edges(),
            graph.weight_kind().name(),
            loaded.format(),
            args.input.display(),
            if loaded.gzip() { " (gzip)" } else { "" },
            read.as_secs_f64(),
            (start.elapsed() - read).as_secs_f64()
        );
    }
    Ok(())
}
