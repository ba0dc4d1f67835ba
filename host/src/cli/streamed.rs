//! Many sources whose rows are only summarized and written (`--sources`
//! without checks or trees): the rows stream from the library
//! ([`Prepared::solve_rows`]), each summarized and written to `--output` while
//! the next source solves, and none is kept, so memory does not grow with the
//! number of sources.

use sssp::Result;
use sssp::algorithms::{Algorithm, Processor};
use sssp::distances::{self, Summary};
use sssp::formats::output::RowWriter;
use sssp::graph::WeightKind;
use sssp::options::Timing;
use sssp::solver::{Prepared, Timer};

use super::input::Query;
use super::output::source_figures;
use super::report::{Human, JsonAbout, JsonAlgorithm, JsonCheck, JsonSource, JsonTimes, TableRow};
use super::solve_args::SolveArgs;

/// Whether `prepared`'s rows for `query` can stream: many sources, each row
/// timed once, no check, tree or path asked for, one GPU stream.
pub fn streams(args: &SolveArgs, query: &Query, prepared: &Prepared, timing: Timing) -> bool {
    query.many_sources
        && timing.runs == 1
        && !args.verify
        && !args.certify
        && args.parents.is_none()
        && query.path_target.is_none()
        && args.streams.is_none_or(|k| k == 1)
        && prepared.auto_streams(query.sources.len()) == 1
}

/// Solves from every source of `query`, streaming the rows: the warm-ups
/// first (from the first source), then one batch; each solve's own time is
/// printed, and the batch's on the host's clock.
pub fn solve(
    (args, query, out): (&SolveArgs, &Query, &Human),
    prepared: &mut Prepared,
    requested: Algorithm,
    timing: Timing,
) -> Result<(TableRow, JsonAlgorithm)> {
    let kind = prepared.graph().weight_kind();
    if timing.warmup > 0 {
        let warm = Timing {
            warmup: timing.warmup - 1,
            runs: 1,
        };
        prepared.solve(query.sources[0], query.stop, false, warm)?;
    }
    let mut sink = SummarySink::new(args, query, kind)?;
    let times = prepared.solve_rows(&query.sources, query.stop, &mut |i, row| sink.take(i, row))?;
    let sources = query.sources.len();
    let wall_ms = times.wall_ms;
    let per_row = wall_ms / sources as f64;
    out.line(format_args!(
        "solves       {sources} sources in {wall_ms:.3} ms, {per_row:.3} ms each (host clock, \
         copies and summaries included; each row summarized{} while the next source solves)",
        if sink.writes() { " and written" } else { "" }
    ));
    let summaries = sink.finish(args, out)?;
    let timer = match times.timer {
        Timer::CudaEvents => "cuda-events",
        Timer::Host => "host",
    };
    let mut json_sources = Vec::with_capacity(sources);
    let rows = summaries.iter().zip(&query.source_ids).zip(&times.solve_ms);
    for ((summary, &source_id), &solve_ms) in rows {
        out.line(format_args!(
            "{}, solve {solve_ms:.3} ms ({timer})",
            source_figures(source_id, kind, summary)
        ));
        json_sources.push(JsonSource {
            source: source_id,
            iterations: None,
            solve_ms: JsonTimes::of(&[solve_ms]),
            check: JsonCheck::new(kind, summary),
        });
    }
    let algorithm = prepared.algorithm();
    let about = JsonAbout {
        name: algorithm.name(),
        requested: requested.name(),
        paper: algorithm.spec().paper,
        device: match prepared.device() {
            Processor::Gpu => "gpu",
            Processor::Cpu => "cpu",
        },
        prepare_ms: prepared.prepare_ms(),
        timer,
    };
    let table_row = TableRow {
        algorithm: algorithm.name(),
        iterations: None,
        times: json_sources[0].solve_ms,
        verdict: "-".into(),
    };
    Ok((table_row, JsonAlgorithm::new(about, json_sources, true)))
}

/// Where the CLI's streamed rows go: each summarized, and written to
/// `--output` when given, as it comes.
pub struct SummarySink<'q> {
    writer: Option<RowWriter>,
    summaries: Vec<Option<Summary>>,
    sources: &'q [usize],
}

impl<'q> SummarySink<'q> {
    /// The sink of `query`'s rows of distance words of `kind`; starts the
    /// output file.
    pub fn new(args: &SolveArgs, query: &'q Query, kind: WeightKind) -> Result<Self> {
        let writer = match &args.output {
            Some(file) => {
                let format = args.output_format.into();
                Some(RowWriter::create(file, kind, query.numbering, format)?)
            }
            None => None,
        };
        Ok(SummarySink {
            writer,
            summaries: vec![None; query.sources.len()],
            sources: &query.sources,
        })
    }

    /// Row `i` of the sources (in any order): summarized and written.
    pub fn take(&mut self, i: usize, row: &[u32]) -> Result<()> {
        self.summaries[i] = Some(distances::summarize(row));
        match self.writer.as_mut() {
            Some(writer) => writer.row(self.sources[i], row),
            None => Ok(()),
        }
    }

    /// Whether the rows are written to a file.
    pub fn writes(&self) -> bool {
        self.writer.is_some()
    }

    /// Puts the output file in place (and says so); the rows' summaries.
    pub fn finish(self, args: &SolveArgs, out: &Human) -> Result<Vec<Summary>> {
        if let (Some(writer), Some(file)) = (self.writer, &args.output) {
            writer.finish()?;
            out.line(format_args!("output       {}", file.display()));
        }
        Ok(self.summaries.into_iter().flatten().collect())
    }
}
