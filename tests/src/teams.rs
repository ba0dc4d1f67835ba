//! Teams of OS threads that run the kernels' whole loops on the CPU like a
//! GPU block or grid does: warps of `warp_size` lanes whose warp-wide calls
//! (`reserve_where`, shuffles, scans) go through a shared exchange, and a
//! barrier over all threads. A panic in one thread makes every barrier give
//! up, so a bug fails the test instead of hanging it; waiting threads sleep
//! after a short spin, so that a team of more threads than cores (or on a
//! busy machine) does not spin away the cores of the threads it waits for.

use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize};
use std::sync::{Condvar, Mutex};

use gpu_kernels::team::{Exit, Team};
use sssp::gpu::kernels::LoopForm;
use sssp::gpu::resident::{LoopLaunches, LoopStop};

/// How long a barrier waits before it fails the test: a hang is a failure.
pub const PATIENCE: std::time::Duration = std::time::Duration::from_secs(300);

/// How long a thread checks the generation at a barrier, yielding between
/// checks, before it sleeps: long enough for the lanes of a warp to meet
/// without a wake-up where they run at once, short enough that on a busy
/// machine the waiting threads soon give their cores to the ones still on
/// their way.
const SPIN: std::time::Duration = std::time::Duration::from_millis(1);

/// How long a sleeping thread waits for a wake-up before it checks whether
/// another thread panicked (a panicking thread cannot reach every barrier).
const NAP: std::time::Duration = std::time::Duration::from_millis(20);

/// A barrier for `n` OS threads that gives up, with a panic, once any thread
/// of the launch has panicked (`aborted`) or it has existed longer than
/// [`PATIENCE`]: a bug that panics one lane or stops the loop must fail the
/// test, not leave the others waiting forever. A thread waits by spinning a
/// little ([`SPIN`]), then asleep on a condition variable, so that the
/// threads of a team (more than the machine's cores) do not steal the
/// cores of the ones they wait for.
pub struct Barrier<'a> {
    n: usize,
    arrived: AtomicUsize,
    generation: AtomicUsize,
    aborted: &'a AtomicBool,
    deadline: std::time::Instant,
    /// Taken to advance the generation and to sleep, so that no sleeper
    /// misses its wake-up.
    lock: Mutex<()>,
    wake: Condvar,
}

impl<'a> Barrier<'a> {
    /// A barrier for `n` threads of the launch whose panics set `aborted`.
    pub fn new(n: usize, aborted: &'a AtomicBool) -> Self {
        Barrier {
            n,
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
            aborted,
            deadline: std::time::Instant::now() + PATIENCE,
            lock: Mutex::new(()),
            wake: Condvar::new(),
        }
    }

    /// Panics if another thread panicked or the launch has run too long;
    /// waiting loops outside the barrier call it too.
    pub fn check(&self) {
        assert!(!self.aborted.load(Relaxed), "another thread panicked");
        assert!(
            std::time::Instant::now() < self.deadline,
            "the launch hangs (over {PATIENCE:?})"
        );
    }

    /// Returns once all `n` threads have called it (as often).
    pub fn wait(&self) {
        let generation = self.generation.load(Acquire);
        if self.arrived.fetch_add(1, AcqRel) + 1 == self.n {
            self.arrived.store(0, Relaxed);
            let held = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            self.generation.fetch_add(1, Release);
            drop(held);
            self.wake.notify_all();
            return;
        }
        let spun = std::time::Instant::now();
        while spun.elapsed() < SPIN {
            if self.generation.load(Acquire) != generation {
                return;
            }
            self.check();
            std::thread::yield_now();
        }
        let mut held = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        while self.generation.load(Acquire) == generation {
            // The check panics without the lock held.
            drop(held);
            self.check();
            held = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            if self.generation.load(Acquire) != generation {
                break;
            }
            held = self
                .wake
                .wait_timeout(held, NAP)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

/// Sets the launch's `aborted` flag when its thread unwinds from a panic.
pub struct AbortOnPanic<'a>(pub &'a AtomicBool);

impl Drop for AbortOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Relaxed);
        }
    }
}

/// What the lanes of one emulated warp share: a barrier and one exchange slot
/// per lane.
struct WarpShared<'a> {
    barrier: Barrier<'a>,
    slots: Vec<AtomicU32>,
    base: AtomicU32,
}

impl<'a> WarpShared<'a> {
    fn new(lanes: usize, aborted: &'a AtomicBool) -> Self {
        WarpShared {
            barrier: Barrier::new(lanes, aborted),
            slots: (0..lanes).map(|_| AtomicU32::new(0)).collect(),
            base: AtomicU32::new(0),
        }
    }
}

/// A team of OS threads with a `std` barrier, in warps of `warp_size` lanes
/// whose warp-wide calls go through their `WarpShared` (every lane writes
/// its value, waits for the others, reads what it needs, waits again), so
/// the warp-uniform structure of the loop and the cross-lane arithmetic of
/// the relax phase run as on the GPU. `minimum_into` is a plain atomic
/// minimum per thread (the GPU reduces per block first; the result is the
/// same).
pub struct Threads<'a> {
    thread: usize,
    threads: usize,
    warp_size: usize,
    barrier: &'a Barrier<'a>,
    warp: &'a WarpShared<'a>,
}

impl Threads<'_> {
    fn lane(&self) -> usize {
        self.thread % self.warp_size
    }

    /// Every lane publishes `value`; returns all lanes' values.
    fn exchange(&self, value: u32) -> Vec<u32> {
        self.warp.slots[self.lane()].store(value, Relaxed);
        self.warp.barrier.wait();
        let values = self.warp.slots.iter().map(|s| s.load(Relaxed)).collect();
        self.warp.barrier.wait();
        values
    }
}

impl Team for Threads<'_> {
    fn thread(&self) -> usize {
        self.thread
    }
    fn threads(&self) -> usize {
        self.threads
    }
    fn warp_size(&self) -> usize {
        self.warp_size
    }
    fn barrier(&self) {
        self.barrier.wait();
    }
    fn reserve_where(&self, wants: bool, len: &AtomicU32) -> u32 {
        let wanting = self.exchange(wants as u32);
        let count: u32 = wanting.iter().sum();
        let below: u32 = wanting[..self.lane()].iter().sum();
        if wants && below == 0 {
            self.warp.base.store(len.fetch_add(count, Relaxed), Relaxed);
        }
        self.warp.barrier.wait();
        let base = self.warp.base.load(Relaxed);
        self.warp.barrier.wait();
        base + below
    }
    fn warp_inclusive_sum(&self, value: u32) -> u32 {
        self.exchange(value)[..=self.lane()].iter().sum()
    }
    fn warp_shuffle(&self, value: u32, src: usize) -> u32 {
        self.exchange(value)[src]
    }
    fn minimum_into(&self, value: u32, target: &AtomicU32) {
        target.fetch_min(value, Relaxed);
    }
}

/// Runs `body` (one thread's whole loop) on `warps` warps of `warp_size` OS
/// threads; asserts that every thread returned the same exit, and returns it.
pub fn run_on_threads(
    (warps, warp_size): (usize, usize),
    body: impl Fn(&Threads<'_>) -> Exit + Sync,
) -> Exit {
    let threads = warps * warp_size;
    let aborted = AtomicBool::new(false);
    let barrier = Barrier::new(threads, &aborted);
    let shared: Vec<WarpShared> = (0..warps)
        .map(|_| WarpShared::new(warp_size, &aborted))
        .collect();
    let exits: Vec<Exit> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|thread| {
                let (barrier, warp, aborted, body) =
                    (&barrier, &shared[thread / warp_size], &aborted, &body);
                scope.spawn(move || {
                    let _guard = AbortOnPanic(aborted);
                    let team = Threads {
                        thread,
                        threads,
                        warp_size,
                        barrier,
                        warp,
                    };
                    body(&team)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a thread panicked"))
            .collect()
    });
    assert!(exits.iter().all(|&e| e == exits[0]), "threads disagree");
    exits[0]
}

/// The team size, in warps, of a loop launch's form when the host's schedule
/// runs on the CPU: `small` for the block loop, `large` for the grid loop.
pub fn warps_of(form: LoopForm, (small, large): (usize, usize)) -> usize {
    match form {
        LoopForm::Block => small,
        LoopForm::Grid { .. } => large,
    }
}

/// A loop on the CPU as the host drives the GPU's (`run_loop_launches`):
/// `run` runs one launch of a form over a work range and returns the
/// kernel's exit, `snapshot` reads where the loop's state stands. Each
/// launch checks that the two agree: the host stops (no work left) exactly
/// when the loop converged.
pub struct ModelLoop<R, S> {
    run: R,
    snapshot: S,
    last: Option<LoopStop>,
    /// Launches that ran at least one iteration (the others found the work
    /// outside their range, or none, and stopped at once).
    pub worked: u32,
}

impl<R, S> ModelLoop<R, S> {
    /// The loop whose launches `run` runs and whose state `snapshot` reads.
    pub fn new(run: R, snapshot: S) -> Self {
        ModelLoop {
            run,
            snapshot,
            last: None,
            worked: 0,
        }
    }
}

impl<R, S> LoopLaunches for ModelLoop<R, S>
where
    R: FnMut(LoopForm, (u32, u32)) -> Exit,
    S: FnMut() -> LoopStop,
{
    fn launch(&mut self, form: LoopForm, work: (u32, u32)) -> sssp::Result<()> {
        let before = (self.snapshot)().iteration;
        let exit = (self.run)(form, work);
        let stop = (self.snapshot)();
        if stop.iteration != before {
            self.worked += 1;
        }
        assert_eq!(
            exit == Exit::Converged,
            stop.work == 0,
            "the kernel's exit {exit:?} and the host's stop {stop:?} disagree"
        );
        self.last = Some(stop);
        Ok(())
    }

    fn stopped(&mut self) -> sssp::Result<LoopStop> {
        Ok(self.last.expect("the host reads the state after a launch"))
    }
}
