//! The PTX of the kernels, compiled from the `gpu-kernels` crate by `build.rs`.

/// The PTX module: one `.entry` per name in [`gpu_kernels::launch::names::ALL`].
pub const PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/kernels.ptx"));

/// The kernels as machine code for [`ARCH`], assembled from [`PTX`] by
/// `ptxas` at build time; empty where the build found no `ptxas` (the
/// driver then compiles the PTX when the kernels load).
pub const CUBIN: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/kernels.cubin"));

/// Whether [`PTX`] was built from the `gpu-kernels` sources (`"source"`, with
/// the pinned nightly) or is the PTX shipped with the crate (`"shipped"`,
/// `host/kernels/kernels.ptx`, on any other toolchain).
pub const BUILT_FROM: &str = env!("SSSP_KERNELS_FROM");

/// The architecture the PTX targets (`SSSP_PTX_ARCH` at build time, default `sm_90`).
pub const ARCH: &str = env!("SSSP_PTX_ARCH");

/// The names of the `.entry` directives in `ptx`, in order.
pub fn entries(ptx: &str) -> Vec<&str> {
    ptx.lines()
        .filter_map(|line| line.trim_start().strip_prefix(".visible .entry "))
        .map(|rest| {
            rest.split(|c: char| c == '(' || c.is_whitespace())
                .next()
                .unwrap_or(rest)
        })
        .collect()
}
