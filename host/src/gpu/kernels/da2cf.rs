//! The DA2CF kernels (Martín et al., Fig. 2–4), one method each.

use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchConfig};
use gpu_kernels::args::{Da2cfMinimum1Args, Da2cfMinimum2Args, Da2cfRelaxArgs, VertexFlagsArgs};
use gpu_kernels::launch::{RELAX_PLUS_SHARED_BYTES, names};

use super::launch::{
    Launch, Typed, check_vertex_lengths, device, launch, launch_minimum, load_function,
    one_thread_per,
};
use crate::Result;
use crate::gpu::device_graph::DeviceGraph;
use crate::variants::Relax;

/// The DA2CF kernels.
pub struct Da2cfKernels {
    /// `initialize` (Fig. 2) of all `n = dist.len()` vertices for the source
    /// (the launch's value).
    pub initialize: VertexFlagsKernel,
    relax_f: Typed,
    relax_f_no_atomic: Typed,
    relax_u: Typed,
    relax_u_plus: Typed,
    minimum1: CudaFunction,
    minimum2: CudaFunction,
    /// `update` (Fig. 4): the unsettled vertices at distance `mssp` (the
    /// launch's value) become the frontier.
    pub update: VertexFlagsKernel,
}

impl Da2cfKernels {
    /// Resolves the DA2CF kernels in `module`.
    pub fn load(module: &Arc<CudaModule>) -> Result<Self> {
        let function = |name| load_function(module, name);
        Ok(Da2cfKernels {
            initialize: VertexFlagsKernel::load(module, names::DA2CF_INITIALIZE)?,
            relax_f: Typed::load(module, names::DA2CF_RELAX_F)?,
            relax_f_no_atomic: Typed::load(module, names::DA2CF_RELAX_F_NO_ATOMIC)?,
            relax_u: Typed::load(module, names::DA2CF_RELAX_U)?,
            relax_u_plus: Typed::load(module, names::DA2CF_RELAX_U_PLUS)?,
            minimum1: function(names::DA2CF_MINIMUM1)?,
            minimum2: function(names::DA2CF_MINIMUM2)?,
            update: VertexFlagsKernel::load(module, names::DA2CF_UPDATE)?,
        })
    }

    /// One of the four relax kernels (Fig. 3), as `form` says:
    /// - [`Relax::Push`], `relax_F`: frontier vertices relax their unsettled
    ///   successors (`graph` is the successor CSR);
    /// - [`Relax::PushNoAtomic`], `relax_F` with a plain, racy minimum
    ///   (F^GPU_no_Atomic): measurement only;
    /// - [`Relax::Pull`], `relax_U`: unsettled vertices pull from frontier
    ///   predecessors (`graph` is the predecessor CSR);
    /// - [`Relax::PullPlus`], `relax_U` of U^GPU_PLUS: offsets staged in
    ///   shared memory, frontier flags through the read-only cache.
    pub fn relax(
        &self,
        form: Relax,
        stream: &Arc<CudaStream>,
        graph: &DeviceGraph,
        dist: &mut CudaSlice<u32>,
        (frontier, unsettled): (&CudaSlice<u8>, &CudaSlice<u8>),
    ) -> Result<()> {
        let relax = match form {
            Relax::Push => (&self.relax_f, 0),
            Relax::PushNoAtomic => (&self.relax_f_no_atomic, 0),
            Relax::Pull => (&self.relax_u, 0),
            Relax::PullPlus => (&self.relax_u_plus, RELAX_PLUS_SHARED_BYTES),
        };
        launch_relax(relax, stream, graph, dist, frontier, unsettled)
    }

    /// `minimum1` (Fig. 4): per-block minima of the unsettled distances into
    /// `block_minima`, which must hold `reduce::num_blocks(n, BLOCK_SIZE)` values.
    pub fn minimum1(
        &self,
        stream: &Arc<CudaStream>,
        dist: &CudaSlice<u32>,
        unsettled: &CudaSlice<u8>,
        n: u32,
        block_minima: &mut CudaSlice<u32>,
    ) -> Result<()> {
        let buffers = [("dist", dist.len()), ("unsettled", unsettled.len())];
        let args = Da2cfMinimum1Args {
            dist: device(stream, dist),
            unsettled: device(stream, unsettled),
            n,
            block_minima: device(stream, block_minima),
        };
        let function = (&self.minimum1, names::DA2CF_MINIMUM1);
        // SAFETY: `function` is `minimum1`; `args` points to `buffers` and
        // block_minima.
        unsafe { launch_minimum(stream, function, n, &buffers, block_minima.len(), &args) }
    }

    /// `minimum2`: the first `len` values of `values` reduced to per-block minima.
    pub fn minimum2(
        &self,
        stream: &Arc<CudaStream>,
        values: &CudaSlice<u32>,
        len: u32,
        block_minima: &mut CudaSlice<u32>,
    ) -> Result<()> {
        let buffers = [("values", values.len())];
        let args = Da2cfMinimum2Args {
            values: device(stream, values),
            len,
            block_minima: device(stream, block_minima),
        };
        let function = (&self.minimum2, names::DA2CF_MINIMUM2);
        // SAFETY: `function` is `minimum2`; `args` points to `buffers` and
        // block_minima.
        unsafe { launch_minimum(stream, function, len, &buffers, block_minima.len(), &args) }
    }
}

/// A kernel that takes [`VertexFlagsArgs`] (`da2cf_initialize`,
/// `da2cf_update`, `crauser_update`): one thread per vertex over its distance
/// and flags, with one value.
pub struct VertexFlagsKernel {
    function: CudaFunction,
    name: &'static str,
}

impl VertexFlagsKernel {
    /// Resolves the kernel `name` in `module`.
    pub(super) fn load(module: &Arc<CudaModule>, name: &'static str) -> Result<Self> {
        let function = load_function(module, name)?;
        Ok(VertexFlagsKernel { function, name })
    }

    /// Launches the kernel over the `n` vertices' distances and flags, with
    /// `value` (`da2cf_initialize` also writes the distances).
    pub fn launch(
        &self,
        stream: &Arc<CudaStream>,
        dist: &CudaSlice<u32>,
        frontier: &mut CudaSlice<u8>,
        unsettled: &mut CudaSlice<u8>,
        n: u32,
        value: u32,
    ) -> Result<()> {
        let buffers = [
            ("dist", dist.len()),
            ("frontier", frontier.len()),
            ("unsettled", unsettled.len()),
        ];
        check_vertex_lengths(self.name, n, &buffers)?;
        let args = VertexFlagsArgs {
            dist: device(stream, dist),
            frontier: device(stream, frontier),
            unsettled: device(stream, unsettled),
            n,
            value,
        };
        let function = (&self.function, self.name);
        // SAFETY: `function` is one of the kernels of `VertexFlagsArgs`, and
        // every buffer holds n elements (checked above), as their `# Safety`
        // sections require.
        unsafe { launch(stream, function, one_thread_per(n), &args, Launch::Plain) }
    }
}

/// The one launch of the four `relax` kernels, which share their arguments
/// ([`Da2cfRelaxArgs`]).
fn launch_relax(
    (relax, shared_mem_bytes): (&Typed, u32),
    stream: &Arc<CudaStream>,
    graph: &DeviceGraph,
    dist: &mut CudaSlice<u32>,
    frontier: &CudaSlice<u8>,
    unsettled: &CudaSlice<u8>,
) -> Result<()> {
    let function = relax.of(graph.weight_kind());
    let kernel = function.1;
    let (n, m) = (graph.num_vertices(), graph.num_edges());
    let buffers = [
        ("dist", dist.len()),
        ("frontier", frontier.len()),
        ("unsettled", unsettled.len()),
    ];
    check_vertex_lengths(kernel, n, &buffers)?;
    let args = Da2cfRelaxArgs {
        offsets: device(stream, graph.offsets()),
        targets: device(stream, graph.targets()),
        weights: device(stream, graph.weights()),
        n,
        m,
        dist: device(stream, dist),
        frontier: device(stream, frontier),
        unsettled: device(stream, unsettled),
    };
    let config = LaunchConfig {
        shared_mem_bytes,
        ..one_thread_per(n)
    };
    // SAFETY: `function` is one of the four relax kernels; `DeviceGraph` holds
    // a validated CSR of n vertices and m edges, dist/frontier/unsettled hold n
    // elements (checked above), and `shared_mem_bytes` is what the kernel's
    // docs ask for.
    unsafe { launch(stream, function, config, &args, Launch::Plain) }
}
