//! DA2CF on the CPU (the paper's F^CPU): the same per-thread functions as the GPU
//! kernels, called for one vertex after another, with the GPU's two-pass block
//! reduction for `minimum`. It is a solver in its own right and the CPU model
//! that tests drive to check the kernels' logic without a GPU.

use std::sync::atomic::AtomicU32;

use gpu_kernels::da2cf;
use gpu_kernels::distance::INFINITY;
use gpu_kernels::launch::BLOCK_SIZE;
use gpu_kernels::reduce;

use crate::Result;
use crate::distances::{check_overflow, check_source};
use crate::graph::Graph;

/// Distances and the number of DA2CF iterations it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Da2cfResult {
    /// Shortest distances ([`INFINITY`] for unreachable vertices).
    pub dist: Vec<u32>,
    /// Iterations of the relax → minimum → update loop.
    pub iterations: u32,
}

/// `minimum1` then `minimum2` as the GPU runs them (blocks of [`BLOCK_SIZE`]
/// threads, two values per thread), then the host's final pass.
pub fn minimum(dist: &[u32], unsettled: &[u8]) -> u32 {
    let block_dim = BLOCK_SIZE as usize;
    let mut shared = vec![0u32; block_dim];
    let minima1: Vec<u32> = (0..reduce::num_blocks(dist.len(), block_dim))
        .map(|b| {
            reduce::block_minimum(b, block_dim, &mut shared, |i| {
                da2cf::minimum_input(i, dist, unsettled)
            })
        })
        .collect();
    let minima2: Vec<u32> = (0..reduce::num_blocks(minima1.len(), block_dim))
        .map(|b| {
            reduce::block_minimum(b, block_dim, &mut shared, |i| {
                minima1.get(i).copied().unwrap_or(INFINITY)
            })
        })
        .collect();
    minima2.into_iter().min().unwrap_or(INFINITY)
}

/// DA2CF with push relaxation (`relax_F`) on the successor CSR `graph`.
pub fn da2cf_f(graph: &Graph, source: usize) -> Result<Da2cfResult> {
    check_source(graph, source)?;
    let n = graph.num_vertices();
    let csr = graph.csr();
    let mut dist = vec![0u32; n];
    let mut frontier = vec![0u8; n];
    let mut unsettled = vec![0u8; n];
    for i in 0..n {
        da2cf::initialize(i, source, &mut dist[i], &mut frontier[i], &mut unsettled[i]);
    }
    let mut iterations = 0;
    loop {
        iterations += 1;
        let shared = as_atomic(&mut dist);
        for i in 0..n {
            da2cf::relax_frontier(i, csr, shared, &frontier, &unsettled);
        }
        let mssp = minimum(&dist, &unsettled);
        if mssp == INFINITY {
            break;
        }
        for i in 0..n {
            da2cf::update(dist[i], &mut frontier[i], &mut unsettled[i], mssp);
        }
    }
    check_overflow(&dist)?;
    Ok(Da2cfResult { dist, iterations })
}

/// The distances as the atomics that `relax` kernels update (`AtomicU32::from_mut_slice`,
/// which is not stable yet).
pub fn as_atomic(dist: &mut [u32]) -> &[AtomicU32] {
    // SAFETY: `AtomicU32` has the same size and bit validity as `u32` (core
    // documentation) and, as asserted below, the same alignment on this target;
    // the `&mut` borrow makes the returned view the only access while it lives.
    unsafe { &*(dist as *mut [u32] as *const [AtomicU32]) }
}

const _: () = assert!(align_of::<u32>() == align_of::<AtomicU32>());
