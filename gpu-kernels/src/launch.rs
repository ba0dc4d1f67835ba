//! What the host needs to launch the kernels: their PTX entry names, block sizes
//! and shared-memory sizes. Defined once here; the host uses these constants and a
//! test checks that every name is an `.entry` of the built PTX.

/// Threads per block of every kernel (the papers use 256). The `minimum` kernels
/// need a power of two.
pub const BLOCK_SIZE: u32 = 256;

/// Dynamic shared memory of a `minimum` block: one `u32` slot per thread.
pub const MINIMUM_SHARED_BYTES: u32 = BLOCK_SIZE * 4;

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

    /// Every kernel, for loading them all at once and for the PTX check.
    pub const ALL: &[&str] = &[
        DA2CF_INITIALIZE,
        DA2CF_RELAX_F,
        DA2CF_MINIMUM1,
        DA2CF_MINIMUM2,
        DA2CF_UPDATE,
    ];
}

const _: () = assert!(BLOCK_SIZE.is_power_of_two());
