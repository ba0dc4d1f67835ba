//! The shortest-path tree on the CPU: the tree kernel's per-thread logic
//! ([`gpu_kernels::parents::join_round`]) for one vertex after another, round
//! after round, as on the GPU.

use std::sync::atomic::AtomicU32;

use gpu_kernels::parents::{self, NO_PARENT, NOT_IN_TREE};

use crate::Result;
use crate::graph::Graph;
use crate::parents::check_inputs;

/// The shortest-path tree from `source` that the distances `dist` of a solve
/// give on the successor CSR `graph` ([`crate::parents`] describes it): one
/// parent per vertex, [`NO_PARENT`] for the source and unreached vertices.
pub fn shortest_path_tree(graph: &Graph, source: usize, dist: &[u32]) -> Result<Vec<u32>> {
    check_inputs(graph, source, dist)?;
    let predecessors = graph.transpose();
    let lists = predecessors.csr();
    let n = graph.num_vertices();
    let mut parent = vec![NO_PARENT; n];
    let level: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(NOT_IN_TREE)).collect();
    let mut round = 0;
    loop {
        let mut more = false;
        for (v, parent) in parent.iter_mut().enumerate() {
            more |= parents::join_round(v, source, round, lists, dist, parent, &level);
        }
        if !more {
            return Ok(parent);
        }
        round += 1;
    }
}
