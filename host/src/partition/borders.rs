//! Pieces' borders after the growth ([`crate::partition::pieces`]): each
//! piece's fragments joined to the pieces around them, then border vertices
//! moved to the piece that holds more of their edges.

use std::collections::VecDeque;

use super::adjacency::Adjacency;

/// A partition whose borders are being adjusted: the graph's adjacency, each
/// vertex's piece, each piece's size, and the size no piece may grow past.
pub(super) struct Borders<'a> {
    adjacency: &'a Adjacency<'a>,
    piece_of: &'a mut [u32],
    size: Vec<usize>,
    limit: usize,
}

impl<'a> Borders<'a> {
    /// The borders of the `pieces` pieces that `piece_of` gives, none to grow
    /// past `limit` (at least every piece's size).
    pub(super) fn new(
        adjacency: &'a Adjacency<'a>,
        piece_of: &'a mut [u32],
        pieces: usize,
        limit: usize,
    ) -> Self {
        let size = piece_sizes(piece_of, pieces);
        Borders {
            adjacency,
            piece_of,
            size,
            limit,
        }
    }

    /// Gives each piece's fragments (its connected parts, over edges of either
    /// direction, but its largest) to the pieces around them, breadth-first from
    /// those pieces, as long as a piece stays at most `limit` (at least every
    /// piece's size); what no piece can take stays where it was. So no vertex
    /// joins a piece it is not connected to inside that piece, and no piece
    /// grows past `limit`.
    pub(super) fn join_fragments(&mut self) {
        let (adjacency, limit, n) = (self.adjacency, self.limit, self.piece_of.len());
        let (piece_of, size) = (&mut *self.piece_of, &mut self.size);
        // Components inside each piece.
        let mut component = vec![u32::MAX; n];
        let mut component_size: Vec<usize> = Vec::new();
        let mut stack = Vec::new();
        for v in 0..n {
            if component[v] != u32::MAX {
                continue;
            }
            let c = component_size.len() as u32;
            component[v] = c;
            stack.push(v);
            let mut count = 0;
            while let Some(x) = stack.pop() {
                count += 1;
                for u in adjacency.neighbours(x) {
                    if component[u] == u32::MAX && piece_of[u] == piece_of[v] {
                        component[u] = c;
                        stack.push(u);
                    }
                }
            }
            component_size.push(count);
        }
        let mut largest = vec![u32::MAX; size.len()];
        for v in 0..n {
            let (p, c) = (piece_of[v] as usize, component[v]);
            if largest[p] == u32::MAX
                || component_size[c as usize] > component_size[largest[p] as usize]
            {
                largest[p] = c;
            }
        }
        // Fragment vertices not yet given to a piece.
        let mut free: Vec<bool> = (0..n)
            .map(|v| component[v] != largest[piece_of[v] as usize])
            .collect();
        let mut queue: VecDeque<usize> = (0..n)
            .filter(|&v| !free[v] && adjacency.neighbours(v).any(|u| free[u]))
            .collect();
        while let Some(x) = queue.pop_front() {
            let p = piece_of[x] as usize;
            for u in adjacency.neighbours(x) {
                if free[u] && size[p] < limit {
                    free[u] = false;
                    size[piece_of[u] as usize] -= 1;
                    size[p] += 1;
                    piece_of[u] = p as u32;
                    queue.push_back(u);
                }
            }
        }
    }

    /// Moves border vertices to the neighbouring piece that holds more of their
    /// edges than their own piece does, while that piece stays at most `limit`,
    /// in passes over the vertices until one moves none (at most
    /// [`REFINE_PASSES`]): each move cuts fewer edges, so the pieces' borders
    /// (their entries, each a round's work whenever a neighbour lowers it) shrink:
    /// 8% fewer entries on a Delaunay mesh and New York, its `auto` solve 10–11%
    /// faster, BAY 6% (docs/PERFORMANCE.md, 2026-11-27). A
    /// vertex moves only where its neighbours in its own piece are connected
    /// among themselves, so that no piece falls apart, and only to a piece it
    /// has an edge to, so that no piece gains a part.
    pub(super) fn refine_borders(&mut self) {
        let (adjacency, limit, n) = (self.adjacency, self.limit, self.piece_of.len());
        let (piece_of, size) = (&mut *self.piece_of, &mut self.size);
        // Per vertex: its neighbours' pieces and how many edges go to each.
        let mut counts: Vec<(u32, u32)> = Vec::new();
        let mut own_neighbours: Vec<usize> = Vec::new();
        for _ in 0..REFINE_PASSES {
            let mut moved = 0usize;
            for v in 0..n {
                let p = piece_of[v];
                counts.clear();
                for u in adjacency.neighbours(v) {
                    let q = piece_of[u];
                    match counts.iter_mut().find(|(piece, _)| *piece == q) {
                        Some((_, c)) => *c += 1,
                        None => counts.push((q, 1)),
                    }
                }
                let own = counts.iter().find(|(q, _)| *q == p).map_or(0, |&(_, c)| c);
                let Some(&(best, _)) = counts
                    .iter()
                    .filter(|&&(q, c)| q != p && c > own && size[q as usize] < limit)
                    .max_by_key(|&&(q, c)| (c, std::cmp::Reverse(q)))
                else {
                    continue;
                };
                if size[p as usize] <= 1 {
                    continue;
                }
                own_neighbours.clear();
                own_neighbours.extend(
                    adjacency
                        .neighbours(v)
                        .filter(|&u| u != v && piece_of[u] == p),
                );
                own_neighbours.sort_unstable();
                own_neighbours.dedup();
                if !connected_among(adjacency, &own_neighbours) {
                    continue;
                }
                piece_of[v] = best;
                size[p as usize] -= 1;
                size[best as usize] += 1;
                moved += 1;
            }
            if moved == 0 {
                break;
            }
        }
    }
}

/// Passes of [`Borders::refine_borders`] at most: on the Delaunay mesh of 200 k
/// vertices the passes moved 1,939, 400, 78, 15, 1 and 0 vertices.
const REFINE_PASSES: usize = 8;

/// Whether the vertices of `set` (sorted, at most [`MOST_REFINE_NEIGHBOURS`];
/// more count as not connected) are connected by edges among themselves.
fn connected_among(adjacency: &Adjacency, set: &[usize]) -> bool {
    if set.len() <= 1 {
        return true;
    }
    if set.len() > MOST_REFINE_NEIGHBOURS {
        return false;
    }
    let mut reached = 1u64;
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        for u in adjacency.neighbours(set[i]) {
            if let Ok(j) = set.binary_search(&u)
                && reached & (1 << j) == 0
            {
                reached |= 1 << j;
                stack.push(j);
            }
        }
    }
    reached.count_ones() as usize == set.len()
}

/// Neighbours in its own piece beyond which [`Borders::refine_borders`] leaves a
/// vertex where it is.
const MOST_REFINE_NEIGHBOURS: usize = 64;

/// The vertices of each of `pieces` pieces.
fn piece_sizes(piece_of: &[u32], pieces: usize) -> Vec<usize> {
    let mut size = vec![0usize; pieces];
    for &p in piece_of {
        size[p as usize] += 1;
    }
    size
}
