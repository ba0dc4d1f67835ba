//! The kernel that delivers a renumbered solver's row in the caller's vertex
//! order ([`gpu_kernels::rows`]).

use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaModule, CudaSlice, CudaStream};
use gpu_kernels::args::RowsGatherArgs;
use gpu_kernels::launch::names;
use gpu_kernels::rows::ROW_FLAGS;

use super::launch::{Launch, check_lengths, device, launch, load_function, one_thread_per};
use crate::Result;

/// The row kernels.
pub struct RowsKernels {
    gather: CudaFunction,
}

impl RowsKernels {
    /// Resolves the row kernels in `module`.
    pub fn load(module: &Arc<CudaModule>) -> Result<Self> {
        Ok(RowsKernels {
            gather: load_function(module, names::ROWS_GATHER)?,
        })
    }

    /// `out[v] = dist[new_of_old[v]]` for the `n = new_of_old.len()`
    /// vertices, unreached above the stop's bound (`limit`, and the distance
    /// of `target_new` unless it is `INFINITY`), saturated entries counted
    /// into the [`ROW_FLAGS`] words after them (`out` holds `n + ROW_FLAGS`;
    /// the flags are zeroed here first). Every entry of `new_of_old` and
    /// `target_new` must be below `dist.len()`: the caller's permutation.
    pub fn gather(
        &self,
        stream: &Arc<CudaStream>,
        (dist, new_of_old): (&CudaSlice<u32>, &CudaSlice<u32>),
        (limit, target_new): (u32, u32),
        out: &mut CudaSlice<u32>,
    ) -> Result<()> {
        let kernel = names::ROWS_GATHER;
        let n = new_of_old.len();
        check_lengths(kernel, &[("out", out.len(), n + ROW_FLAGS)])?;
        let (row, mut flags) = out.split_at_mut(n);
        stream
            .memset_zeros(&mut flags)
            .map_err(crate::Error::cuda("clearing a row's flags"))?;
        let args = RowsGatherArgs {
            dist: device(stream, dist),
            dist_len: dist.len() as u32,
            new_of_old: device(stream, new_of_old),
            n: n as u32,
            limit,
            target_new,
            out: device(stream, &row),
            flags: device(stream, &flags),
        };
        let function = (&self.gather, kernel);
        // SAFETY: out holds n elements and then ROW_FLAGS (checked above);
        // new_of_old's entries and target_new index dist (the caller's
        // permutation, as documented).
        unsafe {
            launch(
                stream,
                function,
                one_thread_per(n as u32),
                &args,
                Launch::Plain,
            )
        }
    }
}
