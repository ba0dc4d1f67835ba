//! Shortest-path trees from a hierarchy on the CPU (PHAST): the upward search
//! from the source, then one sweep over the positions in increasing order
//! that takes, for each vertex, the smaller of its upward distance and the
//! best of its down arcs. A down arc comes from a higher vertex, whose
//! distance the sweep has already made final.
//!
//! Each thread sweeps [`CPU_LANES`] sources at once, their distances
//! interleaved (`dist[v * lanes + lane]`), so that one read of an arc serves
//! them all and their distances share cache lines; threads take such batches
//! in parallel.

use gpu_kernels::distance::{INFINITY, Weight};
use rayon::prelude::*;

use super::index::Hierarchy;
use super::query::upward_search;
use crate::graph::with_weight_type;

/// Sources one CPU thread sweeps together: 8 distances fill 32 bytes, half a
/// cache line.
pub const CPU_LANES: usize = 8;

/// The distance words from graph vertex `source` to every graph vertex.
pub fn tree(h: &Hierarchy, source: usize) -> Vec<u32> {
    trees(h, &[source]).pop().unwrap_or_default()
}

/// [`tree`] for every source: batches of [`CPU_LANES`] in parallel, each
/// thread's interleaved distances reused from batch to batch.
pub fn trees(h: &Hierarchy, sources: &[usize]) -> Vec<Vec<u32>> {
    sources
        .par_chunks(CPU_LANES)
        .map_init(Vec::new, |dist, batch| {
            sweep_into(h, batch, dist);
            (0..batch.len())
                .map(|lane| {
                    let mut row = Vec::new();
                    gather_row(h, dist, (batch.len(), lane), &mut row);
                    row
                })
                .collect::<Vec<_>>()
        })
        .flatten_iter()
        .collect()
}

/// The trees of `sources` (at most [`CPU_LANES`] graph vertices) into
/// `dist`, interleaved by position (`dist[p * sources.len() + lane]`): its
/// memory is reused, so that a thread's batches allocate nothing. (Where
/// large allocations are mapped and unmapped each time, as under a fixed
/// `MALLOC_TRIM_THRESHOLD_`, a fresh buffer per batch cost more page faults
/// than sweeps.)
pub(super) fn sweep_into(h: &Hierarchy, sources: &[usize], dist: &mut Vec<u32>) {
    dist.clear();
    dist.resize(h.num_vertices() * sources.len(), INFINITY);
    with_weight_type!(h.weight_kind, W => sweep_batch::<W>(h, sources, dist));
}

/// Lane `lane` of the `lanes` interleaved trees of [`sweep_into`] in graph
/// order, into `row` (its memory reused).
pub(super) fn gather_row(
    h: &Hierarchy,
    dist: &[u32],
    (lanes, lane): (usize, usize),
    row: &mut Vec<u32>,
) {
    row.clear();
    row.extend(h.position.iter().map(|&p| dist[p as usize * lanes + lane]));
}

/// The trees of `sources` (graph vertices) into `dist` (all infinite,
/// `n * sources.len()` words), interleaved by position; `W` is the weights'
/// type.
fn sweep_batch<W: Weight>(h: &Hierarchy, sources: &[usize], dist: &mut [u32]) {
    let lanes = sources.len();
    for (lane, &s) in sources.iter().enumerate() {
        let space = upward_search(h, &h.up, h.position[s]);
        for (&v, &d) in space.vertices.iter().zip(&space.dist) {
            dist[v as usize * lanes + lane] = d;
        }
    }
    let down = &h.down;
    let mut best = [INFINITY; CPU_LANES];
    for v in 0..h.num_vertices() {
        let row = v * lanes;
        best[..lanes].copy_from_slice(&dist[row..row + lanes]);
        for e in down.range(v) {
            let from = down.ends[e] as usize * lanes;
            let w = down.weights[e];
            for (b, &d) in best[..lanes].iter_mut().zip(&dist[from..from + lanes]) {
                *b = (*b).min(W::extend(d, w));
            }
        }
        dist[row..row + lanes].copy_from_slice(&best[..lanes]);
    }
}
