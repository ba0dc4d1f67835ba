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
    Opening::Background(std::thread::spawn(move || {
        open_solver(choice, ordinal, wants_gpu, &instead)
    }))
}

/// A solver being opened ([`open_in_background`]), or the CPU chosen before
/// anything was opened.
pub enum Opening {
    /// The device, opening on a thread of its own.
    Background(JoinHandle<Result<Solver>>),
    /// The CPU, and why.
    Cpu(String),
}

/// Vertices and arcs, per core, of the largest one-off solve that runs on the
/// CPU while the GPU is still starting: `delta-cpu` solves about 40 k of them
/// a millisecond on 16 cores (road networks of 0.3 M vertices in 20–40 ms),
/// while the driver's start takes 200–220 ms (an H200 machine: the context
/// 200–217 ms, the module 2 ms as machine code), so such a solve is done
/// before the GPU could take it.
const CPU_ONE_OFF_ELEMENTS_PER_CORE: usize = 200_000;

/// Why `solves` solves of at most `elements` vertices and arcs end on the
/// CPU before the GPU could have started ([`CPU_ONE_OFF_ELEMENTS_PER_CORE`]),
/// or `None`.
pub fn cpu_one_off(elements: usize, solves: usize) -> Option<String> {
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let most = CPU_ONE_OFF_ELEMENTS_PER_CORE * cores;
    (solves <= 2 && elements.saturating_mul(solves) <= most).then(|| {
        format!(
            "{solves} solve{} of at most {elements} vertices and arcs on {cores} cores end \
             before the GPU could have started",
            if solves == 1 { "" } else { "s" }
        )
    })
}

impl Opening {
    /// The CPU, chosen for `reason` before anything was opened.
    pub fn cpu(reason: String) -> Opening {
        Opening::Cpu(reason)
    }

    /// Why `solves` solves of a graph of `elements` vertices and arcs should
    /// run on the CPU now rather than wait for the GPU to start: `None`
    /// where the GPU is open, or the solves are too many or too large.
    pub fn cpu_is_faster(&self, elements: usize, solves: usize) -> Option<String> {
        match self {
            Opening::Cpu(reason) => Some(reason.clone()),
            Opening::Background(opening) => (!opening.is_finished())
                .then(|| cpu_one_off(elements, solves))
                .flatten(),
        }
    }

    /// The solver, once opened.
    pub fn wait(self) -> Result<Solver> {
        let opening = match self {
            Opening::Cpu(_) => return Solver::new(Device::Cpu),
            Opening::Background(opening) => opening,
        };
        let solver = opening
            .join()
            .unwrap_or_else(|_| Err(Error::Internal("opening the device panicked".into())))?;
        // The context was made current on the opening thread.
        if let Some(gpu) = solver.gpu() {
            gpu.bind_to_thread()?;
        }
        Ok(solver)
    }
}
