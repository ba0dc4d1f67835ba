//! Per-thread logic of the shortest-path tree (`--parents`), built after a
//! solve from its distances: each vertex picks its parent among its in-edges
//! (pull over the predecessor CSR, one thread per vertex, no atomic
//! read-modify-write, the same result on any schedule).
//!
//! An in-edge `(u, v)` of weight `w` is *tight* when `dist[u] + w = dist[v]`
//! with the weight type's saturating sum ([`Weight::extend`]), and `dist[v]` is
//! exact (below [`SATURATED`]): an unreached `u` ([`crate::distance::INFINITY`]) never
//! matches, nor does a sum that saturates, so saturation can never fake
//! equality. A vertex's parent is, among the candidates of its round, the
//! tight `u` with the smallest distance (the one that Dijkstra's algorithm
//! settles first, scipy's predecessor), then the smallest id. The tree is built
//! in rounds ([`join_round`]):
//!
//! - round 0: every vertex leaves the tree, then the source joins it at level 0
//!   (without a parent), and each reached vertex with a tight in-edge from a
//!   strictly closer `u` (`dist[u] < dist[v]`: for integers, an edge of
//!   positive weight) joins at level 0, its parent the smallest such `u` by
//!   `(dist[u], u)`. With positive integer weights every reached vertex joins
//!   here, and one round is all.
//! - round `r ≥ 1`: each reached vertex not yet in the tree joins at level `r`
//!   with the smallest `u` on a tight in-edge that joined at a level below `r`
//!   (all at `v`'s own distance, so the smallest id), as long as some vertex
//!   joined in the round before (a breadth-first search over the tight edges
//!   between vertices at the same distance: zero weights, or for floats a
//!   weight too small to change the rounded sum).
//!
//! Why the rounds: with such edges "the closest tight `u`" alone is not a
//! tree. Two vertices reached only through zero-weight edges, joined both ways
//! by such edges and each also reached from a larger vertex at their distance,
//! would pick each other. Here
//! every parent is smaller than its child in `(dist, level)`, so the parents form
//! a tree rooted at the source. Unreached vertices, vertices whose distance is
//! not exact and the source have no parent: [`NO_PARENT`].
//!
//! With positive integer weights (every vertex joins in round 0) this is
//! exactly the first settler of a Dijkstra that settles ties by id. Where
//! vertices are reached through zero-weight edges, Dijkstra's settling order
//! within a distance depends on its queue, and the rounds' order stands in.

use core::sync::atomic::{AtomicU32, Ordering};

use crate::csr::Csr;
use crate::distance::{SATURATED, Weight};

/// The parent of the source, of unreached vertices and of vertices whose
/// distance is not exact: `u32::MAX`, never a vertex id.
pub const NO_PARENT: u32 = u32::MAX;

/// The level of a vertex that is not (yet) in the tree.
pub const NOT_IN_TREE: u32 = u32::MAX;

/// Round `round` of the tree for vertex `v` of the predecessor CSR
/// `predecessors` (see the module documentation): writes `parent` (vertex `v`'s
/// entry) and `level[v]`, reads `dist` and the levels of `v`'s predecessors.
///
/// Returns whether another round is needed on `v`'s account: in round 0, `v`
/// is reached but has no tight in-edge of positive weight; in a later round,
/// `v` joined the tree (its zero-weight successors may join in the next).
///
/// In round `r ≥ 1`, a vertex joining writes `r` to its level while other
/// threads may read it; they look for levels below `r`, so whether they see the
/// old or the new value does not change what they pick.
#[inline(always)]
pub fn join_round<W: Weight>(
    v: usize,
    source: usize,
    round: u32,
    predecessors: Csr<'_>,
    dist: &[u32],
    parent: &mut u32,
    level: &[AtomicU32],
) -> bool {
    if round == 0 {
        *parent = NO_PARENT;
        let start = if v == source { 0 } else { NOT_IN_TREE };
        level[v].store(start, Ordering::Relaxed);
    }
    let target = dist[v];
    if v == source || target >= SATURATED || level[v].load(Ordering::Relaxed) != NOT_IN_TREE {
        return false;
    }
    // The candidate with the smallest `(dist[u], u)`, packed into one word.
    let mut best = u64::MAX;
    for (u, w) in predecessors.edges(v) {
        let dist_u = dist[u];
        let key = ((dist_u as u64) << 32) | u as u64;
        if key >= best {
            continue;
        }
        let earlier = dist_u < target || (round > 0 && level[u].load(Ordering::Relaxed) < round);
        if earlier && W::extend(dist_u, w) == target {
            best = key;
        }
    }
    if best == u64::MAX {
        return round == 0;
    }
    *parent = best as u32;
    level[v].store(round, Ordering::Relaxed);
    round > 0
}
