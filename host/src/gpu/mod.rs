//! The GPU side of the host: the CUDA context and stream ([`Gpu`]), the kernels
//! resolved from the embedded PTX ([`kernels::Kernels`]), device copies of graphs
//! ([`memory::DeviceGraph`]) and the solvers: the host-driven DA2CF loop
//! ([`vertex_loop`]), the device-resident loops ([`resident`]) and others.
//!
//! Nothing touches the driver until [`Gpu::new`]: the binary runs, and can say
//! that there is no GPU, on machines without CUDA.

pub mod bandwidth;
pub mod bellman_ford;
pub mod compact;
pub mod da2cf;
pub mod hybrid;
pub mod kernels;
pub mod matrix;
pub mod memory;
pub mod near_far;
pub mod parents;
pub mod partition;
pub mod phast;
pub mod ptx;
pub mod resident;
pub mod vertex_loop;

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{CudaContext, CudaStream};

use crate::solver::Stop;
use crate::{Error, Result};
use kernels::Kernels;

/// What one GPU solve reports besides the distances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunStats {
    /// Iterations of the algorithm's main loop (rounds, for Bellman-Ford).
    pub iterations: u32,
    /// GPU time of the whole solve, from CUDA events recorded around it.
    pub solve_ms: f32,
}

/// A GPU solver prepared for one graph (its device copies uploaded, its state
/// allocated); it can solve from any source any number of times.
pub trait GpuSolver {
    /// Solves from `source`; the distances stay on the device until
    /// [`GpuSolver::distances`].
    fn run(&mut self, source: u32) -> Result<RunStats>;

    /// The distances of the last solve, checked for overflow
    /// ([`crate::Error::DistanceOverflow`]).
    fn distances(&self) -> Result<Vec<u32>>;

    /// Bounds the next solves as `stop` says, where the solver can stop
    /// early: it may then leave distances above [`Stop::bound`] unreached
    /// or not final, which [`Stop::apply`] marks unreached (by default
    /// nothing: the solves are complete, and bounded after).
    fn stop_early(&mut self, stop: Stop) {
        let _ = stop;
    }
    /// Chooses, by solves from `source`, what the preparation left to the
    /// graph (the partition solver: its window where `tuning` gives no Δ,
    /// and its edge lanes where it gives none); called once after preparing.
    /// Writes the choice into `tuning`, so that a copy prepared with it needs
    /// no trial ([`crate::algorithms::Tuning`]; by default nothing to choose).
    fn calibrate(&mut self, source: u32, tuning: &mut crate::algorithms::Tuning) -> Result<()> {
        let _ = (source, tuning);
        Ok(())
    }

    /// Shortcuts the preparation added to the graph (the partition solver,
    /// [`crate::shortcuts`]): `auto`'s trial then also tries it without them.
    fn shortcuts_added(&self) -> usize {
        0
    }

    /// Whether a copy prepared with compact pieces
    /// ([`crate::partition::Growth::Compact`]) would cut the graph
    /// differently (the partition solver, its pieces grown breadth-first):
    /// `auto`'s trial then also tries that.
    fn can_cut_compact(&self) -> bool {
        false
    }

    /// Threads a block, where the solver's blocks may have other sizes (the
    /// partition solver, [`gpu_kernels::launch::PARTITION_BLOCK_SIZES`]):
    /// `auto`'s trial then tries the others with the fastest candidate's
    /// pieces.
    fn block_threads(&self) -> Option<u32> {
        None
    }

    /// What the preparation made of the graph, for reports (the partition
    /// solver: its pieces, its mode and how long cutting the graph took);
    /// `None` for solvers with nothing to say.
    fn layout(&self) -> Option<String> {
        None
    }

    /// Measuring mode: solves from `source` once more, untimed, counting with a
    /// device counter how many of the launched `relax` threads found work.
    /// `None` for solvers that do not count.
    fn count_working_threads(&mut self, source: u32) -> Result<Option<ThreadCount>> {
        let _ = source;
        Ok(None)
    }

    /// Solves from `source` the way every report times it: `warmup` untimed
    /// solves, then `runs` timed ones.
    fn time_runs(&mut self, source: u32, warmup: u32, runs: u32) -> Result<TimedRuns> {
        for _ in 0..warmup {
            self.run(source)?;
        }
        let mut timed = TimedRuns {
            times_ms: Vec::with_capacity(runs as usize),
            iterations: 0,
        };
        for _ in 0..runs {
            let stats = self.run(source)?;
            timed.iterations = stats.iterations;
            timed.times_ms.push(stats.solve_ms as f64);
        }
        Ok(timed)
    }
}

/// What [`GpuSolver::time_runs`] measured.
#[derive(Clone, Debug, PartialEq)]
pub struct TimedRuns {
    /// GPU time of each timed solve, in run order, ms.
    pub times_ms: Vec<f64>,
    /// Iterations of the last solve (every solve from one source takes the same).
    pub iterations: u32,
}

/// Launched and working threads of the `relax` kernel over one solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThreadCount {
    /// Threads launched.
    pub launched: u64,
    /// Threads whose vertex had work (in the frontier for push, unsettled for pull).
    pub working: u64,
}

/// Whether the NVIDIA driver library (`libcuda.so`) can be opened here.
pub fn driver_present() -> bool {
    // SAFETY: only tries to open the driver library.
    unsafe { cudarc::driver::sys::is_culib_present() }
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
}

impl Gpu {
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
        let ctx = CudaContext::new(ordinal)
            .map_err(|e| Error::NoGpu(format!("could not open CUDA device {ordinal}: {e}")))?;
        // SAFETY: every buffer is used on the one stream it was made on (a
        // lane prepares its own copy of the graph and solver state on its
        // own stream, `Prepared::solve_many`), so cudarc's cross-stream event
        // tracking (an event pair per launch) is not needed; kernel launches
        // pass bare device addresses (`kernels::launch`), which relies on it.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.default_stream();
        let kernels = Arc::new(Kernels::load(&ctx)?);
        Ok(Gpu {
            ctx,
            stream,
            kernels,
            cooperative_turn: None,
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
        let (free, _) = self.memory_info()?;
        if bytes > free {
            return Err(Error::OutOfMemory {
                what: what.to_string(),
                needed: bytes,
                free,
            });
        }
        Ok(())
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

    /// Waits for all queued work; reports an error a kernel raised (a trap, say).
    pub fn synchronize(&self) -> Result<()> {
        self.stream
            .synchronize()
            .map_err(Error::cuda("waiting for the GPU"))
    }
}
