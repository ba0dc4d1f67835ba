//! An index's trees and reductions spread over workers ([`IndexSpread`]):
//! each worker opens its device, uploads the index once
//! ([`crate::ch::TreeSolver`]) and runs its batches; the results are put
//! together by the sources' indices. All-pairs accessibility
//! ([`IndexSpread::accessibility`]) is `within` from every vertex.

use std::ops::Range;
use std::sync::Mutex;

use gpu_kernels::reductions::NO_SOURCE;

use super::gpus::Worker;
use super::spread::{SharedSink, WorkerReport, batch_sink, default_batch, spread};
use crate::ch::{Hierarchy, Nearest, TreeSolver, Values};
use crate::gpu::phast::DEFAULT_LANES;
use crate::options::Stop;
use crate::{Error, Result, Solver};

/// An index's work spread over workers.
#[derive(Clone, Debug)]
pub struct IndexSpread<'h> {
    hierarchy: &'h Hierarchy,
    workers: Vec<Worker>,
    batch: Option<usize>,
    lanes: Option<u32>,
}

/// For every vertex, the vertices within a distance of it and the sum of
/// their values ([`IndexSpread::accessibility`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Accessibility {
    /// Vertices within the distance, by graph vertex (itself included).
    pub counts: Vec<u32>,
    /// The sum of their values (0 without values), by graph vertex.
    pub sums: Vec<f64>,
}

/// A source's count and sum within a distance ([`TreeSolver::within`]).
pub type Within = (u32, f64);

/// Called after each batch with the sources done so far and all of them.
pub type Progress<'p> = dyn Fn(usize, usize) + Sync + 'p;

impl<'h> IndexSpread<'h> {
    /// `hierarchy`'s work on `workers` ([`super::Gpus::workers`], or
    /// [`Worker::cpus`]), batches of the default size ([`default_batch`]).
    pub fn new(hierarchy: &'h Hierarchy, workers: Vec<Worker>) -> Self {
        IndexSpread {
            hierarchy,
            workers,
            batch: None,
            lanes: None,
        }
    }

    /// Sources per batch handed to a worker.
    pub fn batch(mut self, batch: usize) -> Self {
        self.batch = Some(batch);
        self
    }

    /// Sources per GPU sweep (default [`DEFAULT_LANES`], fewer for a
    /// smaller batch).
    pub fn lanes(mut self, lanes: u32) -> Self {
        self.lanes = Some(lanes);
        self
    }

    /// The index.
    pub fn hierarchy(&self) -> &'h Hierarchy {
        self.hierarchy
    }

    /// The workers.
    pub fn workers(&self) -> &[Worker] {
        &self.workers
    }

    /// The batch for `sources` sources, and the GPU's lanes.
    fn shape(&self, sources: usize) -> (usize, u32) {
        let lanes = self.lanes.unwrap_or(DEFAULT_LANES);
        let batch = self.batch.unwrap_or_else(|| {
            let h = self.hierarchy;
            let elements = h.num_vertices() + h.down.len();
            default_batch(elements, sources, self.workers.len(), lanes as usize)
        });
        // A sweep no wider than a batch needs, in whole warps.
        let lanes = lanes.min((batch.div_ceil(32) * 32) as u32).max(1);
        (batch, lanes)
    }

    /// Runs `each` on every batch of `sources` on every worker's trees; per
    /// worker, what `each` gave for its batches.
    fn run<T: Send>(
        &self,
        sources: &[usize],
        each: impl Fn(&mut TreeSolver, Range<usize>) -> Result<T> + Sync,
    ) -> Result<Vec<(WorkerReport, Vec<T>)>> {
        self.run_prepared(sources, |_| Ok(()), each)
    }

    /// [`IndexSpread::run`] after `prepare` on each worker's trees, once
    /// per worker (values uploaded once, not once a batch).
    fn run_prepared<T: Send>(
        &self,
        sources: &[usize],
        prepare: impl Fn(&mut TreeSolver) -> Result<()> + Sync,
        each: impl Fn(&mut TreeSolver, Range<usize>) -> Result<T> + Sync,
    ) -> Result<Vec<(WorkerReport, Vec<T>)>> {
        let n = self.hierarchy.num_vertices();
        if let Some(&v) = sources.iter().find(|&&v| v >= n) {
            return Err(Error::SourceOutOfRange {
                vertex: v as u64,
                num_vertices: n,
            });
        }
        let (batch, lanes) = self.shape(sources.len());
        spread(&self.workers, sources.len(), batch, |worker, batches| {
            let solver = Solver::new(worker.device())?;
            let mut trees = solver.index_trees(self.hierarchy, Some(lanes))?;
            prepare(&mut trees)?;
            let mut done = Vec::new();
            for range in batches {
                done.push(each(&mut trees, range)?);
            }
            Ok(done)
        })
    }

    /// The trees of `sources` bounded by `stop`, handed to `sink` by their
    /// index in `sources` ([`SharedSink`]: in order within a batch, the
    /// batches as they finish); a worker whose sink call fails, or that
    /// sees another fail, ends its batch. What each worker did.
    pub fn solve_rows(
        &self,
        sources: &[usize],
        stop: Stop,
        sink: &mut SharedSink<'_>,
    ) -> Result<Vec<WorkerReport>> {
        stop.check(self.hierarchy.num_vertices())?;
        let sink = Mutex::new(sink);
        let done = self.run(sources, |trees, range| {
            let start = range.start;
            trees.solve_rows(&sources[range], stop, &mut batch_sink(&sink, start))?;
            Ok(())
        })?;
        Ok(done.into_iter().map(|(report, _)| report).collect())
    }

    /// [`TreeSolver::within`] of `sources`: per source, the vertices within
    /// `limit` and the sum of `values` over them; `progress` after each
    /// batch. What each worker did.
    pub fn within(
        &self,
        sources: &[usize],
        limit: u32,
        values: Option<Values<'_>>,
        progress: Option<&Progress<'_>>,
    ) -> Result<(Vec<Within>, Vec<WorkerReport>)> {
        let n = self.hierarchy.num_vertices();
        if let Some(v) = values.filter(|v| v.len() != n) {
            return Err(Error::InvalidArgument(format!(
                "{} values for a graph of {n} vertices: one value per vertex is needed",
                v.len()
            )));
        }
        let finished = std::sync::atomic::AtomicUsize::new(0);
        let keep = |trees: &mut TreeSolver| trees.keep_values(values);
        let done = self.run_prepared(sources, keep, |trees, range| {
            let rows = trees.within_kept(&sources[range.clone()], limit)?;
            if let Some(progress) = progress {
                let count = range.len();
                let sofar = finished.fetch_add(count, std::sync::atomic::Ordering::Relaxed);
                progress(sofar + count, sources.len());
            }
            Ok((range.start, rows))
        })?;
        let mut all = vec![(0, 0.0); sources.len()];
        let mut reports = Vec::with_capacity(done.len());
        for (report, parts) in done {
            for (start, rows) in parts {
                all[start..start + rows.len()].copy_from_slice(&rows);
            }
            reports.push(report);
        }
        Ok((all, reports))
    }

    /// All-pairs accessibility: for every vertex, the vertices within
    /// `limit` of it (a weight word) and the sum of `values` over them, by
    /// graph vertex; `progress` after each batch. What each worker did.
    pub fn accessibility(
        &self,
        limit: u32,
        values: Option<Values<'_>>,
        progress: Option<&Progress<'_>>,
    ) -> Result<(Accessibility, Vec<WorkerReport>)> {
        let sources: Vec<usize> = (0..self.hierarchy.num_vertices()).collect();
        let (rows, reports) = self.within(&sources, limit, values, progress)?;
        let accessibility = Accessibility {
            counts: rows.iter().map(|&(count, _)| count).collect(),
            sums: rows.iter().map(|&(_, sum)| sum).collect(),
        };
        Ok((accessibility, reports))
    }

    /// [`TreeSolver::nearest`] of `sources`: each vertex's distance from
    /// its nearest source and that source's index in `sources`, the
    /// smallest on ties, from the workers' minima by (distance, index).
    pub fn nearest(&self, sources: &[usize]) -> Result<(Nearest, Vec<WorkerReport>)> {
        if u32::try_from(sources.len()).is_err() {
            return Err(Error::InvalidArgument(format!(
                "{} sources: at most {} for nearest",
                sources.len(),
                u32::MAX
            )));
        }
        let n = self.hierarchy.num_vertices();
        let best = Mutex::new(unreached(n));
        let done = self.run(sources, |trees, range| {
            let mut part = trees.nearest(&sources[range.clone()])?;
            for s in part.source.iter_mut().filter(|s| **s != NO_SOURCE) {
                *s += range.start as u32;
            }
            let mut best = best.lock().unwrap_or_else(|e| e.into_inner());
            merge_nearest(&mut best, &part);
            Ok(())
        })?;
        let best = best.into_inner().unwrap_or_else(|e| e.into_inner());
        Ok((best, done.into_iter().map(|(report, _)| report).collect()))
    }
}

/// No vertex reached by any source.
fn unreached(n: usize) -> Nearest {
    Nearest {
        dist: vec![gpu_kernels::distance::INFINITY; n],
        source: vec![NO_SOURCE; n],
    }
}

/// Keeps in `best` the smaller of its and `part`'s (distance, source) at
/// each vertex: the nearest source, the smallest index on ties (unreached
/// is the largest pair).
pub fn merge_nearest(best: &mut Nearest, part: &Nearest) {
    let pairs = best.dist.iter_mut().zip(best.source.iter_mut());
    for ((d, s), (&pd, &ps)) in pairs.zip(part.dist.iter().zip(&part.source)) {
        if (pd, ps) < (*d, *s) {
            (*d, *s) = (pd, ps);
        }
    }
}
