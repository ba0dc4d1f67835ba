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

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use rand_xoshiro::SplitMix64;
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rayon::prelude::*;

use crate::graph::Graph;
use crate::reorder::Permutation;
use crate::{Error, Result};

/// The most regions per rayon thread: a few, so that threads done with their
/// regions can take over others.
const REGIONS_PER_THREAD: usize = 4;

/// The fewest pieces per region: each region adds one mixed piece and cuts
/// pieces along its border, so regions stay large against pieces.
const PIECES_PER_REGION: usize = 256;

/// [`partition_joined`]'s pieces hold up to `capacity + capacity /
/// JOINED_SLACK` vertices: a quarter more was 0–3% faster on road networks
/// than an eighth (docs/PERFORMANCE.md, 2026-11-27, sixteenth session).
pub const JOINED_SLACK: usize = 4;

/// The fewest rayon threads for regions: phases 1 and 2 together do 2.5–4
/// times the growth's work on one thread, and phase 1 ran at most 1.5 times
/// as fast on two (road graphs and grids on 2 cores), so fewer threads would
/// gain little or lose.
const FEWEST_THREADS: usize = 8;

/// A vertex in no region: one no seed has reached, or one already grown into
/// a piece.
const NONE: u32 = u32::MAX;

/// Marks a region's claim on a vertex within one level of phase 1, before it
/// is final.
const TENTATIVE: u32 = 1 << 31;

/// Phase 1 handles frontiers of up to this many vertices on one thread.
const FRONTIER_CHUNK: usize = 1 << 10;

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
/// mode (docs/PERFORMANCE.md, 2026-11-27, sixteenth session).
pub fn partition_joined(graph: &Graph, capacity: usize, growth: Growth) -> Result<Partitioning> {
    let limit = capacity.saturating_add(capacity / JOINED_SLACK);
    cut(graph, capacity, growth, Some(limit))
}

/// How a piece grows from its seed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Growth {
    /// Breadth-first ([`partition`]).
    #[default]
    Breadth,
    /// By the frontier vertex with the most edges into the piece (the
    /// earliest found of those): pieces round rather than long, with
    /// 19–42% fewer boundary vertices on a Delaunay mesh and road networks,
    /// and half the largest boundary. The Delaunay mesh of 200 k vertices
    /// solved 12% faster (resident), the one of 1 M 14% (paged), BAY and NY
    /// 3–4% slower (docs/PERFORMANCE.md, 2026-11-27, sixteenth and
    /// seventeenth sessions): `auto`'s trial tries both.
    Compact,
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
        join_fragments(&adjacency, &mut piece_of_old, pieces, limit);
        refine_borders(&adjacency, &mut piece_of_old, pieces, limit);
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

/// Gives each piece's fragments (its connected parts, over edges of either
/// direction, but its largest) to the pieces around them, breadth-first from
/// those pieces, as long as a piece stays at most `limit` (at least every
/// piece's size); what no piece can take stays where it was. So no vertex
/// joins a piece it is not connected to inside that piece, and no piece
/// grows past `limit`.
fn join_fragments(adjacency: &Adjacency, piece_of: &mut [u32], pieces: usize, limit: usize) {
    let n = piece_of.len();
    let mut size = vec![0usize; pieces];
    for &p in piece_of.iter() {
        size[p as usize] += 1;
    }
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
    let mut largest = vec![u32::MAX; pieces];
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
/// faster, BAY 6% (docs/PERFORMANCE.md, 2026-11-27, twenty-first session). A
/// vertex moves only where its neighbours in its own piece are connected
/// among themselves, so that no piece falls apart, and only to a piece it
/// has an edge to, so that no piece gains a part.
fn refine_borders(adjacency: &Adjacency, piece_of: &mut [u32], pieces: usize, limit: usize) {
    let n = piece_of.len();
    let mut size = vec![0usize; pieces];
    for &p in piece_of.iter() {
        size[p as usize] += 1;
    }
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

/// Passes of [`refine_borders`] at most: on the Delaunay mesh of 200 k
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

/// Neighbours in its own piece beyond which [`refine_borders`] leaves a
/// vertex where it is.
const MOST_REFINE_NEIGHBOURS: usize = 64;

/// Edges of either direction.
struct Adjacency<'a> {
    successors: &'a Graph<'a>,
    predecessors: &'a Graph<'a>,
}

impl Adjacency<'_> {
    /// The heads of `v`'s out-edges, then the tails of its in-edges.
    fn neighbours(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        targets_of(self.successors, v)
            .iter()
            .chain(targets_of(self.predecessors, v))
            .map(|&u| u as usize)
    }
}

/// The targets of `v`'s edges in `graph`.
fn targets_of<'g>(graph: &'g Graph, v: usize) -> &'g [u32] {
    &graph.targets()[graph.offsets()[v] as usize..graph.offsets()[v + 1] as usize]
}

/// Grows the pieces of one region: the vertices whose word is `region`, all
/// listed by `order`. Each piece takes `capacity` of them (the last one what
/// is left) over edges that stay in the region as `growth` says, from seeds
/// as the module docs say, `order` giving the id order. Marks each vertex it
/// takes [`NONE`] and returns them in growth order.
fn grow(
    words: &[AtomicU32],
    region: u32,
    capacity: usize,
    order: impl ExactSizeIterator<Item = usize>,
    growth: Growth,
    adjacency: &Adjacency,
) -> Vec<u32> {
    match growth {
        Growth::Breadth => grow_breadth(words, region, capacity, order, adjacency),
        Growth::Compact => grow_compact(words, region, capacity, order, adjacency),
    }
}

/// The next piece's seed: the first vertex of `seeds` (the last piece's
/// frontier) still unassigned, else the first of `order`.
fn next_seed(
    seeds: &mut VecDeque<usize>,
    order: &mut impl Iterator<Item = usize>,
    unassigned: impl Fn(usize) -> bool,
) -> usize {
    while let Some(seed) = seeds.pop_front() {
        if unassigned(seed) {
            return seed;
        }
    }
    order
        .find(|&v| unassigned(v))
        .expect("`order` lists every vertex of the region")
}

/// [`grow`] breadth-first.
fn grow_breadth(
    words: &[AtomicU32],
    region: u32,
    capacity: usize,
    mut order: impl ExactSizeIterator<Item = usize>,
    adjacency: &Adjacency,
) -> Vec<u32> {
    let count = order.len();
    let unassigned = |v: usize| words[v].load(Relaxed) == region;
    let mut grown: Vec<u32> = Vec::with_capacity(count);
    let mut queue = VecDeque::new();
    let mut seeds = VecDeque::new();
    while grown.len() < count {
        let piece_start = grown.len();
        queue.clear();
        while grown.len() - piece_start < capacity && grown.len() < count {
            let Some(u) = queue.pop_front() else {
                let seed = next_seed(&mut seeds, &mut order, unassigned);
                words[seed].store(NONE, Relaxed);
                grown.push(seed as u32);
                queue.push_back(seed);
                continue;
            };
            for v in adjacency.neighbours(u) {
                if unassigned(v) && grown.len() - piece_start < capacity {
                    words[v].store(NONE, Relaxed);
                    grown.push(v as u32);
                    queue.push_back(v);
                }
            }
        }
        seeds.clear();
        for &u in &queue {
            seeds.extend(adjacency.neighbours(u).filter(|&v| unassigned(v)));
        }
    }
    grown
}

/// [`grow`] compactly: a piece takes the vertex of its frontier with the
/// most edges into it (the earliest found of those), so that it grows round
/// rather than along a front; a vertex's count rises as the piece takes its
/// neighbours ([`FrontierBuckets`]).
fn grow_compact(
    words: &[AtomicU32],
    region: u32,
    capacity: usize,
    mut order: impl ExactSizeIterator<Item = usize>,
    adjacency: &Adjacency,
) -> Vec<u32> {
    let count = order.len();
    let unassigned = |v: usize| words[v].load(Relaxed) == region;
    let mut grown: Vec<u32> = Vec::with_capacity(count);
    let mut frontier = FrontierBuckets::default();
    let mut seeds = VecDeque::new();
    while grown.len() < count {
        let piece_start = grown.len();
        frontier.clear();
        while grown.len() - piece_start < capacity && grown.len() < count {
            let v = frontier
                .pop(unassigned)
                .unwrap_or_else(|| next_seed(&mut seeds, &mut order, unassigned));
            words[v].store(NONE, Relaxed);
            grown.push(v as u32);
            for u in adjacency.neighbours(v) {
                if unassigned(u) {
                    frontier.link(u);
                }
            }
        }
        seeds.clear();
        seeds.extend(frontier.found.iter().copied().filter(|&u| unassigned(u)));
    }
    grown
}

/// A growing piece's frontier by edges into the piece: bucket `c` lists, in
/// the order they got there, the vertices whose count became `c` (a
/// vertex's older entries are stale and skipped). Taking the first valid
/// entry of the highest bucket takes the vertex with the most edges into
/// the piece, of those the one that reached its count first.
#[derive(Default)]
struct FrontierBuckets {
    buckets: Vec<VecDeque<usize>>,
    /// Each frontier vertex's edges into the piece.
    links: HashMap<usize, u32, BuildHasherDefault<VertexHasher>>,
    /// The frontier in the order it was found: the next piece's seeds.
    found: Vec<usize>,
    /// No bucket above this holds an entry.
    top: usize,
}

impl FrontierBuckets {
    fn clear(&mut self) {
        // Pops leave every bucket above `top` empty.
        let used = self.buckets.len().min(self.top + 1);
        for bucket in &mut self.buckets[..used] {
            bucket.clear();
        }
        self.links.clear();
        self.found.clear();
        self.top = 0;
    }

    /// Counts one more edge from the piece into `u`.
    fn link(&mut self, u: usize) {
        let edges = self.links.entry(u).or_insert_with(|| {
            self.found.push(u);
            0
        });
        *edges += 1;
        let c = *edges as usize;
        if self.buckets.len() <= c {
            self.buckets.resize_with(c + 1, VecDeque::new);
        }
        self.buckets[c].push_back(u);
        self.top = self.top.max(c);
    }

    /// The unassigned vertex with the most edges into the piece, the first
    /// to reach that count; `None` when the frontier holds none.
    fn pop(&mut self, unassigned: impl Fn(usize) -> bool) -> Option<usize> {
        while self.top > 0 {
            let c = self.top;
            while let Some(v) = self.buckets[c].pop_front() {
                if unassigned(v) && self.links.get(&v) == Some(&(c as u32)) {
                    return Some(v);
                }
            }
            self.top -= 1;
        }
        None
    }
}

/// A hasher for vertex ids (a multiply and a shift): the default hasher's
/// resistance to chosen keys costs the compact growth most of its time.
#[derive(Default)]
struct VertexHasher(u64);

impl Hasher for VertexHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0 ^ v)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
}

/// Phase 1 (see the module docs) for `regions` seeds (2 to `n`): each
/// vertex's region as its word, and the vertices of each region in id order.
fn split_into_regions(adjacency: &Adjacency, regions: usize) -> (Vec<AtomicU32>, Vec<Vec<u32>>) {
    let n = adjacency.successors.num_vertices();
    let words: Vec<AtomicU32> = (0..n)
        .into_par_iter()
        .map(|_| AtomicU32::new(NONE))
        .collect();
    // One seed in each of `regions` equal ranges of ids, at a scrambled
    // offset (the middle would line the seeds up on grids stored row by row).
    let mut frontier: Vec<u32> = (0..regions)
        .map(|r| {
            let (start, end) = (r * n / regions, (r + 1) * n / regions);
            let scrambled = SplitMix64::seed_from_u64(r as u64).next_u64();
            (start + (scrambled % (end - start) as u64) as usize) as u32
        })
        .collect();
    for (r, &seed) in frontier.iter().enumerate() {
        words[seed as usize].store(r as u32, Relaxed);
    }
    // One level: each unclaimed neighbour of the frontier goes to the
    // smallest region that reaches it (the least tentative word)...
    let claim = |vertices: &[u32]| {
        let mut claimed = Vec::new();
        for &u in vertices {
            let mine = words[u as usize].load(Relaxed) | TENTATIVE;
            for v in adjacency.neighbours(u as usize) {
                if words[v].load(Relaxed) > mine && words[v].fetch_min(mine, Relaxed) == NONE {
                    claimed.push(v as u32);
                }
            }
        }
        claimed
    };
    // ...and is final once the level is done.
    let make_final = |&v: &u32| {
        let word = &words[v as usize];
        word.store(word.load(Relaxed) & !TENTATIVE, Relaxed);
    };
    // On a worker thread, so that each level's parallel loops start without
    // waking this one.
    rayon::scope(|_| {
        while !frontier.is_empty() {
            frontier = if frontier.len() <= FRONTIER_CHUNK {
                let next = claim(&frontier);
                next.iter().for_each(make_final);
                next
            } else {
                let next: Vec<u32> = frontier
                    .par_chunks(FRONTIER_CHUNK)
                    .flat_map_iter(claim)
                    .collect();
                next.par_iter().for_each(make_final);
                next
            };
        }
    });

    // Each region's vertices in id order: ranges of ids in parallel, then
    // each region's parts in range order. The last list holds the unreached.
    let range = n.div_ceil(REGIONS_PER_THREAD * rayon::current_num_threads());
    let parts: Vec<Vec<Vec<u32>>> = words
        .par_chunks(range)
        .enumerate()
        .map(|(k, chunk)| {
            let mut lists = vec![Vec::new(); regions + 1];
            for (v, word) in (k * range..).zip(chunk) {
                let region = word.load(Relaxed) as usize;
                lists[region.min(regions)].push(v as u32);
            }
            lists
        })
        .collect();
    let mut members: Vec<Vec<u32>> = (0..=regions)
        .into_par_iter()
        .map(|r| {
            let mut list = Vec::with_capacity(parts.iter().map(|lists| lists[r].len()).sum());
            parts
                .iter()
                .for_each(|lists| list.extend_from_slice(&lists[r]));
            list
        })
        .collect();
    drop(parts);
    let unreached = members.pop().unwrap_or_default();
    for chunk in unreached.chunks(n.div_ceil(regions)) {
        let region = members.len() as u32;
        chunk
            .par_iter()
            .for_each(|&v| words[v as usize].store(region, Relaxed));
        members.push(chunk.to_vec());
    }
    (words, members)
}

/// Phase 2 (see the module docs): the regions' pieces grown in parallel,
/// then put in order (all full but the last) by copies in parallel.
fn grow_regions(
    words: &[AtomicU32],
    members: &[Vec<u32>],
    capacity: usize,
    growth: Growth,
    adjacency: &Adjacency,
) -> Vec<u32> {
    let grown: Vec<Vec<u32>> = members
        .par_iter()
        .enumerate()
        .map(|(r, list)| {
            let order = list.iter().map(|&v| v as usize);
            grow(words, r as u32, capacity, order, growth, adjacency)
        })
        .collect();
    let (full, remainders): (Vec<&[u32]>, Vec<&[u32]>) = grown
        .iter()
        .map(|vertices| vertices.split_at(vertices.len() / capacity * capacity))
        .unzip();
    let mut order = vec![0u32; words.len()];
    let mut rest = &mut order[..];
    let mut copies = Vec::with_capacity(2 * grown.len());
    for from in full.into_iter().chain(remainders) {
        let (to, tail) = std::mem::take(&mut rest).split_at_mut(from.len());
        copies.push((to, from));
        rest = tail;
    }
    copies
        .into_par_iter()
        .for_each(|(to, from)| to.copy_from_slice(from));
    order
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
            refine_borders(&adjacency, &mut piece_of, 2, limit);
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
            refine_borders(&adjacency, &mut piece_of, pieces, limit);
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
