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
//! The loop is split Gunrock-style into `reset` (initialize), `step` (one
//! iteration, reporting convergence) and `run` (reset, steps, CUDA-event timing),
//! so that a device-resident loop can replace `step` without touching the rest.

use cudarc::driver::CudaSlice;
use gpu_kernels::crauser::threshold;
use gpu_kernels::distance::INFINITY;
use gpu_kernels::launch::BLOCK_SIZE;
use gpu_kernels::reduce::num_blocks;

use super::memory::{DeviceGraph, alloc_zeroed, bytes_of, download_distances};
use super::vertex_loop::{self, VertexLoop};
use super::{Gpu, GpuSolver, RunStats, ThreadCount};
use crate::graph::{Graph, with_weight_type};
use crate::variants::delta_base;
pub use crate::variants::{Frontier, Relax};
use crate::{Error, Result};

/// A DA2CF variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Da2cfConfig {
    /// The `relax` kernel.
    pub relax: Relax,
    /// The settling rule.
    pub frontier: Frontier,
    /// GPU passes of the minimum reduction: 1 or 2.
    pub minimum_passes: u8,
}

/// DA2CF state on the device for one graph.
pub struct Da2cf<'a> {
    gpu: &'a Gpu,
    config: Da2cfConfig,
    /// Successor CSR for push, predecessor CSR for pull.
    graph: DeviceGraph,
    /// Crauser general: the smallest weight leaving each vertex.
    delta_node: Option<CudaSlice<u32>>,
    /// Crauser economic: the smallest weight of the graph.
    delta_base: u32,
    dist: CudaSlice<u32>,
    frontier: CudaSlice<u8>,
    unsettled: CudaSlice<u8>,
    minima1: CudaSlice<u32>,
    minima2: CudaSlice<u32>,
    host_minima: Vec<u32>,
    iterations: u32,
}

impl<'a> Da2cf<'a> {
    /// Device bytes of the solver state for `n` vertices (the graph excluded).
    pub fn state_bytes(n: usize) -> u64 {
        let (b1, b2) = minima_lengths(n);
        bytes_of::<u32>(2 * n) + 2 * bytes_of::<u8>(n) + bytes_of::<u32>(b1 + b2)
    }

    /// Uploads what `config` needs of `graph` (its transpose for pull forms),
    /// precomputes Crauser's `Δ`, and allocates the state, after checking that it
    /// all fits.
    pub fn new(gpu: &'a Gpu, graph: &Graph, config: Da2cfConfig) -> Result<Self> {
        if !matches!(config.minimum_passes, 1 | 2) {
            return Err(Error::InvalidArgument(format!(
                "the minimum takes 1 or 2 GPU passes, not {}",
                config.minimum_passes
            )));
        }
        let n = graph.num_vertices();
        gpu.check_fits(
            "the graph and the DA2CF state",
            DeviceGraph::bytes_needed(n, graph.num_edges()) + Self::state_bytes(n),
        )?;
        let device_graph = if config.relax.is_pull() {
            DeviceGraph::upload(gpu, &graph.transpose())?
        } else {
            DeviceGraph::upload(gpu, graph)?
        };
        let (b1, b2) = minima_lengths(n);
        let mut solver = Da2cf {
            gpu,
            config,
            graph: device_graph,
            delta_node: None,
            delta_base: delta_base(graph.weights()),
            dist: alloc_zeroed(gpu, n, "distances")?,
            frontier: alloc_zeroed(gpu, n, "frontier flags")?,
            unsettled: alloc_zeroed(gpu, n, "unsettled flags")?,
            minima1: alloc_zeroed(gpu, b1, "block minima")?,
            minima2: alloc_zeroed(gpu, b2, "block minima")?,
            host_minima: vec![0; b1],
            iterations: 0,
        };
        if config.frontier == Frontier::CrauserGeneral {
            solver.delta_node = Some(solver.compute_delta_node()?);
        }
        Ok(solver)
    }

    /// Crauser's `Δ_node` on the GPU: from each vertex's own list (push form) or
    /// by an atomic minimum over predecessor lists (pull form).
    fn compute_delta_node(&self) -> Result<CudaSlice<u32>> {
        let (kernels, stream) = (&self.gpu.kernels().crauser, self.gpu.stream());
        let n = self.graph.num_vertices() as usize;
        if self.config.relax.is_pull() {
            let mut delta_node = stream
                .clone_htod(&vec![INFINITY; n.max(1)])
                .map_err(Error::cuda("initializing Δ_node"))?;
            kernels.delta_node_pred(stream, &self.graph, &mut delta_node)?;
            Ok(delta_node)
        } else {
            let mut delta_node = alloc_zeroed(self.gpu, n, "Δ_node")?;
            kernels.delta_node_succ(stream, &self.graph, &mut delta_node)?;
            Ok(delta_node)
        }
    }

    /// The minimum of the unsettled vertices' values (distances, or distances
    /// plus `Δ_node`): one or two GPU passes, then the host.
    fn minimum(&mut self) -> Result<u32> {
        let (kernels, stream) = (self.gpu.kernels(), self.gpu.stream());
        let n = self.graph.num_vertices();
        match &self.delta_node {
            Some(delta_node) => kernels.crauser.minimum1(
                stream,
                self.graph.weight_kind(),
                &self.dist,
                delta_node,
                &self.unsettled,
                n,
                &mut self.minima1,
            )?,
            None => {
                kernels
                    .da2cf
                    .minimum1(stream, &self.dist, &self.unsettled, n, &mut self.minima1)?
            }
        }
        let last = if self.config.minimum_passes == 2 {
            let b1 = self.minima1.len() as u32;
            kernels
                .da2cf
                .minimum2(stream, &self.minima1, b1, &mut self.minima2)?;
            &self.minima2
        } else {
            &self.minima1
        };
        let host = &mut self.host_minima[..last.len()];
        stream
            .memcpy_dtoh(last, host)
            .map_err(Error::cuda("copying the block minima to the host"))?;
        Ok(host.iter().copied().min().unwrap_or(INFINITY))
    }
}

impl<'a> VertexLoop<'a> for Da2cf<'a> {
    fn gpu(&self) -> &'a Gpu {
        self.gpu
    }

    fn num_vertices(&self) -> u32 {
        self.graph.num_vertices()
    }

    fn reset(&mut self, source: u32) -> Result<()> {
        let n = self.graph.num_vertices();
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
        let (graph, dist, frontier, unsettled) =
            (&self.graph, &mut self.dist, &self.frontier, &self.unsettled);
        match self.config.relax {
            Relax::Push => kernels
                .da2cf
                .relax_f(stream, graph, dist, frontier, unsettled)?,
            Relax::PushNoAtomic => kernels
                .da2cf
                .relax_f_no_atomic(stream, graph, dist, frontier, unsettled)?,
            Relax::Pull => kernels
                .da2cf
                .relax_u(stream, graph, dist, frontier, unsettled)?,
            Relax::PullPlus => kernels
                .da2cf
                .relax_u_plus(stream, graph, dist, frontier, unsettled)?,
        }
        let minimum = self.minimum()?;
        let limit = match self.config.frontier {
            Frontier::Martin | Frontier::CrauserGeneral => minimum,
            Frontier::CrauserEconomic => with_weight_type!(self.graph.weight_kind(), W => {
                threshold::<W>(minimum, self.delta_base)
            }),
        };
        if limit == INFINITY {
            // Nothing reached is left unsettled that could still change: with
            // Crauser's rule, what remains has no outgoing edge or is unreached.
            return Ok(true);
        }
        let n = self.graph.num_vertices();
        let (dist, frontier, unsettled) = (&self.dist, &mut self.frontier, &mut self.unsettled);
        match self.config.frontier {
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
        if self.config.relax.is_pull() {
            &self.unsettled
        } else {
            &self.frontier
        }
    }
}

impl GpuSolver for Da2cf<'_> {
    fn run(&mut self, source: u32) -> Result<RunStats> {
        vertex_loop::run(self, source)
    }

    fn distances(&self) -> Result<Vec<u32>> {
        download_distances(
            self.gpu,
            &self.dist,
            self.num_vertices(),
            self.graph.weight_kind(),
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
