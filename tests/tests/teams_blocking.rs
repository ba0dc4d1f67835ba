//! The CPU emulation of warps (`sssp_tests::teams`) on a busy machine: a
//! thread waiting at a barrier sleeps after a short spin instead of taking
//! the core of the thread it waits for, and a thread that panics fails the
//! launch within moments instead of hanging it.
//! Both tests are in this one file so that no other test's threads share
//! the process while the CPU time is measured (they run one at a time).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use gpu_kernels::team::{Exit, Team};
use sssp_tests::teams::run_on_threads;

/// One test at a time: the CPU time is the whole process's.
static ALONE: Mutex<()> = Mutex::new(());

/// The process's CPU time (user and system) so far, from /proc/self/stat;
/// `None` where there is no /proc.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's closing parenthesis; utime and stime
    // are the 14th and 15th of the line, in clock ticks (100 a second).
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

#[test]
fn threads_waiting_for_a_slow_one_sleep() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let Some(before) = cpu_time() else {
        eprintln!("skipped: no /proc/self/stat");
        return;
    };
    let start = Instant::now();
    let slow = Duration::from_millis(600);
    let exit = run_on_threads((2, 8), |t| {
        if t.thread() == 0 {
            std::thread::sleep(slow);
        }
        t.barrier();
        Exit::Converged
    });
    assert_eq!(exit, Exit::Converged);
    let wall = start.elapsed();
    let used = cpu_time().unwrap() - before;
    // 15 threads spinning for 600 ms would take every core for that long.
    assert!(
        used < Duration::from_millis(200),
        "waiting threads used {used:?} of CPU time in {wall:?}"
    );
}

#[test]
fn a_panicking_lane_fails_the_launch_without_hanging() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let start = Instant::now();
    let outcome = std::panic::catch_unwind(|| {
        run_on_threads((2, 8), |t| {
            t.barrier();
            assert!(t.thread() != 5, "lane 5 fails");
            // The others wait at warp-wide calls and the block's barrier.
            t.warp_inclusive_sum(1);
            t.barrier();
            Exit::Converged
        })
    });
    assert!(outcome.is_err(), "the launch did not fail");
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
}
