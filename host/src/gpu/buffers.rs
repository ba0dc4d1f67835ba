//! Device buffers on a stream, with no solver state: their sizes, uploads
//! and the check that they fit.

use std::sync::Arc;

use cudarc::driver::{CudaSlice, CudaStream, DeviceRepr, ValidAsZeroBits};

use crate::{Error, Result};

/// Bytes of `len` elements of `T`.
pub fn bytes_of<T>(len: usize) -> u64 {
    (len as u64).saturating_mul(size_of::<T>() as u64)
}

/// Copies `data` to a new device buffer. An empty `data` gets one zeroed element,
/// so that every kernel argument is a real allocation.
pub(crate) fn upload<T: DeviceRepr + ValidAsZeroBits + Copy>(
    stream: &Arc<CudaStream>,
    data: &[T],
    what: &str,
) -> Result<CudaSlice<T>> {
    let result = if data.is_empty() {
        stream.alloc_zeros::<T>(1)
    } else {
        stream.clone_htod(data)
    };
    result.map_err(Error::cuda(format!("copying {what} to the GPU")))
}

/// Fails with [`Error::OutOfMemory`] unless `bytes` more fit on the device
/// of `stream`.
pub fn check_fits(stream: &CudaStream, what: &str, bytes: u64) -> Result<()> {
    let (free, _) = stream
        .context()
        .mem_get_info()
        .map_err(Error::cuda("querying free device memory"))?;
    let free = free as u64;
    if bytes > free {
        return Err(Error::OutOfMemory {
            what: what.to_string(),
            needed: bytes,
            free,
        });
    }
    Ok(())
}
