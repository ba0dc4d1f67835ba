//! Cutting a graph into pieces for the partition-local solver
//! ([`gpu_kernels::partition`]): BFS-grown pieces of at most `capacity`
//! vertices, renumbered so that each piece is a contiguous range of ids with
//! its boundary vertices (those entered by an edge from another piece) first.
//!
//! Growth: a piece starts at a seed and takes vertices breadth-first over
//! edges of either direction until it holds `capacity` vertices. When its
//! search runs dry before that (a small component, or every neighbour taken),
//! it goes on from another seed, so every piece but the last is full and
//! there are exactly `ceil(n / capacity)` pieces. Seeds are taken first from
//! the unassigned neighbours of the previous piece's last search frontier (so
//! that pieces tile the graph from where the last one stopped), then in id
//! order. One pass, O(n + m); it does not depend on the source.

use std::collections::VecDeque;

use rayon::prelude::*;

use crate::graph::Graph;
use crate::reorder::Permutation;
use crate::{Error, Result};

/// A graph cut into pieces and renumbered.
#[derive(Clone, Debug)]
pub struct Partitioning {
    /// Original ids to renumbered ones and back.
    pub permutation: Permutation,
    /// The renumbered graph (successor CSR).
    pub graph: Graph<'static>,
    /// Piece `p` holds the renumbered vertices `starts[p]..starts[p + 1]`
    /// (`pieces + 1` entries, from 0 to `n`).
    pub starts: Vec<u32>,
    /// Piece `p`'s boundary vertices are `starts[p]..boundary_ends[p]`: every
    /// edge from another piece enters one of them.
    pub boundary_ends: Vec<u32>,
    /// The piece of each renumbered vertex.
    pub piece_of: Vec<u32>,
}

impl Partitioning {
    /// Number of pieces.
    pub fn pieces(&self) -> usize {
        self.boundary_ends.len()
    }

    /// The most out-edges any piece's vertices have.
    pub fn most_edges(&self) -> u32 {
        let offsets = self.graph.offsets();
        self.starts
            .windows(2)
            .map(|r| offsets[r[1] as usize] - offsets[r[0] as usize])
            .max()
            .unwrap_or(0)
    }
}

/// Cuts `graph` into pieces of at most `capacity` vertices (see the module
/// docs). An error for `capacity` 0 or a graph too large for `u32` ids.
pub fn partition(graph: &Graph, capacity: usize) -> Result<Partitioning> {
    if capacity == 0 {
        return Err(Error::InvalidArgument(
            "pieces of a partition need a capacity of at least one vertex".into(),
        ));
    }
    let n = graph.num_vertices();
    if n > u32::MAX as usize {
        return Err(Error::InvalidArgument(format!(
            "{n} vertices do not fit 32-bit vertex ids"
        )));
    }
    let predecessors = graph.transpose();
    let neighbours = |v: usize| {
        let out = &graph.targets()[graph.offsets()[v] as usize..graph.offsets()[v + 1] as usize];
        let inn = &predecessors.targets()
            [predecessors.offsets()[v] as usize..predecessors.offsets()[v + 1] as usize];
        out.iter().chain(inn).map(|&u| u as usize)
    };

    const UNASSIGNED: u32 = u32::MAX;
    let mut piece_of_old = vec![UNASSIGNED; n];
    // Original ids, piece after piece, each piece in the order it grew.
    let mut grown: Vec<u32> = Vec::with_capacity(n);
    let mut starts = vec![0u32];
    let mut queue = VecDeque::new();
    let mut seeds = VecDeque::new();
    let mut next_in_order = 0usize;
    while grown.len() < n {
        let piece = starts.len() as u32 - 1;
        let piece_start = grown.len();
        queue.clear();
        while grown.len() - piece_start < capacity && grown.len() < n {
            let Some(u) = queue.pop_front() else {
                let seed = loop {
                    match seeds.pop_front() {
                        Some(s) if piece_of_old[s] == UNASSIGNED => break s,
                        Some(_) => continue,
                        None => {
                            while piece_of_old[next_in_order] != UNASSIGNED {
                                next_in_order += 1;
                            }
                            break next_in_order;
                        }
                    }
                };
                piece_of_old[seed] = piece;
                grown.push(seed as u32);
                queue.push_back(seed);
                continue;
            };
            for v in neighbours(u) {
                if piece_of_old[v] == UNASSIGNED && grown.len() - piece_start < capacity {
                    piece_of_old[v] = piece;
                    grown.push(v as u32);
                    queue.push_back(v);
                }
            }
        }
        seeds.clear();
        for &u in &queue {
            seeds.extend(neighbours(u).filter(|&v| piece_of_old[v] == UNASSIGNED));
        }
        starts.push(grown.len() as u32);
    }

    // Boundary vertices first in each piece, each group in growth order.
    let entered_from_outside = |v: usize| {
        let range = predecessors.offsets()[v] as usize..predecessors.offsets()[v + 1] as usize;
        predecessors.targets()[range]
            .iter()
            .any(|&u| piece_of_old[u as usize] != piece_of_old[v])
    };
    // Pieces in parallel (each scans its vertices' in-edges), then in order.
    let split: Vec<(Vec<u32>, Vec<u32>)> = starts
        .par_windows(2)
        .map(|range| {
            grown[range[0] as usize..range[1] as usize]
                .iter()
                .partition(|&&v| entered_from_outside(v as usize))
        })
        .collect();
    let mut old_of_new = Vec::with_capacity(n);
    let mut boundary_ends = Vec::with_capacity(starts.len() - 1);
    for (boundary, inner) in split {
        old_of_new.extend_from_slice(&boundary);
        boundary_ends.push(old_of_new.len() as u32);
        old_of_new.extend_from_slice(&inner);
    }
    let piece_of: Vec<u32> = old_of_new
        .iter()
        .map(|&old| piece_of_old[old as usize])
        .collect();
    let permutation = Permutation::from_old_of_new(old_of_new)?;
    let graph = permutation.apply(graph);
    Ok(Partitioning {
        permutation,
        graph,
        starts,
        boundary_ends,
        piece_of,
    })
}
