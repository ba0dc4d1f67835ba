//! The undirected simple graph under a directed one: each pair of vertices
//! joined by an arc in either direction once, self-loops left out.

use rayon::prelude::*;

use crate::graph::Graph;

/// Neighbours of every vertex, sorted, each once (a CSR).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Neighbours {
    /// Row offsets, one per vertex and one more.
    pub offsets: Vec<u32>,
    /// The neighbours of each vertex, sorted ascending.
    pub adjacent: Vec<u32>,
}

impl Neighbours {
    /// The undirected simple graph of `graph`'s arcs.
    pub fn of_graph(graph: &Graph) -> Neighbours {
        let n = graph.num_vertices();
        let (offsets, targets) = (graph.offsets(), graph.targets());
        let mut degree = vec![0u32; n + 1];
        for u in 0..n {
            degree[u + 1] += offsets[u + 1] - offsets[u];
        }
        for &v in targets {
            degree[v as usize + 1] += 1;
        }
        let mut starts: Vec<usize> = Vec::with_capacity(n + 1);
        let mut sum = 0usize;
        for d in &degree {
            sum += *d as usize;
            starts.push(sum);
        }
        let mut next = starts.clone();
        let mut both = vec![0u32; starts[n]];
        for u in 0..n {
            for &v in &targets[offsets[u] as usize..offsets[u + 1] as usize] {
                both[next[u]] = v;
                next[u] += 1;
                both[next[v as usize]] = u as u32;
                next[v as usize] += 1;
            }
        }
        let rows: Vec<Vec<u32>> = (0..n)
            .into_par_iter()
            .map(|u| {
                let mut row: Vec<u32> = both[starts[u]..starts[u + 1]]
                    .iter()
                    .copied()
                    .filter(|&v| v as usize != u)
                    .collect();
                row.sort_unstable();
                row.dedup();
                row
            })
            .collect();
        Neighbours::from_rows(&rows)
    }

    /// The CSR of `rows`.
    pub fn from_rows(rows: &[Vec<u32>]) -> Neighbours {
        let mut offsets = Vec::with_capacity(rows.len() + 1);
        offsets.push(0u32);
        let mut adjacent = Vec::with_capacity(rows.iter().map(Vec::len).sum());
        for row in rows {
            adjacent.extend_from_slice(row);
            offsets.push(adjacent.len() as u32);
        }
        Neighbours { offsets, adjacent }
    }

    /// Vertices.
    pub fn num_vertices(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// The neighbours of `v`.
    pub fn of(&self, v: usize) -> &[u32] {
        &self.adjacent[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }
}
