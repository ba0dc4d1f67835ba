//! PHAST on the GPU: trees of a batch of sources from a contraction
//! hierarchy ([`crate::ch`]). The upward searches run on the host, in
//! parallel; their distances go to the device, where one cooperative launch
//! sweeps every level for the whole batch ([`gpu_kernels::phast`]).

use cudarc::driver::CudaSlice;
use gpu_kernels::launch::{GRID_BARRIER_WORDS, PHAST_BLOCK_ITEMS_PER_THREAD, PHAST_BLOCK_SIZE};
use gpu_kernels::phast::{LANES_PER_ITEM, block_levels};
use rayon::prelude::*;

use super::context::Gpu;
use super::kernels::{DeviceDownArcs, WithinBuffers};
use super::memory::{alloc_zeroed, bytes_of, upload};
use crate::ch::index::Hierarchy;
use crate::ch::query::upward_search;
use crate::{Error, Result};

mod reductions;
mod stream;

/// The sources a sweep serves at once unless told otherwise (fewer where
/// their distances would not fit: [`GpuPhast::new`]). A warp reads one
/// contiguous row of 128 distances per arc; more lanes share each level's
/// barrier among more trees. Measured on the H200 (docs/PERFORMANCE.md),
/// all-pairs accessibility of road networks takes 20–24 % less time with
/// 1,024 lanes than with 256.
pub const DEFAULT_LANES: u32 = 1024;

/// The share of the device's free memory a sweep's distances may take
/// before [`GpuPhast::new`] halves its lanes: the rest is for the index,
/// tables, trees on their way to the host and other work.
const DISTANCE_SHARE: u64 = 4;

/// The device state of PHAST for one hierarchy.
pub struct GpuPhast<'a> {
    gpu: &'a Gpu,
    down: DeviceDownArcs,
    lanes: u32,
    block_levels: u32,
    blocks: u32,
    dist: CudaSlice<u32>,
    position: CudaSlice<u32>,
    /// The trees in graph order for [`GpuPhast::download`], allocated by its
    /// first call (tables and trees left on the device do not need it).
    rows: Option<CudaSlice<u32>>,
    entries: CudaSlice<u32>,
    barrier: CudaSlice<u32>,
    /// The slots of streamed trees ([`GpuPhast::stream_rows`]), allocated
    /// by its first call.
    slots: Option<stream::TreeSlots>,
    /// The values and parts of [`GpuPhast::within`], kept between calls
    /// (the values by position and the parts: a batch pays for neither).
    within: Option<WithinBuffers>,
}

/// Where the time of one batch went, ms.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BatchTimes {
    /// The upward searches on the host.
    pub search_ms: f64,
    /// Upload of their distances, clearing and the sweep (CUDA events).
    pub sweep_ms: f64,
}

impl<'a> GpuPhast<'a> {
    /// Uploads the down arcs and levels of `h` and allocates distances for
    /// batches of up to `lanes` sources: rounded up to a multiple of
    /// [`LANES_PER_ITEM`] (the sweep's lanes per thread), then halved while
    /// their distances exceed 32-bit indices or a quarter of the device's
    /// free memory. The trees are the same whatever the lanes.
    pub fn new(gpu: &'a Gpu, h: &Hierarchy, lanes: u32) -> Result<Self> {
        let n = h.num_vertices();
        let m = h.down.len();
        if lanes == 0 {
            return Err(Error::InvalidArgument(
                "a PHAST batch needs at least one source".into(),
            ));
        }
        let (free, _) = gpu.memory_info()?;
        let lanes = fitting_lanes(n, lanes, free / DISTANCE_SHARE).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "the distances of {LANES_PER_ITEM} sources × {n} vertices do not fit 32-bit \
                 indices"
            ))
        })?;
        let words = n * lanes as usize;
        gpu.check_fits(
            "the hierarchy's down arcs and the batch distances",
            bytes_of::<u32>(3 * (n + 1) + 2 * m + words),
        )?;
        let stream = gpu.stream();
        let down = DeviceDownArcs {
            offsets: upload(stream, &h.down.offsets, "the down-arc offsets")?,
            ends: upload(stream, &h.down.ends, "the down-arc ends")?,
            weights: upload(stream, &h.down.weights, "the down-arc weights")?,
            level_starts: upload(stream, &h.level_starts, "the level starts")?,
            n: n as u32,
            m: m as u32,
            levels: h.num_levels() as u32,
            weight_kind: h.weight_kind,
        };
        let block_levels = block_levels(
            &h.level_starts,
            lanes as usize,
            PHAST_BLOCK_SIZE as usize,
            PHAST_BLOCK_ITEMS_PER_THREAD as usize,
        ) as u32;
        let blocks = gpu.kernels().phast.sweep_blocks(
            stream.context(),
            h.weight_kind,
            (words / LANES_PER_ITEM).max(1) as u32,
        )?;
        Ok(GpuPhast {
            gpu,
            down,
            lanes,
            block_levels,
            blocks,
            dist: alloc_zeroed(gpu, words, "the batch distances")?,
            position: upload(stream, &h.position, "the vertex positions")?,
            rows: None,
            entries: alloc_zeroed(gpu, 2, "the upward distances")?,
            barrier: alloc_zeroed(gpu, GRID_BARRIER_WORDS, "the grid barrier")?,
            slots: None,
            within: None,
        })
    }

    /// Sources per batch.
    pub fn lanes(&self) -> usize {
        self.lanes as usize
    }

    /// Levels that block 0 sweeps alone, of all levels.
    pub fn block_levels(&self) -> (u32, u32) {
        (self.block_levels, self.down.levels)
    }

    /// Runs the trees of `sources` (graph vertices, at most
    /// [`GpuPhast::lanes`]); the distances stay on the device for
    /// [`GpuPhast::download`].
    pub fn run(&mut self, h: &Hierarchy, sources: &[usize]) -> Result<BatchTimes> {
        let start = std::time::Instant::now();
        let entries = self.upward_entries(h, sources)?;
        let search_ms = start.elapsed().as_secs_f64() * 1e3;
        let ((), sweep_ms) = self.gpu.timed(|| self.queue_sweep(&entries))?;
        Ok(BatchTimes {
            search_ms,
            sweep_ms: sweep_ms as f64,
        })
    }

    /// The upward searches of a batch's `sources` (in parallel on the host)
    /// as (index into the batch's distances, distance) pairs.
    fn upward_entries(&self, h: &Hierarchy, sources: &[usize]) -> Result<Vec<u32>> {
        if sources.len() > self.lanes() {
            return Err(Error::Internal(format!(
                "a PHAST batch of {} sources on {} lanes",
                sources.len(),
                self.lanes
            )));
        }
        Ok(upward_entries(h, self.lanes(), sources))
    }

    /// Queues a batch on the stream (no wait): the upload of its upward
    /// distances, clearing, scattering and the sweep.
    fn queue_sweep(&mut self, entries: &[u32]) -> Result<()> {
        let stream = self.gpu.stream().clone();
        if self.entries.len() < entries.len() {
            self.entries = alloc_zeroed(self.gpu, entries.len(), "the upward distances")?;
        }
        let count = (entries.len() / 2) as u32;
        let len = self.down.n * self.lanes;
        if !entries.is_empty() {
            stream
                .memcpy_htod(entries, &mut self.entries)
                .map_err(Error::cuda("copying the upward distances to the GPU"))?;
        }
        let kernels = &self.gpu.kernels().phast;
        kernels.clear(&stream, &mut self.dist, len)?;
        kernels.scatter(&stream, &self.entries, count, &mut self.dist, len)?;
        self.gpu.cooperative(|| {
            kernels.sweep(
                &stream,
                &self.down,
                self.block_levels,
                self.lanes,
                &mut self.dist,
                &mut self.barrier,
                self.blocks,
            )
        })
    }

    /// The trees of every source, batch after batch, pipelined: the host
    /// runs the upward searches of the next batch while the GPU sweeps the
    /// last one. `read` queues work on each batch's distances (its first
    /// source's index in `sources`, its size) before they are overwritten.
    /// Returns the wall time (host clock) until the GPU is done, ms.
    fn pipelined(
        &mut self,
        h: &Hierarchy,
        sources: &[usize],
        mut read: impl FnMut(&mut Self, usize, usize) -> Result<()>,
    ) -> Result<f64> {
        let start = std::time::Instant::now();
        let batches: Vec<&[usize]> = sources.chunks(self.lanes()).collect();
        let mut next = match batches.first() {
            Some(batch) => Some(self.upward_entries(h, batch)?),
            None => None,
        };
        for (i, batch) in batches.iter().enumerate() {
            let entries = next.take().unwrap_or_default();
            self.queue_sweep(&entries)?;
            read(self, i * self.lanes(), batch.len())?;
            if let Some(following) = batches.get(i + 1) {
                next = Some(self.upward_entries(h, following)?);
            }
        }
        self.gpu.synchronize()?;
        Ok(start.elapsed().as_secs_f64() * 1e3)
    }

    /// The trees of every source left on the device, pipelined; nothing is
    /// read back: what an application that consumes trees on the GPU pays.
    /// Returns the wall time, ms.
    pub fn trees_on_device(&mut self, h: &Hierarchy, sources: &[usize]) -> Result<f64> {
        self.pipelined(h, sources, |_, _, _| Ok(()))
    }

    /// The `sources.len() × targets.len()` table of distance words between
    /// graph vertices, row-major: each batch's target columns are gathered
    /// on the GPU, and the table is copied back once. Returns it and the
    /// wall time, ms.
    pub fn table(
        &mut self,
        h: &Hierarchy,
        sources: &[usize],
        targets: &[usize],
    ) -> Result<(Vec<u32>, f64)> {
        let start = std::time::Instant::now();
        let words = sources.len() * targets.len();
        if words > u32::MAX as usize {
            return Err(Error::InvalidArgument(format!(
                "a {} × {} table does not fit 32-bit indices",
                sources.len(),
                targets.len()
            )));
        }
        if words == 0 {
            return Ok((Vec::new(), 0.0));
        }
        let positions: Vec<u32> = targets.iter().map(|&t| h.position[t]).collect();
        let stream = self.gpu.stream().clone();
        let device_targets = upload(&stream, &positions, "the table's targets")?;
        let mut table = alloc_zeroed(self.gpu, words, "the table")?;
        let t = targets.len() as u32;
        self.pipelined(h, sources, |me, first, count| {
            me.gpu.kernels().phast.columns(
                &stream,
                &me.dist,
                (me.down.n, me.lanes, count as u32),
                &device_targets,
                t,
                first as u32,
                &mut table,
            )
        })?;
        let rows = stream
            .clone_dtoh(&table)
            .map_err(Error::cuda("copying the table from the GPU"))?;
        Ok((rows, start.elapsed().as_secs_f64() * 1e3))
    }

    /// The distances of the first `count` lanes of the last batch, each in
    /// graph order (reordered on the GPU, then each row copied to its own
    /// host vector).
    pub fn download(&mut self, count: usize) -> Result<Vec<Vec<u32>>> {
        let n = self.down.n as usize;
        let mut rows = match self.rows.take() {
            Some(rows) => rows,
            None => alloc_zeroed(self.gpu, n * self.lanes(), "the trees in graph order")?,
        };
        let stream = self.gpu.stream();
        // The table of every vertex: rows in graph order.
        self.gpu.kernels().phast.columns(
            stream,
            &self.dist,
            (self.down.n, self.lanes, count as u32),
            &self.position,
            self.down.n,
            0,
            &mut rows,
        )?;
        let trees = (0..count)
            .map(|lane| {
                stream
                    .clone_dtoh(&rows.slice(lane * n..(lane + 1) * n))
                    .map_err(Error::cuda("copying a tree from the GPU"))
            })
            .collect();
        self.rows = Some(rows);
        trees
    }
}

/// The lanes of a sweep of `n` vertices asked for `lanes`: rounded up to a
/// multiple of [`LANES_PER_ITEM`], then halved (staying a multiple) while
/// the distances exceed 32-bit indices or `budget` bytes. `None` when not
/// even [`LANES_PER_ITEM`] lanes have 32-bit indices; a budget too small
/// for them leaves them to the allocation's own check.
pub fn fitting_lanes(n: usize, lanes: u32, budget: u64) -> Option<u32> {
    let step = LANES_PER_ITEM as u32;
    let mut lanes = lanes.checked_next_multiple_of(step)?.max(step);
    let fits = |lanes: u32, budget: u64| {
        let words = n as u64 * lanes as u64;
        words <= u32::MAX as u64 && words * 4 <= budget
    };
    while lanes > step && !fits(lanes, budget) {
        lanes = (lanes / 2).next_multiple_of(step);
    }
    fits(lanes, u64::MAX).then_some(lanes)
}

/// The upward searches of a batch's `sources` (in parallel on the host) as
/// (index into the distances of `lanes` interleaved sources, distance)
/// pairs.
fn upward_entries(h: &Hierarchy, lanes: usize, sources: &[usize]) -> Vec<u32> {
    sources
        .par_iter()
        .enumerate()
        .flat_map_iter(|(lane, &s)| {
            let space = upward_search(h, &h.up, h.position[s]);
            space
                .vertices
                .into_iter()
                .zip(space.dist)
                .flat_map(move |(v, d)| [(v as usize * lanes + lane) as u32, d])
        })
        .collect()
}
