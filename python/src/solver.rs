//! [`Solver`]: one-off solves on CSR arrays copied from numpy.

use std::sync::Arc;

use numpy::PyReadonlyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use sssp::algorithms::Algorithm;
use sssp::auto::plan::Solves;
use sssp::graph::Graph;
use sssp::options::{Stop, Timing, Tuning};
use sssp::parents::NO_PARENT;
use sssp::solver;

use crate::rows::{self, Out, Report};
use crate::{
    SCIPY_NO_PREDECESSOR, bind, limit_word, owned_graph, parse_device, to_py, weight_kind,
};

/// A solver bound to a device, reused across solves (the CUDA context and
/// kernels are loaded once); shared with the prepared graphs made on it.
#[pyclass(module = "sssp_gpu._native", frozen)]
pub(crate) struct Solver {
    pub(crate) inner: Arc<solver::Solver>,
}

#[pymethods]
impl Solver {
    #[new]
    #[pyo3(signature = (device = "auto"))]
    fn new(py: Python<'_>, device: &str) -> PyResult<Self> {
        let device = parse_device(device)?;
        let inner = py.detach(|| solver::Solver::new(device)).map_err(to_py)?;
        Ok(Solver {
            inner: Arc::new(inner),
        })
    }

    /// "gpu" or "cpu": where GPU algorithms run.
    #[getter]
    pub(crate) fn device(&self) -> &'static str {
        if self.inner.gpu().is_some() {
            "gpu"
        } else {
            "cpu"
        }
    }

    /// Why there is no GPU (None when there is one).
    #[getter]
    fn no_gpu_reason(&self) -> Option<&str> {
        self.inner.no_gpu_reason()
    }

    /// Solves from `sources` on the CSR `(indptr, indices, words)` whose
    /// weight words are `u32`s or, with `float_weights`, `f32` bit patterns:
    /// prepares once for this call, then writes each row into the result.
    /// Returns a dict: `dist` (rows × n float64), `predecessors` (int32 or
    /// None), `sources` (int32, `min_only` with predecessors), `iterations`,
    /// `solve_ms`, `prepare_ms`, `algorithm`, `device`.
    #[pyo3(signature = (indptr, indices, words, float_weights, sources, *, limit, predecessors, undirected, min_only, algorithm))]
    #[allow(clippy::too_many_arguments)]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        indptr: PyReadonlyArray1<'py, u32>,
        indices: PyReadonlyArray1<'py, u32>,
        words: PyReadonlyArray1<'py, u32>,
        float_weights: bool,
        sources: Vec<usize>,
        limit: f64,
        predecessors: bool,
        undirected: bool,
        min_only: bool,
        algorithm: &str,
    ) -> PyResult<Bound<'py, PyDict>> {
        let algorithm: Algorithm = algorithm.parse().map_err(PyValueError::new_err)?;
        let kind = weight_kind(float_weights);
        let stop = Stop {
            limit: limit_word(limit, kind),
            target: None,
        };
        // Copied while the GIL is held: another Python thread may write into
        // the arrays while the solve runs without it.
        let graph = owned_graph([&indptr, &indices, &words], float_weights, undirected)?;
        let n = graph.num_vertices();
        let rows = if min_only { 1 } else { sources.len() };
        rows::solve_into(py, [rows, n], predecessors, min_only, |out| {
            bind(&self.inner).map_err(to_py)?;
            if min_only {
                solve_super_source(&self.inner, &graph, &sources, (algorithm, stop), out)
            } else {
                let first = *sources
                    .first()
                    .ok_or_else(|| PyValueError::new_err("a solve needs at least one source"))?;
                // Prepared for exactly these solves: `auto` plans for them
                // (one solve: no trial).
                let mut prepared = self
                    .inner
                    .prepare_for(
                        &graph,
                        algorithm,
                        Tuning::default(),
                        (first, Solves::Count(sources.len())),
                    )
                    .map_err(to_py)?;
                rows::solve_rows(&mut prepared, &sources, stop, out).map_err(to_py)
            }
        })
    }
}

/// `min_only` in one solve: from a super source with a zero-weight arc to
/// each of `sources` on a copy of `graph` ([`with_super_source`]).
fn solve_super_source(
    solver: &solver::Solver,
    graph: &Graph<'_>,
    sources: &[usize],
    (algorithm, stop): (Algorithm, Stop),
    mut out: Out<'_>,
) -> PyResult<Report> {
    let n = graph.num_vertices();
    let root = n as u32;
    let graph = with_super_source(graph, sources)?;
    let mut prepared = solver
        .prepare_for(&graph, algorithm, Tuning::default(), (n, Solves::Count(1)))
        .map_err(to_py)?;
    let mut row = prepared
        .solve(n, stop, out.preds.is_some(), Timing::default())
        .map_err(to_py)?;
    if let Some(tree) = row.parents.as_mut() {
        // scipy's sources are roots even where another source reaches
        // them at distance 0 (the tree may hang one below another).
        sources.iter().for_each(|&s| tree[s] = root);
        if let Some(roots) = out.sources.as_deref_mut() {
            tree_sources(&tree[..n], root, roots);
        }
    }
    rows::write_row(&mut out, 0, &row, Some(root));
    let mut report = Report::of(&prepared);
    report.add(&row);
    Ok(report)
}

/// The graph with one more vertex, `n`, with a zero-weight arc to each of
/// `sources`: its distances are the minimum over the sources (`min_only`).
fn with_super_source(graph: &Graph, sources: &[usize]) -> PyResult<Graph<'static>> {
    let arcs = u32::try_from(graph.num_edges() + sources.len())
        .map_err(|_| PyValueError::new_err("too many edges for 32-bit offsets"))?;
    let mut offsets = graph.offsets().to_vec();
    offsets.push(arcs);
    let mut targets = graph.targets().to_vec();
    targets.extend(sources.iter().map(|&s| s as u32));
    let mut weights = graph.weights().to_vec();
    weights.resize(arcs as usize, 0);
    Graph::new(offsets, targets, weights)
        .and_then(|g| g.with_weight_kind(graph.weight_kind()))
        .map_err(|e| to_py(e.into()))
}

/// For each vertex of a shortest-path tree rooted at the super-source `root`,
/// the source below the root that it hangs from (scipy's `sources` of
/// `min_only`), -9999 when unreached, into `out`. Each vertex is walked once.
fn tree_sources(parents: &[u32], root: u32, out: &mut [i32]) {
    const UNKNOWN: i32 = i32::MIN;
    out.fill(UNKNOWN);
    let mut path = Vec::new();
    for v in 0..parents.len() {
        let mut u = v;
        while out[u] == UNKNOWN {
            match parents[u] {
                p if p == root => {
                    out[u] = u as i32;
                    break;
                }
                NO_PARENT => {
                    out[u] = SCIPY_NO_PREDECESSOR;
                    break;
                }
                p => {
                    path.push(u);
                    u = p as usize;
                }
            }
        }
        let found = out[u];
        for w in path.drain(..) {
            out[w] = found;
        }
    }
}
