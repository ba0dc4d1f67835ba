//! The kernels of the near-far solver, one method each.

use std::sync::Arc;

use cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchArgs, PushKernelArg,
};
use gpu_kernels::launch::{COMPACT_BLOCK_SIZE, NEAR_FAR_SHARED_BYTES, names};
use gpu_kernels::near_far::NEAR_FAR_STATE_WORDS;

use super::{LoopForm, Typed, check_lengths, grid_blocks, load_function, one_thread_per};
use crate::gpu::memory::DeviceGraph;
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
}

impl NearFarKernels {
    /// Resolves the near-far kernels in `module`.
    pub fn load(module: &Arc<CudaModule>) -> Result<Self> {
        Ok(NearFarKernels {
            initialize: load_function(module, names::NEAR_FAR_INITIALIZE)?,
            block_loop: Typed::load(module, names::NEAR_FAR_BLOCK_LOOP)?,
            grid_loop: Typed::load(module, names::NEAR_FAR_GRID_LOOP)?,
        })
    }

    /// The blocks of a `near_far_grid_loop` launch over `n` vertices for
    /// weights of `kind` (see `kernels::grid_blocks`).
    pub fn grid_blocks(&self, ctx: &Arc<CudaContext>, kind: WeightKind, n: u32) -> Result<u32> {
        let shape = (COMPACT_BLOCK_SIZE, NEAR_FAR_SHARED_BYTES);
        grid_blocks(ctx, self.grid_loop.of(kind), shape, n)
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
        let scalars = [n, graph.num_edges(), source, delta];
        let mut launch = stream.launch_builder(&self.initialize);
        push_arrays(&mut launch, graph, &scalars, buffers);
        launch.arg(&scalars[2]).arg(&scalars[3]);
        // SAFETY: arguments in the kernel's order and types (`push_arrays`,
        // then source and delta); a validated CSR of n vertices and m edges;
        // the state arrays hold n >= 1 elements (source < n) and the state its
        // words (checked above).
        unsafe { launch.launch(one_thread_per(n)) }.map_err(Error::cuda(kernel))?;
        Ok(())
    }

    /// A loop launch (`near_far_block_loop` or `near_far_grid_loop`): resumes
    /// the solve in `buffers` until convergence or until the waiting work
    /// leaves `min_work..=max_work`. The grid form zeroes the barrier first.
    #[allow(clippy::too_many_arguments)]
    pub fn run_loop(
        &self,
        stream: &Arc<CudaStream>,
        graph: &DeviceGraph,
        buffers: &mut NearFarBuffers,
        delta: u32,
        (min_work, max_work): (u32, u32),
        form: LoopForm,
    ) -> Result<()> {
        let (function, kernel) = match form {
            LoopForm::Block => self.block_loop.of(graph.weight_kind()),
            LoopForm::Grid { .. } => self.grid_loop.of(graph.weight_kind()),
        };
        let n = graph.num_vertices();
        check_state_lengths(kernel, n, buffers)?;
        let config = form.prepare(stream, kernel, &mut buffers.barrier, NEAR_FAR_SHARED_BYTES)?;
        let scalars = [n, graph.num_edges(), delta, min_work, max_work];
        let mut launch = stream.launch_builder(function);
        let barrier = push_arrays(&mut launch, graph, &scalars, buffers);
        launch.arg(&scalars[2]).arg(&scalars[3]).arg(&scalars[4]);
        match form {
            LoopForm::Block => {
                // SAFETY: arguments in the kernel's order and types
                // (`push_arrays`, then delta and the limits); a validated CSR
                // of n vertices and m edges; the state arrays hold n elements
                // and the state its words (checked above), left by
                // `initialize` or a loop launch of the same solve; one block
                // with NEAR_FAR_SHARED_BYTES of shared memory.
                unsafe { launch.launch(config) }.map_err(Error::cuda(kernel))?;
            }
            LoopForm::Grid { .. } => {
                launch.arg(barrier);
                // SAFETY: as for the block form, plus the barrier, zeroed on
                // this stream just before; the launch is cooperative, so the
                // driver runs it only if all blocks can be co-resident, as the
                // grid barrier requires.
                unsafe { launch.launch_cooperative(config) }.map_err(Error::cuda(kernel))?;
            }
        }
        Ok(())
    }
}

/// Pushes the arguments every near-far kernel starts with (the graph, `n`,
/// `m` from `scalars[0..2]`, the state arrays, the state); returns the barrier
/// buffer, which only the grid loop takes after its scalars.
fn push_arrays<'a>(
    launch: &mut LaunchArgs<'a>,
    graph: &'a DeviceGraph,
    scalars: &'a [u32],
    buffers: &'a mut NearFarBuffers,
) -> &'a mut CudaSlice<u32> {
    let [near0, near1] = &mut buffers.near;
    let [far0, far1] = &mut buffers.far;
    launch
        .arg(graph.offsets())
        .arg(graph.targets())
        .arg(graph.weights())
        .arg(&scalars[0])
        .arg(&scalars[1])
        .arg(&mut buffers.dist)
        .arg(&mut buffers.stamp)
        .arg(&mut buffers.far_stamp)
        .arg(near0)
        .arg(near1)
        .arg(far0)
        .arg(far1)
        .arg(&mut buffers.state);
    &mut buffers.barrier
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
