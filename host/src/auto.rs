//! `--algo auto`: picks the compacted DA2CF (`fast`) for graphs whose
//! distances take few distinct values, and near-far for high-diameter graphs
//! (road networks, grids) or wide weight ranges, where DA2CF would run one
//! iteration per distinct distance.

use std::collections::VecDeque;

use crate::algorithms::Algorithm;
use crate::graph::{Graph, with_weight_type};
use gpu_kernels::distance::Weight;

/// Vertices the breadth-first probe visits at most.
const PROBE_VERTICES: usize = 1 << 16;

/// Estimated DA2CF iterations above which near-far is chosen.
const NEAR_FAR_ABOVE: f64 = 1000.0;

/// What `auto` chose, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The algorithm to run.
    pub algorithm: Algorithm,
    /// The estimate behind the choice, for the user.
    pub reason: String,
}

/// Chooses between `fast` and `near-far` for `graph` from `source`.
///
/// DA2CF takes one iteration per distinct distance. The estimate of that
/// count: the breadth-first levels from `source` needed to visit
/// [`PROBE_VERTICES`] vertices (or all it reaches), times the mean weight over
/// the smallest non-zero weight (the distance values one level spans). On the
/// papers' graphs (degree 7, weights 1..10) this is about 30; on a road
/// network or a grid it is in the thousands. Cost: a BFS over at most 2^16
/// vertices and a pass over the weights.
pub fn choose(graph: &Graph, source: usize) -> Choice {
    let levels = probe_levels(graph, source);
    let weights = graph.weights();
    // Non-negative weight words order like their values (also for `f32`).
    let min_word = weights.iter().copied().filter(|&w| w > 0).min();
    let value = |w: u32| with_weight_type!(graph.weight_kind(), W => W::to_f64(w));
    let min_weight = min_word.map_or(1.0, value);
    let mean_weight = if weights.is_empty() {
        1.0
    } else {
        with_weight_type!(graph.weight_kind(), W => {
            weights.iter().map(|&w| W::to_f64(w)).sum::<f64>()
        }) / weights.len() as f64
    };
    let estimate = levels as f64 * (mean_weight / min_weight).max(1.0);
    let algorithm = if estimate > NEAR_FAR_ABOVE {
        Algorithm::NearFar
    } else {
        Algorithm::Fast
    };
    Choice {
        algorithm,
        reason: format!(
            "about {estimate:.0} distinct distances estimated ({levels} BFS levels × mean weight \
             {mean_weight:.1} / smallest weight {min_weight}); near-far above {NEAR_FAR_ABOVE:.0}"
        ),
    }
}

/// Breadth-first levels from `source` until [`PROBE_VERTICES`] vertices are
/// visited or none is left.
fn probe_levels(graph: &Graph, source: usize) -> u32 {
    let n = graph.num_vertices();
    if source >= n {
        return 0;
    }
    let csr = graph.csr();
    let mut level = std::collections::HashMap::with_capacity(PROBE_VERTICES);
    let mut queue = VecDeque::new();
    level.insert(source, 0u32);
    queue.push_back(source);
    let mut deepest = 0;
    while let Some(u) = queue.pop_front() {
        let next = level[&u] + 1;
        for (v, _) in csr.edges(u) {
            if level.len() >= PROBE_VERTICES {
                return deepest.max(next);
            }
            if let std::collections::hash_map::Entry::Vacant(slot) = level.entry(v) {
                slot.insert(next);
                deepest = deepest.max(next);
                queue.push_back(v);
            }
        }
    }
    deepest
}
