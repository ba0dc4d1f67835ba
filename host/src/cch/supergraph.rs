//! The chordal supergraph of a CCH: the graph's edges (directions
//! forgotten) and the fill of eliminating its vertices in rank order with
//! no witness searches, each eliminated vertex's higher neighbours becoming
//! a clique.
//!
//! Its vertices are renumbered by *id*: by level (the bottom level first),
//! then by rank, where a vertex's level is one more than the highest level
//! of its lower neighbours. Every arc joins a vertex to a higher one of a
//! higher level and is stored once, with its lower endpoint (a CSR over ids,
//! heads sorted). The arcs whose lower endpoints are at one level are
//! therefore contiguous, and their lower triangles (see
//! [`gpu_kernels::cch_customize`]) use arcs of lower levels only.

use rayon::prelude::*;

use super::neighbours::Neighbours;
use crate::{Error, Result};

/// The chordal supergraph (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Supergraph {
    /// The id of each graph vertex.
    pub id: Vec<u32>,
    /// The graph vertex of each id.
    pub vertex: Vec<u32>,
    /// Level `l` (0 the bottom) holds ids `level_starts[l]..level_starts[l + 1]`.
    pub level_starts: Vec<u32>,
    /// Arcs grouped by their lower endpoint: row offsets, one per id and one more.
    pub offsets: Vec<u32>,
    /// The higher endpoint of each arc, each row sorted ascending.
    pub heads: Vec<u32>,
    /// The lower endpoint of each arc.
    pub tails: Vec<u32>,
}

/// An error unless `count` items fit 32-bit indices.
pub(crate) fn fits_u32(count: usize, what: &str) -> Result<u32> {
    u32::try_from(count)
        .ok()
        .filter(|&c| c < u32::MAX)
        .ok_or_else(|| Error::InvalidArgument(format!("{count} {what} do not fit 32-bit indices")))
}

impl Supergraph {
    /// The supergraph of `graph` eliminated in `order` (its vertices from the
    /// lowest rank to the highest, a permutation).
    pub fn new(graph: &Neighbours, order: &[u32]) -> Result<Supergraph> {
        let n = graph.num_vertices();
        let mut rank = vec![u32::MAX; n];
        for (r, &v) in order.iter().enumerate() {
            match rank.get_mut(v as usize) {
                Some(slot) if *slot == u32::MAX => *slot = r as u32,
                _ => {
                    return Err(Error::InvalidArgument(format!(
                        "the order is not a permutation of the {n} vertices (at rank {r})"
                    )));
                }
            }
        }
        if order.len() != n {
            return Err(Error::InvalidArgument(format!(
                "the order has {} vertices; the graph has {n}",
                order.len()
            )));
        }
        let mut up: Vec<Vec<u32>> = order
            .par_iter()
            .map(|&v| {
                let mut row: Vec<u32> = graph
                    .of(v as usize)
                    .iter()
                    .map(|&u| rank[u as usize])
                    .filter(|&r| r > rank[v as usize])
                    .collect();
                row.sort_unstable();
                row
            })
            .collect();
        eliminate(&mut up);
        let mut level = vec![0u32; n];
        for r in 0..n {
            for &h in &up[r] {
                level[h as usize] = level[h as usize].max(level[r] + 1);
            }
        }
        // Ids: by level, then rank.
        let mut by_id: Vec<u32> = (0..n as u32).collect();
        by_id.sort_unstable_by_key(|&r| (level[r as usize], r));
        let mut id_of_rank = vec![0u32; n];
        for (i, &r) in by_id.iter().enumerate() {
            id_of_rank[r as usize] = i as u32;
        }
        let rows: Vec<Vec<u32>> = by_id
            .par_iter()
            .map(|&r| {
                let mut row: Vec<u32> = up[r as usize]
                    .iter()
                    .map(|&h| id_of_rank[h as usize])
                    .collect();
                row.sort_unstable();
                row
            })
            .collect();
        drop(up);
        fits_u32(rows.iter().map(Vec::len).sum(), "supergraph arcs")?;
        let arcs = Neighbours::from_rows(&rows);
        let vertex: Vec<u32> = by_id.iter().map(|&r| order[r as usize]).collect();
        let levels: Vec<u32> = by_id.iter().map(|&r| level[r as usize]).collect();
        Ok(Supergraph::from_parts(
            vertex,
            &levels,
            arcs.offsets,
            arcs.adjacent,
        ))
    }

    /// The supergraph of arcs `(offsets, heads)` over ids, `vertex` the graph
    /// vertex of each id and `levels` the level of each id (non-decreasing).
    pub(crate) fn from_parts(
        vertex: Vec<u32>,
        levels: &[u32],
        offsets: Vec<u32>,
        heads: Vec<u32>,
    ) -> Supergraph {
        let n = vertex.len();
        let mut id = vec![0u32; n];
        for (i, &v) in vertex.iter().enumerate() {
            id[v as usize] = i as u32;
        }
        let mut level_starts = vec![0u32];
        for i in 1..n {
            if levels[i] != levels[i - 1] {
                level_starts.push(i as u32);
            }
        }
        if n > 0 {
            level_starts.push(n as u32);
        }
        let mut tails = vec![0u32; heads.len()];
        for t in 0..n {
            tails[offsets[t] as usize..offsets[t + 1] as usize].fill(t as u32);
        }
        Supergraph {
            id,
            vertex,
            level_starts,
            offsets,
            heads,
            tails,
        }
    }

    /// Vertices.
    pub fn num_vertices(&self) -> usize {
        self.vertex.len()
    }

    /// Arcs.
    pub fn num_arcs(&self) -> usize {
        self.heads.len()
    }

    /// Levels.
    pub fn num_levels(&self) -> usize {
        self.level_starts.len().saturating_sub(1)
    }

    /// The arcs of id `t` (its higher neighbours).
    pub fn range(&self, t: usize) -> std::ops::Range<usize> {
        self.offsets[t] as usize..self.offsets[t + 1] as usize
    }

    /// The arcs whose lower endpoint is at level `l`.
    pub fn level_arcs(&self, l: usize) -> std::ops::Range<usize> {
        self.offsets[self.level_starts[l] as usize] as usize
            ..self.offsets[self.level_starts[l + 1] as usize] as usize
    }

    /// The arc between ids `a` and `b` (either order), if any.
    pub fn find(&self, a: u32, b: u32) -> Option<usize> {
        let (low, high) = (a.min(b), a.max(b));
        let range = self.range(low as usize);
        self.heads[range.clone()]
            .binary_search(&high)
            .ok()
            .map(|i| range.start + i)
    }

    /// The level of each id.
    pub fn levels(&self) -> Vec<u32> {
        let mut level = vec![0u32; self.num_vertices()];
        for (l, w) in self.level_starts.windows(2).enumerate() {
            level[w[0] as usize..w[1] as usize].fill(l as u32);
        }
        level
    }
}

/// Eliminates the vertices of `up` (each vertex's higher neighbours by rank,
/// sorted) in rank order: the higher neighbours of each vertex but the lowest
/// join the lowest's, which makes them a clique once it is eliminated.
fn eliminate(up: &mut [Vec<u32>]) {
    for r in 0..up.len() {
        let Some((&parent, rest)) = up[r].split_first() else {
            continue;
        };
        if rest.is_empty() {
            continue;
        }
        let rest = rest.to_vec();
        let target = std::mem::take(&mut up[parent as usize]);
        up[parent as usize] = merge(&target, &rest);
    }
}

/// The sorted union of two sorted lists without repeats.
fn merge(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        out.push(x.min(y));
        i += (x <= y) as usize;
        j += (y <= x) as usize;
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}
