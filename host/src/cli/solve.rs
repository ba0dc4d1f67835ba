//! `host --graph FILE`: load, solve with each requested algorithm, summarize,
//! verify, write. With `--index` the trees come from the index instead
//! (`index`).

use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;

use sssp::algorithms::{Algorithm, Layout, Processor};
use sssp::auto::plan::Solves;
use sssp::distances::{self, Summary};
use sssp::options::Tuning;
use sssp::options::{Device, Timing};
use sssp::solver::{Prepared, SourceSolution, Timer};
use sssp::{Error, Graph, Result, Solver};

use super::check::{RowCheck, SolvedRow, Verifier, check_row, is_success};
use super::device::{DeviceChoice, Opening, cpu_one_off, open_in_background};
use super::index;
use super::input::{self, Query};
use super::output::{
    json_source, print_json, print_path, print_summary, source_figures, tree_path, write_outputs,
};
use super::report::{Human, JsonAbout, JsonAlgorithm, JsonPath, JsonTimes, TableRow, print_table};
use super::solve_args::SolveArgs;
use super::streamed;

/// Solves as `args` say. Errors name vertices in the input's numbering.
pub fn run(args: &SolveArgs) -> Result<()> {
    let mut base = 0;
    match solve(args, &mut base) {
        Ok(None) => Ok(()),
        Ok(Some(failed_check)) => Err(failed_check),
        Err(e) => Err(e.renumbered(base)),
    }
}

/// [`run`], setting `base` to the input's first vertex id once it is known;
/// `Ok(Some(..))` is the first failed `--verify` or `--certify` check, its
/// vertices already in the input's numbering.
fn solve(args: &SolveArgs, base: &mut u32) -> Result<Option<Error>> {
    let path = args
        .graph
        .as_deref()
        .ok_or_else(|| Error::InvalidArgument("--graph is required".into()))?;
    check_combinations(args)?;
    let algorithms = requested_algorithms(args)?;
    let out = Human { quiet: args.json };
    let wants_gpu =
        args.index.is_some() || algorithms.iter().any(|a| a.spec().device == Processor::Gpu);
    let instead = match args.index {
        Some(_) => "the trees run on the CPU".to_string(),
        None => format!("solving on the CPU with {} instead", fallback_name()),
    };
    // A one-off solve of a small file runs on the CPU: the device is not
    // even opened (its start would compete with the solve for a core).
    let small = small_one_off(args, &algorithms, path);
    let opening = small
        .is_none()
        .then(|| open_in_background(args.device, args.gpu, wants_gpu, instead.clone()));
    let load_start = Instant::now();
    let loaded = input::load(args, path)?;
    let graph = input::transformed(loaded.graph()?, args)?;
    let load_ms = load_start.elapsed().as_secs_f64() * 1e3;
    if args.certify {
        // What the certificate cannot judge depends on the graph alone: refuse
        // before solving, not as a failed check afterwards.
        distances::check_certifiable(&graph)?;
    }
    let tuning = input::tuning(args, graph.weight_kind())?;
    *base = loaded.numbering().base;
    let query = Query::parse(args, &loaded, &graph)?;
    let json_input = input::describe(args, path, (&loaded, &graph, load_ms), &query, &out);
    let elements = graph.num_vertices() + graph.num_edges();
    let opening = match (opening, &small) {
        (Some(opening), _) => opening,
        // The file held more than its size promised (declared vertices):
        // the device after all.
        (None, _) if cpu_one_off(elements, 1).is_none() => {
            open_in_background(args.device, args.gpu, wants_gpu, instead)
        }
        (None, _) => Opening::cpu(small.clone().unwrap_or_default()),
    };
    if let Some(index) = &args.index {
        let solver = kept_to_exit(opening.wait()?);
        return index::solve(
            args,
            (&loaded, &graph),
            (index, &solver),
            (&query, json_input),
            &out,
        );
    }
    let solver = kept_to_exit(
        match one_off_on_cpu(args, &algorithms, (&graph, &query), &opening) {
            Some(reason) => {
                out.line(format_args!("device       the CPU: {reason}"));
                Solver::new(Device::Cpu)?
            }
            None => opening.wait()?,
        },
    );
    let device_name = solver.gpu().map(|gpu| gpu.name()).transpose()?;
    if let Some(name) = &device_name {
        out.line(format_args!("device       {name}"));
    }
    let timing = Timing {
        warmup: args
            .warmup
            .unwrap_or(if solver.gpu().is_some() { 1 } else { 0 }),
        runs: args.runs,
    };
    let mut pipeline = Pipeline {
        args,
        graph: &graph,
        query: &query,
        out: &out,
        timing,
        verifier: Verifier::new(
            args.verify,
            &graph,
            &query.sources,
            query.stop,
            query.numbering.base,
        ),
        first_failure: None,
        json_path: None,
    };
    let mut table = Vec::new();
    let mut json_rows = Vec::new();
    for &requested in &algorithms {
        let (row, json) = pipeline.algorithm(&solver, requested, tuning)?;
        table.push(row);
        json_rows.push(json);
    }
    if table.len() > 1 {
        print_table(&out, &table);
    }
    if args.json {
        print_json(
            args,
            json_input,
            solver.gpu(),
            json_rows,
            pipeline.json_path,
        )?;
    }
    Ok(pipeline.first_failure)
}

/// Refuses options that do not go together: outputs of one algorithm with
/// several, a path with several sources.
fn check_combinations(args: &SolveArgs) -> Result<()> {
    for (given, flag) in [
        (args.output.is_some(), "--output"),
        (args.parents.is_some(), "--parents"),
        (args.path_to.is_some(), "--path-to"),
        (args.target.is_some(), "--target"),
    ] {
        if given && args.algo.len() > 1 {
            return Err(Error::InvalidArgument(format!(
                "{flag} takes a single --algo"
            )));
        }
    }
    let many_sources = args.sources.is_some() || args.sources_file.is_some();
    if many_sources && args.path_to.is_some() {
        return Err(Error::InvalidArgument(
            "--path-to takes a single source (--source), not --sources".into(),
        ));
    }
    Ok(())
}

/// The solves of one graph and query with each requested algorithm, and
/// what they share: the oracle's distances, the first failed check, the path.
struct Pipeline<'a> {
    args: &'a SolveArgs,
    graph: &'a Graph<'a>,
    query: &'a Query,
    out: &'a Human,
    timing: Timing,
    verifier: Verifier<'a>,
    first_failure: Option<Error>,
    json_path: Option<JsonPath>,
}

impl Pipeline<'_> {
    /// Prepares `requested` and solves from every source: its row of the
    /// comparison table and its entry of the `--json` summary.
    fn algorithm(
        &mut self,
        solver: &Solver,
        requested: Algorithm,
        tuning: Tuning,
    ) -> Result<(TableRow, JsonAlgorithm)> {
        let (args, query, out) = (self.args, self.query, self.out);
        // Prepared as requested, so that `auto` can still change its mind
        // (its plan for this many solves).
        // Warm-ups are for timing: the plan is for the solves asked for.
        let solves = query.sources.len() * self.timing.runs as usize;
        let mut prepared = solver.prepare_for(
            self.graph,
            requested,
            tuning,
            (query.sources[0], Solves::Count(solves)),
        )?;
        let algo = prepared.algorithm();
        describe_prepared(&prepared, tuning, out);
        if streamed::streams(args, query, &prepared, self.timing) {
            return streamed::solve((args, query, out), &mut prepared, requested, self.timing);
        }
        let on_gpu = prepared.device() == Processor::Gpu;
        let streams = args.streams.map(|k| k as usize);
        let batch =
            prepared.solve_many(&query.sources, (query.stop, false, self.timing), streams)?;
        if query.many_sources {
            out.line(format_args!(
                "solves       {} sources in {:.3} ms on {} stream{} (host clock, warm-ups and \
                 copies included; {:.1} ms of it preparing the streams' solvers)",
                query.sources.len(),
                batch.wall_ms,
                batch.streams,
                if batch.streams == 1 { "" } else { "s" },
                batch.streams_prepare_ms
            ));
        }
        let mut rows = Vec::with_capacity(query.sources.len());
        let mut json_sources = Vec::new();
        let mut verdicts = Vec::new();
        // The summaries (a checksum is a serial pass over the row) on all
        // cores at once.
        let summaries: Vec<Summary> = batch
            .rows
            .par_iter()
            .map(|row| distances::summarize(&row.dist))
            .collect();
        let solved = batch
            .rows
            .into_iter()
            .zip(summaries)
            .zip(query.sources.iter().zip(&query.source_ids));
        for ((row, summary), (&source, &source_id)) in solved {
            let (row, check) = self.row(&prepared, (row, summary), (source, source_id), on_gpu)?;
            json_sources.push(json_source(source_id, &row.row, &summary, &check));
            if let Some(failure) = check.failure {
                self.first_failure.get_or_insert(failure);
            }
            verdicts.push(check.verdict);
            rows.push(row);
        }
        if query.many_sources && (args.verify || args.certify) {
            let failed = verdicts.iter().filter(|v| !is_success(v)).count();
            out.line(format_args!(
                "checked      {} of {} sources passed",
                query.sources.len() - failed,
                query.sources.len()
            ));
        }
        let kind = self.graph.weight_kind();
        write_outputs(args, &rows, kind, query.numbering, query.many_sources, out)?;
        let table_row = TableRow {
            algorithm: algo.name(),
            iterations: json_sources[0].iterations,
            times: json_sources[0].solve_ms,
            verdict: verdicts[0].clone(),
        };
        let about = JsonAbout {
            name: algo.name(),
            requested: requested.name(),
            paper: algo.spec().paper,
            device: if on_gpu { "gpu" } else { "cpu" },
            prepare_ms: prepared.prepare_ms(),
            timer: match rows[0].row.timer {
                Timer::CudaEvents => "cuda-events",
                Timer::Host => "host",
            },
        };
        let json = JsonAlgorithm::new(about, json_sources, query.many_sources);
        Ok((table_row, json))
    }

    /// One source's row: its tree where asked for, its summary and path
    /// printed, its checks.
    fn row(
        &mut self,
        prepared: &Prepared,
        (row, summary): (SourceSolution, Summary),
        (source, source_id): (usize, u64),
        on_gpu: bool,
    ) -> Result<(SolvedRow, RowCheck)> {
        let (query, out, kind) = (self.query, self.out, self.graph.weight_kind());
        let wants_tree = self.args.parents.is_some() || query.path_target.is_some();
        let row = SolvedRow {
            tree: if wants_tree {
                Some(timed_tree(prepared, source, &row.dist, out)?)
            } else {
                None
            },
            row,
        };
        if query.many_sources {
            out.line(format_args!(
                "{}, {}",
                source_figures(source_id, kind, &summary),
                solve_note(&row.row, self.timing, on_gpu)
            ));
        } else {
            if let Some(iterations) = row.row.iterations {
                out.line(format_args!("iterations   {iterations}"));
            }
            out.line(format_args!(
                "solve        {}",
                solve_note(&row.row, self.timing, on_gpu)
            ));
            print_summary(out, self.graph.num_vertices(), kind, &summary);
        }
        if let (Some(tree), Some(target)) = (&row.tree, query.path_target) {
            let path = tree_path(tree, &row.row.dist, kind, source, target, query.numbering)?;
            print_path(out, kind, row.row.dist[target], &path, source_id);
            self.json_path = Some(path);
        }
        let check = check_row(self.args, self.graph, &mut self.verifier, &row, out)?;
        Ok((row, check))
    }
}

/// Prints what `auto` chose, the algorithm, its preparation and layout, and
/// notices of options it does not use or distances it may get wrong.
fn describe_prepared(prepared: &Prepared, tuning: Tuning, out: &Human) {
    let algo = prepared.algorithm();
    if let Some(choice) = prepared.auto_choice() {
        out.line("");
        out.line(format_args!(
            "auto         chose {}: {}",
            choice.algorithm, choice.reason
        ));
    }
    if tuning.delta.is_some() && !algo.takes_delta() {
        eprintln!("notice: `{algo}` does not use --delta");
    }
    let spec = algo.spec();
    out.line("");
    out.line(format_args!("algorithm    {algo} ({})", spec.paper));
    if !spec.exact {
        eprintln!(
            "warning: `{algo}` is for measurement only and can give wrong distances; --verify counts them"
        );
    }
    if let Some(prepare_ms) = prepared.prepare_ms() {
        out.line(format_args!(
            "prepare      {prepare_ms:.1} ms (upload, and transpose or precompute where needed)"
        ));
    }
    if let Some(layout) = prepared.layout() {
        out.line(format_args!("layout       {layout}"));
    }
}

/// The algorithms to run: `--algo` (default `auto`), in matrix form with
/// `--layout matrix`; `--delta` checked against them.
/// The solver, never dropped: the process ends soon after, and the driver
/// frees the device with it, where tearing the context down first would add
/// to the wall time of every call.
fn kept_to_exit(solver: Solver) -> std::mem::ManuallyDrop<Solver> {
    std::mem::ManuallyDrop::new(solver)
}

/// The fewest bytes of a graph file per vertex or arc it can describe, so
/// that its size bounds the graph before it is read: a DIMACS `.gr` arc is a
/// line "a u v w" of at least 8 bytes; counting up to one vertex for every
/// three arcs (as road networks and meshes have; a file that declares more
/// makes [`solve`] open the device after the read), 6 bytes per element.
/// Other text lines ("u v w") and a g.csr's target and weight take at least
/// 4 bytes an arc.
fn min_bytes_per_element(path: &Path) -> u64 {
    match path.extension().and_then(|e| e.to_str()) {
        Some("gr") => 6,
        _ => 4,
    }
}

/// Whether `auto` runs alone under `--device auto` (no `--streams`): the
/// calls whose one-off solves may run on the CPU at once.
fn auto_alone(args: &SolveArgs, algorithms: &[Algorithm]) -> bool {
    args.device == DeviceChoice::Auto && algorithms == [Algorithm::Auto] && args.streams.is_none()
}

/// Why a one-off `auto` solve from a file whose size bounds the graph to
/// what the CPU solves before the GPU could have started runs on the CPU,
/// decided before reading it ([`cpu_one_off`]): `None` for compressed files,
/// sources from a file, and anything but `auto` under `--device auto`.
fn small_one_off(args: &SolveArgs, algorithms: &[Algorithm], path: &Path) -> Option<String> {
    let one_off = args.index.is_none() && args.sources_file.is_none();
    let gzip = path.extension().is_some_and(|e| e == "gz");
    if !auto_alone(args, algorithms) || !one_off || gzip {
        return None;
    }
    let bytes = std::fs::metadata(path).ok()?.len();
    let elements = usize::try_from(bytes / min_bytes_per_element(path)).ok()?;
    let solves = args.sources.as_ref().map_or(1, Vec::len) * args.runs as usize;
    cpu_one_off(elements, solves)
}

/// Why a one-off `auto` solve under `--device auto` runs on the CPU's cores
/// at once rather than wait for the GPU ([`super::device::Opening::cpu_is_faster`]).
fn one_off_on_cpu(
    args: &SolveArgs,
    algorithms: &[Algorithm],
    (graph, query): (&Graph, &Query),
    opening: &super::device::Opening,
) -> Option<String> {
    if !auto_alone(args, algorithms) {
        return None;
    }
    let elements = graph.num_vertices() + graph.num_edges();
    opening.cpu_is_faster(elements, query.sources.len() * args.runs as usize)
}

fn requested_algorithms(args: &SolveArgs) -> Result<Vec<Algorithm>> {
    let algorithms: Vec<Algorithm> = match args.layout.0 {
        Layout::List if args.algo.is_empty() => vec![Algorithm::Auto],
        Layout::Matrix if args.algo.is_empty() => vec![Algorithm::MatrixFGpu],
        Layout::List => args.algo.clone(),
        Layout::Matrix => args
            .algo
            .iter()
            .map(|&a| {
                a.on_matrix().ok_or_else(|| {
                    Error::InvalidArgument(format!("`{a}` has no adjacency-matrix form"))
                })
            })
            .collect::<Result<_>>()?,
    };
    if args.delta.is_some() && !algorithms.iter().any(|a| a.takes_delta()) {
        return Err(Error::InvalidArgument(format!(
            "--delta is near-far's band width, and no requested algorithm ({}) takes it: \
             add `--algo near-far` (or `near-far-cpu`, `delta-cpu`, `auto`), or drop --delta",
            algorithms
                .iter()
                .map(|a| a.name())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(algorithms)
}

/// The CPU fallback as the notice names it.
fn fallback_name() -> String {
    match sssp::solver::FALLBACK {
        Algorithm::Dijkstra => "the oracle".to_string(),
        other => format!("`{other}`"),
    }
}

/// How a row was solved, for the `solve` line.
fn solve_note(row: &SourceSolution, timing: Timing, on_gpu: bool) -> String {
    let times = JsonTimes::of(&row.times_ms);
    match (on_gpu, times.runs) {
        (true, 1) => format!(
            "{:.3} ms (GPU, CUDA events, after {} warm-up runs)",
            times.median, timing.warmup
        ),
        (true, runs) => format!(
            "{:.3} ms (GPU, CUDA events; median of {runs} runs after {} warm-up, min {:.3}, max {:.3})",
            times.median, timing.warmup, times.min, times.max
        ),
        (false, 1) => format!("{:.1} ms (CPU, host timer)", times.median),
        (false, runs) => format!(
            "{:.3} ms (CPU, host timer; median of {runs} runs after {} warm-up, min {:.3}, max {:.3})",
            times.median, timing.warmup, times.min, times.max
        ),
    }
}

/// The tree of a solve, timed on the host.
fn timed_tree(prepared: &Prepared, source: usize, dist: &[u32], out: &Human) -> Result<Vec<u32>> {
    let start = Instant::now();
    let tree = prepared.tree(source, dist)?;
    let device = match prepared.device() {
        Processor::Gpu => "GPU",
        Processor::Cpu => "CPU",
    };
    out.line(format_args!(
        "tree         {:.1} ms ({device}, host timer, transpose and copies included)",
        start.elapsed().as_secs_f64() * 1e3
    ));
    Ok(tree)
}
