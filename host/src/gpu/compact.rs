//! The compacted, device-resident DA2CF on the GPU ([`gpu_kernels::compact`]):
//! the frontier and the reached-unsettled vertices are lists, and the loop
//! runs inside the kernels, on one block or on the whole grid by the size of
//! the lists ([`super::resident`]).

use gpu_kernels::compact::{LOOP_STATE_WORDS, LoopState};
use gpu_kernels::launch::GRID_BARRIER_WORDS;

use super::context::Gpu;
use super::kernels::{CompactBuffers, LoopForm};
use super::memory::{DeviceGraph, alloc_zeroed, bytes_of, download_distances, download_words};
use super::resident::{LoopLaunches, LoopStop, WorkLimits, launch_loop, run_loop_launches};
use super::solver::{GpuSolver, RunStats};
use crate::Result;
use crate::graph::Graph;
use crate::variants::CompactRule;

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
        let device_graph = DeviceGraph::upload(gpu.stream(), graph)?;
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

    /// The whole solve: initialize, then the loop's launches, as many queued
    /// at once as the last solve took ([`run_loop_launches`]).
    fn solve(&mut self, source: u32) -> Result<u32> {
        let (kernels, stream) = (&self.gpu.kernels().compact, self.gpu.stream());
        kernels.initialize(stream, &mut self.buffers, self.graph.num_vertices(), source)?;
        let run = run_loop_launches(self.limits, self.blocks, self.launches, self)?;
        self.launches = run.launches;
        Ok(run.iterations)
    }
}

impl LoopLaunches for CompactDa2cf<'_> {
    fn launch(&mut self, form: LoopForm, work: (u32, u32)) -> Result<()> {
        let (kernels, stream) = (&self.gpu.kernels().compact, self.gpu.stream());
        let (graph, buffers) = (&self.graph, &mut self.buffers);
        launch_loop(self.gpu, form, || {
            kernels.run_loop(stream, graph, buffers, work, form)
        })
    }

    fn stopped(&mut self) -> Result<LoopStop> {
        let words = download_words(self.gpu, &self.buffers.state, "the loop state")?;
        Ok(LoopStop::from(LoopState::<u32>::from_words(&words)))
    }
}

impl GpuSolver for CompactDa2cf<'_> {
    fn run(&mut self, source: u32) -> Result<RunStats> {
        let (gpu, n) = (self.gpu, self.graph.num_vertices() as usize);
        gpu.timed_solve(n, source, || self.solve(source))
    }

    fn distances(&self) -> Result<Vec<u32>> {
        let (n, kind) = (self.graph.num_vertices(), self.graph.weight_kind());
        download_distances(self.gpu, &self.buffers.dist, n, kind)
    }
}
