//! `--index --pairs FILE`: the distance (and with `--paths` the path) of
//! each (source, target) pair of a file, from the index: distances on the
//! solver's GPU ([`sssp::gpu::pairs`]) when it has one and the pairs are
//! many, else on the CPU ([`sssp::ch::pairs`]), as are paths; summarized,
//! checked with `--verify`, written with `--output`.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::Path;
use std::time::Instant;

use sssp::ch::Hierarchy;
use sssp::ch::pairs::{MANY_TARGETS, PairPaths, pair_distances, pair_paths};
use sssp::formats::atomic::write_atomically;
use sssp::formats::output::{OutputFormat, Rows, write_distances};
use sssp::formats::sources::{numbered_lines, open_list};
use sssp::formats::{InputNumbering, LoadedGraph};
use sssp::gpu::pairs::{GPU_PAIRS_FROM, GpuPairs};
use sssp::graph::WeightKind;
use sssp::{Error, Graph, Result, Solver, distances, oracle};

use super::device::DeviceChoice;
use super::index_rows;
use super::input::vertex_of;
use super::report::Human;
use super::solve_args::SolveArgs;

/// Answers the pairs of `file` from `hierarchy` (checked against `graph`).
pub fn run(
    args: &SolveArgs,
    (loaded, graph): (&LoadedGraph, &Graph),
    (hierarchy, solver): (&Hierarchy, &Solver),
    file: &Path,
    out: &Human,
) -> Result<Option<Error>> {
    refuse_tree_flags(args)?;
    let start = Instant::now();
    let ids = parse_pairs(open_list(file, "a pairs file")?, file)?;
    let mut pairs = Vec::with_capacity(ids.len());
    for (line, (s, t)) in ids {
        let vertex = |id| {
            vertex_of(loaded, graph, "--pairs", id).map_err(|e| Error::Parse {
                path: file.to_path_buf(),
                line,
                message: e.to_string(),
            })
        };
        pairs.push((vertex(s)?, vertex(t)?));
    }
    let sources = count_sources(&pairs);
    out.line(format_args!(
        "pairs        {} from {} sources ({} with {MANY_TARGETS} targets or more, answered \
         one-to-many; read in {:.1} ms)",
        pairs.len(),
        sources.len(),
        sources.values().filter(|&&c| c >= MANY_TARGETS).count(),
        start.elapsed().as_secs_f64() * 1e3
    ));
    let gpu = solver
        .gpu()
        .filter(|_| !args.paths)
        .filter(|_| args.device == DeviceChoice::Gpu || pairs.len() >= GPU_PAIRS_FROM);
    let mut on_gpu = match gpu {
        Some(gpu) => {
            let start = Instant::now();
            let on_gpu = GpuPairs::new(gpu, hierarchy)?;
            let (table, heap) = on_gpu.scratch_shape();
            out.line(format_args!(
                "device       {}: one thread a pair, tables of {table} vertices, heaps of \
                 {heap} (upload and sizing {:.1} ms)",
                gpu.name()?,
                start.elapsed().as_secs_f64() * 1e3
            ));
            Some(on_gpu)
        }
        None => None,
    };
    let mut times = Vec::with_capacity(args.runs as usize);
    let mut answer = PairPaths::default();
    for _ in 0..args.runs {
        let start = Instant::now();
        answer = match (&mut on_gpu, args.paths) {
            (_, true) => pair_paths(hierarchy, &pairs)?,
            (Some(on_gpu), false) => PairPaths {
                dist: on_gpu.distances(&pairs)?,
                ..PairPaths::default()
            },
            (None, false) => PairPaths {
                dist: pair_distances(hierarchy, &pairs)?,
                ..PairPaths::default()
            },
        };
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    let ms = sssp::solver::median(&times);
    let kind = graph.weight_kind();
    let summary = distances::summarize(&answer.dist);
    let place = match &on_gpu {
        Some(on_gpu) => format!(
            "the GPU ({} pairs of the {} runs answered on the CPU: their searches outgrew a \
             thread's table)",
            on_gpu.overflowed(),
            times.len()
        ),
        None => format!("{} threads, CPU", rayon::current_num_threads()),
    };
    out.line(format_args!(
        "distances    in {ms:.3} ms (median of {}): {:.0} pairs/s on {place}{}",
        times.len(),
        pairs.len() as f64 / (ms.max(1e-6) / 1e3),
        if args.paths { ", paths unpacked" } else { "" }
    ));
    out.line(format_args!(
        "reached      {} of {} pairs",
        summary.reached,
        pairs.len()
    ));
    out.line(format_args!(
        "max distance {}",
        distances::display(kind, summary.max_distance)
    ));
    out.line(format_args!("checksum     {:016x}", summary.checksum));
    if args.paths {
        out.line(format_args!(
            "paths        {} vertices in all",
            answer.vertices.len()
        ));
    }
    let failure = if args.verify {
        verify(graph, hierarchy, &pairs, &answer.dist, out)?
    } else {
        None
    };
    if let Some(path) = &args.output {
        write(args, path, &pairs, &answer, kind, loaded.numbering())?;
        out.line(format_args!("output       {}", path.display()));
    }
    Ok(failure)
}

/// Refuses the flags of trees and tables.
fn refuse_tree_flags(args: &SolveArgs) -> Result<()> {
    let sources = [
        (args.source.is_some(), "--source"),
        (args.sources.is_some(), "--sources"),
        (args.sources_file.is_some(), "--sources-file"),
        (args.batch.is_some(), "--batch"),
    ];
    for (given, flag) in sources.into_iter().chain(index_rows::tree_only_flags(args)) {
        if given {
            return Err(Error::InvalidArgument(format!(
                "{flag} does not apply with --pairs (the file gives the sources and targets)"
            )));
        }
    }
    if args.paths && args.output_format.0 == OutputFormat::Bin && args.output.is_some() {
        return Err(Error::InvalidArgument(
            "--paths writes text: --output-format bin holds distances only".into(),
        ));
    }
    Ok(())
}

/// The pairs of a pairs file, with their line numbers: one `source target`
/// pair a line (input numbering); `#` lines and blank lines are skipped.
fn parse_pairs(reader: impl BufRead, path: &Path) -> Result<Vec<(u64, (u64, u64))>> {
    let parse_error = |line: u64, message: String| Error::Parse {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut pairs = Vec::new();
    let mut last_line = 0;
    for line in numbered_lines(reader, path) {
        let (number, line) = line?;
        last_line = number;
        let mut words = line.split_whitespace();
        match (words.next(), words.next(), words.next()) {
            (None, ..) => {}
            (Some(first), ..) if first.starts_with('#') => {}
            (Some(s), Some(t), None) => {
                let id = |word: &str| {
                    word.parse::<u64>()
                        .map_err(|_| parse_error(number, format!("`{word}` is not a vertex id")))
                };
                pairs.push((number, (id(s)?, id(t)?)));
            }
            _ => {
                return Err(parse_error(
                    number,
                    format!("expected one `source target` pair a line, found `{line}`"),
                ));
            }
        }
    }
    if pairs.is_empty() {
        return Err(parse_error(last_line + 1, "the file lists no pair".into()));
    }
    Ok(pairs)
}

/// The pairs of each source.
fn count_sources(pairs: &[(usize, usize)]) -> HashMap<usize, usize> {
    let mut counts = HashMap::new();
    for &(s, _) in pairs {
        *counts.entry(s).or_insert(0) += 1;
    }
    counts
}

/// `--verify`: each source's distances against the oracle's tree (within the
/// index's rounding bound for `f32` weights).
fn verify(
    graph: &Graph,
    hierarchy: &Hierarchy,
    pairs: &[(usize, usize)],
    dist: &[u32],
    out: &Human,
) -> Result<Option<Error>> {
    let start = Instant::now();
    let mut by_source: HashMap<usize, (Vec<usize>, Vec<u32>)> = HashMap::new();
    for (&(s, t), &d) in pairs.iter().zip(dist) {
        let (targets, words) = by_source.entry(s).or_default();
        targets.push(t);
        words.push(d);
    }
    let levels = hierarchy.num_levels();
    for (s, (targets, words)) in by_source {
        let result = match graph.weight_kind() {
            WeightKind::F32 => oracle::check_f32_index(graph, s, Some(&targets), &words, levels),
            WeightKind::U32 => {
                let tree = oracle::dijkstra(graph, s)?;
                let wrong = targets.iter().zip(&words).find(|&(&t, &d)| tree[t] != d);
                match wrong {
                    None => Ok(()),
                    Some((&t, &d)) => Err(Error::Mismatch {
                        vertex: t,
                        expected: distances::display(WeightKind::U32, tree[t]),
                        found: distances::display(WeightKind::U32, d),
                        count: 1,
                        num_vertices: targets.len(),
                    }),
                }
            }
        };
        if let Err(e) = result {
            out.line(format_args!(
                "verification FAILED: a pair of source {s}: {e}"
            ));
            return Ok(Some(e));
        }
    }
    out.line(format_args!(
        "verified: all {} pair distances {} ({:.1} ms)",
        pairs.len(),
        match graph.weight_kind() {
            WeightKind::F32 => "within the index's f32 rounding bound of the f64 oracle",
            WeightKind::U32 => "equal the oracle's",
        },
        start.elapsed().as_secs_f64() * 1e3
    ));
    Ok(None)
}

/// `--output`: `source target distance [path…]` lines in the input's
/// numbering, or (bin) one raw distance word a pair.
fn write(
    args: &SolveArgs,
    path: &Path,
    pairs: &[(usize, usize)],
    answer: &PairPaths,
    kind: WeightKind,
    numbering: InputNumbering,
) -> Result<()> {
    let format = args.output_format.0;
    if format == OutputFormat::Bin {
        return write_distances(path, Rows::Single(&answer.dist), kind, numbering, format);
    }
    write_atomically(path, |out| {
        for (i, (&(s, t), &d)) in pairs.iter().zip(&answer.dist).enumerate() {
            write!(
                out,
                "{} {} {}",
                numbering.external(s),
                numbering.external(t),
                distances::display(kind, d)
            )?;
            if args.paths {
                for &v in &answer.vertices[answer.offsets[i]..answer.offsets[i + 1]] {
                    write!(out, " {}", numbering.external(v))?;
                }
            }
            writeln!(out)?;
        }
        Ok(())
    })
}
