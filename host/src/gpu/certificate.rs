//! The certificate checked on the GPU after every GPU solve
//! (`gpu_kernels::certificate` states and proves it): the distances are
//! uploaded next to the predecessor CSR (uploaded once per prepared solver),
//! one kernel checks every vertex, and only where some reached vertex has no
//! tight in-arc from a closer one (zero weights, or `f32` weights too small to
//! change a sum) the shortest-path tree's rounds run and a second kernel
//! checks that every reached vertex joined the tree. The host reads one pair
//! of words per kernel. A failure is [`Error::CertificateFailed`], never an
//! answer.

use cudarc::driver::{CudaSlice, CudaView};
use gpu_kernels::certificate::{NO_FAILURE, decode};
use gpu_kernels::distance::INFINITY;

use super::context::Gpu;
use super::kernels::TreeBuffers;
use super::memory::{DeviceGraph, alloc_zeroed, bytes_of};
use crate::graph::Graph;
use crate::options::Stop;
use crate::{Error, Result};

/// The device state of the certificate on one graph: its predecessor CSR,
/// the distances to check and the tree's buffers, and the failure words.
pub struct Certificate {
    predecessors: DeviceGraph,
    tree: TreeBuffers,
    flags: CudaSlice<u64>,
    /// `[NO_FAILURE, 0]` on the device, copied over the flags before a check
    /// (a copy from the host would wait for the stream).
    fresh: CudaSlice<u64>,
}

impl Certificate {
    /// The certificate's state for `graph` on `gpu`: uploads its predecessor
    /// CSR and allocates the rest.
    pub fn new(gpu: &Gpu, graph: &Graph) -> Result<Certificate> {
        let (n, m) = (graph.num_vertices(), graph.num_edges());
        gpu.check_fits(
            "the certificate's predecessor CSR and buffers",
            DeviceGraph::bytes_needed(n, m) + bytes_of::<u32>(3 * n + 1) + bytes_of::<u64>(2),
        )?;
        let predecessors = DeviceGraph::upload(gpu.stream(), &graph.transpose())?;
        Ok(Certificate {
            predecessors,
            tree: TreeBuffers {
                dist: alloc_zeroed(gpu, n, "the distances to certify")?,
                parent: alloc_zeroed(gpu, n, "the certificate's parents")?,
                level: alloc_zeroed(gpu, n, "the certificate's tree levels")?,
                more: alloc_zeroed(gpu, 1, "the certificate's round flag")?,
            },
            flags: gpu_flags(gpu)?,
            fresh: gpu
                .stream()
                .clone_htod(&[NO_FAILURE, 0])
                .map_err(Error::cuda("copying the certificate's flags to the GPU"))?,
        })
    }

    /// The predecessor CSR on the device.
    pub fn predecessors(&self) -> &DeviceGraph {
        &self.predecessors
    }

    /// Checks the distances `dist` from `source`, complete within `bound` (a
    /// distance word, [`INFINITY`] for none: farther vertices may be reported
    /// unreached).
    pub fn check(&mut self, gpu: &Gpu, source: usize, bound: u32, dist: &[u32]) -> Result<()> {
        let n = self.predecessors.num_vertices() as usize;
        if dist.len() != n || source >= n {
            return Err(Error::Internal(format!(
                "the certificate of a graph of {n} vertices got {} distances from source {source}",
                dist.len()
            )));
        }
        gpu.stream()
            .memcpy_htod(dist, &mut self.tree.dist)
            .map_err(Error::cuda("copying the distances to certify to the GPU"))?;
        let source = source as u32;
        reset(gpu, &self.fresh, &mut self.flags)?;
        gpu.kernels().certificate.check(
            gpu.stream(),
            &self.predecessors,
            (source, bound, INFINITY),
            &self.tree.dist,
            &mut self.flags,
        )?;
        let words = read(gpu, &self.flags)?;
        self.conclude(gpu, source, words, None)
    }

    /// Queues the first kernel of the check of `dist` (on the device) from
    /// `source` within `(limit, target)` (the target's distance bounds too;
    /// `INFINITY`: none), its two words into `flags` (of [`gpu_flags`]):
    /// nothing is waited for. [`Certificate::conclude`] takes the words.
    pub fn queue_check(
        &self,
        gpu: &Gpu,
        source: u32,
        (limit, target): (u32, u32),
        dist: &CudaView<u32>,
        flags: &mut CudaSlice<u64>,
    ) -> Result<()> {
        reset(gpu, &self.fresh, flags)?;
        let args = (source, limit, target);
        gpu.kernels()
            .certificate
            .check(gpu.stream(), &self.predecessors, args, dist, flags)
    }

    /// Concludes a check from the two words its first kernel left
    /// ([`Certificate::queue_check`]): a failure is an error; where some
    /// vertex needs the tree's rounds, they run on `dist` (copied in; by
    /// default the certificate's own copy) and the second kernel checks
    /// the tree.
    pub fn conclude(
        &mut self,
        gpu: &Gpu,
        source: u32,
        [failure, rounds]: [u64; 2],
        dist: Option<&CudaView<u32>>,
    ) -> Result<()> {
        if failure != NO_FAILURE {
            return Err(failed(source, failure));
        }
        if rounds == 0 {
            return Ok(());
        }
        if let Some(dist) = dist {
            gpu.stream()
                .memcpy_dtod(dist, &mut self.tree.dist)
                .map_err(Error::cuda("copying the distances to certify"))?;
        }
        join_rounds(gpu, &self.predecessors, source, &mut self.tree)?;
        check_tree(gpu, &self.predecessors, source, &self.tree, &mut self.flags)
    }
}

/// The push form's device state ([`gpu_kernels::certificate::push_out_arcs`]):
/// for a solver whose forward CSR and distances on the device are in the
/// caller's numbering, the certificate needs no predecessor CSR and no copy
/// of the distances: two kernels and one read of two words.
pub struct PushCheck {
    closer: CudaSlice<u32>,
    flags: CudaSlice<u64>,
    fresh: CudaSlice<u64>,
}

impl PushCheck {
    /// The state for graphs of `n` vertices on `gpu`.
    pub fn new(gpu: &Gpu, n: usize) -> Result<PushCheck> {
        Ok(PushCheck {
            closer: alloc_zeroed(gpu, n, "the certificate's marks")?,
            flags: gpu_flags(gpu)?,
            fresh: gpu
                .stream()
                .clone_htod(&[NO_FAILURE, 0])
                .map_err(Error::cuda("copying the certificate's flags to the GPU"))?,
        })
    }

    /// Checks the solver's distances `dist` from `source` over its forward
    /// CSR `successors`, as `stop` reports them (above its bound unreached):
    /// `Ok(true)` proven, `Ok(false)` where some vertex needs the tree's
    /// rounds (the pull form, [`certify_solve`], decides then), a failure
    /// an error.
    pub fn check(
        &mut self,
        gpu: &Gpu,
        successors: &DeviceGraph,
        (source, stop): (u32, Stop),
        dist: &CudaSlice<u32>,
    ) -> Result<bool> {
        let stream = gpu.stream();
        stream
            .memset_zeros(&mut self.closer)
            .map_err(Error::cuda("clearing the certificate's marks"))?;
        reset(gpu, &self.fresh, &mut self.flags)?;
        let target = stop.target.map_or(INFINITY, |t| t as u32);
        gpu.kernels().certificate.push(
            stream,
            successors,
            (source, stop.limit_word(), target),
            dist,
            (&mut self.closer, &mut self.flags),
        )?;
        match read(gpu, &self.flags)? {
            [NO_FAILURE, rounds] => Ok(rounds == 0),
            [failure, _] => Err(failed(source, failure)),
        }
    }
}

/// Two words for a certificate's flags on `gpu`.
pub fn gpu_flags(gpu: &Gpu) -> Result<CudaSlice<u64>> {
    alloc_zeroed(gpu, 2, "the certificate's flags")
}

/// The certificate of one prepared solver, as the solvers' streamed rows
/// take it: its GPU, its graph and its device state, made on first use (a
/// solver that proves its rows in place never needs it).
pub struct Certifier<'c> {
    /// The GPU the solves run on.
    pub gpu: &'c Gpu,
    /// The graph solved.
    pub graph: &'c Graph<'c>,
    /// The certificate's device state, if made yet.
    pub state: &'c mut Option<Certificate>,
}

impl Certifier<'_> {
    /// The device state, made now if not yet.
    pub fn state(&mut self) -> Result<&mut Certificate> {
        match self.state {
            Some(state) => Ok(state),
            None => Ok(self.state.insert(Certificate::new(self.gpu, self.graph)?)),
        }
    }

    /// Checks a row `dist` from `source` on the host, already bounded as
    /// `stop` says ([`Stop::apply`]).
    pub fn check_row(&mut self, source: u32, stop: Stop, dist: &[u32]) -> Result<()> {
        let bound = if stop.is_bounded() {
            stop.bound(dist)
        } else {
            INFINITY
        };
        let gpu = self.gpu;
        self.state()?.check(gpu, source as usize, bound, dist)
    }
}

/// Checks the tree that the rounds of the shortest-path tree left in `tree`
/// (from `source` over the predecessor CSR `predecessors`): every reached
/// vertex joined it, every parent is a tight arc from a vertex earlier in it.
/// `flags` is two words of scratch.
pub fn check_tree(
    gpu: &Gpu,
    predecessors: &DeviceGraph,
    source: u32,
    tree: &TreeBuffers,
    flags: &mut CudaSlice<u64>,
) -> Result<()> {
    // A copy from the host waits for the stream: the words are read at once
    // after anyway.
    gpu.stream()
        .memcpy_htod(&[NO_FAILURE, 0], flags)
        .map_err(Error::cuda("resetting the certificate's flags"))?;
    let kernels = &gpu.kernels().certificate;
    kernels.tree(gpu.stream(), predecessors, source, tree, flags)?;
    match read(gpu, flags)? {
        [NO_FAILURE, _] => Ok(()),
        [failure, _] => Err(failed(source, failure)),
    }
}

/// Certifies the distances `dist` of a GPU solve from `source` on `graph`
/// that stopped as `stop` says, after marking unreached what lies beyond its
/// bound ([`Stop::apply`]); `state` holds the certificate's device state
/// between solves (created on the first). Skipped with `skip`: the
/// certificate turned off, or the solve proven already
/// ([`PushCheck`]).
pub fn certify_solve(
    gpu: &Gpu,
    graph: &Graph,
    state: &mut Option<Certificate>,
    (source, stop, skip): (usize, Stop, bool),
    dist: &mut [u32],
) -> Result<()> {
    if skip {
        return Ok(());
    }
    stop.apply(dist);
    let bound = if stop.is_bounded() {
        stop.bound(dist)
    } else {
        INFINITY
    };
    let certificate = match state {
        Some(certificate) => certificate,
        None => state.insert(Certificate::new(gpu, graph)?),
    };
    certificate.check(gpu, source, bound, dist)
}

/// Sets the two words of `flags` to "no failure, no rounds" (`fresh`).
fn reset(gpu: &Gpu, fresh: &CudaSlice<u64>, flags: &mut CudaSlice<u64>) -> Result<()> {
    gpu.stream()
        .memcpy_dtod(fresh, flags)
        .map_err(Error::cuda("resetting the certificate's flags"))
}

/// The two words of `flags`; waits for the GPU.
fn read(gpu: &Gpu, flags: &CudaSlice<u64>) -> Result<[u64; 2]> {
    let mut words = [0u64; 2];
    gpu.stream()
        .memcpy_dtoh(&flags.slice(..2), &mut words)
        .map_err(Error::cuda("copying the certificate's flags to the host"))?;
    Ok(words)
}

/// The error of the failure word `failure` of a certificate from `source`.
fn failed(source: u32, failure: u64) -> Error {
    let (vertex, reason) = decode(failure);
    Error::CertificateFailed {
        source_vertex: source as usize,
        vertex,
        reason: reason
            .map_or("an unknown reason", |r| r.describe())
            .to_string(),
    }
}

/// Runs the rounds of the tree from `source` over the device predecessor CSR
/// `predecessors` into `buffers` (their `dist` uploaded): round 0, then one
/// more while a round asks for it.
pub(crate) fn join_rounds(
    gpu: &Gpu,
    predecessors: &DeviceGraph,
    source: u32,
    buffers: &mut TreeBuffers,
) -> Result<()> {
    let stream = gpu.stream();
    let kernels = &gpu.kernels().parents;
    let mut round = 0;
    loop {
        kernels.join_round(stream, predecessors, source, round, buffers)?;
        let more = stream
            .clone_dtoh(&buffers.more)
            .map_err(Error::cuda("copying the tree's round flag to the host"))?;
        if more[0] == 0 {
            return Ok(());
        }
        round += 1;
    }
}
