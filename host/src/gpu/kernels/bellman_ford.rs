//! The kernels of "Algorithm 1: dijkstra GPU SSSP" (Bellman-Ford style), one
//! method each: the whole solve is one launch.

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaModule, CudaSlice, CudaStream, LaunchConfig};
use gpu_kernels::args::{BellmanFordBlockArgs, BellmanFordGridArgs};
use gpu_kernels::launch::{
    BELLMAN_FORD_BLOCK_SHARED_BYTES, BELLMAN_FORD_BLOCK_SIZE, BELLMAN_FORD_FLAG_WORDS, names,
};

use super::launch::{Launch, Typed, check_lengths, device, grid_blocks, launch, zero_grid_barrier};
use crate::Result;
use crate::gpu::device_graph::DeviceGraph;
use crate::graph::WeightKind;

/// The device state of a Bellman-Ford solve. The kernels initialize everything
/// but `barrier`, which [`BellmanFordKernels::grid`] zeroes before each launch.
pub struct BellmanFordBuffers {
    /// Distances, `n`.
    pub dist: CudaSlice<u32>,
    /// Tentative distances of the next round, `n`.
    pub predist: CudaSlice<u32>,
    /// "Changed in the last round" flags, `n`.
    pub changed: CudaSlice<u8>,
    /// The two round flags of the grid form
    /// ([`BELLMAN_FORD_FLAG_WORDS`]; the block form keeps them in shared memory).
    pub flags: CudaSlice<u32>,
    /// The grid barrier's state
    /// ([`GRID_BARRIER_WORDS`](gpu_kernels::launch::GRID_BARRIER_WORDS)).
    pub barrier: CudaSlice<u32>,
    /// The number of rounds of the last solve, 1 element.
    pub rounds: CudaSlice<u32>,
}

/// The Bellman-Ford kernels.
pub struct BellmanFordKernels {
    block: Typed,
    grid: Typed,
}

impl BellmanFordKernels {
    /// Resolves the Bellman-Ford kernels in `module`.
    pub fn load(module: &Arc<CudaModule>) -> Result<Self> {
        Ok(BellmanFordKernels {
            block: Typed::load(module, names::BELLMAN_FORD_BLOCK)?,
            grid: Typed::load(module, names::BELLMAN_FORD_GRID)?,
        })
    }

    /// The blocks of a `bellman_ford_grid` launch over `n` vertices for
    /// weights of `kind` (see `kernels::grid_blocks`).
    pub fn grid_blocks(&self, ctx: &Arc<CudaContext>, kind: WeightKind, n: u32) -> Result<u32> {
        grid_blocks(ctx, self.grid.of(kind), (BELLMAN_FORD_BLOCK_SIZE, 0), n)
    }

    /// `bellman_ford_block`: the paper's form, one block of
    /// [`BELLMAN_FORD_BLOCK_SIZE`] threads, from `source` over the successor CSR
    /// `graph`.
    pub fn block(
        &self,
        stream: &Arc<CudaStream>,
        graph: &DeviceGraph,
        source: u32,
        buffers: &mut BellmanFordBuffers,
    ) -> Result<()> {
        let function = self.block.of(graph.weight_kind());
        let kernel = function.1;
        check_state_lengths(kernel, graph.num_vertices(), buffers)?;
        let config = LaunchConfig {
            grid_dim: (1, 1, 1),
            block_dim: (BELLMAN_FORD_BLOCK_SIZE, 1, 1),
            shared_mem_bytes: BELLMAN_FORD_BLOCK_SHARED_BYTES,
        };
        let args = block_args(stream, graph, source, buffers);
        // SAFETY: `DeviceGraph` holds a validated CSR of n vertices and m
        // edges, dist/predist/changed hold n elements and rounds one (checked
        // above); one block, with the 8 bytes of dynamic shared memory its
        // round flags need.
        unsafe { launch(stream, function, config, &args, Launch::Plain) }
    }

    /// `bellman_ford_grid`: `blocks` blocks of [`BELLMAN_FORD_BLOCK_SIZE`]
    /// threads, launched cooperatively (all co-resident; at most
    /// [`BellmanFordKernels::grid_blocks`], or the launch fails), from
    /// `source` over the successor CSR `graph`. Zeroes the barrier state first.
    pub fn grid(
        &self,
        stream: &Arc<CudaStream>,
        graph: &DeviceGraph,
        source: u32,
        buffers: &mut BellmanFordBuffers,
        blocks: u32,
    ) -> Result<()> {
        let function = self.grid.of(graph.weight_kind());
        let kernel = function.1;
        check_state_lengths(kernel, graph.num_vertices(), buffers)?;
        check_lengths(
            kernel,
            &[("flags", buffers.flags.len(), BELLMAN_FORD_FLAG_WORDS)],
        )?;
        zero_grid_barrier(stream, kernel, &mut buffers.barrier, blocks)?;
        let config = LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (BELLMAN_FORD_BLOCK_SIZE, 1, 1),
            shared_mem_bytes: 0,
        };
        let args = BellmanFordGridArgs::new(
            block_args(stream, graph, source, buffers),
            device(stream, &buffers.flags),
            device(stream, &buffers.barrier),
        );
        // SAFETY: `DeviceGraph` holds a validated CSR of n vertices and m
        // edges, dist/predist/changed hold n elements, flags and barrier 2,
        // rounds one (checked above); the barrier was zeroed on this stream
        // just before; the launch is cooperative, so the driver runs it only if
        // all its blocks can be co-resident, as the grid barrier requires.
        unsafe { launch(stream, function, config, &args, Launch::Cooperative) }
    }
}

/// The block form's arguments, which the grid form's extend.
fn block_args(
    stream: &Arc<CudaStream>,
    graph: &DeviceGraph,
    source: u32,
    buffers: &BellmanFordBuffers,
) -> BellmanFordBlockArgs {
    BellmanFordBlockArgs {
        offsets: device(stream, graph.offsets()),
        targets: device(stream, graph.targets()),
        weights: device(stream, graph.weights()),
        n: graph.num_vertices(),
        m: graph.num_edges(),
        source,
        dist: device(stream, &buffers.dist),
        predist: device(stream, &buffers.predist),
        changed: device(stream, &buffers.changed),
        rounds: device(stream, &buffers.rounds),
    }
}

/// The lengths both kernels need: `n` for the per-vertex arrays, one round count.
fn check_state_lengths(kernel: &str, n: u32, buffers: &BellmanFordBuffers) -> Result<()> {
    let n = n as usize;
    check_lengths(
        kernel,
        &[
            ("dist", buffers.dist.len(), n),
            ("predist", buffers.predist.len(), n),
            ("changed", buffers.changed.len(), n),
            ("rounds", buffers.rounds.len(), 1),
        ],
    )
}
