//! [`load`]: graph files as CSR arrays.

use numpy::PyArray1;
use pyo3::prelude::*;
use sssp::graph::{Graph, WeightKind};

use crate::to_py;

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
pub(crate) fn load<'py>(py: Python<'py>, path: std::path::PathBuf) -> PyResult<LoadedArrays<'py>> {
    let (float_weights, (offsets, targets, weights)) = py
        .detach(|| {
            sssp::panics::catching("loading the graph", || {
                let graph = sssp::formats::load(&path, None)?.into_graph()?;
                Ok((
                    graph.weight_kind() == WeightKind::F32,
                    lightest_arcs(&graph),
                ))
            })
        })
        .map_err(to_py)?;
    Ok((
        PyArray1::from_vec(py, offsets),
        PyArray1::from_vec(py, targets),
        PyArray1::from_vec(py, weights),
        float_weights,
    ))
}
