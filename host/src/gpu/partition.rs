//! The partition-local solver on the GPU ([`gpu_kernels::partition`]), for
//! graphs of high diameter such as road networks, in resident mode: the graph
//! is cut into pieces on the CPU when the solver is prepared
//! ([`crate::partition`]), one persistent block per piece keeps the piece's
//! distances (and its edges, where every piece's still fit at once) in shared
//! memory, and the whole solve is one cooperative launch.
//! Graphs whose pieces cannot all be resident at once are refused (no paged
//! mode yet).

use gpu_kernels::launch::partition_shared_bytes;

use super::kernels::PartitionBuffers;
use super::memory::{DeviceGraph, alloc_zeroed, bytes_of, download_words};
use super::{Gpu, GpuSolver, RunStats};
use crate::distances::check_overflow;
use crate::graph::{Graph, with_weight_type};
use crate::partition::{Partitioning, partition};
use crate::reorder::Permutation;
use crate::{Error, Result};

/// The partition-local solver for one graph.
pub struct Partition<'a> {
    gpu: &'a Gpu,
    graph: DeviceGraph,
    buffers: PartitionBuffers,
    permutation: Permutation,
    piece_of: Vec<u32>,
    delta: u32,
}

impl<'a> Partition<'a> {
    /// Cuts `graph` into pieces sized for the device's shared memory
    /// ([`PartitionKernels::resident_capacity`](super::kernels::PartitionKernels::resident_capacity)),
    /// uploads the renumbered graph and allocates the state; window width
    /// `delta`, or the one derived from the weights when `None`
    /// ([`gpu_kernels::partition::auto_delta`]).
    pub fn new(gpu: &'a Gpu, graph: &Graph, delta: Option<u32>) -> Result<Self> {
        let delta = match delta {
            Some(0) => {
                return Err(Error::InvalidArgument(
                    "the partition solver's window width Δ must be positive".into(),
                ));
            }
            Some(delta) => delta,
            None => with_weight_type!(graph.weight_kind(), W => {
                gpu_kernels::partition::auto_delta::<W>(graph.csr())
            }),
        };
        let n = u32::try_from(graph.num_vertices()).map_err(|_| {
            Error::InvalidArgument("the graph's vertices do not fit 32-bit ids".into())
        })?;
        let kernels = &gpu.kernels().partition;
        let capacity = kernels.resident_capacity(gpu.stream().context(), graph.weight_kind(), n)?;
        let parts = partition(graph, capacity as usize)?;
        let k = parts.pieces();
        // The pieces' edges go to shared memory too when every block still
        // fits at once with them (0 edges: no edge area at all).
        let most_edges = parts.most_edges().max(1);
        let with_edges = partition_shared_bytes(capacity, most_edges);
        let context = gpu.stream().context();
        let edge_capacity =
            if kernels.all_resident(context, graph.weight_kind(), with_edges, k as u32)? {
                most_edges
            } else {
                0
            };
        let Partitioning {
            permutation,
            graph: renumbered,
            starts,
            boundary_ends,
            piece_of,
        } = parts;
        gpu.check_fits(
            "the graph and the partition solver's state",
            DeviceGraph::bytes_needed(renumbered.num_vertices(), renumbered.num_edges())
                + bytes_of::<u32>(3 * n as usize + 3 * k + 3),
        )?;
        let device_graph = DeviceGraph::upload(gpu, &renumbered)?;
        let stream = gpu.stream();
        let upload = |data: &[u32], what: &str| {
            if data.is_empty() {
                alloc_zeroed(gpu, 1, what)
            } else {
                stream
                    .clone_htod(data)
                    .map_err(Error::cuda(format!("copying {what} to the GPU")))
            }
        };
        let buffers = PartitionBuffers {
            starts: upload(&starts, "the pieces' starts")?,
            boundary_ends: upload(&boundary_ends, "the pieces' boundaries")?,
            piece_of: upload(&piece_of, "the vertices' pieces")?,
            dist: alloc_zeroed(gpu, n as usize, "distances")?,
            notify: alloc_zeroed(gpu, k, "notification words")?,
            counters: alloc_zeroed(gpu, 2, "the partition solver's counters")?,
            pieces: k as u32,
            capacity,
            edge_capacity,
        };
        Ok(Partition {
            gpu,
            graph: device_graph,
            buffers,
            permutation,
            piece_of,
            delta,
        })
    }

    /// Pieces of the partition.
    pub fn pieces(&self) -> u32 {
        self.buffers.pieces
    }

    /// Largest piece size.
    pub fn capacity(&self) -> u32 {
        self.buffers.capacity
    }

    /// Whether the blocks keep their pieces' edges in shared memory (else
    /// they read the global CSR).
    pub fn edges_in_shared_memory(&self) -> bool {
        self.buffers.edge_capacity > 0
    }

    /// Initialize and solve; returns the most rounds a block ran.
    fn solve(&mut self, source: u32) -> Result<u32> {
        let new_source = self.permutation.new_id(source as usize) as u32;
        let source_piece = self.piece_of[new_source as usize];
        let (kernels, stream) = (&self.gpu.kernels().partition, self.gpu.stream());
        kernels.initialize(stream, &self.graph, &mut self.buffers, source_piece)?;
        self.gpu.cooperative(|| {
            kernels.solve(
                stream,
                &self.graph,
                &mut self.buffers,
                new_source,
                self.delta,
            )
        })?;
        let [_, rounds] = download_words::<2>(self.gpu, &self.buffers.counters, "the counters")?;
        Ok(rounds)
    }
}

impl GpuSolver for Partition<'_> {
    fn run(&mut self, source: u32) -> Result<RunStats> {
        let (gpu, n) = (self.gpu, self.graph.num_vertices() as usize);
        gpu.timed_solve(n, source, || self.solve(source))
    }

    fn distances(&self) -> Result<Vec<u32>> {
        let mut renumbered = self
            .gpu
            .stream()
            .clone_dtoh(&self.buffers.dist)
            .map_err(Error::cuda("copying the distances to the host"))?;
        renumbered.truncate(self.graph.num_vertices() as usize);
        let dist = self.permutation.map_distances_back(&renumbered);
        check_overflow(self.graph.weight_kind(), &dist)?;
        Ok(dist)
    }
}
