//! The input of a solve: the graph as loaded and transformed, and the query
//! (sources, limit, target, path) in the graph's vertices, parsed from the
//! options in the input file's numbering.

use std::path::Path;

use gpu_kernels::distance::{INFINITY, Weight};
use sssp::formats::{self, InputNumbering, LoadedGraph};
use sssp::graph::WeightKind;
use sssp::options::Stop;
use sssp::options::Tuning;
use sssp::partition::options::PartitionTuning;
use sssp::{Error, Graph, Result, distances};

use super::args::load_options;
use super::report::{Human, JsonDistance, JsonInput};
use super::solve_args::SolveArgs;

/// Reads `--graph` as `--format` and `--weights` say.
pub fn load(args: &SolveArgs, path: &Path) -> Result<LoadedGraph> {
    formats::load_with(
        path,
        args.format.map(Into::into),
        load_options(args.weights),
        &mut |_| {},
    )
}

/// What a solve answers, in the graph's vertices.
pub struct Query {
    /// The sources as given, in the input's numbering.
    pub source_ids: Vec<u64>,
    /// The sources' vertices.
    pub sources: Vec<usize>,
    pub stop: Stop,
    /// The vertex whose path is printed: `--path-to`, else `--target`.
    pub path_target: Option<usize>,
    /// `--sources` or `--sources-file`: one row per source.
    pub many_sources: bool,
    pub numbering: InputNumbering,
}

impl Query {
    /// The query of `args` on `graph` (read as `loaded`).
    pub fn parse(args: &SolveArgs, loaded: &LoadedGraph, graph: &Graph) -> Result<Query> {
        let kind = graph.weight_kind();
        let numbering = loaded.numbering();
        let source_ids = source_ids(args, numbering)?;
        let sources = source_ids
            .iter()
            .map(|&id| source_vertex(loaded, graph, id))
            .collect::<Result<Vec<_>>>()?;
        let stop = Stop {
            limit: args
                .limit
                .as_deref()
                .map(|text| weight_word("--limit", text, kind, true))
                .transpose()?,
            target: args
                .target
                .map(|id| vertex_of(loaded, graph, "--target", id))
                .transpose()?,
        };
        let path_target = match (args.path_to, stop.target) {
            (Some(id), Some(target)) if vertex_of(loaded, graph, "--path-to", id)? != target => {
                return Err(Error::InvalidArgument(
                    "--path-to and --target name different vertices: --target prints the path \
                     to its vertex; leave out --path-to"
                        .into(),
                ));
            }
            (Some(id), _) => Some(vertex_of(loaded, graph, "--path-to", id)?),
            (None, target) => target,
        };
        Ok(Query {
            source_ids,
            sources,
            stop,
            path_target,
            many_sources: args.sources.is_some() || args.sources_file.is_some(),
            numbering,
        })
    }
}

/// The parameters of `--delta`, `--shortcuts` and `--block-threads` for a
/// graph of `kind`.
pub fn tuning(args: &SolveArgs, kind: WeightKind) -> Result<Tuning> {
    Ok(Tuning {
        delta: args
            .delta
            .as_deref()
            .map(|text| weight_word("--delta", text, kind, false))
            .transpose()?,
        partition: PartitionTuning {
            shortcuts: args.shortcuts.into(),
            block_threads: args.block_threads,
            ..Default::default()
        },
        skip_certificate: args.no_certificate,
    })
}

/// Prints what was read and asked for: the graph, the sources, the bounds
/// and the load time; returns the same for `--json`.
pub fn describe(
    args: &SolveArgs,
    path: &Path,
    (loaded, graph, load_ms): (&LoadedGraph, &Graph, f64),
    query: &Query,
    out: &Human,
) -> JsonInput {
    let kind = graph.weight_kind();
    let (numbering, source_ids) = (query.numbering, &query.source_ids);
    out.line(format_args!("graph        {}", path.display()));
    out.line(format_args!(
        "format       {}{}",
        loaded.format(),
        if loaded.gzip() { " (gzip)" } else { "" }
    ));
    out.line(format_args!("vertices     {}", graph.num_vertices()));
    out.line(format_args!("edges        {}", graph.num_edges()));
    out.line(format_args!("weights      {}", kind.name()));
    let id_note = if numbering.base == 0 {
        String::new()
    } else {
        format!(" (vertex ids from {} as in the file)", numbering.base)
    };
    if query.many_sources {
        let shown: Vec<String> = source_ids.iter().take(8).map(u64::to_string).collect();
        let more = if source_ids.len() > 8 { " …" } else { "" };
        out.line(format_args!(
            "sources      {}: {}{more}{id_note}",
            source_ids.len(),
            shown.join(" ")
        ));
    } else {
        out.line(format_args!("source       {}{id_note}", source_ids[0]));
    }
    if let Some(limit) = query.stop.limit {
        out.line(format_args!(
            "limit        {} (farther vertices are reported unreached)",
            distances::display(kind, limit)
        ));
    }
    if let Some(target) = args.target {
        out.line(format_args!(
            "target       {target} (the solve stops once its distance is final)"
        ));
    }
    out.line(format_args!(
        "load         {load_ms:.1} ms (read, parse and validate)"
    ));
    JsonInput {
        graph: path.display().to_string(),
        format: loaded.format().name(),
        gzip: loaded.gzip(),
        vertices: graph.num_vertices(),
        edges: graph.num_edges(),
        weights: kind.name(),
        numbering_base: numbering.base,
        source: source_ids[0],
        sources: query.many_sources.then(|| source_ids.clone()),
        limit: query.stop.limit.map(|d| JsonDistance::new(kind, d)),
        target: args.target,
        load_ms,
    }
}

/// The loaded graph as `--undirected` and `--unweighted` ask.
pub fn transformed<'a>(graph: Graph<'a>, args: &SolveArgs) -> Result<Graph<'a>> {
    let graph = if args.undirected {
        graph.undirected()?
    } else {
        graph
    };
    Ok(if args.unweighted {
        graph.unweighted()?
    } else {
        graph
    })
}

/// The sources in the input's numbering: `--sources`, `--sources-file`, or
/// `--source` (default: the first vertex).
fn source_ids(args: &SolveArgs, numbering: InputNumbering) -> Result<Vec<u64>> {
    let given = [
        args.source.is_some(),
        args.sources.is_some(),
        args.sources_file.is_some(),
    ];
    if given.iter().filter(|&&g| g).count() > 1 {
        return Err(Error::InvalidArgument(
            "give the sources once: --source, --sources or --sources-file".into(),
        ));
    }
    if let Some(list) = &args.sources {
        return Ok(list.clone());
    }
    if let Some(file) = &args.sources_file {
        return formats::sources::read_sources(file);
    }
    Ok(vec![args.source.unwrap_or(numbering.external(0))])
}

/// The graph vertex of `--source`, given in the input's numbering.
fn source_vertex(loaded: &LoadedGraph, graph: &Graph, id: u64) -> Result<usize> {
    let numbering = loaded.numbering();
    let n = graph.num_vertices();
    match numbering.internal(id, n) {
        Some(v) => Ok(v),
        None if numbering.base == 0 => Err(Error::SourceOutOfRange {
            vertex: id,
            num_vertices: n,
        }),
        None => Err(Error::InvalidArgument(format!(
            "source vertex {id} is out of range: the graph has {n} vertices, numbered {} as in \
             the {} file",
            numbering.id_range(n),
            loaded.format()
        ))),
    }
}

/// The graph vertex of a vertex option (`--path-to`, `--target`), given in the
/// input's numbering.
pub fn vertex_of(loaded: &LoadedGraph, graph: &Graph, flag: &str, id: u64) -> Result<usize> {
    let numbering = loaded.numbering();
    let n = graph.num_vertices();
    numbering.internal(id, n).ok_or_else(|| {
        Error::InvalidArgument(format!(
            "{flag} vertex {id} is out of range: the graph has {n} vertices, numbered {} as \
             in the {} file",
            numbering.id_range(n),
            loaded.format()
        ))
    })
}

/// The weight word of `--delta` (`zero_ok` false: a positive integer for
/// `u32` weights, a positive real that is a finite nonzero `f32` for `f32`
/// weights) or `--limit` (`zero_ok` true: any non-negative number; for `u32`
/// weights its integer part, so that `d <= limit` keeps its meaning; `inf`
/// or a number past the largest distance bounds nothing).
pub(super) fn weight_word(flag: &str, text: &str, kind: WeightKind, zero_ok: bool) -> Result<u32> {
    if zero_ok {
        let value = text.trim().parse::<f64>().unwrap_or(f64::NAN);
        if value.is_nan() || value < 0.0 {
            return Err(Error::InvalidArgument(format!(
                "{flag} {text}: a non-negative number is needed"
            )));
        }
        let max = match kind {
            WeightKind::U32 => <u32 as Weight>::to_f64(<u32 as Weight>::MAX_DISTANCE),
            WeightKind::F32 => <f32 as Weight>::to_f64(<f32 as Weight>::MAX_DISTANCE),
        };
        return Ok(match kind {
            _ if value >= max => INFINITY,
            WeightKind::U32 => value.floor() as u32,
            // The largest f32 not above the value: `d <= limit` for f32 words.
            WeightKind::F32 => {
                let rounded = value as f32;
                if f64::from(rounded) > value {
                    f32::from_bits(rounded.to_bits() - 1).to_bits()
                } else {
                    rounded.to_bits()
                }
            }
        });
    }
    let invalid = |what: &str| {
        Err(Error::InvalidArgument(format!(
            "{flag} {text}: the graph has {} weights, so Δ must be {what}",
            kind.name()
        )))
    };
    match kind {
        WeightKind::U32 => match text.parse::<u32>() {
            Ok(delta) if delta > 0 => Ok(delta),
            _ => invalid(&format!("a positive integer (at most {})", u32::MAX)),
        },
        WeightKind::F32 => match text.parse::<f32>() {
            Ok(delta) if delta.is_finite() && delta > 0.0 => Ok(delta.to_bits()),
            _ => invalid(&format!(
                "a positive real that is a nonzero f32 (at most {:e})",
                f32::MAX
            )),
        },
    }
}
