//! Graphs in device memory: a CSR graph ([`DeviceGraph`]) and an adjacency
//! matrix ([`DeviceMatrix`]), uploaded on a stream.

use std::sync::Arc;

use cudarc::driver::{CudaSlice, CudaStream};

use super::buffers::{bytes_of, check_fits, upload};
use crate::graph::{Graph, WeightKind};
use crate::matrix::WeightMatrix;
use crate::{Error, Result};

/// A CSR graph in device memory.
pub struct DeviceGraph {
    offsets: CudaSlice<u32>,
    targets: CudaSlice<u32>,
    weights: CudaSlice<u32>,
    num_vertices: u32,
    num_edges: u32,
    weight_kind: WeightKind,
}

impl DeviceGraph {
    /// Device bytes that a graph of `n` vertices and `m` edges takes.
    pub fn bytes_needed(n: usize, m: usize) -> u64 {
        bytes_of::<u32>(n + 1) + 2 * bytes_of::<u32>(m)
    }

    /// Copies `graph` to the device, after checking that it fits.
    pub fn upload(stream: &Arc<CudaStream>, graph: &Graph) -> Result<DeviceGraph> {
        let (n, m) = (graph.num_vertices(), graph.num_edges());
        let too_large = |what: &str, count: usize| {
            Error::InvalidArgument(format!(
                "{count} {what} do not fit the kernels' 32-bit indices"
            ))
        };
        let num_vertices = u32::try_from(n).map_err(|_| too_large("vertices", n))?;
        let num_edges = u32::try_from(m).map_err(|_| too_large("edges", m))?;
        check_fits(stream, "the graph", Self::bytes_needed(n, m))?;
        Ok(DeviceGraph {
            offsets: upload(stream, graph.offsets(), "the graph's offsets")?,
            targets: upload(stream, graph.targets(), "the graph's targets")?,
            weights: upload(stream, graph.weights(), "the graph's weights")?,
            num_vertices,
            num_edges,
            weight_kind: graph.weight_kind(),
        })
    }

    /// What the weight words hold: it picks the kernels' instantiation.
    pub fn weight_kind(&self) -> WeightKind {
        self.weight_kind
    }

    /// Number of vertices.
    pub fn num_vertices(&self) -> u32 {
        self.num_vertices
    }

    /// Number of edges.
    pub fn num_edges(&self) -> u32 {
        self.num_edges
    }

    /// Row offsets, `n + 1` entries.
    pub fn offsets(&self) -> &CudaSlice<u32> {
        &self.offsets
    }

    /// Adjacent vertex of each edge (one padding element when `m = 0`).
    pub fn targets(&self) -> &CudaSlice<u32> {
        &self.targets
    }

    /// Weight of each edge (one padding element when `m = 0`).
    pub fn weights(&self) -> &CudaSlice<u32> {
        &self.weights
    }
}

/// A [`WeightMatrix`] in device memory.
pub struct DeviceMatrix {
    weights: CudaSlice<u32>,
    num_vertices: u32,
    weight_kind: WeightKind,
}

impl DeviceMatrix {
    /// Copies `matrix` to the device, after checking that its `4·n²` bytes fit
    /// in the free device memory ([`Error::OutOfMemory`] otherwise).
    pub fn upload(stream: &Arc<CudaStream>, matrix: &WeightMatrix) -> Result<DeviceMatrix> {
        let n = matrix.num_vertices();
        let num_vertices = u32::try_from(n).map_err(|_| {
            Error::InvalidArgument(format!(
                "{n} vertices do not fit the kernels' 32-bit indices"
            ))
        })?;
        check_fits(stream, "the adjacency matrix", matrix.bytes())?;
        let weights = if matrix.weights().is_empty() {
            stream.alloc_zeros::<u32>(1)
        } else {
            stream.clone_htod(matrix.weights())
        }
        .map_err(Error::cuda("copying the adjacency matrix to the GPU"))?;
        Ok(DeviceMatrix {
            weights,
            num_vertices,
            weight_kind: matrix.weight_kind(),
        })
    }

    /// What the weight words hold: it picks the kernels' instantiation.
    pub fn weight_kind(&self) -> WeightKind {
        self.weight_kind
    }

    /// Number of vertices `n`.
    pub fn num_vertices(&self) -> u32 {
        self.num_vertices
    }

    /// The `n * n` entries, row-major (one padding element when `n = 0`).
    pub fn weights(&self) -> &CudaSlice<u32> {
        &self.weights
    }
}
