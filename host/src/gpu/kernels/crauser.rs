//! The kernels of the GPU Crauser frontier (Ortega-Arranz et al.), one method each.

use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaModule, CudaSlice, CudaStream};
use gpu_kernels::args::{CrauserDeltaNodeArgs, CrauserMinimum1Args};
use gpu_kernels::launch::names;

use super::da2cf::VertexFlagsKernel;
use super::launch::{
    Launch, Typed, check_vertex_lengths, device, launch, launch_minimum, load_function,
    one_thread_per,
};
use crate::Result;
use crate::gpu::device_graph::DeviceGraph;
use crate::graph::WeightKind;

/// The Crauser kernels.
pub struct CrauserKernels {
    delta_node_succ: CudaFunction,
    delta_node_pred: CudaFunction,
    minimum1: Typed,
    /// Crauser's `update`: unsettled vertices with `dist <= delta` (the
    /// launch's value) become the frontier.
    pub update: VertexFlagsKernel,
}

impl CrauserKernels {
    /// Resolves the Crauser kernels in `module`.
    pub fn load(module: &Arc<CudaModule>) -> Result<Self> {
        let function = |name| load_function(module, name);
        Ok(CrauserKernels {
            delta_node_succ: function(names::CRAUSER_DELTA_NODE_SUCC)?,
            delta_node_pred: function(names::CRAUSER_DELTA_NODE_PRED)?,
            minimum1: Typed::load(module, names::CRAUSER_MINIMUM1)?,
            update: VertexFlagsKernel::load(module, names::CRAUSER_UPDATE)?,
        })
    }

    /// `Δ_node` of every vertex from the successor CSR `graph`.
    pub fn delta_node_succ(
        &self,
        stream: &Arc<CudaStream>,
        graph: &DeviceGraph,
        delta_node: &mut CudaSlice<u32>,
    ) -> Result<()> {
        let function = (&self.delta_node_succ, names::CRAUSER_DELTA_NODE_SUCC);
        launch_delta_node(stream, function, graph, delta_node)
    }

    /// `Δ_node` of every vertex from the predecessor CSR `graph` (atomic
    /// minimum); `delta_node` must hold infinity everywhere before.
    pub fn delta_node_pred(
        &self,
        stream: &Arc<CudaStream>,
        graph: &DeviceGraph,
        delta_node: &mut CudaSlice<u32>,
    ) -> Result<()> {
        let function = (&self.delta_node_pred, names::CRAUSER_DELTA_NODE_PRED);
        launch_delta_node(stream, function, graph, delta_node)
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
        let buffers = [
            ("dist", dist.len()),
            ("delta_node", delta_node.len()),
            ("unsettled", unsettled.len()),
        ];
        let args = CrauserMinimum1Args {
            dist: device(stream, dist),
            delta_node: device(stream, delta_node),
            unsettled: device(stream, unsettled),
            n,
            block_minima: device(stream, block_minima),
        };
        let function = self.minimum1.of(kind);
        // SAFETY: `function` is Crauser's `minimum1`; `args` points to `buffers`
        // and block_minima.
        unsafe { launch_minimum(stream, function, n, &buffers, block_minima.len(), &args) }
    }
}

/// The one launch of the two `Δ_node` kernels, which share their arguments
/// ([`CrauserDeltaNodeArgs`]): one thread per vertex of `graph`.
fn launch_delta_node(
    stream: &Arc<CudaStream>,
    function: (&CudaFunction, &'static str),
    graph: &DeviceGraph,
    delta_node: &mut CudaSlice<u32>,
) -> Result<()> {
    let (n, m) = (graph.num_vertices(), graph.num_edges());
    check_vertex_lengths(function.1, n, &[("delta_node", delta_node.len())])?;
    let args = CrauserDeltaNodeArgs {
        offsets: device(stream, graph.offsets()),
        targets: device(stream, graph.targets()),
        weights: device(stream, graph.weights()),
        n,
        m,
        delta_node: device(stream, delta_node),
    };
    // SAFETY: `function` is one of the two `Δ_node` kernels; a validated CSR of
    // n vertices and m edges, and delta_node holds n elements (checked above).
    unsafe { launch(stream, function, one_thread_per(n), &args, Launch::Plain) }
}
