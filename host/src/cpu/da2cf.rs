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

use crate::distances::as_atomic;
use crate::distances::{check_overflow, check_source};
use crate::graph::{Graph, WeightKind, with_weight_type};
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
    /// ([`crate::gpu::solver::GpuSolver::count_working_threads`]), counted by
    /// [`da2cf_model`] and the matrix model; `None` for other loops and for
    /// solves that do not count.
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
fn count_working(flags: &[u8], counter: &AtomicU64) {
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
/// successor CSR `graph` (pull forms transpose it first). A solver: it counts
/// no threads (`working_threads` is `None`).
pub fn da2cf(graph: &Graph, source: usize, relax: Relax, rule: Frontier) -> Result<Da2cfResult> {
    da2cf_counting(graph, source, relax, rule, Counting::Off)
}

/// [`da2cf()`] as the CPU model of the GPU's measuring mode: it also counts the
/// working `relax` threads (`working_threads`), an extra pass per iteration.
pub fn da2cf_model(
    graph: &Graph,
    source: usize,
    relax: Relax,
    rule: Frontier,
) -> Result<Da2cfResult> {
    da2cf_counting(graph, source, relax, rule, Counting::WorkingThreads)
}

/// Whether a CPU DA2CF solve counts the working `relax` threads. Timed solves
/// do not: like the GPU's measuring mode, the count is a separate run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counting {
    /// No count (`working_threads` is `None`).
    Off,
    /// Count the working threads of every `relax`.
    WorkingThreads,
}

fn da2cf_counting(
    graph: &Graph,
    source: usize,
    relax: Relax,
    rule: Frontier,
    counting: Counting,
) -> Result<Da2cfResult> {
    if !matches!(relax, Relax::Push | Relax::Pull) {
        return Err(Error::InvalidArgument(format!(
            "{relax:?} relaxation exists on the GPU only"
        )));
    }
    check_source(graph, source)?;
    with_weight_type!(graph.weight_kind(), W => {
        da2cf_with::<W>(graph, source, (relax, rule), counting)
    })
}

/// [`da2cf`] for weights `W`.
fn da2cf_with<W: Weight>(
    graph: &Graph,
    source: usize,
    (relax, rule): (Relax, Frontier),
    counting: Counting,
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
    let delta_base = delta_base(graph.weights());
    let mut model = VertexModel::new(n, source, rule, (delta_node, delta_base), counting);
    loop {
        let a = model.begin_iteration(relax.is_pull());
        for i in 0..n {
            match relax {
                Relax::Pull => {
                    da2cf::relax_unsettled::<W>(i, lists, a.dist, a.frontier, a.unsettled)
                }
                _ => da2cf::relax_frontier::<W>(
                    i,
                    lists,
                    a.dist,
                    a.frontier,
                    a.unsettled,
                    da2cf::atomic_min,
                ),
            }
        }
        if model.settle::<W>() {
            break;
        }
    }
    model.finish(graph.weight_kind())
}

/// The CPU model of the state that the GPU's DA2CF loops share, lists and
/// matrices alike (`gpu::vertex_loop`), and of the steps that do not read the
/// graph: `initialize`, the measuring mode's count, `minimum` and `update`, by
/// the kernels' own per-thread functions.
pub struct VertexModel {
    rule: Frontier,
    /// Crauser general: the smallest weight leaving each vertex.
    delta_node: Vec<u32>,
    /// Crauser economic: the smallest weight of the graph.
    delta_base: u32,
    dist: Vec<u32>,
    frontier: Vec<u8>,
    unsettled: Vec<u8>,
    iterations: u32,
    /// The working-thread count, when counting.
    working: Option<AtomicU64>,
}

/// The arrays a `relax` pass takes.
pub struct RelaxArrays<'m> {
    /// Tentative distances, updated atomically.
    pub dist: &'m [AtomicU32],
    /// Vertices settled in the last iteration.
    pub frontier: &'m [u8],
    /// Vertices not yet settled.
    pub unsettled: &'m [u8],
}

impl VertexModel {
    /// `initialize` for `n` vertices from `source`; `delta_node` is Crauser
    /// general's `Δ_node` (empty for the other rules), `delta_base` the
    /// smallest weight.
    pub fn new(
        n: usize,
        source: usize,
        rule: Frontier,
        (delta_node, delta_base): (Vec<u32>, u32),
        counting: Counting,
    ) -> Self {
        let mut dist = vec![0u32; n];
        let mut frontier = vec![0u8; n];
        let mut unsettled = vec![0u8; n];
        for i in 0..n {
            da2cf::initialize(i, source, &mut dist[i], &mut frontier[i], &mut unsettled[i]);
        }
        VertexModel {
            rule,
            delta_node,
            delta_base,
            dist,
            frontier,
            unsettled,
            iterations: 0,
            working: (counting == Counting::WorkingThreads).then(|| AtomicU64::new(0)),
        }
    }

    /// Begins an iteration: counts it and, when counting, the `relax` threads
    /// that will find work (`pull`: one per unsettled vertex, else per
    /// frontier vertex); returns the arrays of its `relax`.
    pub fn begin_iteration(&mut self, pull: bool) -> RelaxArrays<'_> {
        self.iterations += 1;
        if let Some(working) = &self.working {
            let flags = if pull {
                &self.unsettled
            } else {
                &self.frontier
            };
            count_working(flags, working);
        }
        RelaxArrays {
            dist: as_atomic(&mut self.dist),
            frontier: &self.frontier,
            unsettled: &self.unsettled,
        }
    }

    /// After `relax`: `minimum`, and `update` unless the threshold is
    /// infinite. Returns whether the solve has converged.
    pub fn settle<W: Weight>(&mut self) -> bool {
        let n = self.dist.len();
        let (dist, unsettled) = (&self.dist, &self.unsettled);
        let limit = match self.rule {
            Frontier::Martin => minimum(dist, unsettled),
            Frontier::CrauserEconomic => {
                crauser::threshold::<W>(minimum(dist, unsettled), self.delta_base)
            }
            Frontier::CrauserGeneral => block_minimum(n, |i| {
                crauser::minimum_input::<W>(i, dist, &self.delta_node, unsettled)
            }),
        };
        if limit == INFINITY {
            return true;
        }
        for i in 0..n {
            let (frontier, unsettled) = (&mut self.frontier[i], &mut self.unsettled[i]);
            match self.rule {
                Frontier::Martin => da2cf::update(self.dist[i], frontier, unsettled, limit),
                _ => crauser::update(self.dist[i], frontier, unsettled, limit),
            }
        }
        false
    }

    /// The distances, iterations and working threads (when counted), after the overflow
    /// check for `kind` weights.
    pub fn finish(self, kind: WeightKind) -> Result<Da2cfResult> {
        check_overflow(kind, &self.dist)?;
        Ok(Da2cfResult {
            dist: self.dist,
            iterations: self.iterations,
            working_threads: self.working.map(AtomicU64::into_inner),
        })
    }
}
