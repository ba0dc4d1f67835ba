//! The near-far solver ([`gpu_kernels::near_far`]) on the CPU: the kernels'
//! whole loop run by one thread. The CPU model that tests drive (they also run
//! it on emulated warps of OS threads), and a solver in its own right.

use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use gpu_kernels::near_far::{self, Arrays, HUB_DEGREE, NearFarState, hub_slots};
use gpu_kernels::team::{Exit, Sequential};

use super::Da2cfResult;
use crate::distances::{check_overflow, check_source};
use crate::graph::{Graph, with_weight_type};
use crate::options::Stop;
use crate::variants::near_far_delta;
use gpu_kernels::distance::NO_TARGET;

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
    /// The hub lists.
    pub hubs: [Vec<AtomicU32>; 2],
    /// Near vertices of more out-edges than this are hubs.
    pub hub_degree: u32,
    /// No vertex beyond this bound is relaxed: the limit (a distance word)
    /// and the target ([`gpu_kernels::near_far`], *Early stop*).
    pub stop: Stop,
    /// The counters.
    pub state: NearFarState<AtomicU32>,
}

impl NearFarHostState {
    /// A state initialized for a solve from `source` on `graph` with band
    /// width `delta` and hubs above [`HUB_DEGREE`] out-edges.
    pub fn new(graph: &Graph, source: usize, delta: u32) -> Self {
        Self::with_hub_degree(graph, source, delta, HUB_DEGREE)
    }

    /// As [`NearFarHostState::new`], with hubs above `hub_degree` out-edges.
    pub fn with_hub_degree(graph: &Graph, source: usize, delta: u32, hub_degree: u32) -> Self {
        let (n, m) = (graph.num_vertices(), graph.num_edges());
        let zeroed = |len| (0..len).map(|_| AtomicU32::new(0)).collect::<Vec<_>>();
        let hubs = hub_slots(n, m, hub_degree);
        let state = NearFarHostState {
            dist: zeroed(n),
            stamp: zeroed(n),
            far_stamp: zeroed(n),
            near: [zeroed(n), zeroed(n)],
            far: [zeroed(n), zeroed(n)],
            hubs: [zeroed(2 * hubs), zeroed(2 * hubs)],
            hub_degree,
            stop: Stop::default(),
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
            hub_len: s.hub_len.each_ref().map(load),
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
            hubs: [&self.hubs[0], &self.hubs[1]],
            hub_degree: self.hub_degree,
            limit: self.stop.limit_word(),
            target: self.stop.target.map_or(NO_TARGET, |t| t as u32),
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
    // Hubs where the GPU solver has them.
    let exit = with_weight_type!(kind, W => {
        if near_far::wants_hubs(graph.offsets()) {
            near_far::thread_loop::<W, true>(arrays, delta, 0, u32::MAX, &Sequential)
        } else {
            near_far::thread_loop::<W, false>(arrays, delta, 0, u32::MAX, &Sequential)
        }
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
