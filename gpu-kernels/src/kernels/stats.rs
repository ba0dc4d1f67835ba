//! Entry points of the measuring mode's counters.

use core::sync::atomic::AtomicU64;

use crate::args::StatsCountFlagsArgs;
use crate::device::memory::slice;
use crate::device::thread::index_1d;
use crate::stats;

crate::args::stats_count_flags_args! {
    /// Adds the number of set flags among `flags[0..n]` to `*counter`.
    ///
    /// # Thread mapping
    /// One thread per flag `i`; threads with `i >= n` return.
    ///
    /// # Safety
    /// `flags` holds `n` elements and `counter` points to one `u64` that is only
    /// accessed atomically during the launch.
    fn stats_count_flags(args) {
        let StatsCountFlagsArgs { flags, n, counter } = args;
        let i = index_1d();
        if i >= n {
            return;
        }
        // SAFETY: lengths as documented.
        unsafe { stats::count_flag(i as usize, slice(flags, n as usize), &*counter) }
    }
}
