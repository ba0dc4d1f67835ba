//! DA2CF on adjacency matrices on the CPU (the papers' F^CPU and U^CPU on
//! matrices, and Crauser's frontier on matrices): the GPU kernels' per-thread
//! functions of [`gpu_kernels::matrix`], run block by block with the block's
//! threads in lock step, so that the chunked staging of the GPU kernels is
//! emulated exactly: for each chunk, every thread of the block stages its slot
//! ("before the barrier"), then every thread works on the chunk ("between the
//! barriers"); the kernels' block-wide votes (a block without work returns, a
//! chunk without a set flag is not scanned) are emulated too. The block size is a parameter ([`da2cf_matrix_blocks`]), so that
//! tests can make chunks small and `n` not a multiple of them.
//!
//! `initialize`, `minimum` (the GPU's two-pass block reduction) and `update`
//! are the list forms' ([`super::da2cf::VertexModel`]).

use gpu_kernels::da2cf;
use gpu_kernels::distance::{INFINITY, Weight};
use gpu_kernels::launch::BLOCK_SIZE;
use gpu_kernels::matrix;

use super::da2cf::{Counting, Da2cfResult, RelaxArrays, VertexModel};
use crate::distances::check_source_of;
use crate::graph::with_weight_type;
use crate::matrix::WeightMatrix;
use crate::variants::{Frontier, Relax};
use crate::{Error, Result};

/// DA2CF on `matrix` from `source` with the given relaxation (`Push`: `relax_F`
/// along rows; `Pull`: `relax_U` down columns) and settling rule, in blocks of
/// the GPU's [`BLOCK_SIZE`] threads. A solver: it counts no threads.
pub fn da2cf_matrix(
    matrix: &WeightMatrix,
    source: usize,
    relax: Relax,
    rule: Frontier,
) -> Result<Da2cfResult> {
    let block_dim = BLOCK_SIZE as usize;
    da2cf_matrix_counting(matrix, source, (relax, rule), block_dim, Counting::Off)
}

/// [`da2cf_matrix`] as the CPU model of the GPU run: `relax` in blocks (and
/// chunks) of `block_dim` threads, any number from 1 up, and the working
/// `relax` threads counted as the measuring mode counts them.
pub fn da2cf_matrix_blocks(
    matrix: &WeightMatrix,
    source: usize,
    relax: Relax,
    rule: Frontier,
    block_dim: usize,
) -> Result<Da2cfResult> {
    let counting = Counting::WorkingThreads;
    da2cf_matrix_counting(matrix, source, (relax, rule), block_dim, counting)
}

fn da2cf_matrix_counting(
    matrix: &WeightMatrix,
    source: usize,
    (relax, rule): (Relax, Frontier),
    block_dim: usize,
    counting: Counting,
) -> Result<Da2cfResult> {
    if !matches!(relax, Relax::Push | Relax::Pull) {
        return Err(Error::InvalidArgument(format!(
            "{relax:?} relaxation does not exist on adjacency matrices"
        )));
    }
    if block_dim == 0 {
        return Err(Error::InvalidArgument(
            "a block has at least one thread".into(),
        ));
    }
    check_source_of(source as u64, matrix.num_vertices())?;
    with_weight_type!(matrix.weight_kind(), W => {
        da2cf_matrix_with::<W>(matrix, source, relax, rule, block_dim, counting)
    })
}

/// [`da2cf_matrix_blocks`] for weights `W`.
fn da2cf_matrix_with<W: Weight>(
    matrix: &WeightMatrix,
    source: usize,
    relax: Relax,
    rule: Frontier,
    block_dim: usize,
    counting: Counting,
) -> Result<Da2cfResult> {
    let n = matrix.num_vertices();
    let weights = matrix.weights();
    let delta_node: Vec<u32> = match rule {
        Frontier::CrauserGeneral => (0..n).map(|u| matrix::delta_node(u, weights, n)).collect(),
        _ => Vec::new(),
    };
    let deltas = (delta_node, matrix.min_weight());
    let mut model = VertexModel::new(n, source, rule, deltas, counting);
    loop {
        let a = model.begin_iteration(relax.is_pull());
        match relax {
            Relax::Pull => relax_u::<W>(weights, n, &a, block_dim),
            _ => relax_f::<W>(weights, n, &a, block_dim),
        }
        if model.settle::<W>() {
            break;
        }
    }
    model.finish(matrix.weight_kind())
}

/// One launch of `matrix_relax_u` (U^GPU on matrices) over the `n × n`
/// `weights`: `ceil(n / b)` blocks of `b` threads, one after another; inside a block, its threads in
/// lock step through the chunks, as the kernel's barriers order them.
pub fn relax_u<W: Weight>(weights: &[u32], n: usize, arrays: &RelaxArrays<'_>, b: usize) {
    let (dist, frontier, unsettled) = (arrays.dist, arrays.frontier, arrays.unsettled);
    let mut staged_frontier = vec![0u8; b];
    let mut staged_dist = vec![0u32; b];
    // Per thread: the start (`Some(dist)` for an unsettled column) and the best
    // value so far.
    let mut threads: Vec<(Option<u32>, u32)> = vec![(None, INFINITY); b];
    for block in 0..n.div_ceil(b) {
        let column = |thread: usize| block * b + thread;
        for (thread, (start, best)) in threads.iter_mut().enumerate() {
            *start = matrix::column_start(column(thread), dist, unsettled);
            *best = start.unwrap_or(INFINITY);
        }
        // The block's vote: a block without an unsettled column returns at once.
        if threads.iter().all(|(start, _)| start.is_none()) {
            continue;
        }
        for chunk in (0..n).step_by(b) {
            let slots = staged_frontier.iter_mut().zip(&mut staged_dist);
            for (thread, (flag, d)) in slots.enumerate() {
                (*flag, *d) = matrix::stage_frontier(chunk + thread, dist, frontier);
            }
            // Barrier: the chunk is staged. The chunk's vote: no thread scans a
            // chunk without a frontier row.
            let len = b.min(n - chunk);
            let raised = staged_frontier.iter().any(|&flag| flag != da2cf::FALSE);
            for (thread, (start, best)) in threads.iter_mut().enumerate() {
                if start.is_some() && raised {
                    *best = matrix::relax_column_chunk::<W>(
                        *best,
                        column(thread),
                        chunk,
                        weights,
                        n,
                        &staged_frontier[..len],
                        &staged_dist[..len],
                    );
                }
            }
            // Barrier: the slots are free for the next chunk.
        }
        for (thread, &(start, best)) in threads.iter().enumerate() {
            if let Some(current) = start {
                matrix::column_finish(column(thread), current, best, dist);
            }
        }
    }
}

/// One launch of `matrix_relax_f` (F^GPU on matrices): `ceil(n / b)` blocks of
/// `b` threads, one after another; inside a block, its threads in
/// lock step through the chunks.
pub fn relax_f<W: Weight>(weights: &[u32], n: usize, arrays: &RelaxArrays<'_>, b: usize) {
    let (dist, frontier, unsettled) = (arrays.dist, arrays.frontier, arrays.unsettled);
    let mut staged_unsettled = vec![0u8; b];
    // Per thread: `Some(dist)` for a frontier row.
    let mut starts: Vec<Option<u32>> = vec![None; b];
    for block in 0..n.div_ceil(b) {
        let row = |thread: usize| block * b + thread;
        for (thread, start) in starts.iter_mut().enumerate() {
            *start = matrix::row_start(row(thread), dist, frontier);
        }
        // The block's vote: a block without a frontier row returns at once.
        if starts.iter().all(Option::is_none) {
            continue;
        }
        for chunk in (0..n).step_by(b) {
            for (thread, flag) in staged_unsettled.iter_mut().enumerate() {
                *flag = matrix::stage_unsettled(chunk + thread, unsettled);
            }
            // Barrier: the chunk is staged. The chunk's vote: no thread scans a
            // chunk without an unsettled column.
            let len = b.min(n - chunk);
            let raised = staged_unsettled.iter().any(|&flag| flag != da2cf::FALSE);
            for (thread, start) in starts.iter().enumerate() {
                if let Some(dist_row) = start.filter(|_| raised) {
                    matrix::relax_row_chunk::<W>(
                        row(thread),
                        dist_row,
                        chunk,
                        weights,
                        n,
                        &staged_unsettled[..len],
                        dist,
                    );
                }
            }
            // Barrier: the slots are free for the next chunk.
        }
    }
}
