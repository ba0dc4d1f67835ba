//! Reductions over the trees of an index, on the CPU (the GPU's are in
//! [`crate::gpu::phast`]), with the same per-thread logic
//! ([`gpu_kernels::reductions`]): per source, the vertices within a
//! distance limit and the sum of a per-vertex value over them; over all
//! sources, each vertex's nearest source.

use gpu_kernels::reductions::{Within, nearest_update, within_part};
use rayon::prelude::*;

use super::index::Hierarchy;
use super::phast::{CPU_LANES, gather_row, sweep_into, trees};

/// Per-vertex values to sum over the vertices within a limit, by graph
/// vertex; summed as `f64` whatever their type.
#[derive(Clone, Copy, Debug)]
pub enum Values<'a> {
    /// Double-precision values.
    F64(&'a [f64]),
    /// Single-precision values.
    F32(&'a [f32]),
}

impl Values<'_> {
    /// Values.
    pub fn len(&self) -> usize {
        match self {
            Values::F64(v) => v.len(),
            Values::F32(v) => v.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The values as `f64`.
    pub fn to_f64(&self) -> Vec<f64> {
        match self {
            Values::F64(v) => v.to_vec(),
            Values::F32(v) => v.iter().map(|&x| f64::from(x)).collect(),
        }
    }
}

/// Each vertex's distance from its nearest source and that source.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Nearest {
    /// Distance words by graph vertex (`INFINITY`: no source reaches it).
    pub dist: Vec<u32>,
    /// The index in the sources of the nearest source, the smallest index
    /// on ties ([`gpu_kernels::reductions::NO_SOURCE`]: none).
    pub source: Vec<u32>,
}

/// [`within_part`] of each source's tree in graph order (one lane, every
/// vertex), `values` by graph vertex (empty: none). Each thread reuses its
/// batch's distances and row from batch to batch ([`sweep_into`]).
pub fn within(h: &Hierarchy, sources: &[usize], limit: u32, values: &[f64]) -> Vec<Within> {
    sources
        .par_chunks(CPU_LANES)
        .map_init(
            || (Vec::new(), Vec::new()),
            |(dist, row), batch| {
                sweep_into(h, batch, dist);
                (0..batch.len())
                    .map(|lane| {
                        gather_row(h, dist, (batch.len(), lane), row);
                        within_part(row, (1, 0), (0, 1), limit, values)
                    })
                    .collect::<Vec<_>>()
            },
        )
        .flatten_iter()
        .collect()
}

/// Each vertex's nearest of `sources` ([`nearest_update`], sources in
/// increasing index): distance words and source indices by graph vertex.
pub fn nearest(h: &Hierarchy, sources: &[usize]) -> Nearest {
    let n = h.num_vertices();
    let mut best = Nearest {
        dist: vec![gpu_kernels::distance::INFINITY; n],
        source: vec![gpu_kernels::reductions::NO_SOURCE; n],
    };
    let chunk = CPU_LANES * rayon::current_num_threads();
    for (c, batch) in sources.chunks(chunk).enumerate() {
        let rows = trees(h, batch);
        let first = (c * chunk) as u32;
        best.dist
            .par_iter_mut()
            .zip(&mut best.source)
            .enumerate()
            .for_each(|(v, (d, from))| {
                for (i, row) in rows.iter().enumerate() {
                    nearest_update(row[v], first + i as u32, d, from);
                }
            });
    }
    best
}
