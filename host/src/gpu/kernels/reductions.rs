//! The kernels of the reductions over a sweep's trees
//! ([`gpu_kernels::reductions`]).

use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaModule, CudaSlice, CudaStream};
use gpu_kernels::args::{
    ReductionsNearestArgs, ReductionsWithinPartArgs, ReductionsWithinTotalArgs,
};
use gpu_kernels::launch::names;
use gpu_kernels::reductions::WITHIN_TOTAL_THREADS;

use super::launch::{Launch, check_lengths, device, launch, load_function, one_thread_per};
use crate::{Error, Result};

/// The reduction kernels.
pub struct ReductionsKernels {
    within_part: CudaFunction,
    within_total: CudaFunction,
    nearest: CudaFunction,
}

/// The device buffers of a `within` reduction: each thread's parts and the
/// results of every source.
pub struct WithinBuffers {
    /// Values by position (`n`), or one unused word without values.
    pub values: CudaSlice<f64>,
    /// Whether `values` holds values.
    pub has_values: bool,
    /// Parts per lane.
    pub strides: u32,
    /// Each part's (count, saturated), `2 * lanes * strides`.
    pub part_counts: CudaSlice<u32>,
    /// Each part's sum, `lanes * strides`.
    pub part_sums: CudaSlice<f64>,
    /// Each source's (count, saturated), two words a source.
    pub counts: CudaSlice<u32>,
    /// Each source's sum.
    pub sums: CudaSlice<f64>,
}

impl ReductionsKernels {
    /// Resolves the reduction kernels in `module`.
    pub fn load(module: &Arc<CudaModule>) -> Result<Self> {
        Ok(ReductionsKernels {
            within_part: load_function(module, names::REDUCTIONS_WITHIN_PART)?,
            within_total: load_function(module, names::REDUCTIONS_WITHIN_TOTAL)?,
            nearest: load_function(module, names::REDUCTIONS_NEAREST)?,
        })
    }

    /// The vertices within `limit` (and their values' sum) of the first
    /// `count` of `lanes` interleaved trees in `dist` (of `n` vertices), as
    /// result rows `first_row..first_row + count` of `buffers`.
    pub fn within(
        &self,
        stream: &Arc<CudaStream>,
        dist: &CudaSlice<u32>,
        (n, lanes, count): (u32, u32, u32),
        (limit, first_row): (u32, u32),
        buffers: &mut WithinBuffers,
    ) -> Result<()> {
        let b = buffers;
        let (l, s) = (lanes as usize, b.strides as usize);
        let rows_end = first_row as usize + count as usize;
        let values_len = if b.has_values { n } else { 0 };
        let kernel = names::REDUCTIONS_WITHIN_PART;
        check_lengths(
            kernel,
            &[
                ("dist", dist.len(), n as usize * l),
                ("values", b.values.len(), values_len as usize),
                ("part_counts", b.part_counts.len(), 2 * l * s),
                ("part_sums", b.part_sums.len(), l * s),
                ("counts", b.counts.len(), 2 * rows_end),
                ("sums", b.sums.len(), rows_end),
            ],
        )?;
        if count > lanes || l * s > u32::MAX as usize / 2 {
            return Err(Error::Internal(format!(
                "{kernel}: {count} of {lanes} lanes, {s} parts each"
            )));
        }
        if count == 0 {
            return Ok(());
        }
        let part = ReductionsWithinPartArgs {
            dist: device(stream, dist),
            n,
            lanes,
            strides: b.strides,
            limit,
            values: device(stream, &b.values),
            values_len,
            counts: device(stream, &b.part_counts),
            sums: device(stream, &b.part_sums),
        };
        // SAFETY: lengths checked above; each thread writes its own part.
        unsafe {
            launch(
                stream,
                (&self.within_part, kernel),
                one_thread_per((l * s) as u32),
                &part,
                Launch::Plain,
            )?;
        }
        let total = ReductionsWithinTotalArgs {
            counts: device(stream, &b.part_counts),
            sums: device(stream, &b.part_sums),
            lanes,
            strides: b.strides,
            count,
            first_row,
            out_counts: device(stream, &b.counts),
            out_sums: device(stream, &b.sums),
            rows_len: b.sums.len().min(u32::MAX as usize) as u32,
        };
        let function = (&self.within_total, names::REDUCTIONS_WITHIN_TOTAL);
        let threads = count
            .checked_mul(WITHIN_TOTAL_THREADS as u32)
            .ok_or_else(|| Error::Internal(format!("{count} totals of a within reduction")))?;
        // SAFETY: lengths checked above; each warp writes its own result
        // row; blocks of `one_thread_per` are whole warps.
        unsafe {
            launch(
                stream,
                function,
                one_thread_per(threads),
                &total,
                Launch::Plain,
            )
        }
    }

    /// Each position's best distance and nearest source index so far
    /// (`best`, `from`, `n` each) against the first `count` of `lanes`
    /// interleaved trees in `dist`, lane 0 being source index
    /// `first_source`.
    pub fn nearest(
        &self,
        stream: &Arc<CudaStream>,
        dist: &CudaSlice<u32>,
        (n, lanes, count): (u32, u32, u32),
        first_source: u32,
        (best, from): (&mut CudaSlice<u32>, &mut CudaSlice<u32>),
    ) -> Result<()> {
        let kernel = names::REDUCTIONS_NEAREST;
        check_lengths(
            kernel,
            &[
                ("dist", dist.len(), n as usize * lanes as usize),
                ("best", best.len(), n as usize),
                ("from", from.len(), n as usize),
            ],
        )?;
        if count > lanes {
            return Err(Error::Internal(format!(
                "{kernel}: {count} of {lanes} lanes"
            )));
        }
        let args = ReductionsNearestArgs {
            dist: device(stream, dist),
            n,
            lanes,
            count,
            first_source,
            best: device(stream, best),
            from: device(stream, from),
        };
        // SAFETY: lengths checked above; each thread writes its own
        // position.
        unsafe {
            launch(
                stream,
                (&self.nearest, kernel),
                one_thread_per(n),
                &args,
                Launch::Plain,
            )
        }
    }
}
