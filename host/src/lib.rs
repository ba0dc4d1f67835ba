//! SSSP on NVIDIA GPUs with kernels written in Rust.
//!
//! Start with [`solver`]: a [`Solver`] on a device (the GPU, or the CPU where
//! there is none), a [`Query`] from one or many sources (with a limit, a
//! target, trees), and a [`Solution`] with distances, trees, iterations and
//! times. This is `examples/quick_start.rs`:
//!
//! ```
#![doc = include_str!("../examples/quick_start.rs")]
//! ```
//!
//! The modules underneath:
//! - [`graph`]: the CSR graph; [`formats::csr`]: the `g.csr` file; [`generate`]: the
//!   papers' random graphs and 2-D grids (road-network stand-ins);
//! - [`reorder`]: vertex orders for locality (BFS, reverse Cuthill–McKee, by
//!   degree) as permutations; the partition solver relabels its pieces with
//!   one;
//! - [`formats`]: text inputs (DIMACS `.gr`, Matrix Market `.mtx`, edge lists,
//!   gzip) and format detection by extension;
//! - [`oracle`]: Dijkstra on the CPU, the reference for every result;
//! - [`cpu`]: DA2CF on the CPU through the kernels' own per-thread logic;
//! - [`gpu`]: the CUDA side (context, kernels, device graphs, solver loops);
//! - [`distances`]: checking, comparing and summarizing results;
//! - [`parents`]: shortest-path trees (checked against the distances) and paths;
//! - [`ch`]: contraction hierarchies for road networks: an index built once,
//!   then trees (PHAST), point-to-point queries and many-to-many tables;
//! - [`algorithms`]: the catalogue behind `--algo`, and [`auto`]: its `auto`.
pub mod algorithms;
pub mod auto;
pub mod cch;
pub mod ch;
pub mod cpu;
pub mod distances;
pub mod error;
pub mod formats;
pub mod generate;
pub mod gpu;
pub mod graph;
pub mod matrix;
pub mod memory;
pub mod multi;
pub mod options;
pub mod oracle;
pub mod panics;
pub mod parents;
pub mod partition;
pub mod reorder;
pub mod solution;
pub mod solver;
pub mod transform;
pub mod variants;

pub use error::{Error, Result};
pub use graph::Graph;
pub use options::{Device, Stop, Timing, Tuning};
pub use solver::{Query, Solution, Solver};
