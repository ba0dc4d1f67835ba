//! `delta-cpu` next to busy threads, one per core: its default is never much
//! slower than Dijkstra on one thread, however little of the machine it gets;
//! and a thread of it that panics fails the solve instead of leaving the
//! others waiting for it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use sssp::cpu::delta_stepping::{delta_stepping, delta_stepping_panicking_in};
use sssp::generate::{GridSpec, grid_graph};
use sssp::options::Stop;
use sssp::{Error, oracle};

/// Threads that keep every core busy until dropped, or for `limit` at most.
struct Busy {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl Busy {
    fn new(limit: Duration) -> Busy {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..cores)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let start = Instant::now();
                    let mut x = 1u64;
                    while !stop.load(Ordering::Relaxed) && start.elapsed() < limit {
                        for _ in 0..1000 {
                            x = std::hint::black_box(x.wrapping_mul(6364136223846793005) ^ 1);
                        }
                    }
                })
            })
            .collect();
        Busy { stop, threads }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// The seconds `work` takes.
fn timed<T>(work: impl FnOnce() -> T) -> (T, f64) {
    let start = Instant::now();
    let result = work();
    (result, start.elapsed().as_secs_f64())
}

#[test]
fn the_default_next_to_busy_threads_is_not_slower_than_dijkstra() {
    // About 300,000 vertices.
    let graph = grid_graph(&GridSpec::new(550, 550, 5)).expect("a grid");
    let expected = oracle::dijkstra(&graph, 0).expect("the oracle's distances");
    let _busy = Busy::new(Duration::from_secs(60));
    let (mut delta, mut dijkstra) = (Vec::new(), Vec::new());
    let start = Instant::now();
    // Alternately, so that both see the same load; at least 5 each, more
    // while time allows.
    while delta.len() < 5 || (delta.len() < 15 && start.elapsed() < Duration::from_secs(10)) {
        let (found, seconds) = timed(|| delta_stepping(&graph, 0, None, Stop::default()));
        assert_eq!(
            found.expect("a solve").dist,
            expected,
            "delta-cpu's distances"
        );
        delta.push(seconds);
        let (_, seconds) = timed(|| oracle::dijkstra(&graph, 0));
        dijkstra.push(seconds);
    }
    let (delta, dijkstra) = (median(delta), median(dijkstra));
    println!(
        "next to busy threads: delta-cpu {:.1} ms, Dijkstra {:.1} ms (medians)",
        delta * 1e3,
        dijkstra * 1e3
    );
    assert!(
        delta <= 1.2 * dijkstra,
        "delta-cpu took {:.1} ms, more than 1.2 × Dijkstra's {:.1} ms",
        delta * 1e3,
        dijkstra * 1e3
    );
}

#[test]
fn a_panicking_thread_fails_the_solve() {
    let graph = grid_graph(&GridSpec::new(100, 100, 3)).expect("a grid");
    for threads in [1, 2, 4] {
        for thread in 0..threads {
            let solved = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool")
                .install(|| delta_stepping_panicking_in(&graph, 0, thread));
            match solved {
                Err(Error::Internal(message)) => assert!(message.contains("panicked"), "{message}"),
                other => panic!("thread {thread} of {threads}: {other:?}, not an internal error"),
            }
        }
    }
    // The hook off: the same solve works.
    let expected = oracle::dijkstra(&graph, 0).expect("the oracle's distances");
    assert_eq!(
        delta_stepping(&graph, 0, None, Stop::default())
            .unwrap()
            .dist,
        expected
    );
}
