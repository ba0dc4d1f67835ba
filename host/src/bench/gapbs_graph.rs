//! The graph as GAPBS's `sssp` loads it fastest: its serialized weighted
//! format (`.wsg`), read in one pass with no parsing, so that a Δ sweep of
//! fifteen runs on a graph of tens of millions of arcs costs seconds, not the
//! minutes of re-parsing a text edge list for every run.
//!
//! The file holds what GAPBS's builder makes of an edge list (`SquishCSR` in
//! its `builder.h`): each vertex's arcs sorted by target, one arc per target
//! (the lightest: the builder sorts by target, then weight, and keeps the
//! first), no self-loops. Shortest-path distances are those of the graph the
//! project solves, and GAPBS times the same graph it would build from the
//! `.wel` file this module replaces.
//!
//! Layout (GAPBS `reader.h`, `ReadSerializedGraph`, 32-bit ids and weights):
//! `bool directed` (one byte, 1), `i64 num_edges`, `i64 num_nodes`, the
//! out-offsets (`num_nodes + 1` × `i64`), the out-arcs (`num_edges` × (`i32`
//! target, `i32` weight)), then the same two arrays for the in-arcs (GAPBS's
//! weighted graph keeps both directions), all little-endian.

use std::io::Write;
use std::path::Path;

use crate::graph::{Graph, WeightKind};
use crate::{Error, Result};

/// `graph`'s out-arcs as GAPBS's builder leaves them: per vertex sorted by
/// target, the lightest arc to each target, no self-loops. Fails where GAPBS's
/// 32-bit ids or weights cannot hold the graph, or its weights are `f32`.
pub fn squish(graph: &Graph) -> Result<Graph<'static>> {
    let n = graph.num_vertices();
    if graph.weight_kind() == WeightKind::F32 {
        return Err(Error::InvalidArgument(
            "GAPBS's serialized graph takes integer weights only; this graph's are f32".into(),
        ));
    }
    if n > i32::MAX as usize {
        return Err(Error::InvalidArgument(format!(
            "GAPBS's serialized graph holds at most {} vertices (32-bit ids); this graph has {n}",
            i32::MAX
        )));
    }
    let csr = graph.csr();
    let mut offsets = Vec::with_capacity(n + 1);
    let (mut targets, mut weights) = (Vec::new(), Vec::new());
    let mut row: Vec<(usize, u32)> = Vec::new();
    offsets.push(0);
    for u in 0..n {
        row.clear();
        row.extend(csr.edges(u).filter(|&(v, _)| v != u));
        row.sort_unstable();
        row.dedup_by_key(|&mut (v, _)| v);
        for &(v, w) in &row {
            if i32::try_from(w).is_err() {
                return Err(Error::InvalidArgument(format!(
                    "GAPBS's serialized graph takes weights up to {} (32-bit); arc {u} -> {v} weighs {w}",
                    i32::MAX
                )));
            }
            targets.push(v as u32);
            weights.push(w);
        }
        offsets.push(targets.len() as u32);
    }
    Graph::new(offsets, targets, weights)
        .map_err(|defect| Error::InvalidArgument(format!("the squished graph: {defect}")))
}

/// Writes `graph` to `out` in GAPBS's `.wsg` layout (see the module docs);
/// `path` names `out` in errors. The in-arcs are [`Graph::transpose`]'s,
/// each list in the order of its tails, as GAPBS's builder sorts them.
pub fn write_wsg(mut out: impl Write, graph: &Graph, path: &Path) -> Result<()> {
    let forward = squish(graph)?;
    let backward = forward.transpose();
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let num_nodes = forward.num_vertices() as i64;
    let num_edges = forward.num_edges() as i64;
    out.write_all(&[1u8]).map_err(io)?;
    out.write_all(&num_edges.to_le_bytes()).map_err(io)?;
    out.write_all(&num_nodes.to_le_bytes()).map_err(io)?;
    for direction in [&forward, &backward] {
        let mut bytes = Vec::with_capacity(direction.offsets().len() * 8);
        for &offset in direction.offsets() {
            bytes.extend_from_slice(&i64::from(offset).to_le_bytes());
        }
        out.write_all(&bytes).map_err(io)?;
        // Arcs in chunks: a graph of 10^8 arcs would need 800 MB at once.
        // Ids and weights fit `i32` (checked by [`squish`]), so their `u32` bytes
        // are GAPBS's `int32_t`s.
        const CHUNK: usize = 1 << 16;
        for (heads, weights) in direction
            .targets()
            .chunks(CHUNK)
            .zip(direction.weights().chunks(CHUNK))
        {
            bytes.clear();
            for (&v, &w) in heads.iter().zip(weights) {
                bytes.extend_from_slice(&v.to_le_bytes());
                bytes.extend_from_slice(&w.to_le_bytes());
            }
            out.write_all(&bytes).map_err(io)?;
        }
    }
    out.flush().map_err(io)
}
