//! The driver of a spread: batches of sources handed out dynamically (an
//! atomic cursor over batch indices) to one host thread per [`Worker`], so a
//! faster device takes more of them; the first error (or panic) of any
//! worker stops the others from taking more and is returned, naming the
//! worker.

use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use super::gpus::Worker;
use crate::{Error, Result};

/// Where a spread's rows go: like [`crate::options::RowSink`] (the row's
/// index in the sources, the row lent for the call), called by one worker at
/// a time, the rows of one batch in order but the batches as they finish.
pub type SharedSink<'s> = dyn FnMut(usize, &[u32]) -> Result<()> + Send + 's;

/// The sink of a batch starting at source `start`: its rows handed to the
/// shared `sink` at their index in all the sources, one worker at a time.
pub(crate) fn batch_sink<'a, 's: 'a>(
    sink: &'a Mutex<&mut SharedSink<'s>>,
    start: usize,
) -> impl FnMut(usize, &[u32]) -> Result<()> + 'a {
    move |i, row| {
        let mut sink = sink.lock().unwrap_or_else(|e| e.into_inner());
        sink(start + i, row)
    }
}

/// Work of one batch, in source-vertex-solves: sources × (vertices + arcs).
/// At the rate of a PHAST sweep on a data-centre GPU (about 10¹¹ of them a
/// second on road networks: a tree of 1 M vertices and 4 M arcs in ~30 µs,
/// docs/PERFORMANCE.md) a batch is about 100 ms, as `sssp_gpu.dask` aims
/// for: long enough that a batch's sweeps pipeline with the host's upward
/// searches and the per-call costs (pipeline fill, a reduction's copies)
/// stay small, short enough that the devices finish within a batch of each
/// other.
pub const BATCH_WORK: usize = 10_000_000_000;

/// The default batch of a spread of `sources` sources over `workers`
/// workers on a graph of `elements` vertices and arcs: [`BATCH_WORK`]'s
/// worth of sources, at most a quarter of a worker's share (so that the
/// last batches balance), at least `lanes` (one full GPU sweep) and a whole
/// number of them.
pub fn default_batch(elements: usize, sources: usize, workers: usize, lanes: usize) -> usize {
    let lanes = lanes.max(1);
    let by_work = BATCH_WORK / elements.max(1);
    let by_balance = sources.div_ceil(workers.max(1) * 4);
    by_work.min(by_balance).max(lanes).div_ceil(lanes) * lanes
}

/// What one worker did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorkerReport {
    /// The worker.
    pub worker: Worker,
    /// Sources it took.
    pub rows: usize,
    /// Batches it took.
    pub batches: usize,
    /// Its wall time, setup included, ms.
    pub ms: f64,
}

/// A worker's share of the batches: an iterator of ranges of source
/// indices, taken from the shared cursor as the worker asks, ending early
/// once another worker failed.
pub struct Batches<'s> {
    cursor: &'s AtomicUsize,
    failed: &'s AtomicBool,
    total: usize,
    size: usize,
    rows: usize,
    batches: usize,
}

impl Batches<'_> {
    /// Whether another worker failed: a long batch may end early.
    pub fn stopped(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }

    /// An error when another worker failed (the first failure is what the
    /// spread returns; this one is dropped).
    pub fn check(&self) -> Result<()> {
        match self.stopped() {
            true => Err(Error::Internal("stopped: another worker failed".into())),
            false => Ok(()),
        }
    }
}

impl Iterator for Batches<'_> {
    type Item = Range<usize>;

    fn next(&mut self) -> Option<Range<usize>> {
        if self.stopped() {
            return None;
        }
        let start = self
            .cursor
            .fetch_add(1, Ordering::Relaxed)
            .checked_mul(self.size)?;
        if start >= self.total {
            return None;
        }
        let end = self.total.min(start + self.size);
        self.rows += end - start;
        self.batches += 1;
        Some(start..end)
    }
}

/// Runs `work` on one host thread per worker of `workers` (the same worker
/// twice: two threads), each taking batches of `batch` of the `total`
/// sources from [`Batches`] until none is left; what each returns, with its
/// [`WorkerReport`], in the order of `workers`. `work` opens its device and
/// uploads its graph itself (one context and copy per worker), then loops
/// over the batches. The first error of any worker, or a panic as
/// [`Error::Internal`], stops the others at their next batch and is
/// returned with the worker named.
pub fn spread<T: Send>(
    workers: &[Worker],
    total: usize,
    batch: usize,
    work: impl Fn(Worker, &mut Batches<'_>) -> Result<T> + Sync,
) -> Result<Vec<(WorkerReport, T)>> {
    if workers.is_empty() {
        return Err(Error::InvalidArgument(
            "a spread needs at least one worker (a GPU or the CPU)".into(),
        ));
    }
    if batch == 0 {
        return Err(Error::InvalidArgument(
            "a spread's batch must hold at least one source".into(),
        ));
    }
    let cursor = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let first_error: Mutex<Option<Error>> = Mutex::new(None);
    let (cursor, failed, first, work) = (&cursor, &failed, &first_error, &work);
    let results: Vec<Option<(WorkerReport, T)>> = std::thread::scope(|scope| {
        let threads: Vec<_> = workers
            .iter()
            .enumerate()
            .map(|(k, &worker)| {
                scope.spawn(move || {
                    let start = Instant::now();
                    let mut batches = Batches {
                        cursor,
                        failed,
                        total,
                        size: batch,
                        rows: 0,
                        batches: 0,
                    };
                    let result = crate::panics::catching("a worker", || work(worker, &mut batches));
                    let report = WorkerReport {
                        worker,
                        rows: batches.rows,
                        batches: batches.batches,
                        ms: start.elapsed().as_secs_f64() * 1e3,
                    };
                    result
                        .map_err(|e| fail(first, failed, on_worker(e, worker, k, workers.len())))
                        .ok()
                        .map(|t| (report, t))
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|thread| thread.join().ok().flatten())
            .collect()
    });
    if let Some(error) = first_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(error);
    }
    results
        .into_iter()
        .map(|r| {
            r.ok_or_else(|| Error::Internal("a worker of a spread ended without a result".into()))
        })
        .collect()
}

/// Keeps `error` if it is the first, and stops the other workers.
fn fail(first: &Mutex<Option<Error>>, failed: &AtomicBool, error: Error) {
    let mut first = first.lock().unwrap_or_else(|e| e.into_inner());
    first.get_or_insert(error);
    failed.store(true, Ordering::Relaxed);
}

/// `error` naming the worker (the `k`th of `count`) it happened on, where
/// it depends on the device: the CUDA, memory and internal errors. Errors of
/// the input (a distance that overflows, a bad argument) are the same on
/// every device and stay as they are.
fn on_worker(error: Error, worker: Worker, k: usize, count: usize) -> Error {
    let who = format!("{worker} (worker {} of {count})", k + 1);
    match error {
        Error::Cuda { context, source } => Error::Cuda {
            context: format!("{context} on {who}"),
            source,
        },
        Error::OutOfMemory { what, needed, free } => Error::OutOfMemory {
            what: format!("{what} on {who}"),
            needed,
            free,
        },
        Error::NoGpu(reason) => Error::NoGpu(format!("{who}: {reason}")),
        Error::Internal(reason) => Error::Internal(format!("{who}: {reason}")),
        other => other,
    }
}
