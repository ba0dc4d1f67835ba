//! Solvers on the CPU that run the kernels' own per-thread logic, one vertex
//! after another: solvers in their own right (the papers' CPU variants) and the
//! CPU models that the tests drive to check the kernels without a GPU.

mod barrier;
pub mod bellman_ford;
pub mod compact;
mod crowding;
pub mod da2cf;
pub mod delta_stepping;
pub mod free_cores;
pub mod matrix;
pub mod near_far;
pub mod parents;

pub use da2cf::{Da2cfResult, da2cf, da2cf_f, da2cf_model, minimum};
