//! The shortest-path tree on the CPU: the tree kernel's per-thread logic
//! ([`gpu_kernels::parents::join_round`]) for one vertex after another, round
//! after round, as on the GPU.

use std::sync::atomic::AtomicU32;

use gpu_kernels::distance::Weight;
use gpu_kernels::parents::{self, NO_PARENT, NOT_IN_TREE};

use crate::Result;
use crate::distances::check_distances;
use crate::graph::{Graph, with_weight_type};

/// The shortest-path tree from `source` that the distances `dist` of a solve
/// give on the successor CSR `graph` ([`crate::parents`] describes it): one
/// parent per vertex, [`NO_PARENT`] for the source and unreached vertices.
pub fn shortest_path_tree(graph: &Graph, source: usize, dist: &[u32]) -> Result<Vec<u32>> {
    check_distances(graph, source, dist)?;
    with_weight_type!(graph.weight_kind(), W => Ok(tree_with::<W>(graph, source, dist)))
}

/// [`shortest_path_tree`] for weights `W`.
fn tree_with<W: Weight>(graph: &Graph, source: usize, dist: &[u32]) -> Vec<u32> {
    let predecessors = graph.transpose();
    let lists = predecessors.csr();
    let n = graph.num_vertices();
    let mut parent = vec![NO_PARENT; n];
    let level: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(NOT_IN_TREE)).collect();
    let mut round = 0;
    loop {
        let mut more = false;
        for (v, parent) in parent.iter_mut().enumerate() {
            more |= parents::join_round::<W>(v, source, round, lists, dist, parent, &level);
        }
        if !more {
            return parent;
        }
        round += 1;
    }
}
