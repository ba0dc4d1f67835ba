//! The contraction-hierarchy [`Index`]: trees, tables and point-to-point
//! distances from one preprocessing of a road network.

use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use sssp::options::Timing;

use crate::rows::distance_value;
use crate::solver::Solver;
use crate::{device_name, owned_graph, to_py};

/// A contraction-hierarchy index of one graph (`sssp::ch`): trees, tables
/// and point-to-point distances from it.
#[pyclass(module = "sssp_gpu._native", frozen)]
pub(crate) struct Index {
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
        let graph = owned_graph([&indptr, &indices, &words], float_weights, undirected)?;
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
        let graph = owned_graph([&indptr, &indices, &words], float_weights, undirected)?;
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
        Ok(self.to_f64(sssp::ch::query::distance(&self.hierarchy, source, target)))
    }
}

impl Index {
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
