//! The shortest-path tree on the GPU, after a solve by any GPU solver (from its
//! [`super::solver::GpuSolver::distances`]): the predecessor CSR and the distances go
//! up, `parents_join_round` runs until a round asks for no other (one round when
//! all weights are positive), the certificate's tree check runs on the result
//! ([`super::certificate::check_tree`]), the parents come back.

use super::context::Gpu;
use super::kernels::TreeBuffers;
use super::memory::{DeviceGraph, alloc_zeroed, bytes_of};
use crate::distances::check_distances;
use crate::graph::Graph;
use crate::{Error, Result};

/// The shortest-path tree from `source` that the distances `dist` of a solve
/// give on the successor CSR `graph` ([`crate::parents`] describes it), computed
/// on `gpu`: one parent per vertex, [`crate::parents::NO_PARENT`] for the source and unreached
/// vertices. The same as [`crate::cpu::parents::shortest_path_tree`].
pub fn shortest_path_tree(
    gpu: &Gpu,
    graph: &Graph,
    source: usize,
    dist: &[u32],
) -> Result<Vec<u32>> {
    check_distances(graph, source, dist)?;
    let (n, m) = (graph.num_vertices(), graph.num_edges());
    gpu.check_fits(
        "the predecessor CSR and the shortest-path tree",
        DeviceGraph::bytes_needed(n, m) + bytes_of::<u32>(3 * n + 1),
    )?;
    let predecessors = DeviceGraph::upload(gpu.stream(), &graph.transpose())?;
    let stream = gpu.stream();
    let mut buffers = TreeBuffers {
        dist: stream
            .clone_htod(dist)
            .map_err(Error::cuda("copying the distances to the GPU"))?,
        parent: alloc_zeroed(gpu, n, "parents")?,
        level: alloc_zeroed(gpu, n, "tree levels")?,
        more: alloc_zeroed(gpu, 1, "the tree's round flag")?,
    };
    super::certificate::join_rounds(gpu, &predecessors, source as u32, &mut buffers)?;
    let mut flags = alloc_zeroed(gpu, 2, "the tree's certificate flags")?;
    super::certificate::check_tree(gpu, &predecessors, source as u32, &buffers, &mut flags)?;
    let mut parent = stream
        .clone_dtoh(&buffers.parent)
        .map_err(Error::cuda("copying the parents to the host"))?;
    parent.truncate(n);
    Ok(parent)
}
