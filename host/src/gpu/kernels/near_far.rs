//! The kernels of the near-far solver, one method each.

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream};
use gpu_kernels::args::{NearFarBlockLoopArgs, NearFarGridLoopArgs, NearFarInitializeArgs};
use gpu_kernels::distance::{INFINITY, NO_TARGET};
use gpu_kernels::launch::{COMPACT_BLOCK_SIZE, names};
use gpu_kernels::near_far::{NEAR_FAR_SHARED_BYTES, NEAR_FAR_STATE_WORDS, hub_slots};

use super::launch::{
    Launch, LoopForm, Typed, check_lengths, device, grid_blocks, launch, load_function,
    one_thread_per,
};
use crate::gpu::device_graph::DeviceGraph;
use crate::graph::WeightKind;
use crate::{Error, Result};

/// The device state of a near-far solve.
pub struct NearFarBuffers {
    /// Distances, `n`.
    pub dist: CudaSlice<u32>,
    /// Near-worklist stamps, `n`.
    pub stamp: CudaSlice<u32>,
    /// Far-list stamps, `n`.
    pub far_stamp: CudaSlice<u32>,
    /// The near worklists, `n` each.
    pub near: [CudaSlice<u32>; 2],
    /// The far lists, `n` each.
    pub far: [CudaSlice<u32>; 2],
    /// The loops' hub form, for hubs of more than this many out-edges
    /// (`None`: the form without hubs).
    pub hub_degree: Option<u32>,
    /// The hub lists, [`hub_slots`] chunk descriptors of two words each for
    /// `hub_degree` (with hubs).
    pub hubs: [CudaSlice<u32>; 2],
    /// The loop state ([`NEAR_FAR_STATE_WORDS`]).
    pub state: CudaSlice<u32>,
    /// The grid barrier's state
    /// ([`GRID_BARRIER_WORDS`](gpu_kernels::launch::GRID_BARRIER_WORDS)).
    pub barrier: CudaSlice<u32>,
}

/// The near-far kernels.
pub struct NearFarKernels {
    initialize: CudaFunction,
    block_loop: Typed,
    grid_loop: Typed,
    block_loop_hubs: Typed,
    grid_loop_hubs: Typed,
}

impl NearFarKernels {
    /// Resolves the near-far kernels in `module`.
    pub fn load(module: &Arc<CudaModule>) -> Result<Self> {
        Ok(NearFarKernels {
            initialize: load_function(module, names::NEAR_FAR_INITIALIZE)?,
            block_loop: Typed::load(module, names::NEAR_FAR_BLOCK_LOOP)?,
            grid_loop: Typed::load(module, names::NEAR_FAR_GRID_LOOP)?,
            block_loop_hubs: Typed::load(module, names::NEAR_FAR_BLOCK_LOOP_HUBS)?,
            grid_loop_hubs: Typed::load(module, names::NEAR_FAR_GRID_LOOP_HUBS)?,
        })
    }

    /// The loop kernel of `form`, with or without hubs.
    fn loop_kernel(&self, form: LoopForm, with_hubs: bool) -> &Typed {
        match (form, with_hubs) {
            (LoopForm::Block, false) => &self.block_loop,
            (LoopForm::Block, true) => &self.block_loop_hubs,
            (LoopForm::Grid { .. }, false) => &self.grid_loop,
            (LoopForm::Grid { .. }, true) => &self.grid_loop_hubs,
        }
    }

    /// The blocks of a `near_far_grid_loop` launch (with hubs or not) over
    /// `n` vertices for weights of `kind` (see `kernels::grid_blocks`).
    pub fn grid_blocks(
        &self,
        ctx: &Arc<CudaContext>,
        (kind, with_hubs): (WeightKind, bool),
        n: u32,
    ) -> Result<u32> {
        let shape = (COMPACT_BLOCK_SIZE, NEAR_FAR_SHARED_BYTES);
        let function = self.loop_kernel(LoopForm::Grid { blocks: 1 }, with_hubs);
        grid_blocks(ctx, function.of(kind), shape, n)
    }

    /// `near_far_initialize`: a new solve from `source` (`< n`) with band
    /// width `delta`.
    pub fn initialize(
        &self,
        stream: &Arc<CudaStream>,
        graph: &DeviceGraph,
        buffers: &mut NearFarBuffers,
        source: u32,
        delta: u32,
    ) -> Result<()> {
        let kernel = names::NEAR_FAR_INITIALIZE;
        let n = graph.num_vertices();
        check_state_lengths(kernel, n, buffers)?;
        if source >= n {
            return Err(Error::Internal(format!(
                "{kernel}: source {source} of {n} vertices"
            )));
        }
        let no_bound = (INFINITY, None);
        let loop_args = loop_args(stream, graph, buffers, (delta, no_bound), (0, 0));
        let args = NearFarInitializeArgs::new(loop_args, source);
        let function = (&self.initialize, kernel);
        // SAFETY: a validated CSR of n vertices and m edges; the state arrays
        // hold n >= 1 elements (source < n) and the state its words (checked
        // above).
        unsafe { launch(stream, function, one_thread_per(n), &args, Launch::Plain) }
    }

    /// A loop launch (`near_far_block_loop` or `near_far_grid_loop`, their
    /// hub forms when `buffers.hub_degree` is set): resumes the solve in `buffers`
    /// until convergence or until the waiting work leaves
    /// `min_work..=max_work`, relaxing no vertex beyond `bound` (the limit,
    /// a distance word, and the target; see [`gpu_kernels::near_far`],
    /// *Early stop*). The grid form zeroes the barrier first.
    #[allow(clippy::too_many_arguments)]
    pub fn run_loop(
        &self,
        stream: &Arc<CudaStream>,
        graph: &DeviceGraph,
        buffers: &mut NearFarBuffers,
        (delta, bound): (u32, (u32, Option<u32>)),
        (min_work, max_work): (u32, u32),
        form: LoopForm,
    ) -> Result<()> {
        let function = self
            .loop_kernel(form, buffers.hub_degree.is_some())
            .of(graph.weight_kind());
        let kernel = function.1;
        check_state_lengths(kernel, graph.num_vertices(), buffers)?;
        if let Some(target) = bound.1.filter(|&t| t >= graph.num_vertices()) {
            return Err(Error::InvalidArgument(format!(
                "{kernel}: target {target} of {} vertices",
                graph.num_vertices()
            )));
        }
        if let Some(hub_degree) = buffers.hub_degree {
            let (n, m) = (graph.num_vertices(), graph.num_edges());
            let hubs = 2 * hub_slots(n as usize, m as usize, hub_degree);
            check_lengths(
                kernel,
                &[
                    ("hubs[0]", buffers.hubs[0].len(), hubs),
                    ("hubs[1]", buffers.hubs[1].len(), hubs),
                ],
            )?;
        }
        let config = form.prepare(stream, kernel, &mut buffers.barrier, NEAR_FAR_SHARED_BYTES)?;
        let args = loop_args(stream, graph, buffers, (delta, bound), (min_work, max_work));
        match form {
            LoopForm::Block => {
                // SAFETY: a validated CSR of n vertices and m edges; the state
                // arrays hold n elements and the state its words (checked
                // above), left by `initialize` or a loop launch of the same
                // solve; one block with NEAR_FAR_SHARED_BYTES of shared memory.
                unsafe { launch(stream, function, config, &args, Launch::Plain) }
            }
            LoopForm::Grid { .. } => {
                let args = NearFarGridLoopArgs::new(args, device(stream, &buffers.barrier));
                // SAFETY: as for the block form, plus the barrier, zeroed on
                // this stream just before; the launch is cooperative, so the
                // driver runs it only if all blocks can be co-resident, as the
                // grid barrier requires.
                unsafe { launch(stream, function, config, &args, Launch::Cooperative) }
            }
        }
    }
}

/// The arguments of the block loop, which the grid loop takes too.
fn loop_args(
    stream: &CudaStream,
    graph: &DeviceGraph,
    buffers: &NearFarBuffers,
    (delta, (limit, target)): (u32, (u32, Option<u32>)),
    (min_work, max_work): (u32, u32),
) -> NearFarBlockLoopArgs {
    NearFarBlockLoopArgs {
        offsets: device(stream, graph.offsets()),
        targets: device(stream, graph.targets()),
        weights: device(stream, graph.weights()),
        n: graph.num_vertices(),
        m: graph.num_edges(),
        dist: device(stream, &buffers.dist),
        stamp: device(stream, &buffers.stamp),
        far_stamp: device(stream, &buffers.far_stamp),
        near0: device(stream, &buffers.near[0]),
        near1: device(stream, &buffers.near[1]),
        far0: device(stream, &buffers.far[0]),
        far1: device(stream, &buffers.far[1]),
        state: device(stream, &buffers.state),
        hubs0: device(stream, &buffers.hubs[0]),
        hubs1: device(stream, &buffers.hubs[1]),
        hub_slots: (buffers.hubs[0].len().min(buffers.hubs[1].len()) / 2) as u32,
        hub_degree: buffers.hub_degree.unwrap_or(u32::MAX),
        limit,
        target: target.unwrap_or(NO_TARGET),
        delta,
        min_work,
        max_work,
    }
}

/// The lengths every near-far kernel needs.
fn check_state_lengths(kernel: &str, n: u32, buffers: &NearFarBuffers) -> Result<()> {
    let n = n as usize;
    check_lengths(
        kernel,
        &[
            ("dist", buffers.dist.len(), n),
            ("stamp", buffers.stamp.len(), n),
            ("far_stamp", buffers.far_stamp.len(), n),
            ("near[0]", buffers.near[0].len(), n),
            ("near[1]", buffers.near[1].len(), n),
            ("far[0]", buffers.far[0].len(), n),
            ("far[1]", buffers.far[1].len(), n),
            ("state", buffers.state.len(), NEAR_FAR_STATE_WORDS),
        ],
    )
}
