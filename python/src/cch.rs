//! [`Customizable`] (`CustomizableIndex` in Python): the metric-independent
//! part of a customizable contraction hierarchy ([`sssp::cch`]), built once
//! from a graph's arcs, then customized to any weights of those arcs into a
//! contraction-hierarchy [`Index`].
//!
//! On a GPU the customizer ([`GpuCustomizer`]) keeps the hierarchy's
//! triangles on the device across customizations. It borrows the library's
//! solver (for its device) and the CCH, so the three live together in a
//! self-referential cell ([`CustomizerCell`]), made at the first
//! customization on a GPU and kept while later ones use the same solver. A
//! mutex around it lets one GPU customization run at a time; they run
//! without the GIL, which is never waited for while the mutex is held.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use self_cell::self_cell;
use sssp::cch::Cch;
use sssp::ch::Hierarchy;
use sssp::gpu::cch::GpuCustomizer;
use sssp::graph::Graph;
use sssp::solver;

use crate::index::Index;
use crate::solver::Solver;
use crate::{bind, owned_graph, to_py};

/// What a [`GpuCustomizer`] borrows.
struct Owner {
    solver: Arc<solver::Solver>,
    cch: Arc<Cch>,
}

self_cell!(
    /// A CCH, the solver of its GPU and its customizer on that GPU.
    struct CustomizerCell {
        owner: Owner,
        #[covariant]
        dependent: GpuCustomizer,
    }
);

/// The metric-independent part of a CCH (Python's
/// `sssp_gpu._native.Customizable`).
#[pyclass(module = "sssp_gpu._native", frozen)]
pub(crate) struct Customizable {
    cch: Arc<Cch>,
    /// The customizer of the last GPU customization (`None` before one).
    gpu: Mutex<Option<CustomizerCell>>,
}

#[pymethods]
impl Customizable {
    /// The CCH of the arcs of the CSR `(indptr, indices)` (read in both
    /// directions with `undirected`; weights play no part): built, or with
    /// `path` read from a `.cch` file and checked to take those arcs.
    #[staticmethod]
    #[pyo3(signature = (indptr, indices, undirected, path = None))]
    fn open(
        py: Python<'_>,
        indptr: PyReadonlyArray1<'_, u32>,
        indices: PyReadonlyArray1<'_, u32>,
        undirected: bool,
        path: Option<PathBuf>,
    ) -> PyResult<Customizable> {
        let zeros = PyArray1::from_vec(py, vec![0u32; indices.as_slice()?.len()]).readonly();
        let graph = owned_graph([&indptr, &indices, &zeros], false, undirected)?;
        let cch = py
            .detach(|| {
                sssp::panics::catching("building the CCH", || match &path {
                    None => Cch::build(&graph),
                    Some(path) => {
                        let cch = Cch::load(path)?;
                        cch.initial_weights(&graph)?;
                        Ok(cch)
                    }
                })
            })
            .map_err(to_py)?;
        Ok(Customizable {
            cch: Arc::new(cch),
            gpu: Mutex::new(None),
        })
    }

    /// Writes the `.cch` file.
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        py.detach(|| self.cch.save(&path)).map_err(to_py)
    }

    /// Vertices.
    #[getter]
    fn num_vertices(&self) -> usize {
        self.cch.num_vertices()
    }

    /// Levels of the hierarchy.
    #[getter]
    fn levels(&self) -> usize {
        self.cch.supergraph().num_levels()
    }

    /// Arcs of the chordal supergraph (each pair of vertices once).
    #[getter]
    fn arcs(&self) -> usize {
        self.cch.supergraph().num_arcs()
    }

    /// Lower triangles of the supergraph's arcs.
    #[getter]
    fn triangles(&self) -> usize {
        self.cch.triangles().len()
    }

    /// The index of the CSR `(indptr, indices, words)` (`u32` weights, read
    /// in both directions with `undirected`), customized on `solver`'s GPU
    /// when it has one, else on the CPU; and "gpu" or "cpu".
    fn customize(
        &self,
        py: Python<'_>,
        solver: &Solver,
        indptr: PyReadonlyArray1<'_, u32>,
        indices: PyReadonlyArray1<'_, u32>,
        words: PyReadonlyArray1<'_, u32>,
        undirected: bool,
    ) -> PyResult<(Index, &'static str)> {
        // Copied while the GIL is held: Python may change the arrays later.
        let graph = owned_graph([&indptr, &indices, &words], false, undirected)?;
        let solver = Arc::clone(&solver.inner);
        let (hierarchy, device) = py
            .detach(|| {
                sssp::panics::catching("customizing the index", || {
                    if solver.gpu().is_some() {
                        Ok((self.customize_on_gpu(&solver, &graph)?, "gpu"))
                    } else {
                        Ok((self.cch.customize(&graph)?, "cpu"))
                    }
                })
            })
            .map_err(to_py)?;
        Ok((Index::new(hierarchy), device))
    }
}

impl Customizable {
    /// Customizes `graph` on `solver`'s GPU, with the customizer of the
    /// last GPU customization when it was made on the same solver.
    fn customize_on_gpu(
        &self,
        solver: &Arc<solver::Solver>,
        graph: &Graph<'_>,
    ) -> sssp::Result<Hierarchy> {
        let mut slot = self.gpu.lock().map_err(|_| {
            sssp::Error::Internal("an earlier customization on the GPU failed midway".into())
        })?;
        let same = slot
            .as_ref()
            .is_some_and(|cell| Arc::ptr_eq(&cell.borrow_owner().solver, solver));
        if !same {
            if let Some(old) = slot.take() {
                // Its buffers are freed in its own context.
                bind(&old.borrow_owner().solver)?;
                drop(old);
            }
            bind(solver)?;
            let owner = Owner {
                solver: Arc::clone(solver),
                cch: Arc::clone(&self.cch),
            };
            *slot = Some(CustomizerCell::try_new(owner, |owner| {
                let gpu = owner.solver.gpu().ok_or_else(|| {
                    sssp::Error::Internal("the solver of a GPU customization has no GPU".into())
                })?;
                GpuCustomizer::new(gpu, &owner.cch)
            })?);
        }
        let cell = slot
            .as_mut()
            .ok_or_else(|| sssp::Error::Internal("no GPU customizer".into()))?;
        bind(&cell.borrow_owner().solver)?;
        cell.with_dependent_mut(|_, customizer| customizer.customize(graph))
    }
}

impl Drop for Customizable {
    /// The customizer frees its device buffers as the cell drops after
    /// this, on whichever thread Python drops the index: its context must
    /// be current there.
    fn drop(&mut self) {
        if let Ok(slot) = self.gpu.lock()
            && let Some(cell) = slot.as_ref()
        {
            // A failure leaves the buffers to the context's own teardown.
            let _ = bind(&cell.borrow_owner().solver);
        }
    }
}
