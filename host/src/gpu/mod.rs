//! The GPU side of the host: the CUDA context and stream ([`Gpu`]), the kernels
//! resolved from the embedded PTX ([`kernels::Kernels`]), device copies of graphs
//! ([`memory::DeviceGraph`]) and the solvers: the host-driven DA2CF loop
//! ([`vertex_loop`]), the device-resident loops ([`resident`]) and others.
//!
//! Nothing touches the driver until [`Gpu::new`]: the binary runs, and can say
//! that there is no GPU, on machines without CUDA.

pub mod bandwidth;
pub mod bellman_ford;
pub mod buffers;
pub mod cch;
pub mod certificate;
pub mod compact;
pub mod context;
pub mod da2cf;
pub mod device_graph;
pub mod hybrid;
pub mod kernels;
pub mod matrix;
pub mod memory;
pub mod near_far;
pub mod pairs;
pub mod parents;
pub mod phast;
pub mod ptx;
pub mod resident;
pub mod rows;
pub mod run_stats;
pub mod solver;
pub mod vertex_loop;
