//! The options every layer reads: where a solver runs ([`Device`]), where a
//! solve may stop ([`Stop`]), where many rows go ([`RowSink`]), how many solves are timed ([`Timing`]), and the
//! solvers' knobs ([`Tuning`], each solver's own inside its own type). They
//! depend on nothing above them.

use gpu_kernels::distance::INFINITY;

use crate::partition::options::PartitionTuning;
use crate::{Error, Result};

/// Where a [`Solver`](crate::solver::Solver) runs GPU algorithms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Device {
    /// The first CUDA GPU if there is one; otherwise GPU algorithms are
    /// replaced by the [CPU fallback](crate::solver::FALLBACK) (see [`Solver::no_gpu_reason`](crate::solver::Solver::no_gpu_reason)).
    #[default]
    Auto,
    /// The CUDA GPU of this ordinal; [`Error::NoGpu`] if there is none.
    Gpu(usize),
    /// The CPU only: GPU algorithms are replaced by the [CPU fallback](crate::solver::FALLBACK).
    Cpu,
}

/// Where many solves' rows go, one at a time, as they are ready
/// ([`Prepared::solve_rows`](crate::solver::Prepared::solve_rows)): called
/// with the source's index in the batch and its row (one distance word per
/// vertex, in the graph's numbering, bounded by the [`Stop`]), in the order
/// of the sources. The row is lent for the call only; an error ends the
/// batch.
pub type RowSink<'s> = dyn FnMut(usize, &[u32]) -> Result<()> + 's;

/// Where a solve may stop early. Bounds keep the distances they report exact:
/// a vertex is either reported with its shortest distance or as unreached
/// ([`INFINITY`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stop {
    /// Report only distances `<=` this weight word (scipy's `limit`); farther
    /// vertices are unreached.
    pub limit: Option<u32>,
    /// Stop once this vertex's distance is final: exactly the vertices no
    /// farther than it are reported (all reached ones if it is unreachable).
    pub target: Option<usize>,
}

impl Stop {
    /// Whether this stop bounds anything.
    pub fn is_bounded(&self) -> bool {
        self.limit.is_some() || self.target.is_some()
    }

    /// The limit as a distance word, [`INFINITY`] without one.
    pub fn limit_word(&self) -> u32 {
        self.limit.unwrap_or(INFINITY)
    }

    /// The largest distance reported for full distances `dist` (from a solve
    /// that ran to the end, or far enough for the target's distance to be
    /// final).
    pub fn bound(&self, dist: &[u32]) -> u32 {
        let target = self.target.map_or(INFINITY, |t| dist[t]);
        self.limit_word().min(target)
    }

    /// Marks every vertex beyond [`Stop::bound`] unreached.
    pub fn apply(&self, dist: &mut [u32]) {
        let bound = self.bound(dist);
        if bound != INFINITY {
            dist.iter_mut()
                .filter(|d| **d > bound)
                .for_each(|d| *d = INFINITY);
        }
    }

    /// Checks the target against the graph's `num_vertices`.
    pub(crate) fn check(&self, num_vertices: usize) -> Result<()> {
        match self.target {
            Some(t) if t >= num_vertices => Err(Error::InvalidArgument(format!(
                "target vertex {t} is out of range: the graph has {num_vertices} vertices"
            ))),
            _ => Ok(()),
        }
    }
}

/// How many solves to run per source: `warmup` untimed ones, then `runs`
/// timed ones (the distances are those of the last). In a batch of sources
/// ([`crate::solver::Prepared::solve_many`]) the warm-ups run before the
/// first source only (on each stream).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Untimed solves first.
    pub warmup: u32,
    /// Timed solves, at least 1.
    pub runs: u32,
}

impl Default for Timing {
    /// One solve, untimed warm-up none.
    fn default() -> Self {
        Timing { warmup: 0, runs: 1 }
    }
}

/// Parameters some algorithms take (`--delta`, and the partition solver's
/// knobs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tuning {
    /// Near-far's (and Δ-stepping's, and the partition solver's window) band
    /// width Δ as a weight word of the graph's kind (for `f32` weights, the
    /// bits of the real); `None`: chosen from the graph.
    pub delta: Option<u32>,
    /// The partition solver's knobs.
    pub partition: PartitionTuning,
    /// Skips the certificate checked after every GPU solve
    /// ([`crate::gpu::certificate`]), for benchmarking; off by default.
    pub skip_certificate: bool,
}

impl Tuning {
    /// Words for how this form of a candidate differs from the `asked`
    /// tuning, appended to its name in `auto`'s trial.
    pub fn trial_form(&self, asked: &Tuning) -> String {
        self.partition.trial_form(&asked.partition)
    }

    /// Whether a solver prepared with this tuning and one prepared with
    /// `other` would be prepared alike, their calibrated choices aside.
    pub fn same_form(&self, other: &Tuning) -> bool {
        self.partition.same_pieces(&other.partition)
    }
}
