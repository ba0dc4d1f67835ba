//! Entry point of a solved row's delivery ([`crate::rows`]).

use core::sync::atomic::AtomicU32;

use crate::args::RowsGatherArgs;
use crate::device::memory::slice;
use crate::device::thread::index_1d;
use crate::rows::{self, ROW_FLAGS};

crate::args::rows_gather_args! {
    /// Gathers a renumbered solver's distances into the caller's vertex
    /// order with the stop's bound applied ([`rows::gather_one`]).
    ///
    /// # Thread mapping
    /// One thread per original vertex `v`; threads with `v >= n` return.
    ///
    /// # Safety
    /// `dist` holds `dist_len` elements, every entry of `new_of_old` (`n`
    /// elements) and `target_new` (unless `INFINITY`) is below `dist_len`,
    /// `out` holds `n` and `flags` [`ROW_FLAGS`], only accessed atomically.
    fn rows_gather(args) {
        let RowsGatherArgs { dist, dist_len, new_of_old, n, limit, target_new, out, flags } = args;
        let v = index_1d();
        if v >= n {
            return;
        }
        let v = v as usize;
        // SAFETY: lengths as documented; element `v` of `out` is this
        // thread's alone.
        unsafe {
            rows::gather_one(
                v,
                slice(dist, dist_len as usize),
                slice(new_of_old, n as usize),
                (limit, target_new),
                &mut *out.add(v),
                slice(flags, ROW_FLAGS),
            );
        }
    }
}
