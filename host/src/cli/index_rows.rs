//! `--index` results that are not kept whole: many trees streamed from the
//! library ([`TreeSolver::solve_rows`]), each summarized and written to
//! `--output` as it comes; and the reductions that copy no tree,
//! `--within` (per source: vertices within a distance, sum of values) and
//! `--nearest` (each vertex's nearest source).

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use sssp::ch::{Nearest, TreeSolver, Values};
use sssp::distances::{self, Summary};
use sssp::formats::atomic;
use sssp::graph::WeightKind;
use sssp::{Error, Result};

use super::input::{Query, weight_word};
use super::report::{Human, JsonAbout, JsonAlgorithm, JsonCheck, JsonSource, JsonTimes};
use super::solve_args::SolveArgs;
use super::streamed::SummarySink;

/// The flags that apply to trees only (not to a table or to pairs), each
/// with whether it was given.
pub fn tree_only_flags(args: &SolveArgs) -> [(bool, &'static str); 8] {
    [
        (args.parents.is_some(), "--parents"),
        (args.path_to.is_some(), "--path-to"),
        (args.target.is_some(), "--target"),
        (args.limit.is_some(), "--limit"),
        (args.certify, "--certify"),
        (args.json, "--json"),
        (args.within.is_some(), "--within"),
        (args.nearest, "--nearest"),
    ]
}

/// Whether the trees of `query` can stream: many sources, timed once, no
/// check, tree or path asked for.
pub fn streams(args: &SolveArgs, query: &Query) -> bool {
    query.many_sources
        && args.runs == 1
        && !args.verify
        && !args.certify
        && args.parents.is_none()
        && query.path_target.is_none()
}

/// The trees of every source, streamed: summarized (and written) while the
/// next ones are copied; a warm-up batch first unless `--warmup 0`. Returns
/// the `--json` entry (each tree's time the batch's mean: they are not
/// timed one by one).
pub fn stream(
    args: &SolveArgs,
    query: &Query,
    trees: &mut TreeSolver,
    out: &Human,
) -> Result<JsonAlgorithm> {
    let kind = trees.hierarchy().weight_kind;
    if args.warmup.unwrap_or(1) > 0 {
        let lanes = trees.gpu_shape().map_or(1, |(lanes, _)| lanes);
        trees.trees_on_device(&query.sources[..lanes.min(query.sources.len())])?;
    }
    let mut sink = SummarySink::new(args, query, kind)?;
    let wall_ms = trees.solve_rows(&query.sources, query.stop, &mut |i, row| sink.take(i, row))?;
    let count = query.sources.len();
    out.line(format_args!(
        "trees        {count} in {wall_ms:.3} ms: {:.4} ms per tree (host timer; streamed: \
         each tree in graph order on the GPU, copied through page-locked slots, summarized{} \
         while the next are copied)",
        wall_ms / count.max(1) as f64,
        if sink.writes() { " and written" } else { "" }
    ));
    let summaries = sink.finish(args, out)?;
    print_tree_summaries(query, kind, &summaries, out);
    Ok(tree_json(trees, query, kind, &summaries, wall_ms))
}

/// The `--json` entry's words for trees from the index (timed on the host).
pub fn tree_about(trees: &TreeSolver) -> JsonAbout {
    JsonAbout {
        name: trees.algorithm().name(),
        requested: "index",
        paper: trees.algorithm().spec().paper,
        device: if trees.gpu_shape().is_some() {
            "gpu"
        } else {
            "cpu"
        },
        prepare_ms: trees.prepare_ms(),
        timer: "host",
    }
}

/// One line per source's streamed tree (distance words of `kind`).
pub fn print_tree_summaries(query: &Query, kind: WeightKind, summaries: &[Summary], out: &Human) {
    for (summary, &source_id) in summaries.iter().zip(&query.source_ids) {
        out.line(format_args!(
            "source {source_id:<6} reached {}, max distance {}, checksum {:016x}",
            summary.reached,
            distances::display(kind, summary.max_distance),
            summary.checksum,
        ));
    }
}

/// The `--json` entry of streamed trees: each tree's time the batch's mean
/// (`wall_ms` over the trees; they are not timed one by one).
fn tree_json(
    trees: &TreeSolver,
    query: &Query,
    kind: WeightKind,
    summaries: &[Summary],
    wall_ms: f64,
) -> JsonAlgorithm {
    let per_tree = [wall_ms / summaries.len().max(1) as f64];
    let json_sources = summaries
        .iter()
        .zip(&query.source_ids)
        .map(|(summary, &source_id)| JsonSource {
            source: source_id,
            iterations: None,
            solve_ms: JsonTimes::of(&per_tree),
            check: JsonCheck::new(kind, summary),
        })
        .collect();
    let about = tree_about(trees);
    JsonAlgorithm::new(about, json_sources, true)
}

/// `--within D [--values FILE]`: per source, the vertices within `D` and
/// the sum of their values.
pub fn within(args: &SolveArgs, query: &Query, trees: &mut TreeSolver, out: &Human) -> Result<()> {
    let kind = trees.hierarchy().weight_kind;
    let text = args.within.as_deref().unwrap_or("0");
    let limit = weight_word("--within", text, kind, true)?;
    let values = args.values.as_deref().map(read_values).transpose()?;
    let start = Instant::now();
    let rows = trees.within(&query.sources, limit, values.as_deref().map(Values::F64))?;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let device = if trees.gpu_shape().is_some() {
        "GPU"
    } else {
        "CPU"
    };
    print_within(args, query, &rows, (ms, device), out);
    Ok(())
}

/// The `--within` lines of `rows` (one per source), reduced in `ms` on
/// `device`.
pub fn print_within(
    args: &SolveArgs,
    query: &Query,
    rows: &[(u32, f64)],
    (ms, device): (f64, &str),
    out: &Human,
) {
    let text = args.within.as_deref().unwrap_or("0");
    out.line(format_args!(
        "within       {} sources in {ms:.3} ms (reduced on the {device}; no tree copied)",
        rows.len(),
    ));
    for ((count, sum), &source_id) in rows.iter().zip(&query.source_ids) {
        match args.values {
            Some(_) => out.line(format_args!(
                "source {source_id:<6} within {text}: {count} vertices, sum {sum}"
            )),
            None => out.line(format_args!(
                "source {source_id:<6} within {text}: {count} vertices"
            )),
        }
    }
}

/// `--nearest`: each vertex's distance from its nearest source, and that
/// source; written to `--output` as lines `vertex distance source`.
pub fn nearest(args: &SolveArgs, query: &Query, trees: &mut TreeSolver, out: &Human) -> Result<()> {
    let kind = trees.hierarchy().weight_kind;
    let start = Instant::now();
    let nearest = trees.nearest(&query.sources)?;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    print_nearest(args, query, (kind, &nearest), ms, out)
}

/// The `--nearest` summary of `nearest` (distance words of `kind`), found
/// in `ms`, and its `--output`.
pub fn print_nearest(
    args: &SolveArgs,
    query: &Query,
    (kind, nearest): (WeightKind, &Nearest),
    ms: f64,
    out: &Human,
) -> Result<()> {
    let summary = distances::summarize(&nearest.dist);
    out.line(format_args!(
        "nearest      {} sources in {ms:.3} ms: reached {}, max distance {}, checksum {:016x}",
        query.sources.len(),
        summary.reached,
        distances::display(kind, summary.max_distance),
        summary.checksum,
    ));
    let Some(path) = &args.output else {
        return Ok(());
    };
    let numbering = query.numbering;
    // Whole or not at all: an earlier file stays until this one is complete.
    atomic::write_atomically(path, |file| {
        for (v, (&d, &s)) in nearest.dist.iter().zip(&nearest.source).enumerate() {
            let vertex = numbering.external(v);
            match query.source_ids.get(s as usize) {
                Some(source) => {
                    writeln!(file, "{vertex} {} {source}", distances::display(kind, d))?
                }
                None => writeln!(file, "{vertex} inf -")?,
            }
        }
        Ok(())
    })?;
    out.line(format_args!("output       {}", path.display()));
    Ok(())
}

/// One number per vertex from `path`, whitespace separated.
pub fn read_values(path: &Path) -> Result<Vec<f64>> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    text.split_whitespace()
        .enumerate()
        .map(|(i, word)| {
            word.parse::<f64>().map_err(|_| {
                Error::InvalidArgument(format!(
                    "{}: value {i} (`{word}`) is not a number",
                    path.display()
                ))
            })
        })
        .collect()
}
