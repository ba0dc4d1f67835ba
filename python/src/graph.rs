//! [`PreparedGraph`] (`Graph` in Python): a graph copied once and prepared
//! once ([`sssp::solver::Prepared`]: on the GPU, uploaded, with the solver's
//! state allocated), then solved from any sources any number of times.
//!
//! Ownership: a [`Prepared`] borrows the library's solver and the graph, so
//! the three live together in a self-referential cell ([`PreparedCell`]):
//! the owner holds the solver (an `Arc` shared with the Python `Solver` it
//! came from) and the graph (owned arrays: Python cannot change it while it
//! is solved); the dependent is the `Prepared`. A mutex around the cell lets
//! one solve at a time run on it, from any Python thread; solves run without
//! the GIL, which is never waited for while the mutex is held.

use std::sync::{Arc, Mutex};

use numpy::PyReadonlyArray1;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use self_cell::self_cell;
use sssp::algorithms::Algorithm;
use sssp::auto::plan::Solves;
use sssp::graph::{Graph, WeightKind};
use sssp::options::{Stop, Tuning};
use sssp::solver::{self, Prepared};

use crate::rows::{self, Report};
use crate::solver::Solver;
use crate::{bind, device_name, limit_word, owned_graph, to_py};

/// What a [`Prepared`] borrows.
struct Owner {
    solver: Arc<solver::Solver>,
    graph: Graph<'static>,
}

self_cell!(
    /// A graph, its solver and the two prepared together.
    struct PreparedCell {
        owner: Owner,
        #[covariant]
        dependent: Prepared,
    }
);

/// A graph prepared once for any number of solves (Python's
/// `sssp_gpu._native.Graph`).
#[pyclass(module = "sssp_gpu._native", name = "Graph", frozen)]
pub(crate) struct PreparedGraph {
    /// `None` for a graph without vertices (nothing to prepare).
    cell: Option<Mutex<PreparedCell>>,
    n: usize,
    kind: WeightKind,
    algorithm: &'static str,
    device: &'static str,
    prepare_ms: Option<f64>,
    /// Why `auto` chose what it did (`None` for a named algorithm).
    reason: Option<String>,
}

#[pymethods]
impl PreparedGraph {
    /// Copies the CSR `(indptr, indices, words)` (`f32` bit patterns with
    /// `float_weights`; read in both directions with `undirected`) and
    /// prepares `algorithm` for it on `solver`'s device, `auto` probing
    /// (and, where it runs one, trying) from `first_source`, and planning
    /// for `solves` solves (`None`: kept for any number; `many`: so many
    /// that its whole trial pays).
    #[new]
    #[pyo3(signature = (solver, indptr, indices, words, float_weights, undirected, algorithm, first_source = 0, solves = None, many = false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        solver: &Solver,
        indptr: PyReadonlyArray1<'_, u32>,
        indices: PyReadonlyArray1<'_, u32>,
        words: PyReadonlyArray1<'_, u32>,
        float_weights: bool,
        undirected: bool,
        algorithm: &str,
        first_source: usize,
        solves: Option<usize>,
        many: bool,
    ) -> PyResult<Self> {
        let algorithm: Algorithm = algorithm.parse().map_err(PyValueError::new_err)?;
        let solves = match (many, solves) {
            (true, _) => Solves::Many,
            (false, Some(0)) => {
                return Err(PyValueError::new_err("solves must be a positive number"));
            }
            (false, Some(count)) => Solves::Count(count),
            (false, None) => Solves::Kept,
        };
        let graph = owned_graph([&indptr, &indices, &words], float_weights, undirected)?;
        let (n, kind) = (graph.num_vertices(), graph.weight_kind());
        let owner = Owner {
            solver: Arc::clone(&solver.inner),
            graph,
        };
        if n == 0 {
            return Ok(PreparedGraph {
                cell: None,
                n,
                kind,
                algorithm: algorithm.name(),
                device: solver.device(),
                prepare_ms: None,
                reason: None,
            });
        }
        let cell = py
            .detach(|| {
                sssp::panics::catching("preparing the graph", || {
                    bind(&owner.solver)?;
                    PreparedCell::try_new(owner, |owner| {
                        owner.solver.prepare_for(
                            &owner.graph,
                            algorithm,
                            Tuning::default(),
                            (first_source, solves),
                        )
                    })
                })
            })
            .map_err(to_py)?;
        let prepared = cell.borrow_dependent();
        Ok(PreparedGraph {
            n,
            kind,
            algorithm: prepared.algorithm().name(),
            device: device_name(prepared.device()),
            prepare_ms: prepared.prepare_ms(),
            reason: prepared.auto_choice().map(|choice| choice.reason.clone()),
            cell: Some(Mutex::new(cell)),
        })
    }

    /// Vertices.
    #[getter]
    fn n(&self) -> usize {
        self.n
    }

    /// Why `auto` chose the algorithm, and what it tried (None for a named
    /// algorithm).
    #[getter]
    fn reason(&self) -> Option<&str> {
        self.reason.as_deref()
    }

    /// The algorithm that runs (`auto` resolved).
    #[getter]
    fn algorithm(&self) -> &'static str {
        self.algorithm
    }

    /// "gpu" or "cpu": where the solves run.
    #[getter]
    fn device(&self) -> &'static str {
        self.device
    }

    /// The preparation (GPU upload, allocations, `auto`'s trial), ms; None
    /// on the CPU.
    #[getter]
    fn prepare_ms(&self) -> Option<f64> {
        self.prepare_ms
    }

    /// Solves from each of `sources` (valid vertices; at least one) within
    /// `limit`; with `min_only`, their minimum in one row (the minimum over
    /// each source's row). Returns what `Solver.solve` returns.
    #[pyo3(signature = (sources, *, limit, predecessors, min_only))]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        sources: Vec<usize>,
        limit: f64,
        predecessors: bool,
        min_only: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let stop = Stop {
            limit: limit_word(limit, self.kind),
            target: None,
        };
        let rows = if min_only { 1 } else { sources.len() };
        rows::solve_into(py, [rows, self.n], predecessors, min_only, |out| {
            let cell = self
                .cell
                .as_ref()
                .ok_or_else(|| PyValueError::new_err("the graph has no vertices"))?;
            let mut cell = cell.lock().map_err(|_| {
                PyRuntimeError::new_err("an earlier solve on this graph failed midway")
            })?;
            bind(&cell.borrow_owner().solver).map_err(to_py)?;
            cell.with_dependent_mut(|_, prepared| -> sssp::Result<Report> {
                if min_only {
                    rows::solve_min(prepared, &sources, stop, out)
                } else {
                    rows::solve_rows(prepared, &sources, stop, out)
                }
            })
            .map_err(to_py)
        })
    }
}

impl Drop for PreparedGraph {
    /// The GPU solver frees its device buffers as the cell drops after this,
    /// on whichever thread Python drops the graph: its context must be
    /// current there.
    fn drop(&mut self) {
        if let Some(Ok(cell)) = self.cell.as_ref().map(Mutex::lock) {
            // A failure leaves the buffers to the context's own teardown.
            let _ = bind(&cell.borrow_owner().solver);
        }
    }
}
