//! DA2CF on adjacency matrices on the GPU (Martín et al. §5 and Fig. 7;
//! Ortega-Arranz et al., Tables I/II): the loop of [`super::vertex_loop`] with the
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

use super::context::Gpu;
pub use super::memory::DeviceMatrix;
use super::memory::alloc_zeroed;
use super::vertex_loop::{RelaxArrays, RelaxGraph, VertexSolver, VertexState};
use crate::graph::Graph;
use crate::matrix::WeightMatrix;
pub use crate::variants::{Frontier, Relax};
use crate::{Error, Result};

/// DA2CF on the device for one adjacency matrix.
pub type MatrixDa2cf<'a> = VertexSolver<'a, DeviceMatrix>;

impl<'a> MatrixDa2cf<'a> {
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
        let device_matrix = DeviceMatrix::upload(gpu.stream(), matrix)?;
        let n = device_matrix.num_vertices();
        let mut state =
            VertexState::new(gpu, n, matrix.weight_kind(), (rule, matrix.min_weight()), 2)?;
        if rule == Frontier::CrauserGeneral {
            let mut delta_node = alloc_zeroed(gpu, n as usize, "Δ_node")?;
            gpu.kernels().matrix.delta_node(
                gpu.stream(),
                device_matrix.weights(),
                n,
                &mut delta_node,
            )?;
            state.set_delta_node(delta_node);
        }
        Ok(VertexSolver::from_parts(gpu, relax, device_matrix, state))
    }
}

impl RelaxGraph for DeviceMatrix {
    /// `form` is [`Relax::Push`] or [`Relax::Pull`] (checked by
    /// [`MatrixDa2cf::new`]).
    fn relax(&self, gpu: &Gpu, form: Relax, a: RelaxArrays<'_>) -> Result<()> {
        let (kernels, stream) = (&gpu.kernels().matrix, gpu.stream());
        let (dist, frontier, unsettled) = (a.dist, a.frontier, a.unsettled);
        kernels.relax(form, stream, self, dist, (frontier, unsettled))
    }
}
