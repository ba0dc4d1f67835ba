//! The kernels of the PHAST sweep, one method each.

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchConfig};
use gpu_kernels::args::{
    PhastClearArgs, PhastColumnsArgs, PhastRowsArgs, PhastScatterArgs, PhastSweepArgs,
};
use gpu_kernels::distance::{INFINITY, WeightKind};
use gpu_kernels::launch::{PHAST_BLOCK_SIZE, names};
use gpu_kernels::phast::{CLEARED_PER_ITEM, LANES_PER_ITEM};
use gpu_kernels::rows::ROW_FLAGS;

use super::launch::{
    Launch, Typed, check_lengths, device, grid_blocks, launch, load_function, one_thread_per,
    zero_grid_barrier,
};
use crate::{Error, Result};

/// A hierarchy's down arcs and levels on the device.
pub struct DeviceDownArcs {
    /// Row offsets, `n + 1`.
    pub offsets: CudaSlice<u32>,
    /// The higher vertex of each arc, `m`.
    pub ends: CudaSlice<u32>,
    /// Weight words, `m`.
    pub weights: CudaSlice<u32>,
    /// The weights' type.
    pub weight_kind: WeightKind,
    /// Level starts, `levels + 1`.
    pub level_starts: CudaSlice<u32>,
    /// Vertices.
    pub n: u32,
    /// Arcs.
    pub m: u32,
    /// Levels.
    pub levels: u32,
}

/// The PHAST kernels.
pub struct PhastKernels {
    clear: CudaFunction,
    scatter: CudaFunction,
    sweep: Typed,
    columns: CudaFunction,
    rows: CudaFunction,
}

impl PhastKernels {
    /// Resolves the PHAST kernels in `module`.
    pub fn load(module: &Arc<CudaModule>) -> Result<Self> {
        Ok(PhastKernels {
            clear: load_function(module, names::PHAST_CLEAR)?,
            scatter: load_function(module, names::PHAST_SCATTER)?,
            sweep: Typed::load(module, names::PHAST_SWEEP)?,
            columns: load_function(module, names::PHAST_COLUMNS)?,
            rows: load_function(module, names::PHAST_ROWS)?,
        })
    }

    /// The blocks of a `phast_sweep` launch for weights of `kind`: as many
    /// as can be resident at once, at most enough for `items` items.
    pub fn sweep_blocks(
        &self,
        ctx: &Arc<CudaContext>,
        kind: WeightKind,
        items: u32,
    ) -> Result<u32> {
        grid_blocks(ctx, self.sweep.of(kind), (PHAST_BLOCK_SIZE, 0), items)
    }

    /// `phast_clear`: the first `len` words of `dist` infinite.
    pub fn clear(
        &self,
        stream: &Arc<CudaStream>,
        dist: &mut CudaSlice<u32>,
        len: u32,
    ) -> Result<()> {
        let kernel = names::PHAST_CLEAR;
        check_lengths(kernel, &[("dist", dist.len(), len as usize)])?;
        let args = PhastClearArgs {
            dist: device(stream, dist),
            len,
        };
        let function = (&self.clear, kernel);
        let threads = len.div_ceil(CLEARED_PER_ITEM as u32);
        // SAFETY: `dist` holds `len` words (checked above), a device
        // allocation (256-byte aligned).
        unsafe {
            launch(
                stream,
                function,
                one_thread_per(threads),
                &args,
                Launch::Plain,
            )
        }
    }

    /// `phast_scatter`: the first `count` (index, distance) pairs of
    /// `entries` into `dist`, whose first `len` words the indices stay within
    /// and never repeat (checked by the caller, who built them).
    pub fn scatter(
        &self,
        stream: &Arc<CudaStream>,
        entries: &CudaSlice<u32>,
        count: u32,
        dist: &mut CudaSlice<u32>,
        len: u32,
    ) -> Result<()> {
        let kernel = names::PHAST_SCATTER;
        check_lengths(
            kernel,
            &[
                ("entries", entries.len(), 2 * count as usize),
                ("dist", dist.len(), len as usize),
            ],
        )?;
        if count == 0 {
            return Ok(());
        }
        let args = PhastScatterArgs {
            entries: device(stream, entries),
            count,
            dist: device(stream, dist),
            len,
        };
        let function = (&self.scatter, kernel);
        // SAFETY: the lengths are checked above and the caller's indices are
        // distinct and `< len`.
        unsafe {
            launch(
                stream,
                function,
                one_thread_per(count),
                &args,
                Launch::Plain,
            )
        }
    }

    /// `phast_columns`: table rows `first_row..first_row + count` from the
    /// first `count` of `lanes` interleaved trees in `dist` (of `n`
    /// vertices), at the target positions `targets` (each `< n`, as the
    /// caller took them from a validated hierarchy).
    #[allow(clippy::too_many_arguments)]
    pub fn columns(
        &self,
        stream: &Arc<CudaStream>,
        dist: &CudaSlice<u32>,
        (n, lanes, count): (u32, u32, u32),
        targets: &CudaSlice<u32>,
        t: u32,
        first_row: u32,
        table: &mut CudaSlice<u32>,
    ) -> Result<()> {
        let kernel = names::PHAST_COLUMNS;
        let rows_end = (first_row as usize + count as usize) * t as usize;
        check_lengths(
            kernel,
            &[
                ("dist", dist.len(), n as usize * lanes as usize),
                ("targets", targets.len(), t as usize),
                ("table", table.len(), rows_end),
            ],
        )?;
        if count > lanes || rows_end > u32::MAX as usize {
            return Err(Error::Internal(format!(
                "{kernel}: {count} rows of {lanes} lanes, table end {rows_end}"
            )));
        }
        let words = count * t;
        if words == 0 {
            return Ok(());
        }
        let table_len = table.len().min(u32::MAX as usize) as u32;
        let args = PhastColumnsArgs {
            dist: device(stream, dist),
            n,
            lanes,
            targets: device(stream, targets),
            t,
            count,
            first_row,
            table: device(stream, table),
            table_len,
        };
        let function = (&self.columns, kernel);
        // SAFETY: lengths checked above, target positions `< n` as the caller
        // guarantees.
        unsafe {
            launch(
                stream,
                function,
                one_thread_per(words),
                &args,
                Launch::Plain,
            )
        }
    }

    /// `phast_rows`: `rows` whole trees in graph order, lanes `first_lane..`
    /// of the `lanes` interleaved trees in `dist`, into `out` (rows of
    /// `n + ROW_FLAGS` words, the flags zeroed here first), bounded by
    /// `limit` and the distance of the position `target` (`INFINITY`: none).
    /// `position` holds each vertex's position (`< n`, from a validated
    /// hierarchy).
    #[allow(clippy::too_many_arguments)]
    pub fn rows(
        &self,
        stream: &Arc<CudaStream>,
        dist: &CudaSlice<u32>,
        (position, lanes): (&CudaSlice<u32>, u32),
        (first_lane, rows): (u32, u32),
        (limit, target): (u32, u32),
        out: &mut CudaSlice<u32>,
    ) -> Result<()> {
        let kernel = names::PHAST_ROWS;
        let n = position.len();
        let words = rows as usize * (n + ROW_FLAGS);
        check_lengths(
            kernel,
            &[
                ("dist", dist.len(), n * lanes as usize),
                ("out", out.len(), words),
            ],
        )?;
        let items = n * rows as usize;
        if first_lane + rows > lanes
            || items > u32::MAX as usize
            || (target != INFINITY && target as usize >= n)
        {
            return Err(Error::Internal(format!(
                "{kernel}: rows {first_lane}+{rows} of {lanes} lanes, {n} vertices, target {target}"
            )));
        }
        if items == 0 {
            return Ok(());
        }
        let mut slot = out.slice_mut(..words);
        stream
            .memset_zeros(&mut slot)
            .map_err(Error::cuda("clearing the flags of a slot of trees"))?;
        let args = PhastRowsArgs {
            dist: device(stream, dist),
            n: n as u32,
            lanes,
            position: device(stream, position),
            first_lane,
            rows,
            limit,
            target,
            out: device(stream, out),
        };
        let function = (&self.rows, kernel);
        // SAFETY: lengths and lanes checked above, positions `< n` as the
        // caller guarantees.
        unsafe {
            launch(
                stream,
                function,
                one_thread_per(items as u32),
                &args,
                Launch::Plain,
            )
        }
    }

    /// `phast_sweep` of `lanes` sources over every level, the first
    /// `block_levels` on one block, on `blocks` blocks (at most
    /// [`PhastKernels::sweep_blocks`]); zeroes the barrier first.
    #[allow(clippy::too_many_arguments)]
    pub fn sweep(
        &self,
        stream: &Arc<CudaStream>,
        down: &DeviceDownArcs,
        block_levels: u32,
        lanes: u32,
        dist: &mut CudaSlice<u32>,
        barrier: &mut CudaSlice<u32>,
        blocks: u32,
    ) -> Result<()> {
        let function = self.sweep.of(down.weight_kind);
        let kernel = function.1;
        let (n, m) = (down.n as usize, down.m as usize);
        check_lengths(
            kernel,
            &[
                ("offsets", down.offsets.len(), n + 1),
                ("ends", down.ends.len(), m),
                ("weights", down.weights.len(), m),
                (
                    "level_starts",
                    down.level_starts.len(),
                    down.levels as usize + 1,
                ),
                ("dist", dist.len(), n * lanes as usize),
            ],
        )?;
        if !(lanes as usize).is_multiple_of(LANES_PER_ITEM) {
            return Err(Error::Internal(format!(
                "{kernel}: {lanes} lanes, not a multiple of {LANES_PER_ITEM}"
            )));
        }
        if block_levels > down.levels {
            return Err(Error::Internal(format!(
                "{kernel}: {block_levels} block levels of {}",
                down.levels
            )));
        }
        zero_grid_barrier(stream, kernel, barrier, blocks)?;
        let config = LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (PHAST_BLOCK_SIZE, 1, 1),
            shared_mem_bytes: 0,
        };
        let args = PhastSweepArgs {
            offsets: device(stream, &down.offsets),
            ends: device(stream, &down.ends),
            weights: device(stream, &down.weights),
            n: down.n,
            m: down.m,
            level_starts: device(stream, &down.level_starts),
            levels: down.levels,
            block_levels,
            lanes,
            dist: device(stream, dist),
            barrier: device(stream, barrier),
        };
        // SAFETY: lengths and lanes checked above (device allocations start
        // at 256-byte boundaries); the arrays come from a validated
        // hierarchy (every down arc from an earlier level, level starts from
        // 0 to n, increasing); the barrier is zeroed on this stream just before,
        // and the launch is cooperative, so the driver runs it only if all
        // blocks can be co-resident, as the grid barrier requires.
        unsafe { launch(stream, function, config, &args, Launch::Cooperative) }
    }
}
