//! Entry points of DA2CF on adjacency matrices (Martín et al. §5; Ortega-Arranz
//! et al.): the two `relax` kernels, whose blocks stage chunks of the vertex
//! arrays in shared memory, and Crauser's `Δ_node`. `initialize`, `minimum1`,
//! `minimum2`, `update` and Crauser's `minimum1` and `update` are the list
//! forms' kernels, which do not read the graph.
//!
//! The matrix argument `weights` holds `n * n` `u32`s, row-major
//! (`weights[u * n + v]` = weight of `u → v`, [`NO_EDGE`](crate::matrix::NO_EDGE)
//! where there is none); its length is computed in 64 bits, so `n` up to
//! `u32::MAX` indexes correctly (the host refuses far smaller `n`).

use core::slice::from_raw_parts;
use core::sync::atomic::AtomicU32;
use core::sync::atomic::Ordering::Relaxed;

use crate::args::{MatrixDeltaNodeArgs, MatrixRelaxArgs};
use crate::da2cf::FALSE;
use crate::device::memory::slice;
use crate::device::shared::dynamic_shared_mem;
use crate::device::thread::{block_dim_x, index_1d, sync_threads, thread_idx_x};
use crate::distance::INFINITY;
use crate::launch::MATRIX_VOTE_WORDS;
use crate::matrix;

/// The block-wide votes of the `relax` kernels: [`MATRIX_VOTE_WORDS`] words at
/// the start of the block's shared memory, each an "any thread raised it" flag.
///
/// Protocol (every thread of the block runs it, from block-uniform control
/// flow):
/// 1. thread 0 clears both words; barrier;
/// 2. threads with work raise word 1; barrier; if word 1 is not raised, the
///    whole block returns (every thread reads the same value: nobody writes the
///    word again before the first barrier of chunk 0);
/// 3. chunk `c` uses word `c % 2`: threads that stage a set flag raise it;
///    barrier; every thread reads it, and only if it is raised does any thread
///    scan the chunk; thread 0 clears the other word (read in chunk `c - 1`,
///    before that chunk's last barrier; raised again in chunk `c + 1`, after
///    this chunk's last barrier); barrier.
///
/// So blocks without work leave at once, and chunks without a set flag cost
/// two barriers and no scan: what makes the walk cheap when frontiers are small
/// (degree 7) or the block is settled. Skipping changes no result: a scan of a
/// chunk without set flags reads nothing and changes nothing.
///
/// [`MATRIX_VOTE_WORDS`]: crate::launch::MATRIX_VOTE_WORDS
struct Votes<'a>(&'a [AtomicU32]);

impl Votes<'_> {
    /// The word that says whether the block has work at all.
    const BLOCK: usize = 1;

    #[inline(always)]
    fn clear(&self, word: usize) {
        self.0[word].store(0, Relaxed);
    }

    #[inline(always)]
    fn raise(&self, word: usize) {
        self.0[word].store(1, Relaxed);
    }

    #[inline(always)]
    fn raised(&self, word: usize) -> bool {
        self.0[word].load(Relaxed) != 0
    }

    /// Steps 1 and 2 of the protocol: whether any thread of the block has work.
    #[inline(always)]
    fn block_has_work(&self, thread: usize, has_work: bool) -> bool {
        if thread == 0 {
            self.clear(0);
            self.clear(1);
        }
        sync_threads();
        if has_work {
            self.raise(Self::BLOCK);
        }
        sync_threads();
        self.raised(Self::BLOCK)
    }

    /// Step 3 of the protocol: the walk over the chunks of `n` slots, `b` at a
    /// time, the same in the whole block. `stage(chunk)` stages this thread's
    /// slot of the chunk and says whether it set a flag; after the barrier, a
    /// thread with a `start` runs `scan(start, chunk, len)` over the chunk's
    /// `len` slots if any thread set a flag; a second barrier frees the slots.
    #[inline(always)]
    fn walk_chunks(
        &self,
        (n, b, thread): (usize, usize, usize),
        start: Option<u32>,
        mut stage: impl FnMut(usize) -> bool,
        mut scan: impl FnMut(u32, usize, usize),
    ) {
        // The vote word of the current chunk, `chunk / b % 2`.
        let mut vote = 0;
        let mut chunk = 0;
        while chunk < n {
            if stage(chunk) {
                self.raise(vote);
            }
            sync_threads();
            if let Some(start) = start.filter(|_| self.raised(vote)) {
                scan(start, chunk, b.min(n - chunk));
            }
            if thread == 0 {
                self.clear(1 - vote);
            }
            sync_threads();
            chunk += b;
            vote = 1 - vote;
        }
    }
}

/// The block's shared memory: the votes, then `words` `u32` slots, then the
/// byte slots (the layout of both `relax` kernels: `matrix_relax_u` has
/// `blockDim.x` of each, `matrix_relax_f` no `u32` slots, `words = 0`).
///
/// # Safety
/// The launch gives at least `MATRIX_VOTE_WORDS * 4 + words * 4` bytes of
/// dynamic shared memory, plus the byte slots the caller uses.
#[inline(always)]
unsafe fn layout<'a>(words: usize) -> (Votes<'a>, *mut u32, *mut u8) {
    let base = dynamic_shared_mem::<u32>();
    let votes = MATRIX_VOTE_WORDS as usize;
    // SAFETY: all three regions lie within the launch's shared memory, as the
    // caller guarantees; the vote words are only accessed atomically.
    unsafe {
        let words_at = base.add(votes);
        let bytes_at = words_at.add(words).cast::<u8>();
        let votes = Votes(from_raw_parts(base.cast::<AtomicU32>(), votes));
        (votes, words_at, bytes_at)
    }
}

/// What both matrix `relax` kernels start from: `n`, the block size `b`, the
/// thread's index in its block and its vertex `t` (its column in `relax_U`,
/// its row in `relax_F`), and the `n × n` weights and the three vertex arrays.
struct RelaxView<'a> {
    n: usize,
    b: usize,
    thread: usize,
    t: usize,
    weights: &'a [u32],
    dist: &'a [AtomicU32],
    frontier: &'a [u8],
    unsettled: &'a [u8],
}

/// The [`RelaxView`] of a matrix `relax` kernel's arguments.
///
/// # Safety
/// `weights` holds `n * n` elements, `dist`, `frontier` and `unsettled` `n`;
/// none but `dist` is written during the kernel, and `dist` only atomically.
#[inline(always)]
unsafe fn relax_view<'a>(args: MatrixRelaxArgs) -> RelaxView<'a> {
    let MatrixRelaxArgs {
        weights,
        n,
        dist,
        frontier,
        unsettled,
    } = args;
    let n = n as usize;
    // SAFETY: as the caller guarantees.
    unsafe {
        RelaxView {
            n,
            b: block_dim_x() as usize,
            thread: thread_idx_x() as usize,
            t: index_1d() as usize,
            weights: slice(weights, n * n),
            dist: slice(dist, n),
            frontier: slice(frontier, n),
            unsettled: slice(unsettled, n),
        }
    }
}

crate::args::matrix_relax_args! {
    /// `relax_U` on an adjacency matrix (U^GPU, Martín et al. §5): every unsettled
    /// vertex `t` lowers its distance to the minimum of `dist(k) + w(k, t)` over its
    /// frontier predecessors `k`, walking its column `t` in chunks of `b` rows
    /// (`b = blockDim.x`). Before each chunk, every thread of the block stages one
    /// row's frontier flag and distance in shared memory; after a barrier, each
    /// unsettled thread scans the chunk, reading the entries of frontier rows only
    /// (the warp's threads read consecutive columns of one row: coalesced); a
    /// second barrier frees the staging slots for the next chunk. Blocks without
    /// an unsettled vertex return at once, and chunks without a frontier row are
    /// not scanned ([`Votes`]). No atomics on distances: only thread `t` writes
    /// `dist[t]`, at the end, and `t` is unsettled, so no thread uses that value
    /// (staging may load it; only frontier distances are used).
    ///
    /// # Thread mapping
    /// `ceil(n / blockDim.x)` blocks; thread `threadIdx.x` of block `blockIdx.x`
    /// owns column `t = blockIdx.x * blockDim.x + threadIdx.x`. Every thread, also
    /// those with `t >= n` and those of settled vertices, stages its slot of every
    /// chunk (`false`/infinity past `n`) and reaches every barrier: the chunk loop
    /// (`ceil(n / blockDim.x)` chunks) is the same in the whole block, and a block
    /// returns early only as a whole.
    ///
    /// # Safety
    /// `weights` holds `n * n` elements and is not written during the kernel;
    /// `dist`, `frontier` and `unsettled` hold `n` elements (module contract); the
    /// launch gives at least `8 + blockDim.x * 5` bytes of dynamic shared memory
    /// ([`MATRIX_RELAX_U_SHARED_BYTES`](crate::launch::MATRIX_RELAX_U_SHARED_BYTES)
    /// for blocks of [`BLOCK_SIZE`](crate::launch::BLOCK_SIZE)). `dist` is only
    /// accessed atomically (relaxed loads and stores) during the launch.
    fn matrix_relax_u<W> as matrix_relax_u_u32, matrix_relax_u_f32 (args) {
        // SAFETY: lengths as documented; `weights`, `frontier` and `unsettled` are
        // read-only during the kernel, `dist` is accessed atomically.
        let RelaxView { n, b, thread, t: column, weights, dist, frontier, unsettled } =
            unsafe { relax_view(args) };
        // SAFETY: the launch gives `8 + 5 * b` bytes: the votes, `b` staged
        // distances, `b` staged frontier flags.
        let (votes, staged_dist, staged_frontier) = unsafe { layout(b) };
        let start = matrix::column_start(column, dist, unsettled);
        if !votes.block_has_work(thread, start.is_some()) {
            return;
        }
        let mut best = start.unwrap_or(INFINITY);
        let stage = |chunk| {
            let (flag, d) = matrix::stage_frontier(chunk + thread, dist, frontier);
            // SAFETY: `thread < b`, so both slots are within the launch's shared
            // memory; this thread alone writes them, and the barrier that ended the
            // previous chunk ordered every read of them before these writes.
            unsafe {
                *staged_dist.add(thread) = d;
                *staged_frontier.add(thread) = flag;
            }
            flag != FALSE
        };
        votes.walk_chunks((n, b, thread), start, stage, |_, chunk, len| {
            // SAFETY: `len <= b` slots, written by the block's threads before the
            // barrier above and not written again before the barrier below,
            // after which these views are no longer used.
            let (flags, dists) = unsafe {
                (
                    from_raw_parts(staged_frontier, len),
                    from_raw_parts(staged_dist, len),
                )
            };
            best = matrix::relax_column_chunk::<W>(best, column, chunk, weights, n, flags, dists);
        });
        if let Some(current) = start {
            matrix::column_finish(column, current, best, dist);
        }
    }
}

crate::args::matrix_relax_args! {
    /// `relax_F` on an adjacency matrix (F^GPU, Martín et al. §5): every frontier
    /// vertex `t` walks its row `t` in chunks of `b` columns (`b = blockDim.x`) and
    /// lowers the distance of each unsettled successor `v` to `dist(t) + w(t, v)`
    /// with an atomic minimum (several frontier rows may share `v`). Before each
    /// chunk, every thread of the block stages one column's unsettled flag in shared
    /// memory; after a barrier, each frontier thread scans the chunk, reading the
    /// entries of unsettled columns only; a second barrier frees the slots. Blocks
    /// without a frontier vertex return at once, and chunks without an unsettled
    /// column are not scanned ([`Votes`]).
    ///
    /// # Thread mapping
    /// As `matrix_relax_u`'s, with rows for columns: thread `threadIdx.x` of
    /// block `blockIdx.x` owns row `t`; every thread stages its slot of every
    /// chunk (`false` past `n`), also those outside the frontier.
    ///
    /// # Safety
    /// The arrays as for `matrix_relax_u`; the launch gives at least
    /// `8 + blockDim.x` bytes of dynamic shared memory
    /// ([`MATRIX_RELAX_F_SHARED_BYTES`](crate::launch::MATRIX_RELAX_F_SHARED_BYTES)
    /// for blocks of [`BLOCK_SIZE`](crate::launch::BLOCK_SIZE)). `dist` is only
    /// accessed atomically during the launch.
    fn matrix_relax_f<W> as matrix_relax_f_u32, matrix_relax_f_f32 (args) {
        // SAFETY: as in `matrix_relax_u`.
        let RelaxView { n, b, thread, t: row, weights, dist, frontier, unsettled } =
            unsafe { relax_view(args) };
        // SAFETY: the launch gives `8 + b` bytes: the votes and `b` staged flags.
        let (votes, _, staged_unsettled) = unsafe { layout(0) };
        let start = matrix::row_start(row, dist, frontier);
        if !votes.block_has_work(thread, start.is_some()) {
            return;
        }
        let stage = |chunk| {
            let flag = matrix::stage_unsettled(chunk + thread, unsettled);
            // SAFETY: `thread < b`, within the launch's `b` staging bytes; this
            // thread alone writes the slot, and the barrier that ended the previous
            // chunk ordered every read of it before this write.
            unsafe { *staged_unsettled.add(thread) = flag };
            flag != FALSE
        };
        votes.walk_chunks((n, b, thread), start, stage, |dist_row, chunk, len| {
            // SAFETY: `len <= b` slots, written before the barrier above and not
            // written again before the barrier below, after which the view is no
            // longer used.
            let flags = unsafe { from_raw_parts(staged_unsettled, len) };
            matrix::relax_row_chunk::<W>(row, dist_row, chunk, weights, n, flags, dist);
        });
    }
}

crate::args::matrix_delta_node_args! {
    /// Crauser general on an adjacency matrix: `Δ_node(t)`, the smallest weight
    /// leaving `t`, is the minimum of row `t` (infinity for a row without edges).
    ///
    /// # Thread mapping
    /// One thread per row `t = blockIdx.x * blockDim.x + threadIdx.x`; threads with
    /// `t >= n` return.
    ///
    /// # Safety
    /// `weights` holds `n * n` elements and `delta_node` `n` (module contract); each
    /// thread writes only `delta_node[t]`.
    fn matrix_delta_node(args) {
        let MatrixDeltaNodeArgs { weights, n, delta_node } = args;
        let row = index_1d();
        if row >= n {
            return;
        }
        let (row, n) = (row as usize, n as usize);
        // SAFETY: lengths as documented; `weights` is read-only, `row < n` and each
        // thread writes only its own element.
        unsafe { *delta_node.add(row) = matrix::delta_node(row, slice(weights, n * n), n) }
    }
}
