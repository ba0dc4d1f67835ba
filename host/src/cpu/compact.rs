//! The compacted, device-resident DA2CF ([`gpu_kernels::compact`]) on the CPU:
//! the kernels' whole loop run by one thread ([`Sequential`]). The CPU model
//! that tests drive (they also run it on several OS threads), and a solver in
//! its own right.

use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use gpu_kernels::compact::{self, Arrays, LoopState};
use gpu_kernels::crauser;
use gpu_kernels::team::{Exit, Sequential};

use super::Da2cfResult;
use crate::distances::{check_overflow, check_source};
use crate::graph::{Graph, with_weight_type};

pub use crate::variants::CompactRule;

/// `Δ_node` of every vertex for `rule` (empty for Martín's rule).
pub fn delta_node(graph: &Graph, rule: CompactRule) -> Vec<u32> {
    match rule {
        CompactRule::Martin => Vec::new(),
        CompactRule::Crauser => (0..graph.num_vertices())
            .map(|v| crauser::delta_node(v, graph.csr()))
            .collect(),
    }
}

/// The state of a compacted solve on the host, for the CPU model.
pub struct CompactState {
    /// Tentative distances.
    pub dist: Vec<AtomicU32>,
    /// The frontier list.
    pub frontier: Vec<AtomicU32>,
    /// The reached-unsettled lists.
    pub reached: [Vec<AtomicU32>; 2],
    /// The counters.
    pub state: LoopState<AtomicU32>,
}

impl CompactState {
    /// A state initialized for a solve from `source` on `n` vertices.
    pub fn new(n: usize, source: usize) -> Self {
        let zeroed = || (0..n).map(|_| AtomicU32::new(0)).collect::<Vec<_>>();
        let state = CompactState {
            dist: zeroed(),
            frontier: zeroed(),
            reached: [zeroed(), zeroed()],
            state: LoopState::default(),
        };
        for v in 0..n {
            compact::initialize_vertex(v, source, &state.dist);
        }
        compact::initialize_state(source as u32, &state.frontier, &state.state);
        state
    }

    /// The counters as they stand, as the host copies them from the device.
    pub fn snapshot(&self) -> LoopState<u32> {
        let s = &self.state;
        let load = |a: &AtomicU32| a.load(Relaxed);
        LoopState {
            iteration: load(&s.iteration),
            frontier_len: s.frontier_len.each_ref().map(load),
            kept_len: s.kept_len.each_ref().map(load),
            appended_len: s.appended_len.each_ref().map(load),
            kept_minimum: s.kept_minimum.each_ref().map(load),
            relaxed_minimum: s.relaxed_minimum.each_ref().map(load),
        }
    }

    /// The kernels' view of this state over `graph` with `delta_node`.
    pub fn arrays<'a>(&'a self, graph: &'a Graph, delta_node: &'a [u32]) -> Arrays<'a> {
        Arrays {
            successors: graph.csr(),
            delta_node,
            dist: &self.dist,
            frontier: &self.frontier,
            reached: [&self.reached[0], &self.reached[1]],
            state: &self.state,
        }
    }
}

/// Shortest distances from `source` with the compacted DA2CF and `rule`, and
/// the iterations.
pub fn compact_da2cf(
    graph: &Graph,
    source: usize,
    rule: CompactRule,
) -> crate::Result<Da2cfResult> {
    check_source(graph, source)?;
    let delta_node = delta_node(graph, rule);
    let state = CompactState::new(graph.num_vertices(), source);
    let arrays = state.arrays(graph, &delta_node);
    let exit = with_weight_type!(graph.weight_kind(), W => {
        compact::thread_loop::<W>(arrays, 0, u32::MAX, &Sequential)
    });
    debug_assert_eq!(exit, Exit::Converged);
    let iterations = state.state.iteration.into_inner();
    let dist: Vec<u32> = state.dist.into_iter().map(AtomicU32::into_inner).collect();
    check_overflow(graph.weight_kind(), &dist)?;
    Ok(Da2cfResult {
        dist,
        iterations,
        working_threads: None,
    })
}
