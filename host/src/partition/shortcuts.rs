//! Shortcuts inside the partition solver's pieces: fewer hops on the
//! shortest-path tree of a high-diameter graph (docs/PERFORMANCE.md,
//! 2026-11-27).
//!
//! A round of the partition solver moves a path by a few hops, so a road
//! network's solve takes about as many rounds as its tree is deep (1,000–2,000
//! hops). For each piece, [`add_shortcuts`] adds an arc from each *entry*
//! (a vertex some arc from another piece enters) to each other *boundary
//! node* of the piece (an entry, or an *exit*: a vertex with an arc leaving
//! the piece), weighted by the shortest distance between them inside the
//! piece. A path that crosses a piece then takes two hops there (a cut arc
//! into an entry, a shortcut to the exit) instead of dozens, and the tree's
//! depth falls to the pieces crossed plus the deepest piece's interior (the
//! overlay of multi-level Dijkstra, kept inside the pieces rather than as a
//! graph of its own).
//!
//! **Distances do not change.** Every shortcut's weight is the length of a
//! path of the graph (a piece-local one), so no distance falls below the
//! graph's; and the graph's arcs are all kept. Parents are computed from the
//! caller's graph, never from this one.
//!
//! **Only shortcuts a path needs.** The arc from entry `a` to node `x` is left
//! out when the piece-local shortest path from `a` to `x` (shortest in
//! distance, then in hops) is one arc (it is in the graph already) or passes
//! through another entry `c`: the arcs `a → c` and `c → x` (or what stands in
//! for them) give `x` the same distance. By induction on (distance, hops),
//! both parts being shorter in that order, every omitted arc is covered; the
//! hop tie-break keeps two zero-length detours from omitting each other's
//! arcs. On road networks this leaves about half of the entries' clique arcs.
//!
//! **`u32` weights only.** A shortcut adds its path's weights before the
//! solve adds them to a distance; in exact integers the order does not
//! matter, in `f32` it would change the rounding, and a result would differ
//! from the oracle's in its last bit. A shortcut whose weight would not fit a
//! distance word is left out (it is never needed for a reachable distance the
//! graph's arcs cannot give).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::Range;

use gpu_kernels::distance::MAX_DISTANCE;
use rayon::prelude::*;

use super::pieces::Partitioning;
use crate::graph::{Graph, WeightKind};
use crate::{Error, Result};

/// Where the partition solver adds shortcuts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shortcuts {
    /// In resident mode (at most one piece per block of the device, so the
    /// preparation is bounded), and in paged mode where [`few_shortcuts`]
    /// says. On the pieces of the shared road networks there were 0.25–0.92
    /// shortcuts per arc and the solves 1.1–2.7 times as fast; on grids with
    /// random weights 1.05–1.29, 3.3 on a 3-D grid, and paged grids gained
    /// nothing for 5 times the preparation, or lost (docs/PERFORMANCE.md,
    /// 2026-11-27). `auto` tries the
    /// solver with and without them where it adds some.
    #[default]
    Auto,
    /// Always (`u32` weights).
    Always,
    /// Never.
    Never,
}

/// [`Shortcuts::Auto`] estimates the shortcuts from one piece in this many.
pub const SAMPLE_EVERY: usize = 16;

/// Whether the pieces of `parts` have fewer shortcuts than the graph has
/// arcs (estimated from every [`SAMPLE_EVERY`]th piece), so that they would
/// at most double the arcs a round may relax: [`Shortcuts::Auto`]'s test in
/// paged mode. It counts every shortcut the pieces have, not those a block's
/// shared memory would keep: on a 4096² grid with pieces of 1,322 vertices
/// the kept ones were 0.25 per arc, all of them 1.29, and with the kept ones
/// the solve took 25.6 ms against 21.4 without (docs/PERFORMANCE.md,
/// 2026-11-27).
pub fn few_shortcuts(parts: &Partitioning) -> bool {
    estimate_shortcuts(parts, usize::MAX, SAMPLE_EVERY) <= parts.graph.num_edges()
}

/// A piece's shortcuts: (tail, head, weight), grouped by tail.
type PieceShortcuts = Vec<(u32, u32, u32)>;

/// What [`add_shortcuts`] added.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Added {
    /// Shortcuts added.
    pub count: usize,
    /// Their mean weight (0 without shortcuts).
    pub mean_weight: f64,
}

/// About how many shortcuts [`add_shortcuts`] would add with `most_edges`:
/// those of every `every`th piece, scaled to all pieces. 0 for weights other
/// than `u32`.
pub fn estimate_shortcuts(parts: &Partitioning, most_edges: usize, every: usize) -> usize {
    if parts.graph.weight_kind() != WeightKind::U32 || parts.pieces() == 0 {
        return 0;
    }
    let sampled: Vec<usize> = (0..parts.pieces()).step_by(every.max(1)).collect();
    let found: usize = sampled
        .par_iter()
        .map_init(PieceSearch::default, |search, &p| {
            piece_shortcuts(parts, p, most_edges, search).len()
        })
        .sum();
    found * parts.pieces() / sampled.len()
}

/// Adds the pieces' shortcuts (module docs) to `parts.graph`, each vertex's
/// after its own arcs, keeping every piece within `most_edges` arcs (where a
/// piece's shortcuts would exceed that, those that save the most hops are
/// kept). `parts` is unchanged where none are added (weights other than
/// `u32`, or no piece with a shortcut to add).
pub fn add_shortcuts(parts: &mut Partitioning, most_edges: usize) -> Result<Added> {
    if parts.graph.weight_kind() != WeightKind::U32 {
        return Ok(Added::default());
    }
    let per_piece: Vec<PieceShortcuts> = (0..parts.pieces())
        .into_par_iter()
        .map_init(PieceSearch::default, |search, p| {
            piece_shortcuts(parts, p, most_edges, search)
        })
        .collect();
    let graph = &parts.graph;
    let n = graph.num_vertices();
    let count: usize = per_piece.iter().map(Vec::len).sum();
    let m = graph.num_edges() + count;
    if count == 0 || u32::try_from(m).is_err() {
        return Ok(Added::default());
    }
    let total: f64 = per_piece
        .iter()
        .flatten()
        .map(|&(_, _, w)| f64::from(w))
        .sum();
    let mut offsets = Vec::with_capacity(n + 1);
    let (mut heads, mut weights) = (Vec::with_capacity(m), Vec::with_capacity(m));
    let mut shortcuts = per_piece.iter().flatten().peekable();
    offsets.push(0u32);
    for u in 0..n {
        let arcs = graph.offsets()[u] as usize..graph.offsets()[u + 1] as usize;
        heads.extend_from_slice(&graph.targets()[arcs.clone()]);
        weights.extend_from_slice(&graph.weights()[arcs]);
        while let Some(&(_, x, w)) = shortcuts.next_if(|&&(a, _, _)| a as usize == u) {
            heads.push(x);
            weights.push(w);
        }
        offsets.push(heads.len() as u32);
    }
    parts.graph = Graph::new(offsets, heads, weights).map_err(|defect| {
        Error::InvalidArgument(format!("the graph with its pieces' shortcuts: {defect}"))
    })?;
    Ok(Added {
        count,
        mean_weight: total / count as f64,
    })
}

/// Piece `p`'s shortcuts, within `most_edges` arcs for the piece.
fn piece_shortcuts(
    parts: &Partitioning,
    p: usize,
    most_edges: usize,
    search: &mut PieceSearch,
) -> PieceShortcuts {
    let graph = &parts.graph;
    let start = parts.starts[p] as usize;
    let entries = parts.boundary_ends[p] as usize - start;
    let local = LocalPiece::new(graph, start..parts.starts[p + 1] as usize, entries);
    // (hops saved, tail, head, weight)
    let mut found = Vec::new();
    for a in 0..entries {
        search.run(&local, entries, a);
        for x in 0..local.border.len() {
            let needed = x != a && search.hops[x] >= 2 && !search.via_entry[x];
            if local.border[x] && needed && search.dist[x] <= u64::from(MAX_DISTANCE) {
                found.push((
                    search.hops[x] - 1,
                    (start + a) as u32,
                    (start + x) as u32,
                    search.dist[x] as u32,
                ));
            }
        }
    }
    let room = most_edges.saturating_sub(local.own_arcs);
    if found.len() > room {
        found.sort_unstable_by_key(|&(saved, a, x, _)| (Reverse(saved), a, x));
        found.truncate(room);
        found.sort_unstable_by_key(|&(_, a, x, _)| (a, x));
    }
    found.into_iter().map(|(_, a, x, w)| (a, x, w)).collect()
}

/// A piece's internal arcs in CSR form over ids relative to its start, so
/// that its searches read no arc that leaves it.
struct LocalPiece {
    offsets: Vec<u32>,
    heads: Vec<u32>,
    weights: Vec<u32>,
    /// Whether each vertex is on the border: entered from another piece (the
    /// partition's boundary, given) or with an arc leaving the piece.
    border: Vec<bool>,
    /// The piece's arcs in the graph, leaving ones included.
    own_arcs: usize,
}

impl LocalPiece {
    /// The piece `piece` of `graph`, whose first `entries` vertices are its
    /// entries.
    fn new(graph: &Graph, piece: Range<usize>, entries: usize) -> LocalPiece {
        let mut local = LocalPiece {
            offsets: Vec::with_capacity(piece.len() + 1),
            heads: Vec::new(),
            weights: Vec::new(),
            border: Vec::with_capacity(piece.len()),
            own_arcs: (graph.offsets()[piece.end] - graph.offsets()[piece.start]) as usize,
        };
        local.offsets.push(0);
        for u in piece.clone() {
            let arcs = graph.offsets()[u] as usize..graph.offsets()[u + 1] as usize;
            let mut leaves = false;
            for (&v, &w) in graph.targets()[arcs.clone()]
                .iter()
                .zip(&graph.weights()[arcs])
            {
                if piece.contains(&(v as usize)) {
                    local.heads.push(v - piece.start as u32);
                    local.weights.push(w);
                } else {
                    leaves = true;
                }
            }
            local.offsets.push(local.heads.len() as u32);
            local.border.push(leaves || u - piece.start < entries);
        }
        local
    }
}

/// One piece-local Dijkstra's state, reused across the entries of a thread's
/// pieces; indices relative to the piece's start.
#[derive(Default)]
struct PieceSearch {
    dist: Vec<u64>,
    hops: Vec<u32>,
    /// Whether a shortest path (in distance, then hops) from the search's
    /// entry passes through another entry.
    via_entry: Vec<bool>,
    heap: BinaryHeap<Reverse<(u64, u32, u32)>>,
}

impl PieceSearch {
    /// Shortest distances (then fewest hops) from entry `from` to the vertices
    /// of `piece`; its entries are its first `entries` vertices.
    fn run(&mut self, piece: &LocalPiece, entries: usize, from: usize) {
        let len = piece.border.len();
        self.dist.clear();
        self.dist.resize(len, u64::MAX);
        self.hops.clear();
        self.hops.resize(len, u32::MAX);
        self.via_entry.clear();
        self.via_entry.resize(len, false);
        self.heap.clear();
        (self.dist[from], self.hops[from]) = (0, 0);
        self.heap.push(Reverse((0, 0, from as u32)));
        while let Some(Reverse((d, h, u))) = self.heap.pop() {
            let u = u as usize;
            if (d, h) != (self.dist[u], self.hops[u]) {
                continue;
            }
            // Final once popped: every path to `u` with a smaller key was.
            let passes = self.via_entry[u] || (u != from && u < entries);
            let arcs = piece.offsets[u] as usize..piece.offsets[u + 1] as usize;
            for (&v, &w) in piece.heads[arcs.clone()].iter().zip(&piece.weights[arcs]) {
                let v = v as usize;
                let key = (d + u64::from(w), h + 1);
                if key < (self.dist[v], self.hops[v]) {
                    (self.dist[v], self.hops[v]) = key;
                    self.via_entry[v] = passes;
                    self.heap.push(Reverse((key.0, key.1, v as u32)));
                } else if key == (self.dist[v], self.hops[v]) {
                    self.via_entry[v] |= passes;
                }
            }
        }
    }
}
