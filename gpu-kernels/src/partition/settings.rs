//! How a partition solve runs its rounds: the window, the edge lanes, the
//! chains and *entries first*, and the window's width chosen from the graph.

use crate::csr::Csr;
use crate::distance::{Weight, scaled_mean_weight};

/// Hops a warp chains in one round at most unless the caller says
/// ([`RoundSettings::chain_hops`]): a chain runs while the other warps wait
/// at the round's barrier. 3 was the best of 1–32 with four edge lanes
/// (docs/PERFORMANCE.md, 2026-11-27); with queues of 8, 2 was 3–4% faster on
/// New York and the Delaunay 1 M mesh and 5% slower on the 1000² grid, so
/// the host's trial chooses.
pub const DEFAULT_CHAIN_HOPS: u32 = 3;

/// How the compute threads run their rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundSettings {
    /// The window's width Δ, a weight word (0 counts as 1).
    pub delta: u32,
    /// Compute threads that share a frontier vertex's edges in the relax
    /// phase and the chains ([`relax_frontier`]; 0 counts as 1, more than a
    /// warp as a warp): about a vertex's out-degree, so that each walks one
    /// edge. The divisions it costs are made once per piece.
    pub edge_lanes: u32,
    /// Hops a warp chains after the round's frontier at most
    /// ([`chain_hops`]; 0: none, every improvement waits for the next
    /// round); [`DEFAULT_CHAIN_HOPS`] unless a trial chose.
    pub chain_hops: u32,
    /// *Entries first*: a round takes (and chains) a vertex that is
    /// not an entry of the piece (the piece's first vertices, which edges
    /// from other pieces enter) only below every dirty entry's distance;
    /// the others stay dirty. Where the pieces have shortcuts, the entries
    /// reach every boundary vertex of the piece without the interior, so
    /// the interior is relaxed once the entries have settled instead of
    /// after each of the many notifications that lower them, and the
    /// rounds that carry the final distances across a piece are shorter:
    /// New York and the Delaunay meshes 22–27% faster, the 2-D and 3-D
    /// grids without shortcuts 10–26% slower (docs/PERFORMANCE.md), so the
    /// host's trial chooses. Where every vertex
    /// is its piece's entry or none is, it changes nothing; the minimum it
    /// needs (`ENTRY_MINIMUM`) is kept either way.
    pub entries_first: bool,
}

/// The window width Δ (a weight word of `W`) chosen from the weights: eight
/// times the mean weight (at least the smallest positive word). A window
/// that wide holds a few hops of a shortest path, so a round has several
/// vertices to relax, while most vertices are still relaxed once or twice.
pub fn auto_delta<W: Weight>(successors: Csr<'_>) -> u32 {
    scaled_mean_weight::<W>(successors.weights, 8.0, 1.0)
}
