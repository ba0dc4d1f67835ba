//! One CUDA device ([`Gpu`]): its context, the stream all work goes to, and
//! the kernels loaded from the embedded PTX.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{CudaContext, CudaEvent, CudaStream};

use super::kernels::{Kernels, ModuleForm};
use super::run_stats::RunStats;
use crate::{Error, Result};

/// Whether the NVIDIA driver library (`libcuda.so`) can be opened here.
pub fn driver_present() -> bool {
    // SAFETY: only tries to open the driver library.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// How many CUDA devices the driver sees: 0 without the driver library.
pub fn device_count() -> Result<usize> {
    if !driver_present() {
        return Ok(0);
    }
    CudaContext::device_count()
        .map(|count| count.max(0) as usize)
        .map_err(|e| Error::NoGpu(format!("could not count the CUDA devices: {e}")))
}

/// One CUDA device with a context, the stream all work goes to, and the kernels.
pub struct Gpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    kernels: Arc<Kernels>,
    /// Shared by the lanes of [`Gpu::lanes`]: held around each cooperative
    /// launch until the kernel ends, and around each change of a kernel's
    /// shared-memory limit ([`Gpu::attribute_turn`]).
    cooperative_turn: Option<Arc<Mutex<()>>>,
    startup: Startup,
}

/// What opening the device cost ([`Gpu::startup`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Startup {
    /// The driver's start and the context (`cuInit`, the primary context), ms.
    pub context_ms: f64,
    /// Loading the kernels' module, ms.
    pub module_ms: f64,
    /// Whether the module was machine code or PTX the driver compiled.
    pub module: ModuleForm,
}

impl Gpu {
    /// What opening this device cost: the context and the kernels' module.
    pub fn startup(&self) -> Startup {
        self.startup
    }

    /// Opens device `ordinal` and loads the kernels. Without a driver or a device
    /// this is [`Error::NoGpu`], never a panic.
    pub fn new(ordinal: usize) -> Result<Gpu> {
        // cudarc would panic on first use if the library were missing, hence
        // this check first.
        if !driver_present() {
            return Err(Error::NoGpu(
                "the NVIDIA driver library (libcuda.so) was not found on this machine".into(),
            ));
        }
        let start = Instant::now();
        let ctx = CudaContext::new(ordinal)
            .map_err(|e| Error::NoGpu(format!("could not open CUDA device {ordinal}: {e}")))?;
        let context_ms = start.elapsed().as_secs_f64() * 1e3;
        // SAFETY: every buffer is used on the one stream it was made on (a
        // lane prepares its own copy of the graph and solver state on its
        // own stream, `Prepared::solve_many`), so cudarc's cross-stream event
        // tracking (an event pair per launch) is not needed; kernel launches
        // pass bare device addresses (`kernels::launch`), which relies on it.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.default_stream();
        let start = Instant::now();
        let (kernels, module) = Kernels::load(&ctx)?;
        let startup = Startup {
            context_ms,
            module_ms: start.elapsed().as_secs_f64() * 1e3,
            module,
        };
        Ok(Gpu {
            ctx,
            stream,
            kernels: Arc::new(kernels),
            cooperative_turn: None,
            startup,
        })
    }

    /// `count` lanes on this device for solves that run at the same time,
    /// each driven by its own host thread: the same context and kernels,
    /// each lane a stream of its own (non-blocking, so lanes never wait for
    /// each other's work). Their cooperative launches take turns
    /// ([`Gpu::cooperative`]): a grid-wide kernel needs all its blocks
    /// resident at once, and two of them spinning at grid barriers, each with
    /// blocks that the other's occupy the place of, would never finish.
    pub fn lanes(&self, count: usize) -> Result<Vec<Gpu>> {
        let turn = Arc::new(Mutex::new(()));
        (0..count)
            .map(|_| {
                let stream = self
                    .ctx
                    .new_stream()
                    .map_err(Error::cuda("creating a stream for a lane"))?;
                Ok(Gpu {
                    ctx: self.ctx.clone(),
                    stream,
                    kernels: self.kernels.clone(),
                    cooperative_turn: Some(turn.clone()),
                    startup: self.startup,
                })
            })
            .collect()
    }

    /// Runs `launch`, which queues one cooperative kernel on
    /// [`Gpu::stream`] (and may wait for it). On a lane it holds the lanes'
    /// turn until the kernel has ended (see [`Gpu::lanes`]); elsewhere it
    /// only runs `launch`.
    pub fn cooperative<T>(&self, launch: impl FnOnce() -> Result<T>) -> Result<T> {
        let turn = self.lanes_turn();
        let result = launch()?;
        if turn.is_some() {
            self.synchronize()?;
        }
        Ok(result)
    }

    /// Runs `change`, which sets a kernel's function attribute (its
    /// shared-memory limit) and reads what follows from it, in the lanes'
    /// turn ([`Gpu::lanes`]): the attribute is the function's, shared by
    /// every lane, and a lane that set it for its launch must launch before
    /// another lane changes it (the launch fails with an invalid value when
    /// the limit was lowered in between). Elsewhere it only runs `change`.
    pub fn attribute_turn<T>(&self, change: impl FnOnce() -> Result<T>) -> Result<T> {
        let _turn = self.lanes_turn();
        change()
    }

    /// The lanes' turn, held until the guard drops; `None` off a lane.
    fn lanes_turn(&self) -> Option<MutexGuard<'_, ()>> {
        self.cooperative_turn
            .as_ref()
            .map(|turn| turn.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Makes this device's context the calling thread's (each lane's thread
    /// calls it first).
    pub fn bind_to_thread(&self) -> Result<()> {
        self.ctx
            .bind_to_thread()
            .map_err(Error::cuda("binding the CUDA context to a thread"))
    }

    /// The device's name, e.g. "NVIDIA H100 80GB HBM3".
    pub fn name(&self) -> Result<String> {
        self.ctx
            .name()
            .map_err(Error::cuda("reading the device name"))
    }

    /// The stream every launch and copy goes to.
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// The kernels.
    pub fn kernels(&self) -> &Kernels {
        &self.kernels
    }

    /// Free and total device memory in bytes.
    pub fn memory_info(&self) -> Result<(u64, u64)> {
        let (free, total) = self
            .ctx
            .mem_get_info()
            .map_err(Error::cuda("querying free device memory"))?;
        Ok((free as u64, total as u64))
    }

    /// Fails with [`Error::OutOfMemory`] unless `bytes` more fit on the device.
    pub fn check_fits(&self, what: &str, bytes: u64) -> Result<()> {
        super::buffers::check_fits(&self.stream, what, bytes)
    }

    /// Runs `work`, which queues GPU work on [`Gpu::stream`] (and may wait for
    /// it), between two CUDA events; returns its result and the GPU time
    /// between the events, in ms. Host work inside `work` that delays the
    /// queued work counts too.
    pub fn timed<T>(&self, work: impl FnOnce() -> Result<T>) -> Result<(T, f32)> {
        let timing = Some(CUevent_flags::CU_EVENT_DEFAULT);
        let start = self
            .stream
            .record_event(timing)
            .map_err(Error::cuda("recording a start event"))?;
        let result = work()?;
        let end = self
            .stream
            .record_event(timing)
            .map_err(Error::cuda("recording an end event"))?;
        let ms = start
            .elapsed_ms(&end)
            .map_err(Error::cuda("reading the time between two events"))?;
        Ok((result, ms))
    }

    /// A solver's [`GpuSolver::run`]: checks `source` against `num_vertices`,
    /// then runs `solve` (which returns its iterations) between CUDA events.
    pub fn timed_solve(
        &self,
        num_vertices: usize,
        source: u32,
        solve: impl FnOnce() -> Result<u32>,
    ) -> Result<RunStats> {
        crate::distances::check_source_of(source as u64, num_vertices)?;
        let (iterations, solve_ms) = self.timed(solve)?;
        Ok(RunStats {
            iterations,
            solve_ms,
        })
    }

    /// A timing event recorded on [`Gpu::stream`] now: waiting on it waits
    /// for the work queued before. Page-locked buffers are not tracked by
    /// the context ([`Gpu::new`] turns event tracking off), so the host waits
    /// on such an event before it reads what an asynchronous copy wrote.
    pub fn record_event(&self) -> Result<CudaEvent> {
        self.stream
            .record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(Error::cuda("recording an event"))
    }

    /// Waits for all queued work; reports an error a kernel raised (a trap, say).
    pub fn synchronize(&self) -> Result<()> {
        self.stream
            .synchronize()
            .map_err(Error::cuda("waiting for the GPU"))
    }
}
