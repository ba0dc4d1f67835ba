//! How a piece grows from its seed ([`Growth`]): breadth-first, or compactly
//! by the frontier vertex with the most edges into the piece. One loop
//! ([`grow`]) takes a region's vertices piece after piece; the two growths
//! differ only in their frontier ([`Frontier`]).

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use super::adjacency::Adjacency;

/// A vertex in no region: one no seed has reached, or one already grown into
/// a piece.
pub(super) const NONE: u32 = u32::MAX;

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
    /// 3–4% slower (docs/PERFORMANCE.md, 2026-11-27): `auto`'s trial tries both.
    Compact,
}

/// Grows the pieces of one region: the vertices whose word is `region`, all
/// listed by `order`. Each piece takes `capacity` of them (the last one what
/// is left) over edges that stay in the region as `growth` says, from seeds
/// as the module docs of [`crate::partition::pieces`] say, `order` giving
/// the id order. Marks each vertex it takes [`NONE`] and returns them in
/// growth order.
pub(super) fn grow(
    words: &[AtomicU32],
    region: u32,
    capacity: usize,
    order: impl ExactSizeIterator<Item = usize>,
    growth: Growth,
    adjacency: &Adjacency,
) -> Vec<u32> {
    match growth {
        Growth::Breadth => grow_with(
            words,
            region,
            capacity,
            order,
            adjacency,
            Breadth::default(),
        ),
        Growth::Compact => {
            let frontier = FrontierBuckets::default();
            grow_with(words, region, capacity, order, adjacency, frontier)
        }
    }
}

/// The piece being grown, and the region's vertices taken so far.
struct Piece<'w> {
    words: &'w [AtomicU32],
    region: u32,
    capacity: usize,
    /// The region's vertex count.
    count: usize,
    /// The vertices taken, piece after piece, in growth order.
    grown: Vec<u32>,
    /// Where the current piece starts in `grown`.
    start: usize,
}

impl Piece<'_> {
    fn unassigned(&self, v: usize) -> bool {
        self.words[v].load(Relaxed) == self.region
    }

    /// Whether the current piece may take one more vertex.
    fn has_room(&self) -> bool {
        self.grown.len() - self.start < self.capacity && self.grown.len() < self.count
    }

    fn take(&mut self, v: usize) {
        self.words[v].store(NONE, Relaxed);
        self.grown.push(v as u32);
    }
}

/// A growth's frontier around the current piece.
trait Frontier {
    /// Empties it for a new piece.
    fn clear(&mut self);
    /// Notes that the piece took `v` (a seed, or a vertex this frontier
    /// gave).
    fn taken(&mut self, v: usize, piece: &Piece, adjacency: &Adjacency);
    /// Gives the piece its next vertices (while it has room); false when
    /// the frontier has none.
    fn advance(&mut self, piece: &mut Piece, adjacency: &Adjacency) -> bool;
    /// The next piece's seeds, in order, after the current piece is full.
    fn seeds(&self, piece: &Piece, adjacency: &Adjacency, seeds: &mut VecDeque<usize>);
}

/// [`grow`] with `frontier`.
fn grow_with(
    words: &[AtomicU32],
    region: u32,
    capacity: usize,
    mut order: impl ExactSizeIterator<Item = usize>,
    adjacency: &Adjacency,
    mut frontier: impl Frontier,
) -> Vec<u32> {
    let count = order.len();
    let mut piece = Piece {
        words,
        region,
        capacity,
        count,
        grown: Vec::with_capacity(count),
        start: 0,
    };
    let mut seeds = VecDeque::new();
    while piece.grown.len() < count {
        piece.start = piece.grown.len();
        frontier.clear();
        while piece.has_room() {
            if !frontier.advance(&mut piece, adjacency) {
                let seed = next_seed(&mut seeds, &mut order, |v| piece.unassigned(v));
                piece.take(seed);
                frontier.taken(seed, &piece, adjacency);
            }
        }
        seeds.clear();
        frontier.seeds(&piece, adjacency, &mut seeds);
    }
    piece.grown
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

/// The breadth-first frontier: a queue of taken vertices whose neighbours
/// are still to be taken (each vertex is taken when first found).
#[derive(Default)]
struct Breadth {
    queue: VecDeque<usize>,
}

impl Frontier for Breadth {
    fn clear(&mut self) {
        self.queue.clear();
    }

    fn taken(&mut self, v: usize, _: &Piece, _: &Adjacency) {
        self.queue.push_back(v);
    }

    fn advance(&mut self, piece: &mut Piece, adjacency: &Adjacency) -> bool {
        let Some(u) = self.queue.pop_front() else {
            return false;
        };
        for v in adjacency.neighbours(u) {
            if piece.unassigned(v) && piece.has_room() {
                piece.take(v);
                self.queue.push_back(v);
            }
        }
        true
    }

    fn seeds(&self, piece: &Piece, adjacency: &Adjacency, seeds: &mut VecDeque<usize>) {
        for &u in &self.queue {
            seeds.extend(adjacency.neighbours(u).filter(|&v| piece.unassigned(v)));
        }
    }
}

/// The compact growth's frontier: the piece takes the vertex of its
/// frontier with the most edges into it (the earliest found of those), so
/// that it grows round rather than along a front; a vertex's count rises as
/// the piece takes its neighbours.
impl Frontier for FrontierBuckets {
    fn clear(&mut self) {
        FrontierBuckets::clear(self);
    }

    fn taken(&mut self, v: usize, piece: &Piece, adjacency: &Adjacency) {
        for u in adjacency.neighbours(v) {
            if piece.unassigned(u) {
                self.link(u);
            }
        }
    }

    fn advance(&mut self, piece: &mut Piece, adjacency: &Adjacency) -> bool {
        let Some(v) = self.pop(|v| piece.unassigned(v)) else {
            return false;
        };
        piece.take(v);
        self.taken(v, piece, adjacency);
        true
    }

    fn seeds(&self, piece: &Piece, _: &Adjacency, seeds: &mut VecDeque<usize>) {
        seeds.extend(self.found.iter().copied().filter(|&u| piece.unassigned(u)));
    }
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
