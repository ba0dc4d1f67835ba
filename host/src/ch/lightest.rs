//! [`Lightest`]: the graph a hierarchy depends on. Contraction reads each
//! ordered pair of vertices `(u, v)`, `u ≠ v`, joined by one arc or more as
//! one arc of the lightest weight, and ignores self-loops; so two files that
//! differ only in parallel arcs heavier than the lightest, in self-loops or in
//! the order of a vertex's arcs have the same hierarchy, and the same
//! [`Lightest::checksum`].

use rayon::prelude::*;

use super::fnv::{FNV_OFFSET, fnv1a, fnv1a_words};
use crate::graph::Graph;

/// Vertices per piece of the checksum (hashed in parallel, then combined).
const CHUNK: usize = 4096;

/// For every vertex of a graph, its lightest arc to each other vertex, sorted
/// by the other vertex: `(other, weight word)` pairs.
pub struct Lightest {
    /// Where each vertex's pairs start in `pairs` (the graph's offsets).
    starts: Vec<u32>,
    /// How many pairs each vertex keeps from its start.
    kept: Vec<u32>,
    /// The pairs, each vertex's kept ones first in its range.
    pairs: Vec<(u32, u32)>,
}

impl Lightest {
    /// The lightest arcs of `graph` (in parallel over the vertices).
    pub fn new(graph: &Graph) -> Lightest {
        let offsets = graph.offsets();
        let mut pairs: Vec<(u32, u32)> = graph
            .targets()
            .par_iter()
            .zip(graph.weights().par_iter())
            .map(|(&v, &w)| (v, w))
            .collect();
        let mut rows: Vec<&mut [(u32, u32)]> = Vec::with_capacity(graph.num_vertices());
        let mut rest = &mut pairs[..];
        for row in offsets.windows(2) {
            let (this, tail) = std::mem::take(&mut rest).split_at_mut((row[1] - row[0]) as usize);
            rows.push(this);
            rest = tail;
        }
        // Weight words order as their weights (f32 weights are finite and
        // non-negative), so the first pair of each target is the lightest.
        let kept = rows
            .into_par_iter()
            .enumerate()
            .map(|(u, row)| {
                row.sort_unstable();
                let mut kept = 0;
                for i in 0..row.len() {
                    let pair = row[i];
                    let repeat = kept > 0 && row[kept - 1].0 == pair.0;
                    if pair.0 as usize != u && !repeat {
                        row[kept] = pair;
                        kept += 1;
                    }
                }
                kept as u32
            })
            .collect();
        Lightest {
            starts: offsets.to_vec(),
            kept,
            pairs,
        }
    }

    /// Vertices.
    pub fn num_vertices(&self) -> usize {
        self.kept.len()
    }

    /// The lightest arcs leaving `u`, sorted by their other vertex.
    pub fn row(&self, u: usize) -> &[(u32, u32)] {
        let start = self.starts[u] as usize;
        &self.pairs[start..start + self.kept[u] as usize]
    }

    /// The weight word of the lightest arc `u → v`, if there is one.
    pub fn weight(&self, u: usize, v: u32) -> Option<u32> {
        let row = self.row(u);
        row.binary_search_by_key(&v, |pair| pair.0)
            .ok()
            .map(|i| row[i].1)
    }

    /// FNV-1a over `kind` (the weight kind's code), the vertex count, and
    /// for each vertex in order the number of its lightest arcs and their
    /// `(other, weight)` words; the vertices hashed in parallel in pieces of
    /// [`CHUNK`], whose hashes are then hashed in order.
    pub fn checksum(&self, kind: u32) -> u64 {
        let pieces: Vec<u64> = (0..self.num_vertices().div_ceil(CHUNK))
            .into_par_iter()
            .map(|piece| {
                let end = ((piece + 1) * CHUNK).min(self.num_vertices());
                (piece * CHUNK..end).fold(FNV_OFFSET, |hash, u| {
                    let row = self.row(u);
                    row.iter()
                        .fold(fnv1a_words(hash, &[row.len() as u32]), |hash, &(v, w)| {
                            fnv1a_words(hash, &[v, w])
                        })
                })
            })
            .collect();
        let head = fnv1a_words(FNV_OFFSET, &[kind]);
        let head = fnv1a(head, &(self.num_vertices() as u64).to_le_bytes());
        pieces
            .iter()
            .fold(head, |hash, piece| fnv1a(hash, &piece.to_le_bytes()))
    }
}
