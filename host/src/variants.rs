//! What tells the DA2CF variants apart, shared by the CPU and GPU solvers.

use crate::graph::{Graph, with_weight_type};
use crate::{Error, Result};

/// How `relax` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relax {
    /// `relax_F`: frontier vertices push to successors with an atomic minimum.
    Push,
    /// `relax_F` with a plain minimum: racy, for measurement only (GPU only).
    PushNoAtomic,
    /// `relax_U`: unsettled vertices pull from frontier predecessors.
    Pull,
    /// `relax_U` of U^GPU_PLUS (shared-memory offsets, read-only-cache flags; GPU only).
    PullPlus,
}

impl Relax {
    /// Whether it walks the predecessor CSR.
    pub fn is_pull(self) -> bool {
        matches!(self, Relax::Pull | Relax::PullPlus)
    }
}

/// A DA2CF variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Da2cfConfig {
    /// The `relax` kernel (on the CPU, [`Relax::Push`] or [`Relax::Pull`]).
    pub relax: Relax,
    /// The settling rule.
    pub frontier: Frontier,
    /// GPU passes of the minimum reduction: 1 or 2. The matrix solver and
    /// the CPU loops, which emulate the GPU's reduction, always run 2.
    pub minimum_passes: u8,
}

/// The settling rule of the compacted DA2CF (`fast`, `fast-crauser`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompactRule {
    /// Martín's: the vertices at the smallest tentative distance.
    Martin,
    /// Crauser's general rule: `dist <= min(dist(u) + Δ_node(u))`.
    Crauser,
}

/// Which vertices each iteration settles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frontier {
    /// Martín et al.: those at the minimum distance.
    Martin,
    /// Crauser general (Ortega-Arranz et al.): those with
    /// `dist <= min(dist(u) + Δ_node(u))` over unsettled `u`.
    CrauserGeneral,
    /// Crauser economic: those with `dist <= min dist(u) + Δ_base`.
    CrauserEconomic,
}

/// The smallest weight of the graph (`Δ_base` of Crauser's economic variant),
/// with `u32::MAX` stored as `SATURATED` as in `Δ_node`; infinity without edges.
pub fn delta_base(weights: &[u32]) -> u32 {
    use gpu_kernels::distance::{INFINITY, SATURATED};
    weights.iter().min().map_or(INFINITY, |&w| w.min(SATURATED))
}

/// Near-far's band width `Δ` for `graph`, a weight word: the given one, or
/// [`auto_delta`](gpu_kernels::near_far::auto_delta) when `None`. A zero
/// width, which would never advance the band, is refused.
pub fn near_far_delta(graph: &Graph, delta: Option<u32>) -> Result<u32> {
    match delta {
        Some(0) => Err(Error::InvalidArgument(
            "near-far's band width Δ must be positive".into(),
        )),
        Some(delta) => Ok(delta),
        None => Ok(with_weight_type!(graph.weight_kind(), W => {
            gpu_kernels::near_far::auto_delta::<W>(graph.csr())
        })),
    }
}
