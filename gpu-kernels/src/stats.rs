//! Per-thread logic of the measuring mode's counters (never part of a timed
//! solve): how many threads of a launch find work, as Ortega-Arranz et al.
//! measure the "working" and "dummy" threads of `relax` (their Fig. 2).

use core::sync::atomic::{AtomicU64, Ordering};

use crate::da2cf::FALSE;

/// Counts vertex `i` into `counter` if its flag is set: a `relax` thread of
/// vertex `i` works exactly when its flag (frontier for push, unsettled for
/// pull) is set. The counter is 64-bit: a solve's sum over its iterations
/// passes `u32::MAX` on graphs of some 10^8 vertices.
#[inline(always)]
pub fn count_flag(i: usize, flags: &[u8], counter: &AtomicU64) {
    if flags[i] != FALSE {
        counter.fetch_add(1, Ordering::Relaxed);
    }
}
