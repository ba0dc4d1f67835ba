//! The kernels of the partition-local solver, one method each.

use std::sync::Arc;

use cudarc::driver::sys::{CUdevice_attribute, CUfunction_attribute};
use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchConfig};
use gpu_kernels::args::{PartitionInitializeArgs, PartitionSolveArgs};
use gpu_kernels::distance::NO_TARGET;
use gpu_kernels::launch::names;
use gpu_kernels::partition::{RoundSettings, partition_shared_bytes};

/// The largest piece of paged mode: `../shared/design/ROADS.md` measured
/// pieces of 1–2 K vertices best, 4 K and more 10–25% slower.
pub const PAGED_MOST_VERTICES: u32 = 2048;

/// Paged mode's pieces are made small enough for this many per block, so that
/// every block finds work: on the H100, pieces of 512 vertices instead of
/// 1.0–1.5 K took road networks and the 1000² and 2048² grids 6–18% faster
/// (0.1–8 pieces per block left blocks idle; 16 did not), while the 4096²
/// grid, at 62 pieces per block instead of 31, was 1.5× slower (its claims
/// scan twice the words). docs/PERFORMANCE.md, 2026-11-26 (evening).
pub const PAGED_PIECES_PER_BLOCK: u32 = 16;

/// The smallest piece [`PartitionKernels::paged_capacity`] chooses.
pub const PAGED_FEWEST_VERTICES: u32 = 512;

use super::{Launch, Typed, check_lengths, device, launch, load_function, one_thread_per};
use crate::gpu::Gpu;
use crate::gpu::memory::DeviceGraph;
use crate::graph::WeightKind;
use crate::{Error, Result};

/// The device copy of a partitioning (`k` pieces of at most `capacity`
/// vertices), the state of a solve on it and how it is launched.
pub struct PartitionBuffers {
    /// Piece starts, `k + 1`.
    pub starts: CudaSlice<u32>,
    /// Ends of the pieces' boundary ranges, `k`.
    pub boundary_ends: CudaSlice<u32>,
    /// The piece of each vertex, `n`.
    pub piece_of: CudaSlice<u32>,
    /// Distances, `n`.
    pub dist: CudaSlice<u32>,
    /// Paged mode's distances of the pieces no block holds, `n`.
    pub backing: CudaSlice<u32>,
    /// Notification words, `k`.
    pub notify: CudaSlice<u32>,
    /// Owner words (paged mode), `k`.
    pub owner: CudaSlice<u32>,
    /// `pending` and `rounds`.
    pub counters: CudaSlice<u32>,
    /// Pieces.
    pub pieces: u32,
    /// The largest piece's vertex count bound.
    pub capacity: u32,
    /// The largest piece's out-edge count bound when the pieces' edges are
    /// kept in shared memory, else 0.
    pub edge_capacity: u32,
    /// Paged mode: the blocks claim pieces in turn (`blocks` of them); else
    /// one resident block per piece.
    pub paged: Option<u32>,
    /// Threads a block (one of
    /// [`PARTITION_BLOCK_SIZES`](gpu_kernels::launch::PARTITION_BLOCK_SIZES)).
    pub threads: u32,
}

/// The partition-local solver's kernels.
pub struct PartitionKernels {
    initialize: CudaFunction,
    solve: Typed,
    paged: Typed,
}

impl PartitionKernels {
    /// Resolves the kernels in `module`.
    pub fn load(module: &Arc<CudaModule>) -> Result<Self> {
        Ok(PartitionKernels {
            initialize: load_function(module, names::PARTITION_INITIALIZE)?,
            solve: Typed::load(module, names::PARTITION_SOLVE)?,
            paged: Typed::load(module, names::PARTITION_PAGED)?,
        })
    }

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

    /// `partition_initialize`: a new solve from a source in piece
    /// `source_piece`, bounded by `bound` (a distance word;
    /// [`INFINITY`](gpu_kernels::distance::INFINITY): no bound).
    pub fn initialize(
        &self,
        stream: &Arc<CudaStream>,
        graph: &DeviceGraph,
        buffers: &mut PartitionBuffers,
        source_piece: u32,
        bound: u32,
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
            backing: device(stream, &buffers.backing),
            n,
            notify: device(stream, &buffers.notify),
            owner: device(stream, &buffers.owner),
            k: buffers.pieces,
            counters: device(stream, &buffers.counters),
            source_piece,
            bound,
        };
        let function = (&self.initialize, kernel);
        let config = one_thread_per(n.max(buffers.pieces));
        // SAFETY: the lengths checked above, source_piece < k.
        unsafe { launch(stream, function, config, &args, Launch::Plain) }
    }

    /// `partition_solve` (or `partition_paged` in paged mode): the whole
    /// solve from `source` (renumbered, `< n`) with the window width and edge
    /// lanes of `settings`, after [`PartitionKernels::initialize`]; `target`
    /// (renumbered, `< n`) lowers the bound as its distance falls.
    pub fn solve(
        &self,
        stream: &Arc<CudaStream>,
        graph: &DeviceGraph,
        buffers: &mut PartitionBuffers,
        (source, target): (u32, Option<u32>),
        settings: RoundSettings,
    ) -> Result<()> {
        let kind = graph.weight_kind();
        let (function, blocks) = match buffers.paged {
            Some(blocks) => (self.paged.of(kind), blocks),
            None => (self.solve.of(kind), buffers.pieces),
        };
        let kernel = function.1;
        if blocks == 0 {
            return Err(Error::InvalidArgument(format!("{kernel}: no blocks")));
        }
        let n = graph.num_vertices();
        check_state_lengths(kernel, n, buffers)?;
        if source >= n {
            return Err(Error::InvalidArgument(format!(
                "{kernel}: source {source} of {n} vertices"
            )));
        }
        if let Some(target) = target.filter(|&t| t >= n) {
            return Err(Error::InvalidArgument(format!(
                "{kernel}: target {target} of {n} vertices"
            )));
        }
        let bytes =
            partition_shared_bytes(buffers.capacity, buffers.edge_capacity, buffers.threads);
        // Raised again at each launch: another graph's solver may have set
        // the function's limit since.
        allow_shared_memory(function.0, kernel, bytes)?;
        let config = LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (buffers.threads, 1, 1),
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
            backing: device(stream, &buffers.backing),
            notify: device(stream, &buffers.notify),
            owner: device(stream, &buffers.owner),
            counters: device(stream, &buffers.counters),
            source,
            target: target.unwrap_or(NO_TARGET),
            delta: settings.delta,
            edge_lanes: settings.edge_lanes,
            chain_hops: settings.chain_hops,
            entries_first: u32::from(settings.entries_first),
            capacity: buffers.capacity,
            edge_capacity: buffers.edge_capacity,
        };
        // SAFETY: a validated CSR of n vertices and m edges whose pieces the
        // partition buffers describe (each at most `capacity` vertices, made so
        // by `Partitioning`, and at most `edge_capacity` out-edges when that is
        // not 0, made so by `Partition::new`); the state left by `initialize`;
        // k blocks (resident mode) or at least one (paged) with the pieces'
        // shared memory (the limit raised above), launched cooperatively, so
        // the driver refuses rather than run blocks that cannot all be
        // resident, which the spinning blocks need.
        unsafe { launch(stream, function, config, &args, Launch::Cooperative) }
    }
}

/// A device attribute as a count.
fn device_attribute(
    ctx: &Arc<CudaContext>,
    attribute: CUdevice_attribute,
    what: &str,
) -> Result<u32> {
    ctx.attribute(attribute)
        .map_err(Error::cuda(format!("querying {what}")))
        .map(|v| v.max(0) as u32)
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
            ("backing", buffers.backing.len(), n),
            ("notify", buffers.notify.len(), k),
            ("owner", buffers.owner.len(), k),
            ("counters", buffers.counters.len(), 3),
        ],
    )
}
