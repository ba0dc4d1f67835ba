//! The DA2CF loop of Martín et al. (Fig. 2) on the GPU, F^GPU form: `relax_F`
//! (push, atomic minimum), `minimum1` + `minimum2` on the GPU with the last few
//! values reduced on the host, and `update` with the minimum passed as a kernel
//! argument.
//!
//! The loop is split Gunrock-style into [`Da2cf::reset`] (initialize),
//! [`Da2cf::step`] (one iteration, reporting convergence) and [`Da2cf::run`]
//! (reset, steps, CUDA-event timing), so that a device-resident loop can replace
//! `step` without touching the rest.

use cudarc::driver::CudaSlice;
use cudarc::driver::sys::CUevent_flags;
use gpu_kernels::distance::INFINITY;
use gpu_kernels::launch::BLOCK_SIZE;
use gpu_kernels::reduce::num_blocks;

use super::Gpu;
use super::memory::{DeviceGraph, alloc_zeroed, bytes_of};
use crate::distances::check_overflow;
use crate::{Error, Result};

/// What one solve reports besides the distances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunStats {
    /// Iterations of the relax → minimum → update loop.
    pub iterations: u32,
    /// GPU time of the whole solve (initialize to the last minimum), from CUDA events.
    pub solve_ms: f32,
}

/// DA2CF state on the device for one graph: distances, flags, and the minima of
/// the two reduction passes.
pub struct Da2cf<'a> {
    gpu: &'a Gpu,
    graph: &'a DeviceGraph,
    dist: CudaSlice<u32>,
    frontier: CudaSlice<u8>,
    unsettled: CudaSlice<u8>,
    minima1: CudaSlice<u32>,
    minima2: CudaSlice<u32>,
    host_minima: Vec<u32>,
    iterations: u32,
}

impl<'a> Da2cf<'a> {
    /// Device bytes of the solver state for `n` vertices.
    pub fn bytes_needed(n: usize) -> u64 {
        let (b1, b2) = Self::minima_lengths(n);
        bytes_of::<u32>(n) + 2 * bytes_of::<u8>(n) + bytes_of::<u32>(b1) + bytes_of::<u32>(b2)
    }

    fn minima_lengths(n: usize) -> (usize, usize) {
        let b1 = num_blocks(n, BLOCK_SIZE as usize).max(1);
        (b1, num_blocks(b1, BLOCK_SIZE as usize).max(1))
    }

    /// Allocates the state for `graph` after checking that it fits.
    pub fn new(gpu: &'a Gpu, graph: &'a DeviceGraph) -> Result<Self> {
        let n = graph.num_vertices() as usize;
        gpu.check_fits("the DA2CF state", Self::bytes_needed(n))?;
        let (b1, b2) = Self::minima_lengths(n);
        Ok(Da2cf {
            gpu,
            graph,
            dist: alloc_zeroed(gpu, n, "distances")?,
            frontier: alloc_zeroed(gpu, n, "frontier flags")?,
            unsettled: alloc_zeroed(gpu, n, "unsettled flags")?,
            minima1: alloc_zeroed(gpu, b1, "block minima")?,
            minima2: alloc_zeroed(gpu, b2, "block minima")?,
            host_minima: vec![0; b2],
            iterations: 0,
        })
    }

    /// `initialize`: only `source` settled, at distance 0, and in the frontier.
    pub fn reset(&mut self, source: u32) -> Result<()> {
        let n = self.graph.num_vertices();
        if source >= n {
            return Err(Error::SourceOutOfRange {
                vertex: source as u64,
                num_vertices: n as usize,
            });
        }
        self.iterations = 0;
        let stream = self.gpu.stream();
        self.gpu.kernels().da2cf.initialize(
            stream,
            &mut self.dist,
            &mut self.frontier,
            &mut self.unsettled,
            n,
            source,
        )
    }

    /// The minimum unsettled distance: `minimum1` and `minimum2` on the GPU, the
    /// rest on the host (which waits for the GPU here).
    fn minimum(&mut self) -> Result<u32> {
        let (kernels, stream) = (&self.gpu.kernels().da2cf, self.gpu.stream());
        let n = self.graph.num_vertices();
        kernels.minimum1(stream, &self.dist, &self.unsettled, n, &mut self.minima1)?;
        let b1 = self.minima1.len() as u32;
        kernels.minimum2(stream, &self.minima1, b1, &mut self.minima2)?;
        stream
            .memcpy_dtoh(&self.minima2, &mut self.host_minima)
            .map_err(Error::cuda("copying the block minima to the host"))?;
        Ok(self.host_minima.iter().copied().min().unwrap_or(INFINITY))
    }

    /// One iteration: relax, minimum, and (unless the minimum is infinite) update.
    /// Returns whether the solve has converged.
    pub fn step(&mut self) -> Result<bool> {
        self.iterations += 1;
        let (kernels, stream) = (&self.gpu.kernels().da2cf, self.gpu.stream());
        kernels.relax_f(
            stream,
            self.graph,
            &mut self.dist,
            &self.frontier,
            &self.unsettled,
        )?;
        let mssp = self.minimum()?;
        if mssp == INFINITY {
            return Ok(true);
        }
        let n = self.graph.num_vertices();
        kernels.update(
            stream,
            &self.dist,
            &mut self.frontier,
            &mut self.unsettled,
            n,
            mssp,
        )?;
        Ok(false)
    }

    /// Solves from `source`, timing the solve with CUDA events.
    pub fn run(&mut self, source: u32) -> Result<RunStats> {
        let stream = self.gpu.stream();
        let timing = Some(CUevent_flags::CU_EVENT_DEFAULT);
        let start = stream
            .record_event(timing)
            .map_err(Error::cuda("recording the start event"))?;
        self.reset(source)?;
        while !self.step()? {}
        let end = stream
            .record_event(timing)
            .map_err(Error::cuda("recording the end event"))?;
        let solve_ms = start
            .elapsed_ms(&end)
            .map_err(Error::cuda("reading the solve time"))?;
        Ok(RunStats {
            iterations: self.iterations,
            solve_ms,
        })
    }

    /// The distances of the last solve, checked for overflow.
    pub fn distances(&self) -> Result<Vec<u32>> {
        let mut dist = self
            .gpu
            .stream()
            .clone_dtoh(&self.dist)
            .map_err(Error::cuda("copying the distances to the host"))?;
        dist.truncate(self.graph.num_vertices() as usize);
        check_overflow(&dist)?;
        Ok(dist)
    }
}
