//! The kernel of the CCH customization ([`crate::gpu::cch`]).

use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaModule, CudaSlice, CudaStream};
use gpu_kernels::args::CchCustomizeArgs;
use gpu_kernels::launch::names;

use super::launch::{Launch, check_lengths, device, launch, load_function, one_thread_per};
use crate::{Error, Result};

/// A CCH's triangles and arc tails on the device.
pub struct DeviceTriangles {
    /// Row offsets of the arcs' triangles, `m + 1`.
    pub offsets: CudaSlice<u32>,
    /// The arc `(x, u)` of each triangle.
    pub lower: CudaSlice<u32>,
    /// The arc `(x, v)` of each triangle.
    pub upper: CudaSlice<u32>,
    /// The lower endpoint of each arc, `m`.
    pub tails: CudaSlice<u32>,
    /// Arcs.
    pub m: u32,
    /// Triangles.
    pub triangles: u32,
}

/// The weights being customized on the device, `m` words each.
pub struct DeviceArcWeights {
    /// Forward weights.
    pub forward: CudaSlice<u32>,
    /// Backward weights.
    pub backward: CudaSlice<u32>,
    /// Middles of the forward weights.
    pub forward_middle: CudaSlice<u32>,
    /// Middles of the backward weights.
    pub backward_middle: CudaSlice<u32>,
}

/// The CCH kernels.
pub struct CchKernels {
    customize: CudaFunction,
    customize_warps: CudaFunction,
}

impl CchKernels {
    /// Resolves the CCH kernels in `module`.
    pub fn load(module: &Arc<CudaModule>) -> Result<Self> {
        Ok(CchKernels {
            customize: load_function(module, names::CCH_CUSTOMIZE)?,
            customize_warps: load_function(module, names::CCH_CUSTOMIZE_WARPS)?,
        })
    }

    /// `cch_customize` (`warps`: `cch_customize_warps`, one warp an arc):
    /// the arcs `arcs` of one level, whose triangles use only arcs before
    /// `arcs.start` (the caller's supergraph, validated, is numbered so).
    pub fn customize(
        &self,
        stream: &Arc<CudaStream>,
        triangles: &DeviceTriangles,
        weights: &mut DeviceArcWeights,
        (arcs, warps): (std::ops::Range<u32>, bool),
    ) -> Result<()> {
        let (function, kernel, threads_per_arc) = match warps {
            false => (&self.customize, names::CCH_CUSTOMIZE, 1),
            true => (&self.customize_warps, names::CCH_CUSTOMIZE_WARPS, 32),
        };
        let (m, t) = (triangles.m as usize, triangles.triangles as usize);
        if arcs.end as usize > m {
            return Err(Error::Internal(format!(
                "{kernel}: arcs up to {} of {m}",
                arcs.end
            )));
        }
        check_lengths(
            kernel,
            &[
                ("triangle_offsets", triangles.offsets.len(), m + 1),
                ("lower", triangles.lower.len(), t),
                ("upper", triangles.upper.len(), t),
                ("tails", triangles.tails.len(), m),
                ("forward", weights.forward.len(), m),
                ("backward", weights.backward.len(), m),
                ("forward_middle", weights.forward_middle.len(), m),
                ("backward_middle", weights.backward_middle.len(), m),
            ],
        )?;
        let count = arcs.end.saturating_sub(arcs.start);
        if count == 0 {
            return Ok(());
        }
        let threads = count.checked_mul(threads_per_arc).ok_or_else(|| {
            Error::Internal(format!(
                "{kernel}: {count} arcs of {threads_per_arc} threads"
            ))
        })?;
        let args = CchCustomizeArgs {
            triangle_offsets: device(stream, &triangles.offsets),
            lower: device(stream, &triangles.lower),
            upper: device(stream, &triangles.upper),
            tails: device(stream, &triangles.tails),
            m: m as u32,
            triangles: t as u32,
            forward: device(stream, &weights.forward),
            backward: device(stream, &weights.backward),
            forward_middle: device(stream, &weights.forward_middle),
            backward_middle: device(stream, &weights.backward_middle),
            first: arcs.start,
            count,
        };
        let function = (function, kernel);
        // SAFETY: the lengths are checked above; the triangles come from a
        // validated supergraph (offsets from 0 to `t`, arcs `< m`, each of a
        // lower level than the arcs of this launch).
        unsafe {
            launch(
                stream,
                function,
                one_thread_per(threads),
                &args,
                Launch::Plain,
            )
        }
    }
}
