//! Trees from an index for many sources, on the GPU in batches
//! ([`crate::gpu::phast`]) or on the CPU ([`super::phast`]): what
//! `--index` runs, with the same rows as a solve without the index.

use std::time::Instant;

use super::index::Hierarchy;
use super::reductions::{Nearest, Values};
use crate::algorithms::{Algorithm, Processor};
use crate::gpu::context::Gpu;
use crate::gpu::phast::{DEFAULT_LANES, GpuPhast};
use crate::options::Timing;
use crate::options::{RowSink, Stop};
use crate::solution::{SourceSolution, Timer};
use crate::{Error, Result};

/// Trees from one hierarchy on the solver's device.
pub struct TreeSolver<'a> {
    hierarchy: &'a Hierarchy,
    gpu: Option<GpuPhast<'a>>,
    prepare_ms: Option<f64>,
    /// The values of [`TreeSolver::within_kept`] on the CPU, by graph vertex
    /// (empty: none).
    cpu_values: Vec<f64>,
}

/// Where the time of [`TreeSolver::solve`] went, summed over its timed runs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TreeTimes {
    /// Trees computed (sources × timed runs).
    pub trees: usize,
    /// All of it, host clock, ms.
    pub total_ms: f64,
    /// The upward searches (GPU path; on the CPU they are part of the trees), ms.
    pub search_ms: f64,
    /// The sweeps on the GPU with their uploads (CUDA events), ms.
    pub sweep_ms: f64,
}

impl<'a> TreeSolver<'a> {
    /// Trees from `hierarchy` on `gpu` in batches of `lanes` sources
    /// (default [`DEFAULT_LANES`]), or on the CPU without one
    /// ([`crate::solver::Solver::index_trees`] is the front door).
    pub fn new(gpu: Option<&'a Gpu>, hierarchy: &'a Hierarchy, lanes: Option<u32>) -> Result<Self> {
        let start = Instant::now();
        let gpu = match gpu {
            Some(gpu) => {
                let phast = GpuPhast::new(gpu, hierarchy, lanes.unwrap_or(DEFAULT_LANES))?;
                gpu.synchronize()?;
                Some(phast)
            }
            None => None,
        };
        Ok(TreeSolver {
            hierarchy,
            prepare_ms: gpu.as_ref().map(|_| start.elapsed().as_secs_f64() * 1e3),
            gpu,
            cpu_values: Vec::new(),
        })
    }

    /// The hierarchy the trees come from.
    pub fn hierarchy(&self) -> &'a Hierarchy {
        self.hierarchy
    }

    /// The algorithm of the trees: [`Algorithm::Phast`] on the GPU,
    /// [`Algorithm::PhastCpu`] on the CPU.
    pub fn algorithm(&self) -> Algorithm {
        match self.device() {
            Processor::Gpu => Algorithm::Phast,
            Processor::Cpu => Algorithm::PhastCpu,
        }
    }

    /// Where the trees run.
    pub fn device(&self) -> Processor {
        if self.gpu.is_some() {
            Processor::Gpu
        } else {
            Processor::Cpu
        }
    }

    /// The GPU's batch size and levels swept by one block, of all levels.
    pub fn gpu_shape(&self) -> Option<(usize, (u32, u32))> {
        self.gpu.as_ref().map(|g| (g.lanes(), g.block_levels()))
    }

    /// Upload time of the GPU state, ms.
    pub fn prepare_ms(&self) -> Option<f64> {
        self.prepare_ms
    }

    /// The `sources.len() × targets.len()` table of distance words between
    /// graph vertices (checked by the caller), row-major, and its wall time
    /// in ms: on the GPU, trees in pipelined batches whose target columns are
    /// gathered there; on the CPU, the bucket method
    /// ([`super::query::table`]).
    /// A distance that overflows is [`crate::Error::DistanceOverflow`]
    /// naming its target.
    pub fn table(&mut self, sources: &[usize], targets: &[usize]) -> Result<(Vec<u32>, f64)> {
        let (table, ms) = match &mut self.gpu {
            Some(gpu) => gpu.table(self.hierarchy, sources, targets)?,
            None => {
                let start = Instant::now();
                let table = super::query::table(self.hierarchy, sources, targets);
                (table, start.elapsed().as_secs_f64() * 1e3)
            }
        };
        let kind = self.hierarchy.weight_kind;
        for row in table.chunks(targets.len().max(1)) {
            if let Err(crate::Error::DistanceOverflow { vertex, count, .. }) =
                crate::distances::check_overflow(kind, row)
            {
                return Err(crate::distances::overflow(kind, targets[vertex], count));
            }
        }
        Ok((table, ms))
    }

    /// On the GPU, the trees of `sources` computed in pipelined batches and
    /// left there (what a consumer of trees on the GPU pays): the wall time,
    /// ms. `None` on the CPU.
    pub fn trees_on_device(&mut self, sources: &[usize]) -> Result<Option<f64>> {
        match &mut self.gpu {
            Some(gpu) => gpu.trees_on_device(self.hierarchy, sources).map(Some),
            None => Ok(None),
        }
    }

    /// The whole trees of `sources` (graph vertices, checked by the
    /// caller), each run `timing.warmup` untimed and `timing.runs` timed
    /// times (a [`crate::options::Stop`] applies to them afterwards). A row's
    /// times are its batch's times divided by the batch's sources.
    pub fn solve(
        &mut self,
        sources: &[usize],
        timing: Timing,
    ) -> Result<(Vec<SourceSolution>, TreeTimes)> {
        let h = self.hierarchy;
        let batch = self
            .gpu
            .as_ref()
            .map_or(sources.len().max(1), |g| g.lanes());
        let mut rows = Vec::with_capacity(sources.len());
        let mut times = TreeTimes::default();
        for chunk in sources.chunks(batch) {
            let mut chunk_times = Vec::with_capacity(timing.runs as usize);
            let mut dist = Vec::new();
            for run in 0..timing.warmup + timing.runs {
                let start = Instant::now();
                let (batch_times, trees) = match &mut self.gpu {
                    Some(gpu) => {
                        let t = gpu.run(h, chunk)?;
                        (t, gpu.download(chunk.len())?)
                    }
                    None => (Default::default(), super::phast::trees(h, chunk)),
                };
                let ms = start.elapsed().as_secs_f64() * 1e3;
                if run >= timing.warmup {
                    chunk_times.push(ms / chunk.len() as f64);
                    times.trees += chunk.len();
                    times.total_ms += ms;
                    times.search_ms += batch_times.search_ms;
                    times.sweep_ms += batch_times.sweep_ms;
                }
                dist = trees;
            }
            for (&source, d) in chunk.iter().zip(dist) {
                crate::distances::check_overflow(h.weight_kind, &d)?;
                rows.push(SourceSolution::new(
                    source,
                    d,
                    chunk_times.clone(),
                    Timer::Host,
                    h.weight_kind,
                ));
            }
        }
        Ok((rows, times))
    }

    /// The trees of `sources` (graph vertices, checked by the caller),
    /// bounded by `stop`, handed to `sink` as `(index in sources, row in
    /// graph order)` in order, none kept: on the GPU each batch's trees are
    /// put in graph order there and copied through two page-locked slots
    /// while the sink takes the previous ones
    /// ([`GpuPhast::stream_rows`]); on the CPU, batches of
    /// [`super::phast::CPU_LANES`] per thread. Returns the wall time, ms.
    pub fn solve_rows(
        &mut self,
        sources: &[usize],
        stop: Stop,
        sink: &mut RowSink<'_>,
    ) -> Result<f64> {
        let h = self.hierarchy;
        if let Some(gpu) = &mut self.gpu {
            return gpu.stream_rows(h, sources, stop, sink);
        }
        let start = Instant::now();
        let chunk = super::phast::CPU_LANES * rayon::current_num_threads();
        for (c, batch) in sources.chunks(chunk).enumerate() {
            for (i, mut row) in super::phast::trees(h, batch).into_iter().enumerate() {
                crate::distances::check_overflow(h.weight_kind, &row)?;
                stop.apply(&mut row);
                sink(c * chunk + i, &row)?;
            }
        }
        Ok(start.elapsed().as_secs_f64() * 1e3)
    }

    /// For each of `sources` (graph vertices, checked by the caller), the
    /// vertices whose distance is at most `limit` (a weight word; unreached
    /// ones never count) and the sum of `values` (by graph vertex) over
    /// them, 0 without values: `(count, sum)` in the order of `sources`,
    /// summed as `f64`. No tree leaves the device.
    pub fn within(
        &mut self,
        sources: &[usize],
        limit: u32,
        values: Option<Values<'_>>,
    ) -> Result<Vec<(u32, f64)>> {
        self.keep_values(values)?;
        self.within_kept(sources, limit)
    }

    /// Keeps `values` (by graph vertex, or none) for
    /// [`TreeSolver::within_kept`]: on the GPU they are uploaded once, so
    /// that many batches of sources pay for them once.
    pub fn keep_values(&mut self, values: Option<Values<'_>>) -> Result<()> {
        let h = self.hierarchy;
        let values = match values {
            Some(v) if v.len() != h.num_vertices() => {
                return Err(Error::InvalidArgument(format!(
                    "{} values for a graph of {} vertices: one value per vertex is needed",
                    v.len(),
                    h.num_vertices()
                )));
            }
            Some(v) => Some(v.to_f64()),
            None => None,
        };
        match &mut self.gpu {
            Some(gpu) => gpu.keep_within_values(h, values.as_deref()),
            None => {
                self.cpu_values = values.unwrap_or_default();
                Ok(())
            }
        }
    }

    /// [`TreeSolver::within`] with the values kept by
    /// [`TreeSolver::keep_values`] (none kept: sums 0).
    pub fn within_kept(&mut self, sources: &[usize], limit: u32) -> Result<Vec<(u32, f64)>> {
        let h = self.hierarchy;
        let parts = match &mut self.gpu {
            Some(gpu) => gpu.within(h, sources, limit)?,
            None => super::reductions::within(h, sources, limit, &self.cpu_values),
        };
        parts
            .iter()
            .zip(sources)
            .map(|(part, &source)| match part.saturated {
                0 => Ok((part.count, part.sum)),
                count => Err(crate::distances::overflow(
                    h.weight_kind,
                    source,
                    count as usize,
                )),
            })
            .collect()
    }

    /// Each graph vertex's distance from its nearest of `sources` (graph
    /// vertices, checked by the caller) and that source's index in
    /// `sources`, the smallest on ties (scipy's `min_only`, nearest
    /// facility). No tree leaves the device.
    pub fn nearest(&mut self, sources: &[usize]) -> Result<Nearest> {
        let h = self.hierarchy;
        let nearest = match &mut self.gpu {
            Some(gpu) => {
                let (dist, source) = gpu.nearest(h, sources)?;
                Nearest { dist, source }
            }
            None => super::reductions::nearest(h, sources),
        };
        crate::distances::check_overflow(h.weight_kind, &nearest.dist)?;
        Ok(nearest)
    }
}
