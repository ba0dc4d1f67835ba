//! The partition-local solver: the graph cut into pieces on the CPU
//! ([`pieces`], grown as [`growth`] says, in [`regions`] on many threads,
//! their [`borders`] joined and refined), [`shortcuts`] across each piece,
//! and the GPU solver ([`solver`]) that keeps each piece in a block's shared
//! memory, with its [`options`] and calibration [`search`]es.
//!
//! A new knob of this solver goes into [`options::PartitionTuning`] (and,
//! where `auto`'s trial should try it, into the solver's
//! [`trial_variants`](crate::gpu::solver::GpuSolver::trial_variants)).

mod adjacency;
mod borders;
mod capacity;
pub mod growth;
pub mod options;
pub mod pieces;
mod regions;
pub mod search;
pub mod shortcuts;
pub mod solver;
