//! The kernels of the compacted, device-resident DA2CF, one method each.

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream};
use gpu_kernels::args::{CompactBlockLoopArgs, CompactGridLoopArgs, CompactInitializeArgs};
use gpu_kernels::compact::{COMPACT_SHARED_BYTES, LOOP_STATE_WORDS};
use gpu_kernels::launch::{COMPACT_BLOCK_SIZE, names};

use super::launch::{
    Launch, LoopForm, Typed, check_lengths, device, grid_blocks, launch, load_function,
    one_thread_per,
};
use crate::gpu::device_graph::DeviceGraph;
use crate::graph::WeightKind;
use crate::{Error, Result};

/// The device state of a compacted solve.
pub struct CompactBuffers {
    /// `Δ_node` per vertex (`n`) for Crauser's rule; for Martín's, one unused
    /// element (the kernels get length 0).
    pub delta_node: CudaSlice<u32>,
    /// Whether the rule is Crauser's (the kernels read `delta_node`).
    pub crauser: bool,
    /// Distances, `n`.
    pub dist: CudaSlice<u32>,
    /// The frontier list, `n`.
    pub frontier: CudaSlice<u32>,
    /// The reached-unsettled lists, `n` each.
    pub reached: [CudaSlice<u32>; 2],
    /// The loop state ([`LOOP_STATE_WORDS`]).
    pub state: CudaSlice<u32>,
    /// The grid barrier's state
    /// ([`GRID_BARRIER_WORDS`](gpu_kernels::launch::GRID_BARRIER_WORDS)).
    pub barrier: CudaSlice<u32>,
}

/// The compacted-DA2CF kernels.
pub struct CompactKernels {
    initialize: CudaFunction,
    block_loop: Typed,
    grid_loop: Typed,
}

impl CompactKernels {
    /// Resolves the compacted-DA2CF kernels in `module`.
    pub fn load(module: &Arc<CudaModule>) -> Result<Self> {
        Ok(CompactKernels {
            initialize: load_function(module, names::COMPACT_INITIALIZE)?,
            block_loop: Typed::load(module, names::COMPACT_BLOCK_LOOP)?,
            grid_loop: Typed::load(module, names::COMPACT_GRID_LOOP)?,
        })
    }

    /// The blocks of a `compact_grid_loop` launch over `n` vertices for weights
    /// of `kind` (see `kernels::grid_blocks`).
    pub fn grid_blocks(&self, ctx: &Arc<CudaContext>, kind: WeightKind, n: u32) -> Result<u32> {
        let shape = (COMPACT_BLOCK_SIZE, COMPACT_SHARED_BYTES);
        grid_blocks(ctx, self.grid_loop.of(kind), shape, n)
    }

    /// `compact_initialize`: a new solve from `source` (`source < n`).
    pub fn initialize(
        &self,
        stream: &Arc<CudaStream>,
        buffers: &mut CompactBuffers,
        n: u32,
        source: u32,
    ) -> Result<()> {
        let kernel = names::COMPACT_INITIALIZE;
        check_state_lengths(kernel, n, buffers)?;
        if source >= n {
            return Err(Error::Internal(format!(
                "{kernel}: source {source} of {n} vertices"
            )));
        }
        let args = CompactInitializeArgs {
            dist: device(stream, &buffers.dist),
            frontier: device(stream, &buffers.frontier),
            state: device(stream, &buffers.state),
            n,
            source,
        };
        let function = (&self.initialize, kernel);
        // SAFETY: dist and frontier hold n >= 1 elements (source < n), state
        // LOOP_STATE_WORDS (checked).
        unsafe { launch(stream, function, one_thread_per(n), &args, Launch::Plain) }
    }

    /// A loop launch (`compact_block_loop` or `compact_grid_loop`): resumes
    /// the solve in `buffers` and runs until convergence or until the frontier
    /// and `R` together leave `min_work..=max_work` vertices. The grid form
    /// zeroes the barrier first.
    pub fn run_loop(
        &self,
        stream: &Arc<CudaStream>,
        graph: &DeviceGraph,
        buffers: &mut CompactBuffers,
        work: (u32, u32),
        form: LoopForm,
    ) -> Result<()> {
        let function = match form {
            LoopForm::Block => self.block_loop.of(graph.weight_kind()),
            LoopForm::Grid { .. } => self.grid_loop.of(graph.weight_kind()),
        };
        let kernel = function.1;
        check_state_lengths(kernel, graph.num_vertices(), buffers)?;
        let config = form.prepare(stream, kernel, &mut buffers.barrier, COMPACT_SHARED_BYTES)?;
        let args = loop_args(stream, graph, buffers, work);
        match form {
            LoopForm::Block => {
                // SAFETY: a validated CSR of n vertices and m edges; the state
                // arrays hold n elements and the loop state its words (checked
                // above), left by `initialize` or a loop launch of the same
                // solve; one block of COMPACT_BLOCK_SIZE threads with
                // COMPACT_SHARED_BYTES of shared memory.
                unsafe { launch(stream, function, config, &args, Launch::Plain) }
            }
            LoopForm::Grid { .. } => {
                let args = CompactGridLoopArgs::new(args, device(stream, &buffers.barrier));
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
    buffers: &CompactBuffers,
    (min_work, max_work): (u32, u32),
) -> CompactBlockLoopArgs {
    let n = graph.num_vertices();
    CompactBlockLoopArgs {
        offsets: device(stream, graph.offsets()),
        targets: device(stream, graph.targets()),
        weights: device(stream, graph.weights()),
        n,
        m: graph.num_edges(),
        delta_node: device(stream, &buffers.delta_node),
        delta_node_len: if buffers.crauser { n } else { 0 },
        dist: device(stream, &buffers.dist),
        frontier: device(stream, &buffers.frontier),
        reached0: device(stream, &buffers.reached[0]),
        reached1: device(stream, &buffers.reached[1]),
        state: device(stream, &buffers.state),
        min_work,
        max_work,
    }
}

/// The lengths every compacted kernel needs.
fn check_state_lengths(kernel: &str, n: u32, buffers: &CompactBuffers) -> Result<()> {
    let n = n as usize;
    let mut lengths = vec![
        ("dist", buffers.dist.len(), n),
        ("frontier", buffers.frontier.len(), n),
        ("reached[0]", buffers.reached[0].len(), n),
        ("reached[1]", buffers.reached[1].len(), n),
        ("state", buffers.state.len(), LOOP_STATE_WORDS),
    ];
    if buffers.crauser {
        lengths.push(("delta_node", buffers.delta_node.len(), n));
    }
    check_lengths(kernel, &lengths)
}
