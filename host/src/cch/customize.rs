//! Customization: the weights of a graph on the supergraph's arcs, then the
//! basic customization on the CPU, level after level of the arcs' lower
//! endpoints, in parallel over the arcs of a level
//! ([`gpu_kernels::cch_customize::customize_arc`], the GPU's per-arc step).

use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use gpu_kernels::cch_customize::{ArcWeights, NO_MIDDLE, customize_arc};
use gpu_kernels::distance::{INFINITY, WeightKind};
use rayon::prelude::*;

use super::Cch;
use crate::ch::index::lightest_checksum;
use crate::ch::lightest::Lightest;
use crate::graph::Graph;
use crate::{Error, Result};

/// Arcs of a level that one CPU task customizes at least.
const ARCS_PER_TASK: usize = 256;

/// The weights of every supergraph arc, each direction's with the middle
/// (an id) of the triangle that gave it ([`NO_MIDDLE`]: the graph's arc),
/// and what the hierarchy needs of the graph they came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Customization {
    /// The weight of each arc `(u, v)` from its lower endpoint `u` to `v`
    /// ([`INFINITY`]: none).
    pub forward: Vec<u32>,
    /// The weight from `v` to `u`.
    pub backward: Vec<u32>,
    /// The middle of each forward weight.
    pub forward_middle: Vec<u32>,
    /// The middle of each backward weight.
    pub backward_middle: Vec<u32>,
    /// The graph's weight kind.
    pub weight_kind: WeightKind,
    /// The graph's checksum ([`crate::ch::index::graph_checksum`]).
    pub graph_checksum: u64,
}

impl Cch {
    /// The weights of `graph`'s arcs (the lightest of parallel ones) on the
    /// supergraph's arcs, not customized yet. An error unless `graph` has
    /// `u32` weights, as many vertices, and only arcs the supergraph has.
    pub fn initial_weights(&self, graph: &Graph) -> Result<Customization> {
        let s = &self.graph;
        let n = s.num_vertices();
        if graph.weight_kind() != WeightKind::U32 {
            return Err(Error::InvalidArgument(format!(
                "customizable contraction hierarchies take u32 weights; this graph has {} \
                 weights (build a contraction hierarchy with `host preprocess` instead)",
                graph.weight_kind().name()
            )));
        }
        if graph.num_vertices() != n {
            return Err(Error::InvalidArgument(format!(
                "the customizable hierarchy is of a graph of {n} vertices; this graph has {}",
                graph.num_vertices()
            )));
        }
        let lightest = Lightest::new(graph);
        let words = |fill: u32| -> Vec<AtomicU32> {
            (0..s.num_arcs()).map(|_| AtomicU32::new(fill)).collect()
        };
        let (forward, backward) = (words(INFINITY), words(INFINITY));
        (0..n).into_par_iter().try_for_each(|u| {
            let tail = s.id[u];
            for &(v, w) in lightest.row(u) {
                let head = s.id[v as usize];
                let arc = s.find(tail, head).ok_or_else(|| {
                    Error::InvalidArgument(format!(
                        "the arc {u} → {v} (vertices counted from 0) is not in the customizable \
                         hierarchy's graph (customize with a graph of the same arcs, or a subset \
                         of them)"
                    ))
                })?;
                let side = if tail < head { &forward } else { &backward };
                side[arc].store(w, Relaxed);
            }
            Ok::<(), Error>(())
        })?;
        Ok(Customization {
            forward: plain(forward),
            backward: plain(backward),
            forward_middle: vec![NO_MIDDLE; s.num_arcs()],
            backward_middle: vec![NO_MIDDLE; s.num_arcs()],
            weight_kind: graph.weight_kind(),
            graph_checksum: lightest_checksum(&lightest, graph.weight_kind()),
        })
    }

    /// Customizes `weights` (from [`Cch::initial_weights`]) on the CPU.
    pub fn customize_weights(&self, weights: &mut Customization) {
        let s = &self.graph;
        let words = AtomicWeights::take(weights);
        let (view, triangles) = (words.view(), self.triangles.view(s));
        for l in 0..s.num_levels() {
            s.level_arcs(l)
                .into_par_iter()
                .with_min_len(ARCS_PER_TASK)
                .for_each(|arc| customize_arc::<u32>(triangles, view, arc));
        }
        words.put_back(weights);
    }
}

/// The four words of every arc of a [`Customization`] as atomics, for the
/// per-arc steps that the threads of a level share
/// ([`gpu_kernels::cch_customize`]).
pub(super) struct AtomicWeights {
    forward: Vec<AtomicU32>,
    backward: Vec<AtomicU32>,
    forward_middle: Vec<AtomicU32>,
    backward_middle: Vec<AtomicU32>,
}

impl AtomicWeights {
    /// The words of `weights`, taken out of it (without a copy).
    pub(super) fn take(weights: &mut Customization) -> Self {
        let atomic = |words: &mut Vec<u32>| -> Vec<AtomicU32> {
            std::mem::take(words)
                .into_iter()
                .map(AtomicU32::new)
                .collect()
        };
        AtomicWeights {
            forward: atomic(&mut weights.forward),
            backward: atomic(&mut weights.backward),
            forward_middle: atomic(&mut weights.forward_middle),
            backward_middle: atomic(&mut weights.backward_middle),
        }
    }

    /// The view the per-arc steps take.
    pub(super) fn view(&self) -> ArcWeights<'_> {
        ArcWeights {
            forward: &self.forward,
            backward: &self.backward,
            forward_middle: &self.forward_middle,
            backward_middle: &self.backward_middle,
        }
    }

    /// Puts the words back into `weights`.
    pub(super) fn put_back(self, weights: &mut Customization) {
        weights.forward = plain(self.forward);
        weights.backward = plain(self.backward);
        weights.forward_middle = plain(self.forward_middle);
        weights.backward_middle = plain(self.backward_middle);
    }
}

/// The words of atomic words.
fn plain(words: Vec<AtomicU32>) -> Vec<u32> {
    words.into_iter().map(AtomicU32::into_inner).collect()
}
