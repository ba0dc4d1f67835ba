//! The compacted, device-resident DA2CF on the GPU ([`gpu_kernels::compact`]):
//! the frontier and the reached-unsettled vertices are lists, and the loop
//! runs inside the kernels. While the lists are small one block runs it
//! (block barriers cost nanoseconds); while they are large the whole grid does
//! (grid barriers cost microseconds, but the work is spread over every SM).
//! The host only picks the next launch when a loop leaves its size range: a
//! round trip per switch, not per iteration.

use gpu_kernels::compact::{LOOP_STATE_WORDS, LoopState};
use gpu_kernels::launch::{COMPACT_BLOCK_SIZE, GRID_BARRIER_WORDS};

use super::kernels::CompactBuffers;
use super::memory::{DeviceGraph, alloc_zeroed, bytes_of};
use super::{Gpu, GpuSolver, RunStats};
use crate::cpu::compact::CompactRule;
use crate::distances::check_source_of;
use crate::graph::Graph;
use crate::{Error, Result};

/// When the block loop hands over to the grid loop and back, in vertices of
/// frontier plus `R` at the start of an iteration.
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

impl WorkLimits {
    /// The limits from `SSSP_COMPACT_LIMITS=block_max,grid_min` if set (for
    /// tuning), else the defaults.
    pub fn from_env() -> Result<Self> {
        let Ok(text) = std::env::var("SSSP_COMPACT_LIMITS") else {
            return Ok(WorkLimits::default());
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

/// The compacted DA2CF for one graph: its successor CSR and state on the device.
pub struct CompactDa2cf<'a> {
    gpu: &'a Gpu,
    graph: DeviceGraph,
    buffers: CompactBuffers,
    /// Blocks of a grid-loop launch.
    blocks: u32,
    limits: WorkLimits,
    /// Launches of the loop kernels in the last solve.
    launches: u32,
}

impl<'a> CompactDa2cf<'a> {
    /// Device bytes of the solver state for `n` vertices (the graph excluded):
    /// distances, the frontier, two lists of `R`, and `Δ_node` for Crauser's
    /// rule.
    pub fn state_bytes(n: usize, rule: CompactRule) -> u64 {
        let per_vertex = if rule == CompactRule::Crauser { 5 } else { 4 };
        bytes_of::<u32>(per_vertex * n) + bytes_of::<u32>(LOOP_STATE_WORDS + GRID_BARRIER_WORDS)
    }

    /// Uploads the successor CSR of `graph`, allocates the state (after
    /// checking that both fit) and, for Crauser's rule, computes `Δ_node`;
    /// the work limits from [`WorkLimits::from_env`].
    pub fn new(gpu: &'a Gpu, graph: &Graph, rule: CompactRule) -> Result<Self> {
        Self::with_limits(gpu, graph, rule, WorkLimits::from_env()?)
    }

    /// As [`CompactDa2cf::new`], with the given work limits.
    pub fn with_limits(
        gpu: &'a Gpu,
        graph: &Graph,
        rule: CompactRule,
        limits: WorkLimits,
    ) -> Result<Self> {
        let limits = limits.checked()?;
        let n = graph.num_vertices();
        gpu.check_fits(
            "the graph and the compacted-DA2CF state",
            DeviceGraph::bytes_needed(n, graph.num_edges()) + Self::state_bytes(n, rule),
        )?;
        let device_graph = DeviceGraph::upload(gpu, graph)?;
        let crauser = rule == CompactRule::Crauser;
        let mut buffers = CompactBuffers {
            delta_node: alloc_zeroed(gpu, if crauser { n } else { 1 }, "Δ_node")?,
            crauser,
            dist: alloc_zeroed(gpu, n, "distances")?,
            frontier: alloc_zeroed(gpu, n, "the frontier list")?,
            reached: [
                alloc_zeroed(gpu, n, "a reached-vertex list")?,
                alloc_zeroed(gpu, n, "a reached-vertex list")?,
            ],
            state: alloc_zeroed(gpu, LOOP_STATE_WORDS, "the loop state")?,
            barrier: alloc_zeroed(gpu, GRID_BARRIER_WORDS, "the grid barrier")?,
        };
        if crauser {
            gpu.kernels().crauser.delta_node_succ(
                gpu.stream(),
                &device_graph,
                &mut buffers.delta_node,
            )?;
        }
        let blocks = gpu.kernels().compact.grid_blocks(
            gpu.stream().context(),
            graph.weight_kind(),
            device_graph.num_vertices(),
        )?;
        Ok(CompactDa2cf {
            gpu,
            graph: device_graph,
            buffers,
            blocks,
            limits,
            launches: 0,
        })
    }

    /// Launches of the loop kernels in the last solve.
    pub fn launches(&self) -> u32 {
        self.launches
    }

    /// The loop state on the device, copied to the host (waits for the GPU).
    fn read_state(&self) -> Result<LoopState<u32>> {
        let mut words = [0u32; LOOP_STATE_WORDS];
        self.gpu
            .stream()
            .memcpy_dtoh(&self.buffers.state, &mut words)
            .map_err(Error::cuda("copying the loop state to the host"))?;
        Ok(LoopState::from_words(&words))
    }

    /// The whole solve: initialize, then loop launches, each picked by the
    /// size of the sets where the last one stopped.
    fn solve(&mut self, source: u32) -> Result<u32> {
        let (kernels, stream) = (&self.gpu.kernels().compact, self.gpu.stream());
        let n = self.graph.num_vertices();
        kernels.initialize(stream, &mut self.buffers, n, source)?;
        self.launches = 0;
        // The first frontier is one vertex: the block loop starts.
        let mut work = 1;
        loop {
            self.launches += 1;
            if work <= self.limits.block_max {
                kernels.block_loop(
                    stream,
                    &self.graph,
                    &mut self.buffers,
                    0,
                    self.limits.block_max,
                )?;
            } else {
                kernels.grid_loop(
                    stream,
                    &self.graph,
                    &mut self.buffers,
                    self.limits.grid_min,
                    u32::MAX,
                    self.blocks,
                )?;
            }
            let state = self.read_state()?;
            if state.frontier() == 0 {
                return Ok(state.iteration);
            }
            work = state.frontier().saturating_add(state.reached());
        }
    }
}

impl GpuSolver for CompactDa2cf<'_> {
    fn run(&mut self, source: u32) -> Result<RunStats> {
        check_source_of(source as u64, self.graph.num_vertices() as usize)?;
        let gpu = self.gpu;
        let (iterations, solve_ms) = gpu.timed(|| self.solve(source))?;
        Ok(RunStats {
            iterations,
            solve_ms,
        })
    }

    fn distances(&self) -> Result<Vec<u32>> {
        self.graph.download_distances(self.gpu, &self.buffers.dist)
    }
}
