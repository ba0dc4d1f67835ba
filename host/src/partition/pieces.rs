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
//!
//! In parallel: pieces grow one after another, so with many threads and many
//! pieces the graph is first split into regions whose pieces grow on all
//! threads at once. Phase 1, a level-synchronous BFS over edges of either
//! direction from one seed per region, gives each vertex to its nearest seed
//! (ties to the smallest region, so that the regions do not depend on the
//! scheduling); vertices no seed reaches (other components) are cut in id
//! order into regions of the same size. Phase 2 grows each region's pieces as
//! above, ignoring edges that leave the region. The regions' full pieces come
//! first, in region order, then their remainders, concatenated and cut into
//! full pieces again: the same count and sizes, with only about one piece per
//! region a mixture of fragments. Phase 1 alone does 1.5–3 times the growth's
//! work (a BFS front sweeping the whole graph has poor locality), so regions
//! are used only where that is repaid: at least 8 threads and one region of
//! at least 256 pieces per thread. The regions, hence the pieces, depend on
//! rayon's thread count.
//!
//! Joined pieces ([`partition_joined`], resident mode): growth that ran dry
//! went on from a seed elsewhere, so a piece may be several parts far apart,
//! worked whenever a wave passes any of them; afterwards each piece's parts
//! but its largest go to the pieces around them, as far as those stay within
//! a quarter over the capacity. Then the borders are refined: a border
//! vertex moves to the neighbouring piece that holds more of its edges,
//! where that piece stays within the same limit and its own piece stays
//! whole (`refine_borders`), so the pieces have fewer boundary vertices.

use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::adjacency::{Adjacency, targets_of};
use super::borders::Borders;
use super::growth::{Growth, grow};
use super::regions::{
    FEWEST_THREADS, PIECES_PER_REGION, REGIONS_PER_THREAD, TENTATIVE, grow_regions,
    split_into_regions,
};
use crate::graph::Graph;
use crate::reorder::Permutation;
use crate::{Error, Result};

/// [`partition_joined`]'s pieces hold up to `capacity + capacity /
/// JOINED_SLACK` vertices: a quarter more was 0–3% faster on road networks
/// than an eighth (docs/PERFORMANCE.md, 2026-11-27).
pub const JOINED_SLACK: usize = 4;

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

    /// The most vertices a piece has.
    pub fn largest(&self) -> u32 {
        self.starts
            .windows(2)
            .map(|r| r[1] - r[0])
            .max()
            .unwrap_or(0)
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
/// docs), in regions on many threads where the graph has enough pieces. An
/// error for `capacity` 0 or a graph too large for `u32` ids.
pub fn partition(graph: &Graph, capacity: usize) -> Result<Partitioning> {
    cut(graph, capacity, Growth::Breadth, None)
}

/// [`partition`] with pieces grown as `growth` says.
pub fn partition_grown(graph: &Graph, capacity: usize, growth: Growth) -> Result<Partitioning> {
    cut(graph, capacity, growth, None)
}

/// [`partition`] with pieces grown as `growth` says, then each piece's
/// fragments (the parts of it not connected to its largest inside the
/// piece: growth that ran dry went on elsewhere) go to the pieces around
/// them, as far as those stay at most `capacity +
/// capacity / `[`JOINED_SLACK`]; so pieces may hold up to that many
/// vertices ([`Partitioning::largest`]), and there are as many as
/// [`partition`] cuts. A fragmented piece is worked whenever a wave passes
/// any of its parts; joined, road networks solved 8–19% faster in resident
/// mode (docs/PERFORMANCE.md, 2026-11-27).
pub fn partition_joined(graph: &Graph, capacity: usize, growth: Growth) -> Result<Partitioning> {
    let limit = capacity.saturating_add(capacity / JOINED_SLACK);
    cut(graph, capacity, growth, Some(limit))
}

/// [`partition`] or [`partition_joined`] (`join_limit`: the largest piece
/// after joining).
fn cut(
    graph: &Graph,
    capacity: usize,
    growth: Growth,
    join_limit: Option<usize>,
) -> Result<Partitioning> {
    let pieces = graph.num_vertices().div_ceil(capacity.max(1));
    let threads = rayon::current_num_threads();
    let regions = (REGIONS_PER_THREAD * threads).min(pieces / PIECES_PER_REGION);
    let regions = if threads >= FEWEST_THREADS && regions >= threads {
        regions
    } else {
        1
    };
    cut_with_regions(graph, capacity, regions, growth, join_limit)
}

/// [`partition`] with `regions` regions instead of its choice (0 or 1: the
/// growth on one thread; at most one region per vertex), for tests and
/// benchmarks.
pub fn partition_with_regions(
    graph: &Graph,
    capacity: usize,
    regions: usize,
) -> Result<Partitioning> {
    cut_with_regions(graph, capacity, regions, Growth::Breadth, None)
}

/// [`partition_with_regions`], the fragments joined up to pieces of
/// `join_limit` where given ([`partition_joined`]).
fn cut_with_regions(
    graph: &Graph,
    capacity: usize,
    regions: usize,
    growth: Growth,
    join_limit: Option<usize>,
) -> Result<Partitioning> {
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
    let adjacency = Adjacency {
        successors: graph,
        predecessors: &predecessors,
    };
    // Region ids, those of the unreached included, stay below TENTATIVE.
    let regions = regions.min(n).min(TENTATIVE as usize / 2);
    // Each vertex's region, then NONE once grown into a piece, then its piece.
    let (words, grown) = if regions < 2 {
        let words: Vec<AtomicU32> = (0..n).into_par_iter().map(|_| AtomicU32::new(0)).collect();
        let grown = grow(&words, 0, capacity, 0..n, growth, &adjacency);
        (words, grown)
    } else {
        let (words, members) = split_into_regions(&adjacency, regions);
        let grown = grow_regions(&words, &members, capacity, growth, &adjacency);
        (words, grown)
    };
    // `grown` holds the original ids piece after piece (all full but the
    // last), each piece in the order it grew; each word becomes its piece.
    grown
        .par_iter()
        .enumerate()
        .for_each(|(k, &v)| words[v as usize].store((k / capacity) as u32, Relaxed));
    let mut piece_of_old: Vec<u32> = words.into_par_iter().map(AtomicU32::into_inner).collect();
    let (grown, starts) = if let Some(limit) = join_limit {
        let pieces = n.div_ceil(capacity);
        let mut borders = Borders::new(&adjacency, &mut piece_of_old, pieces, limit);
        borders.join_fragments();
        borders.refine_borders();
        // Each piece's vertices in growth order.
        let mut counts = vec![0u32; pieces + 1];
        for &p in &piece_of_old {
            counts[p as usize + 1] += 1;
        }
        for p in 0..pieces {
            counts[p + 1] += counts[p];
        }
        let mut next = counts.clone();
        let mut sorted = vec![0u32; n];
        for &v in &grown {
            let p = piece_of_old[v as usize] as usize;
            sorted[next[p] as usize] = v;
            next[p] += 1;
        }
        (sorted, counts)
    } else {
        let starts: Vec<u32> = (0..n)
            .step_by(capacity)
            .chain([n])
            .map(|start| start as u32)
            .collect();
        (grown, starts)
    };

    // Boundary vertices first in each piece, each group in growth order.
    let entered_from_outside = |v: usize| {
        targets_of(&predecessors, v)
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
    let boundary_ends: Vec<u32> = starts
        .iter()
        .zip(&split)
        .map(|(&start, (boundary, _))| start + boundary.len() as u32)
        .collect();
    let old_of_new: Vec<u32> = split
        .par_iter()
        .flat_map_iter(|(boundary, inner)| boundary.iter().chain(inner).copied())
        .collect();
    let piece_of: Vec<u32> = old_of_new
        .par_iter()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GridSpec, grid_graph};

    /// Edges (of either direction, each counted from both ends) between
    /// pieces.
    fn cut_edges(adjacency: &Adjacency, piece_of: &[u32]) -> usize {
        (0..piece_of.len())
            .map(|v| {
                adjacency
                    .neighbours(v)
                    .filter(|&u| piece_of[u] != piece_of[v])
                    .count()
            })
            .sum()
    }

    /// The connected parts of all pieces together (edges of either
    /// direction inside a piece).
    fn parts(adjacency: &Adjacency, piece_of: &[u32]) -> usize {
        let mut seen = vec![false; piece_of.len()];
        let mut count = 0;
        for v in 0..piece_of.len() {
            if seen[v] {
                continue;
            }
            count += 1;
            seen[v] = true;
            let mut stack = vec![v];
            while let Some(x) = stack.pop() {
                for u in adjacency.neighbours(x) {
                    if !seen[u] && piece_of[u] == piece_of[v] {
                        seen[u] = true;
                        stack.push(u);
                    }
                }
            }
        }
        count
    }

    /// A piece of two triangles joined by a neck vertex (3) with three edges
    /// to a second piece, and a vertex (10) with one edge into its piece and
    /// two into the second: the neck never moves (its piece would fall
    /// apart), vertex 10 moves only while the second piece is below the
    /// limit.
    #[test]
    fn refinement_keeps_pieces_whole_and_within_the_limit() {
        let undirected = [
            (0, 1),
            (1, 2),
            (2, 0),
            (2, 3),
            (3, 4),
            (4, 5),
            (5, 6),
            (6, 4),
            (7, 8),
            (8, 9),
            (9, 7),
            (3, 7),
            (3, 8),
            (3, 9),
            (10, 0),
            (10, 7),
            (10, 8),
        ];
        let edges: Vec<(u32, u32, u32)> = undirected
            .iter()
            .flat_map(|&(u, v)| [(u, v, 1), (v, u, 1)])
            .collect();
        let graph = Graph::from_edges(11, &edges).unwrap();
        let predecessors = graph.transpose();
        let adjacency = Adjacency {
            successors: &graph,
            predecessors: &predecessors,
        };
        let start: Vec<u32> = (0..11).map(|v| u32::from((7..10).contains(&v))).collect();
        for (limit, moves_10) in [(3, false), (4, true)] {
            let mut piece_of = start.clone();
            Borders::new(&adjacency, &mut piece_of, 2, limit).refine_borders();
            let mut expected = start.clone();
            expected[10] = u32::from(moves_10);
            assert_eq!(piece_of, expected, "limit {limit}");
            assert_eq!(parts(&adjacency, &piece_of), 2, "limit {limit}");
        }
    }

    /// On grids cut into strips whose borders a seeded coin made jagged,
    /// the refinement cuts fewer edges, splits no piece (the pieces' parts
    /// do not grow in number) and fills no piece past the limit.
    #[test]
    fn refined_borders_cut_fewer_edges_and_split_no_piece() {
        let (width, height, strip) = (40usize, 30usize, 8usize);
        let pieces = width / strip;
        let limit = strip * height + height / 2;
        for seed in 1..=20u64 {
            let graph = grid_graph(&GridSpec::new(width, height, seed)).unwrap();
            let predecessors = graph.transpose();
            let adjacency = Adjacency {
                successors: &graph,
                predecessors: &predecessors,
            };
            // A strip's last column goes to the next strip where a coin
            // (a hash of the vertex and the seed) says so.
            let mut piece_of: Vec<u32> = (0..width * height)
                .map(|v| {
                    let (x, y) = (v % width, v / width);
                    let coin =
                        (x as u64 * 7919 + y as u64 * 104_729 + seed * 1_299_709).is_multiple_of(3);
                    let flip = x % strip == strip - 1 && x / strip + 1 < pieces && coin;
                    (x / strip + usize::from(flip)) as u32
                })
                .collect();
            let context = format!("grid {width}x{height}, seed {seed}");
            let (cut_before, parts_before) = (
                cut_edges(&adjacency, &piece_of),
                parts(&adjacency, &piece_of),
            );
            Borders::new(&adjacency, &mut piece_of, pieces, limit).refine_borders();
            let (cut_after, parts_after) = (
                cut_edges(&adjacency, &piece_of),
                parts(&adjacency, &piece_of),
            );
            assert!(
                cut_after < cut_before,
                "{context}: {cut_after} cut edges, {cut_before} before"
            );
            assert!(
                parts_after <= parts_before,
                "{context}: {parts_after} parts, {parts_before} before"
            );
            let mut size = vec![0usize; pieces];
            for &p in &piece_of {
                size[p as usize] += 1;
            }
            assert!(
                size.iter().all(|&s| s <= limit),
                "{context}: sizes {size:?}"
            );
        }
    }
}
