//! `--index`: the trees of the sources from a contraction-hierarchy index
//! (PHAST), or with `--targets` the table from every source to every target;
//! reported, checked and written as a solve without the index is.

use std::path::Path;
use std::time::Instant;

use gpu_kernels::distance::INFINITY;
use sssp::algorithms::{Layout, Processor};
use sssp::ch::{Hierarchy, TreeSolver};
use sssp::formats::output;
use sssp::formats::{self, LoadedGraph};
use sssp::gpu::context::Gpu;
use sssp::graph::WeightKind;
use sssp::options::Timing;
use sssp::{Error, Graph, Result, Solver, distances, oracle};

use super::check::{RowCheck, SolvedRow, Verifier, check_row, index_verdict, report_check};
use super::index_rows;
use super::input::{Query, vertex_of};
use super::output::{
    json_source, print_json, print_path, print_summary, source_figures, tree_path, write_outputs,
};
use super::pairs;
use super::report::{Human, JsonAlgorithm, JsonDistance, JsonInput, JsonPath};
use super::solve_args::SolveArgs;
use super::spread;

/// Answers `query` from the index file `index` of `graph` (read as `loaded`).
pub fn solve(
    args: &SolveArgs,
    (loaded, graph): (&LoadedGraph, &Graph),
    (index, solver): (&Path, &Solver),
    (query, json_input): (&Query, JsonInput),
    out: &Human,
) -> Result<Option<Error>> {
    let targets = targets(args, loaded, graph)?;
    for (given, flag) in [
        (!args.algo.is_empty(), "--algo"),
        (args.delta.is_some(), "--delta"),
        (args.layout.0 == Layout::Matrix, "--layout matrix"),
    ] {
        if given {
            return Err(Error::InvalidArgument(format!(
                "{flag} does not apply with --index (the trees come from the index)"
            )));
        }
    }
    let start = Instant::now();
    let hierarchy = Hierarchy::load(index)?;
    let read_ms = start.elapsed().as_secs_f64() * 1e3;
    // Every arc against the graph: an edited index is refused, never a
    // wrong distance.
    hierarchy.check_graph(graph, index)?;
    out.line(format_args!(
        "index        {} ({} levels, {} shortcuts; read in {read_ms:.1} ms, checked against \
         the graph in {:.1} ms)",
        index.display(),
        hierarchy.num_levels(),
        hierarchy.num_shortcuts(),
        start.elapsed().as_secs_f64() * 1e3 - read_ms
    ));
    if let Some(file) = &args.pairs {
        return pairs::run(args, (loaded, graph), (&hierarchy, solver), file, out);
    }
    if let Some(gpu) = solver.gpu() {
        out.line(format_args!("device       {}", gpu.name()?));
    }
    if spread::wanted(args) {
        return spread::run(args, query, (&hierarchy, solver), out).map(|()| None);
    }
    // A batch no wider than the sources need, in whole warps.
    let lanes = args.batch.unwrap_or_else(|| {
        (query.sources.len().div_ceil(32) * 32).min(sssp::gpu::phast::DEFAULT_LANES as usize) as u32
    });
    let mut trees = solver.index_trees(&hierarchy, Some(lanes))?;
    out.line("");
    match trees.gpu_shape() {
        Some((lanes, (block_levels, levels))) => out.line(format_args!(
            "algorithm    {} (PHAST on the GPU: batches of {lanes} sources; {block_levels} of \
             {levels} levels swept by one block)",
            trees.algorithm()
        )),
        None => out.line(format_args!(
            "algorithm    {} (PHAST on the CPU, {} sources per thread)",
            trees.algorithm(),
            sssp::ch::phast::CPU_LANES
        )),
    }
    if let Some(ms) = trees.prepare_ms() {
        out.line(format_args!("prepare      {ms:.1} ms (upload)"));
    }
    if graph.weight_kind() == WeightKind::F32 && args.parents.is_some() {
        return Err(Error::InvalidArgument(
            "--parents does not apply to an index of f32 weights: its distances are sums \
             rounded in another order than along the graph's arcs, so no arc is tight; \
             solve without --index for trees (--path-to gives the index's own path)"
                .into(),
        ));
    }
    let indexed = Indexed {
        args,
        graph,
        query,
        out,
    };
    match &targets {
        Some(targets) => indexed.table(&mut trees, targets),
        None => indexed.trees(&mut trees, json_input, solver.gpu()),
    }
}

/// `--targets` or `--targets-file` as vertices of the graph.
fn targets(args: &SolveArgs, loaded: &LoadedGraph, graph: &Graph) -> Result<Option<Vec<usize>>> {
    let target_ids = match (&args.targets, &args.targets_file) {
        (Some(list), _) => Some(list.clone()),
        (None, Some(file)) => Some(formats::sources::read_sources(file)?),
        (None, None) => None,
    };
    target_ids
        .as_ref()
        .map(|ids| {
            ids.iter()
                .map(|&id| vertex_of(loaded, graph, "--targets", id))
                .collect::<Result<Vec<_>>>()
        })
        .transpose()
}

/// A query answered from the index.
struct Indexed<'a> {
    args: &'a SolveArgs,
    graph: &'a Graph<'a>,
    query: &'a Query,
    out: &'a Human,
}

impl Indexed<'_> {
    /// The trees of the sources, reported, checked and written.
    fn trees(
        &self,
        trees: &mut TreeSolver,
        json_input: JsonInput,
        gpu: Option<&Gpu>,
    ) -> Result<Option<Error>> {
        let (args, graph, query, out) = (self.args, self.graph, self.query, self.out);
        if args.within.is_some() {
            index_rows::within(args, query, trees, out)?;
            return Ok(None);
        }
        if args.nearest {
            index_rows::nearest(args, query, trees, out)?;
            return Ok(None);
        }
        if index_rows::streams(args, query) {
            let algorithm = index_rows::stream(args, query, trees, out)?;
            if args.json {
                print_json(args, json_input, gpu, vec![algorithm], None)?;
            }
            return Ok(None);
        }
        let on_gpu = trees.device() == Processor::Gpu;
        let timing = Timing {
            warmup: args.warmup.unwrap_or(if on_gpu { 1 } else { 0 }),
            runs: args.runs,
        };
        // Whole trees: with f32 weights `--verify` checks them before the stop
        // cuts them.
        let (rows, times) = trees.solve(&query.sources, timing)?;
        let per_tree = times.total_ms / times.trees.max(1) as f64;
        let how = if on_gpu {
            format!(
                "host timer, copies included; upward searches {:.3} ms, GPU sweeps {:.3} ms by \
                 CUDA events",
                times.search_ms, times.sweep_ms
            )
        } else {
            "host timer".to_string()
        };
        out.line(format_args!(
            "trees        {} in {:.3} ms: {per_tree:.4} ms per tree ({how})",
            times.trees, times.total_ms
        ));
        let mut verifier = Verifier::new(
            args.verify,
            graph,
            &query.sources,
            query.stop,
            query.numbering.base,
        );
        let mut solved = Vec::with_capacity(rows.len());
        let mut first_failure = None;
        let (mut json_sources, mut json_path) = (Vec::new(), None);
        for (row, &source_id) in rows.into_iter().zip(&query.source_ids) {
            let (row, check, path) = self.tree(trees.hierarchy(), row, source_id, &mut verifier)?;
            let summary = distances::summarize(&row.row.dist);
            json_sources.push(json_source(source_id, &row.row, &summary, &check));
            json_path = path.or(json_path);
            if let Some(failure) = check.failure {
                first_failure.get_or_insert(failure);
            }
            solved.push(row);
        }
        let kind = graph.weight_kind();
        write_outputs(
            args,
            &solved,
            kind,
            query.numbering,
            query.many_sources,
            out,
        )?;
        if args.json {
            let about = index_rows::tree_about(trees);
            let algorithm = JsonAlgorithm::new(about, json_sources, query.many_sources);
            print_json(args, json_input, gpu, vec![algorithm], json_path)?;
        }
        Ok(first_failure)
    }

    /// One source's tree from the index: bounded by the stop, its summary
    /// and path printed, checked; the path for `--json`.
    fn tree(
        &self,
        hierarchy: &Hierarchy,
        mut row: sssp::solver::SourceSolution,
        source_id: u64,
        verifier: &mut Verifier,
    ) -> Result<(SolvedRow, RowCheck, Option<JsonPath>)> {
        let (args, graph, query, out) = (self.args, self.graph, self.query, self.out);
        let kind = graph.weight_kind();
        let index_check = (args.verify && kind == WeightKind::F32).then(|| {
            oracle::check_f32_index(graph, row.source, None, &row.dist, hierarchy.num_levels())
        });
        query.stop.apply(&mut row.dist);
        // With f32 weights no arc is tight: `--path-to` takes the index's own
        // path instead of a tree's.
        let wants_tree =
            args.parents.is_some() || (query.path_target.is_some() && kind == WeightKind::U32);
        let tree = if wants_tree {
            Some(sssp::cpu::parents::shortest_path_tree(
                graph, row.source, &row.dist,
            )?)
        } else {
            None
        };
        let summary = distances::summarize(&row.dist);
        if query.many_sources {
            out.line(format_args!(
                "{}",
                source_figures(source_id, kind, &summary)
            ));
        } else {
            print_summary(out, graph.num_vertices(), kind, &summary);
        }
        let (mut path, mut path_check) = (None, None);
        match (&tree, query.path_target) {
            (Some(tree), Some(target)) => {
                let found = tree_path(tree, &row.dist, kind, row.source, target, query.numbering)?;
                print_path(out, kind, row.dist[target], &found, source_id);
                path = Some(found);
            }
            (None, Some(target)) => {
                let (found, check) = self.index_path(hierarchy, row.source, target, source_id)?;
                (path, path_check) = (Some(found), check);
            }
            _ => {}
        }
        let row = SolvedRow { row, tree };
        let mut check = match index_check {
            Some(result) => {
                let verdict = index_verdict(row.row.dist.len());
                RowCheck::of(report_check(result, &verdict, query.numbering, out)?)
            }
            None => check_row(args, graph, verifier, &row, out)?,
        };
        if let Some(result) = path_check {
            let verdict = "the path's arcs are the graph's, its length within the index's f32 \
                           rounding bound of the distance and the f64 oracle's";
            let failure = report_check(result, verdict, query.numbering, out)?;
            check.tree_verified = Some(failure.is_none());
            check.failure = check.failure.or(failure);
        }
        Ok((row, check, path))
    }

    /// The index's own path from `source` to `target` (f32 weights, where
    /// no tree is tight), printed; with `--verify` its check.
    fn index_path(
        &self,
        hierarchy: &Hierarchy,
        source: usize,
        target: usize,
        source_id: u64,
    ) -> Result<(JsonPath, Option<Result<()>>)> {
        let (numbering, kind) = (self.query.numbering, self.graph.weight_kind());
        let found = sssp::ch::query::point_to_point(hierarchy, source, target)?;
        let dist = found.as_ref().map_or(INFINITY, |(d, _)| *d);
        let mut check = None;
        if let (true, Some((d, path))) = (self.args.verify, &found) {
            let levels = hierarchy.num_levels();
            check = Some(oracle::check_f32_index_path(
                self.graph,
                (source, target),
                path,
                *d,
                levels,
            ));
        }
        let path = JsonPath {
            target: numbering.external(target),
            reachable: found.is_some(),
            distance: found.as_ref().map(|(d, _)| JsonDistance::new(kind, *d)),
            vertices: found
                .map(|(_, path)| path)
                .unwrap_or_default()
                .into_iter()
                .map(|v| numbering.external(v))
                .collect(),
        };
        print_path(self.out, kind, dist, &path, source_id);
        Ok((path, check))
    }

    /// `--targets`: the table from every source to every target, timed,
    /// checked against the oracle with `--verify`, and written.
    fn table(&self, trees: &mut TreeSolver, targets: &[usize]) -> Result<Option<Error>> {
        let (args, query, out) = (self.args, self.query, self.out);
        for (given, flag) in index_rows::tree_only_flags(args) {
            if given {
                return Err(Error::InvalidArgument(format!(
                    "{flag} applies to trees, not to a table (--targets)"
                )));
            }
        }
        if args.warmup.unwrap_or(1) > 0 {
            trees.table(&query.sources, targets)?;
        }
        let mut times = Vec::with_capacity(args.runs as usize);
        let mut table = Vec::new();
        for _ in 0..args.runs {
            let (result, ms) = trees.table(&query.sources, targets)?;
            times.push(ms);
            table = result;
        }
        let how = match trees.device() {
            Processor::Gpu => "GPU: PHAST batches, target columns gathered there",
            Processor::Cpu => "CPU: the bucket method",
        };
        out.line(format_args!(
            "table        {} × {} in {:.3} ms (median of {}; {how}; host timer, copies included)",
            query.sources.len(),
            targets.len(),
            sssp::solver::median(&times),
            times.len()
        ));
        let failure = if args.verify {
            self.check_table(trees.hierarchy(), targets, &table)?
        } else {
            None
        };
        if let Some(file) = &args.output {
            output::write_table(
                file,
                (&query.sources, targets),
                &table,
                self.graph.weight_kind(),
                query.numbering,
                args.output_format.into(),
            )?;
            out.line(format_args!("output       {}", file.display()));
        }
        Ok(failure)
    }

    /// `--verify` of a table (rows of the sources, columns of `targets`):
    /// within the index's rounding bound for f32 weights, else equal to the
    /// oracle's distances.
    fn check_table(
        &self,
        hierarchy: &Hierarchy,
        targets: &[usize],
        table: &[u32],
    ) -> Result<Option<Error>> {
        let (graph, query, out) = (self.graph, self.query, self.out);
        let kind = graph.weight_kind();
        let width = targets.len().max(1);
        if kind == WeightKind::F32 {
            let levels = hierarchy.num_levels();
            let mut result = Ok(());
            for (row, &source) in table.chunks(width).zip(&query.sources) {
                result = oracle::check_f32_index(graph, source, Some(targets), row, levels);
                if result.is_err() {
                    break;
                }
            }
            return report_check(result, &index_verdict(table.len()), query.numbering, out);
        }
        let start = Instant::now();
        let mut differing = 0;
        let mut first = None;
        for (row, &source) in table.chunks(width).zip(&query.sources) {
            let expected = oracle::dijkstra(graph, source)?;
            for (&t, &d) in targets.iter().zip(row) {
                if expected[t] != d {
                    differing += 1;
                    first.get_or_insert((t, expected[t], d));
                }
            }
        }
        let Some((t, expected, found)) = first else {
            out.line(format_args!(
                "verified: all {} table entries equal the oracle's ({:.1} ms)",
                table.len(),
                start.elapsed().as_secs_f64() * 1e3
            ));
            return Ok(None);
        };
        out.line(format_args!(
            "verification FAILED: {differing} of {} table entries differ",
            table.len()
        ));
        Ok(Some(
            Error::Mismatch {
                vertex: t,
                expected: distances::display(kind, expected),
                found: distances::display(kind, found),
                count: differing,
                num_vertices: table.len(),
            }
            .renumbered(query.numbering.base),
        ))
    }
}
