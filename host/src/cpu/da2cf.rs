//! DA2CF on the CPU (the papers' F^CPU and U^CPU, and Crauser's frontier on the
//! CPU): the same per-thread functions as the GPU kernels, called for one vertex
//! after another, with the GPU's two-pass block reduction for `minimum`. It is a
//! solver in its own right and the CPU model that tests drive to check the
//! kernels' logic without a GPU.

use std::sync::atomic::{AtomicU32, AtomicU64};

use gpu_kernels::crauser;
use gpu_kernels::da2cf;
use gpu_kernels::distance::{INFINITY, Weight};
use gpu_kernels::launch::BLOCK_SIZE;
use gpu_kernels::{reduce, stats};

use crate::distances::{check_overflow, check_source};
use crate::graph::{Graph, with_weight_type};
use crate::variants::{Frontier, Relax, delta_base};
use crate::{Error, Result};

/// Distances and the number of DA2CF iterations it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Da2cfResult {
    /// Shortest distances ([`INFINITY`] for unreachable vertices).
    pub dist: Vec<u32>,
    /// Iterations of the relax → minimum → update loop.
    pub iterations: u32,
    /// For the loops whose `relax` has one thread per vertex (DA2CF on lists
    /// and matrices): the threads that found work, summed over the iterations,
    /// as the GPU's measuring mode counts them
    /// ([`crate::gpu::GpuSolver::count_working_threads`]); `None` for others.
    pub working_threads: Option<u64>,
}

/// The minimum of `load(0..len)` as the GPU computes it: `minimum1` then
/// `minimum2` (blocks of [`BLOCK_SIZE`] threads, two values per thread), then the
/// host's final pass. `load` must give infinity past `len`.
pub fn block_minimum(len: usize, load: impl Fn(usize) -> u32) -> u32 {
    let block_dim = BLOCK_SIZE as usize;
    let mut shared = vec![0u32; block_dim];
    let minima1: Vec<u32> = (0..reduce::num_blocks(len, block_dim))
        .map(|b| reduce::block_minimum(b, block_dim, &mut shared, &load))
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

/// Adds to `counter` the `relax` threads that will find work, by the measuring
/// mode's own per-thread logic: the set `flags` (frontier for push, unsettled
/// for pull).
pub fn count_working(flags: &[u8], counter: &AtomicU64) {
    for i in 0..flags.len() {
        stats::count_flag(i, flags, counter);
    }
}

/// DA2CF's `minimum`: the smallest distance of an unsettled vertex.
pub fn minimum(dist: &[u32], unsettled: &[u8]) -> u32 {
    block_minimum(dist.len(), |i| da2cf::minimum_input(i, dist, unsettled))
}

/// DA2CF with push relaxation (`relax_F`): F^CPU.
pub fn da2cf_f(graph: &Graph, source: usize) -> Result<Da2cfResult> {
    da2cf(graph, source, Relax::Push, Frontier::Martin)
}

/// DA2CF with the given relaxation (push or pull) and settling rule on the
/// successor CSR `graph` (pull forms transpose it first).
pub fn da2cf(graph: &Graph, source: usize, relax: Relax, rule: Frontier) -> Result<Da2cfResult> {
    if !matches!(relax, Relax::Push | Relax::Pull) {
        return Err(Error::InvalidArgument(format!(
            "{relax:?} relaxation exists on the GPU only"
        )));
    }
    check_source(graph, source)?;
    with_weight_type!(graph.weight_kind(), W => da2cf_with::<W>(graph, source, relax, rule))
}

/// [`da2cf`] for weights `W`.
fn da2cf_with<W: Weight>(
    graph: &Graph,
    source: usize,
    relax: Relax,
    rule: Frontier,
) -> Result<Da2cfResult> {
    let n = graph.num_vertices();
    let predecessors = relax.is_pull().then(|| graph.transpose());
    let lists = predecessors.as_ref().unwrap_or(graph).csr();
    let delta_node: Vec<u32> = match rule {
        Frontier::CrauserGeneral if relax.is_pull() => {
            let delta: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(INFINITY)).collect();
            for i in 0..n {
                crauser::scatter_delta_node(i, lists, &delta);
            }
            delta.into_iter().map(AtomicU32::into_inner).collect()
        }
        Frontier::CrauserGeneral => (0..n).map(|i| crauser::delta_node(i, lists)).collect(),
        _ => Vec::new(),
    };
    let base = delta_base(graph.weights());

    let mut dist = vec![0u32; n];
    let mut frontier = vec![0u8; n];
    let mut unsettled = vec![0u8; n];
    for i in 0..n {
        da2cf::initialize(i, source, &mut dist[i], &mut frontier[i], &mut unsettled[i]);
    }
    let mut iterations = 0;
    let working = AtomicU64::new(0);
    loop {
        iterations += 1;
        count_working(
            if relax.is_pull() {
                &unsettled
            } else {
                &frontier
            },
            &working,
        );
        let shared = as_atomic(&mut dist);
        for i in 0..n {
            match relax {
                Relax::Pull => da2cf::relax_unsettled::<W>(i, lists, shared, &frontier, &unsettled),
                _ => da2cf::relax_frontier::<W>(i, lists, shared, &frontier, &unsettled),
            }
        }
        let limit = match rule {
            Frontier::Martin => minimum(&dist, &unsettled),
            Frontier::CrauserEconomic => crauser::threshold::<W>(minimum(&dist, &unsettled), base),
            Frontier::CrauserGeneral => block_minimum(n, |i| {
                crauser::minimum_input::<W>(i, &dist, &delta_node, &unsettled)
            }),
        };
        if limit == INFINITY {
            break;
        }
        for i in 0..n {
            match rule {
                Frontier::Martin => {
                    da2cf::update(dist[i], &mut frontier[i], &mut unsettled[i], limit)
                }
                _ => crauser::update(dist[i], &mut frontier[i], &mut unsettled[i], limit),
            }
        }
    }
    check_overflow(graph.weight_kind(), &dist)?;
    Ok(Da2cfResult {
        dist,
        iterations,
        working_threads: Some(working.into_inner()),
    })
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
