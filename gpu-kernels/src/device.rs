//! Device helpers, named after `cuda_std` so that moving to it later is a matter
//! of changing imports: thread and block ids, barriers, shared memory, warp
//! votes and shuffles, warp-aggregated atomics, atomic reads and writes as
//! read-modify-writes, and views of kernel-argument pointers as slices.

/// Thread and block indices and block barriers (`cuda_std::thread`).
pub mod thread {
    use core::arch::nvptx;

    /// Index of this thread in its block (`threadIdx.x`).
    #[inline(always)]
    pub fn thread_idx_x() -> u32 {
        // SAFETY: reads a special register; no precondition.
        unsafe { nvptx::_thread_idx_x() as u32 }
    }

    /// Index of this block in the grid (`blockIdx.x`).
    #[inline(always)]
    pub fn block_idx_x() -> u32 {
        // SAFETY: reads a special register; no precondition.
        unsafe { nvptx::_block_idx_x() as u32 }
    }

    /// Threads per block (`blockDim.x`).
    #[inline(always)]
    pub fn block_dim_x() -> u32 {
        // SAFETY: reads a special register; no precondition.
        unsafe { nvptx::_block_dim_x() as u32 }
    }

    /// Global index of this thread in a one-dimensional grid.
    #[inline(always)]
    pub fn index_1d() -> u32 {
        block_idx_x() * block_dim_x() + thread_idx_x()
    }

    /// Suspends the thread for about `ns` nanoseconds (`__nanosleep`, sm_70
    /// and later): a spin-wait that leaves the memory system to others.
    #[inline(always)]
    pub fn nanosleep(ns: u32) {
        // SAFETY: `nanosleep.u32` only delays the calling thread.
        unsafe {
            core::arch::asm!("nanosleep.u32 {t};", t = in(reg32) ns, options(nomem, nostack));
        }
    }

    /// Block-wide barrier (`__syncthreads`). Every thread of the block must reach
    /// the same call.
    #[inline(always)]
    pub fn sync_threads() {
        // SAFETY: `bar.sync 0`; the kernels call it from block-uniform control flow.
        unsafe { nvptx::_syncthreads() }
    }

    /// Block-wide barrier that threads may reach from different branches,
    /// even threads of one warp (`barrier.sync 0`, not `.aligned`).
    #[inline(always)]
    pub fn sync_threads_divergent() {
        // SAFETY: a barrier has no precondition beyond every thread of the
        // block reaching it, which the callers guarantee.
        unsafe { core::arch::asm!("barrier.sync 0;", options(nostack)) }
    }

    /// Barrier `id` (1..=15) of the first `threads` threads of the block, a
    /// multiple of 32 (`barrier.sync id, threads`, CUDA's named barriers).
    #[inline(always)]
    pub fn sync_threads_named(id: u32, threads: u32) {
        // SAFETY: as for `sync_threads_divergent`, for the `threads` callers.
        unsafe {
            core::arch::asm!(
                "barrier.sync {id}, {n};",
                id = in(reg32) id,
                n = in(reg32) threads,
                options(nostack)
            )
        }
    }

    /// Orders this thread's memory accesses for the threads of its block
    /// (`__threadfence_block`, `fence.acq_rel.cta`).
    #[inline(always)]
    pub fn thread_fence_block() {
        // SAFETY: a fence has no precondition.
        unsafe { core::arch::asm!("fence.acq_rel.cta;", options(nostack)) }
    }

    /// Orders this thread's memory accesses for every thread of the device
    /// (`__threadfence`, `fence.acq_rel.gpu`; `core`'s fences are
    /// system-scope on nvptx, which costs more).
    #[inline(always)]
    pub fn thread_fence() {
        // SAFETY: a fence has no precondition.
        unsafe { core::arch::asm!("fence.acq_rel.gpu;", options(nostack)) }
    }
}

/// Warp-level primitives (`cuda_std::warp`): lane ids, votes and shuffles
/// over the full warp.
///
/// Votes and shuffles are LLVM's NVVM intrinsics, not inline `asm`: LLVM marks
/// them `convergent`, so it never moves one into or out of a branch, nor
/// merges the calls of two branches into one (it did that to an `asm`
/// `activemask`, and the mask then named lanes that never came). Every lane of
/// the warp must call them together: the callers keep their control flow
/// warp-uniform.
pub mod warp {
    use core::sync::atomic::AtomicU32;
    use core::sync::atomic::Ordering::Relaxed;

    /// Threads per warp.
    pub const WARP_SIZE: u32 = 32;

    /// All lanes.
    const FULL_MASK: u32 = u32::MAX;

    unsafe extern "C" {
        #[link_name = "llvm.nvvm.vote.ballot.sync"]
        fn vote_ballot_sync(mask: u32, predicate: bool) -> u32;
        #[link_name = "llvm.nvvm.shfl.sync.idx.i32"]
        fn shfl_sync_idx(mask: u32, value: u32, lane: u32, clamp: u32) -> u32;
        #[link_name = "llvm.nvvm.shfl.sync.up.i32"]
        fn shfl_sync_up(mask: u32, value: u32, delta: u32, clamp: u32) -> u32;
        #[link_name = "llvm.nvvm.shfl.sync.bfly.i32"]
        fn shfl_sync_bfly(mask: u32, value: u32, lane_mask: u32, clamp: u32) -> u32;
        #[link_name = "llvm.nvvm.bar.warp.sync"]
        fn bar_warp_sync(mask: u32);
    }

    /// This thread's lane in its warp (`%laneid`).
    #[inline(always)]
    pub fn lane_id() -> u32 {
        let lane: u32;
        // SAFETY: reads a special register; no precondition.
        unsafe {
            core::arch::asm!("mov.u32 {l}, %laneid;", l = out(reg32) lane,
                options(nomem, nostack, pure))
        };
        lane
    }

    /// The lanes whose `predicate` is true (`__ballot_sync(0xffffffff, p)`).
    ///
    /// # Safety
    /// All 32 lanes of the warp execute this call together.
    #[inline(always)]
    pub unsafe fn ballot(predicate: bool) -> u32 {
        // SAFETY: as the caller guarantees.
        unsafe { vote_ballot_sync(FULL_MASK, predicate) }
    }

    /// A barrier of the warp that orders its lanes' memory accesses
    /// (`__syncwarp()`).
    ///
    /// # Safety
    /// All 32 lanes of the warp execute this call together.
    #[inline(always)]
    pub unsafe fn sync_warp() {
        // SAFETY: as the caller guarantees.
        unsafe { bar_warp_sync(FULL_MASK) }
    }

    /// `value` of lane `src` (`__shfl_sync(0xffffffff, value, src)`).
    ///
    /// # Safety
    /// All 32 lanes of the warp execute this call together.
    #[inline(always)]
    pub unsafe fn shfl(value: u32, src: u32) -> u32 {
        // SAFETY: as the caller guarantees.
        unsafe { shfl_sync_idx(FULL_MASK, value, src, 31) }
    }

    /// The sum of `value` over this lane and the lanes below it (a
    /// Hillis-Steele scan of `__shfl_up_sync`; wrapping).
    ///
    /// # Safety
    /// All 32 lanes of the warp execute this call together.
    #[inline(always)]
    pub unsafe fn inclusive_sum(value: u32) -> u32 {
        let lane = lane_id();
        let mut sum = value;
        let mut offset = 1;
        while offset < WARP_SIZE {
            // SAFETY: as the caller guarantees.
            let below = unsafe { shfl_sync_up(FULL_MASK, sum, offset, 0) };
            if lane >= offset {
                sum = sum.wrapping_add(below);
            }
            offset *= 2;
        }
        sum
    }

    /// `value` combined over the warp by `op`, in every lane: a butterfly of
    /// `__shfl_xor_sync` (lane `i` combines its value with lane `i ^ 16`'s,
    /// then `i ^ 8`'s, …).
    ///
    /// # Safety
    /// All 32 lanes of the warp execute this call together.
    #[inline(always)]
    unsafe fn butterfly(mut value: u32, op: impl Fn(u32, u32) -> u32) -> u32 {
        let mut offset = WARP_SIZE / 2;
        while offset > 0 {
            // SAFETY: as the caller guarantees.
            value = op(value, unsafe {
                shfl_sync_bfly(FULL_MASK, value, offset, 31)
            });
            offset /= 2;
        }
        value
    }

    /// The minimum of `value` over the warp, in every lane.
    ///
    /// # Safety
    /// All 32 lanes of the warp execute this call together.
    #[inline(always)]
    pub unsafe fn reduce_min(value: u32) -> u32 {
        // SAFETY: as the caller guarantees.
        unsafe { butterfly(value, u32::min) }
    }

    /// The sum of `value` over the warp's lanes, in every lane (wrapping).
    ///
    /// # Safety
    /// All 32 lanes of the warp execute this call together.
    #[inline(always)]
    pub unsafe fn sum_u32(value: u32) -> u32 {
        // SAFETY: as the caller guarantees.
        unsafe { butterfly(value, u32::wrapping_add) }
    }

    /// The sum of `value` over the warp's lanes, in every lane: a butterfly
    /// (lane `i` adds lane `i ^ 16`'s value, then `i ^ 8`'s, …), so every
    /// lane adds the same pairs and ends with the same bits.
    ///
    /// # Safety
    /// All 32 lanes of the warp execute this call together.
    #[inline(always)]
    pub unsafe fn sum_f64(mut value: f64) -> f64 {
        let mut offset = WARP_SIZE / 2;
        while offset > 0 {
            let bits = value.to_bits();
            // SAFETY: as the caller guarantees.
            let (low, high) = unsafe {
                (
                    shfl_sync_bfly(FULL_MASK, bits as u32, offset, 31),
                    shfl_sync_bfly(FULL_MASK, (bits >> 32) as u32, offset, 31),
                )
            };
            value += f64::from_bits((high as u64) << 32 | low as u64);
            offset /= 2;
        }
        value
    }

    /// Warp-aggregated slot reservation: every lane with `wants` gets its own
    /// index into a queue whose length is `len` (other lanes get an unspecified
    /// value), with one atomic add per warp: the lowest wanting lane adds the
    /// count and shuffles the old length to the others, which add the number of
    /// wanting lanes below them.
    ///
    /// # Safety
    /// All 32 lanes of the warp execute this call together, with the same `len`.
    #[inline(always)]
    pub unsafe fn reserve_where(wants: bool, len: &AtomicU32) -> u32 {
        // SAFETY: as the caller guarantees.
        let wanting = unsafe { ballot(wants) };
        let lane = lane_id();
        let leader = wanting.trailing_zeros() % WARP_SIZE;
        let mut base = 0;
        if wanting != 0 && lane == leader {
            base = len.fetch_add(wanting.count_ones(), Relaxed);
        }
        // SAFETY: as the caller guarantees.
        let base = unsafe { shfl(base, leader) };
        base + (wanting & ((1u32 << lane) - 1)).count_ones()
    }
}

/// Shared memory (`cuda_std::shared`).
pub mod shared {
    /// The block's dynamic shared memory, sized by the launch's shared-memory bytes.
    #[inline(always)]
    pub fn dynamic_shared_mem<T>() -> *mut T {
        core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<T>()
    }
}

/// Reads and writes of shared-memory words as atomic read-modify-writes
/// (`cuda_std::atomic`'s intrinsics). LLVM turns a `core` exchange whose old
/// value is unused into a store and an OR with 0 into a load; these stay
/// `atom` instructions, which compute-sanitizer's racecheck takes as
/// synchronized where it sees a plain load or store as a hazard.
pub mod atomic {
    use core::sync::atomic::AtomicU32;

    /// Writes `value` to `word` with `atom.shared.exch` (`atomicExch`),
    /// relaxed.
    ///
    /// # Safety
    /// `word` must lie in the block's shared memory.
    #[inline(always)]
    pub unsafe fn exchange_shared(word: &AtomicU32, value: u32) {
        // SAFETY: `word` is an aligned `u32` in shared memory (the caller's
        // promise), so its generic address converts to a shared one; an
        // `AtomicU32` may be accessed atomically at any time.
        unsafe {
            core::arch::asm!(
                "{{ .reg .b64 s; cvta.to.shared.u64 s, {p}; atom.shared.exch.b32 {old}, [s], {v}; }}",
                old = out(reg32) _,
                p = in(reg64) word.as_ptr(),
                v = in(reg32) value,
                options(nostack),
            );
        }
    }

    /// Reads `word` with `atom.shared.or` of 0 (`atomicOr(p, 0)`), relaxed.
    ///
    /// # Safety
    /// `word` must lie in the block's shared memory.
    #[inline(always)]
    pub unsafe fn read_shared(word: &AtomicU32) -> u32 {
        let value: u32;
        // SAFETY: as in `exchange_shared`.
        unsafe {
            core::arch::asm!(
                "{{ .reg .b64 s; cvta.to.shared.u64 s, {p}; atom.shared.or.b32 {old}, [s], 0; }}",
                old = out(reg32) value,
                p = in(reg64) word.as_ptr(),
                options(nostack),
            );
        }
        value
    }
}

/// Views of kernel arguments (device pointer + explicit length) as slices.
pub mod memory {
    use core::slice;

    /// `len` elements at `ptr` as a shared slice; an empty slice when `len` is 0,
    /// whatever `ptr` is.
    ///
    /// # Safety
    /// When `len > 0`, `ptr` must be valid for reads of `len` elements, and nothing
    /// may write them non-atomically during the kernel.
    #[inline(always)]
    pub unsafe fn slice<'a, T>(ptr: *const T, len: usize) -> &'a [T] {
        if len == 0 {
            &[]
        } else {
            // SAFETY: as the caller guarantees.
            unsafe { slice::from_raw_parts(ptr, len) }
        }
    }

    /// `len` elements at `ptr` as a mutable slice; an empty slice when `len`
    /// is 0, whatever `ptr` is.
    ///
    /// # Safety
    /// When `len > 0`, `ptr` must be valid for reads and writes of `len`
    /// elements that no other thread reads or writes during the kernel.
    #[inline(always)]
    pub unsafe fn slice_mut<'a, T>(ptr: *mut T, len: usize) -> &'a mut [T] {
        if len == 0 {
            &mut []
        } else {
            // SAFETY: as the caller guarantees.
            unsafe { slice::from_raw_parts_mut(ptr, len) }
        }
    }

    /// Loads a byte through the read-only (non-coherent) data cache,
    /// `ld.global.nc` (`__ldg`): the modern form of a texture fetch.
    ///
    /// # Safety
    /// `ptr` points into global memory that no thread writes during the kernel.
    #[inline(always)]
    pub unsafe fn load_read_only(ptr: *const u8) -> u8 {
        let value: u32;
        // SAFETY: as the caller guarantees; `cvta.to.global` turns the generic
        // kernel-argument address into the global one that `ld.global` takes.
        unsafe {
            core::arch::asm!(
                "{{ .reg .u64 g; cvta.to.global.u64 g, {p}; ld.global.nc.u8 {v}, [g]; }}",
                p = in(reg64) ptr,
                v = out(reg32) value,
                options(readonly, nostack, pure),
            );
        }
        value as u8
    }

    /// Four words at `ptr` in one 16-byte load, `ld.global.v4.u32`.
    ///
    /// # Safety
    /// `ptr` is 16-byte aligned, points into global memory valid for four
    /// words, and no thread writes them during the load.
    #[inline(always)]
    pub unsafe fn load_global_v4(ptr: *const u32) -> [u32; 4] {
        let (a, b, c, d): (u32, u32, u32, u32);
        // SAFETY: as the caller guarantees; `cvta.to.global` as in
        // `load_read_only`.
        unsafe {
            core::arch::asm!(
                "{{ .reg .u64 g; cvta.to.global.u64 g, {p}; ld.global.v4.u32 {{{a}, {b}, {c}, {d}}}, [g]; }}",
                p = in(reg64) ptr,
                a = out(reg32) a,
                b = out(reg32) b,
                c = out(reg32) c,
                d = out(reg32) d,
                options(readonly, nostack, pure),
            );
        }
        [a, b, c, d]
    }

    /// Writes four words at `ptr` in one 16-byte store, `st.global.v4.u32`.
    ///
    /// # Safety
    /// `ptr` is 16-byte aligned, points into global memory valid for four
    /// words, and no other thread reads or writes them during the store.
    #[inline(always)]
    pub unsafe fn store_global_v4(ptr: *mut u32, [a, b, c, d]: [u32; 4]) {
        // SAFETY: as the caller guarantees.
        unsafe {
            core::arch::asm!(
                "{{ .reg .u64 g; cvta.to.global.u64 g, {p}; st.global.v4.u32 [g], {{{a}, {b}, {c}, {d}}}; }}",
                p = in(reg64) ptr,
                a = in(reg32) a,
                b = in(reg32) b,
                c = in(reg32) c,
                d = in(reg32) d,
                options(nostack),
            );
        }
    }
}

/// Grid-wide barrier (`cuda_std`'s cooperative-groups `this_grid().sync()`,
/// CUDA's `grid.sync()`), built from `core` atomics on a counter in global
/// memory.
pub mod grid {
    use core::arch::nvptx;
    use core::hint::spin_loop;
    use core::sync::atomic::Ordering::{Acquire, Relaxed, Release};
    use core::sync::atomic::fence;

    use super::thread::{sync_threads, thread_idx_x};

    /// Blocks in the grid (`gridDim.x`).
    #[inline(always)]
    pub fn grid_dim_x() -> u32 {
        // SAFETY: reads a special register; no precondition.
        unsafe { nvptx::_grid_dim_x() as u32 }
    }

    pub use crate::launch::GridBarrier;

    /// Waits until every thread of every block of the (one-dimensional) grid has
    /// called it, and makes every write that any thread made before its call
    /// visible to every thread after the call.
    ///
    /// How: a block barrier; then thread 0 of the block reads the generation,
    /// issues a release fence (cumulative: it covers the writes of the block's
    /// threads that the block barrier ordered before it) and counts its block in
    /// `arrived`. The last block to arrive issues an acquire fence (so it has
    /// seen every block's writes), resets `arrived` and advances `generation`
    /// with a release store; the others spin until they see the generation
    /// change, then issue an acquire fence. A final block barrier releases the
    /// block's other threads. So every block's writes happen before the last
    /// arrival, which happens before every block leaves. `arrived` is back at 0
    /// when a barrier completes, before any block can arrive at the next one,
    /// so the state serves any number of barriers and launches in a row.
    ///
    /// The orderings are explicit fences around a relaxed add on purpose: the
    /// pinned LLVM lowers `fetch_add(_, AcqRel)` (and `Acquire`) on nvptx to a
    /// plain relaxed `atom.global.add`, dropping the ordering, while fences
    /// become `fence.acq_rel.sys` and ordered loads and stores `ld.acquire` and
    /// `st.release`. `core` atomics have no scope, so these are system-scope:
    /// stronger than the `.gpu` scope needed, and correct.
    ///
    /// # Safety
    /// - All blocks of the grid are resident on the device at once: launch with
    ///   `cuLaunchCooperativeKernel` (cudarc `launch_cooperative`), which fails
    ///   instead of launching a grid that cannot be. Otherwise the resident
    ///   blocks spin for ones that never start: a hang.
    /// - Every thread of every block calls it the same number of times, from
    ///   grid-uniform control flow (no thread may have returned early), and all
    ///   with the same `barrier`.
    /// - `barrier` is in global memory, used by this kernel only for these
    ///   calls, and its `arrived` was 0 when the grid started (zeroed by the
    ///   host before the launch, or left at 0 by a previous launch that
    ///   completed). If it was not, blocks leave the barrier early, and what
    ///   the caller assumed ordered by it races.
    #[inline(always)]
    pub unsafe fn grid_sync(barrier: &GridBarrier) {
        sync_threads();
        if thread_idx_x() == 0 {
            // Nobody can advance the generation before this block arrives, so
            // this is the generation of the current barrier (the fence keeps
            // the load before the add).
            let generation = barrier.generation.load(Relaxed);
            fence(Release);
            let arrived = barrier.arrived.fetch_add(1, Relaxed);
            if arrived + 1 == grid_dim_x() {
                fence(Acquire);
                barrier.arrived.store(0, Relaxed);
                barrier
                    .generation
                    .store(generation.wrapping_add(1), Release);
            } else {
                while barrier.generation.load(Relaxed) == generation {
                    spin_loop();
                }
                fence(Acquire);
            }
        }
        sync_threads();
    }
}
