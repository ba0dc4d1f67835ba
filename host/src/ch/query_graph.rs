//! The arcs a bidirectional query reads, in one of two forms behind the one
//! trait [`UpDown`]: the index's own [`Arcs`] (nothing to build: a single
//! query), or a [`QueryGraph`] built once for many queries, which keeps each
//! vertex's up and down arcs side by side in one array, so that settling a
//! vertex (its stall check over the arcs of one kind, then its relaxations
//! over those of the other) reads one row of contiguous memory instead of
//! six arrays.

use rayon::prelude::*;

use super::index::{Arcs, Hierarchy};

/// The weight of an arc's missing direction in a [`QueryGraph`] row (no
/// index weight is this large: [`Hierarchy::validate`]).
const NONE: u32 = u32::MAX;

/// Forward: the search from the source, over up arcs.
pub(crate) const FORWARD: usize = 0;
/// Backward: the search from the target, over down arcs (reversed).
pub(crate) const BACKWARD: usize = 1;

/// The upward arcs of both searches of a point-to-point query, vertices being
/// positions: `dir` [`FORWARD`] reads the up arcs `v → u`, [`BACKWARD`] the
/// down arcs `u → v` as arcs `v → u`; `u` is always higher than `v`.
pub(crate) trait UpDown {
    /// The `(higher end, weight word)` of each arc of `v` in direction `dir`.
    fn arcs(&self, dir: usize, v: u32) -> impl Iterator<Item = (u32, u32)>;

    /// Asks the processor to start loading where the row of `v` starts: a
    /// search has just reached `v` and will likely settle it soon.
    fn prefetch(&self, v: u32);
}

/// Starts loading the cache line of `item` (nothing off x86-64).
#[inline(always)]
fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint that never faults, and `item` is a
    // reference to live memory.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (item as *const T).cast(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

impl UpDown for [&Arcs; 2] {
    #[inline(always)]
    fn arcs(&self, dir: usize, v: u32) -> impl Iterator<Item = (u32, u32)> {
        let arcs = self[dir];
        let range = arcs.range(v as usize);
        arcs.ends[range.clone()]
            .iter()
            .copied()
            .zip(arcs.weights[range].iter().copied())
    }

    #[inline(always)]
    fn prefetch(&self, v: u32) {
        prefetch(&self[0].offsets[v as usize]);
        prefetch(&self[1].offsets[v as usize]);
    }
}

/// A [`UpDown`] built once for many queries (see the module documentation).
pub(crate) enum QueryGraph<'a> {
    /// The index of a graph whose down arcs equal its up arcs.
    Symmetric(SymmetricArcs<'a>),
    /// Any other index.
    Merged(MergedArcs),
}

impl QueryGraph<'_> {
    /// The query graph of `h` (in parallel over the positions).
    pub(crate) fn new(h: &Hierarchy) -> QueryGraph<'_> {
        if h.is_symmetric() {
            QueryGraph::Symmetric(SymmetricArcs::new(&h.up))
        } else {
            QueryGraph::Merged(MergedArcs::new(h))
        }
    }
}

/// The arcs of an index whose up and down arcs are the same: each vertex's
/// `[higher end, weight word]` pairs in one row, read by both searches for
/// their stall checks and relaxations alike.
pub(crate) struct SymmetricArcs<'a> {
    offsets: &'a [u32],
    pairs: Vec<[u32; 2]>,
}

impl SymmetricArcs<'_> {
    fn new(arcs: &Arcs) -> SymmetricArcs<'_> {
        let pairs = arcs
            .ends
            .par_iter()
            .zip(&arcs.weights)
            .map(|(&u, &w)| [u, w])
            .collect();
        SymmetricArcs {
            offsets: &arcs.offsets,
            pairs,
        }
    }
}

impl UpDown for SymmetricArcs<'_> {
    #[inline(always)]
    fn arcs(&self, _dir: usize, v: u32) -> impl Iterator<Item = (u32, u32)> {
        let row =
            &self.pairs[self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize];
        row.iter().map(|&[u, w]| (u, w))
    }

    #[inline(always)]
    fn prefetch(&self, v: u32) {
        prefetch(&self.offsets[v as usize]);
    }
}

/// Each vertex's up and down arcs merged by their higher end: one row of
/// `[higher end, up weight, down weight]` records per position, [`NONE`]
/// for a direction without an arc.
pub(crate) struct MergedArcs {
    offsets: Vec<u32>,
    records: Vec<[u32; 3]>,
}

impl MergedArcs {
    fn new(h: &Hierarchy) -> MergedArcs {
        let n = h.num_vertices();
        let counts: Vec<u32> = (0..n)
            .into_par_iter()
            .map(|v| merge(&h.up, &h.down, v, |_| {}))
            .collect();
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0u32);
        for count in counts {
            offsets.push(offsets[offsets.len() - 1] + count);
        }
        let mut records = vec![[0u32; 3]; offsets[n] as usize];
        let mut rows: Vec<&mut [[u32; 3]]> = Vec::with_capacity(n);
        let mut rest = &mut records[..];
        for w in offsets.windows(2) {
            let (row, tail) = std::mem::take(&mut rest).split_at_mut((w[1] - w[0]) as usize);
            rows.push(row);
            rest = tail;
        }
        rows.into_par_iter().enumerate().for_each(|(v, row)| {
            let mut at = 0;
            merge(&h.up, &h.down, v, |record| {
                row[at] = record;
                at += 1;
            });
        });
        MergedArcs { offsets, records }
    }
}

/// Passes each record of position `v` to `emit` (its up and down arcs, both
/// sorted by their higher end ([`Hierarchy::validate`]), merged); returns
/// how many.
fn merge(up: &Arcs, down: &Arcs, v: usize, mut emit: impl FnMut([u32; 3])) -> u32 {
    let (mut i, mut j) = (up.range(v), down.range(v));
    let (mut a, mut b) = (i.next(), j.next());
    let mut count = 0;
    loop {
        let record = match (a, b) {
            (None, None) => return count,
            (Some(e), Some(f)) if up.ends[e] == down.ends[f] => {
                (a, b) = (i.next(), j.next());
                [up.ends[e], up.weights[e], down.weights[f]]
            }
            (Some(e), Some(f)) if up.ends[e] < down.ends[f] => {
                a = i.next();
                [up.ends[e], up.weights[e], NONE]
            }
            (Some(e), None) => {
                a = i.next();
                [up.ends[e], up.weights[e], NONE]
            }
            (_, Some(f)) => {
                b = j.next();
                [down.ends[f], NONE, down.weights[f]]
            }
        };
        emit(record);
        count += 1;
    }
}

impl UpDown for MergedArcs {
    #[inline(always)]
    fn arcs(&self, dir: usize, v: u32) -> impl Iterator<Item = (u32, u32)> {
        let row =
            &self.records[self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize];
        row.iter().filter_map(move |r| {
            let w = r[1 + dir];
            (w != NONE).then_some((r[0], w))
        })
    }

    #[inline(always)]
    fn prefetch(&self, v: u32) {
        prefetch(&self.offsets[v as usize]);
    }
}
