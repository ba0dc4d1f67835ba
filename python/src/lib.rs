//! The native half of the Python package `sssp_gpu`:
//!
//! - [`solver::Solver`], over [`sssp::solver::Solver`], solves one-off calls
//!   on CSR arrays copied from numpy (Python threads may write into them
//!   while a solve runs without the GIL);
//! - [`graph::PreparedGraph`] (`Graph` in Python) copies a graph once and
//!   keeps it prepared ([`sssp::solver::Prepared`]) for any number of solves;
//! - [`index::Index`], a contraction hierarchy, [`cch::Customizable`], a
//!   customizable one that makes an `Index` of any weights, and
//!   [`load::load`] of graph files.
//!
//! Both solvers write their rows straight into numpy arrays ([`rows`]).
//! Input checks and scipy's conventions live in `sssp_gpu/__init__.py`.

mod cch;
mod graph;
mod index;
mod load;
mod rows;
mod solver;

use numpy::PyReadonlyArray1;
use pyo3::exceptions::{PyMemoryError, PyOSError, PyOverflowError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use sssp::algorithms::Processor;
use sssp::graph::{Graph, WeightKind};
use sssp::options::Device;
use sssp::solver::Solver;

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
        sssp::Error::HostMemory { .. } => PyMemoryError::new_err(error.to_string()),
        sssp::Error::Index { .. } | sssp::Error::NoHierarchy(_) => {
            PyValueError::new_err(error.to_string())
        }
        _ => PyRuntimeError::new_err(error.to_string()),
    }
}

/// Runs `work` (without the GIL, from [`rows::solve_into`]): a panic in it,
/// or in a worker thread it waits for, becomes the `RuntimeError` of
/// [`sssp::Error::Internal`] rather than pyo3's `PanicException`.
fn unpanicked<T>(what: &str, work: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|payload| {
        let message = sssp::panics::message(payload.as_ref());
        Err(to_py(sssp::Error::Internal(format!(
            "{what} panicked: {message}"
        ))))
    })
}

/// A C-ordered array of zeros of `shape` and `T`'s dtype, allocated by numpy:
/// an array that memory cannot hold raises `MemoryError` (rust-numpy's
/// `zeros` would panic instead).
fn zeros<'py, T: numpy::Element, D: numpy::ndarray::Dimension>(
    py: Python<'py>,
    shape: impl pyo3::IntoPyObject<'py>,
) -> PyResult<Bound<'py, numpy::PyArray<T, D>>> {
    let dtype = numpy::dtype::<T>(py);
    let array = py
        .import("numpy")?
        .getattr("zeros")?
        .call1((shape, dtype))?;
    Ok(array.cast_into()?)
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

/// "gpu" or "cpu".
fn device_name(device: Processor) -> &'static str {
    match device {
        Processor::Gpu => "gpu",
        Processor::Cpu => "cpu",
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

/// The weight type of words that are `f32` bit patterns with
/// `float_weights`, else `u32`s.
fn weight_kind(float_weights: bool) -> WeightKind {
    if float_weights {
        WeightKind::F32
    } else {
        WeightKind::U32
    }
}

/// The CSR `[indptr, indices, words]` as a graph of its own (copied: Python
/// may change the arrays afterwards), its weight words `f32` bit patterns
/// with `float_weights`, read in both directions with `undirected`.
fn owned_graph(
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

/// Makes `solver`'s CUDA context current on this thread (nothing on the CPU).
fn bind(solver: &Solver) -> sssp::Result<()> {
    solver.gpu().map_or(Ok(()), |gpu| gpu.bind_to_thread())
}

/// The extension module `sssp_gpu._native`.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<solver::Solver>()?;
    module.add_class::<graph::PreparedGraph>()?;
    module.add_class::<index::Index>()?;
    module.add_class::<cch::Customizable>()?;
    module.add_function(wrap_pyfunction!(load::load, module)?)?;
    module.add("GPU_PAIRS_FROM", sssp::gpu::pairs::GPU_PAIRS_FROM)?;
    Ok(())
}
