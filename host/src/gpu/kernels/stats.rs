//! The measuring mode's counting kernel.

use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaModule, CudaSlice, CudaStream};
use gpu_kernels::args::StatsCountFlagsArgs;
use gpu_kernels::launch::names;

use super::launch::{Launch, check_lengths, device, launch, load_function, one_thread_per};
use crate::Result;

/// The measuring-mode kernels.
pub struct StatsKernels {
    count_flags: CudaFunction,
}

impl StatsKernels {
    /// Resolves the measuring-mode kernels in `module`.
    pub fn load(module: &Arc<CudaModule>) -> Result<Self> {
        Ok(StatsKernels {
            count_flags: load_function(module, names::STATS_COUNT_FLAGS)?,
        })
    }

    /// Adds the number of set flags among `flags[..n]` to `counter[0]`.
    pub fn count_flags(
        &self,
        stream: &Arc<CudaStream>,
        flags: &CudaSlice<u8>,
        n: u32,
        counter: &mut CudaSlice<u64>,
    ) -> Result<()> {
        let kernel = names::STATS_COUNT_FLAGS;
        check_lengths(
            kernel,
            &[
                ("flags", flags.len(), n as usize),
                ("counter", counter.len(), 1),
            ],
        )?;
        let args = StatsCountFlagsArgs {
            flags: device(stream, flags),
            n,
            counter: device(stream, counter),
        };
        let function = (&self.count_flags, kernel);
        // SAFETY: flags holds n elements and counter one (checked above).
        unsafe { launch(stream, function, one_thread_per(n), &args, Launch::Plain) }
    }
}
