//! The threads of a block that splits into two roles, as the partition
//! solver's blocks do ([`crate::partition`]): compute threads with a barrier
//! of their own, warps of them that chain together, and a communication
//! thread that waits on other blocks.

use core::sync::atomic::AtomicU32;
use core::sync::atomic::Ordering::{AcqRel, Relaxed};
use core::sync::atomic::fence;

/// The threads of one block and how they wait for each other.
pub trait BlockTeam {
    /// This thread's index in the block.
    fn thread(&self) -> usize;
    /// Threads in the block.
    fn threads(&self) -> usize;
    /// Threads at the block's end that leave the rounds to the others: the
    /// first of them is the communication thread (at least 1, fewer than
    /// [`BlockTeam::threads`]).
    fn comm_threads(&self) -> usize;
    /// A barrier of the whole block that orders its memory accesses; the
    /// threads may reach it from different branches.
    fn barrier(&self);
    /// A barrier of the compute threads alone (the first `threads() -
    /// comm_threads()`) that orders their memory accesses.
    fn compute_barrier(&self);
    /// Threads per warp: the compute threads `w * warp_size()..(w + 1) *
    /// warp_size()` form warp `w`, which chains hops on its own
    /// (`chain_hops`; 1 by default, every thread its own warp). The compute
    /// threads are a whole number of warps.
    fn warp_size(&self) -> usize {
        1
    }
    /// A barrier of this thread's warp that orders its memory accesses (every
    /// lane of the warp calls it together).
    fn sync_warp(&self) {}
    /// Called while a thread waits for another role (the GPU sleeps briefly,
    /// the CPU yields).
    fn idle(&self) {}
    /// Called while a thread waits for the `attempt`-th time in a row (from
    /// 0) for something that may take long: by every thread of a paged block
    /// whose claim found nothing it could take, and by compute thread 0 of
    /// an idle piece. The GPU sleeps longer each time, up to a limit, so that
    /// idle blocks leave the L2 and the multiprocessor's issue slots to those
    /// with work.
    fn back_off(&self, attempt: u32) {
        let _ = attempt;
        self.idle();
    }
    /// A fence that orders this thread's earlier memory accesses before its
    /// later ones for every thread of the block (release and acquire).
    fn block_fence(&self) {
        fence(AcqRel);
    }
    /// The communication thread's write of a word of the piece's `Local`
    /// that compute threads read ([`crate::partition`], *Memory order*: the
    /// outbox states, the notifications taken, the exit and the bound), and
    /// compute thread 0's of the claim's verdict. The GPU writes with an
    /// atomic exchange: compute-sanitizer's racecheck takes no fence for
    /// synchronization, only barriers and atomics, and reported every
    /// fence-ordered hand-over between the roles as a hazard; with every
    /// access of one side atomic it reports none (docs/PERFORMANCE.md). The
    /// compute threads' side stays plain: it is on the rounds' path.
    fn post(&self, word: &AtomicU32, value: u32) {
        word.store(value, Relaxed);
    }
    /// The communication thread's read of a word of the piece's `Local` that
    /// compute threads write ([`BlockTeam::post`]: the outbox states,
    /// lengths and entries, the idle post, the target's distance); the GPU
    /// reads with an atomic OR of 0.
    fn read_post(&self, word: &AtomicU32) -> u32 {
        word.load(Relaxed)
    }
    /// A fence that orders this thread's earlier memory accesses before its
    /// later ones for every thread of the device, as a release and an
    /// acquire fence do (`core`'s fence by default; the GPU narrows its
    /// scope to the device).
    fn device_fence(&self) {
        fence(AcqRel);
    }
}
