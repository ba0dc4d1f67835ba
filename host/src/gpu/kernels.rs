//! Every kernel of the PTX module, resolved once, with one method per kernel.
//! Each method checks the lengths of its buffers, then holds the only `unsafe`
//! launch of that kernel.

use std::sync::Arc;

use cudarc::driver::{
    CudaContext, CudaFunction, CudaSlice, CudaStream, LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::Ptx;
use gpu_kernels::launch::{BLOCK_SIZE, MINIMUM_SHARED_BYTES, names};
use gpu_kernels::reduce;

use super::memory::DeviceGraph;
use super::ptx::PTX;
use crate::{Error, Result};

/// The kernels of [`gpu_kernels`], ready to launch.
pub struct Kernels {
    da2cf_initialize: CudaFunction,
    da2cf_relax_f: CudaFunction,
    da2cf_minimum1: CudaFunction,
    da2cf_minimum2: CudaFunction,
    da2cf_update: CudaFunction,
}

/// One thread per item, [`BLOCK_SIZE`] threads per block.
fn one_thread_per(items: u32) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (items.div_ceil(BLOCK_SIZE).max(1), 1, 1),
        block_dim: (BLOCK_SIZE, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// A `minimum` launch over `len` values: one block per `2 * BLOCK_SIZE` values.
fn minimum_launch(len: u32) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (
            reduce::num_blocks(len as usize, BLOCK_SIZE as usize).max(1) as u32,
            1,
            1,
        ),
        block_dim: (BLOCK_SIZE, 1, 1),
        shared_mem_bytes: MINIMUM_SHARED_BYTES,
    }
}

/// Fails unless each buffer has at least the length the kernel will index.
fn check_lengths(kernel: &str, buffers: &[(&str, usize, usize)]) -> Result<()> {
    for &(name, len, needed) in buffers {
        if len < needed {
            return Err(Error::InvalidArgument(format!(
                "{kernel}: buffer `{name}` holds {len} elements, the launch needs {needed}"
            )));
        }
    }
    Ok(())
}

impl Kernels {
    /// Loads the PTX into `ctx` (the driver compiles it for the device) and
    /// resolves every kernel by its name from [`names`].
    pub fn load(ctx: &Arc<CudaContext>) -> Result<Kernels> {
        let module = ctx
            .load_module(Ptx::from_src(PTX))
            .map_err(Error::cuda("loading the PTX module of the kernels"))?;
        let function = |name: &str| {
            module.load_function(name).map_err(Error::cuda(format!(
                "resolving kernel `{name}` in the PTX module"
            )))
        };
        Ok(Kernels {
            da2cf_initialize: function(names::DA2CF_INITIALIZE)?,
            da2cf_relax_f: function(names::DA2CF_RELAX_F)?,
            da2cf_minimum1: function(names::DA2CF_MINIMUM1)?,
            da2cf_minimum2: function(names::DA2CF_MINIMUM2)?,
            da2cf_update: function(names::DA2CF_UPDATE)?,
        })
    }

    /// `initialize` (Fig. 2) of all `n = dist.len()` vertices for `source`.
    pub fn da2cf_initialize(
        &self,
        stream: &Arc<CudaStream>,
        dist: &mut CudaSlice<u32>,
        frontier: &mut CudaSlice<u8>,
        unsettled: &mut CudaSlice<u8>,
        n: u32,
        source: u32,
    ) -> Result<()> {
        let kernel = names::DA2CF_INITIALIZE;
        let n_ = n as usize;
        check_lengths(
            kernel,
            &[
                ("dist", dist.len(), n_),
                ("frontier", frontier.len(), n_),
                ("unsettled", unsettled.len(), n_),
            ],
        )?;
        let mut launch = stream.launch_builder(&self.da2cf_initialize);
        launch
            .arg(dist)
            .arg(frontier)
            .arg(unsettled)
            .arg(&n)
            .arg(&source);
        // SAFETY: the argument list matches the kernel's signature (pointers to u32,
        // u8, u8, then n and source as u32) and every buffer holds n elements
        // (checked above), as its `# Safety` section requires.
        unsafe { launch.launch(one_thread_per(n)) }.map_err(Error::cuda(kernel))?;
        Ok(())
    }

    /// `relax_F` (Fig. 3): frontier vertices relax their unsettled successors.
    pub fn da2cf_relax_f(
        &self,
        stream: &Arc<CudaStream>,
        graph: &DeviceGraph,
        dist: &mut CudaSlice<u32>,
        frontier: &CudaSlice<u8>,
        unsettled: &CudaSlice<u8>,
    ) -> Result<()> {
        let kernel = names::DA2CF_RELAX_F;
        let (n, m) = (graph.num_vertices(), graph.num_edges());
        check_lengths(
            kernel,
            &[
                ("dist", dist.len(), n as usize),
                ("frontier", frontier.len(), n as usize),
                ("unsettled", unsettled.len(), n as usize),
            ],
        )?;
        let mut launch = stream.launch_builder(&self.da2cf_relax_f);
        launch
            .arg(graph.offsets())
            .arg(graph.targets())
            .arg(graph.weights())
            .arg(&n)
            .arg(&m)
            .arg(dist)
            .arg(frontier)
            .arg(unsettled);
        // SAFETY: arguments in the kernel's order and types; `DeviceGraph` holds a
        // validated CSR of n vertices and m edges, and dist/frontier/unsettled hold
        // n elements (checked above).
        unsafe { launch.launch(one_thread_per(n)) }.map_err(Error::cuda(kernel))?;
        Ok(())
    }

    /// `minimum1` (Fig. 4): per-block minima of the unsettled distances into
    /// `block_minima`, which must hold `reduce::num_blocks(n, BLOCK_SIZE)` values.
    pub fn da2cf_minimum1(
        &self,
        stream: &Arc<CudaStream>,
        dist: &CudaSlice<u32>,
        unsettled: &CudaSlice<u8>,
        n: u32,
        block_minima: &mut CudaSlice<u32>,
    ) -> Result<()> {
        let kernel = names::DA2CF_MINIMUM1;
        let config = minimum_launch(n);
        check_lengths(
            kernel,
            &[
                ("dist", dist.len(), n as usize),
                ("unsettled", unsettled.len(), n as usize),
                (
                    "block_minima",
                    block_minima.len(),
                    config.grid_dim.0 as usize,
                ),
            ],
        )?;
        let mut launch = stream.launch_builder(&self.da2cf_minimum1);
        launch.arg(dist).arg(unsettled).arg(&n).arg(block_minima);
        // SAFETY: arguments in the kernel's order and types; dist/unsettled hold n
        // elements and block_minima one per block (checked above); the block size
        // is a power of two with 4 bytes of shared memory per thread.
        unsafe { launch.launch(config) }.map_err(Error::cuda(kernel))?;
        Ok(())
    }

    /// `minimum2`: the first `len` values of `values` reduced to per-block minima.
    pub fn da2cf_minimum2(
        &self,
        stream: &Arc<CudaStream>,
        values: &CudaSlice<u32>,
        len: u32,
        block_minima: &mut CudaSlice<u32>,
    ) -> Result<()> {
        let kernel = names::DA2CF_MINIMUM2;
        let config = minimum_launch(len);
        check_lengths(
            kernel,
            &[
                ("values", values.len(), len as usize),
                (
                    "block_minima",
                    block_minima.len(),
                    config.grid_dim.0 as usize,
                ),
            ],
        )?;
        let mut launch = stream.launch_builder(&self.da2cf_minimum2);
        launch.arg(values).arg(&len).arg(block_minima);
        // SAFETY: arguments in the kernel's order and types; values holds len
        // elements and block_minima one per block (checked above); the block size
        // is a power of two with 4 bytes of shared memory per thread.
        unsafe { launch.launch(config) }.map_err(Error::cuda(kernel))?;
        Ok(())
    }

    /// `update` (Fig. 4): the unsettled vertices at distance `mssp` become the frontier.
    pub fn da2cf_update(
        &self,
        stream: &Arc<CudaStream>,
        dist: &CudaSlice<u32>,
        frontier: &mut CudaSlice<u8>,
        unsettled: &mut CudaSlice<u8>,
        n: u32,
        mssp: u32,
    ) -> Result<()> {
        let kernel = names::DA2CF_UPDATE;
        let n_ = n as usize;
        check_lengths(
            kernel,
            &[
                ("dist", dist.len(), n_),
                ("frontier", frontier.len(), n_),
                ("unsettled", unsettled.len(), n_),
            ],
        )?;
        let mut launch = stream.launch_builder(&self.da2cf_update);
        launch
            .arg(dist)
            .arg(frontier)
            .arg(unsettled)
            .arg(&n)
            .arg(&mssp);
        // SAFETY: arguments in the kernel's order and types; every buffer holds n
        // elements (checked above).
        unsafe { launch.launch(one_thread_per(n)) }.map_err(Error::cuda(kernel))?;
        Ok(())
    }
}
