//! A customized CCH as a contraction hierarchy ([`crate::ch::Hierarchy`]),
//! so that trees (CPU and GPU PHAST), tables, queries and pairs run on it
//! unchanged.
//!
//! Positions are the ids reversed (`n - 1 - id`): the top level first, each
//! level contiguous. Every supergraph arc `(u, v)`, `u` lower, becomes an up
//! arc `u → v` of its forward weight and a down arc `v → u` of its backward
//! weight, each left out where that weight is infinite (no path). A weight
//! that a triangle gave keeps the triangle's middle, so paths unpack; one
//! that is the graph's arc's keeps [`NO_MIDDLE`].

use gpu_kernels::cch_customize::NO_MIDDLE;
use gpu_kernels::distance::{INFINITY, SATURATED};
use rayon::prelude::*;

use super::Cch;
use super::customize::Customization;
use crate::Result;
use crate::ch::{Arcs, Hierarchy};
use crate::distances;

impl Cch {
    /// The contraction hierarchy of customized `weights`; an error when a
    /// weight does not fit a distance word (a path longer than the largest
    /// distance).
    pub fn hierarchy(&self, weights: &Customization) -> Result<Hierarchy> {
        let s = &self.graph;
        let n = s.num_vertices();
        let saturated = |words: &[u32]| words.par_iter().position_first(|&w| w == SATURATED);
        for words in [&weights.forward, &weights.backward] {
            if let Some(arc) = saturated(words) {
                let count = words.par_iter().filter(|&&w| w == SATURATED).count();
                let vertex = s.vertex[s.tails[arc] as usize] as usize;
                return Err(distances::overflow(weights.weight_kind, vertex, count));
            }
        }
        let position = |id: u32| n as u32 - 1 - id;
        let levels = s.num_levels();
        let level_starts = (0..=levels)
            .map(|k| n as u32 - s.level_starts[levels - k])
            .collect();
        let vertex = (0..n).map(|p| s.vertex[n - 1 - p]).collect();
        let hierarchy_position = s.id.iter().map(|&i| position(i)).collect();
        let arcs = |words: &[u32], middles: &[u32]| -> Arcs {
            let rows: Vec<Vec<(u32, u32, u32)>> = (0..n)
                .into_par_iter()
                .map(|p| {
                    s.range(n - 1 - p)
                        .rev()
                        .filter(|&a| words[a] != INFINITY)
                        .map(|a| {
                            let middle = match middles[a] {
                                NO_MIDDLE => NO_MIDDLE,
                                m => position(m),
                            };
                            (position(s.heads[a]), words[a], middle)
                        })
                        .collect()
                })
                .collect();
            Arcs::from_rows(rows)
        };
        Ok(Hierarchy {
            weight_kind: weights.weight_kind,
            graph_checksum: weights.graph_checksum,
            position: hierarchy_position,
            vertex,
            level_starts,
            up: arcs(&weights.forward, &weights.forward_middle),
            down: arcs(&weights.backward, &weights.backward_middle),
        })
    }
}
