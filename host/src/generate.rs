//! Generated graphs: the papers' random graphs ([`random_graph`]) and 2-D grids
//! with random weights, the classic stand-in for road networks ([`grid_graph`]).
//!
//! The random graphs of the papers (Martín et al. §6, Ortega-Arranz et al. §V):
//! every vertex gets `degree` predecessors drawn uniformly from all vertices
//! (self-loops and parallel edges allowed), with integer weights drawn uniformly
//! from `min_weight..=max_weight`; the graph is then turned into its successor
//! interpretation, so out-degrees vary. With `f32` weights
//! ([`RandomGraphSpec::weight_kind`]) the same draws give reals uniform in
//! `[min_weight, max_weight)` instead. Grids have integer weights only.
//!
//! Determinism: vertices are generated in chunks of [`CHUNK`]; chunk `k` draws from
//! its own xoshiro256++ stream seeded by `seed` and `k` (through SplitMix64), and
//! a draw maps to a range by multiply-and-shift. The output therefore depends only
//! on the parameters, not on the thread count, the machine or a crate's sampling
//! algorithm, and chunks can be generated in parallel. Grids follow the same
//! discipline over chunks of [`CHUNK`] consecutive (row-major) vertices, from
//! streams of their own (see [`grid_graph`]).

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use crate::graph::{Graph, WeightKind};
use crate::{Error, Result};

/// Vertices per independently seeded chunk.
pub const CHUNK: usize = 1 << 16;

/// Parameters of the papers' random graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomGraphSpec {
    /// Number of vertices `n`.
    pub num_vertices: usize,
    /// Predecessors per vertex (7 in the papers' list experiments).
    pub degree: u32,
    /// Smallest edge weight (1 in the papers).
    pub min_weight: u32,
    /// Largest edge weight (10 in the papers): included for `u32` weights,
    /// excluded for `f32` (unless it equals `min_weight`).
    pub max_weight: u32,
    /// Seed of the generator.
    pub seed: u64,
    /// The weight type: [`WeightKind::U32`] (the papers') for integers
    /// uniform in `min_weight..=max_weight`, [`WeightKind::F32`] for reals
    /// uniform in `[min_weight, max_weight)`, from the same random draws (so
    /// the edges are those of the `u32` graph of the same seed).
    pub weight_kind: WeightKind,
}

impl RandomGraphSpec {
    /// The papers' parameters (degree 7, weights 1..=10, `u32`) for `n`
    /// vertices.
    pub fn papers(num_vertices: usize, seed: u64) -> Self {
        RandomGraphSpec {
            num_vertices,
            degree: 7,
            min_weight: 1,
            max_weight: 10,
            seed,
            weight_kind: WeightKind::U32,
        }
    }

    fn check(&self) -> Result<u32> {
        let invalid = |m: String| Err(Error::InvalidArgument(m));
        if self.num_vertices == 0 || self.num_vertices > u32::MAX as usize {
            return invalid(format!(
                "vertex count must be in 1..={}, got {}",
                u32::MAX,
                self.num_vertices
            ));
        }
        if self.min_weight > self.max_weight {
            return invalid(format!(
                "min weight {} is larger than max weight {}",
                self.min_weight, self.max_weight
            ));
        }
        let edges = self.num_vertices as u64 * self.degree as u64;
        u32::try_from(edges).map_err(|_| {
            Error::InvalidArgument(format!(
                "{} vertices of degree {} make {edges} edges; at most {} fit 32-bit offsets",
                self.num_vertices,
                self.degree,
                u32::MAX
            ))
        })
    }
}

/// `bits * bound >> 32`: a uniform value in `0..bound` from 32 random bits.
fn scale(bits: u32, bound: u64) -> u32 {
    ((bits as u64 * bound) >> 32) as u32
}

/// The `f32` word of a real uniform in `[min, max)` (`min` when they are equal)
/// from 32 random bits: `min + (max - min) · bits / 2^32` in `f64`, rounded to
/// the nearest `f32` (the bounds are first rounded to `f32`, exact up to
/// 2^24). The rounding can reach `max` itself; such a value becomes the largest
/// `f32` below `max`. IEEE arithmetic makes the result the same on every
/// machine.
fn real_weight(bits: u32, min: u32, max: u32) -> u32 {
    let (min, max) = (min as f32, max as f32);
    let unit = bits as f64 / 4_294_967_296.0;
    let value = (min as f64 + (max as f64 - min as f64) * unit) as f32;
    let value = if value >= max && max > min {
        max.next_down()
    } else {
        value
    };
    value.to_bits()
}

/// A chunk's index and its slices of the predecessor and weight arrays.
type ChunkSlices<'a> = (usize, &'a mut [u32], &'a mut [u32]);

/// Fills the predecessor lists of the vertices of one chunk.
fn fill_chunk(spec: &RandomGraphSpec, chunk: usize, sources: &mut [u32], weights: &mut [u32]) {
    let mut seeder = rand_xoshiro::SplitMix64::seed_from_u64(
        spec.seed ^ (chunk as u64).wrapping_mul(0xA076_1D64_78BD_642F),
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seeder.next_u64());
    let n = spec.num_vertices as u64;
    let weight_span = (spec.max_weight - spec.min_weight) as u64 + 1;
    for (source, weight) in sources.iter_mut().zip(weights.iter_mut()) {
        let bits = rng.next_u64();
        *source = scale((bits >> 32) as u32, n);
        *weight = match spec.weight_kind {
            WeightKind::U32 => spec.min_weight + scale(bits as u32, weight_span),
            WeightKind::F32 => real_weight(bits as u32, spec.min_weight, spec.max_weight),
        };
    }
}

/// Generates the papers' random graph in successor form, with weights of
/// [`RandomGraphSpec::weight_kind`].
pub fn random_graph(spec: &RandomGraphSpec) -> Result<Graph<'static>> {
    let num_edges = spec.check()? as usize;
    let n = spec.num_vertices;
    let degree = spec.degree as usize;
    let mut sources = vec![0u32; num_edges];
    let mut weights = vec![0u32; num_edges];
    let per_chunk = (CHUNK * degree).max(1);
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    // Chunk k goes to thread k % threads; the output does not depend on the split.
    let mut work: Vec<Vec<ChunkSlices>> = (0..threads).map(|_| Vec::new()).collect();
    for (k, (s, w)) in sources
        .chunks_mut(per_chunk)
        .zip(weights.chunks_mut(per_chunk))
        .enumerate()
    {
        work[k % threads].push((k, s, w));
    }
    std::thread::scope(|scope| {
        for chunks in work {
            scope.spawn(move || {
                for (k, s, w) in chunks {
                    fill_chunk(spec, k, s, w);
                }
            });
        }
    });
    let offsets: Vec<u32> = (0..=n).map(|v| (v * degree) as u32).collect();
    let predecessors = Graph::new(offsets, sources, weights)?.with_weight_kind(spec.weight_kind)?;
    Ok(predecessors.transpose())
}

/// Parameters of a 2-D grid graph with random weights (see [`grid_graph`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridSpec {
    /// Vertices per row (the `x` extent).
    pub width: usize,
    /// Rows (the `y` extent).
    pub height: usize,
    /// Smallest edge weight.
    pub min_weight: u32,
    /// Largest edge weight.
    pub max_weight: u32,
    /// Seed of the generator.
    pub seed: u64,
}

impl GridSpec {
    /// A `width` × `height` grid with weights in `1..=100`.
    pub fn new(width: usize, height: usize, seed: u64) -> Self {
        GridSpec {
            width,
            height,
            min_weight: 1,
            max_weight: 100,
            seed,
        }
    }

    /// Number of vertices, `width · height` (saturating).
    pub fn num_vertices(&self) -> usize {
        self.width.saturating_mul(self.height)
    }

    /// Number of directed edges, `4·width·height − 2·width − 2·height`: both
    /// directions of each of the `(width − 1)·height` horizontal and
    /// `width·(height − 1)` vertical neighbor pairs (saturating).
    pub fn num_edges(&self) -> u64 {
        let (w, h) = (self.width as u128, self.height as u128);
        if w == 0 || h == 0 {
            return 0;
        }
        u64::try_from(2 * (w - 1) * h + 2 * w * (h - 1)).unwrap_or(u64::MAX)
    }

    /// The vertex count and the edge count, or why they do not fit.
    fn check(&self) -> Result<(usize, usize)> {
        let invalid = |m: String| Err(Error::InvalidArgument(m));
        let (w, h) = (self.width, self.height);
        if w == 0 || h == 0 {
            return invalid(format!("grid sides must be at least 1, got {w} × {h}"));
        }
        let max_vertices = u32::MAX as u64 - 1;
        if w as u128 * h as u128 > max_vertices as u128 {
            return invalid(format!(
                "a {w} × {h} grid has more than {max_vertices} vertices"
            ));
        }
        let edges = self.num_edges();
        if edges > u32::MAX as u64 {
            return invalid(format!(
                "a {w} × {h} grid has {edges} edges; at most {} fit 32-bit offsets",
                u32::MAX
            ));
        }
        if self.min_weight > self.max_weight {
            return invalid(format!(
                "min weight {} is larger than max weight {}",
                self.min_weight, self.max_weight
            ));
        }
        Ok((w * h, edges as usize))
    }

    /// Out-edges of all vertices before vertex `(x, y)` in row-major order.
    fn edges_before(&self, x: usize, y: usize) -> usize {
        let (w, h) = (self.width, self.height);
        let vertical = (y > 0) as usize + (y + 1 < h) as usize;
        // Full rows: 2(w − 1) horizontal edges each, plus w per vertical side.
        let rows = y * 2 * (w - 1) + w * (y.saturating_sub(1) + y.min(h - 1));
        // This row's vertices left of x.
        rows + x * vertical + x.saturating_sub(1) + x.min(w - 1)
    }
}

/// Mixed into grid seeds so that a grid's streams are not those of the random
/// graph of the same seed.
const GRID_STREAM: u64 = 0x6772_6964_2d32_6421; // "grid-2d!"

/// A chunk's index, first vertex, and its slices of the offsets (one per vertex,
/// the final offset excluded), targets and weights.
type GridChunk<'a> = (usize, usize, &'a mut [u32], &'a mut [u32], &'a mut [u32]);

/// Fills the offsets and the edges of the vertices of one grid chunk.
fn fill_grid_chunk(
    spec: &GridSpec,
    chunk: usize,
    first: usize,
    offsets: &mut [u32],
    targets: &mut [u32],
    weights: &mut [u32],
) {
    let mut seeder = rand_xoshiro::SplitMix64::seed_from_u64(
        (spec.seed ^ GRID_STREAM) ^ (chunk as u64).wrapping_mul(0xA076_1D64_78BD_642F),
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seeder.next_u64());
    let (w, h) = (spec.width, spec.height);
    let span = (spec.max_weight - spec.min_weight) as u64 + 1;
    let (mut x, mut y) = (first % w, first / w);
    let base = spec.edges_before(x, y);
    let mut k = 0;
    for (i, offset) in offsets.iter_mut().enumerate() {
        let v = first + i;
        *offset = (base + k) as u32;
        let mut edge = |target: usize| {
            targets[k] = target as u32;
            weights[k] = spec.min_weight + scale((rng.next_u64() >> 32) as u32, span);
            k += 1;
        };
        // Increasing target ids: up, left, right, down.
        if y > 0 {
            edge(v - w);
        }
        if x > 0 {
            edge(v - 1);
        }
        if x + 1 < w {
            edge(v + 1);
        }
        if y + 1 < h {
            edge(v + w);
        }
        x += 1;
        if x == w {
            (x, y) = (0, y + 1);
        }
    }
    debug_assert_eq!(k, targets.len());
}

/// Generates a `width` × `height` 4-neighbor grid: vertex `(x, y)` has id
/// `y · width + x` (row-major), and an edge to each of its (up to four) grid
/// neighbors, so both directions of every neighbor pair are present. Each
/// directed edge has its own weight, uniform in `min_weight..=max_weight`: the
/// two directions of a pair generally differ (a directed graph with a
/// symmetric structure). Each vertex lists its edges in increasing target id:
/// up, left, right, down.
///
/// Determinism: the vertices are generated in chunks of [`CHUNK`] in row-major
/// order; chunk `k` draws one 64-bit value per edge, in the order above, from
/// its own xoshiro256++ stream seeded through SplitMix64 by `seed` and `k`, and
/// maps it to a weight by multiply-and-shift of its upper 32 bits. The output
/// depends only on the parameters, and chunks are generated in parallel.
///
/// Errors ([`Error::InvalidArgument`]): a side of 0, more than `u32::MAX − 1`
/// vertices, more than `u32::MAX` edges, `min_weight > max_weight`.
pub fn grid_graph(spec: &GridSpec) -> Result<Graph<'static>> {
    let (n, m) = spec.check()?;
    let mut offsets = vec![0u32; n + 1];
    let mut targets = vec![0u32; m];
    let mut weights = vec![0u32; m];
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    // Chunk k goes to thread k % threads; the output does not depend on the split.
    let mut work: Vec<Vec<GridChunk>> = (0..threads).map(|_| Vec::new()).collect();
    let (mut o_rest, mut t_rest, mut w_rest) =
        (&mut offsets[..n], &mut targets[..], &mut weights[..]);
    let mut edges_done = 0;
    for (k, first) in (0..n).step_by(CHUNK).enumerate() {
        let end = (first + CHUNK).min(n);
        let edges_end = spec.edges_before(end % spec.width, end / spec.width);
        let (o, o_next) = std::mem::take(&mut o_rest).split_at_mut(end - first);
        let (t, t_next) = std::mem::take(&mut t_rest).split_at_mut(edges_end - edges_done);
        let (w, w_next) = std::mem::take(&mut w_rest).split_at_mut(edges_end - edges_done);
        (o_rest, t_rest, w_rest) = (o_next, t_next, w_next);
        edges_done = edges_end;
        work[k % threads].push((k, first, o, t, w));
    }
    debug_assert_eq!(edges_done, m);
    std::thread::scope(|scope| {
        for chunks in work {
            scope.spawn(move || {
                for (k, first, o, t, w) in chunks {
                    fill_grid_chunk(spec, k, first, o, t, w);
                }
            });
        }
    });
    offsets[n] = m as u32;
    Ok(Graph::new(offsets, targets, weights)?)
}
