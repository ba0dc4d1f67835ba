//! The kernels of DA2CF on adjacency matrices (Martín et al. §5, Ortega-Arranz
//! et al.), one method each. The matrix is `n * n` `u32`s, row-major.

use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchConfig};
use gpu_kernels::args::{MatrixDeltaNodeArgs, MatrixRelaxArgs};
use gpu_kernels::launch::{MATRIX_RELAX_F_SHARED_BYTES, MATRIX_RELAX_U_SHARED_BYTES, names};

use super::launch::{Launch, Typed, check_lengths, device, launch, load_function, one_thread_per};
use crate::Result;
use crate::gpu::device_graph::DeviceMatrix;
use crate::variants::Relax;

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

    /// One of the two relax kernels on the matrix, as `form` says:
    /// - [`Relax::Pull`], `relax_U` (U^GPU): unsettled vertices take the
    ///   minimum over their frontier predecessors down their column;
    /// - any other form, `relax_F` (F^GPU): frontier vertices lower their
    ///   unsettled successors along their row with an atomic minimum.
    pub fn relax(
        &self,
        form: Relax,
        stream: &Arc<CudaStream>,
        matrix: &DeviceMatrix,
        dist: &mut CudaSlice<u32>,
        (frontier, unsettled): (&CudaSlice<u8>, &CudaSlice<u8>),
    ) -> Result<()> {
        let (relax, shared_mem_bytes) = match form {
            Relax::Pull => (&self.relax_u, MATRIX_RELAX_U_SHARED_BYTES),
            _ => (&self.relax_f, MATRIX_RELAX_F_SHARED_BYTES),
        };
        let relax = (relax.of(matrix.weight_kind()), shared_mem_bytes);
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
        let args = MatrixDeltaNodeArgs {
            weights: device(stream, weights),
            n,
            delta_node: device(stream, delta_node),
        };
        let function = (&self.delta_node, kernel);
        // SAFETY: weights holds n * n elements and delta_node n (checked
        // above), as its `# Safety` section requires.
        unsafe { launch(stream, function, one_thread_per(n), &args, Launch::Plain) }
    }
}

/// Entries of an `n × n` matrix.
fn entries(n: u32) -> usize {
    n as usize * n as usize
}

/// The one launch of the two `relax` kernels, which share their arguments
/// ([`MatrixRelaxArgs`]) and a shape: one thread per
/// vertex, blocks of [`BLOCK_SIZE`](gpu_kernels::launch::BLOCK_SIZE) threads,
/// with the kernel's shared memory for that block size.
fn launch_relax(
    (function, shared_mem_bytes): ((&CudaFunction, &'static str), u32),
    stream: &Arc<CudaStream>,
    weights: &CudaSlice<u32>,
    n: u32,
    dist: &mut CudaSlice<u32>,
    frontier: &CudaSlice<u8>,
    unsettled: &CudaSlice<u8>,
) -> Result<()> {
    let kernel = function.1;
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
    let args = MatrixRelaxArgs {
        weights: device(stream, weights),
        n,
        dist: device(stream, dist),
        frontier: device(stream, frontier),
        unsettled: device(stream, unsettled),
    };
    // SAFETY: weights holds n * n elements and the vertex arrays n (checked
    // above); blocks of BLOCK_SIZE threads with the shared memory the kernel
    // needs for that block size (8 bytes of votes, then 5 bytes per thread for
    // relax_U, 1 for relax_F), as its `# Safety` section requires.
    unsafe { launch(stream, function, config, &args, Launch::Plain) }
}
