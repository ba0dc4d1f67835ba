//! The DA2CF loop (Martín et al., Fig. 2) on the GPU in all its list forms, and
//! Crauser's frontier (Ortega-Arranz et al.) on the same loop:
//!
//! - `relax`: push (`relax_F`, atomic minimum), push without atomics (measurement
//!   only), pull (`relax_U` over the predecessor CSR) or pull PLUS;
//! - `minimum`: `minimum1` on the GPU and the per-block minima reduced on the
//!   host (one pass), or `minimum1` + `minimum2` on the GPU and the few values
//!   left reduced on the host (two passes); for Crauser's general variant the
//!   reduced value is `dist + Δ_node`, for the economic one `Δ_base` is added on
//!   the host;
//! - `update`: the unsettled vertices at the minimum (Martín) or at most the
//!   threshold (Crauser) become the frontier.
//!
//! Everything but the graph and `relax` (the state, the loop, the measuring
//! mode) is shared with the matrix solver ([`super::vertex_loop`]).

use cudarc::driver::CudaSlice;
use gpu_kernels::distance::INFINITY;

use super::context::Gpu;
use super::memory::{DeviceGraph, alloc_zeroed};
use super::vertex_loop::{RelaxArrays, RelaxGraph, VertexSolver, VertexState};
use crate::graph::Graph;
use crate::variants::delta_base;
pub use crate::variants::{Da2cfConfig, Frontier, Relax};
use crate::{Error, Result};

/// DA2CF on the device for one graph's adjacency lists: successor CSR for
/// push, predecessor CSR for pull.
pub type Da2cf<'a> = VertexSolver<'a, DeviceGraph>;

impl<'a> Da2cf<'a> {
    /// Uploads what `config` needs of `graph` (its transpose for pull forms),
    /// precomputes Crauser's `Δ`, and allocates the state, after checking that it
    /// all fits.
    pub fn new(gpu: &'a Gpu, graph: &Graph, config: Da2cfConfig) -> Result<Self> {
        let n = graph.num_vertices();
        gpu.check_fits(
            "the graph and the DA2CF state",
            DeviceGraph::bytes_needed(n, graph.num_edges()) + Self::state_bytes(n),
        )?;
        let device_graph = if config.relax.is_pull() {
            DeviceGraph::upload(gpu.stream(), &graph.transpose())?
        } else {
            DeviceGraph::upload(gpu.stream(), graph)?
        };
        let mut state = VertexState::new(
            gpu,
            device_graph.num_vertices(),
            graph.weight_kind(),
            (config.frontier, delta_base(graph.weights())),
            config.minimum_passes,
        )?;
        if config.frontier == Frontier::CrauserGeneral {
            state.set_delta_node(delta_node(gpu, &device_graph, config.relax.is_pull())?);
        }
        Ok(VertexSolver::from_parts(
            gpu,
            config.relax,
            device_graph,
            state,
        ))
    }
}

/// Crauser's `Δ_node` on the GPU: from each vertex's own list (successor
/// `graph`) or by an atomic minimum over predecessor lists (`pull`).
fn delta_node(gpu: &Gpu, graph: &DeviceGraph, pull: bool) -> Result<CudaSlice<u32>> {
    let (kernels, stream) = (&gpu.kernels().crauser, gpu.stream());
    let n = graph.num_vertices() as usize;
    if pull {
        let mut delta_node = stream
            .clone_htod(&vec![INFINITY; n.max(1)])
            .map_err(Error::cuda("initializing Δ_node"))?;
        kernels.delta_node_pred(stream, graph, &mut delta_node)?;
        Ok(delta_node)
    } else {
        let mut delta_node = alloc_zeroed(gpu, n, "Δ_node")?;
        kernels.delta_node_succ(stream, graph, &mut delta_node)?;
        Ok(delta_node)
    }
}

impl RelaxGraph for DeviceGraph {
    fn relax(&self, gpu: &Gpu, form: Relax, a: RelaxArrays<'_>) -> Result<()> {
        let (kernels, stream) = (&gpu.kernels().da2cf, gpu.stream());
        let (dist, frontier, unsettled) = (a.dist, a.frontier, a.unsettled);
        kernels.relax(form, stream, self, dist, (frontier, unsettled))
    }
}
