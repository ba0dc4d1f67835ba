//! What a solve prints and writes: the summary lines, the path, the `--json`
//! object, and the `--output` and `--parents` files.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use sssp::distances;
use sssp::formats::InputNumbering;
use sssp::formats::atomic;
use sssp::formats::output::{self, Rows};
use sssp::graph::WeightKind;
use sssp::solver::SourceSolution;
use sssp::{Error, Result, parents};

use super::check::{RowCheck, SolvedRow};
use super::report::{
    Human, JsonAlgorithm, JsonCheck, JsonDistance, JsonInput, JsonPath, JsonSource, JsonStartup,
    JsonSummary, JsonTimes,
};
use super::solve_args::SolveArgs;
use sssp::gpu::context::Gpu;

/// One source's figures on one line, as printed with several sources (the
/// line's start: callers may add to it).
pub fn source_figures(source_id: u64, kind: WeightKind, summary: &distances::Summary) -> String {
    format!(
        "source {source_id:<6} reached {}, max distance {}, checksum {:016x}",
        summary.reached,
        distances::display(kind, summary.max_distance),
        summary.checksum,
    )
}

/// The `reached`, `max distance` and `checksum` lines of one source.
pub fn print_summary(out: &Human, n: usize, kind: WeightKind, summary: &distances::Summary) {
    out.line(format_args!(
        "reached      {} of {n} vertices",
        summary.reached
    ));
    out.line(format_args!(
        "max distance {}",
        distances::display(kind, summary.max_distance)
    ));
    out.line(format_args!("checksum     {:016x}", summary.checksum));
}

/// The `path` line: the path to its target (at distance word `dist`), or
/// that it is unreachable from `source_id`.
pub fn print_path(out: &Human, kind: WeightKind, dist: u32, path: &JsonPath, source_id: u64) {
    if path.reachable {
        let ids: Vec<String> = path.vertices.iter().map(u64::to_string).collect();
        out.line(format_args!(
            "path         to {}: length {}, {} edges: {}",
            path.target,
            distances::display(kind, dist),
            ids.len().saturating_sub(1),
            ids.join(" ")
        ));
    } else {
        out.line(format_args!(
            "path         to {}: unreachable from {source_id}",
            path.target
        ));
    }
}

/// The `--path-to` path from `source` to `target` in `tree`, in the input's
/// numbering; `dist` are the distance words of `kind`.
pub fn tree_path(
    tree: &[u32],
    dist: &[u32],
    kind: WeightKind,
    source: usize,
    target: usize,
    numbering: InputNumbering,
) -> Result<JsonPath> {
    let path = parents::path(tree, source, target)?;
    Ok(JsonPath {
        target: numbering.external(target),
        reachable: path.is_some(),
        distance: path.as_ref().map(|_| JsonDistance::new(kind, dist[target])),
        vertices: path
            .unwrap_or_default()
            .into_iter()
            .map(|v| numbering.external(v))
            .collect(),
    })
}

/// One source's entry of the `--json` summary (`source_id` in the input's
/// numbering).
pub fn json_source(
    source_id: u64,
    row: &SourceSolution,
    summary: &distances::Summary,
    check: &RowCheck,
) -> JsonSource {
    JsonSource {
        source: source_id,
        iterations: row.iterations,
        solve_ms: JsonTimes::of(&row.times_ms),
        check: JsonCheck {
            verified: check.verified,
            mismatches: check.mismatches,
            tree_verified: check.tree_verified,
            ..JsonCheck::new(row.weight_kind(), summary)
        },
    }
}

/// Prints the `--json` summary.
pub fn print_json(
    args: &SolveArgs,
    input: JsonInput,
    gpu: Option<&Gpu>,
    algorithms: Vec<JsonAlgorithm>,
    path: Option<JsonPath>,
) -> Result<()> {
    let summary = JsonSummary {
        input,
        device: gpu.map(|gpu| gpu.name()).transpose()?,
        startup: gpu.map(JsonStartup::of),
        algorithms,
        output: args.output.as_ref().map(|p| p.display().to_string()),
        parents: args.parents.as_ref().map(|p| p.display().to_string()),
        output_format: (args.output.is_some() || args.parents.is_some())
            .then_some(args.output_format.0.name()),
        path,
    };
    let text = serde_json::to_string_pretty(&summary)
        .map_err(|e| Error::InvalidArgument(format!("cannot write the JSON summary: {e}")))?;
    println!("{text}");
    Ok(())
}

/// Writes `--output` and `--parents`: one row per source.
pub fn write_outputs(
    args: &SolveArgs,
    rows: &[SolvedRow],
    kind: WeightKind,
    numbering: InputNumbering,
    many_sources: bool,
    out: &Human,
) -> Result<()> {
    let format = args.output_format.into();
    if let Some(file) = &args.output {
        let dist: Vec<(usize, &[u32])> = rows
            .iter()
            .map(|r| (r.row.source, &r.row.dist[..]))
            .collect();
        output::write_distances(file, shape(&dist, many_sources), kind, numbering, format)?;
        out.line(format_args!("output       {}", file.display()));
    }
    if let Some(file) = &args.parents {
        let trees: Vec<(usize, &[u32])> = rows
            .iter()
            .filter_map(|r| r.tree.as_deref().map(|t| (r.row.source, t)))
            .collect();
        output::write_parents(file, shape(&trees, many_sources), numbering, format)?;
        out.line(format_args!("parents      {}", file.display()));
    }
    Ok(())
}

/// The rows as written: without their source for a single `--source`.
fn shape<'a>(rows: &'a [(usize, &'a [u32])], many_sources: bool) -> Rows<'a> {
    match rows {
        [(_, row)] if !many_sources => Rows::Single(row),
        _ => Rows::PerSource(rows),
    }
}

/// A file named by a flag: how two names of one file are told apart.
#[derive(PartialEq, Eq)]
enum FileKey {
    /// An existing file: its device and inode.
    Inode(u64, u64),
    /// A file yet to be created: its canonical folder and its name.
    Path(PathBuf),
}

fn file_key(path: &Path) -> FileKey {
    if let Ok(meta) = std::fs::metadata(path) {
        return FileKey::Inode(meta.dev(), meta.ino());
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let folder = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
    FileKey::Path(folder.join(path.file_name().unwrap_or_default()))
}

/// Refuses, before any work, an output (flag, path) that names the same file
/// as an input or as another output: the write would destroy the input, or
/// one output would replace the other. Then checks that every output can be
/// created (an [`Error::Write`] if not), so that a bad path fails before the
/// solve, not after it.
pub fn check_outputs(inputs: &[(&str, &Path)], outputs: &[(&str, &Path)]) -> Result<()> {
    for (i, &(flag, path)) in outputs.iter().enumerate() {
        let key = file_key(path);
        let clash = inputs
            .iter()
            .map(|&(other, input)| (other, input, "an input"))
            .chain(
                outputs[..i]
                    .iter()
                    .map(|&(other, p)| (other, p, "another output")),
            )
            .find(|&(_, other_path, _)| file_key(other_path) == key);
        if let Some((other, other_path, what)) = clash {
            return Err(Error::InvalidArgument(format!(
                "{flag} {} is the same file as {other} {} ({what}): refusing to overwrite it",
                path.display(),
                other_path.display()
            )));
        }
    }
    for &(_, path) in outputs {
        atomic::check_writable(path)?;
    }
    Ok(())
}

/// [`check_outputs`] of a solve: `--output` and `--parents` against the
/// graph, the index, the source and target files and each other.
pub fn check_solve_outputs(args: &SolveArgs) -> Result<()> {
    let inputs = [
        ("--graph", &args.graph),
        ("--index", &args.index),
        ("--sources-file", &args.sources_file),
        ("--targets-file", &args.targets_file),
        ("--pairs", &args.pairs),
    ];
    let outputs = [("--output", &args.output), ("--parents", &args.parents)];
    check_outputs(&given(&inputs), &given(&outputs))
}

/// The flags of `flags` that are given, with their paths.
fn given<'a>(flags: &[(&'static str, &'a Option<PathBuf>)]) -> Vec<(&'static str, &'a Path)> {
    flags
        .iter()
        .filter_map(|&(flag, path)| path.as_deref().map(|p| (flag, p)))
        .collect()
}
