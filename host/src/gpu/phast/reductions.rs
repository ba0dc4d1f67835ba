//! Reductions over PHAST's trees on the GPU that copy no tree: each batch
//! is swept, then reduced where it lies ([`gpu_kernels::reductions`]); only
//! the results come back.

use gpu_kernels::reductions::Within;

use super::GpuPhast;
use super::{alloc_zeroed, upload};
use crate::ch::index::Hierarchy;
use crate::gpu::kernels::WithinBuffers;
use crate::{Error, Result};

/// Threads of a `within` reduction, about: enough to fill the GPU.
const WITHIN_THREADS: usize = 1 << 18;

impl GpuPhast<'_> {
    /// Uploads `values` (by graph vertex, or none: sums 0) for the next
    /// [`GpuPhast::within`] calls, and the buffers they need.
    pub fn keep_within_values(&mut self, h: &Hierarchy, values: Option<&[f64]>) -> Result<()> {
        let n = self.down.n as usize;
        let lanes = self.lanes();
        let stream = self.gpu.stream().clone();
        let by_position = match values {
            Some(values) => {
                let mut by_position = vec![0.0; n];
                for (&p, &x) in h.position.iter().zip(values) {
                    by_position[p as usize] = x;
                }
                by_position
            }
            None => vec![0.0],
        };
        let strides = (WITHIN_THREADS / lanes).clamp(1, n.max(1));
        let rows = match self.within.take() {
            Some(kept) => kept.sums.len(),
            None => lanes,
        };
        self.within = Some(WithinBuffers {
            values: upload(&stream, &by_position, "the values by position")?,
            has_values: values.is_some(),
            strides: strides as u32,
            part_counts: alloc_zeroed(self.gpu, 2 * lanes * strides, "the parts' counts")?,
            part_sums: alloc_zeroed(self.gpu, lanes * strides, "the parts' sums")?,
            counts: alloc_zeroed(self.gpu, 2 * rows, "the counts")?,
            sums: alloc_zeroed(self.gpu, rows, "the sums")?,
        });
        Ok(())
    }

    /// For each source (graph vertices), the vertices whose distance is at
    /// most `limit` (a weight word) and the sum of the values kept by
    /// [`GpuPhast::keep_within_values`] (none kept: sums 0), in the order of
    /// `sources`; with the overflowed distances of each tree.
    pub fn within(&mut self, h: &Hierarchy, sources: &[usize], limit: u32) -> Result<Vec<Within>> {
        if sources.is_empty() {
            return Ok(Vec::new());
        }
        if self.within.is_none() {
            self.keep_within_values(h, None)?;
        }
        let stream = self.gpu.stream().clone();
        let rows = sources.len();
        let mut kept = self
            .within
            .take()
            .ok_or_else(|| Error::Internal("no within buffers".into()))?;
        if kept.sums.len() < rows {
            kept.counts = alloc_zeroed(self.gpu, 2 * rows, "the counts")?;
            kept.sums = alloc_zeroed(self.gpu, rows, "the sums")?;
        }
        let swept = self.pipelined(h, sources, |me, first, count| {
            me.gpu.kernels().reductions.within(
                &stream,
                &me.dist,
                (me.down.n, me.lanes, count as u32),
                (limit, first as u32),
                &mut kept,
            )
        });
        let buffers = &kept;
        let results = swept.and_then(|_| {
            let mut counts = vec![0u32; 2 * sources.len()];
            let mut sums = vec![0f64; sources.len()];
            stream
                .memcpy_dtoh(&buffers.counts.slice(..counts.len()), &mut counts)
                .map_err(Error::cuda("copying the counts from the GPU"))?;
            stream
                .memcpy_dtoh(&buffers.sums.slice(..sums.len()), &mut sums)
                .map_err(Error::cuda("copying the sums from the GPU"))?;
            stream
                .synchronize()
                .map_err(Error::cuda("copying the reductions from the GPU"))?;
            Ok((counts, sums))
        });
        self.within = Some(kept);
        let (counts, sums) = results?;
        Ok(counts
            .chunks(2)
            .zip(sums)
            .map(|(c, sum)| Within {
                count: c[0],
                saturated: c[1],
                sum,
            })
            .collect())
    }

    /// Each graph vertex's smallest distance from any of `sources` and the
    /// index in `sources` of the nearest (the smallest index on ties;
    /// [`gpu_kernels::reductions::NO_SOURCE`] where none reaches it).
    pub fn nearest(&mut self, h: &Hierarchy, sources: &[usize]) -> Result<(Vec<u32>, Vec<u32>)> {
        let n = self.down.n;
        if sources.len() >= u32::MAX as usize {
            return Err(Error::InvalidArgument(format!(
                "{} sources do not fit 32-bit source indices",
                sources.len()
            )));
        }
        let stream = self.gpu.stream().clone();
        let mut best = alloc_zeroed(self.gpu, n as usize, "the best distances")?;
        let mut from = alloc_zeroed(self.gpu, n as usize, "the nearest sources")?;
        let phast = &self.gpu.kernels().phast;
        // Infinite distances, and no source (the same word).
        phast.clear(&stream, &mut best, n)?;
        phast.clear(&stream, &mut from, n)?;
        self.pipelined(h, sources, |me, first, count| {
            me.gpu.kernels().reductions.nearest(
                &stream,
                &me.dist,
                (me.down.n, me.lanes, count as u32),
                first as u32,
                (&mut best, &mut from),
            )
        })?;
        let best = stream
            .clone_dtoh(&best)
            .map_err(Error::cuda("copying the best distances from the GPU"))?;
        let from = stream
            .clone_dtoh(&from)
            .map_err(Error::cuda("copying the nearest sources from the GPU"))?;
        let by_vertex = |by_position: &[u32]| -> Vec<u32> {
            h.position
                .iter()
                .map(|&p| by_position[p as usize])
                .collect()
        };
        Ok((by_vertex(&best), by_vertex(&from)))
    }
}
