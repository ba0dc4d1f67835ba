//! The device's copy bandwidth, measured the way benchmarks compare against it:
//! a large device-to-device copy, bytes read plus bytes written per second.

use super::context::Gpu;
use super::memory::alloc_zeroed;
use crate::{Error, Result};

/// Bytes per second of a device-to-device copy of `bytes` bytes (counting the
/// read and the write), the median of `repetitions` copies after one warm-up.
pub fn copy_bandwidth(gpu: &Gpu, bytes: usize, repetitions: usize) -> Result<f64> {
    let words = bytes / 4;
    let source = alloc_zeroed::<u32>(gpu, words, "the bandwidth test's source")?;
    let mut target = alloc_zeroed::<u32>(gpu, words, "the bandwidth test's target")?;
    let stream = gpu.stream();
    let mut times = Vec::with_capacity(repetitions);
    for rep in 0..=repetitions {
        let copy = || {
            stream
                .memcpy_dtod(&source, &mut target)
                .map_err(Error::cuda("copying on the device"))
        };
        let ((), ms) = gpu.timed(copy)?;
        if rep > 0 {
            times.push(ms as f64);
        }
    }
    times.sort_by(f64::total_cmp);
    let median_s = times[times.len() / 2] / 1e3;
    Ok(2.0 * (words * 4) as f64 / median_s)
}
