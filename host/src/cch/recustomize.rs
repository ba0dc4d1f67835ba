//! Partial re-customization: new weights on a customized CCH that
//! recompute only the arcs whose customized weight can change (RoutingKit's
//! partial customization). An arc is recomputed when its own weight changed
//! or an arc of one of its lower triangles changed its customized weight;
//! the result is word for word what a whole customization of the new
//! weights gives ([`Cch::customize_weights`]).
//!
//! The arcs that an arc `(x, u)` (`x` the lower end) is a triangle side of
//! are the arcs `{u, v}` for every other higher neighbour `v` of `x` (the
//! supergraph is chordal, so they exist). Levels are processed bottom-up, as
//! in a whole customization, in parallel over a level's marked arcs.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicUsize};

use gpu_kernels::cch_customize::{ArcWeights, NO_MIDDLE, customize_arc};
use rayon::prelude::*;

use super::Cch;
use super::customize::{AtomicWeights, Customization};
use crate::{Error, Result};

impl Cch {
    /// Turns `customized`, the customization of the initial weights
    /// `old_initial` ([`Cch::initial_weights`]), into the customization of
    /// `new_initial`, recomputing only the arcs whose weight can change;
    /// how many were recomputed.
    pub fn recustomize(
        &self,
        old_initial: &Customization,
        new_initial: &Customization,
        customized: &mut Customization,
    ) -> Result<usize> {
        let s = &self.graph;
        let m = s.num_arcs();
        for (what, c) in [
            ("old initial", old_initial),
            ("new initial", new_initial),
            ("customized", customized as &Customization),
        ] {
            let lengths = [
                c.forward.len(),
                c.backward.len(),
                c.forward_middle.len(),
                c.backward_middle.len(),
            ];
            if lengths.iter().any(|&len| len != m) {
                return Err(Error::InvalidArgument(format!(
                    "the {what} weights have {lengths:?} words; this customizable hierarchy \
                     has {m} arcs"
                )));
            }
        }
        let dirty: Vec<AtomicBool> = (0..m)
            .into_par_iter()
            .map(|a| {
                AtomicBool::new(
                    old_initial.forward[a] != new_initial.forward[a]
                        || old_initial.backward[a] != new_initial.backward[a],
                )
            })
            .collect();
        let words = AtomicWeights::take(customized);
        let view = words.view();
        let ArcWeights {
            forward,
            backward,
            forward_middle,
            backward_middle,
        } = view;
        let triangles = self.triangles.view(s);
        let recomputed = AtomicUsize::new(0);
        for l in 0..s.num_levels() {
            s.level_arcs(l)
                .into_par_iter()
                .filter(|&a| dirty[a].load(Relaxed))
                .for_each(|a| {
                    recomputed.fetch_add(1, Relaxed);
                    let before = (forward[a].load(Relaxed), backward[a].load(Relaxed));
                    forward[a].store(new_initial.forward[a], Relaxed);
                    backward[a].store(new_initial.backward[a], Relaxed);
                    forward_middle[a].store(NO_MIDDLE, Relaxed);
                    backward_middle[a].store(NO_MIDDLE, Relaxed);
                    customize_arc::<u32>(triangles, view, a);
                    if (forward[a].load(Relaxed), backward[a].load(Relaxed)) != before {
                        // Every arc that `a` is a triangle side of.
                        let (x, u) = (s.tails[a], s.heads[a]);
                        for e in s.range(x as usize) {
                            let v = s.heads[e];
                            if v != u
                                && let Some(above) = s.find(u, v)
                            {
                                dirty[above].store(true, Relaxed);
                            }
                        }
                    }
                });
        }
        words.put_back(customized);
        customized.weight_kind = new_initial.weight_kind;
        customized.graph_checksum = new_initial.graph_checksum;
        Ok(recomputed.into_inner())
    }
}
