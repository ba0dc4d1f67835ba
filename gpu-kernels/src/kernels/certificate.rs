//! Entry points of the certificate checked after every GPU solve
//! ([`crate::certificate`]).

use core::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crate::args::{
    CertificateCheckArgs, CertificatePushArgs, CertificateTreeArgs, CertificateVerdictArgs,
};
use crate::certificate::{self, Verdict};
use crate::device::memory::slice;
use crate::device::thread::index_1d;
use crate::rows;

use super::for_vertex;

crate::args::certificate_check_args! {
    /// Checks each vertex ([`certificate::check_vertex`]): a failing vertex
    /// lowers the failure word `flags[0]` ([`certificate::record`]), a vertex
    /// that needs the tree's rounds sets `flags[1]` to 1. The host sets
    /// `flags` to `[NO_FAILURE, 0]` before the launch.
    ///
    /// # Thread mapping
    /// One thread per vertex `v = blockIdx.x * blockDim.x + threadIdx.x`; threads
    /// with `v >= n` return.
    ///
    /// # Safety
    /// `offsets` holds `n + 1` elements, `targets` and `weights` `m`, `dist`
    /// `n`, `flags` two (module contract), `target` is `INFINITY` or below `n`. Nothing is written but `flags`,
    /// atomically.
    fn certificate_check<W> as certificate_check_u32, certificate_check_f32 (args) {
        let CertificateCheckArgs {
            offsets, targets, weights, n, m, source, bound, target, dist, flags,
        } = args;
        let graph = (offsets, targets, weights);
        // SAFETY: lengths as documented; everything but `flags` is read-only,
        // and `flags` is only accessed atomically.
        unsafe {
            for_vertex(graph, (n, m), dist, |v, graph, dist| {
                let flags = slice(flags, 2);
                let bound = rows::stop_bound(bound, target, dist);
                match certificate::check_vertex::<W>(v, source as usize, bound, graph, dist) {
                    Verdict::Proven => {}
                    Verdict::NeedsRounds => flags[1].store(1, Ordering::Relaxed),
                    Verdict::Bad(reason) => certificate::record(&flags[0], v, reason),
                }
            })
        }
    }
}

crate::args::certificate_tree_args! {
    /// Checks each vertex's place in the tree built by the rounds of
    /// `parents_join_round` ([`certificate::check_tree`]); a failing vertex
    /// lowers the failure word `flags[0]`.
    ///
    /// # Thread mapping
    /// As `certificate_check`'s.
    ///
    /// # Safety
    /// `offsets` holds `n + 1` elements, `targets` and `weights` `m`, `dist`,
    /// `parent` and `level` `n`, `flags` two (module contract). Nothing is
    /// written but `flags`, atomically.
    fn certificate_tree<W> as certificate_tree_u32, certificate_tree_f32 (args) {
        let CertificateTreeArgs {
            offsets, targets, weights, n, m, source, dist, parent, level, flags,
        } = args;
        // SAFETY: lengths as documented; everything but `flags` is read-only,
        // and `flags` is only accessed atomically.
        unsafe {
            for_vertex((offsets, targets, weights), (n, m), dist, |v, graph, dist| {
                let (parent_v, level) = (*parent.add(v), slice(level, n as usize));
                if let Some(reason) =
                    certificate::check_tree::<W>(v, source as usize, graph, dist, parent_v, level)
                {
                    certificate::record(&slice(flags, 2)[0], v, reason);
                }
            })
        }
    }
}

crate::args::certificate_push_args! {
    /// The push form over the forward CSR ([`certificate::push_out_arcs`]):
    /// vertex `u`'s thread checks its out-arcs within the stop's bound,
    /// records a head an arc improves in `flags[0]`, and marks heads of
    /// closer tight arcs in `closer` (zeroed by the host, as `flags` is set
    /// to `[NO_FAILURE, 0]`).
    ///
    /// # Thread mapping
    /// One thread per vertex `u`; threads with `u >= n` return.
    ///
    /// # Safety
    /// `offsets` holds `n + 1` elements, `targets` and `weights` `m`, `dist`
    /// and `closer` `n`, `flags` two (module contract), `target` is
    /// `INFINITY` or below `n`. Nothing is written but `closer` and `flags`,
    /// atomically.
    fn certificate_push<W> as certificate_push_u32, certificate_push_f32 (args) {
        let CertificatePushArgs {
            offsets, targets, weights, n, m, limit, target, dist, closer, flags,
        } = args;
        let graph = (offsets, targets, weights);
        // SAFETY: lengths as documented; `closer` and `flags` are only
        // accessed atomically.
        unsafe {
            for_vertex(graph, (n, m), dist, |u, successors, dist| {
                let bound = rows::stop_bound(limit, target, dist);
                let marks = (slice(closer, n as usize), &slice(flags, 2)[0]);
                certificate::push_out_arcs::<W>(u, bound, successors, dist, marks);
            })
        }
    }
}

crate::args::certificate_verdict_args! {
    /// Each vertex's verdict after `certificate_push`
    /// ([`certificate::push_verdict`]): a failing vertex lowers `flags[0]`,
    /// one that needs the tree's rounds sets `flags[1]` to 1.
    ///
    /// # Thread mapping
    /// One thread per vertex `v`; threads with `v >= n` return.
    ///
    /// # Safety
    /// `dist` and `closer` hold `n` elements, `flags` two, `target` is
    /// `INFINITY` or below `n`. Nothing is written but `flags`, atomically.
    fn certificate_verdict(args) {
        let CertificateVerdictArgs { n, source, limit, target, dist, closer, flags } = args;
        let v = index_1d();
        if v >= n {
            return;
        }
        let (v, n) = (v as usize, n as usize);
        // SAFETY: lengths as documented; `closer` is read and `flags`
        // written atomically only.
        unsafe {
            let dist = slice(dist, n);
            let bound = rows::stop_bound(limit, target, dist);
            let flags = slice(flags, 2);
            match certificate::push_verdict(v, (source as usize, bound), dist, slice(closer, n)) {
                Verdict::Proven => {}
                Verdict::NeedsRounds => flags[1].store(1, Ordering::Relaxed),
                Verdict::Bad(reason) => certificate::record(&flags[0], v, reason),
            }
        }
    }
}
