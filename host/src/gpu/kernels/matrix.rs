//! The kernels of DA2CF on adjacency matrices (Martín et al. §5, Ortega-Arranz
//! et al.), one method each. The matrix is `n * n` `u32`s, row-major.

use std::sync::Arc;

use cudarc::driver::{
    CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchConfig, PushKernelArg,
};
use gpu_kernels::launch::{MATRIX_RELAX_F_SHARED_BYTES, MATRIX_RELAX_U_SHARED_BYTES, names};

use super::{Typed, check_lengths, load_function, one_thread_per};
use crate::gpu::memory::DeviceMatrix;
use crate::{Error, Result};

/// The adjacency-matrix kernels.
pub struct MatrixKernels {
    relax_u: Typed,
    relax_f: Typed,
    delta_node: CudaFunction,
}

impl MatrixKernels {
    /// Resolves the adjacency-matrix kernels in `module`.
    pub fn load(module: &Arc<CudaModule>) -> Result<Self> {
        let function = |name| load_function(module, name);
        Ok(MatrixKernels {
            relax_u: Typed::load(module, names::MATRIX_RELAX_U)?,
            relax_f: Typed::load(module, names::MATRIX_RELAX_F)?,
            delta_node: function(names::MATRIX_DELTA_NODE)?,
        })
    }

    /// `relax_U` on the matrix (U^GPU): unsettled vertices take the minimum over
    /// their frontier predecessors down their column.
    pub fn relax_u(
        &self,
        stream: &Arc<CudaStream>,
        matrix: &DeviceMatrix,
        dist: &mut CudaSlice<u32>,
        frontier: &CudaSlice<u8>,
        unsettled: &CudaSlice<u8>,
    ) -> Result<()> {
        let (function, kernel) = self.relax_u.of(matrix.weight_kind());
        let relax = (function, kernel, MATRIX_RELAX_U_SHARED_BYTES);
        let (weights, n) = (matrix.weights(), matrix.num_vertices());
        launch_relax(relax, stream, weights, n, dist, frontier, unsettled)
    }

    /// `relax_F` on the matrix (F^GPU): frontier vertices lower their unsettled
    /// successors along their row with an atomic minimum.
    pub fn relax_f(
        &self,
        stream: &Arc<CudaStream>,
        matrix: &DeviceMatrix,
        dist: &mut CudaSlice<u32>,
        frontier: &CudaSlice<u8>,
        unsettled: &CudaSlice<u8>,
    ) -> Result<()> {
        let (function, kernel) = self.relax_f.of(matrix.weight_kind());
        let relax = (function, kernel, MATRIX_RELAX_F_SHARED_BYTES);
        let (weights, n) = (matrix.weights(), matrix.num_vertices());
        launch_relax(relax, stream, weights, n, dist, frontier, unsettled)
    }

    /// Crauser's `Δ_node` of every vertex: the minimum of its row.
    pub fn delta_node(
        &self,
        stream: &Arc<CudaStream>,
        weights: &CudaSlice<u32>,
        n: u32,
        delta_node: &mut CudaSlice<u32>,
    ) -> Result<()> {
        let kernel = names::MATRIX_DELTA_NODE;
        check_lengths(
            kernel,
            &[
                ("weights", weights.len(), entries(n)),
                ("delta_node", delta_node.len(), n as usize),
            ],
        )?;
        let mut launch = stream.launch_builder(&self.delta_node);
        launch.arg(weights).arg(&n).arg(delta_node);
        // SAFETY: arguments in the kernel's order and types (weights, n,
        // delta_node); weights holds n * n elements and delta_node n (checked
        // above), as its `# Safety` section requires.
        unsafe { launch.launch(one_thread_per(n)) }.map_err(Error::cuda(kernel))?;
        Ok(())
    }
}

/// Entries of an `n × n` matrix.
fn entries(n: u32) -> usize {
    n as usize * n as usize
}

/// The one launch of the two `relax` kernels, which share a signature,
/// `(weights, n, dist, frontier, unsettled)`, and a shape: one thread per
/// vertex, blocks of [`BLOCK_SIZE`](gpu_kernels::launch::BLOCK_SIZE) threads,
/// with the kernel's shared memory for that block size.
fn launch_relax(
    (function, kernel, shared_mem_bytes): (&CudaFunction, &str, u32),
    stream: &Arc<CudaStream>,
    weights: &CudaSlice<u32>,
    n: u32,
    dist: &mut CudaSlice<u32>,
    frontier: &CudaSlice<u8>,
    unsettled: &CudaSlice<u8>,
) -> Result<()> {
    check_lengths(
        kernel,
        &[
            ("weights", weights.len(), entries(n)),
            ("dist", dist.len(), n as usize),
            ("frontier", frontier.len(), n as usize),
            ("unsettled", unsettled.len(), n as usize),
        ],
    )?;
    let config = LaunchConfig {
        shared_mem_bytes,
        ..one_thread_per(n)
    };
    let mut launch = stream.launch_builder(function);
    launch
        .arg(weights)
        .arg(&n)
        .arg(dist)
        .arg(frontier)
        .arg(unsettled);
    // SAFETY: arguments in the kernel's order and types (weights, n, dist,
    // frontier, unsettled); weights holds n * n elements and the vertex arrays n
    // (checked above); blocks of BLOCK_SIZE threads with the shared memory the
    // kernel needs for that block size (8 bytes of votes, then 5 bytes per
    // thread for relax_U, 1 for relax_F), as its `# Safety` section requires.
    unsafe { launch.launch(config) }.map_err(Error::cuda(kernel))?;
    Ok(())
}
