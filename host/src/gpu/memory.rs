//! Device copies of graphs and device allocations that check free memory first.

use std::sync::Arc;

use cudarc::driver::{CudaSlice, CudaStream, DeviceRepr, ValidAsZeroBits};

use super::Gpu;
use crate::distances::check_overflow;
use crate::graph::{Graph, WeightKind};
use crate::matrix::WeightMatrix;
use crate::solver::Stop;
use crate::{Error, Result};

/// Bytes of `len` elements of `T`.
pub fn bytes_of<T>(len: usize) -> u64 {
    (len as u64).saturating_mul(size_of::<T>() as u64)
}

/// Copies `data` to a new device buffer. An empty `data` gets one zeroed element,
/// so that every kernel argument is a real allocation.
pub(crate) fn upload<T: DeviceRepr + ValidAsZeroBits + Copy>(
    stream: &Arc<CudaStream>,
    data: &[T],
    what: &str,
) -> Result<CudaSlice<T>> {
    let result = if data.is_empty() {
        stream.alloc_zeros::<T>(1)
    } else {
        stream.clone_htod(data)
    };
    result.map_err(Error::cuda(format!("copying {what} to the GPU")))
}

/// A zeroed device buffer of `len` elements (at least one).
pub fn alloc_zeroed<T: DeviceRepr + ValidAsZeroBits>(
    gpu: &Gpu,
    len: usize,
    what: &str,
) -> Result<CudaSlice<T>> {
    gpu.check_fits(what, bytes_of::<T>(len))?;
    gpu.stream()
        .alloc_zeros::<T>(len.max(1))
        .map_err(Error::cuda(format!("allocating {what}")))
}

/// The first `n` words of the device distances `dist` of a solve on a graph
/// of `kind` weights, copied to the host and checked for overflow
/// ([`crate::Error::DistanceOverflow`]).
pub fn download_distances(
    gpu: &Gpu,
    dist: &CudaSlice<u32>,
    n: u32,
    kind: WeightKind,
) -> Result<Vec<u32>> {
    download_bounded_distances(gpu, dist, (n, kind), Stop::default())
}

/// [`download_distances`] of a solve that stopped early as `stop` says:
/// bounded ([`Stop::apply`]) before the overflow check, since beyond the
/// bound the distances may be tentative.
pub fn download_bounded_distances(
    gpu: &Gpu,
    dist: &CudaSlice<u32>,
    (n, kind): (u32, WeightKind),
    stop: Stop,
) -> Result<Vec<u32>> {
    let mut host = gpu
        .stream()
        .clone_dtoh(dist)
        .map_err(Error::cuda("copying the distances to the host"))?;
    host.truncate(n as usize);
    stop.apply(&mut host);
    check_overflow(kind, &host)?;
    Ok(host)
}

/// The first `N` words of `buffer` (a small state, such as a loop's
/// counters), copied to the host; waits for the GPU. `what` names it in
/// errors.
pub fn download_words<const N: usize>(
    gpu: &Gpu,
    buffer: &CudaSlice<u32>,
    what: &str,
) -> Result<[u32; N]> {
    let mut words = [0u32; N];
    gpu.stream()
        .memcpy_dtoh(&buffer.slice(..N), &mut words)
        .map_err(Error::cuda(format!("copying {what} to the host")))?;
    Ok(words)
}

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
    pub fn upload(gpu: &Gpu, graph: &Graph) -> Result<DeviceGraph> {
        let (n, m) = (graph.num_vertices(), graph.num_edges());
        let too_large = |what: &str, count: usize| {
            Error::InvalidArgument(format!(
                "{count} {what} do not fit the kernels' 32-bit indices"
            ))
        };
        let num_vertices = u32::try_from(n).map_err(|_| too_large("vertices", n))?;
        let num_edges = u32::try_from(m).map_err(|_| too_large("edges", m))?;
        gpu.check_fits("the graph", Self::bytes_needed(n, m))?;
        let stream = gpu.stream();
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

    /// The device distances `dist` of a solve on this graph, downloaded and
    /// checked ([`download_distances`]).
    pub fn download_distances(&self, gpu: &Gpu, dist: &CudaSlice<u32>) -> Result<Vec<u32>> {
        download_distances(gpu, dist, self.num_vertices, self.weight_kind)
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
    pub fn upload(gpu: &Gpu, matrix: &WeightMatrix) -> Result<DeviceMatrix> {
        let n = matrix.num_vertices();
        let num_vertices = u32::try_from(n).map_err(|_| {
            Error::InvalidArgument(format!(
                "{n} vertices do not fit the kernels' 32-bit indices"
            ))
        })?;
        gpu.check_fits("the adjacency matrix", matrix.bytes())?;
        let stream = gpu.stream();
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
