//! `--device` and `--gpu`: where to solve, and the solver that opens there.

use clap::ValueEnum;
use sssp::options::Device;
use sssp::{Error, Result, Solver};

/// Where to solve, as `--device` names it; `--gpu` gives the ordinal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DeviceChoice {
    /// A GPU algorithm on the GPU if there is one, else `delta-cpu` (with a notice).
    Auto,
    /// The GPU; an error if there is none.
    Gpu,
    /// The CPU: a GPU algorithm is replaced by `delta-cpu` (parallel Δ-stepping).
    Cpu,
}

/// The solver for `choice` on GPU `ordinal`; the CPU alone where nothing
/// wants the GPU (`wants_gpu` false). Without a GPU under `auto`, the CPU,
/// after a notice that ends with `instead` (what runs there).
pub fn open_solver(
    choice: DeviceChoice,
    ordinal: usize,
    wants_gpu: bool,
    instead: &str,
) -> Result<Solver> {
    match choice {
        DeviceChoice::Cpu => Solver::new(Device::Cpu),
        _ if !wants_gpu => Solver::new(Device::Cpu),
        DeviceChoice::Gpu => Solver::new(Device::Gpu(ordinal)),
        DeviceChoice::Auto => match Solver::new(Device::Gpu(ordinal)) {
            Err(Error::NoGpu(reason)) => {
                eprintln!("notice: no CUDA GPU available ({reason}); {instead}");
                Solver::new(Device::Cpu)
            }
            other => other,
        },
    }
}
