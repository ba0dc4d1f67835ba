//! Entry points of the PHAST sweep ([`crate::phast`]): clearing the
//! distances, writing the upward searches' distances, and the downward sweep
//! over all levels in one cooperative launch.

use core::sync::atomic::AtomicU32;

use crate::args::{
    PhastClearArgs, PhastColumnsArgs, PhastRowsArgs, PhastScatterArgs, PhastSweepArgs,
};
use crate::device::grid::{GridBarrier, grid_dim_x, grid_sync};
use crate::device::memory::slice;
use crate::device::thread::{block_dim_x, block_idx_x, index_1d, sync_threads, thread_idx_x};
use crate::phast::{self, DownArcs};

crate::args::phast_clear_args! {
    /// `phast_clear`: every distance word infinite.
    ///
    /// # Thread mapping
    /// One thread per four words `4i..4i + 4` (the last possibly fewer),
    /// `i = blockIdx.x * blockDim.x + threadIdx.x` ([`phast::clear_item`]);
    /// threads with `4i >= len` return.
    ///
    /// # Safety
    /// `dist` holds `len` words from a 16-byte boundary.
    fn phast_clear(args) {
        let PhastClearArgs { dist, len } = args;
        let i = index_1d() as usize;
        if i * phast::CLEARED_PER_ITEM < len as usize {
            // SAFETY: as the caller guarantees.
            let dist = unsafe { slice(dist, len as usize) };
            phast::clear_item(dist, i);
        }
    }
}

crate::args::phast_scatter_args! {
    /// `phast_scatter`: the upward searches' distances into `dist`.
    ///
    /// # Thread mapping
    /// One thread per entry `i = blockIdx.x * blockDim.x + threadIdx.x`; threads
    /// with `i >= count` return.
    ///
    /// # Safety
    /// `entries` holds `2 * count` words, pairs (index `< len`, distance) with
    /// distinct indices; `dist` holds `len` words.
    fn phast_scatter(args) {
        let PhastScatterArgs { entries, count, dist, len } = args;
        let i = index_1d() as usize;
        if i < count as usize {
            // SAFETY: as the caller guarantees.
            let (entries, dist) = unsafe {
                (
                    slice(entries, 2 * count as usize),
                    slice(dist, len as usize),
                )
            };
            phast::scatter_item(entries, dist, i);
        }
    }
}

crate::args::phast_columns_args! {
    /// `phast_columns`: the table rows `first_row..first_row + count` from the
    /// first `count` lanes of the sweep's distances, at the `t` target
    /// positions `targets`.
    ///
    /// # Thread mapping
    /// One thread per table word of these rows, `i = blockIdx.x * blockDim.x +
    /// threadIdx.x` (lane `i / t`, target `i % t`); threads with `i >= count * t`
    /// return.
    ///
    /// # Safety
    /// `dist` holds `n * lanes` words; `targets` holds `t >= 1` positions `< n`;
    /// `table` holds `table_len >= (first_row + count) * t` words; `count <= lanes`.
    fn phast_columns(args) {
        let PhastColumnsArgs {
            dist, n, lanes, targets, t, count, first_row, table, table_len,
        } = args;
        let (lanes, t) = (lanes as usize, t as usize);
        let i = index_1d() as usize;
        if i < count as usize * t {
            // SAFETY: as the caller guarantees.
            let (dist, targets, table) = unsafe {
                (
                    slice(dist, n as usize * lanes),
                    slice(targets, t),
                    slice(table, table_len as usize),
                )
            };
            phast::column_item(dist, targets, lanes, table, first_row as usize, i);
        }
    }
}

crate::args::phast_sweep_args! {
    /// `phast_sweep`: the downward sweep of `lanes` sources over all `levels`
    /// levels. Block 0 runs the first `block_levels` (small) levels alone, with
    /// a block barrier after each; then the whole grid runs the others, with a
    /// grid barrier after each.
    ///
    /// # Thread mapping
    /// Within a level of `size` vertices, item `i` (vertex `start + i / q`,
    /// lanes `4 * (i % q)..` with `q = lanes / 4`, [`phast::sweep_item`]) goes
    /// to thread `i mod T` of the threads working on it (`T = blockDim.x` for
    /// block 0's levels, `gridDim.x * blockDim.x` for the grid's), which loop
    /// over `i < size * q` in steps of `T`.
    ///
    /// # Safety
    /// - `offsets` holds `n + 1` words, `ends` and `weights` `m`, forming down
    ///   arcs of a hierarchy (every arc of `v` from a vertex of an earlier level);
    ///   `level_starts` holds `levels + 1` words, from 0 to `n`, increasing;
    ///   `lanes` is a multiple of [`phast::LANES_PER_ITEM`]; `dist` holds
    ///   `n * lanes` words from a 16-byte boundary; `block_levels <= levels`.
    /// - All blocks are resident at once (cooperative launch) and `barrier` is a
    ///   zeroed grid barrier: see [`grid_sync`].
    fn phast_sweep<W> as phast_sweep_u32, phast_sweep_f32 (args) {
        let PhastSweepArgs {
            offsets, ends, weights, n, m, level_starts, levels, block_levels, lanes, dist, barrier,
        } = args;
        let (n, m, lanes) = (n as usize, m as usize, lanes as usize);
        // SAFETY: as the caller guarantees.
        let (down, level_starts, dist, barrier) = unsafe {
            (
                DownArcs {
                    offsets: slice(offsets, n + 1),
                    ends: slice(ends, m),
                    weights: slice(weights, m),
                },
                slice(level_starts, levels as usize + 1),
                slice(dist, n * lanes),
                &*barrier,
            )
        };
        let level = |l: usize, first: usize, step: usize| {
            let start = level_starts[l] as usize;
            let items = (level_starts[l + 1] as usize - start) * (lanes / phast::LANES_PER_ITEM);
            let mut item = first;
            while item < items {
                phast::sweep_item::<W>(down, dist, lanes, start, item);
                item += step;
            }
        };
        if block_idx_x() == 0 {
            for l in 0..block_levels as usize {
                level(l, thread_idx_x() as usize, block_dim_x() as usize);
                sync_threads();
            }
        }
        let threads = (grid_dim_x() * block_dim_x()) as usize;
        for l in block_levels as usize..levels as usize {
            // SAFETY: every thread of the grid calls it the same number of times
            // (`levels - block_levels + 1`), from uniform control flow; resident
            // blocks and a zeroed barrier as the caller guarantees.
            unsafe { grid_sync(barrier) };
            level(l, index_1d() as usize, threads);
        }
    }
}

crate::args::phast_rows_args! {
    /// `phast_rows`: a slot of `rows` whole trees in graph order, lanes
    /// `first_lane..first_lane + rows` of the sweep's distances, bounded by
    /// the stop, overflow counted into each row's flags
    /// ([`phast::row_item`]).
    ///
    /// # Thread mapping
    /// One thread per slot word `i = blockIdx.x * blockDim.x + threadIdx.x`
    /// (vertex `i / rows`, row `i % rows`); threads with `i >= n * rows`
    /// return.
    ///
    /// # Safety
    /// `dist` holds `n * lanes` words; `position` holds `n` positions `< n`;
    /// `first_lane + rows <= lanes`; `target` is `INFINITY` or `< n`; `out`
    /// holds `rows * (n + ROW_FLAGS)` words.
    fn phast_rows(args) {
        let PhastRowsArgs { dist, n, lanes, position, first_lane, rows, limit, target, out } = args;
        let (n, lanes, rows) = (n as usize, lanes as usize, rows as usize);
        let i = index_1d() as usize;
        if i < n * rows {
            // SAFETY: as the caller guarantees.
            let (dist, position, out) = unsafe {
                (
                    slice(dist, n * lanes),
                    slice(position, n),
                    slice(out, rows * (n + crate::rows::ROW_FLAGS)),
                )
            };
            let slot = (first_lane as usize, rows);
            phast::row_item(dist, (position, lanes), slot, (limit, target), out, i);
        }
    }
}
