//! The graph that `host preprocess` and `host customize` read, and how.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use sssp::formats;
use sssp::{Graph, Result};

use super::args::{FormatArg, WeightsArg, load_options};

/// The graph flags of `preprocess` and `customize`.
#[derive(Debug, Args)]
pub struct GraphArgs {
    /// The graph, in any input format (as for solving).
    #[arg(long)]
    pub graph: PathBuf,
    /// The graph's format, instead of guessing it from the extension.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Read a text graph's weights as this type (an index keeps it: u32 or f32).
    #[arg(long, value_enum)]
    pub weights: Option<WeightsArg>,
    /// Read every arc in both directions (then solve with --undirected too).
    #[arg(long)]
    pub undirected: bool,
    /// Every weight 1 (then solve with --unweighted too).
    #[arg(long)]
    pub unweighted: bool,
}

impl GraphArgs {
    /// Loads the graph, transformed as asked, and prints its size and load
    /// time.
    pub fn load(&self) -> Result<Graph<'static>> {
        let start = Instant::now();
        let loaded = formats::load_with(
            &self.graph,
            self.format.map(Into::into),
            load_options(self.weights),
            &mut |_| {},
        )?;
        let mut graph = loaded.graph()?.into_owned();
        if self.undirected {
            graph = graph.undirected()?;
        }
        if self.unweighted {
            graph = graph.unweighted()?;
        }
        println!("graph        {}", self.graph.display());
        println!("vertices     {}", graph.num_vertices());
        println!("edges        {}", graph.num_edges());
        println!("load         {:.1} ms", start.elapsed().as_secs_f64() * 1e3);
        Ok(graph)
    }
}
