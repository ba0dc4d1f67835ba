//! "Algorithm 1" (Bellman-Ford style) on the CPU: the kernels' per-thread
//! functions ([`gpu_kernels::bellman_ford`]) called for one vertex after another,
//! round by round, as one thread striding over all vertices would (the end of
//! each loop over the vertices stands for the barrier). The CPU model that tests
//! drive, and a solver in its own right.

use std::sync::atomic::{AtomicU8, AtomicU32};

use gpu_kernels::bellman_ford::{commit_vertex, initialize_vertex, relax_changed_vertex};
use gpu_kernels::distance::Weight;

use crate::Result;
use crate::distances::{check_overflow, check_source};
use crate::graph::{Graph, with_weight_type};

/// Shortest distances from `source` over the successor CSR `graph`, and the
/// number of rounds (the last one, which changes nothing, included).
pub fn bellman_ford(graph: &Graph, source: usize) -> Result<(Vec<u32>, u32)> {
    check_source(graph, source)?;
    with_weight_type!(graph.weight_kind(), W => bellman_ford_with::<W>(graph, source))
}

/// [`bellman_ford`] for weights `W`.
fn bellman_ford_with<W: Weight>(graph: &Graph, source: usize) -> Result<(Vec<u32>, u32)> {
    let n = graph.num_vertices();
    let csr = graph.csr();
    let dist: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
    let predist: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
    let changed: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
    for u in 0..n {
        initialize_vertex(u, source, &dist, &predist, &changed);
    }
    let mut rounds = 0;
    loop {
        rounds += 1;
        for u in 0..n {
            relax_changed_vertex::<W>(u, csr, &dist, &predist, &changed);
        }
        let mut any_changed = false;
        for u in 0..n {
            any_changed |= commit_vertex(u, &dist, &predist, &changed);
        }
        if !any_changed {
            break;
        }
    }
    let dist: Vec<u32> = dist.into_iter().map(AtomicU32::into_inner).collect();
    check_overflow(graph.weight_kind(), &dist)?;
    Ok((dist, rounds))
}
