//! What a solve returns: one row per source ([`SourceSolution`]) and the
//! whole query's [`Solution`].

use gpu_kernels::distance::{INFINITY, Weight};

use crate::algorithms::{Algorithm, Processor};
use crate::auto::choice::Choice;
use crate::graph::{WeightKind, with_weight_type};
use crate::{Error, Result};

/// How a solve's times were taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timer {
    /// CUDA events around the whole solve on the GPU.
    CudaEvents,
    /// The host's monotonic clock around the call.
    Host,
}

/// The result for one source.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceSolution {
    /// The source (graph vertex).
    pub source: usize,
    /// One distance word per vertex ([`INFINITY`] when unreached or beyond
    /// the query's bound); [`SourceSolution::distance`] reads one as a number.
    pub dist: Vec<u32>,
    /// The shortest-path tree, when asked for: each reported vertex's parent,
    /// [`crate::parents::NO_PARENT`] for the source and unreported vertices.
    pub parents: Option<Vec<u32>>,
    /// Iterations of the algorithm's main loop, where it has one.
    pub iterations: Option<u32>,
    /// The time of each timed solve, ms.
    pub times_ms: Vec<f64>,
    /// How the times were taken.
    pub timer: Timer,
    pub(crate) weights: WeightKind,
}

impl SourceSolution {
    /// A row without a tree or iterations (the index's trees).
    pub(crate) fn new(
        source: usize,
        dist: Vec<u32>,
        times_ms: Vec<f64>,
        timer: Timer,
        weights: WeightKind,
    ) -> SourceSolution {
        SourceSolution {
            source,
            dist,
            parents: None,
            iterations: None,
            times_ms,
            timer,
            weights,
        }
    }

    /// The type of the graph's weights, which says how to read the distance
    /// words.
    pub fn weight_kind(&self) -> WeightKind {
        self.weights
    }

    /// The distance of `v` as a number; `None` when unreached.
    pub fn distance(&self, v: usize) -> Option<f64> {
        match self.dist[v] {
            INFINITY => None,
            d => Some(with_weight_type!(self.weights, W => W::to_f64(d))),
        }
    }

    /// Every distance as an `f64`, `f64::INFINITY` when unreached.
    pub fn distances_f64(&self) -> Vec<f64> {
        (0..self.dist.len())
            .map(|v| self.distance(v).unwrap_or(f64::INFINITY))
            .collect()
    }

    /// The median of [`SourceSolution::times_ms`] (the upper one of an even count).
    pub fn median_ms(&self) -> f64 {
        median(&self.times_ms)
    }

    /// The path from the source to `target` in the tree (`None` when
    /// unreached); an error if the query did not ask for parents.
    pub fn path_to(&self, target: usize) -> Result<Option<Vec<usize>>> {
        let tree = self.parents.as_deref().ok_or_else(|| {
            Error::InvalidArgument("a path needs the shortest-path tree: ask for parents".into())
        })?;
        crate::parents::path(tree, self.source, target)
    }
}

/// The result of a [`Query`](crate::solver::Query).
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The algorithm the query asked for.
    pub requested: Algorithm,
    /// The algorithm that ran (`auto` resolved, the fallback for a GPU
    /// algorithm without a GPU).
    pub algorithm: Algorithm,
    /// What `auto` chose, and why.
    pub auto: Option<Choice>,
    /// Where it ran.
    pub device: Processor,
    /// Time to prepare the GPU solver (uploads, allocations), ms.
    pub prepare_ms: Option<f64>,
    /// One row per source, in the query's order.
    pub rows: Vec<SourceSolution>,
}

/// The median of `values` (the upper one of an even count); 0 when empty.
pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)
}
