//! Contraction hierarchies (CH) for road networks: an index built once per
//! graph, after which a whole shortest-path tree is one upward search plus one
//! sweep over the vertices in rank order (PHAST, Delling et al., IPDPS 2011),
//! and a point-to-point query or a many-to-many table touches only a few
//! hundred vertices per endpoint.
//!
//! - [`build`]: contraction in independent-set rounds, in parallel (rayon):
//!   every round contracts vertices no two of which are adjacent, so the
//!   vertices of one round form one *level* with no arcs inside it;
//! - [`Hierarchy`] ([`index`]): the index, its vertices renumbered by level
//!   (the top level first), its file (`host preprocess`);
//! - [`phast`]: trees on the CPU; [`crate::gpu::phast`] on the GPU;
//! - [`query`]: upward searches, point-to-point queries with their paths
//!   unpacked, and many-to-many tables;
//! - [`pairs`]: distances and paths of lists of (source, target) pairs.
//!
//! Graphs without a hierarchy (social, web, Kronecker: the remaining graph
//! grows denser while it is still large) stop [`build`] with
//! [`crate::Error::NoHierarchy`] (the rule: `core_growth`).
//!
//! With `u32` weights every distance from the index is exact. With `f32`
//! weights the build works in `f64` (see [`build`]) and the searches and
//! sweeps add `f32`s along up-down paths, in another order than along the
//! graph's arcs: distances are within the bound that
//! [`crate::oracle::check_f32_index`] derives of the exact ones, not the `f32`
//! oracle's bit for bit. The GPU and CPU sweeps give the same words.

pub mod build;
mod core_growth;
pub(crate) mod fnv;
mod frontier;
mod graph_check;
pub mod index;
pub mod lightest;
mod pair_search;
pub mod pairs;
pub mod phast;
pub mod query;
mod query_graph;
pub mod reductions;
pub mod trees;

pub use build::{BuildOptions, build};
pub use index::{Arcs, Hierarchy, NO_MIDDLE};
pub use reductions::{Nearest, Values};
pub use trees::{TreeSolver, TreeTimes};
