//! Device helpers, named after `cuda_std` so that moving to it later is a matter
//! of changing imports: thread and block ids, barriers, shared memory, and views
//! of kernel-argument pointers as slices.

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

    /// Block-wide barrier (`__syncthreads`). Every thread of the block must reach
    /// the same call.
    #[inline(always)]
    pub fn sync_threads() {
        // SAFETY: `bar.sync 0`; the kernels call it from block-uniform control flow.
        unsafe { nvptx::_syncthreads() }
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
}
