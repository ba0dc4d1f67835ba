//! The kernels of the partition-local solver, one method each.

use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchConfig};
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

use super::launch::{
    Launch, Typed, allow_shared_memory, check_lengths, device, launch, load_function,
    one_thread_per,
};
use crate::gpu::device_graph::DeviceGraph;
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
    /// `partition_solve`, resident mode.
    pub(crate) solve: Typed,
    /// `partition_paged`.
    pub(crate) paged: Typed,
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
