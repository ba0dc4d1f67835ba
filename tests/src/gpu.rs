//! What every GPU test file needs: the GPU, and a solve that returns the
//! distances and iterations.

use sssp::algorithms::Algorithm;
use sssp::gpu::context::Gpu;
use sssp::gpu::solver::GpuSolver;
use sssp::options::Tuning;
use sssp::{Graph, Result};

/// Device 0, or a panic that says these tests need one.
pub fn gpu() -> Gpu {
    Gpu::new(0).expect(
        "these tests need a CUDA GPU (run them with --include-ignored only where there is one)",
    )
}

/// One solve of a prepared GPU solver from `source`: the distances and the
/// iterations (rounds, for Bellman-Ford).
pub fn run(solver: &mut dyn GpuSolver, source: usize) -> Result<(Vec<u32>, u32)> {
    let stats = solver.run(source as u32)?;
    Ok((solver.distances()?, stats.iterations))
}

/// Prepares `algo` for `graph` with `tuning`; `auto` is resolved from
/// `source` first, as the library's solver does.
pub fn prepare<'a>(
    gpu: &'a Gpu,
    algo: Algorithm,
    graph: &Graph,
    source: usize,
    tuning: Tuning,
) -> Result<Box<dyn GpuSolver + 'a>> {
    let algo = match algo {
        Algorithm::Auto => sssp::auto::choice::choose(graph, source).algorithm,
        algo => algo,
    };
    algo.prepare_gpu_tuned(gpu, graph, tuning)
}

/// [`prepare`], then one solve from `source`.
pub fn solve(
    gpu: &Gpu,
    algo: Algorithm,
    graph: &Graph,
    source: usize,
    tuning: Tuning,
) -> Result<(Vec<u32>, u32)> {
    run(prepare(gpu, algo, graph, source, tuning)?.as_mut(), source)
}
