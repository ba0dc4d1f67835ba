//! What the host needs to launch the kernels: their PTX entry names, block sizes
//! and shared-memory sizes. Defined once here; the host uses these constants and a
//! test checks that every name is an `.entry` of the built PTX.

/// Threads per block of every kernel (the papers use 256). The `minimum` kernels
/// need a power of two.
pub const BLOCK_SIZE: u32 = 256;

/// Dynamic shared memory of a `minimum` block: one `u32` slot per thread.
pub const MINIMUM_SHARED_BYTES: u32 = BLOCK_SIZE * 4;

/// Dynamic shared memory of a `relax_u_plus` block: the row offsets of its
/// vertices and the one after.
pub const RELAX_PLUS_SHARED_BYTES: u32 = (BLOCK_SIZE + 1) * 4;

/// PTX entry names, one constant per kernel.
pub mod names {
    /// `initialize` of Fig. 2.
    pub const DA2CF_INITIALIZE: &str = "da2cf_initialize";
    /// `relax_F` of Fig. 3 (push, atomic minimum).
    pub const DA2CF_RELAX_F: &str = "da2cf_relax_f";
    /// `minimum1` of Fig. 4: masked distances to per-block minima.
    pub const DA2CF_MINIMUM1: &str = "da2cf_minimum1";
    /// `minimum2`: per-block minima reduced once more.
    pub const DA2CF_MINIMUM2: &str = "da2cf_minimum2";
    /// `update` of Fig. 4.
    pub const DA2CF_UPDATE: &str = "da2cf_update";
    /// `relax_F` without atomics (F^GPU_no_Atomic; racy, measurement only).
    pub const DA2CF_RELAX_F_NO_ATOMIC: &str = "da2cf_relax_f_no_atomic";
    /// `relax_U` of Fig. 3 (pull, over the predecessor CSR).
    pub const DA2CF_RELAX_U: &str = "da2cf_relax_u";
    /// `relax_U` of U^GPU_PLUS (shared-memory offsets, read-only-cache flags).
    pub const DA2CF_RELAX_U_PLUS: &str = "da2cf_relax_u_plus";
    /// Crauser: `Δ_node` from the successor CSR.
    pub const CRAUSER_DELTA_NODE_SUCC: &str = "crauser_delta_node_succ";
    /// Crauser: `Δ_node` from the predecessor CSR (atomic minimum).
    pub const CRAUSER_DELTA_NODE_PRED: &str = "crauser_delta_node_pred";
    /// Crauser general: `minimum1` of `dist + Δ_node`.
    pub const CRAUSER_MINIMUM1: &str = "crauser_minimum1";
    /// Crauser: settle unsettled vertices with `dist <= Δ`.
    pub const CRAUSER_UPDATE: &str = "crauser_update";

    /// Every kernel, for loading them all at once and for the PTX check.
    pub const ALL: &[&str] = &[
        DA2CF_INITIALIZE,
        DA2CF_RELAX_F,
        DA2CF_MINIMUM1,
        DA2CF_MINIMUM2,
        DA2CF_UPDATE,
        DA2CF_RELAX_F_NO_ATOMIC,
        DA2CF_RELAX_U,
        DA2CF_RELAX_U_PLUS,
        CRAUSER_DELTA_NODE_SUCC,
        CRAUSER_DELTA_NODE_PRED,
        CRAUSER_MINIMUM1,
        CRAUSER_UPDATE,
    ];
}

const _: () = assert!(BLOCK_SIZE.is_power_of_two());
