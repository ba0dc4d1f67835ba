//! Graphs made from graphs at load time: `--undirected` (every arc in both
//! directions) and `--unweighted` (every weight 1).

use crate::graph::{CsrArray, CsrDefect, Graph, WeightKind};

impl Graph<'_> {
    /// The graph with every arc `u → v` also as `v → u`, same weight: for
    /// files that list each undirected edge once (SNAP, Matrix Market
    /// `general`). A file that lists both directions gets each arc twice,
    /// which changes no distance. Each vertex's own arcs come first, in order.
    pub fn undirected(&self) -> Result<Graph<'static>, CsrDefect> {
        let n = self.num_vertices();
        let m = self.num_edges();
        let doubled = u32::try_from(2 * m).map_err(|_| CsrDefect {
            array: CsrArray::Targets,
            index: 0,
            reason: format!(
                "{} arcs in both directions do not fit 32-bit offsets",
                2 * m
            ),
        })?;
        let (offsets, targets, weights) = (self.offsets(), self.targets(), self.weights());
        let mut degree = vec![0u32; n + 1];
        for v in 0..n {
            degree[v + 1] += offsets[v + 1] - offsets[v];
        }
        for &t in targets {
            degree[t as usize + 1] += 1;
        }
        for v in 0..n {
            degree[v + 1] += degree[v];
        }
        debug_assert_eq!(degree[n], doubled);
        let new_offsets = degree.clone();
        let mut next = degree;
        let mut new_targets = vec![0u32; 2 * m];
        let mut new_weights = vec![0u32; 2 * m];
        for u in 0..n {
            for e in offsets[u] as usize..offsets[u + 1] as usize {
                let slot = next[u] as usize;
                new_targets[slot] = targets[e];
                new_weights[slot] = weights[e];
                next[u] += 1;
            }
        }
        for u in 0..n {
            for e in offsets[u] as usize..offsets[u + 1] as usize {
                let v = targets[e] as usize;
                let slot = next[v] as usize;
                new_targets[slot] = u as u32;
                new_weights[slot] = weights[e];
                next[v] += 1;
            }
        }
        Graph::new(new_offsets, new_targets, new_weights)?.with_weight_kind(self.weight_kind())
    }

    /// The same arcs, every weight 1 (`u32`): hop counts.
    pub fn unweighted(&self) -> Result<Graph<'static>, CsrDefect> {
        let ones = vec![1u32; self.num_edges()];
        Graph::new(self.offsets().to_vec(), self.targets().to_vec(), ones)?
            .with_weight_kind(WeightKind::U32)
    }
}
