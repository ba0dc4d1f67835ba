//! Edges of either direction, as the partitioner walks them.

use crate::graph::Graph;

/// Edges of either direction.
pub struct Adjacency<'a> {
    /// The graph.
    pub successors: &'a Graph<'a>,
    /// Its transpose.
    pub predecessors: &'a Graph<'a>,
}

impl Adjacency<'_> {
    /// The heads of `v`'s out-edges, then the tails of its in-edges.
    pub fn neighbours(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        targets_of(self.successors, v)
            .iter()
            .chain(targets_of(self.predecessors, v))
            .map(|&u| u as usize)
    }
}

/// The targets of `v`'s edges in `graph`.
pub fn targets_of<'g>(graph: &'g Graph, v: usize) -> &'g [u32] {
    &graph.targets()[graph.offsets()[v] as usize..graph.offsets()[v + 1] as usize]
}
