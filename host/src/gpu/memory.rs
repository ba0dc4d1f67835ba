//! Device copies of graphs and device allocations that check free memory first.

use cudarc::driver::{CudaSlice, DeviceRepr, ValidAsZeroBits};

pub use super::buffers::bytes_of;
pub(crate) use super::buffers::upload;
use super::context::Gpu;
pub use super::device_graph::{DeviceGraph, DeviceMatrix};
use crate::distances::check_overflow;
use crate::graph::WeightKind;
use crate::options::Stop;
use crate::{Error, Result};

/// A zeroed device buffer of `len` elements (at least one).
pub fn alloc_zeroed<T: DeviceRepr + ValidAsZeroBits>(
    gpu: &Gpu,
    len: usize,
    what: &str,
) -> Result<CudaSlice<T>> {
    gpu.check_fits(what, bytes_of::<T>(len))?;
    gpu.stream()
        .alloc_zeros::<T>(len.max(1))
        .map_err(Error::cuda(format!("allocating {what}")))
}

/// The first `n` words of the device distances `dist` of a solve on a graph
/// of `kind` weights, copied to the host and checked for overflow
/// ([`crate::Error::DistanceOverflow`]).
pub fn download_distances(
    gpu: &Gpu,
    dist: &CudaSlice<u32>,
    n: u32,
    kind: WeightKind,
) -> Result<Vec<u32>> {
    download_bounded_distances(gpu, dist, (n, kind), Stop::default())
}

/// [`download_distances`] of a solve that stopped early as `stop` says:
/// bounded ([`Stop::apply`]) before the overflow check, since beyond the
/// bound the distances may be tentative.
pub fn download_bounded_distances(
    gpu: &Gpu,
    dist: &CudaSlice<u32>,
    (n, kind): (u32, WeightKind),
    stop: Stop,
) -> Result<Vec<u32>> {
    let mut host = gpu
        .stream()
        .clone_dtoh(dist)
        .map_err(Error::cuda("copying the distances to the host"))?;
    host.truncate(n as usize);
    stop.apply(&mut host);
    check_overflow(kind, &host)?;
    Ok(host)
}

/// The first `N` words of `buffer` (a small state, such as a loop's
/// counters), copied to the host; waits for the GPU. `what` names it in
/// errors.
pub fn download_words<const N: usize>(
    gpu: &Gpu,
    buffer: &CudaSlice<u32>,
    what: &str,
) -> Result<[u32; N]> {
    let mut words = [0u32; N];
    gpu.stream()
        .memcpy_dtoh(&buffer.slice(..N), &mut words)
        .map_err(Error::cuda(format!("copying {what} to the host")))?;
    Ok(words)
}
