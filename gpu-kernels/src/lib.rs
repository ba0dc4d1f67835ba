//! The SSSP kernels of this project, written in Rust for `nvptx64-nvidia-cuda`.
//!
//! The crate compiles twice:
//! - for the host, as an ordinary `no_std` library: the per-thread logic of every
//!   kernel (the modules [`da2cf`], [`crauser`], [`matrix`], [`bellman_ford`],
//!   [`compact`], [`near_far`], [`partition`], [`parents`], [`certificate`],
//!   [`reduce`], [`stats`], [`pair_query`], with [`distance`] and [`csr`]) is
//!   plain Rust over slices and `core` atomics, so `cargo test` drives it on
//!   the CPU;
//! - for the GPU, by `host/build.rs`, into PTX: the `extern "ptx-kernel"` entry
//!   points in `kernels/` only compute the thread's index, turn their pointers
//!   into slices and call that logic.
//!
//! Names, block sizes and shared-memory sizes that the host needs to launch a
//! kernel live in [`launch`], and every kernel's parameters in [`args`], each
//! defined once for both sides.
#![no_std]
// `core_intrinsics` gives the dynamic shared memory intrinsic (see device.rs).
#![cfg_attr(target_arch = "nvptx64", allow(internal_features))]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(
        abi_ptx,
        stdarch_nvptx,
        asm_experimental_arch,
        core_intrinsics,
        gpu_intrinsics,
        gpu_launch_sized_workgroup_mem,
        link_llvm_intrinsics
    )
)]

pub mod args;
pub mod bellman_ford;
pub mod cch_customize;
pub mod certificate;
pub mod compact;
pub mod crauser;
pub mod csr;
pub mod da2cf;
pub mod distance;
pub mod launch;
pub mod matrix;
pub mod near_far;
pub mod pair_query;
pub mod parents;
pub mod partition;
pub mod phast;
pub mod reduce;
pub mod reductions;
pub mod rows;
pub mod stats;
pub mod team;

#[cfg(target_arch = "nvptx64")]
mod device;
#[cfg(target_arch = "nvptx64")]
mod entry;
#[cfg(target_arch = "nvptx64")]
mod kernels;

/// On the GPU a panic (an out-of-bounds index, say) stops the kernel with a trap,
/// which the host sees as a launch failure; there is no unwinding and no message.
#[cfg(target_arch = "nvptx64")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: `trap` has no precondition; it aborts the kernel.
    unsafe { core::arch::nvptx::trap() }
}
