//! The memory of a partition solve: the partitioned graph, the global arrays
//! every block shares, a block's shared memory, and their initialization.

use core::sync::atomic::AtomicU32;
use core::sync::atomic::Ordering::Relaxed;

use crate::csr::Csr;
use crate::distance::INFINITY;

use super::control::{CHAIN_QUEUE_WORDS, CONTROL_WORDS, FREE_PIECE, OUTBOX_WORDS};

/// The partitioned graph, renumbered so that each piece is contiguous.
#[derive(Clone, Copy, Debug)]
pub struct Pieces<'a> {
    /// The successor CSR of the renumbered graph (`n` vertices).
    pub successors: Csr<'a>,
    /// Piece `p` holds the vertices `starts[p]..starts[p + 1]` (`k + 1`).
    pub starts: &'a [u32],
    /// Piece `p`'s boundary vertices (edges from other pieces enter them) are
    /// `starts[p]..boundary_ends[p]` (`k`).
    pub boundary_ends: &'a [u32],
    /// The piece of each vertex (`n`).
    pub piece_of: &'a [u32],
}

/// Device memory every block shares.
#[derive(Clone, Copy, Debug)]
pub struct Global<'a> {
    /// Distances (`n`): for a piece's vertices, the smallest distance sent by
    /// other pieces while the solve runs, the final distance after a
    /// resident solve.
    pub dist: &'a [AtomicU32],
    /// Paged mode: the distances of the pieces no block holds (`n`), the
    /// final distances after the solve.
    pub backing: &'a [AtomicU32],
    /// One notification word per piece (`k`): the smallest distance another
    /// piece sent it that it has not taken yet, or [`INFINITY`].
    pub notify: &'a [AtomicU32],
    /// Paged mode: one owner word per piece (`k`), set while a block holds
    /// the piece.
    pub owner: &'a [AtomicU32],
    /// The token counter (see the module docs).
    pub pending: &'a AtomicU32,
    /// The largest number of rounds a block ran (raised at each block's exit).
    pub rounds: &'a AtomicU32,
    /// The solve's bound (module docs, *Early stop*): no vertex whose
    /// distance is above it is relaxed.
    pub bound: &'a AtomicU32,
    /// The vertex whose distance lowers `bound` as it falls, or
    /// [`NO_TARGET`](crate::distance::NO_TARGET).
    pub target: u32,
}

/// One block's shared memory, `capacity` words per array.
#[derive(Clone, Copy, Debug)]
pub struct Local<'a> {
    /// [`CONTROL_WORDS`] words.
    pub control: &'a [AtomicU32],
    /// Distances of the piece's vertices.
    pub dist: &'a [AtomicU32],
    /// 1 for a dirty vertex (improved, not relaxed since).
    pub dirty: &'a [AtomicU32],
    /// The round's frontier (local indices).
    pub frontier: &'a [AtomicU32],
    /// Two outboxes of [`OUTBOX_SLOTS`](super::OUTBOX_SLOTS) (piece, distance) pairs to send, by
    /// round parity.
    pub outbox: &'a [AtomicU32],
    /// The chain queues of the block's first warps (`chain_hops`), a pair
    /// for each.
    pub chain: &'a [AtomicU32],
    /// The piece's out-edges, copied at the start so that a hop inside the
    /// piece reads no global memory; `None` when they do not fit (the block
    /// then reads the global CSR).
    pub edges: Option<PieceEdges<'a>>,
}

/// A piece's out-edges in shared memory: a CSR over its local vertices whose
/// heads keep their (renumbered) global ids.
#[derive(Clone, Copy, Debug)]
pub struct PieceEdges<'a> {
    /// `capacity + 1` offsets, relative to the piece's first edge.
    pub offsets: &'a [AtomicU32],
    /// Heads, `edge_capacity`.
    pub targets: &'a [AtomicU32],
    /// Weight words, `edge_capacity`.
    pub weights: &'a [AtomicU32],
}

impl<'a> Local<'a> {
    /// The same arrays with the per-vertex ones cut to the `len` vertices of
    /// the piece held, so that an index already compared with `len` needs no
    /// second bounds check.
    #[inline(always)]
    pub(super) fn of_piece(&self, len: usize) -> Self {
        Local {
            dist: &self.dist[..len],
            dirty: &self.dirty[..len],
            ..*self
        }
    }

    /// The arrays in `words`, laid out as
    /// [`shared_words`]`(capacity, edge_capacity, chain_warps)` counts them;
    /// `None` when `words` is shorter.
    #[inline(always)]
    pub fn from_words(
        words: &'a [AtomicU32],
        capacity: usize,
        edge_capacity: usize,
        chain_warps: usize,
    ) -> Option<Self> {
        let (control, rest) = words.split_at_checked(CONTROL_WORDS)?;
        let (outbox, rest) = rest.split_at_checked(OUTBOX_WORDS)?;
        let (chain, rest) = rest.split_at_checked(chain_warps * CHAIN_QUEUE_WORDS)?;
        let (dist, rest) = rest.split_at_checked(capacity)?;
        let (dirty, rest) = rest.split_at_checked(capacity)?;
        let (frontier, rest) = rest.split_at_checked(capacity)?;
        let edges = if edge_capacity > 0 {
            let (offsets, rest) = rest.split_at_checked(capacity + 1)?;
            let (targets, rest) = rest.split_at_checked(edge_capacity)?;
            let weights = rest.get(..edge_capacity)?;
            Some(PieceEdges {
                offsets,
                targets,
                weights,
            })
        } else {
            None
        };
        Some(Local {
            control,
            dist,
            dirty,
            frontier,
            outbox,
            chain,
            edges,
        })
    }
}

/// Sets vertex `v`'s global and backing distances to [`INFINITY`] (one
/// thread per vertex).
#[inline(always)]
pub fn initialize_vertex(v: usize, global: &Global<'_>) {
    global.dist[v].store(INFINITY, Relaxed);
    global.backing[v].store(INFINITY, Relaxed);
}

/// Clears piece `p`'s notification word, or sets it to 0 for the source's
/// piece, and frees its owner word (one thread per piece); the thread of
/// piece 0 also sets `pending` to the source's token, `rounds` to 0 and
/// `bound` to `bound` (a distance word: the limit, else [`INFINITY`]).
#[inline(always)]
pub fn initialize_piece(p: usize, source_piece: usize, bound: u32, global: &Global<'_>) {
    global.notify[p].store(if p == source_piece { 0 } else { INFINITY }, Relaxed);
    global.owner[p].store(FREE_PIECE, Relaxed);
    if p == 0 {
        global.pending.store(1, Relaxed);
        global.rounds.store(0, Relaxed);
        global.bound.store(bound, Relaxed);
    }
}
