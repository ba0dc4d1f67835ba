//! The kernel of the batched point-to-point queries ([`crate::gpu::pairs`]).

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaSlice, CudaStream};
use gpu_kernels::args::PairQueryArgs;
use gpu_kernels::launch::{BLOCK_SIZE, names};

use super::launch::{Launch, Typed, check_lengths, device, grid_blocks, launch, one_thread_per};
use crate::graph::WeightKind;
use crate::{Error, Result};

/// One direction's upward arcs on the device.
pub struct DeviceUpwardArcs {
    /// Row offsets by lower position, `n + 1`.
    pub offsets: CudaSlice<u32>,
    /// The arcs' higher ends.
    pub ends: CudaSlice<u32>,
    /// The arcs' weight words.
    pub weights: CudaSlice<u32>,
    /// Arcs.
    pub m: u32,
}

/// The threads' scratch of the queries: hash tables and heaps.
pub struct PairScratch {
    /// `threads * table_len` entries of 4 words.
    pub table: CudaSlice<u32>,
    /// Entries of one thread's table.
    pub table_len: u32,
    /// `threads * 2 * heap_len` keys.
    pub heaps: CudaSlice<u64>,
    /// Keys of one heap.
    pub heap_len: u32,
    /// Threads with a scratch of their own.
    pub threads: u32,
    /// The kernel's counter of pairs taken, one word.
    pub next: CudaSlice<u32>,
}

/// A batch of pairs on the device: positions in, answers out.
pub struct DevicePairs {
    /// Source positions.
    pub sources: CudaSlice<u32>,
    /// Target positions.
    pub targets: CudaSlice<u32>,
    /// Distance words.
    pub dist: CudaSlice<u32>,
    /// Overflow flags.
    pub overflow: CudaSlice<u32>,
}

/// The point-to-point kernels.
pub struct PairQueryKernels {
    query: Typed,
}

impl PairQueryKernels {
    /// Resolves the kernels in `module`.
    pub fn load(module: &Arc<cudarc::driver::CudaModule>) -> Result<Self> {
        Ok(PairQueryKernels {
            query: Typed::load(module, names::PAIR_QUERY)?,
        })
    }

    /// The threads of `pair_query` that can be resident at once on the
    /// device of `ctx`.
    pub fn resident_threads(&self, ctx: &Arc<CudaContext>) -> Result<u32> {
        let blocks = grid_blocks(
            ctx,
            self.query.of(WeightKind::U32),
            (BLOCK_SIZE, 0),
            u32::MAX,
        )?;
        Ok(blocks.saturating_mul(BLOCK_SIZE))
    }

    /// `pair_query`: the first `count` pairs of `pairs` over `arcs` (n
    /// vertices), with `scratch`'s first `threads` threads, the first query
    /// of each under `epoch`.
    #[allow(clippy::too_many_arguments)]
    pub fn query(
        &self,
        stream: &Arc<CudaStream>,
        kind: WeightKind,
        (arcs, n): (&[DeviceUpwardArcs; 2], u32),
        pairs: &mut DevicePairs,
        count: u32,
        scratch: &mut PairScratch,
        (threads, epoch, stall): (u32, u32, bool),
    ) -> Result<()> {
        let (function, kernel) = self.query.of(kind);
        let (c, n1) = (count as usize, n as usize + 1);
        let (table_len, heap_len) = (scratch.table_len as usize, scratch.heap_len as usize);
        check_lengths(
            kernel,
            &[
                ("up_offsets", arcs[0].offsets.len(), n1),
                ("up_ends", arcs[0].ends.len(), arcs[0].m as usize),
                ("up_weights", arcs[0].weights.len(), arcs[0].m as usize),
                ("down_offsets", arcs[1].offsets.len(), n1),
                ("down_ends", arcs[1].ends.len(), arcs[1].m as usize),
                ("down_weights", arcs[1].weights.len(), arcs[1].m as usize),
                ("sources", pairs.sources.len(), c),
                ("targets", pairs.targets.len(), c),
                ("dist", pairs.dist.len(), c),
                ("overflow", pairs.overflow.len(), c),
                (
                    "table",
                    scratch.table.len(),
                    4 * threads as usize * table_len,
                ),
                (
                    "heaps",
                    scratch.heaps.len(),
                    2 * threads as usize * heap_len,
                ),
                ("next", scratch.next.len(), 1),
            ],
        )?;
        let last_epoch = u64::from(epoch) + u64::from(count);
        if threads == 0
            || threads > scratch.threads
            || table_len < 2
            || !table_len.is_power_of_two()
            || epoch == 0
            || last_epoch > u64::from(u32::MAX)
        {
            return Err(Error::Internal(format!(
                "{kernel}: {threads} threads of {} with tables of {table_len}, epochs from \
                 {epoch} to {last_epoch}",
                scratch.threads
            )));
        }
        if count == 0 {
            return Ok(());
        }
        stream
            .memset_zeros(&mut scratch.next)
            .map_err(Error::cuda("clearing the pairs' counter"))?;
        let args = PairQueryArgs {
            up_offsets: device(stream, &arcs[0].offsets),
            up_ends: device(stream, &arcs[0].ends),
            up_weights: device(stream, &arcs[0].weights),
            up_m: arcs[0].m,
            down_offsets: device(stream, &arcs[1].offsets),
            down_ends: device(stream, &arcs[1].ends),
            down_weights: device(stream, &arcs[1].weights),
            down_m: arcs[1].m,
            n,
            sources: device(stream, &pairs.sources),
            targets: device(stream, &pairs.targets),
            count,
            dist: device(stream, &pairs.dist),
            overflow: device(stream, &pairs.overflow),
            table: device(stream, &scratch.table),
            table_len: scratch.table_len,
            heaps: device(stream, &scratch.heaps),
            heap_len: scratch.heap_len,
            threads,
            next: device(stream, &scratch.next),
            epoch,
            stall: u32::from(stall),
        };
        // SAFETY: the lengths are checked above; the arcs come from a
        // validated hierarchy (offsets from 0 to m, ends < n) and the caller
        // gives positions < n; the caller's epochs only grow from one launch
        // to the next (the tables start zeroed), checked not to wrap above;
        // `next` is zeroed on this stream just before.
        unsafe {
            launch(
                stream,
                (function, kernel),
                one_thread_per(threads),
                &args,
                Launch::Plain,
            )
        }
    }
}
