//! The adjacency-matrix representation of Martín et al. (§5, Fig. 7) and
//! Ortega-Arranz et al. (Tables I/II): an `n × n` row-major matrix of `u32`
//! weights, built from a CSR [`Graph`], and the parameters of the papers'
//! random graphs for matrix experiments ([`matrix_spec`]).
//!
//! Layout: `weights[u * n + v]` is the weight of the edge `u → v`;
//! [`NO_EDGE`] (`gpu_kernels::distance::INFINITY`, `u32::MAX`) marks a pair
//! without an edge. Parallel edges keep the smallest weight (the only one a
//! shortest path can use). A weight of `u32::MAX` itself, which would read as
//! "no edge", is stored as `SATURATED` (`u32::MAX - 1`): that only makes
//! relaxations through the edge saturate, which they do anyway (any finite
//! distance plus `u32::MAX - 1` or `u32::MAX` does not fit a `u32` distance),
//! so no result changes.

use gpu_kernels::distance::INFINITY;
pub use gpu_kernels::matrix::NO_EDGE;
use gpu_kernels::matrix::{entry, stored_weight};

use crate::generate::RandomGraphSpec;
use crate::graph::{Graph, WeightKind};
use crate::{Error, Result};

/// The largest vertex count [`WeightMatrix::from_graph`] accepts: 65 536
/// vertices make a matrix of 2^32 entries, 16 GiB, far past the papers' 15 Ki
/// vertices (900 MiB) and already more than most hosts want to hold.
pub const MAX_MATRIX_VERTICES: usize = 1 << 16;

/// A graph as an `n × n` row-major matrix of `u32` weights (see the module
/// documentation for the layout and the sentinel). Always `n * n` entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightMatrix {
    n: usize,
    weights: Vec<u32>,
    weight_kind: WeightKind,
}

impl WeightMatrix {
    /// Entries of a matrix of `n` vertices, `n²`; an error when that overflows or
    /// `n` is past [`MAX_MATRIX_VERTICES`].
    pub fn entries_for(n: usize) -> Result<usize> {
        let refuse = |why: String| {
            Err(Error::InvalidArgument(format!(
                "a graph of {n} vertices is too large for an adjacency matrix: {why}"
            )))
        };
        let Some(entries) = n.checked_mul(n) else {
            return refuse("n² overflows".to_string());
        };
        if entries.checked_mul(size_of::<u32>()).is_none() {
            return refuse("4·n² bytes overflow".to_string());
        }
        if n > MAX_MATRIX_VERTICES {
            return refuse(format!(
                "the matrix would take {} bytes (4·n²); at most {MAX_MATRIX_VERTICES} vertices \
                 are accepted",
                entries as u128 * 4
            ));
        }
        Ok(entries)
    }

    /// Bytes of the matrix of `n` vertices, `4·n²` (saturating; for checks
    /// before building it).
    pub fn bytes_for(n: usize) -> u64 {
        (n as u64)
            .saturating_mul(n as u64)
            .saturating_mul(size_of::<u32>() as u64)
    }

    /// The matrix of `graph` (a successor CSR): row `u` holds the weights of the
    /// edges leaving `u`. Refuses, with [`Error::InvalidArgument`], a graph whose
    /// `n²` overflows or that has more than [`MAX_MATRIX_VERTICES`] vertices,
    /// and reports a failed host allocation the same way instead of aborting.
    pub fn from_graph(graph: &Graph) -> Result<Self> {
        let n = graph.num_vertices();
        let entries = Self::entries_for(n)?;
        let mut weights = Vec::new();
        weights.try_reserve_exact(entries).map_err(|e| {
            Error::InvalidArgument(format!(
                "could not allocate the {} bytes of the adjacency matrix of {n} vertices: {e}",
                Self::bytes_for(n)
            ))
        })?;
        weights.resize(entries, NO_EDGE);
        let csr = graph.csr();
        for u in 0..n {
            for (v, w) in csr.edges(u) {
                let slot = &mut weights[entry(u, v, n)];
                *slot = (*slot).min(stored_weight(w));
            }
        }
        Ok(WeightMatrix {
            n,
            weights,
            weight_kind: graph.weight_kind(),
        })
    }

    /// A matrix from its `n * n` row-major entries (any values: [`NO_EDGE`] is
    /// no edge, anything else an edge of that weight), with `u32` weights.
    pub fn from_entries(n: usize, weights: Vec<u32>) -> Result<Self> {
        let entries = Self::entries_for(n)?;
        if weights.len() != entries {
            return Err(Error::InvalidArgument(format!(
                "a matrix of {n} vertices has {entries} entries, got {}",
                weights.len()
            )));
        }
        Ok(WeightMatrix {
            n,
            weights,
            weight_kind: WeightKind::U32,
        })
    }

    /// What the weight words hold.
    pub fn weight_kind(&self) -> WeightKind {
        self.weight_kind
    }

    /// Number of vertices `n`.
    pub fn num_vertices(&self) -> usize {
        self.n
    }

    /// The `n * n` entries, row-major.
    pub fn weights(&self) -> &[u32] {
        &self.weights
    }

    /// The stored weight of `u → v`, `None` without an edge.
    pub fn weight(&self, u: usize, v: usize) -> Option<u32> {
        assert!(
            u < self.n && v < self.n,
            "({u}, {v}) is outside a {0}×{0} matrix",
            self.n
        );
        let w = self.weights[entry(u, v, self.n)];
        (w != NO_EDGE).then_some(w)
    }

    /// Number of edges (entries other than [`NO_EDGE`]; parallel edges counted once).
    pub fn num_edges(&self) -> usize {
        self.weights.iter().filter(|&&w| w != NO_EDGE).count()
    }

    /// Bytes of the entries, `4·n²`.
    pub fn bytes(&self) -> u64 {
        Self::bytes_for(self.n)
    }

    /// The smallest weight of the matrix, Crauser's economic `Δ_base`;
    /// [`INFINITY`] without edges (as `crate::variants::delta_base` of the list
    /// forms).
    pub fn min_weight(&self) -> u32 {
        self.weights.iter().copied().min().unwrap_or(INFINITY)
    }
}

/// The papers' random graph for matrix experiments, for `num_vertices` vertices:
/// every vertex gets `degree` random predecessors with weights uniform in
/// `1..=10` ([`crate::generate::random_graph`] builds it; [`WeightMatrix::from_graph`]
/// turns it into a matrix).
///
/// `degree` defaults to `n / 5`, Martín et al.'s choice for matrices (§6: "7 for
/// adjacency lists, while n/5 for matrices"), at least 1 so that graphs below 5
/// vertices have edges. `Some(7)` reproduces Ortega-Arranz et al., whose matrices
/// "have been designed to have also degree seven" (§V.2).
pub fn matrix_spec(num_vertices: usize, degree: Option<u32>, seed: u64) -> RandomGraphSpec {
    let default_degree = u32::try_from(num_vertices / 5).unwrap_or(u32::MAX).max(1);
    RandomGraphSpec {
        degree: degree.unwrap_or(default_degree),
        ..RandomGraphSpec::papers(num_vertices, seed)
    }
}
