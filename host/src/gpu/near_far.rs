//! The near-far (bucketed Δ-stepping) solver on the GPU
//! ([`gpu_kernels::near_far`]), for graphs of high diameter such as road
//! networks: the loop runs inside the kernels, on one block while the waiting
//! work is small and on the whole grid while it is large
//! ([`super::resident`]).

use gpu_kernels::launch::GRID_BARRIER_WORDS;
use gpu_kernels::near_far::{
    HUB_DEGREE, NEAR_FAR_STATE_WORDS, NearFarState, hub_slots, wants_hubs,
};

use super::certificate::PushCheck;
use super::context::Gpu;
use super::kernels::{LoopForm, NearFarBuffers};
use super::memory::{
    DeviceGraph, alloc_zeroed, bytes_of, download_bounded_distances, download_words,
};
use super::resident::{LoopLaunches, LoopStop, WorkLimits, launch_loop, run_loop_launches};
use super::solver::{GpuSolver, RunStats};
use crate::graph::Graph;
use crate::options::Stop;
use crate::variants::near_far_delta;
use crate::{Error, Result};

/// The near-far solver for one graph.
pub struct NearFar<'a> {
    gpu: &'a Gpu,
    graph: DeviceGraph,
    buffers: NearFarBuffers,
    delta: u32,
    blocks: u32,
    limits: WorkLimits,
    launches: u32,
    /// The bound of the next solves ([`GpuSolver::stop_early`]).
    stop: Stop,
    /// The certificate's push form, from the first certified solve on.
    push: Option<PushCheck>,
}

impl<'a> NearFar<'a> {
    /// Device bytes of the solver state for `n` vertices and `m` edges (the
    /// graph excluded): distances, two stamps, two near, two far and two hub
    /// lists (for hubs above `hub_degree` edges; `None`: no hub form).
    pub fn state_bytes(n: usize, m: usize, hub_degree: Option<u32>) -> u64 {
        let hub_slots = hub_degree.map_or(1, |d| hub_slots(n, m, d));
        bytes_of::<u32>(7 * n + 4 * hub_slots)
            + bytes_of::<u32>(NEAR_FAR_STATE_WORDS + GRID_BARRIER_WORDS)
    }

    /// Uploads the successor CSR of `graph` and allocates the state (after
    /// checking that both fit); band width `delta`, or
    /// the automatic one when `None` ([`near_far_delta`]); work limits for
    /// the graph's mean degree ([`WorkLimits::for_mean_degree`]) unless
    /// `SSSP_COMPACT_LIMITS` sets them ([`WorkLimits::from_env_or`]).
    pub fn new(gpu: &'a Gpu, graph: &Graph, delta: Option<u32>) -> Result<Self> {
        let mean_degree = graph.num_edges() as f64 / graph.num_vertices().max(1) as f64;
        let limits = WorkLimits::from_env_or(WorkLimits::for_mean_degree(mean_degree))?;
        Self::with_limits(gpu, graph, delta, limits)
    }

    /// As [`NearFar::new`], with the given work limits. The loop's hub form
    /// with hubs above [`HUB_DEGREE`] edges where [`wants_hubs`], or above
    /// `SSSP_HUB_DEGREE` edges on any graph if that is set (for tuning).
    pub fn with_limits(
        gpu: &'a Gpu,
        graph: &Graph,
        delta: Option<u32>,
        limits: WorkLimits,
    ) -> Result<Self> {
        let hub_degree = match std::env::var("SSSP_HUB_DEGREE") {
            Ok(text) => Some(text.trim().parse().map_err(|_| {
                Error::InvalidArgument(format!("SSSP_HUB_DEGREE=`{text}`: expected an out-degree"))
            })?),
            Err(_) => wants_hubs(graph.offsets()).then_some(HUB_DEGREE),
        };
        Self::with_options(gpu, graph, delta, limits, hub_degree)
    }

    /// As [`NearFar::with_limits`], with the hub form of the loop for hubs
    /// above `hub_degree` edges, or without it (`None`). Either form solves
    /// any graph.
    pub fn with_options(
        gpu: &'a Gpu,
        graph: &Graph,
        delta: Option<u32>,
        limits: WorkLimits,
        hub_degree: Option<u32>,
    ) -> Result<Self> {
        let delta = near_far_delta(graph, delta)?;
        let limits = limits.checked()?;
        let (n, m) = (graph.num_vertices(), graph.num_edges());
        gpu.check_fits(
            "the graph and the near-far state",
            DeviceGraph::bytes_needed(n, m) + Self::state_bytes(n, m, hub_degree),
        )?;
        let device_graph = DeviceGraph::upload(gpu.stream(), graph)?;
        let list = |what| alloc_zeroed(gpu, n, what);
        let with_hubs = hub_degree.is_some();
        let hub_list = || {
            let slots = hub_degree.map_or(1, |d| hub_slots(n, m, d));
            alloc_zeroed(gpu, 2 * slots, "a hub list")
        };
        let buffers = NearFarBuffers {
            dist: list("distances")?,
            stamp: list("near stamps")?,
            far_stamp: list("far stamps")?,
            near: [list("a near worklist")?, list("a near worklist")?],
            far: [list("a far list")?, list("a far list")?],
            hub_degree,
            hubs: [hub_list()?, hub_list()?],
            state: alloc_zeroed(gpu, NEAR_FAR_STATE_WORDS, "the near-far state")?,
            barrier: alloc_zeroed(gpu, GRID_BARRIER_WORDS, "the grid barrier")?,
        };
        let blocks = gpu.kernels().near_far.grid_blocks(
            gpu.stream().context(),
            (graph.weight_kind(), with_hubs),
            device_graph.num_vertices(),
        )?;
        Ok(NearFar {
            gpu,
            graph: device_graph,
            buffers,
            delta,
            blocks,
            limits,
            launches: 0,
            stop: Stop::default(),
            push: None,
        })
    }

    /// Launches of the loop kernels in the last solve.
    pub fn launches(&self) -> u32 {
        self.launches
    }

    /// Initialize, then the loop's launches, as many queued at once as the
    /// last solve took ([`run_loop_launches`]). Returns the iterations.
    fn solve(&mut self, source: u32) -> Result<u32> {
        let (kernels, stream) = (&self.gpu.kernels().near_far, self.gpu.stream());
        kernels.initialize(stream, &self.graph, &mut self.buffers, source, self.delta)?;
        let run = run_loop_launches(self.limits, self.blocks, self.launches, self)?;
        self.launches = run.launches;
        Ok(run.iterations)
    }
}

impl LoopLaunches for NearFar<'_> {
    fn launch(&mut self, form: LoopForm, work: (u32, u32)) -> Result<()> {
        let (kernels, stream) = (&self.gpu.kernels().near_far, self.gpu.stream());
        let bound = (self.stop.limit_word(), self.stop.target.map(|t| t as u32));
        let (graph, buffers) = (&self.graph, &mut self.buffers);
        launch_loop(self.gpu, form, || {
            kernels.run_loop(stream, graph, buffers, (self.delta, bound), work, form)
        })
    }

    fn stopped(&mut self) -> Result<LoopStop> {
        let words = download_words(self.gpu, &self.buffers.state, "the near-far state")?;
        Ok(LoopStop::from(NearFarState::<u32>::from_words(&words)))
    }
}

impl GpuSolver for NearFar<'_> {
    fn run(&mut self, source: u32) -> Result<RunStats> {
        let (gpu, n) = (self.gpu, self.graph.num_vertices() as usize);
        gpu.timed_solve(n, source, || self.solve(source))
    }

    /// No vertex beyond the bound is relaxed (module docs of
    /// [`gpu_kernels::near_far`], *Early stop*).
    fn stop_early(&mut self, stop: Stop) {
        self.stop = stop;
    }

    /// The push form ([`PushCheck`]): the distances and the successor CSR
    /// are on the device in the graph's numbering.
    fn certify_in_place(&mut self, source: u32, stop: Stop) -> Option<Result<bool>> {
        let n = self.graph.num_vertices() as usize;
        let proven = (|| {
            let push = match &mut self.push {
                Some(push) => push,
                None => self.push.insert(PushCheck::new(self.gpu, n)?),
            };
            push.check(self.gpu, &self.graph, (source, stop), &self.buffers.dist)
        })();
        Some(proven)
    }

    fn distances(&self) -> Result<Vec<u32>> {
        let graph = &self.graph;
        let shape = (graph.num_vertices(), graph.weight_kind());
        download_bounded_distances(self.gpu, &self.buffers.dist, shape, self.stop)
    }
}
