//! The contraction-hierarchy [`Index`]: trees, tables and point-to-point
//! distances from one preprocessing of a road network.
//!
//! On a GPU, an index's trees need its down arcs on the device and a
//! batch's buffers ([`TreeSolver`]): tens of milliseconds to set up on a
//! large road network, which a call of a few thousand sources would pay
//! each time. So the tree solver of a call on a GPU is kept for the next
//! call on the same solver. It borrows the library's solver (for its
//! device) and the hierarchy, so the three live together in a
//! self-referential cell ([`TreesCell`]); a mutex around it lets one call
//! at a time use it. Calls run without the GIL, which is never waited for
//! while the mutex is held. The index never changes, and every call hands
//! the solver all its inputs (sources, limit, values), so nothing kept
//! depends on an earlier call's arguments.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError};

use gpu_kernels::distance::INFINITY;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use self_cell::self_cell;
use sssp::ch::{Hierarchy, TreeSolver, Values};
use sssp::options::Stop;
use sssp::solver;

use crate::rows::{distance_value, write_values};
use crate::solver::Solver;
use crate::{SCIPY_NO_PREDECESSOR, bind, device_name, limit_word, owned_graph, to_py};

/// Two arrays of a reduction and the device it ran on.
type Pair<'py, A, B> = (
    Bound<'py, PyArray1<A>>,
    Bound<'py, PyArray1<B>>,
    &'static str,
);

/// Counts and sums of an accessibility, and the workers it ran on.
type Access<'py> = (Bound<'py, PyArray1<u64>>, Bound<'py, PyArray1<f64>>, String);

/// What a kept [`TreeSolver`] borrows.
struct Owner {
    solver: Arc<solver::Solver>,
    hierarchy: Arc<Hierarchy>,
}

self_cell!(
    /// An index, the solver of its GPU and its tree solver there.
    struct TreesCell {
        owner: Owner,
        #[covariant]
        dependent: TreeSolver,
    }
);

/// A contraction-hierarchy index of one graph (`sssp::ch`): trees, tables
/// and point-to-point distances from it.
#[pyclass(module = "sssp_gpu._native", frozen)]
pub(crate) struct Index {
    hierarchy: Arc<Hierarchy>,
    /// The tree solver of the last call on a GPU (`None` before one, after
    /// a failed one or [`Index::release`]).
    gpu_trees: Mutex<Option<TreesCell>>,
}

#[pymethods]
impl Index {
    /// Builds the index of the CSR `(indptr, indices, words)` (`f32` bit
    /// patterns with `float_weights`), read in both directions with
    /// `undirected`.
    #[staticmethod]
    fn build(
        py: Python<'_>,
        indptr: PyReadonlyArray1<'_, u32>,
        indices: PyReadonlyArray1<'_, u32>,
        words: PyReadonlyArray1<'_, u32>,
        float_weights: bool,
        undirected: bool,
    ) -> PyResult<Index> {
        let graph = owned_graph([&indptr, &indices, &words], float_weights, undirected)?;
        let hierarchy = py
            .detach(|| sssp::ch::build(&graph, &sssp::ch::BuildOptions::default()))
            .map_err(to_py)?;
        Ok(Index::new(hierarchy))
    }

    /// Reads an index file and checks that it was built from this CSR.
    #[staticmethod]
    fn load(
        py: Python<'_>,
        path: std::path::PathBuf,
        indptr: PyReadonlyArray1<'_, u32>,
        indices: PyReadonlyArray1<'_, u32>,
        words: PyReadonlyArray1<'_, u32>,
        float_weights: bool,
        undirected: bool,
    ) -> PyResult<Index> {
        let graph = owned_graph([&indptr, &indices, &words], float_weights, undirected)?;
        let hierarchy = py
            .detach(|| {
                let hierarchy = sssp::ch::Hierarchy::load(&path)?;
                hierarchy.check_graph(&graph, &path)?;
                Ok(hierarchy)
            })
            .map_err(to_py)?;
        Ok(Index::new(hierarchy))
    }

    /// Writes the index file.
    fn save(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        py.detach(|| self.hierarchy.save(&path)).map_err(to_py)
    }

    /// Vertices.
    #[getter]
    fn num_vertices(&self) -> usize {
        self.hierarchy.num_vertices()
    }

    /// Levels of the hierarchy.
    #[getter]
    fn levels(&self) -> usize {
        self.hierarchy.num_levels()
    }

    /// Shortcut arcs.
    #[getter]
    fn shortcuts(&self) -> usize {
        self.hierarchy.num_shortcuts()
    }

    /// Whether a tree solver is kept on a GPU for the next call.
    #[getter]
    fn gpu_state_kept(&self, py: Python<'_>) -> bool {
        py.detach(|| match self.gpu_trees.lock() {
            Ok(slot) => slot.is_some(),
            Err(_) => false,
        })
    }

    /// Frees the GPU memory kept between calls (the index's down arcs and
    /// a batch's buffers); the next call on a GPU sets them up again.
    fn release(&self, py: Python<'_>) {
        py.detach(|| {
            let cell = self
                .gpu_trees
                .lock()
                .unwrap_or_else(|poisoned| self.recovered(poisoned))
                .take();
            drop_cell(cell);
        })
    }

    /// The trees of `sources` on the solver's device (GPU batches, or the
    /// CPU): a (sources × n) float64 array, inf where unreached, and the
    /// device. The rows stream from the library straight into the array,
    /// each converted in parallel as it arrives: into `out` when given (a
    /// C-contiguous float64 array of that shape, reused across calls so
    /// that no fresh memory is first touched), else into a new array.
    #[pyo3(signature = (solver, sources, out = None))]
    fn trees<'py>(
        &self,
        py: Python<'py>,
        solver: &Solver,
        sources: Vec<usize>,
        out: Option<Bound<'py, PyArray2<f64>>>,
    ) -> PyResult<(Bound<'py, PyArray2<f64>>, &'static str)> {
        self.check_vertices(&sources)?;
        let n = self.hierarchy.num_vertices();
        let kind = self.hierarchy.weight_kind;
        let dist = match out {
            Some(out) => {
                let shape = out.shape().to_vec();
                if shape != [sources.len(), n] {
                    return Err(PyValueError::new_err(format!(
                        "out has shape {shape:?}; the trees need ({}, {n})",
                        sources.len()
                    )));
                }
                if !out.is_c_contiguous() {
                    return Err(PyValueError::new_err("out must be C-contiguous"));
                }
                out
            }
            None => PyArray2::<f64>::zeros(py, [sources.len(), n], false),
        };
        let device = {
            // An `out` that Python shares elsewhere, or that is read-only,
            // is refused here.
            let mut array = dist
                .try_readwrite()
                .map_err(|e| PyValueError::new_err(format!("out cannot be written: {e}")))?;
            let out = array.as_slice_mut()?;
            py.detach(|| {
                self.with_trees(&solver.inner, |trees| {
                    trees.solve_rows(&sources, Stop::default(), &mut |i, row| {
                        write_values(row, kind, &mut out[i * n..(i + 1) * n]);
                        Ok(())
                    })?;
                    Ok(trees.device())
                })
            })
            .map_err(to_py)?
        };
        Ok((dist, device_name(device)))
    }

    /// Per source, the vertices within `limit` (inf: every reached one)
    /// and the sum of `values` (float64, one per vertex) over them: two
    /// arrays (counts as uint64, sums as float64; sums 0 without values),
    /// and the device. Reduced where the trees are; none is copied.
    #[pyo3(signature = (solver, sources, limit, values=None))]
    fn within<'py>(
        &self,
        py: Python<'py>,
        solver: &Solver,
        sources: Vec<usize>,
        limit: f64,
        values: Option<PyReadonlyArray1<'_, f64>>,
    ) -> PyResult<Pair<'py, u64, f64>> {
        self.check_vertices(&sources)?;
        if limit.is_nan() || limit < 0.0 {
            return Err(PyValueError::new_err(format!(
                "limit {limit} is not a non-negative number"
            )));
        }
        let limit = limit_word(limit, self.hierarchy.weight_kind).unwrap_or(INFINITY);
        // Copied: another Python thread may write into it during the solve.
        let values = values.as_ref().map(|v| v.to_vec()).transpose()?;
        let (rows, device) = py
            .detach(|| {
                self.with_trees(&solver.inner, |trees| {
                    let rows = trees.within(&sources, limit, values.as_deref().map(Values::F64))?;
                    Ok((rows, trees.device()))
                })
            })
            .map_err(to_py)?;
        let counts = rows.iter().map(|&(c, _)| u64::from(c)).collect();
        let sums = rows.iter().map(|&(_, s)| s).collect();
        Ok((
            PyArray1::from_vec(py, counts),
            PyArray1::from_vec(py, sums),
            device_name(device),
        ))
    }

    /// Each vertex's distance from its nearest of `sources` (float64, inf
    /// where none reaches it) and that source's vertex (int32, -9999 where
    /// none; the first in `sources` on ties), and the device. Reduced
    /// where the trees are; none is copied.
    fn nearest<'py>(
        &self,
        py: Python<'py>,
        solver: &Solver,
        sources: Vec<usize>,
    ) -> PyResult<Pair<'py, f64, i32>> {
        self.check_vertices(&sources)?;
        let (nearest, device) = py
            .detach(|| {
                self.with_trees(&solver.inner, |trees| {
                    Ok((trees.nearest(&sources)?, trees.device()))
                })
            })
            .map_err(to_py)?;
        let dist = nearest.dist.iter().map(|&d| self.to_f64(d)).collect();
        let from = nearest
            .source
            .iter()
            .map(|&s| match sources.get(s as usize) {
                Some(&v) => v as i32,
                None => SCIPY_NO_PREDECESSOR,
            })
            .collect();
        Ok((
            PyArray1::from_vec(py, dist),
            PyArray1::from_vec(py, from),
            device_name(device),
        ))
    }

    /// The (sources × targets) distance table on the solver's device, as
    /// float64 (inf where unreachable), and the device.
    fn table<'py>(
        &self,
        py: Python<'py>,
        solver: &Solver,
        sources: Vec<usize>,
        targets: Vec<usize>,
    ) -> PyResult<(Bound<'py, PyArray1<f64>>, &'static str)> {
        self.check_vertices(&sources)?;
        self.check_vertices(&targets)?;
        let (table, device) = py
            .detach(|| {
                self.with_trees(&solver.inner, |trees| {
                    let (table, _) = trees.table(&sources, &targets)?;
                    Ok((table, trees.device()))
                })
            })
            .map_err(to_py)?;
        let table = table.iter().map(|&d| self.to_f64(d)).collect();
        Ok((PyArray1::from_vec(py, table), device_name(device)))
    }

    /// The distance of each pair `(sources[i], targets[i])` as float64 (inf
    /// where unreachable), without the GIL: on the solver's GPU when it has
    /// one and the pairs are `gpu_from` or more (default
    /// `sssp::gpu::pairs::GPU_PAIRS_FROM`), else on the CPU in parallel;
    /// and the device.
    #[pyo3(signature = (solver, sources, targets, gpu_from = None))]
    fn pair_distances<'py>(
        &self,
        py: Python<'py>,
        solver: &Solver,
        sources: PyReadonlyArray1<'py, i64>,
        targets: PyReadonlyArray1<'py, i64>,
        gpu_from: Option<usize>,
    ) -> PyResult<(Bound<'py, PyArray1<f64>>, &'static str)> {
        let (sources, targets) = (sources.as_array(), targets.as_array());
        if sources.len() != targets.len() {
            return Err(PyValueError::new_err(format!(
                "{} sources and {} targets: one target per source is needed",
                sources.len(),
                targets.len()
            )));
        }
        let mut pairs = Vec::with_capacity(sources.len());
        for (i, (&s, &t)) in sources.iter().zip(targets.iter()).enumerate() {
            match (usize::try_from(s), usize::try_from(t)) {
                (Ok(s), Ok(t)) => pairs.push((s, t)),
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "pair {i} ({s}, {t}): a vertex id is negative"
                    )));
                }
            }
        }
        let from = gpu_from.unwrap_or(sssp::gpu::pairs::GPU_PAIRS_FROM);
        let gpu = solver.inner.gpu().filter(|_| pairs.len() >= from);
        let dist = py
            .detach(|| match gpu {
                Some(gpu) => {
                    sssp::gpu::pairs::GpuPairs::new(gpu, &self.hierarchy)?.distances(&pairs)
                }
                None => sssp::ch::pairs::pair_distances(&self.hierarchy, &pairs),
            })
            .map_err(to_py)?;
        let dist = dist.iter().map(|&d| self.to_f64(d)).collect();
        let device = match gpu {
            Some(_) => "gpu",
            None => "cpu",
        };
        Ok((PyArray1::from_vec(py, dist), device))
    }

    /// All-pairs accessibility: for every vertex, the vertices within
    /// `limit` of it (inf: every reached one) and the sum of `values`
    /// (float64, one per vertex) over them: counts as uint64, sums as
    /// float64, and the workers it ran on. `workers`: `cpu`, `auto` (GPU 0,
    /// else the CPU) or a GPU selection (`all`, `0,1`); the sources are
    /// spread over them in batches. `progress`: a line on stderr.
    #[pyo3(signature = (limit, values=None, workers="auto", progress=false))]
    fn accessibility<'py>(
        &self,
        py: Python<'py>,
        limit: f64,
        values: Option<PyReadonlyArray1<'_, f64>>,
        workers: &str,
        progress: bool,
    ) -> PyResult<Access<'py>> {
        if limit.is_nan() || limit < 0.0 {
            return Err(PyValueError::new_err(format!(
                "limit {limit} is not a non-negative number"
            )));
        }
        let limit = limit_word(limit, self.hierarchy.weight_kind).unwrap_or(INFINITY);
        let workers = spread_workers(workers).map_err(to_py)?;
        // Copied: another Python thread may write into it during the solve.
        let values = values.as_ref().map(|v| v.to_vec()).transpose()?;
        let (access, reports) = py
            .detach(|| {
                let meter = sssp::multi::Meter::new("accessibility", progress);
                let show = |done: usize, total: usize| meter.show(done, total);
                let spread = sssp::multi::IndexSpread::new(&self.hierarchy, workers);
                let result =
                    spread.accessibility(limit, values.as_deref().map(Values::F64), Some(&show));
                meter.end();
                result
            })
            .map_err(to_py)?;
        let names: Vec<String> = reports.iter().map(|r| r.worker.to_string()).collect();
        let counts = access.counts.iter().map(|&c| u64::from(c)).collect();
        Ok((
            PyArray1::from_vec(py, counts),
            PyArray1::from_vec(py, access.sums),
            names.join(", "),
        ))
    }

    /// The distance from `source` to `target` (inf when unreachable).
    fn distance(&self, source: usize, target: usize) -> PyResult<f64> {
        self.check_vertices(&[source, target])?;
        Ok(self.to_f64(sssp::ch::query::distance(&self.hierarchy, source, target)))
    }
}

impl Index {
    /// The index of `hierarchy`.
    pub(crate) fn new(hierarchy: Hierarchy) -> Self {
        Index {
            hierarchy: Arc::new(hierarchy),
            gpu_trees: Mutex::new(None),
        }
    }

    /// Runs `work` on this index's trees on `solver`'s device. On a GPU
    /// with the kept tree solver: made by the first call, kept while later
    /// calls use the same solver, made anew for another solver, and dropped
    /// when a call fails (its state may be midway). A call made while
    /// another thread's call uses it gets a tree solver of its own for the
    /// call. On the CPU a tree solver holds nothing to keep.
    fn with_trees<T>(
        &self,
        solver: &Arc<solver::Solver>,
        work: impl FnOnce(&mut TreeSolver<'_>) -> sssp::Result<T>,
    ) -> sssp::Result<T> {
        if solver.gpu().is_none() {
            return work(&mut solver.index_trees(&self.hierarchy, None)?);
        }
        let mut slot = match self.gpu_trees.try_lock() {
            Ok(slot) => slot,
            Err(TryLockError::WouldBlock) => {
                bind(solver)?;
                return work(&mut solver.index_trees(&self.hierarchy, None)?);
            }
            Err(TryLockError::Poisoned(poisoned)) => self.recovered(poisoned),
        };
        let same = slot
            .as_ref()
            .is_some_and(|cell| Arc::ptr_eq(&cell.borrow_owner().solver, solver));
        if !same {
            drop_cell(slot.take());
            bind(solver)?;
            let owner = Owner {
                solver: Arc::clone(solver),
                hierarchy: Arc::clone(&self.hierarchy),
            };
            *slot = Some(TreesCell::try_new(owner, |owner| {
                owner.solver.index_trees(&owner.hierarchy, None)
            })?);
        }
        let cell = slot
            .as_mut()
            .ok_or_else(|| sssp::Error::Internal("no kept tree solver".into()))?;
        bind(&cell.borrow_owner().solver)?;
        let result = cell.with_dependent_mut(|_, trees| work(trees));
        if result.is_err() {
            drop_cell(slot.take());
        }
        result
    }

    /// The kept tree solver's slot after a call panicked midway: emptied
    /// (that tree solver is not trusted) and no longer poisoned.
    fn recovered<'a>(
        &'a self,
        poisoned: PoisonError<MutexGuard<'a, Option<TreesCell>>>,
    ) -> MutexGuard<'a, Option<TreesCell>> {
        let mut slot = poisoned.into_inner();
        drop_cell(slot.take());
        self.gpu_trees.clear_poison();
        slot
    }

    /// A distance word of the index as a float64, inf for unreached (the
    /// index's results are checked for overflow before they get here).
    fn to_f64(&self, d: u32) -> f64 {
        distance_value(d, self.hierarchy.weight_kind)
    }

    fn check_vertices(&self, vertices: &[usize]) -> PyResult<()> {
        let n = self.hierarchy.num_vertices();
        match vertices.iter().find(|&&v| v >= n) {
            Some(v) => Err(PyValueError::new_err(format!(
                "vertex {v} is out of range: the graph has {n} vertices"
            ))),
            None => Ok(()),
        }
    }
}

/// The workers of `accessibility`'s `workers`: `cpu`, `auto` (GPU 0, else
/// the CPU) or a GPU selection (`all`, `0,1`).
fn spread_workers(text: &str) -> sssp::Result<Vec<sssp::multi::Worker>> {
    use sssp::multi::{Gpus, Worker};
    match text.trim() {
        "cpu" => Ok(vec![Worker::Cpu]),
        "auto" => match Gpus::List(vec![0]).workers() {
            Err(sssp::Error::NoGpu(_)) => Ok(vec![Worker::Cpu]),
            other => other,
        },
        gpus => gpus.parse::<Gpus>()?.workers(),
    }
}

/// Drops a kept tree solver, its context current so that its buffers are
/// freed there (a failure leaves them to the context's own teardown).
fn drop_cell(cell: Option<TreesCell>) {
    if let Some(cell) = cell {
        let _ = bind(&cell.borrow_owner().solver);
        drop(cell);
    }
}

impl Drop for Index {
    /// The kept tree solver frees its device buffers as the cell drops
    /// after this, on whichever thread Python drops the index: its context
    /// must be current there.
    fn drop(&mut self) {
        if let Ok(slot) = self.gpu_trees.get_mut()
            && let Some(cell) = slot.as_ref()
        {
            // A failure leaves the buffers to the context's own teardown.
            let _ = bind(&cell.borrow_owner().solver);
        }
    }
}
