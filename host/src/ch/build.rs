//! Building a contraction hierarchy: contraction in independent-set rounds,
//! in parallel.
//!
//! Each round:
//! 1. every remaining vertex whose key (priority, then a hash of its id) is
//!    smaller than the keys of all its remaining neighbours is selected; no
//!    two selected vertices are adjacent;
//! 2. each selected `v` is contracted in parallel: for every in-arc `u → v`
//!    and out-arc `v → w`, a shortcut `u → w` through `v` is added unless a
//!    *witness* search (Dijkstra from `u`, bounded in the arcs it scans, that
//!    avoids every vertex selected this round) finds a path no longer. A
//!    bounded search may miss a witness; then a needless shortcut is added,
//!    which costs space, never correctness;
//! 3. the selected vertices leave the graph: their remaining arcs become
//!    their up arcs (out-arcs) and down arcs (in-arcs), shortcuts are merged
//!    into their neighbours' lists (keeping the lighter of parallel arcs),
//!    and the neighbours' priorities are recomputed.
//!
//! The priority is RoutingKit's (see [`Priority`]): the shortcuts a
//! contraction would add over the arcs it would remove, the same ratio of the
//! graph arcs they stand for (hops), and the depth of the hierarchy under the
//! vertex.
//!
//! Weights during the build are [`Metric`] keys: exact integers for `u32`
//! weights, `f64` sums for `f32` weights. A shortcut's `f32` weight is its
//! `f64` sum rounded once, and witnesses are compared in `f64`, so the
//! hierarchy keeps the graph's shortest paths up to `f64` rounding; the
//! rounding of `f32` sums happens only when the index is used (see
//! [`crate::ch`] for the bound).

use std::cell::RefCell;
use std::cmp::Reverse;

use gpu_kernels::distance::{SATURATED, Weight};
use rayon::prelude::*;

use super::core_growth::CoreGrowth;
use super::frontier::{Frontier, Key};
use super::index::{Arcs, Hierarchy, NO_MIDDLE, graph_checksum};
use crate::graph::{Graph, WeightKind};
use crate::{Error, Result, distances};

/// Knobs of [`build`]. The defaults are meant for every graph; none is tuned
/// to a named one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Arcs a witness search scans at most when contracting (a bound in
    /// arcs, not vertices, keeps searches in the dense top of the hierarchy
    /// cheap).
    pub witness_scanned: usize,
    /// Arcs a witness search scans at most when estimating a priority, in a
    /// graph as dense as the input; as the remaining graph's mean degree
    /// grows, up to 6 times this (at most 200 times this over one
    /// priority's searches).
    pub priority_scanned: usize,
    /// The build stops with [`Error::NoHierarchy`] when the remaining
    /// graph's arcs grow while its vertex count, squared, exceeds this many
    /// times the graph's arcs plus vertices (the rule is in `core_growth`);
    /// `usize::MAX` never stops.
    pub max_core_ratio: usize,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            witness_scanned: 3000,
            priority_scanned: 100,
            max_core_ratio: 32,
        }
    }
}

/// The arithmetic of a build over weights of one type: the weight of an arc
/// or a witness path as a key that orders like the value.
trait Metric: Sync {
    /// A weight or distance.
    type Key: Key + Send + Sync + std::fmt::Debug;
    /// The key of weight word `word`.
    fn key(word: u32) -> Self::Key;
    /// The key of the sum of two keys' values.
    fn add(a: Self::Key, b: Self::Key) -> Self::Key;
    /// Whether `key` has a weight word (its value, rounded for `f32`, is at
    /// most the largest exact distance).
    fn fits(key: Self::Key) -> bool;
    /// The weight word of a `key` that [`Metric::fits`].
    fn word(key: Self::Key) -> u32;
    /// Runs `f` on this thread's witness search.
    fn with_frontier<R>(f: impl FnOnce(&mut Frontier<Self::Key>) -> R) -> R;
}

thread_local! {
    /// Each thread's witness search, for each key type.
    static FRONTIER_U32: RefCell<Frontier<u32>> = RefCell::new(Frontier::default());
    static FRONTIER_U64: RefCell<Frontier<u64>> = RefCell::new(Frontier::default());
}

/// `u32` weights: keys are the weight words, sums exact up to
/// [`SATURATED`].
struct Integer;

impl Metric for Integer {
    type Key = u32;

    fn key(word: u32) -> u32 {
        word
    }

    fn add(a: u32, b: u32) -> u32 {
        <u32 as Weight>::extend(a, b)
    }

    fn fits(key: u32) -> bool {
        key < SATURATED
    }

    fn word(key: u32) -> u32 {
        key
    }

    fn with_frontier<R>(f: impl FnOnce(&mut Frontier<u32>) -> R) -> R {
        FRONTIER_U32.with_borrow_mut(f)
    }
}

/// `f32` weights: keys are the bits of `f64` sums (non-negative `f64`s order
/// like their bits).
struct Real;

impl Metric for Real {
    type Key = u64;

    fn key(word: u32) -> u64 {
        (f32::from_bits(word) as f64).to_bits()
    }

    fn add(a: u64, b: u64) -> u64 {
        (f64::from_bits(a) + f64::from_bits(b)).to_bits()
    }

    fn fits(key: u64) -> bool {
        Real::word(key) <= <f32 as Weight>::MAX_DISTANCE
    }

    fn word(key: u64) -> u32 {
        // Rounded to nearest; beyond `f32::MAX`, `+inf`, which does not fit.
        (f64::from_bits(key) as f32).to_bits()
    }

    fn with_frontier<R>(f: impl FnOnce(&mut Frontier<u64>) -> R) -> R {
        FRONTIER_U64.with_borrow_mut(f)
    }
}

/// An arc of the remaining graph, in graph ids, its weight a [`Metric`] key.
#[derive(Clone, Copy, Debug)]
struct Arc<K> {
    other: u32,
    weight: K,
    middle: u32,
    /// The graph arcs the arc stands for (1 for a graph arc).
    hops: u32,
}

const REMAINING: u8 = 0;
const SELECTED: u8 = 1;
const CONTRACTED: u8 = 2;

/// A shortcut `tail → head` through `middle`.
#[derive(Clone, Copy, Debug)]
struct Shortcut<K> {
    tail: u32,
    head: u32,
    weight: K,
    middle: u32,
    hops: u32,
}

/// The graph during contraction: out- and in-arcs of every vertex. A
/// contracted vertex's lists are frozen: its up and down arcs.
struct Remaining<M: Metric> {
    out: Vec<Vec<Arc<M::Key>>>,
    inn: Vec<Vec<Arc<M::Key>>>,
    state: Vec<u8>,
    /// Whether every arc has a reverse arc of the same weight (road networks
    /// read as undirected): then every vertex's in-list mirrors its out-list
    /// throughout, and the index stores its arcs once.
    symmetric: bool,
}

impl<M: Metric> Remaining<M> {
    fn from_graph(graph: &Graph) -> Self {
        let n = graph.num_vertices();
        let csr = graph.csr();
        let mut out: Vec<Vec<Arc<M::Key>>> = (0..n)
            .into_par_iter()
            .map(|u| {
                let mut arcs: Vec<Arc<M::Key>> = csr
                    .edges(u)
                    .filter(|&(v, _)| v != u)
                    .map(|(v, w)| Arc {
                        other: v as u32,
                        weight: M::key(w),
                        middle: NO_MIDDLE,
                        hops: 1,
                    })
                    .collect();
                keep_lightest(&mut arcs);
                arcs
            })
            .collect();
        let mut inn: Vec<Vec<Arc<M::Key>>> = vec![Vec::new(); n];
        for (u, arcs) in out.iter().enumerate() {
            for a in arcs {
                inn[a.other as usize].push(Arc {
                    other: u as u32,
                    ..*a
                });
            }
        }
        out.shrink_to_fit();
        let symmetric = (0..n).into_par_iter().all(|v| {
            out[v].len() == inn[v].len()
                && out[v]
                    .iter()
                    .zip(&inn[v])
                    .all(|(a, b)| (a.other, a.weight) == (b.other, b.weight))
        });
        Remaining {
            out,
            inn,
            symmetric,
            state: vec![REMAINING; n],
        }
    }

    fn degree(&self, v: usize) -> usize {
        self.out[v].len() + self.inn[v].len()
    }

    /// Distances from `source` in the remaining graph without `avoid` and the
    /// vertices selected this round, settling no vertex beyond `bound` and
    /// none once `limit` arcs are scanned; left in `frontier`.
    fn witness_search(
        &self,
        frontier: &mut Frontier<M::Key>,
        source: u32,
        avoid: u32,
        bound: M::Key,
        limit: usize,
    ) {
        frontier.start(self.out.len(), source);
        let mut scanned = 0;
        while let Some((d, u)) = frontier.pop() {
            if d > bound || scanned >= limit {
                break;
            }
            // A vertex's arcs are scanned whole, but no more than
            // `OVERSHOOT` past the limit: a hub of a social or Kronecker
            // graph (tens of thousands of arcs) would otherwise cost each
            // search that reaches it all of them. A search cut short finds
            // fewer witnesses, so contraction adds more shortcuts, never a
            // wrong one.
            let arcs = &self.out[u as usize];
            let take = arcs.len().min(limit + OVERSHOOT - scanned);
            scanned += take;
            for a in &arcs[..take] {
                if a.other != avoid && self.state[a.other as usize] == REMAINING {
                    frontier.relax(a.other, M::add(d, a.weight));
                }
            }
        }
    }

    /// The shortcuts that contracting `v` needs (`emit` gets each), or the
    /// overflow of a shortcut's weight.
    fn shortcuts(
        &self,
        v: usize,
        limit: usize,
        mut emit: impl FnMut(Shortcut<M::Key>),
    ) -> Result<(), ()> {
        let outs = &self.out[v];
        // A symmetric graph stays symmetric: each pair `u < w` is searched
        // once, from `u`, and its shortcut added in both directions.
        let wanted = |a: &Arc<M::Key>, b: &Arc<M::Key>| {
            b.other != a.other && (!self.symmetric || a.other < b.other)
        };
        M::with_frontier(|frontier| {
            for a in &self.inn[v] {
                let mut bound = None;
                for b in outs.iter().filter(|b| wanted(a, b)) {
                    let via = M::add(a.weight, b.weight);
                    if !M::fits(via) {
                        return Err(());
                    }
                    bound = bound.max(Some(via));
                }
                let Some(bound) = bound else {
                    continue;
                };
                self.witness_search(frontier, a.other, v as u32, bound, limit);
                for b in outs.iter().filter(|b| wanted(a, b)) {
                    let via = M::add(a.weight, b.weight);
                    if frontier.dist(b.other) > via {
                        let shortcut = Shortcut {
                            tail: a.other,
                            head: b.other,
                            weight: via,
                            middle: v as u32,
                            hops: a.hops.saturating_add(b.hops),
                        };
                        emit(shortcut);
                        if self.symmetric {
                            emit(Shortcut {
                                tail: b.other,
                                head: a.other,
                                ..shortcut
                            });
                        }
                    }
                }
            }
            Ok(())
        })
    }

    /// The priority of `v` (see [`Priority`]), its witness searches bounded
    /// by `scanned` arcs times `density`, but all of them together by
    /// [`PRIORITY_SEARCHES`] times `scanned`, and none below `scanned`.
    fn priority(&self, v: usize, scanned: usize, density: usize, depth: u32) -> Priority {
        let (outs, inns) = (&self.out[v], &self.inn[v]);
        let limit = scanned
            .saturating_mul(density)
            .min(scanned.saturating_mul(PRIORITY_SEARCHES) / inns.len().max(1))
            .max(scanned);
        let hops = |arcs: &[Arc<M::Key>]| {
            arcs.iter()
                .fold(0u64, |sum, a| sum.saturating_add(a.hops as u64))
        };
        let (out_hops, in_hops) = (hops(outs), hops(inns));
        let pairs = outs.len() * inns.len();
        // Too dense to simulate cheaply, or a shortcut's weight overflows:
        // assume every pair needs one.
        let every_pair = || {
            let added_hops = (inns.len() as u64)
                .saturating_mul(out_hops)
                .saturating_add((outs.len() as u64).saturating_mul(in_hops));
            (pairs as u64, added_hops)
        };
        let (added, added_hops) = if pairs > 10_000 {
            every_pair()
        } else {
            let (mut added, mut added_hops) = (0u64, 0u64);
            let counted = self.shortcuts(v, limit, |s| {
                added += 1;
                added_hops = added_hops.saturating_add(s.hops as u64);
            });
            if counted.is_err() {
                every_pair()
            } else {
                (added, added_hops)
            }
        };
        let removed = 1 + self.degree(v) as u64;
        let removed_hops = 1 + out_hops.saturating_add(in_hops) as u128;
        let key = 1
            + 1000 * depth as u128
            + 1000 * added as u128 / removed as u128
            + 1000 * added_hops as u128 / removed_hops;
        Priority {
            key: key.min(i64::MAX as u128) as i64,
            edge_difference: added as i64 - self.degree(v) as i64,
        }
    }
}

/// A vertex's priority, RoutingKit's: `1 + 1000 · depth + 1000 · added /
/// removed + 1000 · added hops / removed hops`, where `added` counts the
/// shortcuts its contraction would add, `removed` its arcs plus one, and the
/// hops are the graph arcs those shortcuts and arcs stand for (plus one for
/// the removed). The hop terms hold back vertices whose shortcuts would stand
/// for long paths, so that the order spreads evenly; against the edge
/// difference it shrank the roads' query search spaces by a quarter to a
/// third (docs/PERFORMANCE.md, 2026-11-29).
#[derive(Clone, Copy, Debug)]
struct Priority {
    key: i64,
    /// Shortcuts added minus arcs removed, estimated.
    edge_difference: i64,
}

/// Sorts arcs by their other endpoint and keeps the lightest of parallel
/// ones; of two equally light arcs, the one through the smaller middle (an
/// arc of the graph, [`NO_MIDDLE`], last), so that the result does not depend
/// on the order of the arcs (a symmetric graph's out- and in-lists get the
/// same shortcuts in different orders).
fn keep_lightest<K: Key>(arcs: &mut Vec<Arc<K>>) {
    arcs.sort_unstable_by_key(|a| (a.other, a.weight, a.middle));
    arcs.dedup_by_key(|a| a.other);
}

/// Arcs past its limit that a witness search scans at most (the rest of the
/// last vertex's arcs): a vertex of up to this many arcs is always scanned
/// whole.
const OVERSHOOT: usize = 64;

/// The most that a priority's witness searches' bound is multiplied by as the
/// remaining graph grows denser (its mean degree over the graph's).
const PRIORITY_DENSITY_MAX: usize = 6;

/// A priority's witness searches together scan at most this many times
/// [`BuildOptions::priority_scanned`] arcs (when the density asks for more).
const PRIORITY_SEARCHES: usize = 200;

/// A hash of a vertex id, the tie-break between equal priorities.
fn mix(v: u32) -> u64 {
    let mut x = v as u64 ^ 0x9e37_79b9_7f4a_7c15;
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Builds the contraction hierarchy of `graph` (see the module
/// documentation). Errors: [`Error::NoHierarchy`] when contraction goes
/// beyond [`BuildOptions`]' bounds, and [`Error::DistanceOverflow`] when a
/// shortcut's weight does not fit a distance word.
pub fn build(graph: &Graph, options: &BuildOptions) -> Result<Hierarchy> {
    match graph.weight_kind() {
        WeightKind::U32 => build_with::<Integer>(graph, options),
        WeightKind::F32 => build_with::<Real>(graph, options),
    }
}

/// The per-vertex state of contraction besides the remaining graph.
struct Progress {
    priority: Vec<Priority>,
    depth: Vec<u32>,
    level: Vec<u32>,
}

fn no_hierarchy(graph: &Graph, round: u32, contracted: usize, why: String) -> Error {
    let n = graph.num_vertices();
    Error::NoHierarchy(format!(
        "after {round} rounds ({contracted} of {n} vertices contracted) {why}: the graph has no \
         small separators (social, web, Kronecker and dense random graphs are like this); solve \
         it without an index"
    ))
}

fn build_with<M: Metric>(graph: &Graph, options: &BuildOptions) -> Result<Hierarchy> {
    let n = graph.num_vertices();
    let mut g = Remaining::<M>::from_graph(graph);
    let size = (graph.num_edges() + n) as u64;
    let initial_arcs: usize = g.out.par_iter().map(Vec::len).sum();
    let mut core = CoreGrowth::new(initial_arcs as u64, size, options.max_core_ratio);
    let mut p = Progress {
        priority: (0..n)
            .into_par_iter()
            .map(|v| g.priority(v, options.priority_scanned, 1, 0))
            .collect(),
        depth: vec![0u32; n],
        level: vec![0u32; n],
    };
    let mut remaining: Vec<u32> = (0..n as u32).collect();
    let mut round = 0u32;
    let mut affected = vec![false; n];
    while !remaining.is_empty() {
        let key = |v: u32| (p.priority[v as usize].key, mix(v));
        let selected: Vec<u32> = remaining
            .par_iter()
            .copied()
            .filter(|&v| {
                let k = key(v);
                let vi = v as usize;
                g.out[vi].iter().chain(&g.inn[vi]).all(|a| k < key(a.other))
            })
            .collect();
        if round == 0 {
            // The first round is the most expensive one on a dense graph;
            // later rounds' estimates come from short searches in a denser
            // graph and overestimate too much to be trusted.
            let change: i64 = selected
                .iter()
                .map(|&v| p.priority[v as usize].edge_difference)
                .sum();
            if let Some(why) = core.predict(n - selected.len(), change) {
                return Err(no_hierarchy(graph, round, 0, why));
            }
        }
        let shortcuts = contract::<M>(&mut g, graph, &selected, options)?;
        // The neighbours of the contracted vertices, each once: the only
        // vertices whose lists and priorities change.
        let mut touched = Vec::new();
        let mut removed = 0u64;
        for &v in &selected {
            let vi = v as usize;
            g.state[vi] = CONTRACTED;
            p.level[vi] = round;
            removed += g.out[vi].len() as u64;
            for a in g.out[vi].iter().chain(&g.inn[vi]) {
                let x = a.other as usize;
                p.depth[x] = p.depth[x].max(p.depth[vi] + 1);
                if !affected[x] {
                    affected[x] = true;
                    touched.push(a.other);
                }
            }
        }
        let before: usize = touched.iter().map(|&v| g.out[v as usize].len()).sum();
        apply_shortcuts(&mut g, &touched, &shortcuts);
        let after: usize = touched.iter().map(|&v| g.out[v as usize].len()).sum();
        remaining.retain(|&v| g.state[v as usize] == REMAINING);
        let arcs = core.arcs() + after as u64 - before as u64 - removed;
        if let Some(why) = core.record(remaining.len(), arcs) {
            return Err(no_hierarchy(graph, round + 1, n - remaining.len(), why));
        }
        // The remaining graph grows denser as it shrinks; a priority's witness
        // searches scan more arcs in proportion, so that they reach as many
        // vertices at the top as at the bottom (a bound of arcs that suffices
        // among a road's vertices of degree three finds few witnesses among
        // the top's of degree thirty). The remaining vertices are then few;
        // but a social graph's dense core is not, and its vertices of dozens
        // of arcs run one search per arc, hence the bound on their total.
        let density = (arcs as u128 * n as u128)
            .checked_div(remaining.len() as u128 * initial_arcs as u128)
            .unwrap_or(1)
            .clamp(1, PRIORITY_DENSITY_MAX as u128) as usize;
        let changed: Vec<(u32, Priority)> = touched
            .par_iter()
            .map(|&v| {
                let vi = v as usize;
                (
                    v,
                    g.priority(vi, options.priority_scanned, density, p.depth[vi]),
                )
            })
            .collect();
        for (v, q) in changed {
            p.priority[v as usize] = q;
            affected[v as usize] = false;
        }
        round += 1;
    }
    Ok(assemble::<M>(graph, g, &p.level, round))
}

/// Marks `selected` and finds the shortcuts their contraction needs, in
/// parallel; [`Error::DistanceOverflow`] when one does not fit a word.
fn contract<M: Metric>(
    g: &mut Remaining<M>,
    graph: &Graph,
    selected: &[u32],
    options: &BuildOptions,
) -> Result<Vec<Shortcut<M::Key>>> {
    for &v in selected {
        g.state[v as usize] = SELECTED;
    }
    let g = &*g;
    let per_vertex: Vec<Vec<Shortcut<M::Key>>> = selected
        .par_iter()
        .map(|&v| {
            let mut found = Vec::new();
            g.shortcuts(v as usize, options.witness_scanned, |s| found.push(s))
                .map(|()| found)
                .map_err(|()| v)
        })
        .collect::<Result<_, u32>>()
        .map_err(|v| distances::overflow(graph.weight_kind(), v as usize, 1))?;
    Ok(per_vertex.into_iter().flatten().collect())
}

/// Removes the contracted vertices from their neighbours' (`touched`)
/// lists and merges the shortcuts in, in parallel over those lists.
fn apply_shortcuts<M: Metric>(
    g: &mut Remaining<M>,
    touched: &[u32],
    shortcuts: &[Shortcut<M::Key>],
) {
    let mut by_tail = shortcuts.to_vec();
    by_tail.par_sort_unstable_by_key(|s| s.tail);
    let mut by_head = shortcuts.to_vec();
    by_head.par_sort_unstable_by_key(|s| s.head);
    let Remaining {
        out, inn, state, ..
    } = g;
    let state = &*state;
    let update =
        |lists: &mut Vec<Vec<Arc<M::Key>>>, sorted: &[Shortcut<M::Key>], outgoing: bool| {
            let mut taken: Vec<(u32, Vec<Arc<M::Key>>)> = touched
                .iter()
                .map(|&v| (v, std::mem::take(&mut lists[v as usize])))
                .collect();
            taken.par_iter_mut().for_each(|(v, arcs)| {
                arcs.retain(|a| state[a.other as usize] == REMAINING);
                let key = |s: &Shortcut<M::Key>| if outgoing { s.tail } else { s.head };
                let start = sorted.partition_point(|s| key(s) < *v);
                let end = sorted.partition_point(|s| key(s) <= *v);
                let added = &sorted[start..end];
                if added.is_empty() {
                    return;
                }
                arcs.extend(added.iter().map(|s| Arc {
                    other: if outgoing { s.head } else { s.tail },
                    weight: s.weight,
                    middle: s.middle,
                    hops: s.hops,
                }));
                keep_lightest(arcs);
            });
            for (v, arcs) in taken {
                lists[v as usize] = arcs;
            }
        };
    update(out, &by_tail, true);
    update(inn, &by_head, false);
}

/// The index: positions by level (the last round first), arcs renumbered,
/// weights as words.
fn assemble<M: Metric>(graph: &Graph, g: Remaining<M>, level: &[u32], rounds: u32) -> Hierarchy {
    let n = level.len();
    let mut vertex: Vec<u32> = (0..n as u32).collect();
    // The top level first; within a level, graph order (files often have
    // locality that the sweep then keeps).
    vertex.sort_by_key(|&v| (Reverse(level[v as usize]), v));
    let mut position = vec![0u32; n];
    for (p, &v) in vertex.iter().enumerate() {
        position[v as usize] = p as u32;
    }
    let mut level_starts: Vec<u32> = Vec::with_capacity(rounds as usize + 1);
    for (p, &v) in vertex.iter().enumerate() {
        if p == 0 || level[v as usize] != level[vertex[p - 1] as usize] {
            level_starts.push(p as u32);
        }
    }
    level_starts.push(n as u32);
    if n == 0 {
        level_starts = vec![0];
    }
    let arcs = |lists: &[Vec<Arc<M::Key>>]| {
        let rows: Vec<Vec<(u32, u32, u32)>> = vertex
            .par_iter()
            .map(|&v| {
                let mut row: Vec<(u32, u32, u32)> = lists[v as usize]
                    .iter()
                    .map(|a| {
                        let middle = if a.middle == NO_MIDDLE {
                            NO_MIDDLE
                        } else {
                            position[a.middle as usize]
                        };
                        (position[a.other as usize], M::word(a.weight), middle)
                    })
                    .collect();
                row.sort_unstable();
                row
            })
            .collect();
        Arcs::from_rows(rows)
    };
    Hierarchy {
        weight_kind: graph.weight_kind(),
        graph_checksum: graph_checksum(graph),
        up: arcs(&g.out),
        down: arcs(&g.inn),
        position,
        vertex,
        level_starts,
    }
}
