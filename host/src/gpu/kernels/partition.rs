//! The kernels of the partition-local solver, one method each.

use std::sync::Arc;

use cudarc::driver::sys::{CUdevice_attribute, CUfunction_attribute};
use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchConfig};
use gpu_kernels::args::{PartitionInitializeArgs, PartitionSolveArgs};
use gpu_kernels::launch::{PARTITION_BLOCK_SIZE, names, partition_shared_bytes};

use super::{Launch, Typed, check_lengths, device, launch, load_function, one_thread_per};
use crate::gpu::memory::DeviceGraph;
use crate::graph::WeightKind;
use crate::{Error, Result};

/// The device copy of a partitioning (`k` pieces of at most `capacity`
/// vertices) and the state of a solve on it.
pub struct PartitionBuffers {
    /// Piece starts, `k + 1`.
    pub starts: CudaSlice<u32>,
    /// Ends of the pieces' boundary ranges, `k`.
    pub boundary_ends: CudaSlice<u32>,
    /// The piece of each vertex, `n`.
    pub piece_of: CudaSlice<u32>,
    /// Distances, `n`.
    pub dist: CudaSlice<u32>,
    /// Notification words, `k`.
    pub notify: CudaSlice<u32>,
    /// `pending` and `rounds`.
    pub counters: CudaSlice<u32>,
    /// Pieces.
    pub pieces: u32,
    /// The largest piece's vertex count bound.
    pub capacity: u32,
    /// The largest piece's out-edge count bound when the pieces' edges are
    /// kept in shared memory, else 0.
    pub edge_capacity: u32,
}

/// The partition-local solver's kernels.
pub struct PartitionKernels {
    initialize: CudaFunction,
    solve: Typed,
}

impl PartitionKernels {
    /// Resolves the kernels in `module`.
    pub fn load(module: &Arc<CudaModule>) -> Result<Self> {
        Ok(PartitionKernels {
            initialize: load_function(module, names::PARTITION_INITIALIZE)?,
            solve: Typed::load(module, names::PARTITION_SOLVE)?,
        })
    }

    /// The piece capacity for `n` vertices with weights of `kind` in resident
    /// mode, edges in global memory: the smallest capacity, at least a
    /// block's threads (or `n`), for which `ceil(n / capacity)` blocks with
    /// that capacity's shared memory can all be resident at once (occupancy ×
    /// multiprocessors). An error when the graph is too large for the
    /// device's shared memory.
    pub fn resident_capacity(
        &self,
        ctx: &Arc<CudaContext>,
        kind: WeightKind,
        n: u32,
    ) -> Result<u32> {
        let kernel = self.solve.of(kind).1;
        let mut capacity = PARTITION_BLOCK_SIZE.min(n).max(1);
        loop {
            let bytes = partition_shared_bytes(capacity, 0);
            let Some(resident) = self.resident_blocks(ctx, kind, bytes)? else {
                return Err(Error::InvalidArgument(format!(
                    "{kernel}: the graph's {n} vertices do not fit in shared memory (pieces of {capacity} \
                     vertices would need {bytes} bytes a block, more than a block may have); the \
                     partition solver has no paged mode yet: use near-far"
                )));
            };
            if resident == 0 {
                return Err(Error::InvalidArgument(format!(
                    "{kernel}: not one block with {bytes} bytes of shared memory fits on a multiprocessor"
                )));
            }
            if n.div_ceil(capacity) <= resident {
                return Ok(capacity);
            }
            capacity = n.div_ceil(resident).max(capacity + 1);
        }
    }

    /// Whether `pieces` blocks of `solve` for `kind`, each with `bytes` of
    /// shared memory, can all be resident at once.
    pub fn all_resident(
        &self,
        ctx: &Arc<CudaContext>,
        kind: WeightKind,
        bytes: u32,
        pieces: u32,
    ) -> Result<bool> {
        Ok(self
            .resident_blocks(ctx, kind, bytes)?
            .is_some_and(|resident| pieces <= resident))
    }

    /// How many blocks of `solve` for `kind` with `bytes` of dynamic shared
    /// memory can be resident at once (occupancy × multiprocessors), with the
    /// kernel's shared-memory limit raised to `bytes`; `None` when a block
    /// may not have that much.
    fn resident_blocks(
        &self,
        ctx: &Arc<CudaContext>,
        kind: WeightKind,
        bytes: u32,
    ) -> Result<Option<u32>> {
        let (function, kernel) = self.solve.of(kind);
        let attribute = |a, what: &str| {
            ctx.attribute(a)
                .map_err(Error::cuda(format!("querying {what}")))
                .map(|v| v.max(0) as u32)
        };
        let optin = attribute(
            CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
            "the shared memory a block may have",
        )?;
        if bytes > optin {
            return Ok(None);
        }
        let sms = attribute(
            CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
            "the number of multiprocessors",
        )?;
        allow_shared_memory(function, kernel, bytes)?;
        let per_sm = function
            .occupancy_max_active_blocks_per_multiprocessor(
                PARTITION_BLOCK_SIZE,
                bytes as usize,
                None,
            )
            .map_err(Error::cuda(format!("querying the occupancy of {kernel}")))?;
        Ok(Some(per_sm.saturating_mul(sms)))
    }

    /// `partition_initialize`: a new solve from `source` (renumbered, `< n`).
    pub fn initialize(
        &self,
        stream: &Arc<CudaStream>,
        graph: &DeviceGraph,
        buffers: &mut PartitionBuffers,
        source_piece: u32,
    ) -> Result<()> {
        let kernel = names::PARTITION_INITIALIZE;
        let n = graph.num_vertices();
        check_state_lengths(kernel, n, buffers)?;
        if source_piece >= buffers.pieces {
            return Err(Error::InvalidArgument(format!(
                "{kernel}: source piece {source_piece} of {}",
                buffers.pieces
            )));
        }
        let args = PartitionInitializeArgs {
            dist: device(stream, &buffers.dist),
            n,
            notify: device(stream, &buffers.notify),
            k: buffers.pieces,
            counters: device(stream, &buffers.counters),
            source_piece,
        };
        let function = (&self.initialize, kernel);
        let config = one_thread_per(n.max(buffers.pieces));
        // SAFETY: the lengths checked above, source_piece < k.
        unsafe { launch(stream, function, config, &args, Launch::Plain) }
    }

    /// `partition_solve`: the whole solve from `source` (renumbered, `< n`)
    /// with window width `delta`, after [`PartitionKernels::initialize`].
    pub fn solve(
        &self,
        stream: &Arc<CudaStream>,
        graph: &DeviceGraph,
        buffers: &mut PartitionBuffers,
        source: u32,
        delta: u32,
    ) -> Result<()> {
        let function = self.solve.of(graph.weight_kind());
        let kernel = function.1;
        let n = graph.num_vertices();
        check_state_lengths(kernel, n, buffers)?;
        if source >= n {
            return Err(Error::InvalidArgument(format!(
                "{kernel}: source {source} of {n} vertices"
            )));
        }
        let bytes = partition_shared_bytes(buffers.capacity, buffers.edge_capacity);
        // Raised again at each launch: another graph's solver may have set
        // the function's limit since.
        allow_shared_memory(function.0, kernel, bytes)?;
        let config = LaunchConfig {
            grid_dim: (buffers.pieces, 1, 1),
            block_dim: (PARTITION_BLOCK_SIZE, 1, 1),
            shared_mem_bytes: bytes,
        };
        let m = graph.num_edges();
        let args = PartitionSolveArgs {
            offsets: device(stream, graph.offsets()),
            targets: device(stream, graph.targets()),
            weights: device(stream, graph.weights()),
            n,
            m,
            starts: device(stream, &buffers.starts),
            boundary_ends: device(stream, &buffers.boundary_ends),
            piece_of: device(stream, &buffers.piece_of),
            k: buffers.pieces,
            dist: device(stream, &buffers.dist),
            notify: device(stream, &buffers.notify),
            counters: device(stream, &buffers.counters),
            source,
            delta,
            capacity: buffers.capacity,
            edge_capacity: buffers.edge_capacity,
        };
        // SAFETY: a validated CSR of n vertices and m edges whose pieces the
        // partition buffers describe (each at most `capacity` vertices, made so
        // by `Partitioning`, and at most `edge_capacity` out-edges when that is
        // not 0, made so by `Partition::new`); the state left by `initialize`;
        // k blocks with the pieces' shared memory (the limit raised by
        // `resident_capacity`), launched cooperatively, so the driver refuses
        // rather than run blocks that cannot all be resident, which the
        // spinning blocks need.
        unsafe { launch(stream, function, config, &args, Launch::Cooperative) }
    }
}

/// Raises `function`'s dynamic shared-memory limit to `bytes`.
fn allow_shared_memory(function: &CudaFunction, kernel: &str, bytes: u32) -> Result<()> {
    function
        .set_attribute(
            CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            bytes as i32,
        )
        .map_err(Error::cuda(format!(
            "allowing {kernel} {bytes} bytes of shared memory"
        )))
}

/// The lengths every partition kernel needs.
fn check_state_lengths(kernel: &str, n: u32, buffers: &PartitionBuffers) -> Result<()> {
    let (n, k) = (n as usize, buffers.pieces as usize);
    if k == 0 {
        return Err(Error::InvalidArgument(format!("{kernel}: no pieces")));
    }
    check_lengths(
        kernel,
        &[
            ("starts", buffers.starts.len(), k + 1),
            ("boundary_ends", buffers.boundary_ends.len(), k),
            ("piece_of", buffers.piece_of.len(), n),
            ("dist", buffers.dist.len(), n),
            ("notify", buffers.notify.len(), k),
            ("counters", buffers.counters.len(), 2),
        ],
    )
}
