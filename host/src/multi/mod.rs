//! Many sources spread over several devices in one process: a selection of
//! GPUs ([`Gpus`]), the driver that hands batches of sources to one host
//! thread per device ([`spread`]), and what runs on it: an index's trees,
//! `within`, `nearest` and all-pairs accessibility ([`index`]), and a
//! solver's rows without an index ([`rows`]).
//!
//! What scales is the number of sources: each device holds its own copy of
//! the graph (or index) and solves whole trees. One source's solve does not
//! span devices.

pub mod gpus;
pub mod index;
pub mod progress;
pub mod rows;
pub mod spread;

pub use gpus::{Gpus, Worker};
pub use index::{Accessibility, IndexSpread};
pub use progress::Meter;
pub use spread::{Batches, SharedSink, WorkerReport, default_batch, spread};
