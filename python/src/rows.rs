//! Solves whose rows land straight in numpy arrays: the arrays are allocated
//! first ([`solve_into`]), then each source's distance words are converted
//! into its row in place (float64, `inf` where unreached) and its tree into
//! scipy's int32 predecessors.

use gpu_kernels::distance::{INFINITY, Weight};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;
use sssp::graph::WeightKind;
use sssp::options::{Stop, Timing};
use sssp::parents::NO_PARENT;
use sssp::solution::SourceSolution;
use sssp::solver::Prepared;

use crate::{SCIPY_NO_PREDECESSOR, device_name};

/// Where a solve's rows land: `dist` and `preds` hold `rows × n` values,
/// `sources` (`min_only` with predecessors) `n`.
pub(crate) struct Out<'b> {
    pub n: usize,
    pub dist: &'b mut [f64],
    pub preds: Option<&'b mut [i32]>,
    pub sources: Option<&'b mut [i32]>,
}

/// What a solve reports besides its rows.
pub(crate) struct Report {
    /// Per solve (per source; one for a super-source `min_only`).
    pub iterations: Vec<Option<u32>>,
    pub solve_ms: Vec<f64>,
    pub prepare_ms: Option<f64>,
    pub algorithm: &'static str,
    pub device: &'static str,
}

impl Report {
    /// An empty report of `prepared`'s solves.
    pub fn of(prepared: &Prepared<'_>) -> Report {
        Report {
            iterations: Vec::new(),
            solve_ms: Vec::new(),
            prepare_ms: prepared.prepare_ms(),
            algorithm: prepared.algorithm().name(),
            device: device_name(prepared.device()),
        }
    }

    /// Adds `row`'s iterations and time.
    pub fn add(&mut self, row: &SourceSolution) {
        self.iterations.push(row.iterations);
        self.solve_ms.push(row.median_ms());
    }
}

/// Allocates `rows × n` float64 distances (and int32 predecessors with
/// `predecessors`, and `n` int32 sources with `sources`), then runs `solve`
/// on them without the GIL. Returns scipy's arrays and `solve`'s report in a
/// dict: `dist`, `predecessors` (or None), `sources` (when asked),
/// `iterations`, `solve_ms`, `prepare_ms`, `algorithm`, `device`.
pub(crate) fn solve_into<'py>(
    py: Python<'py>,
    [rows, n]: [usize; 2],
    predecessors: bool,
    sources: bool,
    solve: impl FnOnce(Out<'_>) -> PyResult<Report> + Send,
) -> PyResult<Bound<'py, PyDict>> {
    let dist: Bound<'py, PyArray2<f64>> = crate::zeros(py, (rows, n))?;
    let preds: Option<Bound<'py, PyArray2<i32>>> = predecessors
        .then(|| crate::zeros(py, (rows, n)))
        .transpose()?;
    let roots: Option<Bound<'py, PyArray1<i32>>> = (predecessors && sources)
        .then(|| crate::zeros(py, (n,)))
        .transpose()?;
    let report = {
        let mut dist = dist.readwrite();
        let mut preds = preds.as_ref().map(|p| p.readwrite());
        let mut roots = roots.as_ref().map(|s| s.readwrite());
        let out = Out {
            n,
            dist: dist.as_slice_mut()?,
            preds: preds.as_mut().map(|p| p.as_slice_mut()).transpose()?,
            sources: roots.as_mut().map(|s| s.as_slice_mut()).transpose()?,
        };
        py.detach(|| crate::unpanicked("the solve", || solve(out)))?
    };
    let dict = PyDict::new(py);
    dict.set_item("dist", dist)?;
    match preds {
        Some(preds) => dict.set_item("predecessors", preds)?,
        None => dict.set_item("predecessors", py.None())?,
    }
    if let Some(roots) = roots {
        dict.set_item("sources", roots)?;
    }
    dict.set_item("iterations", report.iterations)?;
    dict.set_item("solve_ms", report.solve_ms)?;
    dict.set_item("prepare_ms", report.prepare_ms)?;
    dict.set_item("algorithm", report.algorithm)?;
    dict.set_item("device", report.device)?;
    Ok(dict)
}

/// The value of distance word `d` of weights of type `W`, `inf` for
/// unreached.
#[inline(always)]
fn value<W: Weight>(d: u32) -> f64 {
    if d == INFINITY {
        f64::INFINITY
    } else {
        W::to_f64(d)
    }
}

/// The value of distance word `d` of weights of `kind`, `inf` for unreached.
pub(crate) fn distance_value(d: u32, kind: WeightKind) -> f64 {
    match kind {
        WeightKind::U32 => value::<u32>(d),
        WeightKind::F32 => value::<f32>(d),
    }
}

/// Distances one thread converts to float64 at a time.
const CONVERT_CHUNK: usize = 1 << 14;

/// `words` as float64 values in `out` (one type dispatch per row), in
/// chunks on all cores: a fresh array's pages are first touched here, and
/// on one thread that costs more than a solve.
pub(crate) fn write_values(words: &[u32], kind: WeightKind, out: &mut [f64]) {
    fn convert<W: Weight>(words: &[u32], out: &mut [f64]) {
        out.par_chunks_mut(CONVERT_CHUNK)
            .zip(words.par_chunks(CONVERT_CHUNK))
            .for_each(|(out, words)| {
                for (o, &d) in out.iter_mut().zip(words) {
                    *o = value::<W>(d);
                }
            });
    }
    match kind {
        WeightKind::U32 => convert::<u32>(words, out),
        WeightKind::F32 => convert::<f32>(words, out),
    }
}

/// Parent words as scipy's predecessors: -9999 for none (and for `root`).
pub(crate) fn write_predecessors(parents: &[u32], root: Option<u32>, out: &mut [i32]) {
    for (o, &p) in out.iter_mut().zip(parents) {
        *o = if p == NO_PARENT || Some(p) == root {
            SCIPY_NO_PREDECESSOR
        } else {
            p as i32
        };
    }
}

/// Writes `row`'s first `out.n` distances (and predecessors, below `root`)
/// into row `i` of `out`.
pub(crate) fn write_row(out: &mut Out<'_>, i: usize, row: &SourceSolution, root: Option<u32>) {
    let n = out.n;
    let span = i * n..(i + 1) * n;
    write_values(
        &row.dist[..n],
        row.weight_kind(),
        &mut out.dist[span.clone()],
    );
    if let (Some(preds), Some(tree)) = (out.preds.as_deref_mut(), row.parents.as_deref()) {
        write_predecessors(&tree[..n], root, &mut preds[span]);
    }
}

/// Solves from each of `sources` on `prepared`, each row written into `out`
/// as it comes. Without predecessors the rows stream
/// ([`Prepared::solve_rows`]: the next source solves while a row is
/// converted into its numpy row), with each solve's time but no iteration
/// count. Several GPU streams
/// (many sources, [`Prepared::auto_streams`]) return their rows together.
pub(crate) fn solve_rows(
    prepared: &mut Prepared<'_>,
    sources: &[usize],
    stop: Stop,
    mut out: Out<'_>,
) -> sssp::Result<Report> {
    let parents = out.preds.is_some();
    let mut report = Report::of(prepared);
    let streams = prepared.auto_streams(sources.len());
    if !parents && streams == 1 {
        let (n, kind) = (out.n, prepared.graph().weight_kind());
        let dist = &mut *out.dist;
        let times = prepared.solve_rows(sources, stop, &mut |i, row| {
            write_values(&row[..n], kind, &mut dist[i * n..(i + 1) * n]);
            Ok(())
        })?;
        report.iterations = vec![None; sources.len()];
        report.solve_ms = times.solve_ms;
    } else if streams > 1 {
        let batch =
            prepared.solve_many(sources, (stop, parents, Timing::default()), Some(streams))?;
        for (i, row) in batch.rows.into_iter().enumerate() {
            write_row(&mut out, i, &row, None);
            report.add(&row);
        }
    } else {
        for (i, &source) in sources.iter().enumerate() {
            let row = prepared.solve(source, stop, parents, Timing::default())?;
            write_row(&mut out, i, &row, None);
            report.add(&row);
        }
    }
    Ok(report)
}

/// `min_only` on a prepared graph: the minimum over the rows of `sources`
/// (one solve each; exact, and no new graph). A vertex's predecessor and
/// source are those of the first row that reaches it nearest (its parent there
/// is tight for the minimum too); every source is a root of its own, as in
/// scipy. `out` holds one row.
pub(crate) fn solve_min(
    prepared: &mut Prepared<'_>,
    sources: &[usize],
    stop: Stop,
    out: Out<'_>,
) -> sssp::Result<Report> {
    let parents = out.preds.is_some();
    let mut report = Report::of(prepared);
    let Out {
        n,
        dist,
        mut preds,
        sources: mut roots,
    } = out;
    dist.fill(f64::INFINITY);
    for buffer in [preds.as_deref_mut(), roots.as_deref_mut()]
        .into_iter()
        .flatten()
    {
        buffer.fill(SCIPY_NO_PREDECESSOR);
    }
    for &source in sources {
        let row = prepared.solve(source, stop, parents, Timing::default())?;
        let kind = row.weight_kind();
        let tree = row.parents.as_deref();
        for (v, &d) in row.dist[..n].iter().enumerate() {
            let d = distance_value(d, kind);
            if d < dist[v] {
                dist[v] = d;
                if let (Some(preds), Some(tree)) = (preds.as_deref_mut(), tree) {
                    write_predecessors(&tree[v..=v], None, &mut preds[v..=v]);
                }
                if let Some(roots) = roots.as_deref_mut() {
                    roots[v] = source as i32;
                }
            }
        }
        report.add(&row);
    }
    for &source in sources {
        if let Some(preds) = preds.as_deref_mut() {
            preds[source] = SCIPY_NO_PREDECESSOR;
        }
        if let Some(roots) = roots.as_deref_mut() {
            roots[source] = source as i32;
        }
    }
    Ok(report)
}
