//! The lower triangles of every supergraph arc, precomputed once per
//! supergraph (metric independent): for arc `(u, v)`, `u` lower, each
//! vertex `x` below `u` adjacent to both, as the arcs `(x, u)` and `(x, v)`.
//!
//! They come from the arcs of each `x`: the supergraph is chordal, so the
//! higher neighbours of `x` form a clique, and every pair `u < v` of them is
//! a triangle of the arc `(u, v)`. Per `u` (in parallel), the triangles of
//! its arcs are gathered from the `x` below it and sorted by arc, then by
//! `x`, so the order (and the customization's ties) is deterministic.

use gpu_kernels::cch_customize;
use rayon::prelude::*;

use super::supergraph::{Supergraph, fits_u32};
use crate::{Error, Result};

/// The lower triangles of every arc (a CSR over arcs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Triangles {
    /// Row offsets, one per arc and one more.
    pub offsets: Vec<u32>,
    /// The arc `(x, u)` of each triangle.
    pub lower: Vec<u32>,
    /// The arc `(x, v)` of each triangle.
    pub upper: Vec<u32>,
}

/// The triangles of one vertex's arcs: how many each arc has, and the arc
/// pairs in order.
type Rows = (Vec<u32>, Vec<u32>, Vec<u32>);

impl Triangles {
    /// The lower triangles of `graph`'s arcs; an error if it is not chordal
    /// (a higher neighbour of some vertex misses the arc to another).
    pub fn new(graph: &Supergraph) -> Result<Triangles> {
        let n = graph.num_vertices();
        // The arcs into each vertex from below, sorted by their tail.
        let mut down_offsets = vec![0u32; n + 1];
        for &h in &graph.heads {
            down_offsets[h as usize + 1] += 1;
        }
        for v in 0..n {
            down_offsets[v + 1] += down_offsets[v];
        }
        let mut next = down_offsets.clone();
        let mut down = vec![0u32; graph.num_arcs()];
        for (a, &h) in graph.heads.iter().enumerate() {
            down[next[h as usize] as usize] = a as u32;
            next[h as usize] += 1;
        }
        let rows: Vec<Rows> = (0..n)
            .into_par_iter()
            .map(|u| {
                let into = &down[down_offsets[u] as usize..down_offsets[u + 1] as usize];
                vertex_triangles(graph, u, into)
            })
            .collect::<Option<_>>()
            .ok_or_else(|| {
                Error::Internal("the supergraph is not chordal: a triangle is missing".into())
            })?;
        let total: usize = rows.iter().map(|r| r.1.len()).sum();
        fits_u32(total, "supergraph triangles")?;
        let mut triangles = Triangles {
            offsets: Vec::with_capacity(graph.num_arcs() + 1),
            lower: Vec::with_capacity(total),
            upper: Vec::with_capacity(total),
        };
        triangles.offsets.push(0);
        let mut at = 0u32;
        for (counts, lower, upper) in rows {
            for c in counts {
                at += c;
                triangles.offsets.push(at);
            }
            triangles.lower.extend(lower);
            triangles.upper.extend(upper);
        }
        Ok(triangles)
    }

    /// Triangles in all.
    pub fn len(&self) -> usize {
        self.lower.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.lower.is_empty()
    }

    /// The kernels' view of the triangles of `graph`.
    pub fn view<'a>(&'a self, graph: &'a Supergraph) -> cch_customize::Triangles<'a> {
        cch_customize::Triangles {
            offsets: &self.offsets,
            lower: &self.lower,
            upper: &self.upper,
            tails: &graph.tails,
        }
    }
}

/// The triangles of the arcs of `u`, from the arcs `into` it from below;
/// `None` if one of its arcs is missing.
fn vertex_triangles(graph: &Supergraph, u: usize, into: &[u32]) -> Option<Rows> {
    let row = graph.range(u);
    let heads = &graph.heads[row.clone()];
    let mut found: Vec<(u32, u32, u32)> = Vec::new();
    for &xu in into {
        let x = graph.tails[xu as usize] as usize;
        let mut j = 0;
        for xv in xu + 1..graph.offsets[x + 1] {
            let v = graph.heads[xv as usize];
            while j < heads.len() && heads[j] < v {
                j += 1;
            }
            if heads.get(j) != Some(&v) {
                return None;
            }
            found.push((j as u32, xu, xv));
        }
    }
    found.sort_unstable();
    let mut counts = vec![0u32; heads.len()];
    for &(j, ..) in &found {
        counts[j as usize] += 1;
    }
    Some((
        counts,
        found.iter().map(|t| t.1).collect(),
        found.iter().map(|t| t.2).collect(),
    ))
}
