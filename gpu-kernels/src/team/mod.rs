//! The threads that run a kernel's logic together and how they wait for each
//! other, for every kernel whose threads cooperate beyond one step:
//! - a loop [`Team`] ([`crate::compact`], [`crate::near_far`]): threads in
//!   warps with warp-wide calls and a barrier over all of them, one block or
//!   the whole grid on the GPU, OS threads or [`Sequential`] on the CPU; with
//!   the warp walks that deal work to its lanes ([`for_each_warp_uniform`],
//!   [`for_each_edge_of_warp`]);
//! - a [`BlockTeam`] ([`crate::partition`]): one block whose compute threads
//!   and communication thread wait on different barriers and fences.
//!
//! The per-thread logic is generic over these traits and plain Rust, so that
//! the tests run it on CPU threads; `gpu` (PTX build only) implements them
//! with the device's barriers, shuffles and fences, and gives the kernels of
//! Bellman-Ford's "Algorithm 1" the block's and the grid's barrier.

mod block;
#[cfg(target_arch = "nvptx64")]
pub(crate) mod gpu;
mod walks;
mod warps;

pub use block::BlockTeam;
pub use walks::{for_each_edge_of_warp, for_each_edge_of_warp_but_hubs, for_each_warp_uniform};
pub use warps::{Exit, LOOP_WARP_SLOTS, Sequential, Team, loop_shared_bytes};
