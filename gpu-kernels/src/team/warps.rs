//! The threads that run a device-resident loop together ([`crate::compact`],
//! [`crate::near_far`]): a [`Team`] of warps with a barrier over all of them,
//! the sequential CPU model of one, and what the GPU's teams keep in shared
//! memory.

use core::sync::atomic::AtomicU32;
use core::sync::atomic::Ordering::Relaxed;

use crate::launch::COMPACT_BLOCK_SIZE;

/// What a thread of the loop needs from the threads it runs with. Threads come
/// in warps of [`Team::warp_size`] lanes (32 on the GPU, 1 on the CPU); the
/// warp-wide calls (`reserve_where`, `warp_inclusive_sum`, `warp_shuffle`)
/// must be made by every lane of a warp together, so the loop keeps its
/// control flow warp-uniform around them.
pub trait Team {
    /// This thread's index among [`Team::threads`]; lanes of a warp are
    /// consecutive, starting at a multiple of the warp size.
    fn thread(&self) -> usize;
    /// Number of threads running the loop (a multiple of the warp size).
    fn threads(&self) -> usize;
    /// Lanes per warp.
    fn warp_size(&self) -> usize;
    /// A barrier over all threads that orders memory: every write before it is
    /// visible to every thread after it.
    fn barrier(&self);
    /// Warp-wide: each lane with `wants` gets its own slot index of a queue
    /// whose length is `len` (the others an unspecified value).
    fn reserve_where(&self, wants: bool, len: &AtomicU32) -> u32;
    /// Warp-wide: the sum of `value` over this lane and the lanes below it.
    fn warp_inclusive_sum(&self, value: u32) -> u32;
    /// Warp-wide: `value` of lane `src`.
    fn warp_shuffle(&self, value: u32, src: usize) -> u32;
    /// Lowers `target` to the minimum of `value` over the threads of this
    /// thread's group (all must call it together).
    fn minimum_into(&self, value: u32, target: &AtomicU32);
}

/// Why a team's loop (`compact::thread_loop`, `near_far::thread_loop`)
/// returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The solve has converged.
    Converged,
    /// The sets left the size range this team was asked to handle.
    OutOfRange,
}

/// A team of one thread: the sequential CPU model.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sequential;

impl Team for Sequential {
    fn thread(&self) -> usize {
        0
    }
    fn threads(&self) -> usize {
        1
    }
    fn warp_size(&self) -> usize {
        1
    }
    fn barrier(&self) {}
    fn reserve_where(&self, wants: bool, len: &AtomicU32) -> u32 {
        if wants { len.fetch_add(1, Relaxed) } else { 0 }
    }
    fn warp_inclusive_sum(&self, value: u32) -> u32 {
        value
    }
    fn warp_shuffle(&self, value: u32, _src: usize) -> u32 {
        value
    }
    fn minimum_into(&self, value: u32, target: &AtomicU32) {
        target.fetch_min(value, Relaxed);
    }
}

/// `u32` slots at the start of a loop block's dynamic shared memory: one per
/// warp, for the block-wide minima of the GPU's teams.
pub const LOOP_WARP_SLOTS: u32 = COMPACT_BLOCK_SIZE / 32;

/// Dynamic shared memory of a loop block whose state is `state_words` `u32`s:
/// the warp slots ([`LOOP_WARP_SLOTS`]), then (a block loop only) the
/// block's copy of the loop state.
pub const fn loop_shared_bytes(state_words: usize) -> u32 {
    LOOP_WARP_SLOTS * 4 + state_words as u32 * 4
}
