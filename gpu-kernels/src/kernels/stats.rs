//! Entry points of the measuring mode's counters.

use core::sync::atomic::AtomicU64;

use crate::device::memory::slice;
use crate::device::thread::index_1d;
use crate::stats;

/// Adds the number of set flags among `flags[0..n]` to `*counter`.
///
/// # Thread mapping
/// One thread per flag `i`; threads with `i >= n` return.
///
/// # Safety
/// `flags` holds `n` elements and `counter` points to one `u64` that is only
/// accessed atomically during the launch.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn stats_count_flags(
    flags: *const u8,
    n: u32,
    counter: *const AtomicU64,
) {
    let i = index_1d();
    if i >= n {
        return;
    }
    // SAFETY: lengths as documented.
    unsafe { stats::count_flag(i as usize, slice(flags, n as usize), &*counter) }
}
