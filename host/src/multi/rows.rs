//! A solver's rows without an index spread over workers: each worker opens
//! its device, prepares the algorithm for the graph once
//! ([`crate::solver::Prepared`]) and streams its batches' rows.

use std::sync::Mutex;

use super::gpus::Worker;
use super::spread::{SharedSink, WorkerReport, batch_sink, spread};
use crate::algorithms::Algorithm;
use crate::auto::plan::Solves;
use crate::options::{Stop, Tuning};
use crate::{Graph, Result, Solver, distances};

/// The rows of `sources` on `graph` by `algorithm` bounded by `stop`,
/// spread over `workers` in batches of `batch` sources, handed to `sink`
/// by their index in `sources` ([`SharedSink`]). What each worker did.
pub fn solve_rows(
    graph: &Graph,
    (algorithm, tuning): (Algorithm, Tuning),
    (workers, batch): (&[Worker], usize),
    (sources, stop): (&[usize], Stop),
    sink: &mut SharedSink<'_>,
) -> Result<Vec<WorkerReport>> {
    for &source in sources {
        distances::check_source(graph, source)?;
    }
    stop.check(graph.num_vertices())?;
    let Some(&first) = sources.first() else {
        return Ok(Vec::new());
    };
    let sink = Mutex::new(sink);
    let done = spread(workers, sources.len(), batch, |worker, batches| {
        let solver = Solver::new(worker.device())?;
        let solves = (first, Solves::Count(sources.len()));
        let mut prepared = solver.prepare_for(graph, algorithm, tuning, solves)?;
        for range in batches {
            let start = range.start;
            prepared.solve_rows(&sources[range], stop, &mut batch_sink(&sink, start))?;
        }
        Ok(())
    })?;
    Ok(done.into_iter().map(|(report, _)| report).collect())
}
