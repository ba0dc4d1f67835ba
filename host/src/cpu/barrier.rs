//! The barrier of `delta-cpu`'s threads: it spins for a few microseconds,
//! then yields its core for a while, then sleeps; it measures how long its
//! threads wait beyond what their work in a round differs (a thread that has
//! no core makes the others wait that long), can count fewer threads from one round on, and
//! releases every waiter at once when a thread gives up (a panic).

use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, SeqCst};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// A value alone on its cache lines (two, for the adjacent-line
/// prefetcher): the counters that every thread updates must not share a line
/// with what the threads only read, or each update would evict it from every
/// other core.
#[repr(align(128))]
pub(crate) struct Padded<T>(pub(crate) T);

/// How long a waiting thread spins before it yields: a round of a road
/// network is a few microseconds of work, less than a sleeping barrier takes
/// to wake its threads.
const SPIN: Duration = Duration::from_micros(20);

/// How long, from its arrival, a waiting thread yields its core before it
/// sleeps. A thread that yields keeps its core where nothing else wants it
/// (a sleeping thread of a virtual machine wakes late, its virtual CPU
/// halted, and makes the next round late too); where something else does,
/// that runs instead, perhaps the thread being waited for.
const YIELD: Duration = Duration::from_millis(1);

/// How long a thread may wait at a barrier before the rest of its wait
/// counts as stalled ([`Barrier::take_stalled`]): longer than the threads'
/// work in a round differs (a thread relaxing its own small bin for a
/// while), shorter than a thread without a core waits for one (a
/// scheduler's time slice, milliseconds).
const STALLED_AFTER: Duration = Duration::from_micros(200);

/// Spins between two looks at the clock.
const SPINS_PER_LOOK: u32 = 64;

/// The barrier was aborted ([`Barrier::abort`]): a thread gave up, and the
/// others must stop too.
#[derive(Debug)]
pub(crate) struct Aborted;

/// A barrier for the threads of one solve.
pub(crate) struct Barrier {
    /// The threads it waits for; changed only by the last arrival, before it
    /// releases the others ([`Barrier::set_threads`]).
    threads: AtomicUsize,
    /// Apart: the arrivals' updates would evict the line that the waiting
    /// threads spin on.
    arrived: Padded<AtomicUsize>,
    generation: Padded<AtomicUsize>,
    aborted: AtomicBool,
    /// Nanoseconds that threads waited past [`STALLED_AFTER`] since the
    /// last [`Barrier::take_stalled`].
    stalled: AtomicU64,
    /// Threads asleep in [`Barrier::sleep`], and what they sleep on.
    sleepers: AtomicUsize,
    lock: Mutex<()>,
    wake: Condvar,
}

impl Barrier {
    pub(crate) fn new(threads: usize) -> Self {
        Barrier {
            threads: AtomicUsize::new(threads),
            arrived: Padded(AtomicUsize::new(0)),
            generation: Padded(AtomicUsize::new(0)),
            aborted: AtomicBool::new(false),
            stalled: AtomicU64::new(0),
            sleepers: AtomicUsize::new(0),
            lock: Mutex::new(()),
            wake: Condvar::new(),
        }
    }

    /// Returns once every thread has called it (as often); the last to
    /// arrive runs `last` first, while the others still wait (what it writes
    /// they see once released). An error once the barrier is aborted.
    pub(crate) fn wait(&self, last: impl FnOnce()) -> Result<(), Aborted> {
        let generation = self.generation.0.load(Acquire);
        if self.arrived.0.fetch_add(1, AcqRel) + 1 == self.threads.load(Relaxed) {
            last();
            self.arrived.0.store(0, Relaxed);
            self.release(generation.wrapping_add(1));
            return self.check();
        }
        let start = Instant::now();
        let mut spins = 0u32;
        while self.generation.0.load(Acquire) == generation {
            std::hint::spin_loop();
            spins += 1;
            if spins.is_multiple_of(SPINS_PER_LOOK) {
                self.check()?;
                if start.elapsed() >= SPIN {
                    return self.wait_slowly(generation, start);
                }
            }
        }
        self.check()
    }

    /// The threads it waits for from the next barrier on; only `last` of
    /// [`Barrier::wait`] may call it.
    pub(crate) fn set_threads(&self, threads: usize) {
        self.threads.store(threads, Relaxed);
    }

    /// The nanoseconds that threads have waited past [`STALLED_AFTER`]
    /// since the last call, and counting again from zero.
    pub(crate) fn take_stalled(&self) -> u64 {
        self.stalled.swap(0, Relaxed)
    }

    /// Releases every waiter, now and from now on, with [`Aborted`].
    pub(crate) fn abort(&self) {
        self.aborted.store(true, SeqCst);
        let _held = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.wake.notify_all();
    }

    fn check(&self) -> Result<(), Aborted> {
        if self.aborted.load(Relaxed) {
            Err(Aborted)
        } else {
            Ok(())
        }
    }

    /// Moves to `generation`, waking the threads that sleep.
    fn release(&self, generation: usize) {
        self.generation.0.store(generation, SeqCst);
        // SeqCst with `sleep`'s count and re-check: either this sees a
        // sleeper, or the sleeper sees the new generation.
        if self.sleepers.load(SeqCst) > 0 {
            let _held = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            self.wake.notify_all();
        }
    }

    /// [`Barrier::wait`] past the spinning that started at `start`: yields,
    /// then sleeps, and counts the time past [`STALLED_AFTER`] as stalled.
    #[cold]
    fn wait_slowly(&self, generation: usize, start: Instant) -> Result<(), Aborted> {
        while self.generation.0.load(Acquire) == generation && start.elapsed() < YIELD {
            self.check()?;
            std::thread::yield_now();
        }
        if self.generation.0.load(Acquire) == generation {
            self.sleep(generation);
        }
        let stalled = start.elapsed().saturating_sub(STALLED_AFTER);
        if !stalled.is_zero() {
            let nanos = u64::try_from(stalled.as_nanos()).unwrap_or(u64::MAX);
            self.stalled.fetch_add(nanos, Relaxed);
        }
        self.check()
    }

    /// Sleeps until the generation moves past `generation` or the barrier is
    /// aborted.
    fn sleep(&self, generation: usize) {
        let mut held = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.sleepers.fetch_add(1, SeqCst);
        while self.generation.0.load(SeqCst) == generation && !self.aborted.load(SeqCst) {
            held = self.wake.wait(held).unwrap_or_else(|e| e.into_inner());
        }
        self.sleepers.fetch_sub(1, SeqCst);
    }
}
