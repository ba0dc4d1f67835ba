//! PHAST's trees delivered to the host at the copy's speed: each batch is
//! swept on the GPU, its trees are put into the caller's vertex order there
//! (un-permuted and de-interleaved, bounded by the stop, overflow flagged:
//! [`gpu_kernels::phast::row_item`]), a slot of a few trees at a time, and
//! each slot is copied into one of two page-locked buffers and handed to
//! the caller's [`RowSink`] row by row while the next slot is copied. The
//! upward searches of the next batch run on the host meanwhile.

use std::time::Instant;

use cudarc::driver::{CudaEvent, CudaSlice, PinnedHostSlice};
use gpu_kernels::distance::INFINITY;
use gpu_kernels::rows::{ROW_FLAGS, saturated};

use super::{GpuPhast, upward_entries};
use crate::ch::index::Hierarchy;
use crate::graph::WeightKind;
use crate::options::{RowSink, Stop};
use crate::{Error, Result};

/// Trees per slot: 8 trees of a million vertices are 34 MB, long enough a
/// copy to hide the sink's work on the previous slot, small enough to pin.
pub const SLOT_ROWS: usize = 8;

/// The slots of streamed trees: one on the device, two page-locked on the
/// host, each of `rows` rows of `n + ROW_FLAGS` words.
pub(super) struct TreeSlots {
    device: CudaSlice<u32>,
    host: [PinnedHostSlice<u32>; 2],
    /// Recorded after each host buffer's copy, waited on before the host
    /// reads it ([`crate::gpu::context::Gpu::record_event`]).
    copied: [Option<CudaEvent>; 2],
    rows: usize,
}

/// A slot on its way to the host: which host buffer, the index of its
/// first tree in the sources, its trees.
#[derive(Clone, Copy)]
struct Pending {
    slot: usize,
    first: usize,
    rows: usize,
}

impl TreeSlots {
    fn new(phast: &GpuPhast, rows: usize) -> Result<TreeSlots> {
        let gpu = phast.gpu;
        let len = rows * (phast.down.n as usize + ROW_FLAGS);
        gpu.check_fits(
            "the slots of streamed trees",
            crate::gpu::buffers::bytes_of::<u32>(len),
        )?;
        let device = gpu
            .stream()
            .alloc_zeros::<u32>(len)
            .map_err(Error::cuda("allocating a slot of trees on the GPU"))?;
        let pinned = || {
            // SAFETY: a slot is written by a copy before the host reads it
            // (the host waits for that copy's event). No
            // write-combining (flags 0): the host reads it.
            unsafe {
                gpu.stream()
                    .context()
                    .alloc_pinned_with_flags::<u32>(len, 0)
            }
            .map_err(Error::cuda("allocating page-locked memory for trees"))
        };
        Ok(TreeSlots {
            device,
            host: [pinned()?, pinned()?],
            copied: [None, None],
            rows,
        })
    }

    /// Waits for `pending`'s copy, checks each row's flags and hands the
    /// rows to `sink` (trees of `n` vertices).
    fn deliver(
        &mut self,
        pending: Pending,
        (n, kind): (usize, WeightKind),
        sink: &mut RowSink<'_>,
    ) -> Result<()> {
        self.copied[pending.slot]
            .take()
            .ok_or_else(|| Error::Internal("trees delivered before their copy".into()))?
            .synchronize()
            .map_err(Error::cuda("waiting for a slot of trees"))?;
        let words = self.host[pending.slot]
            .as_slice()
            .map_err(Error::cuda("waiting for a slot of trees"))?;
        for (r, row) in words.chunks(n + ROW_FLAGS).take(pending.rows).enumerate() {
            let (row, flags) = row.split_at(n);
            if let Some((vertex, count)) = saturated([flags[0], flags[1]]) {
                return Err(crate::distances::overflow(kind, vertex, count));
            }
            sink(pending.first + r, row)?;
        }
        Ok(())
    }
}

impl GpuPhast<'_> {
    /// The trees of every source (graph vertices), bounded by `stop`, handed
    /// to `sink` in the order of `sources` as `(index, row)` in graph order:
    /// swept in batches, finished and copied a slot at a time, the next
    /// slot's copy under way while the sink takes the last one. Returns the
    /// wall time until the last row was handed over, ms.
    pub fn stream_rows(
        &mut self,
        h: &Hierarchy,
        sources: &[usize],
        stop: Stop,
        sink: &mut RowSink<'_>,
    ) -> Result<f64> {
        let start = Instant::now();
        let lanes = self.lanes();
        let slot_rows = SLOT_ROWS.min(lanes);
        let mut slots = match self.slots.take() {
            Some(slots) if slots.rows == slot_rows => slots,
            _ => TreeSlots::new(self, slot_rows)?,
        };
        let result = self.stream_batches(h, sources, stop, (&mut slots, sink));
        self.slots = Some(slots);
        result?;
        Ok(start.elapsed().as_secs_f64() * 1e3)
    }

    /// [`GpuPhast::stream_rows`] through `slots`.
    fn stream_batches(
        &mut self,
        h: &Hierarchy,
        sources: &[usize],
        stop: Stop,
        (slots, sink): (&mut TreeSlots, &mut RowSink<'_>),
    ) -> Result<()> {
        let lanes = self.lanes();
        let n = self.down.n as usize;
        let target = stop.target.map_or(INFINITY, |t| h.position[t]);
        let bounds = (stop.limit_word(), target);
        let shape = (n, h.weight_kind);
        let batches: Vec<&[usize]> = sources.chunks(lanes).collect();
        std::thread::scope(|scope| {
            let mut next = batches.first().map(|b| upward_entries(h, lanes, b));
            let mut pending: Option<Pending> = None;
            let mut k = 0;
            for (b, batch) in batches.iter().enumerate() {
                self.queue_sweep(&next.take().unwrap_or_default())?;
                let following = batches
                    .get(b + 1)
                    .map(|&f| scope.spawn(move || upward_entries(h, lanes, f)));
                for first in (0..batch.len()).step_by(slots.rows) {
                    let rows = slots.rows.min(batch.len() - first);
                    self.queue_slot(slots, (k % 2, first, rows), bounds)?;
                    if let Some(last) = pending.take() {
                        slots.deliver(last, shape, sink)?;
                    }
                    pending = Some(Pending {
                        slot: k % 2,
                        first: b * lanes + first,
                        rows,
                    });
                    k += 1;
                }
                next = following
                    .map(|search| search.join())
                    .transpose()
                    .map_err(|_| Error::Internal("an upward search panicked".into()))?;
            }
            match pending {
                Some(last) => slots.deliver(last, shape, sink),
                None => Ok(()),
            }
        })
    }

    /// Queues lanes `first..first + rows` of the last sweep into the device
    /// slot, in graph order within `bounds` (limit word, target position or
    /// `INFINITY`), and its copy into host slot `slot`.
    fn queue_slot(
        &mut self,
        slots: &mut TreeSlots,
        (slot, first, rows): (usize, usize, usize),
        bounds: (u32, u32),
    ) -> Result<()> {
        let stream = self.gpu.stream();
        let len = rows * (self.down.n as usize + ROW_FLAGS);
        self.gpu.kernels().phast.rows(
            stream,
            &self.dist,
            (&self.position, self.lanes),
            (first as u32, rows as u32),
            bounds,
            &mut slots.device,
        )?;
        stream
            .memcpy_dtoh(&slots.device.slice(..len), &mut slots.host[slot])
            .map_err(Error::cuda("copying a slot of trees to the host"))?;
        slots.copied[slot] = Some(self.gpu.record_event()?);
        Ok(())
    }
}
