//! Distance arrays as the solvers return them: checks, comparison and summaries.
//! Distances are `u32` words of the graph's [`WeightKind`] (see
//! [`gpu_kernels::distance`]); people see them through [`display`].

use std::sync::atomic::AtomicU32;

use gpu_kernels::distance::{INFINITY, MAX_DISTANCE, SATURATED, Weight};
use rayon::prelude::*;

use crate::graph::{Graph, WeightKind, with_weight_type};
use crate::{Error, Result};

/// Checks that `source` is a vertex of `graph`.
pub fn check_source(graph: &Graph, source: usize) -> Result<()> {
    check_source_of(source as u64, graph.num_vertices())
}

/// [`check_source`] for a solver that knows only its vertex count.
pub fn check_source_of(source: u64, num_vertices: usize) -> Result<()> {
    if source >= num_vertices as u64 {
        return Err(Error::SourceOutOfRange {
            vertex: source,
            num_vertices,
        });
    }
    Ok(())
}

/// Checks the inputs of a check of distances: `source` is a vertex of `graph`
/// ([`check_source`]) and `dist` has one distance per vertex.
pub fn check_distances(graph: &Graph, source: usize, dist: &[u32]) -> Result<()> {
    check_source(graph, source)?;
    if dist.len() != graph.num_vertices() {
        return Err(Error::InvalidArgument(format!(
            "{} distances for {} vertices: one per vertex is needed",
            dist.len(),
            graph.num_vertices()
        )));
    }
    Ok(())
}

/// Rejects a solver's result that contains [`SATURATED`] distances (shortest
/// distances that do not fit in the distance type of `kind`).
pub fn check_overflow(kind: WeightKind, dist: &[u32]) -> Result<()> {
    let mut saturated = dist.iter().enumerate().filter(|&(_, &d)| d == SATURATED);
    if let Some((vertex, _)) = saturated.next() {
        return Err(overflow(kind, vertex, 1 + saturated.count()));
    }
    Ok(())
}

/// The [`Error::DistanceOverflow`] of `count` vertices, the first `vertex`.
pub(crate) fn overflow(kind: WeightKind, vertex: usize, count: usize) -> Error {
    let max = with_weight_type!(kind, W => W::MAX_DISTANCE);
    Error::DistanceOverflow {
        vertex,
        count,
        weight_type: kind.name(),
        max: display(kind, max),
    }
}

/// Converts 64-bit distances (`u64::MAX` = unreachable) to the solvers' `u32`
/// distances, or reports the first that does not fit.
pub fn to_u32_distances(dist: &[u64]) -> Result<Vec<u32>> {
    let too_large = |d: u64| d != u64::MAX && d > MAX_DISTANCE as u64;
    if let Some(vertex) = dist.iter().position(|&d| too_large(d)) {
        let count = dist.iter().filter(|&&d| too_large(d)).count();
        return Err(overflow(WeightKind::U32, vertex, count));
    }
    Ok(dist
        .iter()
        .map(|&d| if d == u64::MAX { INFINITY } else { d as u32 })
        .collect())
}

/// A distance word of `kind` for people: the number (an `f32` in the shortest
/// form that reads back to the same float), `inf` or `overflow`.
pub fn display(kind: WeightKind, d: u32) -> String {
    match (d, kind) {
        (INFINITY, _) => "inf".to_string(),
        (SATURATED, _) => "overflow".to_string(),
        (d, WeightKind::U32) => d.to_string(),
        (d, WeightKind::F32) => f32::from_bits(d).to_string(),
    }
}

/// Compares a solver's distances with the oracle's, word for word (for `f32`,
/// bit for bit); every vertex is compared, and differences are shown as
/// distances of `kind`.
pub fn compare(kind: WeightKind, expected: &[u32], found: &[u32]) -> Result<()> {
    if expected.len() != found.len() {
        return Err(Error::Mismatch {
            vertex: expected.len().min(found.len()),
            expected: format!("{} distances", expected.len()),
            found: format!("{} distances", found.len()),
            count: expected.len().abs_diff(found.len()),
            num_vertices: expected.len(),
        });
    }
    let mut differing = expected
        .iter()
        .zip(found)
        .enumerate()
        .filter(|(_, (e, f))| e != f);
    if let Some((vertex, (&e, &f))) = differing.next() {
        return Err(Error::Mismatch {
            vertex,
            expected: display(kind, e),
            found: display(kind, f),
            count: 1 + differing.count(),
            num_vertices: expected.len(),
        });
    }
    Ok(())
}

/// Summary of a distance array, as the CLI prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Vertices with a finite distance (the source included).
    pub reached: usize,
    /// The largest finite distance word (0 if only the source is reached); show
    /// it with [`display`].
    pub max_distance: u32,
    /// A hash of all distances, unreachable ones included ([`checksum`]):
    /// equal arrays give equal checksums on any machine.
    pub checksum: u64,
}

/// Summarizes a distance array: its blocks of [`CHECKSUM_BLOCK`] words on
/// all cores at once.
pub fn summarize(dist: &[u32]) -> Summary {
    let blocks: Vec<(usize, u32, u64)> = dist
        .par_chunks(CHECKSUM_BLOCK)
        .map(summarize_block)
        .collect();
    Summary {
        reached: blocks.iter().map(|b| b.0).sum(),
        max_distance: blocks.iter().map(|b| b.1).max().unwrap_or(0),
        checksum: combine(dist.len(), blocks.iter().map(|b| b.2)),
    }
}

/// Words of a block of [`checksum`].
pub const CHECKSUM_BLOCK: usize = 1 << 16;

/// Lanes of a block's hash.
const CHECKSUM_LANES: usize = 4;

const FNV_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// One step of FNV-1a on a 64-bit word.
fn fnv_step(hash: u64, word: u64) -> u64 {
    (hash ^ word).wrapping_mul(FNV_PRIME)
}

/// A hash of 32-bit words: each block of [`CHECKSUM_BLOCK`] words hashed by
/// FNV-1a in [`CHECKSUM_LANES`] interleaved lanes (word `i` of a block into
/// lane `i mod 4`, each lane from the FNV offset basis, then the lanes in
/// order as the words of one more FNV-1a hash), and the length and the
/// blocks' hashes, in order, as the words of a last FNV-1a hash. Blocks and
/// lanes are independent: a row's checksum costs far less than its solve.
pub fn checksum(words: &[u32]) -> u64 {
    combine(
        words.len(),
        words.chunks(CHECKSUM_BLOCK).map(block_checksum),
    )
}

/// The checksum of `len` words from their blocks' hashes.
fn combine(len: usize, blocks: impl Iterator<Item = u64>) -> u64 {
    blocks.fold(fnv_step(FNV_BASIS, len as u64), fnv_step)
}

/// One block's hash ([`checksum`]).
fn block_checksum(block: &[u32]) -> u64 {
    let mut lanes = [FNV_BASIS; CHECKSUM_LANES];
    let mut chunks = block.chunks_exact(CHECKSUM_LANES);
    for chunk in &mut chunks {
        for (lane, &word) in lanes.iter_mut().zip(chunk) {
            *lane = fnv_step(*lane, word as u64);
        }
    }
    for (lane, &word) in lanes.iter_mut().zip(chunks.remainder()) {
        *lane = fnv_step(*lane, word as u64);
    }
    lanes
        .iter()
        .fold(FNV_BASIS, |hash, &lane| fnv_step(hash, lane))
}

/// One block's reached words, largest reached word and hash. The count is
/// kept in 32 bits (a block has 2^16 words) in one branch-free pass, which
/// vectorizes: a filtered fold into a `usize` took twice the hash.
fn summarize_block(block: &[u32]) -> (usize, u32, u64) {
    let (mut count, mut max) = (0u32, 0u32);
    for &d in block {
        let reached = d < SATURATED;
        count += u32::from(reached);
        max = max.max(if reached { d } else { 0 });
    }
    (count as usize, max, block_checksum(block))
}

/// Checks that [`certify`] can judge distances over `graph`: its weights are
/// integers (`u32`) and all positive. Depends on the graph alone, so a solve
/// that is to be certified can be refused before it runs; an
/// [`Error::InvalidArgument`] names the reason.
pub fn check_certifiable(graph: &Graph) -> Result<()> {
    if graph.weight_kind() == WeightKind::F32 {
        // A float sum can absorb a small weight (`d + w == d`), so tight edges
        // need not lead back to the source.
        return Err(Error::InvalidArgument(
            "the certificate check (--certify) needs integer weights, and this graph has f32 \
             weights; use --verify"
                .into(),
        ));
    }
    let zeros = graph.weights().iter().filter(|&&w| w == 0).count();
    if zeros > 0 {
        return Err(Error::InvalidArgument(format!(
            "the certificate check (--certify) needs positive weights, and {zeros} edge(s) of \
             this graph have weight 0; use --verify"
        )));
    }
    Ok(())
}

/// Checks, without solving again, that `dist` is the vector of shortest
/// distances from `source` over `graph`, when every weight is positive: the
/// classic certificate of Bellman's equations.
/// - `dist(source) = 0`;
/// - feasible: `dist(v) <= dist(u) + w` for every edge leaving a reached `u`
///   (so whatever such an edge reaches is reached);
/// - tight: every other reached `v` has an in-edge with
///   `dist(u) + w = dist(v)`. With positive weights that `u` is strictly
///   closer, so following tight edges leads back to the source: every
///   distance is a real path's length and, by feasibility, no path is shorter.
///
/// Linear in the edges and spread over the CPU's threads: for graphs whose
/// oracle run would take too long (`--certify`). A graph that
/// [`check_certifiable`] refuses, or a saturated distance, make it refuse
/// rather than decide.
pub fn certify(graph: &Graph, source: usize, dist: &[u32]) -> Result<()> {
    use std::sync::atomic::Ordering::Relaxed;
    use std::sync::atomic::{AtomicU8, AtomicUsize};

    let n = graph.num_vertices();
    check_distances(graph, source, dist)?;
    check_certifiable(graph)?;
    if dist.contains(&SATURATED) {
        return Err(Error::InvalidArgument(
            "the certificate check cannot judge saturated distances; use --verify".into(),
        ));
    }
    let csr = graph.csr();
    let tight: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
    let (violations, first) = (AtomicUsize::new(0), AtomicUsize::new(usize::MAX));
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    let chunk = n.div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        for start in (0..n).step_by(chunk) {
            let (tight, violations, first) = (&tight, &violations, &first);
            scope.spawn(move || {
                for u in start..(start + chunk).min(n) {
                    if dist[u] == INFINITY {
                        continue;
                    }
                    for (v, w) in csr.edges(u) {
                        let through_u = dist[u] as u64 + w as u64;
                        if (dist[v] as u64) > through_u {
                            violations.fetch_add(1, Relaxed);
                            first.fetch_min(v, Relaxed);
                        } else if dist[v] as u64 == through_u {
                            tight[v].store(1, Relaxed);
                        }
                    }
                }
            });
        }
    });
    let untight = (0..n)
        .filter(|&v| v != source && dist[v] != INFINITY && tight[v].load(Relaxed) == 0)
        .inspect(|&v| {
            first.fetch_min(v, Relaxed);
        })
        .count();
    let source_wrong = usize::from(dist[source] != 0);
    if source_wrong > 0 {
        first.fetch_min(source, Relaxed);
    }
    let count = violations.into_inner() + untight + source_wrong;
    if count > 0 {
        let vertex = first.into_inner();
        return Err(Error::Mismatch {
            vertex,
            expected: "a distance that every edge respects and one in-edge attains".into(),
            found: display(WeightKind::U32, dist[vertex]),
            count,
            num_vertices: n,
        });
    }
    Ok(())
}

/// The distances as the atomics that `relax` kernels update (`AtomicU32::from_mut_slice`,
/// which is not stable yet).
pub fn as_atomic(dist: &mut [u32]) -> &[AtomicU32] {
    // SAFETY: `AtomicU32` has the same size and bit validity as `u32` (core
    // documentation) and, as asserted below, the same alignment on this target;
    // the `&mut` borrow makes the returned view the only access while it lives.
    unsafe { &*(dist as *mut [u32] as *const [AtomicU32]) }
}

const _: () = assert!(align_of::<u32>() == align_of::<AtomicU32>());
