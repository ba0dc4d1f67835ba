//! What tells the DA2CF variants apart, shared by the CPU and GPU solvers.

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
