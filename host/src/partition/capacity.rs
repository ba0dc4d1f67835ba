//! How large the partition solver's pieces may be on a device: the
//! occupancy of its kernels with a piece's shared memory, and the pieces of
//! paged mode.

use std::sync::Arc;

use cudarc::driver::sys::CUdevice_attribute;
use cudarc::driver::{CudaContext, CudaFunction};
use gpu_kernels::partition::partition_shared_bytes;

use crate::gpu::context::Gpu;
use crate::gpu::kernels::launch::{allow_shared_memory, device_attribute};
use crate::gpu::kernels::{
    PAGED_FEWEST_VERTICES, PAGED_MOST_VERTICES, PAGED_PIECES_PER_BLOCK, PartitionKernels,
};
use crate::graph::WeightKind;
use crate::{Error, Result};

impl PartitionKernels {
    /// The piece capacity for `n` vertices with weights of `kind` in resident
    /// mode, blocks of `threads`, edges in global memory: the smallest
    /// capacity, at least a block's threads (or `n`), for which `ceil(n /
    /// capacity)` blocks with that capacity's shared memory can all be
    /// resident at once (occupancy × multiprocessors). `None` when the graph
    /// is too large for the device's shared memory.
    pub fn resident_capacity(
        &self,
        gpu: &Gpu,
        kind: WeightKind,
        n: u32,
        threads: u32,
    ) -> Result<Option<u32>> {
        let kernel = self.solve.of(kind).1;
        let mut capacity = threads.min(n).max(1);
        loop {
            let bytes = partition_shared_bytes(capacity, 0, threads);
            let Some(resident) = self.resident_blocks(self.solve.of(kind), gpu, bytes, threads)?
            else {
                return Ok(None);
            };
            if resident == 0 {
                return Err(Error::InvalidArgument(format!(
                    "{kernel}: not one block with {bytes} bytes of shared memory fits on a multiprocessor"
                )));
            }
            if n.div_ceil(capacity) <= resident {
                return Ok(Some(capacity));
            }
            capacity = n.div_ceil(resident).max(capacity + 1);
        }
    }

    /// Whether `pieces` blocks of `solve` for `kind`, each of `threads` with
    /// `bytes` of shared memory, can all be resident at once.
    pub fn all_resident(
        &self,
        gpu: &Gpu,
        kind: WeightKind,
        (bytes, threads): (u32, u32),
        pieces: u32,
    ) -> Result<bool> {
        Ok(self
            .resident_blocks(self.solve.of(kind), gpu, bytes, threads)?
            .is_some_and(|resident| pieces <= resident))
    }

    /// The piece capacity of paged mode for a graph of `n` vertices and `m`
    /// edges: enough vertices for at most [`PAGED_PIECES_PER_BLOCK`] pieces
    /// per block (at least [`PAGED_FEWEST_VERTICES`]), but no more than fit
    /// (at most [`PAGED_MOST_VERTICES`], at least a block's threads): a piece
    /// of a typical degree, with its edges, must leave room for as many paged
    /// blocks (of `threads`) per multiprocessor as the kernel's registers
    /// allow.
    pub fn paged_capacity(
        &self,
        ctx: &Arc<CudaContext>,
        kind: WeightKind,
        (n, m): (u32, u32),
        threads: u32,
    ) -> Result<u32> {
        let (function, kernel) = self.paged.of(kind);
        // The occupancy query needs the context current on this thread.
        ctx.bind_to_thread()
            .map_err(Error::cuda("binding the CUDA context to a thread"))?;
        let per_sm = function
            .occupancy_max_active_blocks_per_multiprocessor(threads, 0, None)
            .map_err(Error::cuda(format!("querying the occupancy of {kernel}")))?
            .max(1);
        let sm_bytes = device_attribute(
            ctx,
            CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
            "the shared memory of a multiprocessor",
        )?;
        // The driver keeps 1 KiB of each block's shared memory.
        let block_words = (sm_bytes / per_sm).saturating_sub(1024) / 4;
        // A piece's degree varies: room for a quarter more edges than the mean.
        let edges_per_vertex = 1.25 * f64::from(m) / f64::from(n.max(1));
        let per_vertex = 4.0 + 2.0 * edges_per_vertex;
        let fixed = partition_shared_bytes(0, 1, threads) / 4;
        let fits = (f64::from(block_words.saturating_sub(fixed)) / per_vertex) as u32;
        let sms = device_attribute(
            ctx,
            CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
            "the number of multiprocessors",
        )?;
        let blocks = per_sm.saturating_mul(sms).max(1);
        let wanted = n.div_ceil(PAGED_PIECES_PER_BLOCK.saturating_mul(blocks));
        Ok(wanted
            .max(PAGED_FEWEST_VERTICES)
            .min(fits.clamp(threads, PAGED_MOST_VERTICES))
            .min(n.max(1)))
    }

    /// How many paged blocks of `threads` for `kind` with `bytes` of dynamic
    /// shared memory can be resident at once, with the kernel's shared-memory
    /// limit raised to `bytes`; `None` when a block may not have that much.
    pub fn paged_blocks(
        &self,
        gpu: &Gpu,
        kind: WeightKind,
        (bytes, threads): (u32, u32),
    ) -> Result<Option<u32>> {
        self.resident_blocks(self.paged.of(kind), gpu, bytes, threads)
    }

    /// How many blocks of `function` of `threads` with `bytes` of dynamic
    /// shared memory can be resident at once (occupancy × multiprocessors), with the
    /// kernel's shared-memory limit raised to `bytes`; `None` when a block
    /// may not have that much. The limit is the function's, shared by every
    /// lane: setting it takes the lanes' turn ([`Gpu::attribute_turn`]), as
    /// each launch does, so that it never changes between another lane's
    /// setting it and launching.
    fn resident_blocks(
        &self,
        (function, kernel): (&CudaFunction, &str),
        gpu: &Gpu,
        bytes: u32,
        threads: u32,
    ) -> Result<Option<u32>> {
        let ctx = gpu.stream().context();
        gpu.bind_to_thread()?;
        let optin = device_attribute(
            ctx,
            CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
            "the shared memory a block may have",
        )?;
        if bytes > optin {
            return Ok(None);
        }
        let sms = device_attribute(
            ctx,
            CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
            "the number of multiprocessors",
        )?;
        let per_sm = gpu.attribute_turn(|| {
            allow_shared_memory(function, kernel, bytes)?;
            function
                .occupancy_max_active_blocks_per_multiprocessor(threads, bytes as usize, None)
                .map_err(Error::cuda(format!("querying the occupancy of {kernel}")))
        })?;
        Ok(Some(per_sm.saturating_mul(sms)))
    }
}
