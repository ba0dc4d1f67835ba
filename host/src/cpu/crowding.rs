//! When the threads of a `delta-cpu` solve stand in each other's way: the
//! machine leaves some of them no core, and the others wait for them at
//! every barrier. Then some leave the solve.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU32, AtomicU64};
use std::time::{Duration, Instant};

use super::barrier::Barrier;

/// Where a solve's threads stand in each other's way: they wait at the
/// barrier for threads that have no core (the machine busy with other
/// work). Measured over windows of at least [`Crowding::WINDOW`] between
/// barriers; after [`Crowding::STRIKES`] windows in a row in which the
/// threads stalled at the barrier more than a quarter of the time, half
/// of them leave the solve, down to the calling thread alone, which needs no
/// barrier and can never be slower than one thread. A single late thread
/// (the system's own work) does not make a strike twice.
pub(crate) struct Crowding {
    /// When the solve started.
    start: Instant,
    /// Nanoseconds from `start` to the start of the current window.
    window_start: AtomicU64,
    /// Windows in a row over the limit.
    strikes: AtomicU32,
}

impl Crowding {
    const WINDOW: Duration = Duration::from_millis(1);
    const STRIKES: u32 = 2;

    pub(crate) fn new() -> Self {
        Crowding {
            start: Instant::now(),
            window_start: AtomicU64::new(0),
            strikes: AtomicU32::new(0),
        }
    }

    /// The threads to keep working from `active`, judged by the last thread
    /// to reach a barrier before it releases the others.
    pub(crate) fn threads(&self, barrier: &Barrier, active: usize) -> usize {
        let now = u64::try_from(self.start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        let window = now.saturating_sub(self.window_start.load(Relaxed));
        if active == 1 || window < Self::WINDOW.as_nanos() as u64 {
            return active;
        }
        self.window_start.store(now, Relaxed);
        let stalled = barrier.take_stalled();
        if stalled.saturating_mul(4) <= window.saturating_mul(active as u64 - 1) {
            self.strikes.store(0, Relaxed);
            return active;
        }
        if self.strikes.fetch_add(1, Relaxed) + 1 < Self::STRIKES {
            return active;
        }
        self.strikes.store(0, Relaxed);
        active / 2
    }
}
