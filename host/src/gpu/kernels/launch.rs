//! What every kernel family's launcher uses: resolving kernels by name
//! ([`Typed`], [`load_function`]), launch shapes, buffer checks and the one
//! `unsafe` launch ([`launch`]).

use std::ffi::c_void;
use std::sync::Arc;

use cudarc::driver::sys::{CUdevice_attribute, CUfunction_attribute};
use cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr, LaunchConfig, result,
};
use gpu_kernels::args::KernelArgs;
use gpu_kernels::launch::{
    BLOCK_SIZE, COMPACT_BLOCK_SIZE, GRID_BARRIER_WORDS, MINIMUM_SHARED_BYTES, PerWeight,
};
use gpu_kernels::reduce;

use crate::graph::WeightKind;
use crate::{Error, Result};

/// A kernel that adds weights, resolved in both instantiations
/// ([`PerWeight`]).
pub(crate) struct Typed {
    names: PerWeight,
    u32: CudaFunction,
    f32: CudaFunction,
}

impl Typed {
    /// Resolves both entries of `names`.
    pub(crate) fn load(module: &Arc<CudaModule>, names: PerWeight) -> Result<Self> {
        Ok(Typed {
            names,
            u32: load_function(module, names.u32)?,
            f32: load_function(module, names.f32)?,
        })
    }

    /// The instantiation for weights of `kind`, and its entry name.
    pub(crate) fn of(&self, kind: WeightKind) -> (&CudaFunction, &'static str) {
        let function = match kind {
            WeightKind::U32 => &self.u32,
            WeightKind::F32 => &self.f32,
        };
        (function, self.names.of(kind))
    }
}

/// The blocks of a cooperative launch of `function` (entry `kernel`) over `n`
/// items, blocks of `block_size` threads with `shared_bytes` of dynamic shared
/// memory: one thread per item, but no more blocks than can be resident at once
/// on the device of `ctx` (blocks per multiprocessor, by occupancy, times
/// multiprocessors; a cooperative launch of more fails), and at least one.
pub(crate) fn grid_blocks(
    ctx: &Arc<CudaContext>,
    (function, kernel): (&CudaFunction, &str),
    (block_size, shared_bytes): (u32, u32),
    n: u32,
) -> Result<u32> {
    // The occupancy query needs the context current on this thread.
    ctx.bind_to_thread()
        .map_err(Error::cuda("binding the CUDA context to a thread"))?;
    let per_sm = function
        .occupancy_max_active_blocks_per_multiprocessor(block_size, shared_bytes as usize, None)
        .map_err(Error::cuda(format!("querying the occupancy of {kernel}")))?;
    let sms = ctx
        .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
        .map_err(Error::cuda("querying the number of multiprocessors"))?;
    let blocks = per_sm.saturating_mul(sms.max(0) as u32);
    if blocks == 0 {
        return Err(Error::Internal(format!(
            "{kernel}: not one block of {block_size} threads fits on a multiprocessor"
        )));
    }
    Ok(blocks.min(n.div_ceil(block_size).max(1)))
}

/// Which kernel of a device-resident loop (compacted DA2CF, near-far) a
/// launch runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopForm {
    /// The block loop: one block.
    Block,
    /// The grid loop: `blocks` co-resident blocks, a cooperative launch.
    Grid {
        /// Blocks in the grid, at most the kernel's `grid_blocks`.
        blocks: u32,
    },
}

impl LoopForm {
    /// Prepares a launch of this form of a loop kernel with `shared_bytes` of
    /// dynamic shared memory and returns its configuration. For the grid form,
    /// first checks the block count and `barrier`, and zeroes it on `stream`:
    /// a grid barrier must start at zero.
    pub(crate) fn prepare(
        self,
        stream: &Arc<CudaStream>,
        kernel: &str,
        barrier: &mut CudaSlice<u32>,
        shared_bytes: u32,
    ) -> Result<LaunchConfig> {
        let blocks = match self {
            LoopForm::Block => 1,
            LoopForm::Grid { blocks } => {
                zero_grid_barrier(stream, kernel, barrier, blocks)?;
                blocks
            }
        };
        Ok(LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (COMPACT_BLOCK_SIZE, 1, 1),
            shared_mem_bytes: shared_bytes,
        })
    }
}

/// Before a cooperative launch of `blocks` blocks with a grid barrier: checks
/// that there are blocks and that `barrier` has its words, then zeroes it on
/// `stream`.
pub(crate) fn zero_grid_barrier(
    stream: &Arc<CudaStream>,
    kernel: &str,
    barrier: &mut CudaSlice<u32>,
    blocks: u32,
) -> Result<()> {
    check_lengths(kernel, &[("barrier", barrier.len(), GRID_BARRIER_WORDS)])?;
    if blocks == 0 {
        return Err(Error::Internal(format!("{kernel}: zero blocks")));
    }
    stream
        .memset_zeros(barrier)
        .map_err(Error::cuda("zeroing the grid barrier"))
}

/// Resolves one kernel by name.
pub(crate) fn load_function(module: &Arc<CudaModule>, name: &str) -> Result<CudaFunction> {
    module.load_function(name).map_err(Error::cuda(format!(
        "resolving kernel `{name}` in the PTX module"
    )))
}

/// One thread per item, [`BLOCK_SIZE`] threads per block.
pub(crate) fn one_thread_per(items: u32) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (items.div_ceil(BLOCK_SIZE).max(1), 1, 1),
        block_dim: (BLOCK_SIZE, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// A `minimum` launch over `len` values: one block per `2 * BLOCK_SIZE` values.
pub(crate) fn minimum_launch(len: u32) -> LaunchConfig {
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
pub(crate) fn check_lengths(kernel: &str, buffers: &[(&str, usize, usize)]) -> Result<()> {
    for &(name, len, needed) in buffers {
        if len < needed {
            return Err(Error::Internal(format!(
                "{kernel}: buffer `{name}` holds {len} elements, the launch needs {needed}"
            )));
        }
    }
    Ok(())
}

/// Fails unless each of `buffers` (a name and a length) holds the `n`
/// elements of one per vertex.
pub(crate) fn check_vertex_lengths(kernel: &str, n: u32, buffers: &[(&str, usize)]) -> Result<()> {
    let n = n as usize;
    for &(name, len) in buffers {
        check_lengths(kernel, &[(name, len, n)])?;
    }
    Ok(())
}

/// Fails unless each of `buffers` holds `len` elements and `block_minima`
/// one per block of the [`minimum_launch`] over `len` values, which it
/// returns.
pub(crate) fn checked_minimum_launch(
    kernel: &str,
    len: u32,
    buffers: &[(&str, usize)],
    block_minima: usize,
) -> Result<LaunchConfig> {
    let config = minimum_launch(len);
    check_vertex_lengths(kernel, len, buffers)?;
    let blocks = config.grid_dim.0 as usize;
    check_lengths(kernel, &[("block_minima", block_minima, blocks)])?;
    Ok(config)
}

/// The one launch of the block-minimum kernels (`minimum1` of DA2CF and
/// Crauser, `minimum2`): checks that `buffers` hold `len` elements and
/// `block_minima` one value per block, then launches power-of-two blocks with
/// 4 bytes of shared memory per thread.
///
/// # Safety
/// `function` is a block-minimum entry whose arrays are `buffers` and
/// `block_minima`, and `args` points to exactly those buffers.
pub(crate) unsafe fn launch_minimum<A: KernelArgs>(
    stream: &CudaStream,
    function: (&CudaFunction, &str),
    len: u32,
    buffers: &[(&str, usize)],
    block_minima: usize,
    args: &A,
) -> Result<()> {
    let config = checked_minimum_launch(function.1, len, buffers, block_minima)?;
    // SAFETY: the arrays hold len elements and block_minima one per block
    // (checked above), the caller's contract for the rest.
    unsafe { launch(stream, function, config, args, Launch::Plain) }
}

/// How a kernel is launched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Launch {
    /// An ordinary launch.
    Plain,
    /// A cooperative launch: the driver refuses a grid whose blocks cannot all
    /// be resident at once, as a grid barrier requires.
    Cooperative,
}

/// Launches `function` (PTX entry `kernel`) on `stream` with `args` as its
/// parameters: the launch's `kernelParams` point to the struct's fields, in
/// the order of [`KernelArgs::PARAMS`], which is the entry's parameter order
/// (both come from one field list in `gpu_kernels::args`). Fails with
/// [`Error::Internal`] if `kernel` does not take `A`.
///
/// # Safety
/// `function` is the entry `kernel`, and `args`, `config` and the buffers that
/// `args` points to meet that kernel's `# Safety` contract.
pub(crate) unsafe fn launch<A: KernelArgs>(
    stream: &CudaStream,
    (function, kernel): (&CudaFunction, &str),
    config: LaunchConfig,
    args: &A,
    how: Launch,
) -> Result<()> {
    if !A::ENTRIES.contains(&kernel) {
        return Err(Error::Internal(format!(
            "{kernel}: launched with the arguments of {:?}",
            A::ENTRIES
        )));
    }
    let base = std::ptr::from_ref(args).cast::<u8>();
    let mut params: Vec<*mut c_void> = A::PARAMS
        .iter()
        // The driver only reads through these pointers, during the call.
        .map(|param| base.wrapping_add(param.offset).cast_mut().cast())
        .collect();
    stream
        .context()
        .bind_to_thread()
        .map_err(Error::cuda(kernel))?;
    let LaunchConfig {
        grid_dim,
        block_dim,
        shared_mem_bytes,
    } = config;
    let (function, stream) = (function.cu_function(), stream.cu_stream());
    let launch_kernel = match how {
        Launch::Plain => result::launch_kernel,
        Launch::Cooperative => result::launch_cooperative_kernel,
    };
    // SAFETY: each parameter pointer points to a field of `args`, which lives
    // until the call returns (the driver copies the values at launch), with the
    // entry's parameter types in its order (`KernelArgs`'s contract); the
    // kernel's own contract is the caller's.
    unsafe {
        launch_kernel(
            function,
            grid_dim,
            block_dim,
            shared_mem_bytes,
            stream,
            &mut params,
        )
    }
    .map_err(Error::cuda(kernel))
}

/// A buffer's device address as a kernel's pointer parameter (`*const T` or
/// `*mut T`): an address on the device, never dereferenced on the host.
pub(crate) trait DeviceAddress {
    /// The parameter for the device address `address`.
    fn from_device(address: u64) -> Self;
}

impl<T> DeviceAddress for *const T {
    fn from_device(address: u64) -> Self {
        std::ptr::without_provenance(address as usize)
    }
}

impl<T> DeviceAddress for *mut T {
    fn from_device(address: u64) -> Self {
        std::ptr::without_provenance_mut(address as usize)
    }
}

/// The device address of `buffer` as a kernel's pointer parameter. The
/// context does not track events (`Gpu::open`), so the address is all there
/// is to take: ordering is by stream.
pub(crate) fn device<P: DeviceAddress, T>(stream: &CudaStream, buffer: &impl DevicePtr<T>) -> P {
    let (address, _no_event) = buffer.device_ptr(stream);
    P::from_device(address)
}

/// A device attribute as a count.
pub(crate) fn device_attribute(
    ctx: &Arc<CudaContext>,
    attribute: CUdevice_attribute,
    what: &str,
) -> Result<u32> {
    ctx.attribute(attribute)
        .map_err(Error::cuda(format!("querying {what}")))
        .map(|v| v.max(0) as u32)
}

/// Raises `function`'s dynamic shared-memory limit to `bytes`.
pub(crate) fn allow_shared_memory(function: &CudaFunction, kernel: &str, bytes: u32) -> Result<()> {
    function
        .set_attribute(
            CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            bytes as i32,
        )
        .map_err(Error::cuda(format!(
            "allowing {kernel} {bytes} bytes of shared memory"
        )))
}
