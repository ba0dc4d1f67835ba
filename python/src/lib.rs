//! The native half of the Python package `sssp_gpu`: a [`Solver`] class over
//! [`sssp::solver::Solver`] that solves on CSR arrays borrowed from numpy (no
//! copy of the graph besides the one upload), and [`load`] of graph files.
//! Input checks and scipy's conventions live in `sssp_gpu/__init__.py`.

use std::borrow::Cow;

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::{PyOSError, PyOverflowError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use sssp::algorithms::Algorithm;
use sssp::graph::{Graph, WeightKind};
use sssp::parents::NO_PARENT;
use sssp::options::{Device, Stop, Timing};
use sssp::solver;

/// scipy's predecessor (and source) for "none".
const SCIPY_NO_PREDECESSOR: i32 = -9999;

/// A library error as the Python exception that says what kind it is.
fn to_py(error: sssp::Error) -> PyErr {
    match error {
        sssp::Error::InvalidArgument(_)
        | sssp::Error::InvalidGraph(_)
        | sssp::Error::SourceOutOfRange { .. } => PyValueError::new_err(error.to_string()),
        sssp::Error::DistanceOverflow { .. } => PyOverflowError::new_err(format!(
            "{error}; integer distances are 32-bit: pass float weights for longer paths"
        )),
        sssp::Error::Io { .. } => PyOSError::new_err(error.to_string()),
        sssp::Error::Index { .. } | sssp::Error::NoHierarchy(_) => {
            PyValueError::new_err(error.to_string())
        }
        _ => PyRuntimeError::new_err(error.to_string()),
    }
}

/// `device`: "auto", "cpu", "gpu" or "gpu:N".
fn parse_device(device: &str) -> PyResult<Device> {
    match device {
        "auto" => Ok(Device::Auto),
        "cpu" => Ok(Device::Cpu),
        "gpu" => Ok(Device::Gpu(0)),
        other => other
            .strip_prefix("gpu:")
            .and_then(|n| n.parse().ok())
            .map(Device::Gpu)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "device must be \"auto\", \"cpu\", \"gpu\" or \"gpu:N\", not {other:?}"
                ))
            }),
    }
}

/// The weight word of the largest distance `<= limit` (scipy keeps distances
/// equal to the limit); `None` when nothing is cut.
fn limit_word(limit: f64, kind: WeightKind) -> Option<u32> {
    match kind {
        WeightKind::U32 => (limit < f64::from(u32::MAX)).then(|| limit.floor() as u32),
        WeightKind::F32 => {
            let mut rounded = limit as f32;
            if f64::from(rounded) > limit {
                rounded = rounded.next_down();
            }
            rounded.is_finite().then(|| rounded.to_bits())
        }
    }
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
/// `min_only`), -9999 when unreached. Each vertex is walked once.
fn tree_sources(parents: &[u32], root: u32) -> Vec<i32> {
    const UNKNOWN: i32 = i32::MIN;
    let mut source = vec![UNKNOWN; parents.len()];
    let mut path = Vec::new();
    for v in 0..parents.len() {
        let mut u = v;
        while source[u] == UNKNOWN {
            match parents[u] {
                p if p == root => {
                    source[u] = u as i32;
                    break;
                }
                NO_PARENT => {
                    source[u] = SCIPY_NO_PREDECESSOR;
                    break;
                }
                p => {
                    path.push(u);
                    u = p as usize;
                }
            }
        }
        let found = source[u];
        for w in path.drain(..) {
            source[w] = found;
        }
    }
    source
}

/// Parent words as scipy's predecessors: -9999 for none (and for `root`).
fn predecessors(parents: &[u32], root: Option<u32>) -> impl Iterator<Item = i32> + '_ {
    parents.iter().map(move |&p| {
        if p == NO_PARENT || Some(p) == root {
            SCIPY_NO_PREDECESSOR
        } else {
            p as i32
        }
    })
}

/// A solver bound to a device, reused across solves (the CUDA context and
/// kernels are loaded once).
#[pyclass(module = "sssp_gpu._native", frozen)]
struct Solver {
    inner: solver::Solver,
}

#[pymethods]
impl Solver {
    #[new]
    #[pyo3(signature = (device = "auto"))]
    fn new(py: Python<'_>, device: &str) -> PyResult<Self> {
        let device = parse_device(device)?;
        let inner = py.detach(|| solver::Solver::new(device)).map_err(to_py)?;
        Ok(Solver { inner })
    }

    /// "gpu" or "cpu": where GPU algorithms run.
    #[getter]
    fn device(&self) -> &'static str {
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
    /// weight words are `u32`s or, with `float_weights`, `f32` bit patterns.
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
        let borrowed = Graph::new(
            Cow::Borrowed(indptr.as_slice()?),
            Cow::Borrowed(indices.as_slice()?),
            Cow::Borrowed(words.as_slice()?),
        )
        .and_then(|g| g.with_weight_kind(kind))
        .map_err(|e| to_py(e.into()))?;
        let n = borrowed.num_vertices();
        let (solution, root) = py.detach(|| -> PyResult<_> {
            let symmetric;
            let graph = if undirected {
                symmetric = borrowed.undirected().map_err(|e| to_py(e.into()))?;
                symmetric.view()
            } else {
                borrowed.view()
            };
            let (graph, query_sources, root) = if min_only {
                (
                    with_super_source(&graph, &sources)?,
                    vec![n],
                    Some(n as u32),
                )
            } else {
                (graph, sources.clone(), None)
            };
            let query = sssp::Query {
                stop,
                parents: predecessors,
                timing: Timing::default(),
                ..sssp::Query::from_sources(query_sources).algorithm(algorithm)
            };
            let mut solution = self.inner.solve(&graph, &query).map_err(to_py)?;
            // scipy's sources are roots even where another source reaches
            // them at distance 0 (the tree may hang one below another).
            if let (Some(root), Some(tree)) = (
                root,
                solution.rows.first_mut().and_then(|r| r.parents.as_mut()),
            ) {
                sources.iter().for_each(|&s| tree[s] = root);
            }
            Ok((solution, root))
        })?;

        let rows = solution.rows.len();
        let dist: Vec<f64> = solution
            .rows
            .iter()
            .flat_map(|row| row.distances_f64().into_iter().take(n))
            .collect();
        let out = PyDict::new(py);
        out.set_item("dist", PyArray1::from_vec(py, dist).reshape([rows, n])?)?;
        let trees: Option<Vec<&[u32]>> = solution
            .rows
            .iter()
            .map(|row| row.parents.as_deref().map(|p| &p[..n]))
            .collect();
        match trees {
            Some(trees) => {
                let preds: Vec<i32> = trees
                    .iter()
                    .flat_map(|tree| self::predecessors(tree, root))
                    .collect();
                out.set_item(
                    "predecessors",
                    PyArray1::from_vec(py, preds).reshape([rows, n])?,
                )?;
                if let (Some(root), [tree]) = (root, trees.as_slice()) {
                    out.set_item("sources", PyArray1::from_vec(py, tree_sources(tree, root)))?;
                }
            }
            None => out.set_item("predecessors", py.None())?,
        }
        let iterations: Vec<Option<u32>> = solution.rows.iter().map(|r| r.iterations).collect();
        let solve_ms: Vec<f64> = solution.rows.iter().map(|r| r.median_ms()).collect();
        out.set_item("iterations", iterations)?;
        out.set_item("solve_ms", solve_ms)?;
        out.set_item("prepare_ms", solution.prepare_ms)?;
        out.set_item("algorithm", solution.algorithm.name())?;
        out.set_item(
            "device",
            match solution.device {
                sssp::algorithms::Processor::Gpu => "gpu",
                sssp::algorithms::Processor::Cpu => "cpu",
            },
        )?;
        Ok(out)
    }
}

/// The CSR arrays of `graph` with each vertex's arcs sorted by target and
/// parallel arcs reduced to the lightest (the distances the CLI finds): scipy
/// sums the duplicates of a matrix whose weights are not float64.
fn lightest_arcs(graph: &Graph) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let (offsets, targets, weights) = (graph.offsets(), graph.targets(), graph.weights());
    let mut kept_offsets = Vec::with_capacity(offsets.len());
    kept_offsets.push(0);
    let mut kept_targets = Vec::with_capacity(targets.len());
    let mut kept_weights = Vec::with_capacity(weights.len());
    let mut arcs = Vec::new();
    for row in offsets.windows(2) {
        arcs.clear();
        arcs.extend((row[0] as usize..row[1] as usize).map(|e| (targets[e], weights[e])));
        // Weight words order as their weights (non-negative f32 bit patterns too).
        arcs.sort_unstable();
        arcs.dedup_by_key(|arc| arc.0);
        kept_targets.extend(arcs.iter().map(|arc| arc.0));
        kept_weights.extend(arcs.iter().map(|arc| arc.1));
        kept_offsets.push(kept_targets.len() as u32);
    }
    (kept_offsets, kept_targets, kept_weights)
}

/// `load`'s `(indptr, indices, words, float_weights)`.
type LoadedArrays<'py> = (
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<u32>>,
    bool,
);

/// Reads a graph file of any format the CLI reads: `(indptr, indices, words,
/// float_weights)` as uint32 arrays (words are `f32` bit patterns when
/// `float_weights`), parallel arcs reduced to the lightest.
#[pyfunction]
fn load<'py>(py: Python<'py>, path: std::path::PathBuf) -> PyResult<LoadedArrays<'py>> {
    let (float_weights, (offsets, targets, weights)) = py
        .detach(|| {
            let graph = sssp::formats::load(&path, None)?.into_graph()?;
            Ok((
                graph.weight_kind() == WeightKind::F32,
                lightest_arcs(&graph),
            ))
        })
        .map_err(to_py)?;
    Ok((
        PyArray1::from_vec(py, offsets),
        PyArray1::from_vec(py, targets),
        PyArray1::from_vec(py, weights),
        float_weights,
    ))
}

/// The weight type of words that are `f32` bit patterns with
/// `float_weights`, else `u32`s.
fn weight_kind(float_weights: bool) -> WeightKind {
    if float_weights {
        WeightKind::F32
    } else {
        WeightKind::U32
    }
}

/// The CSR `[indptr, indices, words]` as a graph (copied), its weight words
/// `f32` bit patterns with `float_weights`, read in both directions with
/// `undirected`.
fn index_graph(
    [indptr, indices, words]: [&PyReadonlyArray1<'_, u32>; 3],
    float_weights: bool,
    undirected: bool,
) -> PyResult<Graph<'static>> {
    let kind = weight_kind(float_weights);
    let graph = Graph::new(
        indptr.as_slice()?.to_vec(),
        indices.as_slice()?.to_vec(),
        words.as_slice()?.to_vec(),
    )
    .and_then(|g| g.with_weight_kind(kind))
    .map_err(|e| to_py(e.into()))?;
    if undirected {
        graph.undirected().map_err(|e| to_py(e.into()))
    } else {
        Ok(graph)
    }
}

/// A contraction-hierarchy index of one graph (`sssp::ch`): trees, tables
/// and point-to-point distances from it.
#[pyclass(module = "sssp_gpu._native", frozen)]
struct Index {
    hierarchy: sssp::ch::Hierarchy,
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
        let graph = index_graph([&indptr, &indices, &words], float_weights, undirected)?;
        let hierarchy = py
            .detach(|| sssp::ch::build(&graph, &sssp::ch::BuildOptions::default()))
            .map_err(to_py)?;
        Ok(Index { hierarchy })
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
        let graph = index_graph([&indptr, &indices, &words], float_weights, undirected)?;
        let hierarchy = py
            .detach(|| {
                let hierarchy = sssp::ch::Hierarchy::load(&path)?;
                hierarchy.check_graph(&graph, &path)?;
                Ok(hierarchy)
            })
            .map_err(to_py)?;
        Ok(Index { hierarchy })
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

    /// The trees of `sources` on the solver's device (GPU batches, or the
    /// CPU): a (sources × n) float64 array, inf where unreached, and the
    /// device.
    fn trees<'py>(
        &self,
        py: Python<'py>,
        solver: &Solver,
        sources: Vec<usize>,
    ) -> PyResult<(Bound<'py, PyArray1<f64>>, &'static str)> {
        self.check_vertices(&sources)?;
        let (dist, device) = py
            .detach(|| -> sssp::Result<_> {
                let mut trees = solver.inner.index_trees(&self.hierarchy, None)?;
                let (rows, _) = trees.solve(&sources, Timing::default())?;
                let dist: Vec<f64> = rows.iter().flat_map(|row| row.distances_f64()).collect();
                Ok((dist, trees.device()))
            })
            .map_err(to_py)?;
        Ok((PyArray1::from_vec(py, dist), device_name(device)))
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
            .detach(|| -> sssp::Result<_> {
                let mut trees = solver.inner.index_trees(&self.hierarchy, None)?;
                let (table, _) = trees.table(&sources, &targets)?;
                Ok((table, trees.device()))
            })
            .map_err(to_py)?;
        let table = table.iter().map(|&d| self.to_f64(d)).collect();
        Ok((PyArray1::from_vec(py, table), device_name(device)))
    }

    /// The distance from `source` to `target` (inf when unreachable).
    fn distance(&self, source: usize, target: usize) -> PyResult<f64> {
        self.check_vertices(&[source, target])?;
        Ok(self.to_f64(sssp::ch::query::distance(
            &self.hierarchy,
            source,
            target,
        )))
    }
}

impl Index {
    /// A distance word of the index as a float64, inf for unreached (the
    /// index's results are checked for overflow before they get here).
    fn to_f64(&self, d: u32) -> f64 {
        match (d, self.hierarchy.weight_kind) {
            (u32::MAX, _) => f64::INFINITY,
            (d, WeightKind::U32) => f64::from(d),
            (d, WeightKind::F32) => f64::from(f32::from_bits(d)),
        }
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


fn device_name(device: sssp::algorithms::Processor) -> &'static str {
    match device {
        sssp::algorithms::Processor::Gpu => "gpu",
        sssp::algorithms::Processor::Cpu => "cpu",
    }
}

/// The extension module `sssp_gpu._native`.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Solver>()?;
    module.add_class::<Index>()?;
    module.add_function(wrap_pyfunction!(load, module)?)?;
    Ok(())
}
