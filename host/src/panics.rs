//! Panics as errors. The library's thread pools (rayon's, and the threads of
//! `std::thread::scope`) hand a worker's panic to the thread that waits for
//! them; [`catching`] turns it there into [`Error::Internal`], so that the
//! command line exits with code 1 and Python raises an exception rather than
//! the process aborting. No pool waits on a barrier or a channel for a dead
//! worker: `delta-cpu`'s barrier is aborted by a panicking thread.

use std::any::Any;
use std::panic::AssertUnwindSafe;

use crate::error::{Error, Result};

/// What a panic said: its message where it is a string, else "a panic".
pub fn message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

/// Runs `work`; a panic in it, or in a pool's worker that it waits for,
/// becomes [`Error::Internal`] naming `what` and the panic's message.
pub fn catching<T>(what: &str, work: impl FnOnce() -> Result<T>) -> Result<T> {
    // Unwind safety: after a panic nothing `work` touched is used again; the
    // caller only sees the error.
    std::panic::catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|payload| {
        Err(Error::Internal(format!(
            "{what} panicked: {}",
            message(payload.as_ref())
        )))
    })
}
