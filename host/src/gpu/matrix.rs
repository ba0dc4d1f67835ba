//! DA2CF on adjacency matrices on the GPU (Martín et al. §5 and Fig. 7;
//! Ortega-Arranz et al., Tables I/II): the loop of [`super::da2cf`] with the
//! `relax` kernels of the matrix representation:
//!
//! - `relax`: [`Relax::Push`] is F^GPU on the matrix (`matrix_relax_f`: frontier
//!   rows, atomic minimum), [`Relax::Pull`] is U^GPU on the matrix
//!   (`matrix_relax_u`: unsettled columns, no atomics); both stage chunks of the
//!   vertex arrays in shared memory;
//! - `minimum`: `minimum1` + `minimum2` on the GPU, the few values left reduced
//!   on the host (for Crauser's general rule, of `dist + Δ_node`, with `Δ_node`
//!   the row minima computed once by `matrix_delta_node`; for the economic rule,
//!   `Δ_base` is added on the host);
//! - `initialize` and `update` (Martín's or Crauser's) are the list forms'
//!   kernels: they do not read the graph.
//!
//! The matrix takes `4·n²` bytes of device memory, checked against the free
//! memory before anything is allocated.

use cudarc::driver::CudaSlice;
use gpu_kernels::crauser::threshold;
use gpu_kernels::distance::INFINITY;
use gpu_kernels::launch::BLOCK_SIZE;
use gpu_kernels::reduce::num_blocks;

use super::memory::{alloc_zeroed, bytes_of, download_distances};
use super::vertex_loop::{self, VertexLoop};
use super::{Gpu, GpuSolver, RunStats, ThreadCount};
use crate::graph::{Graph, WeightKind, with_weight_type};
use crate::matrix::WeightMatrix;
pub use crate::variants::{Frontier, Relax};
use crate::{Error, Result};

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

/// DA2CF state on the device for one adjacency matrix.
pub struct MatrixDa2cf<'a> {
    gpu: &'a Gpu,
    relax: Relax,
    rule: Frontier,
    matrix: DeviceMatrix,
    /// Crauser general: the smallest weight leaving each vertex (row minima).
    delta_node: Option<CudaSlice<u32>>,
    /// Crauser economic: the smallest weight of the matrix.
    delta_base: u32,
    dist: CudaSlice<u32>,
    frontier: CudaSlice<u8>,
    unsettled: CudaSlice<u8>,
    minima1: CudaSlice<u32>,
    minima2: CudaSlice<u32>,
    host_minima: Vec<u32>,
    iterations: u32,
}

impl<'a> MatrixDa2cf<'a> {
    /// Device bytes of the solver state for `n` vertices (the matrix excluded):
    /// distances, `Δ_node`, two flag arrays and the block minima.
    pub fn state_bytes(n: usize) -> u64 {
        let (b1, b2) = minima_lengths(n);
        bytes_of::<u32>(2 * n) + 2 * bytes_of::<u8>(n) + bytes_of::<u32>(b1 + b2)
    }

    /// Builds the matrix of `graph` and prepares the solver for it: checks first
    /// that the matrix and the state fit in the free device memory, so that an
    /// impossible size fails before the host builds a matrix of `4·n²` bytes.
    pub fn from_graph(gpu: &'a Gpu, graph: &Graph, relax: Relax, rule: Frontier) -> Result<Self> {
        let n = graph.num_vertices();
        WeightMatrix::entries_for(n)?;
        gpu.check_fits(
            "the adjacency matrix and the DA2CF state",
            WeightMatrix::bytes_for(n) + Self::state_bytes(n),
        )?;
        Self::new(gpu, &WeightMatrix::from_graph(graph)?, relax, rule)
    }

    /// Uploads `matrix`, precomputes Crauser's `Δ` and allocates the state,
    /// after checking that it all fits ([`Error::OutOfMemory`] otherwise).
    /// `relax` is [`Relax::Push`] (F^GPU) or [`Relax::Pull`] (U^GPU).
    pub fn new(gpu: &'a Gpu, matrix: &WeightMatrix, relax: Relax, rule: Frontier) -> Result<Self> {
        if !matches!(relax, Relax::Push | Relax::Pull) {
            return Err(Error::InvalidArgument(format!(
                "{relax:?} relaxation does not exist on adjacency matrices"
            )));
        }
        let n = matrix.num_vertices();
        gpu.check_fits(
            "the adjacency matrix and the DA2CF state",
            matrix.bytes() + Self::state_bytes(n),
        )?;
        let device_matrix = DeviceMatrix::upload(gpu, matrix)?;
        let (b1, b2) = minima_lengths(n);
        let mut solver = MatrixDa2cf {
            gpu,
            relax,
            rule,
            matrix: device_matrix,
            delta_node: None,
            delta_base: matrix.min_weight(),
            dist: alloc_zeroed(gpu, n, "distances")?,
            frontier: alloc_zeroed(gpu, n, "frontier flags")?,
            unsettled: alloc_zeroed(gpu, n, "unsettled flags")?,
            minima1: alloc_zeroed(gpu, b1, "block minima")?,
            minima2: alloc_zeroed(gpu, b2, "block minima")?,
            host_minima: vec![0; b2],
            iterations: 0,
        };
        if rule == Frontier::CrauserGeneral {
            let mut delta_node = alloc_zeroed(gpu, n, "Δ_node")?;
            let m = &solver.matrix;
            gpu.kernels().matrix.delta_node(
                gpu.stream(),
                m.weights(),
                m.num_vertices(),
                &mut delta_node,
            )?;
            solver.delta_node = Some(delta_node);
        }
        Ok(solver)
    }

    /// The minimum of the unsettled vertices' values (distances, or distances
    /// plus `Δ_node`): `minimum1` and `minimum2` on the GPU, then the host.
    fn minimum(&mut self) -> Result<u32> {
        let (kernels, stream) = (self.gpu.kernels(), self.gpu.stream());
        let n = self.matrix.num_vertices();
        let (dist, unsettled) = (&self.dist, &self.unsettled);
        match &self.delta_node {
            Some(delta_node) => kernels.crauser.minimum1(
                stream,
                self.matrix.weight_kind(),
                dist,
                delta_node,
                unsettled,
                n,
                &mut self.minima1,
            )?,
            None => kernels
                .da2cf
                .minimum1(stream, dist, unsettled, n, &mut self.minima1)?,
        }
        let b1 = self.minima1.len() as u32;
        kernels
            .da2cf
            .minimum2(stream, &self.minima1, b1, &mut self.minima2)?;
        let host = &mut self.host_minima[..self.minima2.len()];
        stream
            .memcpy_dtoh(&self.minima2, host)
            .map_err(Error::cuda("copying the block minima to the host"))?;
        Ok(host.iter().copied().min().unwrap_or(INFINITY))
    }
}

impl<'a> VertexLoop<'a> for MatrixDa2cf<'a> {
    fn gpu(&self) -> &'a Gpu {
        self.gpu
    }

    fn num_vertices(&self) -> u32 {
        self.matrix.num_vertices()
    }

    fn reset(&mut self, source: u32) -> Result<()> {
        let n = self.matrix.num_vertices();
        if source >= n {
            return Err(Error::SourceOutOfRange {
                vertex: source as u64,
                num_vertices: n as usize,
            });
        }
        self.iterations = 0;
        let stream = self.gpu.stream();
        self.gpu.kernels().da2cf.initialize(
            stream,
            &mut self.dist,
            &mut self.frontier,
            &mut self.unsettled,
            n,
            source,
        )
    }

    fn step(&mut self) -> Result<bool> {
        self.iterations += 1;
        let (kernels, stream) = (self.gpu.kernels(), self.gpu.stream());
        let (n, kind) = (self.matrix.num_vertices(), self.matrix.weight_kind());
        let (dist, frontier, unsettled) = (&mut self.dist, &self.frontier, &self.unsettled);
        match self.relax {
            Relax::Pull => {
                kernels
                    .matrix
                    .relax_u(stream, &self.matrix, dist, frontier, unsettled)?
            }
            _ => kernels
                .matrix
                .relax_f(stream, &self.matrix, dist, frontier, unsettled)?,
        }
        let minimum = self.minimum()?;
        let limit = match self.rule {
            Frontier::Martin | Frontier::CrauserGeneral => minimum,
            Frontier::CrauserEconomic => with_weight_type!(kind, W => {
                threshold::<W>(minimum, self.delta_base)
            }),
        };
        if limit == INFINITY {
            // Nothing reached is left unsettled that could still change: with
            // Crauser's rule, what remains has no outgoing edge or is unreached.
            return Ok(true);
        }
        let (dist, frontier, unsettled) = (&self.dist, &mut self.frontier, &mut self.unsettled);
        match self.rule {
            Frontier::Martin => kernels
                .da2cf
                .update(stream, dist, frontier, unsettled, n, limit)?,
            _ => kernels
                .crauser
                .update(stream, dist, frontier, unsettled, n, limit)?,
        }
        Ok(false)
    }

    fn iterations(&self) -> u32 {
        self.iterations
    }

    fn relax_flags(&self) -> &CudaSlice<u8> {
        if self.relax.is_pull() {
            &self.unsettled
        } else {
            &self.frontier
        }
    }
}

impl GpuSolver for MatrixDa2cf<'_> {
    fn run(&mut self, source: u32) -> Result<RunStats> {
        vertex_loop::run(self, source)
    }

    fn distances(&self) -> Result<Vec<u32>> {
        download_distances(
            self.gpu,
            &self.dist,
            self.num_vertices(),
            self.matrix.weight_kind(),
        )
    }

    fn count_working_threads(&mut self, source: u32) -> Result<Option<ThreadCount>> {
        vertex_loop::count_working_threads(self, source).map(Some)
    }
}

/// Lengths of the per-block minima of the first and second pass for `n` vertices.
fn minima_lengths(n: usize) -> (usize, usize) {
    let b1 = num_blocks(n, BLOCK_SIZE as usize).max(1);
    (b1, num_blocks(b1, BLOCK_SIZE as usize).max(1))
}
