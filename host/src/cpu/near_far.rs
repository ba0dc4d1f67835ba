//! The near-far solver ([`gpu_kernels::near_far`]) on the CPU: the kernels'
//! whole loop run by one thread. The CPU model that tests drive (they also run
//! it on emulated warps of OS threads), and a solver in its own right.

use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use gpu_kernels::compact::{Exit, Sequential};
use gpu_kernels::near_far::{self, Arrays, NearFarState};

use super::Da2cfResult;
use crate::distances::{check_overflow, check_source};
use crate::graph::{Graph, with_weight_type};
use crate::variants::near_far_delta;

/// The state of a near-far solve on the host.
pub struct NearFarHostState {
    /// Tentative distances.
    pub dist: Vec<AtomicU32>,
    /// Near-worklist stamps.
    pub stamp: Vec<AtomicU32>,
    /// Far-list stamps.
    pub far_stamp: Vec<AtomicU32>,
    /// The near worklists.
    pub near: [Vec<AtomicU32>; 2],
    /// The far lists.
    pub far: [Vec<AtomicU32>; 2],
    /// The counters.
    pub state: NearFarState<AtomicU32>,
}

impl NearFarHostState {
    /// A state initialized for a solve from `source` on `n` vertices with band
    /// width `delta`.
    pub fn new(graph: &Graph, source: usize, delta: u32) -> Self {
        let n = graph.num_vertices();
        let zeroed = || (0..n).map(|_| AtomicU32::new(0)).collect::<Vec<_>>();
        let state = NearFarHostState {
            dist: zeroed(),
            stamp: zeroed(),
            far_stamp: zeroed(),
            near: [zeroed(), zeroed()],
            far: [zeroed(), zeroed()],
            state: NearFarState::default(),
        };
        let arrays = state.arrays(graph);
        for v in 0..n {
            near_far::initialize_vertex(v, source, &arrays);
        }
        near_far::initialize_state(source as u32, delta, &state.near[0], &state.state);
        state
    }

    /// The counters as they stand, as the host copies them from the device.
    pub fn snapshot(&self) -> NearFarState<u32> {
        let s = &self.state;
        let load = |a: &AtomicU32| a.load(Relaxed);
        NearFarState {
            iteration: load(&s.iteration),
            threshold: load(&s.threshold),
            far_parity: load(&s.far_parity),
            far_epoch: load(&s.far_epoch),
            near_len: s.near_len.each_ref().map(load),
            far_len: s.far_len.each_ref().map(load),
            far_minimum: s.far_minimum.each_ref().map(load),
        }
    }

    /// The kernels' view of this state over `graph`.
    pub fn arrays<'a>(&'a self, graph: &'a Graph) -> Arrays<'a> {
        Arrays {
            successors: graph.csr(),
            dist: &self.dist,
            stamp: &self.stamp,
            far_stamp: &self.far_stamp,
            near: [&self.near[0], &self.near[1]],
            far: [&self.far[0], &self.far[1]],
            state: &self.state,
        }
    }
}

/// Shortest distances from `source` with near-far and band width `delta`
/// ([`near_far_delta`] when `None`), and the iterations (relax and split).
pub fn near_far(graph: &Graph, source: usize, delta: Option<u32>) -> crate::Result<Da2cfResult> {
    check_source(graph, source)?;
    let kind = graph.weight_kind();
    let delta = near_far_delta(graph, delta)?;
    let state = NearFarHostState::new(graph, source, delta);
    let arrays = state.arrays(graph);
    let exit = with_weight_type!(kind, W => {
        near_far::thread_loop::<W>(arrays, delta, 0, u32::MAX, &Sequential)
    });
    debug_assert_eq!(exit, Exit::Converged);
    let iterations = state.state.iteration.into_inner();
    let dist: Vec<u32> = state.dist.into_iter().map(AtomicU32::into_inner).collect();
    check_overflow(kind, &dist)?;
    Ok(Da2cfResult {
        dist,
        iterations,
        working_threads: None,
    })
}
