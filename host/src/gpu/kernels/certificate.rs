//! The certificate's kernels.

use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr};
use gpu_kernels::args::{
    CertificateCheckArgs, CertificatePushArgs, CertificateTreeArgs, CertificateVerdictArgs,
};
use gpu_kernels::distance::INFINITY;
use gpu_kernels::launch::names;

use super::launch::{Launch, Typed, check_lengths, device, launch, load_function, one_thread_per};
use super::parents::TreeBuffers;
use crate::Result;
use crate::gpu::device_graph::DeviceGraph;

/// The certificate's kernels (`gpu_kernels::certificate`).
pub struct CertificateKernels {
    check: Typed,
    tree: Typed,
    push: Typed,
    verdict: CudaFunction,
}

impl CertificateKernels {
    /// Resolves the certificate's kernels in `module`.
    pub fn load(module: &Arc<CudaModule>) -> Result<Self> {
        Ok(CertificateKernels {
            check: Typed::load(module, names::CERTIFICATE_CHECK)?,
            tree: Typed::load(module, names::CERTIFICATE_TREE)?,
            push: Typed::load(module, names::CERTIFICATE_PUSH)?,
            verdict: load_function(module, names::CERTIFICATE_VERDICT)?,
        })
    }

    /// Checks the distances `dist` from `source` reported within `bound` over
    /// the predecessor CSR `predecessors` (`gpu_kernels::certificate::check_vertex`
    /// on every vertex) into `flags` (two words, set by the caller to
    /// `[NO_FAILURE, 0]`).
    pub fn check(
        &self,
        stream: &Arc<CudaStream>,
        predecessors: &DeviceGraph,
        (source, bound, target): (u32, u32, u32),
        dist: &impl DevicePtr<u32>,
        flags: &mut CudaSlice<u64>,
    ) -> Result<()> {
        let function = self.check.of(predecessors.weight_kind());
        let (n, m) = (predecessors.num_vertices(), predecessors.num_edges());
        check_lengths(
            function.1,
            &[("dist", dist.len(), n as usize), ("flags", flags.len(), 2)],
        )?;
        if target != INFINITY && target >= n {
            return Err(crate::Error::Internal(format!(
                "{}: target {target} of a graph of {n} vertices",
                function.1
            )));
        }
        let args = CertificateCheckArgs {
            offsets: device(stream, predecessors.offsets()),
            targets: device(stream, predecessors.targets()),
            weights: device(stream, predecessors.weights()),
            n,
            m,
            source,
            bound,
            target,
            dist: device(stream, dist),
            flags: device(stream, flags),
        };
        // SAFETY: `flags` is a u64 buffer the kernel accesses as AtomicU64, of
        // the same layout; `target` is INFINITY or a vertex (checked above);
        // `DeviceGraph` holds a validated CSR of n vertices and
        // m edges, `dist` holds n elements and `flags` two (checked above).
        unsafe { launch(stream, function, one_thread_per(n), &args, Launch::Plain) }
    }

    /// Checks the tree that the rounds of `parents_join_round` left in `tree`
    /// (`gpu_kernels::certificate::check_tree` on every vertex) into `flags`.
    pub fn tree(
        &self,
        stream: &Arc<CudaStream>,
        predecessors: &DeviceGraph,
        source: u32,
        tree: &TreeBuffers,
        flags: &mut CudaSlice<u64>,
    ) -> Result<()> {
        let function = self.tree.of(predecessors.weight_kind());
        let (n, m) = (predecessors.num_vertices(), predecessors.num_edges());
        let n_ = n as usize;
        check_lengths(
            function.1,
            &[
                ("dist", tree.dist.len(), n_),
                ("parent", tree.parent.len(), n_),
                ("level", tree.level.len(), n_),
                ("flags", flags.len(), 2),
            ],
        )?;
        let args = CertificateTreeArgs {
            offsets: device(stream, predecessors.offsets()),
            targets: device(stream, predecessors.targets()),
            weights: device(stream, predecessors.weights()),
            n,
            m,
            source,
            dist: device(stream, &tree.dist),
            parent: device(stream, &tree.parent),
            level: device(stream, &tree.level),
            flags: device(stream, flags),
        };
        // SAFETY: `level` and `flags` are u32 and u64 buffers the kernel reads
        // and updates as AtomicU32 and AtomicU64, of the same layouts;
        // `DeviceGraph` holds a validated CSR of n vertices and m edges,
        // dist/parent/level hold n elements and `flags` two (checked above).
        unsafe { launch(stream, function, one_thread_per(n), &args, Launch::Plain) }
    }

    /// The push form of the check of `dist` from `source` within `(limit,
    /// target)` over the forward CSR `successors`: `certificate_push`, then
    /// `certificate_verdict`, into `flags` (two words, set by the caller to
    /// `[NO_FAILURE, 0]`), with `closer` (`n` words, zeroed by the caller).
    pub fn push(
        &self,
        stream: &Arc<CudaStream>,
        successors: &DeviceGraph,
        (source, limit, target): (u32, u32, u32),
        dist: &CudaSlice<u32>,
        (closer, flags): (&mut CudaSlice<u32>, &mut CudaSlice<u64>),
    ) -> Result<()> {
        let function = self.push.of(successors.weight_kind());
        let (n, m) = (successors.num_vertices(), successors.num_edges());
        check_lengths(
            function.1,
            &[
                ("dist", dist.len(), n as usize),
                ("closer", closer.len(), n as usize),
                ("flags", flags.len(), 2),
            ],
        )?;
        if source >= n || (target != INFINITY && target >= n) {
            return Err(crate::Error::Internal(format!(
                "{}: source {source} or target {target} of a graph of {n} vertices",
                function.1
            )));
        }
        let args = CertificatePushArgs {
            offsets: device(stream, successors.offsets()),
            targets: device(stream, successors.targets()),
            weights: device(stream, successors.weights()),
            n,
            m,
            limit,
            target,
            dist: device(stream, dist),
            closer: device(stream, closer),
            flags: device(stream, flags),
        };
        // SAFETY: `closer` and `flags` are u32 and u64 buffers the kernel
        // accesses as AtomicU32 and AtomicU64, of the same layouts;
        // `DeviceGraph` holds a validated CSR of n vertices and m edges, the
        // other lengths and `target` are checked above.
        unsafe { launch(stream, function, one_thread_per(n), &args, Launch::Plain) }?;
        let args = CertificateVerdictArgs {
            n,
            source,
            limit,
            target,
            dist: device(stream, dist),
            closer: device(stream, closer),
            flags: device(stream, flags),
        };
        let function = (&self.verdict, names::CERTIFICATE_VERDICT);
        // SAFETY: as for the launch above.
        unsafe { launch(stream, function, one_thread_per(n), &args, Launch::Plain) }
    }
}
