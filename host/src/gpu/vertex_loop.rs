//! The iteration loop that the list and matrix DA2CF solvers share (Gunrock's
//! init / step / converged): `reset`, then `step` until it reports convergence,
//! timed between CUDA events; and the measuring mode, which counts the working
//! `relax` threads before each step.

use cudarc::driver::CudaSlice;
use gpu_kernels::launch::BLOCK_SIZE;

use super::memory::alloc_zeroed;
use super::{Gpu, RunStats, ThreadCount};
use crate::{Error, Result};

/// A host-driven DA2CF-style loop whose `relax` launches one thread per vertex
/// in blocks of [`BLOCK_SIZE`], each thread testing one flag of its vertex first.
pub trait VertexLoop<'a> {
    /// The GPU the solver's state lives on.
    fn gpu(&self) -> &'a Gpu;

    /// Number of vertices.
    fn num_vertices(&self) -> u32;

    /// `initialize`: only `source` settled, at distance 0, and in the frontier.
    fn reset(&mut self, source: u32) -> Result<()>;

    /// One iteration: relax, minimum, and (unless the threshold is infinite)
    /// update. Returns whether the solve has converged.
    fn step(&mut self) -> Result<bool>;

    /// Iterations since the last `reset`.
    fn iterations(&self) -> u32;

    /// The flags that the next `relax` tests first: a thread works exactly when
    /// its vertex's flag is set (unsettled for pull, frontier for push).
    fn relax_flags(&self) -> &CudaSlice<u8>;
}

/// A whole solve from `source`, between two CUDA events.
pub fn run<'a>(solver: &mut impl VertexLoop<'a>, source: u32) -> Result<RunStats> {
    let ((), solve_ms) = solver.gpu().timed(|| {
        solver.reset(source)?;
        while !solver.step()? {}
        Ok(())
    })?;
    Ok(RunStats {
        iterations: solver.iterations(),
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
    let n = solver.num_vertices();
    let mut counter = alloc_zeroed::<u64>(gpu, 1, "the working-thread counter")?;
    solver.reset(source)?;
    loop {
        let flags = solver.relax_flags();
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
        launched: per_launch * solver.iterations() as u64,
        working,
    })
}
