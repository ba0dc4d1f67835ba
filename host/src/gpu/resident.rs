//! What the device-resident loops (the compacted DA2CF, near-far) share on
//! the host: one block runs the loop while the waiting work is small (block
//! barriers cost nanoseconds), the whole grid while it is large (grid barriers
//! cost microseconds, but the work is spread over every SM). A launch runs
//! until the loop converges or its work leaves the launch's range, so the
//! forms alternate: the host queues as many launches as the last solve took
//! and reads where they stopped, then goes on one at a time
//! ([`run_loop_launches`]).

use gpu_kernels::compact::LoopState;
use gpu_kernels::launch::COMPACT_BLOCK_SIZE;
use gpu_kernels::near_far::NearFarState;

use super::context::Gpu;
use super::kernels::LoopForm;
use crate::{Error, Result};

/// When the block loop hands over to the grid loop and back, in the loop's
/// units of work at the start of an iteration ([`LoopStop::work`]: for the
/// compacted DA2CF the frontier and `R`, for near-far its waiting list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkLimits {
    /// The block loop runs while the work is at most this.
    pub block_max: u32,
    /// The grid loop runs while the work is at least this (below `block_max`,
    /// so that every launch runs at least one iteration).
    pub grid_min: u32,
}

impl Default for WorkLimits {
    fn default() -> Self {
        WorkLimits {
            block_max: 8 * COMPACT_BLOCK_SIZE,
            grid_min: 2 * COMPACT_BLOCK_SIZE,
        }
    }
}

/// Edges per thread of a block that near-far's block loop takes on at most
/// ([`WorkLimits::for_mean_degree`]): about 4 vertices per thread on road
/// networks (mean degree about 2.5), half the defaults.
pub const BLOCK_EDGES_PER_THREAD: f64 = 10.0;

impl WorkLimits {
    /// Limits in vertices for a loop whose work is a list of vertices with
    /// `mean_degree` edges each: the block loop while the list holds at most
    /// [`BLOCK_EDGES_PER_THREAD`] edges per thread of a block, the grid loop
    /// down to a quarter of that. A block is slow on many edges, not on many
    /// vertices: measured on the H100 (docs/PERFORMANCE.md), near-far on
    /// soc-Epinions1 (mean degree 6.7) took 0.71 ms with 20 edges per thread
    /// against 1.02–1.08 ms with the defaults, and 0.47–0.48 ms with 10;
    /// with 10 instead of 20, the papers' graph (7) and a 1000² grid (4) are
    /// 3% and 8% faster, Kronecker 2^20 and three road networks (2.1–2.8)
    /// as fast; with 5, the grid and the roads lose again.
    pub fn for_mean_degree(mean_degree: f64) -> Self {
        let edges = BLOCK_EDGES_PER_THREAD * COMPACT_BLOCK_SIZE as f64;
        let block_max = (edges / mean_degree.max(1.0)) as u32;
        WorkLimits {
            block_max: block_max.max(4),
            grid_min: (block_max / 4).max(1),
        }
    }

    /// The limits from `SSSP_COMPACT_LIMITS=block_max,grid_min` if set (for
    /// tuning), else the defaults.
    pub fn from_env() -> Result<Self> {
        Self::from_env_or(WorkLimits::default())
    }

    /// The limits from `SSSP_COMPACT_LIMITS=block_max,grid_min` if set (for
    /// tuning), else `otherwise`.
    pub fn from_env_or(otherwise: WorkLimits) -> Result<Self> {
        let Ok(text) = std::env::var("SSSP_COMPACT_LIMITS") else {
            return Ok(otherwise);
        };
        let bad = || {
            Error::InvalidArgument(format!(
                "SSSP_COMPACT_LIMITS=`{text}`: expected `block_max,grid_min`"
            ))
        };
        let (block_max, grid_min) = text.split_once(',').ok_or_else(bad)?;
        WorkLimits {
            block_max: block_max.trim().parse().map_err(|_| bad())?,
            grid_min: grid_min.trim().parse().map_err(|_| bad())?,
        }
        .checked()
    }

    /// These limits, if `grid_min <= block_max` (else a launch could run no
    /// iteration and the host would switch loops forever).
    pub fn checked(self) -> Result<Self> {
        if self.grid_min > self.block_max {
            return Err(Error::InvalidArgument(format!(
                "work limits {self:?}: grid_min must not exceed block_max"
            )));
        }
        Ok(self)
    }
}

/// Where a loop launch stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopStop {
    /// Iterations of the solve so far.
    pub iteration: u32,
    /// The waiting work, in the limits' units; 0 once the loop has converged.
    pub work: u32,
}

impl From<LoopState<u32>> for LoopStop {
    fn from(state: LoopState<u32>) -> Self {
        LoopStop {
            iteration: state.iteration,
            work: state.work(),
        }
    }
}

impl From<NearFarState<u32>> for LoopStop {
    fn from(state: NearFarState<u32>) -> Self {
        LoopStop {
            iteration: state.iteration,
            work: state.work(),
        }
    }
}

/// Runs `launch`, one loop launch of `form` on `gpu`: the grid form, a
/// cooperative launch, takes its turn ([`Gpu::cooperative`]).
pub fn launch_loop<T>(gpu: &Gpu, form: LoopForm, launch: impl FnOnce() -> Result<T>) -> Result<T> {
    match form {
        LoopForm::Block => launch(),
        LoopForm::Grid { .. } => gpu.cooperative(launch),
    }
}

/// A device-resident loop as the host drives it ([`run_loop_launches`]).
pub trait LoopLaunches {
    /// Queues a launch of `form` that runs while the waiting work is within
    /// `(min_work, max_work)`.
    fn launch(&mut self, form: LoopForm, work: (u32, u32)) -> Result<()>;
    /// Where the last launch queued stopped (waits for it).
    fn stopped(&mut self) -> Result<LoopStop>;
}

/// How a solve's loop launches went ([`run_loop_launches`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopRun {
    /// Iterations of the solve.
    pub iterations: u32,
    /// Launches queued, the last ones possibly finding the loop converged.
    pub launches: u32,
}

/// Runs a solve's loop launches from the state an initialization left (one
/// vertex of work) and returns how they went. The forms alternate from the
/// block form: a block launch stops only where the work rises above
/// `block_max` (or the loop converged), a grid launch only where it falls
/// below `grid_min <= block_max`, so the form the work asks for next is
/// always the other one, and a launch that finds the work outside its
/// range, or none, stops at once. So the host queues `ahead` launches (the
/// last solve's count: a solve from another source of the same graph
/// usually takes as many) before it reads where the last stopped, and then
/// one at a time until the loop has converged: no round trip through the
/// host between the launches it foresaw. The grid form gets `blocks` blocks.
pub fn run_loop_launches(
    limits: WorkLimits,
    blocks: u32,
    ahead: u32,
    driver: &mut impl LoopLaunches,
) -> Result<LoopRun> {
    let mut launches = 0;
    let mut queue = ahead.max(1);
    loop {
        for _ in 0..queue {
            let (form, work) = if launches % 2 == 0 {
                (LoopForm::Block, (0, limits.block_max))
            } else {
                (LoopForm::Grid { blocks }, (limits.grid_min, u32::MAX))
            };
            driver.launch(form, work)?;
            launches += 1;
        }
        let stop = driver.stopped()?;
        if stop.work == 0 {
            return Ok(LoopRun {
                iterations: stop.iteration,
                launches,
            });
        }
        queue = 1;
    }
}
