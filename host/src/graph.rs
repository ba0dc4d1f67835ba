//! The in-memory graph: a successor CSR with `u32` vertex ids and `u32` weight
//! words (integers, or the bit patterns of non-negative `f32`s, see
//! [`WeightKind`]), either owned or borrowed from a memory-mapped file.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU32, AtomicU64};

use gpu_kernels::csr::Csr;
pub use gpu_kernels::distance::WeightKind;
use gpu_kernels::distance::is_f32_weight;
use rayon::prelude::*;

/// Evaluates `$body` with `$W` naming the Rust type of the weight kind `$kind`
/// (`u32` or `f32`): how code generic over [`gpu_kernels::distance::Weight`]
/// is called for a graph.
macro_rules! with_weight_type {
    ($kind:expr, $W:ident => $body:expr) => {
        match $kind {
            $crate::graph::WeightKind::U32 => {
                type $W = u32;
                $body
            }
            $crate::graph::WeightKind::F32 => {
                type $W = f32;
                $body
            }
        }
    };
}
pub(crate) use with_weight_type;

/// The array of a CSR that a [`CsrDefect`] is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CsrArray {
    /// Row offsets (`n + 1` entries).
    Offsets,
    /// Adjacent vertex ids (`m` entries).
    Targets,
    /// Edge weights (`m` entries).
    Weights,
}

impl CsrArray {
    /// The array's name as the file format documents it.
    pub fn name(self) -> &'static str {
        match self {
            CsrArray::Offsets => "offsets",
            CsrArray::Targets => "targets",
            CsrArray::Weights => "weights",
        }
    }
}

/// Why three arrays are not a valid CSR, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct CsrDefect {
    /// The array at fault.
    pub array: CsrArray,
    /// Index of the first bad entry in that array.
    pub index: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for CsrDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]: {}", self.array.name(), self.index, self.reason)
    }
}

/// Checks that `offsets`, `targets` and `weights` form a CSR: `offsets` has at
/// least one entry, starts at 0, never decreases and ends at `targets.len()`;
/// `weights` is as long as `targets`; every target is a vertex id `< n`.
pub fn check_csr(offsets: &[u32], targets: &[u32], weights: &[u32]) -> Result<(), CsrDefect> {
    let defect = |array, index, reason: String| {
        Err(CsrDefect {
            array,
            index,
            reason,
        })
    };
    let Some(&first) = offsets.first() else {
        return defect(
            CsrArray::Offsets,
            0,
            "missing: a CSR has n + 1 offsets".into(),
        );
    };
    if first != 0 {
        return defect(
            CsrArray::Offsets,
            0,
            format!("the first offset must be 0, found {first}"),
        );
    }
    if let Some(k) = offsets.windows(2).position(|w| w[1] < w[0]) {
        return defect(
            CsrArray::Offsets,
            k + 1,
            format!(
                "offsets must not decrease: {} after {}",
                offsets[k + 1],
                offsets[k]
            ),
        );
    }
    let last = offsets[offsets.len() - 1];
    if last as usize != targets.len() {
        return defect(
            CsrArray::Offsets,
            offsets.len() - 1,
            format!(
                "the last offset must equal the edge count {}, found {last}",
                targets.len()
            ),
        );
    }
    if weights.len() != targets.len() {
        return defect(
            CsrArray::Weights,
            weights.len().min(targets.len()),
            format!("{} weights for {} edges", weights.len(), targets.len()),
        );
    }
    let n = offsets.len() - 1;
    if let Some(e) = targets.iter().position(|&t| t as usize >= n) {
        return defect(
            CsrArray::Targets,
            e,
            format!(
                "vertex id {} is out of range: the graph has {n} vertices",
                targets[e]
            ),
        );
    }
    Ok(())
}

/// A directed graph in CSR form with `u32` weight words of one [`WeightKind`].
/// Whether adjacency lists hold successors or predecessors is up to the user;
/// files and generators produce successors. Always valid: every constructor
/// checks [`check_csr`], and [`Graph::with_weight_kind`] checks the weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph<'a> {
    offsets: Cow<'a, [u32]>,
    targets: Cow<'a, [u32]>,
    weights: Cow<'a, [u32]>,
    weight_kind: WeightKind,
}

impl<'a> Graph<'a> {
    /// A graph from its three CSR arrays, owned or borrowed.
    pub fn new(
        offsets: impl Into<Cow<'a, [u32]>>,
        targets: impl Into<Cow<'a, [u32]>>,
        weights: impl Into<Cow<'a, [u32]>>,
    ) -> Result<Self, CsrDefect> {
        let (offsets, targets, weights) = (offsets.into(), targets.into(), weights.into());
        check_csr(&offsets, &targets, &weights)?;
        Ok(Graph {
            offsets,
            targets,
            weights,
            weight_kind: WeightKind::U32,
        })
    }

    /// A graph with `f32` weights: the words of `weights` are their bit
    /// patterns (`-0.0` is stored as `+0.0`). Fails on a negative, NaN or
    /// infinite weight, naming the edge.
    pub fn from_f32_weights(
        offsets: impl Into<Cow<'a, [u32]>>,
        targets: impl Into<Cow<'a, [u32]>>,
        weights: &[f32],
    ) -> Result<Self, CsrDefect> {
        let words: Vec<u32> = weights
            .iter()
            .map(|&w| if w == 0.0 { 0 } else { w.to_bits() })
            .collect();
        Graph::new(offsets, targets, words)?.with_weight_kind(WeightKind::F32)
    }

    /// The same arrays read as weights of `kind`. For [`WeightKind::F32`] every
    /// word must be the bit pattern of a finite `f32` that is `+0.0` or
    /// positive; the first that is not is reported.
    pub fn with_weight_kind(mut self, kind: WeightKind) -> Result<Self, CsrDefect> {
        if kind == WeightKind::F32
            && let Some(e) = self.weights.iter().position(|&w| !is_f32_weight(w))
        {
            return Err(CsrDefect {
                array: CsrArray::Weights,
                index: e,
                reason: format!(
                    "weight {} of edge {e} is not a finite non-negative f32 (`-0.0` included)",
                    f32::from_bits(self.weights[e])
                ),
            });
        }
        self.weight_kind = kind;
        Ok(self)
    }

    /// What the weight words hold.
    pub fn weight_kind(&self) -> WeightKind {
        self.weight_kind
    }

    /// Number of vertices.
    pub fn num_vertices(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Number of edges.
    pub fn num_edges(&self) -> usize {
        self.targets.len()
    }

    /// Row offsets, `n + 1` entries.
    pub fn offsets(&self) -> &[u32] {
        &self.offsets
    }

    /// Adjacent vertex of each edge.
    pub fn targets(&self) -> &[u32] {
        &self.targets
    }

    /// Weight word of each edge (see [`Graph::weight_kind`]).
    pub fn weights(&self) -> &[u32] {
        &self.weights
    }

    /// The borrowed view that the kernels' per-thread logic takes.
    pub fn csr(&self) -> Csr<'_> {
        Csr {
            offsets: &self.offsets,
            targets: &self.targets,
            weights: &self.weights,
        }
    }

    /// Breadth-first levels from `source` (in range) until `max_vertices`
    /// vertices are visited or none is left: the level of the last vertex
    /// visited, and how many were. The probe behind `auto`'s estimate of a
    /// graph's depth; its cost follows the limit, not the graph's size (a
    /// bit per vertex marks the visited ones).
    pub fn probe_depth(&self, source: usize, max_vertices: usize) -> (u32, usize) {
        let csr = self.csr();
        let mut seen = vec![0u64; self.num_vertices().div_ceil(64)];
        seen[source / 64] |= 1 << (source % 64);
        let (mut frontier, mut next) = (vec![source], Vec::new());
        let (mut depth, mut visited) = (0, 1);
        while visited < max_vertices {
            for &u in &frontier {
                for (v, _) in csr.edges(u) {
                    let (word, bit) = (v / 64, 1 << (v % 64));
                    if seen[word] & bit == 0 {
                        seen[word] |= bit;
                        visited += 1;
                        next.push(v);
                    }
                    if visited >= max_vertices {
                        return (depth + u32::from(!next.is_empty()), visited);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            depth += 1;
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
        }
        (depth, visited)
    }

    /// The same graph borrowing this one's arrays (no copy, no re-validation).
    pub fn view(&self) -> Graph<'_> {
        Graph {
            offsets: Cow::Borrowed(&self.offsets),
            targets: Cow::Borrowed(&self.targets),
            weights: Cow::Borrowed(&self.weights),
            weight_kind: self.weight_kind,
        }
    }

    /// A copy that owns its arrays.
    pub fn into_owned(self) -> Graph<'static> {
        Graph {
            offsets: Cow::Owned(self.offsets.into_owned()),
            targets: Cow::Owned(self.targets.into_owned()),
            weights: Cow::Owned(self.weights.into_owned()),
            weight_kind: self.weight_kind,
        }
    }

    /// The same edges with every direction reversed: the predecessor CSR of a
    /// successor CSR and vice versa. Within each list, edges keep their order
    /// (that of their tails' lists), so the result does not depend on the number
    /// of threads used to build it.
    pub fn transpose(&self) -> Graph<'static> {
        let threads = std::thread::available_parallelism()
            .map_or(1, |t| t.get())
            .min(16);
        let (n, m) = (self.num_vertices(), self.num_edges());
        if threads == 1 || m < 1 << 16 {
            return self.transpose_sequential();
        }
        // In-degrees, then the new offsets.
        // Every array of n or m words is made on all threads: on a graph of
        // tens of millions of edges, one thread touching their pages first
        // took longer than the scatter itself.
        let degree: Vec<AtomicU32> = (0..n).into_par_iter().map(|_| AtomicU32::new(0)).collect();
        let edge_ranges = split_by_edges(&self.offsets, threads);
        std::thread::scope(|scope| {
            for vertices in &edge_ranges {
                let (degree, this) = (&degree, &self);
                let edges =
                    self.offsets[vertices.start] as usize..self.offsets[vertices.end] as usize;
                scope.spawn(move || {
                    this.targets[edges]
                        .iter()
                        .for_each(|&v| _ = degree[v as usize].fetch_add(1, Relaxed))
                });
            }
        });
        let mut offsets = vec![0u32; n + 1];
        for v in 0..n {
            offsets[v + 1] = offsets[v] + degree[v].load(Relaxed);
        }
        // Scatter each edge into its head's list (in any order) as its tail
        // and id in one word: edges are numbered tail by tail, so these words
        // order like the ids...
        let next: Vec<AtomicU32> = offsets[..n]
            .par_iter()
            .map(|&o| AtomicU32::new(o))
            .collect();
        let slots: Vec<AtomicU64> = (0..m).into_par_iter().map(|_| AtomicU64::new(0)).collect();
        std::thread::scope(|scope| {
            for vertices in &edge_ranges {
                let (next, slots, this) = (&next, &slots, &self);
                let vertices = vertices.clone();
                scope.spawn(move || {
                    for u in vertices {
                        let edges = this.offsets[u] as usize..this.offsets[u + 1] as usize;
                        for e in edges {
                            let v = this.targets[e] as usize;
                            let slot = next[v].fetch_add(1, Relaxed) as usize;
                            slots[slot].store(((u as u64) << 32) | e as u64, Relaxed);
                        }
                    }
                });
            }
        });
        // ...then sort each list (the sequential order) and fill it in.
        let mut targets = vec![0u32; m];
        let mut weights = vec![0u32; m];
        std::thread::scope(|scope| {
            let (mut targets_rest, mut weights_rest, mut done) =
                (&mut targets[..], &mut weights[..], 0usize);
            for vertices in split_by_edges(&offsets, threads) {
                let end = offsets[vertices.end] as usize;
                let (t, t_rest) = targets_rest.split_at_mut(end - done);
                let (w, w_rest) = weights_rest.split_at_mut(end - done);
                (targets_rest, weights_rest) = (t_rest, w_rest);
                let (offsets, slots, this, base) = (&offsets, &slots, &self, done);
                scope.spawn(move || {
                    let mut ids = Vec::new();
                    for v in vertices {
                        let list = offsets[v] as usize..offsets[v + 1] as usize;
                        ids.clear();
                        ids.extend(slots[list.clone()].iter().map(|s| s.load(Relaxed)));
                        ids.sort_unstable();
                        for (k, &word) in list.zip(&ids) {
                            t[k - base] = (word >> 32) as u32;
                            w[k - base] = this.weights[word as u32 as usize];
                        }
                    }
                });
                done = end;
            }
        });
        Graph {
            offsets: offsets.into(),
            targets: targets.into(),
            weights: weights.into(),
            weight_kind: self.weight_kind,
        }
    }

    /// [`Graph::transpose`] on one thread (a counting sort): its path for
    /// small graphs, and the reference the tests check it against.
    pub fn transpose_sequential(&self) -> Graph<'static> {
        let n = self.num_vertices();
        let mut offsets = vec![0u32; n + 1];
        for &t in self.targets.iter() {
            offsets[t as usize + 1] += 1;
        }
        for v in 0..n {
            offsets[v + 1] += offsets[v];
        }
        let mut next: Vec<u32> = offsets[..n].to_vec();
        let mut targets = vec![0u32; self.num_edges()];
        let mut weights = vec![0u32; self.num_edges()];
        for u in 0..n {
            for e in self.offsets[u] as usize..self.offsets[u + 1] as usize {
                let v = self.targets[e] as usize;
                let slot = next[v] as usize;
                targets[slot] = u as u32;
                weights[slot] = self.weights[e];
                next[v] += 1;
            }
        }
        Graph {
            offsets: offsets.into(),
            targets: targets.into(),
            weights: weights.into(),
            weight_kind: self.weight_kind,
        }
    }

    /// A graph of `num_vertices` vertices from `(tail, head, weight)` edges, in
    /// successor form; edges leaving one vertex keep their order.
    pub fn from_edges(
        num_vertices: usize,
        edges: &[(u32, u32, u32)],
    ) -> Result<Graph<'static>, CsrDefect> {
        if let Some(k) = edges
            .iter()
            .position(|&(u, _, _)| u as usize >= num_vertices)
        {
            return Err(CsrDefect {
                array: CsrArray::Offsets,
                index: k,
                reason: format!(
                    "edge {k} leaves vertex {}, but the graph has {num_vertices} vertices",
                    edges[k].0
                ),
            });
        }
        let edge_count = u32::try_from(edges.len()).map_err(|_| CsrDefect {
            array: CsrArray::Targets,
            index: 0,
            reason: format!("{} edges do not fit 32-bit offsets", edges.len()),
        })?;
        let mut offsets = vec![0u32; num_vertices + 1];
        for &(u, _, _) in edges {
            offsets[u as usize + 1] += 1;
        }
        for v in 0..num_vertices {
            offsets[v + 1] += offsets[v];
        }
        debug_assert_eq!(offsets[num_vertices], edge_count);
        let mut next: Vec<u32> = offsets[..num_vertices].to_vec();
        let mut targets = vec![0u32; edges.len()];
        let mut weights = vec![0u32; edges.len()];
        for &(u, v, w) in edges {
            let slot = next[u as usize] as usize;
            targets[slot] = v;
            weights[slot] = w;
            next[u as usize] += 1;
        }
        Graph::new(offsets, targets, weights)
    }
}

/// `parts` consecutive vertex ranges covering `0..n` with about equal numbers
/// of edges (by the CSR `offsets`).
pub(crate) fn split_by_edges(offsets: &[u32], parts: usize) -> Vec<Range<usize>> {
    let n = offsets.len() - 1;
    let m = offsets[n] as usize;
    let mut ranges = Vec::with_capacity(parts);
    let mut start = 0;
    for k in 1..=parts {
        let end = if k == parts {
            n
        } else {
            offsets
                .partition_point(|&o| (o as usize) < m * k / parts)
                .min(n)
        };
        if end > start {
            ranges.push(start..end);
            start = end;
        }
    }
    ranges
}
