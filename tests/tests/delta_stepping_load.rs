//! `delta-cpu` next to busy threads, one per core: its default is never much
//! slower than Dijkstra on one thread, however little of the machine it gets;
//! and a thread of it that panics fails the solve instead of leaving the
//! others waiting for it. An ignored test prints timings, idle and loaded
//! (`cargo test --release -p sssp-tests --test delta_stepping_load --
//! --ignored --nocapture`; graphs from `SSSP_TIMING_GRAPHS`, comma-separated
//! paths, besides graphs/rome99.gr and a 1000 × 1000 grid).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use sssp::cpu::delta_stepping::{delta_stepping, delta_stepping_panicking_in};
use sssp::generate::{GridSpec, grid_graph};
use sssp::options::Stop;
use sssp::{Error, Graph, formats, oracle};

/// Threads that keep every core busy until dropped, or for `limit` at most.
struct Busy {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl Busy {
    fn new(limit: Duration) -> Busy {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Busy::threads(cores, limit)
    }

    /// `count` busy threads.
    fn threads(count: usize, limit: Duration) -> Busy {
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..count)
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

/// Prints the median and largest time of `delta-cpu`'s default, of it on one
/// thread and of Dijkstra on `graph`, in `runs` alternating runs.
fn print_timings(name: &str, graph: &Graph, runs: usize) {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    let mut times = [(); 3].map(|_| Vec::new());
    for _ in 0..runs {
        times[0].push(timed(|| delta_stepping(graph, 0, None, Stop::default())).1);
        times[1].push(timed(|| one.install(|| delta_stepping(graph, 0, None, Stop::default()))).1);
        times[2].push(timed(|| oracle::dijkstra(graph, 0)).1);
    }
    let shown = times.map(|t| {
        let largest = t.iter().copied().fold(0.0, f64::max);
        format!("{:7.1} ms (max {:7.1})", median(t) * 1e3, largest * 1e3)
    });
    println!(
        "{name:>12}: delta-cpu {} | on one thread {} | Dijkstra {}",
        shown[0], shown[1], shown[2]
    );
}

#[test]
#[ignore = "a measurement, not a check"]
fn timings_idle_and_next_to_busy_threads() {
    let runs = std::env::var("RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    let mut paths = vec![sssp_tests::find_graph("rome99.gr")];
    if let Some(more) = std::env::var_os("SSSP_TIMING_GRAPHS") {
        paths.extend(std::env::split_paths(
            &more.to_string_lossy().replace(',', ":"),
        ));
    }
    let mut graphs: Vec<(String, Graph)> = paths
        .iter()
        .map(|path| {
            let loaded = formats::load(path, None).expect("a graph");
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            (
                name.unwrap_or_default(),
                loaded.into_graph().expect("a graph"),
            )
        })
        .collect();
    graphs.push((
        "grid 1000²".into(),
        grid_graph(&GridSpec::new(1000, 1000, 7)).expect("a grid"),
    ));
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    for busy in [0, cores] {
        println!("--- next to {busy} busy threads ---");
        let _busy = Busy::threads(busy, Duration::from_secs(300));
        for (name, graph) in &graphs {
            print_timings(name, graph, runs);
        }
    }
}
