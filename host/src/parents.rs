//! Shortest-path trees (`--parents`, `--path-to`): the parent array that
//! [`crate::cpu::parents`] and [`crate::gpu::parents`] compute from a solve's
//! distances, an independent check of it, and paths read from it.
//!
//! `parent[v]` is a vertex id (0-based, as in the [`Graph`]), or [`NO_PARENT`]
//! (`u32::MAX`) for the source, unreached vertices and vertices whose distance
//! is not exact. The rule ([`gpu_kernels::parents`]): a reached `v` takes,
//! among the strictly closer `u` (`dist[u] < dist[v]`) with a *tight* edge
//! `u → v` (`dist[u] + w = dist[v]` in the weights' arithmetic), the one with
//! the smallest distance, then the smallest id: the first that Dijkstra's
//! algorithm settles, as scipy's predecessors. A vertex reached only through
//! tight edges from vertices at its own distance (zero weights, or `f32`
//! weights too small to change the sum) takes the smallest such `u` among
//! those first reached by a breadth-first search over them. With positive
//! integer weights this is simply the tight `u` of smallest `(dist[u], u)`;
//! otherwise it still gives a tree, where "the closest tight `u`" alone can
//! give a cycle.

use gpu_kernels::distance::{SATURATED, Weight};
pub use gpu_kernels::parents::NO_PARENT;

use crate::distances::check_distances;
use crate::graph::{Graph, with_weight_type};
use crate::{Error, Result};

/// The tree that the distances `dist` from `source` give on `graph`, computed
/// independently of the kernels' logic: tight edges from strictly closer
/// vertices first (the first in `(dist, id)` order), then a breadth-first
/// search over the tight edges between vertices at the same distance, level by
/// level (the smallest id of the level before). A
/// reached vertex that no tight edge reaches is an [`Error::InvalidArgument`]:
/// `dist` are not this graph's shortest distances.
fn expected_tree(graph: &Graph, source: usize, dist: &[u32]) -> Result<Vec<u32>> {
    let n = graph.num_vertices();
    // The vertices that have a parent: reached at an exact distance, not the source.
    let has_parent = |v: usize| v != source && dist[v] < SATURATED;
    let extend: fn(u32, u32) -> u32 = with_weight_type!(graph.weight_kind(), W => W::extend);
    let tight = |u: usize, w: u32, v: usize| extend(dist[u], w) == dist[v];
    let successors = graph.csr();
    let mut expected = vec![NO_PARENT; n];
    // The reached vertices by `(dist, id)` (Dijkstra's settling order, ties by
    // id): the first to offer a strictly closer tight edge is the parent.
    let mut settled: Vec<usize> = (0..n).filter(|&u| dist[u] < SATURATED).collect();
    settled.sort_by_key(|&u| (dist[u], u));
    for u in settled {
        for (v, w) in successors.edges(u) {
            if dist[u] < dist[v] && has_parent(v) && tight(u, w, v) && expected[v] == NO_PARENT {
                expected[v] = u as u32;
            }
        }
    }
    // Level of each vertex in the tree (`usize::MAX`: not in it yet).
    let mut level_of: Vec<usize> = (0..n)
        .map(|v| {
            if v == source || expected[v] != NO_PARENT {
                0
            } else {
                usize::MAX
            }
        })
        .collect();
    let mut level: Vec<usize> = (0..n).filter(|&v| level_of[v] == 0).collect();
    let mut depth = 0;
    while !level.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for &u in &level {
            for (v, w) in successors.edges(u) {
                if dist[u] != dist[v] || !has_parent(v) || !tight(u, w, v) {
                    continue;
                }
                if level_of[v] == usize::MAX {
                    level_of[v] = depth;
                    next.push(v);
                }
                // A vertex found at this depth takes the smallest parent of the level before.
                if level_of[v] == depth {
                    expected[v] = expected[v].min(u as u32);
                }
            }
        }
        level = next;
    }
    if let Some(v) = (0..n).find(|&v| has_parent(v) && level_of[v] == usize::MAX) {
        return Err(Error::InvalidArgument(format!(
            "vertex {v} has distance {} but no shortest path reaches it: the distances are \
             not this graph's shortest distances from vertex {source}",
            crate::distances::display(graph.weight_kind(), dist[v])
        )));
    }
    Ok(expected)
}

/// Checks `parent` against the tree that the distances `dist` (the oracle's,
/// say) from `source` give on `graph` (see the module documentation): every
/// reached vertex but the source has the expected parent, on a tight edge; the
/// source, unreached vertices and vertices without an exact distance have
/// [`NO_PARENT`]. Every vertex is compared; an [`Error::TreeMismatch`] names the
/// first difference and counts them.
pub fn check(graph: &Graph, source: usize, dist: &[u32], parent: &[u32]) -> Result<()> {
    check_distances(graph, source, dist)?;
    let n = graph.num_vertices();
    if parent.len() != n {
        return Err(Error::TreeMismatch {
            vertex: n.min(parent.len()),
            expected: format!("{n} parents"),
            found: format!("{} parents", parent.len()),
            count: n.abs_diff(parent.len()),
            num_vertices: n,
        });
    }
    let expected = expected_tree(graph, source, dist)?;
    let mut differing = (0..n).filter(|&v| expected[v] != parent[v]);
    if let Some(v) = differing.next() {
        return Err(Error::TreeMismatch {
            vertex: v,
            expected: show(expected[v]),
            found: show(parent[v]),
            count: 1 + differing.count(),
            num_vertices: n,
        });
    }
    Ok(())
}

/// The path from `source` to `target` in the tree `parent`: its vertices from
/// `source` to `target`, or `None` when `target` is unreached (it has no parent
/// and is not the source). A parent array that is not a tree rooted at
/// `source` (an id out of range, a cycle, a chain ending elsewhere) is an
/// [`Error::InvalidArgument`].
pub fn path(parent: &[u32], source: usize, target: usize) -> Result<Option<Vec<usize>>> {
    let n = parent.len();
    if target >= n || source >= n {
        return Err(Error::InvalidArgument(format!(
            "a path from vertex {source} to vertex {target} in a tree of {n} vertices"
        )));
    }
    let mut path = vec![target];
    let mut v = target;
    while v != source {
        let p = parent[v];
        if p == NO_PARENT && v == target {
            return Ok(None);
        }
        if p == NO_PARENT || p as usize >= n || path.len() == n {
            return Err(Error::InvalidArgument(format!(
                "the parents do not form a tree rooted at vertex {source}: following them from \
                 vertex {target} reaches vertex {v}, whose parent is {}",
                show(p)
            )));
        }
        v = p as usize;
        path.push(v);
    }
    path.reverse();
    Ok(Some(path))
}

/// A parent for people: the vertex id, or `none`.
fn show(p: u32) -> String {
    match p {
        NO_PARENT => "none".to_string(),
        p => p.to_string(),
    }
}
