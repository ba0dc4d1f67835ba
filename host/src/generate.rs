//! The random graphs of the papers (Martín et al. §6, Ortega-Arranz et al. §V):
//! every vertex gets `degree` predecessors drawn uniformly from all vertices
//! (self-loops and parallel edges allowed), with integer weights drawn uniformly
//! from `min_weight..=max_weight`; the graph is then turned into its successor
//! interpretation, so out-degrees vary.
//!
//! Determinism: vertices are generated in chunks of [`CHUNK`]; chunk `k` draws from
//! its own xoshiro256++ stream seeded by `seed` and `k` (through SplitMix64), and
//! a draw maps to a range by multiply-and-shift. The output therefore depends only
//! on the parameters, not on the thread count, the machine or a crate's sampling
//! algorithm, and chunks can be generated in parallel.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use crate::graph::Graph;
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
    /// Largest edge weight (10 in the papers).
    pub max_weight: u32,
    /// Seed of the generator.
    pub seed: u64,
}

impl RandomGraphSpec {
    /// The papers' parameters (degree 7, weights 1..=10) for `n` vertices.
    pub fn papers(num_vertices: usize, seed: u64) -> Self {
        RandomGraphSpec {
            num_vertices,
            degree: 7,
            min_weight: 1,
            max_weight: 10,
            seed,
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
        *weight = spec.min_weight + scale(bits as u32, weight_span);
    }
}

/// Generates the papers' random graph in successor form.
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
    let predecessors = Graph::new(offsets, sources, weights)?;
    Ok(predecessors.transpose())
}
