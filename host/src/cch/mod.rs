//! Customizable contraction hierarchies (CCH; Dibbelt, Strasser, Wagner,
//! "Customizable Contraction Hierarchies", 2014): a hierarchy whose shape
//! depends only on the graph's arcs, not on their weights, so that new
//! weights (live traffic, another vehicle) take a *customization* of a
//! fraction of a second instead of a new contraction.
//!
//! - [`order`]: the metric-independent order, by nested dissection;
//! - [`Supergraph`] ([`supergraph`]): the chordal supergraph of eliminating
//!   the vertices in that order, renumbered by level;
//! - [`Triangles`] ([`triangles`]): every arc's lower triangles;
//! - [`customize`]: the graph's weights on the supergraph, then the basic
//!   customization on the CPU ([`crate::gpu::cch`] on the GPU);
//! - [`recustomize`]: new weights on a customized CCH, recomputing only the
//!   arcs whose weight can change;
//! - [`hierarchy`]: the customized CCH as a [`crate::ch::Hierarchy`], which
//!   every tree, table, query and pairs function takes unchanged;
//! - [`file`]: the `.cch` file of the metric-independent part.
//!
//! Weights are `u32`; a graph of `f32` weights is refused (its contraction
//! hierarchy is [`crate::ch::build`]'s). A customization takes any graph of
//! the same vertices whose arcs are arcs of the supergraph (the graph the
//! CCH was built from, or a subset of its arcs, with any weights).

pub mod customize;
pub mod file;
pub mod flow_cut;
pub mod hierarchy;
pub mod inertial;
pub mod neighbours;
pub mod order;
pub mod recustomize;
pub mod supergraph;
pub mod triangles;

pub use supergraph::Supergraph;
pub use triangles::Triangles;

use neighbours::Neighbours;

use crate::Result;
use crate::ch::Hierarchy;
use crate::graph::Graph;

/// The metric-independent part of a CCH: its supergraph and the lower
/// triangles of its arcs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cch {
    graph: Supergraph,
    triangles: Triangles,
}

impl Cch {
    /// The CCH of `graph`'s arcs, ordered by nested dissection.
    pub fn build(graph: &Graph) -> Result<Cch> {
        let neighbours = Neighbours::of_graph(graph);
        let order = order::nested_dissection(&neighbours);
        Cch::from_neighbours(&neighbours, &order)
    }

    /// The CCH of `graph`'s arcs eliminated in `order` (its vertices from
    /// the lowest rank to the highest, a permutation).
    pub fn with_order(graph: &Graph, order: &[u32]) -> Result<Cch> {
        Cch::from_neighbours(&Neighbours::of_graph(graph), order)
    }

    fn from_neighbours(neighbours: &Neighbours, order: &[u32]) -> Result<Cch> {
        let graph = Supergraph::new(neighbours, order)?;
        Cch::from_supergraph(graph)
    }

    /// The CCH of a chordal supergraph.
    pub(crate) fn from_supergraph(graph: Supergraph) -> Result<Cch> {
        let triangles = Triangles::new(&graph)?;
        Ok(Cch { graph, triangles })
    }

    /// The supergraph.
    pub fn supergraph(&self) -> &Supergraph {
        &self.graph
    }

    /// The lower triangles of its arcs.
    pub fn triangles(&self) -> &Triangles {
        &self.triangles
    }

    /// Vertices.
    pub fn num_vertices(&self) -> usize {
        self.graph.num_vertices()
    }

    /// The contraction hierarchy of `graph`'s weights, customized on the CPU
    /// (see the module documentation for the graphs it takes).
    pub fn customize(&self, graph: &Graph) -> Result<Hierarchy> {
        let mut weights = self.initial_weights(graph)?;
        self.customize_weights(&mut weights);
        self.hierarchy(&weights)
    }
}
