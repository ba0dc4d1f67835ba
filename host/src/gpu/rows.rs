//! Many solves' rows delivered at the solver's speed: each row is finished
//! on the GPU (gathered into the caller's vertex order, bounded, checked for
//! overflow: [`gpu_kernels::rows`]; certified: [`Certificate`]), copied on
//! a second stream into one of two page-locked slots while the GPU already
//! solves from the next source, and handed to the caller's [`RowSink`]. The
//! host does no per-vertex work of its own.

use std::sync::Arc;

use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{CudaEvent, CudaSlice, CudaStream, PinnedHostSlice};
use gpu_kernels::distance::INFINITY;
use gpu_kernels::rows::{ROW_FLAGS, saturated};

use super::buffers::upload;
use super::certificate::{Certificate, gpu_flags};
use super::context::Gpu;
use crate::graph::WeightKind;
use crate::options::{RowSink, Stop};
use crate::{Error, Result};

/// One row in flight: its finished copy on the device and on the host, the
/// events around its solve, and its certificate's words on the device and
/// on the host.
struct Slot {
    device: CudaSlice<u32>,
    host: PinnedHostSlice<u32>,
    solve: Option<(CudaEvent, CudaEvent)>,
    /// Recorded after the slot's copies to the host, waited on before the
    /// host reads them ([`Gpu::record_event`]).
    copied: Option<CudaEvent>,
    certified: CudaSlice<u64>,
    certified_host: PinnedHostSlice<u64>,
}

/// The device side of a renumbering solver's row delivery: its permutation
/// on the device and two slots, made once and kept for later batches.
pub struct RowSlots {
    new_of_old: CudaSlice<u32>,
    slots: [Slot; 2],
    /// The stream the rows are copied on, so that a row's copy overlaps the
    /// next solve.
    copier: Arc<CudaStream>,
}

/// A solver that renumbers the graph, as [`RowSlots::stream`] drives it.
pub trait RenumberedRows {
    /// Queues a solve from `source` (an original id) on the solver's
    /// stream, not waited for.
    fn queue_solve(&mut self, source: u32) -> Result<()>;

    /// The buffer of distances by new id that a solve leaves once done.
    fn result(&self) -> &CudaSlice<u32>;

    /// The new id of the original vertex `vertex`.
    fn new_id(&self, vertex: usize) -> u32;
}

impl RowSlots {
    /// Uploads `new_of_old` (each original vertex's id in the solver's
    /// numbering) and allocates two slots of its length.
    pub fn new(gpu: &Gpu, new_of_old: &[u32]) -> Result<RowSlots> {
        let stream = gpu.stream();
        let len = new_of_old.len() + ROW_FLAGS;
        let slot = || -> Result<Slot> {
            let device = stream
                .alloc_zeros::<u32>(len)
                .map_err(Error::cuda("allocating a row on the GPU"))?;
            // SAFETY: the slot is written by a copy before the host reads it
            // (the host waits for the copy's event first). No
            // write-combining (flags 0): the host reads it.
            let host = unsafe { stream.context().alloc_pinned_with_flags::<u32>(len, 0) }
                .map_err(Error::cuda("allocating page-locked memory for rows"))?;
            // SAFETY: as for `host`.
            let certified_host = unsafe { stream.context().alloc_pinned_with_flags::<u64>(2, 0) }
                .map_err(Error::cuda("allocating page-locked memory for rows"))?;
            Ok(Slot {
                device,
                host,
                solve: None,
                copied: None,
                certified: gpu_flags(gpu)?,
                certified_host,
            })
        };
        Ok(RowSlots {
            new_of_old: upload(stream, new_of_old, "the vertex numbering")?,
            slots: [slot()?, slot()?],
            copier: stream
                .fork()
                .map_err(Error::cuda("creating a stream for the rows' copies"))?,
        })
    }

    /// Solves from each of `sources` on `solver` (queued on `gpu`'s
    /// stream) and hands each row to `sink`: row `i` is finished and copied
    /// while the host hands row `i - 1` over, so the GPU never waits for the
    /// host unless the sink is slower than a solve. With a `certificate`,
    /// each row is certified on the GPU before the sink sees it. Returns each
    /// solve's GPU time (CUDA events around it), ms.
    pub fn stream(
        &mut self,
        gpu: &Gpu,
        (sources, stop, kind): (&[u32], Stop, WeightKind),
        (sink, mut certificate): (&mut RowSink<'_>, Option<&mut Certificate>),
        solver: &mut impl RenumberedRows,
    ) -> Result<Vec<f32>> {
        let target = stop.target.map_or(INFINITY, |t| t as u32);
        let target_new = stop.target.map_or(INFINITY, |t| solver.new_id(t));
        let mut times = Vec::with_capacity(sources.len());
        for (i, &source) in sources.iter().enumerate() {
            let start = gpu.record_event()?;
            solver.queue_solve(source)?;
            self.slots[i % 2].solve = Some((start, gpu.record_event()?));
            let bounds = (stop.limit_word(), target_new);
            self.queue(gpu, i % 2, solver.result(), bounds)?;
            if let Some(certificate) = certificate.as_deref_mut() {
                self.queue_certificate(
                    gpu,
                    i % 2,
                    certificate,
                    (source, stop.limit_word(), target),
                )?;
            }
            self.queue_copies(gpu, i % 2)?;
            if i > 0 {
                let delivered = (i - 1, sources[i - 1], kind);
                times.push(self.deliver(gpu, delivered, sink, certificate.as_deref_mut())?);
            }
        }
        if let Some(last) = sources.len().checked_sub(1) {
            let delivered = (last, sources[last], kind);
            times.push(self.deliver(gpu, delivered, sink, certificate)?);
        }
        Ok(times)
    }

    /// Queues the certificate of the row in slot `slot` (from `source`,
    /// within the limit and the target by original id).
    fn queue_certificate(
        &mut self,
        gpu: &Gpu,
        slot: usize,
        certificate: &Certificate,
        (source, limit, target): (u32, u32, u32),
    ) -> Result<()> {
        let n = self.new_of_old.len();
        let Slot {
            device, certified, ..
        } = &mut self.slots[slot];
        let row = device.slice(..n);
        certificate.queue_check(gpu, source, (limit, target), &row, certified)
    }

    /// Queues the copies of slot `slot` (its row and flags, its certificate's
    /// words) on the copier stream once the GPU's stream has finished them,
    /// and the event the host waits on: the next solve does not wait for
    /// them. (The slot is written again two rows later, after the host
    /// waited on this event.)
    fn queue_copies(&mut self, gpu: &Gpu, slot: usize) -> Result<()> {
        let finished = gpu.record_event()?;
        let copier = &self.copier;
        copier
            .wait(&finished)
            .map_err(Error::cuda("ordering a row's copy after its row"))?;
        let Slot {
            device,
            host,
            certified,
            certified_host,
            copied,
            ..
        } = &mut self.slots[slot];
        copier
            .memcpy_dtoh(device, host)
            .and_then(|()| copier.memcpy_dtoh(certified, certified_host))
            .map_err(Error::cuda("copying a row to the host"))?;
        let event = copier
            .record_event(Some(CUevent_flags::CU_EVENT_DISABLE_TIMING))
            .map_err(Error::cuda("recording an event"))?;
        *copied = Some(event);
        Ok(())
    }

    /// Queues the finishing of the row in `dist` (by new id) into slot
    /// `slot`, within `bounds` (the limit word, the target's new id or
    /// `INFINITY`).
    fn queue(
        &mut self,
        gpu: &Gpu,
        slot: usize,
        dist: &CudaSlice<u32>,
        bounds: (u32, u32),
    ) -> Result<()> {
        let device = &mut self.slots[slot].device;
        gpu.kernels()
            .rows
            .gather(gpu.stream(), (dist, &self.new_of_old), bounds, device)
    }

    /// Waits for row `i`'s copy (from `source`), checks its flags and its
    /// certificate, and hands it to `sink`; returns its solve's GPU time, ms.
    fn deliver(
        &mut self,
        gpu: &Gpu,
        (i, source, kind): (usize, u32, WeightKind),
        sink: &mut RowSink<'_>,
        certificate: Option<&mut Certificate>,
    ) -> Result<f32> {
        let n = self.new_of_old.len();
        let slot = &mut self.slots[i % 2];
        slot.copied
            .take()
            .ok_or_else(|| Error::Internal("a row delivered before its copy".into()))?
            .synchronize()
            .map_err(Error::cuda("waiting for a row's copy"))?;
        let words = slot
            .host
            .as_slice()
            .map_err(Error::cuda("waiting for a row's copy"))?;
        let (row, flags) = words.split_at(words.len() - ROW_FLAGS);
        if let Some((vertex, count)) = saturated([flags[0], flags[1]]) {
            return Err(crate::distances::overflow(kind, vertex, count));
        }
        if let Some(certificate) = certificate {
            let words = slot
                .certified_host
                .as_slice()
                .map_err(Error::cuda("waiting for a certificate's words"))?;
            let on_device = slot.device.slice(..n);
            certificate.conclude(gpu, source, [words[0], words[1]], Some(&on_device))?;
        }
        sink(i, row)?;
        match slot.solve.take() {
            Some((start, end)) => start
                .elapsed_ms(&end)
                .map_err(Error::cuda("reading a solve's time between two events")),
            None => Err(Error::Internal("a row without its solve's events".into())),
        }
    }
}
