//! The library's front door: a [`Solver`] bound to a device, [`Query`]s from
//! one or many sources with optional bounds ([`Stop`]), and their
//! [`Solution`]s.
//!
//! ```
//! use sssp::{Device, Query, Solver};
//!
//! let graph = sssp::formats::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../graphs/rome99.gr"), None)?
//!     .into_graph()?;
//! let solver = Solver::new(Device::Auto)?; // the GPU if there is one, else the CPU
//! let solution = solver.solve(&graph, &Query::from_sources([0, 41]))?;
//! println!("vertex 9 is {:?} from vertex 0", solution.rows[0].distance(9));
//! # assert_eq!(solution.rows[0].dist, sssp::oracle::dijkstra(&graph, 0)?);
//! # Ok::<(), sssp::Error>(())
//! ```
//!
//! The GPU state is reused: the [`Solver`] holds the CUDA context and the
//! loaded kernels for its whole life, and a [`Prepared`] solver keeps the
//! graph on the device for any number of solves (every buffer is freed when it
//! is dropped).

use std::time::Instant;

use crate::algorithms::{Algorithm, Family, Processor};
use crate::auto::choice::{self, Choice};
use crate::auto::plan::{Solves, plan};
use crate::auto::trial::fastest_candidate;
use crate::ch::index::Hierarchy;
use crate::ch::trees::TreeSolver;
use crate::gpu::certificate::{Certificate, Certifier, certify_solve};
use crate::gpu::context::Gpu;
use crate::gpu::solver::{GpuSolver, ThreadCount};
use crate::graph::Graph;
use crate::options::{Device, RowSink, Stop, Timing, Tuning};
pub use crate::solution::{Solution, SourceSolution, Timer, median};
use crate::{Error, Result, cpu, distances, memory};

/// The CPU algorithm that stands in for a GPU algorithm where there is no
/// GPU: parallel Δ-stepping on every core.
pub const FALLBACK: Algorithm = Algorithm::DeltaCpu;

/// What to solve: sources, algorithm and options.
#[derive(Clone, Debug, PartialEq)]
pub struct Query {
    /// The sources (graph vertices, 0-based); one distance row each, in this order.
    pub sources: Vec<usize>,
    /// The algorithm; [`Algorithm::Auto`] by default.
    pub algorithm: Algorithm,
    /// Parameters (near-far's Δ).
    pub tuning: Tuning,
    /// Early stop and reporting bound.
    pub stop: Stop,
    /// Also compute each source's shortest-path tree.
    pub parents: bool,
    /// Warm-up and timed solves per source.
    pub timing: Timing,
    /// GPU streams that solve the sources at the same time (1: one after
    /// another); `None`: [`Prepared::auto_streams`]. See
    /// [`Prepared::solve_many`].
    pub streams: Option<usize>,
}

impl Query {
    /// A query from these sources with the default algorithm and options.
    pub fn from_sources(sources: impl IntoIterator<Item = usize>) -> Query {
        Query {
            sources: sources.into_iter().collect(),
            algorithm: Algorithm::Auto,
            tuning: Tuning::default(),
            stop: Stop::default(),
            parents: false,
            timing: Timing::default(),
            streams: None,
        }
    }

    /// This query with another algorithm.
    pub fn algorithm(mut self, algorithm: Algorithm) -> Query {
        self.algorithm = algorithm;
        self
    }

    /// This query with a distance limit (a weight word, see [`Stop::limit`]).
    pub fn limit(mut self, limit: u32) -> Query {
        self.stop.limit = Some(limit);
        self
    }

    /// This query stopped at a target vertex (see [`Stop::target`]).
    pub fn target(mut self, target: usize) -> Query {
        self.stop.target = Some(target);
        self
    }

    /// This query with shortest-path trees.
    pub fn with_parents(mut self) -> Query {
        self.parents = true;
        self
    }

    /// This query solved on `streams` GPU streams at the same time.
    pub fn streams(mut self, streams: usize) -> Query {
        self.streams = Some(streams);
        self
    }
}

/// Runs queries on one device. Cheap to keep: the CUDA context and the kernels
/// are loaded once, in [`Solver::new`].
pub struct Solver {
    gpu: Option<Gpu>,
    no_gpu: Option<String>,
}

impl Solver {
    /// A solver on `device`. With [`Device::Auto`], a machine without a usable
    /// GPU gives a CPU solver ([`Solver::no_gpu_reason`] says why); with
    /// [`Device::Gpu`] that is [`Error::NoGpu`].
    pub fn new(device: Device) -> Result<Solver> {
        let (gpu, no_gpu) = match device {
            Device::Cpu => (None, Some("the CPU was asked for".to_string())),
            Device::Gpu(ordinal) => (Some(Gpu::new(ordinal)?), None),
            Device::Auto => match Gpu::new(0) {
                Ok(gpu) => (Some(gpu), None),
                Err(Error::NoGpu(reason)) => (None, Some(reason)),
                Err(e) => return Err(e),
            },
        };
        Ok(Solver { gpu, no_gpu })
    }

    /// The GPU, if the solver has one.
    pub fn gpu(&self) -> Option<&Gpu> {
        self.gpu.as_ref()
    }

    /// Why the solver has no GPU (`None` when it has one).
    pub fn no_gpu_reason(&self) -> Option<&str> {
        self.no_gpu.as_deref()
    }

    /// The algorithm that runs for `requested` on this solver from `source`:
    /// `auto` resolved by its probe (with its choice; on a low-diameter graph
    /// [`Solver::prepare`] then keeps the fastest of a trial), a GPU
    /// algorithm replaced by [`FALLBACK`] without a GPU.
    pub fn resolve(
        &self,
        graph: &Graph,
        requested: Algorithm,
        source: usize,
    ) -> (Algorithm, Option<Choice>) {
        match (requested, &self.gpu, requested.spec().device) {
            (_, None, Processor::Gpu) => (FALLBACK, None),
            (Algorithm::Auto, Some(_), _) => {
                let choice = choice::choose(graph, source);
                (choice.algorithm, Some(choice))
            }
            _ => (requested, None),
        }
    }

    /// Prepares `algorithm` (resolved with [`Solver::resolve`] from
    /// `first_source`) for `graph`: on the GPU, uploads the graph and
    /// allocates the solver's state once for every later solve.
    pub fn prepare<'a>(
        &'a self,
        graph: &'a Graph<'a>,
        algorithm: Algorithm,
        tuning: Tuning,
        first_source: usize,
    ) -> Result<Prepared<'a>> {
        self.prepare_for(graph, algorithm, tuning, (first_source, Solves::Kept))
    }

    /// [`Solver::prepare`] for `solves` solves, the first from
    /// `first_source`: `auto` then plans for that many
    /// ([`crate::auto::plan`]; for one solve, no trial), which a solver kept
    /// for any number of solves ([`Solves::Kept`]) does not.
    pub fn prepare_for<'a>(
        &'a self,
        graph: &'a Graph<'a>,
        algorithm: Algorithm,
        mut tuning: Tuning,
        (first_source, solves): (usize, Solves),
    ) -> Result<Prepared<'a>> {
        distances::check_source(graph, first_source)?;
        let (mut resolved, mut auto) = self.resolve(graph, algorithm, first_source);
        let (engine, prepare_ms, certificate) = match (&self.gpu, resolved.spec().device) {
            (Some(gpu), Processor::Gpu) => {
                let start = Instant::now();
                let trial = auto.as_ref().map_or(&[][..], |choice| choice.trial);
                let planned = match &auto {
                    Some(choice) => plan(gpu, graph, choice, tuning, (first_source, solves))?,
                    None => None,
                };
                let solver = if let Some(((chosen, solver), words)) = planned {
                    (resolved, tuning) = chosen;
                    if let Some(choice) = auto.as_mut() {
                        choice.algorithm = resolved;
                        choice.reason.push_str(&words);
                    }
                    solver
                } else if !trial.is_empty() {
                    let ((fastest, solver), trials) =
                        fastest_candidate(gpu, graph, trial, tuning, first_source)?;
                    (resolved, tuning) = fastest;
                    if let Some(choice) = auto.as_mut() {
                        choice.algorithm = resolved;
                        choice.reason.push_str(&trials);
                    }
                    solver
                } else {
                    let mut solver = resolved.prepare_gpu_tuned(gpu, graph, tuning)?;
                    solver.calibrate(first_source as u32, &mut tuning)?;
                    solver
                };
                // The partition solver's rows are certified over the
                // predecessor CSR (its own graph is renumbered): made now
                // for a solver kept for many solves, as part of preparing.
                let partition = matches!(resolved.spec().family, Family::Partition(_));
                let certificate =
                    (partition && !tuning.skip_certificate && solves != Solves::Count(1))
                        .then(|| Certificate::new(gpu, graph))
                        .transpose()?;
                gpu.synchronize()?;
                (
                    Engine::Gpu(gpu, solver),
                    Some(start.elapsed().as_secs_f64() * 1e3),
                    certificate,
                )
            }
            _ => (Engine::Cpu, None, None),
        };
        Ok(Prepared {
            graph,
            requested: algorithm,
            algorithm: resolved,
            auto,
            tuning,
            engine,
            prepare_ms,
            certificate,
        })
    }

    /// Trees (and tables) from a contraction-hierarchy index of the graph,
    /// on this solver's GPU in batches of `lanes` sources (default
    /// [`crate::gpu::phast::DEFAULT_LANES`]), or on the CPU without one:
    /// [`Algorithm::Phast`] or [`Algorithm::PhastCpu`].
    pub fn index_trees<'h>(
        &'h self,
        hierarchy: &'h Hierarchy,
        lanes: Option<u32>,
    ) -> Result<TreeSolver<'h>> {
        TreeSolver::new(self.gpu.as_ref(), hierarchy, lanes)
    }

    /// Solves `query` on `graph`: prepares once, then solves from each source.
    pub fn solve(&self, graph: &Graph, query: &Query) -> Result<Solution> {
        let first = *query
            .sources
            .first()
            .ok_or_else(|| Error::InvalidArgument("a query needs at least one source".into()))?;
        // Warm-ups are for timing: the plan is for the solves asked for.
        let solves = query.sources.len() * query.timing.runs as usize;
        let mut prepared = self.prepare_for(
            graph,
            query.algorithm,
            query.tuning,
            (first, Solves::Count(solves)),
        )?;
        let batch = prepared.solve_many(
            &query.sources,
            (query.stop, query.parents, query.timing),
            query.streams,
        )?;
        Ok(prepared.into_solution(batch.rows))
    }
}

/// `timing` for a batch's `i`-th solve on one stream: the warm-ups run
/// before the first only.
fn warmed(timing: Timing, i: usize) -> Timing {
    match i {
        0 => timing,
        _ => Timing {
            warmup: 0,
            ..timing
        },
    }
}

/// Streams of [`Prepared::auto_streams`]. Measured on the H100 (256
/// sources, docs/PERFORMANCE.md): 4 streams solved rome99, soc-Epinions1 and
/// road-BAY-pace 1.16–1.85× faster than one with near-far, `fast` and
/// `fast-crauser`; 16 and 64 streams no faster than 4 (the solves' host round
/// trips contend); `partition` gained nothing and pays a partitioning per
/// stream.
pub const AUTO_STREAMS: usize = 4;

/// Sources from which [`Prepared::auto_streams`] uses several streams: each
/// stream's copy of the solver costs an upload (0.5–10 ms measured), which
/// a few solves would not pay back.
pub const AUTO_STREAMS_MIN_SOURCES: usize = 32;

/// What [`Prepared::solve_many`] returns.
#[derive(Clone, Debug)]
pub struct Batch {
    /// One row per source, in the order asked.
    pub rows: Vec<SourceSolution>,
    /// The streams that solved them.
    pub streams: usize,
    /// With several streams, the time to prepare their copies of the solver
    /// (in parallel; the slowest), ms; 0 with one.
    pub streams_prepare_ms: f64,
    /// The whole batch by the host clock, preparation included, ms.
    pub wall_ms: f64,
}

impl Batch {
    fn new(rows: Vec<SourceSolution>, streams: usize, prepare_ms: f64, start: Instant) -> Self {
        Batch {
            rows,
            streams,
            streams_prepare_ms: prepare_ms,
            wall_ms: start.elapsed().as_secs_f64() * 1e3,
        }
    }
}

/// What runs the solves of a [`Prepared`].
enum Engine<'a> {
    Gpu(&'a Gpu, Box<dyn GpuSolver + 'a>),
    Cpu,
}

/// The times of [`Prepared::solve_rows`]'s batch.
#[derive(Clone, Debug, PartialEq)]
pub struct RowTimes {
    /// The whole batch on the host's clock, ms: checks, solves, copies and
    /// the sink's work.
    pub wall_ms: f64,
    /// Each solve's own time, ms, in the order of the sources, by `timer`.
    pub solve_ms: Vec<f64>,
    /// How `solve_ms` was measured.
    pub timer: Timer,
}

/// An algorithm ready to solve on one graph from any number of sources.
pub struct Prepared<'a> {
    graph: &'a Graph<'a>,
    requested: Algorithm,
    algorithm: Algorithm,
    auto: Option<Choice>,
    tuning: Tuning,
    engine: Engine<'a>,
    prepare_ms: Option<f64>,
    /// The GPU certificate's device state, from the first GPU solve on.
    certificate: Option<Certificate>,
}

impl<'a> Prepared<'a> {
    /// The graph it solves on.
    pub fn graph(&self) -> &'a Graph<'a> {
        self.graph
    }

    /// The algorithm that runs.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// What `auto` chose, if it was asked for.
    pub fn auto_choice(&self) -> Option<&Choice> {
        self.auto.as_ref()
    }

    /// Where the solves run.
    pub fn device(&self) -> Processor {
        match self.engine {
            Engine::Gpu(..) => Processor::Gpu,
            Engine::Cpu => Processor::Cpu,
        }
    }

    /// The preparation time (GPU uploads and allocations), ms.
    pub fn prepare_ms(&self) -> Option<f64> {
        self.prepare_ms
    }

    /// The parameters the solves run with: the caller's, with what `auto`'s
    /// trial and the solver's calibration chose filled in (the partition
    /// solver's shortcuts, pieces, window and edge lanes,
    /// [`crate::gpu::solver::GpuSolver::calibrate`]).
    pub fn tuning(&self) -> Tuning {
        self.tuning
    }

    /// What the GPU solver's preparation made of the graph
    /// ([`GpuSolver::layout`]), if it says.
    pub fn layout(&self) -> Option<String> {
        match &self.engine {
            Engine::Gpu(_, solver) => solver.layout(),
            Engine::Cpu => None,
        }
    }

    /// Solves from `source`, `timing.warmup` untimed and `timing.runs` timed
    /// times, reporting the distances within `stop` and, with `parents`, the
    /// shortest-path tree computed on the same device.
    pub fn solve(
        &mut self,
        source: usize,
        stop: Stop,
        parents: bool,
        timing: Timing,
    ) -> Result<SourceSolution> {
        let graph = self.graph;
        distances::check_source(graph, source)?;
        stop.check(graph.num_vertices())?;
        if timing.runs == 0 {
            return Err(Error::InvalidArgument(
                "at least one timed run is needed".into(),
            ));
        }
        let (mut dist, iterations, times_ms, timer) = match &mut self.engine {
            Engine::Gpu(gpu, solver) => {
                solver.stop_early(stop);
                let timed = solver.time_runs(source as u32, timing.warmup, timing.runs)?;
                let mut dist = solver.distances()?;
                // The push form where the solver allows it; the pull form
                // (a predecessor CSR, the distances uploaded) otherwise.
                let proven = match self.tuning.skip_certificate {
                    true => true,
                    false => solver
                        .certify_in_place(source as u32, stop)
                        .transpose()?
                        .unwrap_or(false),
                };
                let check = (source, stop, proven);
                certify_solve(gpu, graph, &mut self.certificate, check, &mut dist)?;
                (
                    dist,
                    Some(timed.iterations),
                    timed.times_ms,
                    Timer::CudaEvents,
                )
            }
            Engine::Cpu => {
                let mut times_ms = Vec::with_capacity(timing.runs as usize);
                let mut last = None;
                for run in 0..timing.warmup + timing.runs {
                    let start = Instant::now();
                    let solved = if self.algorithm.spec().family == Family::DeltaStepping {
                        // The one CPU solver that stops early at a bound.
                        let result = cpu::delta_stepping::delta_stepping(
                            graph,
                            source,
                            self.tuning.delta,
                            stop,
                        )?;
                        (result.dist, Some(result.rounds))
                    } else {
                        self.algorithm.solve_cpu_tuned(graph, source, self.tuning)?
                    };
                    if run >= timing.warmup {
                        times_ms.push(start.elapsed().as_secs_f64() * 1e3);
                    }
                    last = Some(solved);
                }
                let (dist, iterations) = last.unwrap_or_default();
                (dist, iterations, times_ms, Timer::Host)
            }
        };
        stop.apply(&mut dist);
        let parents = if parents {
            Some(self.tree(source, &dist)?)
        } else {
            None
        };
        Ok(SourceSolution {
            source,
            dist,
            parents,
            iterations,
            times_ms,
            timer,
            weights: graph.weight_kind(),
        })
    }

    /// The streams [`Prepared::solve_many`] uses for `sources` sources when
    /// not told: [`AUTO_STREAMS`] for at least [`AUTO_STREAMS_MIN_SOURCES`]
    /// sources with the device-resident loops (`near-far`, `fast`,
    /// `fast-crauser`), whose copies cost an upload; otherwise one.
    pub fn auto_streams(&self, sources: usize) -> usize {
        let resident = matches!(
            self.algorithm.spec().family,
            Family::NearFar | Family::Compact(_)
        );
        match self.engine {
            Engine::Gpu(..) if resident && sources >= AUTO_STREAMS_MIN_SOURCES => AUTO_STREAMS,
            _ => 1,
        }
    }

    /// Solves from every source as [`Prepared::solve`] does, on `streams`
    /// GPU streams at the same time (`None`: [`Prepared::auto_streams`])
    /// when there are several sources and the solves run on the GPU: each
    /// stream is a lane ([`Gpu::lanes`]) with its own host thread and its
    /// own copy of the solver's state, taking the next source until none is
    /// left. One stream, or the CPU: one source after another on this
    /// solver. Rows come back in the order of `sources`; the first error
    /// ends the batch.
    pub fn solve_many(
        &mut self,
        sources: &[usize],
        (stop, parents, timing): (Stop, bool, Timing),
        streams: Option<usize>,
    ) -> Result<Batch> {
        let start = Instant::now();
        memory::check_rows(
            sources.len(),
            self.graph.num_vertices(),
            4 << usize::from(parents),
        )?;
        let streams = streams
            .unwrap_or_else(|| self.auto_streams(sources.len()))
            .clamp(1, sources.len().max(1));
        let gpu = match &self.engine {
            Engine::Gpu(gpu, _) if streams > 1 => *gpu,
            _ => {
                let rows = sources
                    .iter()
                    .enumerate()
                    .map(|(i, &source)| self.solve(source, stop, parents, warmed(timing, i)))
                    .collect::<Result<Vec<_>>>()?;
                return Ok(Batch::new(rows, 1, 0.0, start));
            }
        };
        for &source in sources {
            distances::check_source(self.graph, source)?;
        }
        let lanes = gpu.lanes(streams)?;
        let next = std::sync::atomic::AtomicUsize::new(0);
        let (graph, algorithm, tuning) = (self.graph, self.algorithm, self.tuning);
        // Each lane's rows (source index, row) and its preparation time.
        let solved = std::thread::scope(|scope| {
            let workers: Vec<_> = lanes
                .iter()
                .map(|lane| {
                    let next = &next;
                    scope.spawn(move || -> Result<(Vec<(usize, SourceSolution)>, f64)> {
                        lane.bind_to_thread()?;
                        let prepare = Instant::now();
                        let solver = algorithm.prepare_gpu_tuned(lane, graph, tuning)?;
                        lane.synchronize()?;
                        let prepare_ms = prepare.elapsed().as_secs_f64() * 1e3;
                        let mut prepared = Prepared {
                            graph,
                            requested: algorithm,
                            algorithm,
                            auto: None,
                            tuning,
                            engine: Engine::Gpu(lane, solver),
                            prepare_ms: Some(prepare_ms),
                            certificate: None,
                        };
                        let mut rows = Vec::new();
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(&source) = sources.get(i) else {
                                return Ok((rows, prepare_ms));
                            };
                            let timing = warmed(timing, rows.len());
                            rows.push((i, prepared.solve(source, stop, parents, timing)?));
                        }
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|worker| {
                    worker.join().unwrap_or_else(|_| {
                        Err(Error::Internal("a GPU stream's thread panicked".into()))
                    })
                })
                .collect::<Result<Vec<_>>>()
        })?;
        let lanes_prepare_ms = solved.iter().map(|(_, ms)| *ms).fold(0.0, f64::max);
        let mut rows: Vec<(usize, SourceSolution)> =
            solved.into_iter().flat_map(|(rows, _)| rows).collect();
        rows.sort_by_key(|(i, _)| *i);
        let rows = rows.into_iter().map(|(_, row)| row).collect();
        Ok(Batch::new(rows, streams, lanes_prepare_ms, start))
    }

    /// Solves from every source within `stop` and hands each row to `sink`
    /// as soon as it is ready, in the order of `sources` ([`RowSink`]):
    /// no row is kept, and on the GPU the next source solves while the sink
    /// takes a row (the partition solver finishes rows on the GPU, so the
    /// host only copies). Returns the batch's times ([`RowTimes`]).
    pub fn solve_rows(
        &mut self,
        sources: &[usize],
        stop: Stop,
        sink: &mut RowSink<'_>,
    ) -> Result<RowTimes> {
        let start = Instant::now();
        for &source in sources {
            distances::check_source(self.graph, source)?;
        }
        stop.check(self.graph.num_vertices())?;
        let solve_ms = if let Engine::Gpu(gpu, solver) = &mut self.engine {
            let sources: Vec<u32> = sources.iter().map(|&s| s as u32).collect();
            let certifier = (!self.tuning.skip_certificate).then_some(Certifier {
                gpu,
                graph: self.graph,
                state: &mut self.certificate,
            });
            let times = solver.stream_rows(&sources, stop, sink, certifier)?;
            times.into_iter().map(f64::from).collect()
        } else {
            let mut times = Vec::with_capacity(sources.len());
            for (i, &source) in sources.iter().enumerate() {
                let row = self.solve(source, stop, false, Timing::default())?;
                times.push(row.median_ms());
                sink(i, &row.dist)?;
            }
            times
        };
        Ok(RowTimes {
            wall_ms: start.elapsed().as_secs_f64() * 1e3,
            solve_ms,
            timer: self.timer(),
        })
    }

    /// How this solver's solves are timed.
    fn timer(&self) -> Timer {
        match self.engine {
            Engine::Gpu(..) => Timer::CudaEvents,
            Engine::Cpu => Timer::Host,
        }
    }

    /// Measuring mode of GPU solvers: one more untimed solve from `source`
    /// counting the `relax` threads that found work (`None` where the solver
    /// does not count, and on the CPU).
    pub fn count_working_threads(&mut self, source: usize) -> Result<Option<ThreadCount>> {
        match &mut self.engine {
            Engine::Gpu(_, solver) => solver.count_working_threads(source as u32),
            Engine::Cpu => Ok(None),
        }
    }

    /// The shortest-path tree from `source` that the distances `dist` give,
    /// computed where the solves run.
    pub fn tree(&self, source: usize, dist: &[u32]) -> Result<Vec<u32>> {
        match &self.engine {
            Engine::Gpu(gpu, _) => {
                crate::gpu::parents::shortest_path_tree(gpu, self.graph, source, dist)
            }
            Engine::Cpu => cpu::parents::shortest_path_tree(self.graph, source, dist),
        }
    }

    /// The [`Solution`] of `rows` solved by this solver.
    pub fn into_solution(self, rows: Vec<SourceSolution>) -> Solution {
        Solution {
            requested: self.requested,
            device: self.device(),
            algorithm: self.algorithm,
            auto: self.auto,
            prepare_ms: self.prepare_ms,
            rows,
        }
    }
}
