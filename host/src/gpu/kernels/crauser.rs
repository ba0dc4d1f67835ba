//! The kernels of the GPU Crauser frontier (Ortega-Arranz et al.), one method each.

use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaModule, CudaSlice, CudaStream, PushKernelArg};
use gpu_kernels::launch::names;

use super::{Typed, check_lengths, load_function, minimum_launch, one_thread_per};
use crate::gpu::memory::DeviceGraph;
use crate::graph::WeightKind;
use crate::{Error, Result};

/// The Crauser kernels.
pub struct CrauserKernels {
    delta_node_succ: CudaFunction,
    delta_node_pred: CudaFunction,
    minimum1: Typed,
    update: CudaFunction,
}

impl CrauserKernels {
    /// Resolves the Crauser kernels in `module`.
    pub fn load(module: &Arc<CudaModule>) -> Result<Self> {
        let function = |name| load_function(module, name);
        Ok(CrauserKernels {
            delta_node_succ: function(names::CRAUSER_DELTA_NODE_SUCC)?,
            delta_node_pred: function(names::CRAUSER_DELTA_NODE_PRED)?,
            minimum1: Typed::load(module, names::CRAUSER_MINIMUM1)?,
            update: function(names::CRAUSER_UPDATE)?,
        })
    }

    /// `Δ_node` of every vertex from the successor CSR `graph`.
    pub fn delta_node_succ(
        &self,
        stream: &Arc<CudaStream>,
        graph: &DeviceGraph,
        delta_node: &mut CudaSlice<u32>,
    ) -> Result<()> {
        let kernel = names::CRAUSER_DELTA_NODE_SUCC;
        let (n, m) = (graph.num_vertices(), graph.num_edges());
        check_lengths(kernel, &[("delta_node", delta_node.len(), n as usize)])?;
        let mut launch = stream.launch_builder(&self.delta_node_succ);
        launch
            .arg(graph.offsets())
            .arg(graph.targets())
            .arg(graph.weights())
            .arg(&n)
            .arg(&m)
            .arg(delta_node);
        // SAFETY: arguments in the kernel's order and types; a validated CSR of n
        // vertices and m edges, and delta_node holds n elements (checked above).
        unsafe { launch.launch(one_thread_per(n)) }.map_err(Error::cuda(kernel))?;
        Ok(())
    }

    /// `Δ_node` of every vertex from the predecessor CSR `graph` (atomic
    /// minimum); `delta_node` must hold infinity everywhere before.
    pub fn delta_node_pred(
        &self,
        stream: &Arc<CudaStream>,
        graph: &DeviceGraph,
        delta_node: &mut CudaSlice<u32>,
    ) -> Result<()> {
        let kernel = names::CRAUSER_DELTA_NODE_PRED;
        let (n, m) = (graph.num_vertices(), graph.num_edges());
        check_lengths(kernel, &[("delta_node", delta_node.len(), n as usize)])?;
        let mut launch = stream.launch_builder(&self.delta_node_pred);
        launch
            .arg(graph.offsets())
            .arg(graph.targets())
            .arg(graph.weights())
            .arg(&n)
            .arg(&m)
            .arg(delta_node);
        // SAFETY: arguments in the kernel's order and types; a validated CSR of n
        // vertices and m edges, and delta_node holds n elements (checked above).
        unsafe { launch.launch(one_thread_per(n)) }.map_err(Error::cuda(kernel))?;
        Ok(())
    }

    /// General variant's `minimum1`: per-block minima of `dist + Δ_node` over
    /// unsettled vertices, the sums in the arithmetic of weights of `kind`.
    #[allow(clippy::too_many_arguments)]
    pub fn minimum1(
        &self,
        stream: &Arc<CudaStream>,
        kind: WeightKind,
        dist: &CudaSlice<u32>,
        delta_node: &CudaSlice<u32>,
        unsettled: &CudaSlice<u8>,
        n: u32,
        block_minima: &mut CudaSlice<u32>,
    ) -> Result<()> {
        let (function, kernel) = self.minimum1.of(kind);
        let config = minimum_launch(n);
        check_lengths(
            kernel,
            &[
                ("dist", dist.len(), n as usize),
                ("delta_node", delta_node.len(), n as usize),
                ("unsettled", unsettled.len(), n as usize),
                (
                    "block_minima",
                    block_minima.len(),
                    config.grid_dim.0 as usize,
                ),
            ],
        )?;
        let mut launch = stream.launch_builder(function);
        launch
            .arg(dist)
            .arg(delta_node)
            .arg(unsettled)
            .arg(&n)
            .arg(block_minima);
        // SAFETY: arguments in the kernel's order and types; the arrays hold n
        // elements and block_minima one per block (checked above); power-of-two
        // blocks with 4 bytes of shared memory per thread.
        unsafe { launch.launch(config) }.map_err(Error::cuda(kernel))?;
        Ok(())
    }

    /// Crauser's `update`: unsettled vertices with `dist <= delta` become the frontier.
    pub fn update(
        &self,
        stream: &Arc<CudaStream>,
        dist: &CudaSlice<u32>,
        frontier: &mut CudaSlice<u8>,
        unsettled: &mut CudaSlice<u8>,
        n: u32,
        delta: u32,
    ) -> Result<()> {
        let kernel = names::CRAUSER_UPDATE;
        let n_ = n as usize;
        check_lengths(
            kernel,
            &[
                ("dist", dist.len(), n_),
                ("frontier", frontier.len(), n_),
                ("unsettled", unsettled.len(), n_),
            ],
        )?;
        let mut launch = stream.launch_builder(&self.update);
        launch
            .arg(dist)
            .arg(frontier)
            .arg(unsettled)
            .arg(&n)
            .arg(&delta);
        // SAFETY: arguments in the kernel's order and types; every buffer holds n
        // elements (checked above).
        unsafe { launch.launch(one_thread_per(n)) }.map_err(Error::cuda(kernel))?;
        Ok(())
    }
}
