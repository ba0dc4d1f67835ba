//! Host memory sized by the input: a file's declared counts, a list of
//! sources, rows of distances. What cannot be had is an
//! [`Error::HostMemory`] before anything is filled, not an abort of the
//! process.

use crate::error::{Error, Result};

/// Checks that `bytes` bytes (`None`: more than the address space) for
/// `what` can be allocated, by reserving them at once and freeing them: an
/// error names `what` when they cannot be had.
pub fn check_fits(bytes: Option<u64>, what: impl FnOnce() -> String) -> Result<()> {
    let fits = bytes
        .and_then(|b| usize::try_from(b).ok())
        .is_some_and(|b| Vec::<u8>::new().try_reserve_exact(b).is_ok());
    if fits {
        Ok(())
    } else {
        Err(Error::HostMemory {
            what: what(),
            bytes: bytes.unwrap_or(u64::MAX),
        })
    }
}

/// Checks that `rows` rows of `n` words of `word_bytes` bytes each (the
/// distances of a batch of solves kept for the answer) can be allocated.
pub fn check_rows(rows: usize, n: usize, word_bytes: usize) -> Result<()> {
    let bytes = (rows as u64)
        .checked_mul(n as u64)
        .and_then(|w| w.checked_mul(word_bytes as u64));
    check_fits(bytes, || {
        format!("{rows} rows of {n} vertices ({word_bytes} bytes a vertex)")
    })
}

/// A vector of `len` default values (zeros), or [`Error::HostMemory`] for
/// `what` instead of an abort.
pub fn zeroed<T: Clone + Default>(len: usize, what: impl FnOnce() -> String) -> Result<Vec<T>> {
    let mut values = Vec::new();
    values
        .try_reserve_exact(len)
        .map_err(|_| Error::HostMemory {
            what: what(),
            bytes: (len as u64).saturating_mul(size_of::<T>() as u64),
        })?;
    values.resize(len, T::default());
    Ok(values)
}
