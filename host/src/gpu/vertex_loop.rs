//! The DA2CF solver of lists and matrices alike: the per-vertex state and the
//! steps that do not read the graph (`initialize`, `minimum`, `update`), and
//! the loop around them (Gunrock's init / step / converged): `reset`, then
//! `relax` and `settle` until converged, timed between CUDA events; and the
//! measuring mode, which counts the working `relax` threads before each step.
//! A graph representation adds only its `relax` launch ([`RelaxGraph`]).

use cudarc::driver::CudaSlice;
use gpu_kernels::crauser::threshold;
use gpu_kernels::distance::INFINITY;
use gpu_kernels::launch::BLOCK_SIZE;
use gpu_kernels::reduce::num_blocks;

use super::context::Gpu;
use super::kernels::launch::one_thread_per;
use super::memory::{alloc_zeroed, bytes_of, download_distances};
use super::solver::{GpuSolver, RunStats, ThreadCount};
use crate::distances::check_source_of;
use crate::graph::{WeightKind, with_weight_type};
use crate::variants::{Frontier, Relax};
use crate::{Error, Result};

/// The device state of DA2CF over `n` vertices: distances, the frontier and
/// unsettled flags, the minimum's per-block buffers and Crauser's `Δ`.
pub struct VertexState {
    n: u32,
    kind: WeightKind,
    rule: Frontier,
    /// GPU passes of the minimum reduction: 1 or 2.
    minimum_passes: u8,
    /// Crauser general: the smallest weight leaving each vertex.
    delta_node: Option<CudaSlice<u32>>,
    /// Crauser economic: the smallest weight of the graph.
    delta_base: u32,
    dist: CudaSlice<u32>,
    frontier: CudaSlice<u8>,
    unsettled: CudaSlice<u8>,
    minima1: CudaSlice<u32>,
    minima2: CudaSlice<u32>,
    host_minima: Vec<u32>,
    iterations: u32,
}

/// The arrays a `relax` launch takes: distances to lower, and the flags.
pub struct RelaxArrays<'s> {
    /// Tentative distances.
    pub dist: &'s mut CudaSlice<u32>,
    /// Vertices settled in the last iteration.
    pub frontier: &'s CudaSlice<u8>,
    /// Vertices not yet settled.
    pub unsettled: &'s CudaSlice<u8>,
}

impl VertexState {
    /// Device bytes of the state for `n` vertices, `Δ_node` included.
    fn bytes(n: usize) -> u64 {
        let (b1, b2) = minima_lengths(n);
        bytes_of::<u32>(2 * n) + 2 * bytes_of::<u8>(n) + bytes_of::<u32>(b1 + b2)
    }

    /// Allocates the state of `n` vertices of a graph of `kind` weights whose
    /// smallest weight is `delta_base`; the minimum takes `minimum_passes` (1
    /// or 2) GPU passes.
    pub(super) fn new(
        gpu: &Gpu,
        n: u32,
        kind: WeightKind,
        (rule, delta_base): (Frontier, u32),
        minimum_passes: u8,
    ) -> Result<Self> {
        if !matches!(minimum_passes, 1 | 2) {
            return Err(Error::Internal(format!(
                "the minimum takes 1 or 2 GPU passes, not {minimum_passes}"
            )));
        }
        let (b1, b2) = minima_lengths(n as usize);
        let len = n as usize;
        Ok(VertexState {
            n,
            kind,
            rule,
            minimum_passes,
            delta_node: None,
            delta_base,
            dist: alloc_zeroed(gpu, len, "distances")?,
            frontier: alloc_zeroed(gpu, len, "frontier flags")?,
            unsettled: alloc_zeroed(gpu, len, "unsettled flags")?,
            minima1: alloc_zeroed(gpu, b1, "block minima")?,
            minima2: alloc_zeroed(gpu, b2, "block minima")?,
            host_minima: vec![0; b1],
            iterations: 0,
        })
    }

    /// Crauser's general rule: `Δ_node`, computed by the solver from its graph.
    pub(super) fn set_delta_node(&mut self, delta_node: CudaSlice<u32>) {
        self.delta_node = Some(delta_node);
    }

    /// `initialize`: only `source` settled, at distance 0, and in the frontier.
    fn reset(&mut self, gpu: &Gpu, source: u32) -> Result<()> {
        check_source_of(source as u64, self.n as usize)?;
        self.iterations = 0;
        gpu.kernels().da2cf.initialize.launch(
            gpu.stream(),
            &self.dist,
            &mut self.frontier,
            &mut self.unsettled,
            self.n,
            source,
        )
    }

    /// The arrays of the next `relax`; counts the iteration it begins.
    fn begin_iteration(&mut self) -> RelaxArrays<'_> {
        self.iterations += 1;
        RelaxArrays {
            dist: &mut self.dist,
            frontier: &self.frontier,
            unsettled: &self.unsettled,
        }
    }

    /// After `relax`: `minimum`, and `update` unless the threshold is
    /// infinite. Returns whether the solve has converged.
    fn settle(&mut self, gpu: &Gpu) -> Result<bool> {
        let minimum = self.minimum(gpu)?;
        let limit = match self.rule {
            Frontier::Martin | Frontier::CrauserGeneral => minimum,
            Frontier::CrauserEconomic => with_weight_type!(self.kind, W => {
                threshold::<W>(minimum, self.delta_base)
            }),
        };
        if limit == INFINITY {
            // Nothing reached is left unsettled that could still change: with
            // Crauser's rule, what remains has no outgoing edge or is unreached.
            return Ok(true);
        }
        let (kernels, stream) = (gpu.kernels(), gpu.stream());
        let (dist, frontier, unsettled) = (&self.dist, &mut self.frontier, &mut self.unsettled);
        match self.rule {
            Frontier::Martin => kernels
                .da2cf
                .update
                .launch(stream, dist, frontier, unsettled, self.n, limit)?,
            _ => kernels
                .crauser
                .update
                .launch(stream, dist, frontier, unsettled, self.n, limit)?,
        }
        Ok(false)
    }

    /// The minimum of the unsettled vertices' values (distances, or distances
    /// plus `Δ_node`): one or two GPU passes, then the host.
    fn minimum(&mut self, gpu: &Gpu) -> Result<u32> {
        let (kernels, stream) = (gpu.kernels(), gpu.stream());
        let (n, dist, unsettled) = (self.n, &self.dist, &self.unsettled);
        match &self.delta_node {
            Some(delta_node) => kernels.crauser.minimum1(
                stream,
                self.kind,
                dist,
                delta_node,
                unsettled,
                n,
                &mut self.minima1,
            )?,
            None => kernels
                .da2cf
                .minimum1(stream, dist, unsettled, n, &mut self.minima1)?,
        }
        let last = if self.minimum_passes == 2 {
            let b1 = self.minima1.len() as u32;
            kernels
                .da2cf
                .minimum2(stream, &self.minima1, b1, &mut self.minima2)?;
            &self.minima2
        } else {
            &self.minima1
        };
        let host = &mut self.host_minima[..last.len()];
        stream
            .memcpy_dtoh(last, host)
            .map_err(Error::cuda("copying the block minima to the host"))?;
        Ok(host.iter().copied().min().unwrap_or(INFINITY))
    }

    /// Iterations since the last `reset`.
    fn iterations(&self) -> u32 {
        self.iterations
    }

    /// The flags that `relax` tests first: a thread works exactly when its
    /// vertex's flag is set (unsettled for pull, frontier for push).
    fn relax_flags(&self, pull: bool) -> &CudaSlice<u8> {
        if pull {
            &self.unsettled
        } else {
            &self.frontier
        }
    }

    /// The distances of the last solve, checked for overflow.
    fn distances(&self, gpu: &Gpu) -> Result<Vec<u32>> {
        download_distances(gpu, &self.dist, self.n, self.kind)
    }
}

/// A graph representation that DA2CF's `relax` reads: adjacency lists or a
/// matrix on the device.
pub trait RelaxGraph {
    /// One `relax` launch of the given form over `arrays`, one thread per
    /// vertex in blocks of [`BLOCK_SIZE`].
    fn relax(&self, gpu: &Gpu, form: Relax, arrays: RelaxArrays<'_>) -> Result<()>;
}

/// DA2CF on the device: a graph, its `relax` form and the shared state.
/// [`super::da2cf::Da2cf`] on lists and [`super::matrix::MatrixDa2cf`] on
/// matrices are this solver with their graph.
pub struct VertexSolver<'a, G> {
    gpu: &'a Gpu,
    relax: Relax,
    graph: G,
    state: VertexState,
}

impl<'a, G: RelaxGraph> VertexSolver<'a, G> {
    /// Device bytes of the solver state for `n` vertices (the graph excluded).
    pub fn state_bytes(n: usize) -> u64 {
        VertexState::bytes(n)
    }

    /// A solver from its parts; `relax` is a form that `graph` supports.
    pub(super) fn from_parts(gpu: &'a Gpu, relax: Relax, graph: G, state: VertexState) -> Self {
        VertexSolver {
            gpu,
            relax,
            graph,
            state,
        }
    }

    /// One iteration: `relax`, then `minimum` and `update`. Returns whether
    /// the solve has converged.
    fn step(&mut self) -> Result<bool> {
        let arrays = self.state.begin_iteration();
        self.graph.relax(self.gpu, self.relax, arrays)?;
        self.state.settle(self.gpu)
    }
}

impl<G: RelaxGraph + Send> GpuSolver for VertexSolver<'_, G> {
    fn run(&mut self, source: u32) -> Result<RunStats> {
        let gpu = self.gpu;
        let ((), solve_ms) = gpu.timed(|| {
            self.state.reset(gpu, source)?;
            while !self.step()? {}
            Ok(())
        })?;
        Ok(RunStats {
            iterations: self.state.iterations(),
            solve_ms,
        })
    }

    fn distances(&self) -> Result<Vec<u32>> {
        self.state.distances(self.gpu)
    }

    /// One more solve from `source`, untimed, counting the set relax flags on
    /// the device before every `relax`.
    fn count_working_threads(&mut self, source: u32) -> Result<Option<ThreadCount>> {
        let gpu = self.gpu;
        let n = self.state.n;
        let mut counter = alloc_zeroed::<u64>(gpu, 1, "the working-thread counter")?;
        self.state.reset(gpu, source)?;
        loop {
            let flags = self.state.relax_flags(self.relax.is_pull());
            gpu.kernels()
                .stats
                .count_flags(gpu.stream(), flags, n, &mut counter)?;
            if self.step()? {
                break;
            }
        }
        let working = gpu
            .stream()
            .clone_dtoh(&counter)
            .map_err(Error::cuda("reading the working-thread counter"))?[0];
        let relax = one_thread_per(n);
        let per_launch = relax.grid_dim.0 as u64 * relax.block_dim.0 as u64;
        Ok(Some(ThreadCount {
            launched: per_launch * self.state.iterations() as u64,
            working,
        }))
    }
}

/// Lengths of the per-block minima of the first and second pass for `n` vertices.
fn minima_lengths(n: usize) -> (usize, usize) {
    let b1 = num_blocks(n, BLOCK_SIZE as usize).max(1);
    (b1, num_blocks(b1, BLOCK_SIZE as usize).max(1))
}
