//! "Algorithm 1: dijkstra GPU SSSP" (paper `001`) on the GPU: a
//! Bellman-Ford-style loop that runs whole inside one kernel launch per solve.
//! Each round, the vertices whose distance changed in the last round push
//! `dist + w` into `predist` with an atomic minimum; after a barrier each vertex
//! takes the smaller `predist` into `dist`; the loop ends after a round that
//! changes nothing. The kernel writes the number of rounds, reported as the
//! iterations.
//!
//! Two forms ([`BellmanFordForm`]): the paper's, on one block with block barriers,
//! and one over all the blocks the device can hold at once, with a grid-wide
//! barrier (cooperative launch).

use gpu_kernels::launch::{BELLMAN_FORD_FLAG_WORDS, GRID_BARRIER_WORDS};

use super::context::Gpu;
use super::kernels::BellmanFordBuffers;
use super::memory::{DeviceGraph, alloc_zeroed, bytes_of, download_distances, download_words};
use super::solver::{GpuSolver, RunStats};
use crate::Result;
use crate::distances::check_source_of;
use crate::graph::Graph;

/// Which threads run the loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BellmanFordForm {
    /// As the paper writes it: one block of
    /// [`BELLMAN_FORD_BLOCK_SIZE`](gpu_kernels::launch::BELLMAN_FORD_BLOCK_SIZE) threads, `__syncthreads()` between phases,
    /// the round flags in shared memory.
    Block,
    /// The whole grid (as many blocks as can be co-resident, and no more than
    /// the vertices need), a grid-wide barrier between phases, the round flags
    /// in global memory.
    Grid,
}

/// The Bellman-Ford solver for one graph: its successor CSR and state on the
/// device.
pub struct BellmanFord<'a> {
    gpu: &'a Gpu,
    form: BellmanFordForm,
    graph: DeviceGraph,
    buffers: BellmanFordBuffers,
    /// Blocks of a grid-form launch (1 for the block form).
    blocks: u32,
}

impl<'a> BellmanFord<'a> {
    /// Device bytes of the solver state for `n` vertices (the graph excluded).
    pub fn state_bytes(n: usize) -> u64 {
        bytes_of::<u32>(2 * n)
            + bytes_of::<u8>(n)
            + bytes_of::<u32>(BELLMAN_FORD_FLAG_WORDS + GRID_BARRIER_WORDS + 1)
    }

    /// Uploads the successor CSR of `graph` and allocates the state, after
    /// checking that it fits; for the grid form, sizes the grid.
    pub fn new(gpu: &'a Gpu, graph: &Graph, form: BellmanFordForm) -> Result<Self> {
        let n = graph.num_vertices();
        gpu.check_fits(
            "the graph and the Bellman-Ford state",
            DeviceGraph::bytes_needed(n, graph.num_edges()) + Self::state_bytes(n),
        )?;
        let device_graph = DeviceGraph::upload(gpu.stream(), graph)?;
        let buffers = BellmanFordBuffers {
            dist: alloc_zeroed(gpu, n, "distances")?,
            predist: alloc_zeroed(gpu, n, "tentative distances")?,
            changed: alloc_zeroed(gpu, n, "changed flags")?,
            flags: alloc_zeroed(gpu, BELLMAN_FORD_FLAG_WORDS, "round flags")?,
            barrier: alloc_zeroed(gpu, GRID_BARRIER_WORDS, "the grid barrier")?,
            rounds: alloc_zeroed(gpu, 1, "the round count")?,
        };
        let blocks = match form {
            BellmanFordForm::Block => 1,
            BellmanFordForm::Grid => gpu.kernels().bellman_ford.grid_blocks(
                gpu.stream().context(),
                graph.weight_kind(),
                device_graph.num_vertices(),
            )?,
        };
        Ok(BellmanFord {
            gpu,
            form,
            graph: device_graph,
            buffers,
            blocks,
        })
    }

    /// The form this solver runs.
    pub fn form(&self) -> BellmanFordForm {
        self.form
    }

    /// Blocks per launch: 1 for the block form, the co-resident blocks that the
    /// vertices need for the grid form.
    pub fn blocks(&self) -> u32 {
        self.blocks
    }
}

impl GpuSolver for BellmanFord<'_> {
    fn run(&mut self, source: u32) -> Result<RunStats> {
        check_source_of(source as u64, self.graph.num_vertices() as usize)?;
        let (kernels, stream) = (&self.gpu.kernels().bellman_ford, self.gpu.stream());
        let ((), solve_ms) = self.gpu.timed(|| match self.form {
            BellmanFordForm::Block => kernels.block(stream, &self.graph, source, &mut self.buffers),
            BellmanFordForm::Grid => self.gpu.cooperative(|| {
                kernels.grid(stream, &self.graph, source, &mut self.buffers, self.blocks)
            }),
        })?;
        let [rounds] = download_words(self.gpu, &self.buffers.rounds, "the round count")?;
        Ok(RunStats {
            iterations: rounds,
            solve_ms,
        })
    }

    fn distances(&self) -> Result<Vec<u32>> {
        let (n, kind) = (self.graph.num_vertices(), self.graph.weight_kind());
        download_distances(self.gpu, &self.buffers.dist, n, kind)
    }
}
