//! `--device` and `--gpu`: where to solve, and the solver that opens there.

use std::thread::JoinHandle;

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

/// [`open_solver`] on a thread of its own, so that the driver's start
/// (0.1–0.4 s) overlaps with reading the graph; [`Opening::wait`] takes the
/// solver.
pub fn open_in_background(
    choice: DeviceChoice,
    ordinal: usize,
    wants_gpu: bool,
    instead: String,
) -> Opening {
    Opening(std::thread::spawn(move || {
        open_solver(choice, ordinal, wants_gpu, &instead)
    }))
}

/// A solver being opened ([`open_in_background`]).
pub struct Opening(JoinHandle<Result<Solver>>);

impl Opening {
    /// The solver, once opened.
    pub fn wait(self) -> Result<Solver> {
        let solver = self
            .0
            .join()
            .unwrap_or_else(|_| Err(Error::Internal("opening the device panicked".into())))?;
        // The context was made current on the opening thread.
        if let Some(gpu) = solver.gpu() {
            gpu.bind_to_thread()?;
        }
        Ok(solver)
    }
}
