//! The `minimum1` reduction of Martín et al. (Fig. 4, right), adapted from the
//! `reduce3` method of the CUDA SDK: each thread of a block of `b` threads loads
//! two values `b` apart, then a tree of `log2 b` steps in shared memory halves the
//! number of live values until slot 0 holds the block's minimum.
//!
//! A block therefore reduces `2b` values. The same shape reduces the per-block
//! minima again (`minimum2`).

/// The two input indices that thread `thread` of block `block` loads:
/// `block * 2b + thread` and that plus `b`.
#[inline(always)]
pub fn pair_indices(block: usize, block_dim: usize, thread: usize) -> (usize, usize) {
    let i = block * 2 * block_dim + thread;
    (i, i + block_dim)
}

/// Number of blocks (and so of per-block minima) needed to reduce `len` values
/// with blocks of `block_dim` threads.
#[inline(always)]
pub fn num_blocks(len: usize, block_dim: usize) -> usize {
    len.div_ceil(2 * block_dim)
}

/// One step of the tree: thread `thread` with `thread < stride` keeps the minimum
/// of its slot and the slot `stride` above it. The caller runs the steps for
/// `stride = b/2, b/4, …, 1` with a block barrier after each.
///
/// # Safety
/// `shared` must be valid for reads and writes of `2 * stride` values, and no
/// other thread may access slots `thread` or `thread + stride` during the step
/// (the barriers between steps guarantee it on the GPU).
#[inline(always)]
pub unsafe fn tree_step(shared: *mut u32, thread: usize, stride: usize) {
    if thread < stride {
        // SAFETY: both slots are below `2 * stride` and owned by this thread for
        // the step, as the caller guarantees.
        unsafe {
            let upper = *shared.add(thread + stride);
            let slot = shared.add(thread);
            if upper < *slot {
                *slot = upper;
            }
        }
    }
}

/// The minimum that one block computes, with the block's threads run one after
/// another in lock step: the CPU model of the GPU kernel, built from the same
/// pieces. `load(i)` gives input `i` (and must give the neutral value past the
/// end); `shared` is scratch of at least `block_dim` slots.
pub fn block_minimum(
    block: usize,
    block_dim: usize,
    shared: &mut [u32],
    load: impl Fn(usize) -> u32,
) -> u32 {
    assert!(block_dim.is_power_of_two() && shared.len() >= block_dim);
    for (thread, slot) in shared[..block_dim].iter_mut().enumerate() {
        let (i, j) = pair_indices(block, block_dim, thread);
        *slot = load(i).min(load(j));
    }
    let mut stride = block_dim / 2;
    while stride > 0 {
        for thread in 0..block_dim {
            // SAFETY: `shared` holds `block_dim >= 2 * stride` slots and the
            // threads of a step run one at a time here.
            unsafe { tree_step(shared.as_mut_ptr(), thread, stride) };
        }
        stride /= 2;
    }
    shared[0]
}
