//! What the list and matrix DA2CF solvers share: the per-vertex state and the
//! steps that do not read the graph (`initialize`, `minimum`, `update`), and
//! the loop around them (Gunrock's init / step / converged): `reset`, then
//! `relax` and `settle` until converged, timed between CUDA events; and the
//! measuring mode, which counts the working `relax` threads before each step.
//! A solver adds only its graph and its `relax` launch.

use cudarc::driver::CudaSlice;
use gpu_kernels::crauser::threshold;
use gpu_kernels::distance::INFINITY;
use gpu_kernels::launch::BLOCK_SIZE;
use gpu_kernels::reduce::num_blocks;

use super::memory::{alloc_zeroed, bytes_of, download_distances};
use super::{Gpu, RunStats, ThreadCount};
use crate::distances::check_source_of;
use crate::graph::{WeightKind, with_weight_type};
use crate::variants::Frontier;
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
    pub fn bytes(n: usize) -> u64 {
        let (b1, b2) = minima_lengths(n);
        bytes_of::<u32>(2 * n) + 2 * bytes_of::<u8>(n) + bytes_of::<u32>(b1 + b2)
    }

    /// Allocates the state of `n` vertices of a graph of `kind` weights whose
    /// smallest weight is `delta_base`; the minimum takes `minimum_passes` (1
    /// or 2) GPU passes.
    pub fn new(
        gpu: &Gpu,
        n: u32,
        kind: WeightKind,
        (rule, delta_base): (Frontier, u32),
        minimum_passes: u8,
    ) -> Result<Self> {
        if !matches!(minimum_passes, 1 | 2) {
            return Err(Error::InvalidArgument(format!(
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
    pub fn set_delta_node(&mut self, delta_node: CudaSlice<u32>) {
        self.delta_node = Some(delta_node);
    }

    /// `initialize`: only `source` settled, at distance 0, and in the frontier.
    pub fn reset(&mut self, gpu: &Gpu, source: u32) -> Result<()> {
        check_source_of(source as u64, self.n as usize)?;
        self.iterations = 0;
        gpu.kernels().da2cf.initialize(
            gpu.stream(),
            &mut self.dist,
            &mut self.frontier,
            &mut self.unsettled,
            self.n,
            source,
        )
    }

    /// The arrays of the next `relax`; counts the iteration it begins.
    pub fn begin_iteration(&mut self) -> RelaxArrays<'_> {
        self.iterations += 1;
        RelaxArrays {
            dist: &mut self.dist,
            frontier: &self.frontier,
            unsettled: &self.unsettled,
        }
    }

    /// After `relax`: `minimum`, and `update` unless the threshold is
    /// infinite. Returns whether the solve has converged.
    pub fn settle(&mut self, gpu: &Gpu) -> Result<bool> {
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
                .update(stream, dist, frontier, unsettled, self.n, limit)?,
            _ => kernels
                .crauser
                .update(stream, dist, frontier, unsettled, self.n, limit)?,
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
    pub fn iterations(&self) -> u32 {
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
    pub fn distances(&self, gpu: &Gpu) -> Result<Vec<u32>> {
        download_distances(gpu, &self.dist, self.n, self.kind)
    }
}

/// A DA2CF solver: a [`VertexState`] and a `relax` with one thread per vertex
/// in blocks of [`BLOCK_SIZE`].
pub trait VertexLoop<'a> {
    /// The GPU the solver's state lives on.
    fn gpu(&self) -> &'a Gpu;

    /// The shared state.
    fn state(&self) -> &VertexState;

    /// The shared state, to reset.
    fn state_mut(&mut self) -> &mut VertexState;

    /// Whether `relax` pulls (a thread per unsettled vertex) rather than pushes
    /// (a thread per frontier vertex).
    fn pulls(&self) -> bool;

    /// One iteration: `relax` (after [`VertexState::begin_iteration`]), then
    /// [`VertexState::settle`]. Returns whether the solve has converged.
    fn step(&mut self) -> Result<bool>;
}

/// A whole solve from `source`, between two CUDA events.
pub fn run<'a>(solver: &mut impl VertexLoop<'a>, source: u32) -> Result<RunStats> {
    let gpu = solver.gpu();
    let ((), solve_ms) = gpu.timed(|| {
        solver.state_mut().reset(gpu, source)?;
        while !solver.step()? {}
        Ok(())
    })?;
    Ok(RunStats {
        iterations: solver.state().iterations(),
        solve_ms,
    })
}

/// Measuring mode: one more solve from `source`, untimed, counting the set
/// relax flags on the device before every `relax`.
pub fn count_working_threads<'a>(
    solver: &mut impl VertexLoop<'a>,
    source: u32,
) -> Result<ThreadCount> {
    let gpu = solver.gpu();
    let n = solver.state().n;
    let mut counter = alloc_zeroed::<u64>(gpu, 1, "the working-thread counter")?;
    solver.state_mut().reset(gpu, source)?;
    loop {
        let flags = solver.state().relax_flags(solver.pulls());
        gpu.kernels()
            .stats
            .count_flags(gpu.stream(), flags, n, &mut counter)?;
        if solver.step()? {
            break;
        }
    }
    let working = gpu
        .stream()
        .clone_dtoh(&counter)
        .map_err(Error::cuda("reading the working-thread counter"))?[0];
    let per_launch = (n as u64).div_ceil(BLOCK_SIZE as u64) * BLOCK_SIZE as u64;
    Ok(ThreadCount {
        launched: per_launch * solver.state().iterations() as u64,
        working,
    })
}

/// Lengths of the per-block minima of the first and second pass for `n` vertices.
fn minima_lengths(n: usize) -> (usize, usize) {
    let b1 = num_blocks(n, BLOCK_SIZE as usize).max(1);
    (b1, num_blocks(b1, BLOCK_SIZE as usize).max(1))
}
