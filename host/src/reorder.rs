//! Vertex orders for locality: relabel a graph's vertices so that vertices
//! that are adjacent get nearby ids, solve on the relabelled graph and map the
//! distances back to the original ids.
//!
//! Used by: the partition solver ([`crate::partition`]), whose pieces become
//! contiguous id ranges through a [`Permutation`]. The orders below are not
//! used by a solver yet (docs/PERFORMANCE.md, "CPU-side: reordering", has
//! their cost and locality; no solve has been timed on a reordered graph);
//! `host/examples/reorder.rs` times them.
//!
//! Why: every relaxation reads or writes the distance (and flags) of the edge's
//! other end. In a graph whose ids carry no locality (the papers' random graphs,
//! or a road network in file order) those accesses are scattered over the whole
//! array, one 32-byte sector per 4-byte value, so the solvers run at the
//! random-access floor of the memory system. An order in which the
//! successors of a frontier lie close together, and close to the frontier
//! itself, lets neighboring threads share sectors and cache lines.
//!
//! The orders here, all deterministic (the same graph gives the same
//! permutation on any machine and thread count):
//!
//! - [`identity`]: no change (the baseline).
//! - [`bfs`]: breadth-first order from a root over the *undirected* view
//!   (successors and predecessors). Each BFS level gets a contiguous id range
//!   and a vertex's neighbors lie in its own or the adjacent levels. Rooted at
//!   the SSSP source, the level sets approximate the solvers' successive
//!   frontiers, so a frontier is (nearly) a contiguous range of ids.
//! - [`rcm`]: reverse Cuthill–McKee, the classic bandwidth-reducing order: a BFS
//!   from a pseudo-peripheral vertex that visits each vertex's new neighbors by
//!   increasing degree, reversed. Small bandwidth means every edge `(u, v)` has
//!   `|u − v|` small, whatever the source.
//! - [`degree_sorted`]: by decreasing out-degree. It brings no adjacency
//!   locality; it groups vertices of similar degree, so the threads of a warp
//!   (one vertex each) do similar amounts of work, and puts the longest lists
//!   together at the front.
//!
//! [`mean_edge_span`] and [`bandwidth`] measure the result: the mean and the
//! largest `|u − v|` over all edges. What an order can achieve depends on the
//! graph: a grid or a road network has a small bandwidth in a good order (about
//! its width for a grid), while the papers' random graphs are expanders, whose
//! every order leaves a mean span of the order of `n` (BFS and RCM shorten it
//! by about 10% only; see `docs/PERFORMANCE.md`).
//!
//! Use:
//!
//! ```
//! use sssp::{Graph, oracle, reorder};
//! let graph = Graph::from_edges(3, &[(0, 2, 1), (2, 1, 4)]).unwrap();
//! let order = reorder::rcm(&graph);
//! let relabelled = order.apply(&graph);
//! let source = 0;
//! let dist = oracle::dijkstra(&relabelled, order.new_id(source)).unwrap();
//! assert_eq!(order.map_distances_back(&dist), oracle::dijkstra(&graph, source).unwrap());
//! ```

use std::fmt;
use std::ops::Range;
use std::str::FromStr;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use crate::graph::{Graph, split_by_edges};
use crate::{Error, Result};

/// Below this many edges the parallel passes run on one thread.
const PARALLEL_EDGES: usize = 1 << 16;

/// Rounds of the pseudo-peripheral vertex search of [`rcm`] at most (George and
/// Liu's algorithm usually stops after two or three).
const PERIPHERAL_ROUNDS: usize = 8;

/// Threads for the parallel passes: all cores (at most 16), one for small graphs.
fn threads_for(num_edges: usize) -> usize {
    if num_edges < PARALLEL_EDGES {
        return 1;
    }
    std::thread::available_parallelism().map_or(1, |t| t.get().min(16))
}

/// Asks the CPU to bring `value` into the caches (a hint; nothing on other
/// architectures than x86-64).
#[inline(always)]
fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it reads nothing architecturally and
    // cannot fault, and `value` is a valid reference anyway.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// A relabelling of the vertices `0..n`: a bijection between old (original) ids
/// and new ids, stored both ways.
#[derive(Clone, PartialEq, Eq)]
pub struct Permutation {
    /// `new_of_old[old]` is the new id of vertex `old`.
    new_of_old: Vec<u32>,
    /// `old_of_new[new]` is the original id of vertex `new`.
    old_of_new: Vec<u32>,
}

impl fmt::Debug for Permutation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 16;
        let n = self.len();
        write!(f, "Permutation(old_of_new = ")?;
        let mut list = f.debug_list();
        list.entries(&self.old_of_new[..n.min(SHOWN)]);
        if n > SHOWN {
            list.entry(&format_args!("… ({n} vertices)"));
        }
        list.finish()?;
        write!(f, ")")
    }
}

/// The inverse of `map`, or why `map` is not a permutation of `0..map.len()`
/// (the first bad index, as one pass in order would find it). On all
/// threads: a partitioned graph of tens of millions of vertices is inverted
/// each time it is prepared.
fn invert(map: &[u32], what: &str) -> Result<Vec<u32>> {
    let n = map.len();
    if n > u32::MAX as usize {
        return Err(Error::InvalidArgument(format!(
            "a permutation of {n} vertices does not fit 32-bit vertex ids"
        )));
    }
    // `u32::MAX` is no valid id (n <= u32::MAX), so it marks unset entries;
    // each value in range keeps the first index where it occurs.
    let inverse: Vec<AtomicU32> = (0..n)
        .into_par_iter()
        .map(|_| AtomicU32::new(u32::MAX))
        .collect();
    map.par_iter().enumerate().for_each(|(i, &x)| {
        if let Some(slot) = inverse.get(x as usize) {
            slot.fetch_min(i as u32, Relaxed);
        }
    });
    let bad = map.par_iter().enumerate().position_first(|(i, &x)| {
        inverse
            .get(x as usize)
            .is_none_or(|slot| slot.load(Relaxed) != i as u32)
    });
    if let Some(i) = bad {
        let x = map[i];
        let reason = match inverse.get(x as usize) {
            None => format!("out of range for {n} vertices"),
            Some(first) => format!("{x} already occurs at index {}", first.load(Relaxed)),
        };
        return Err(Error::InvalidArgument(format!(
            "not a permutation: {what}[{i}] = {x}: {reason}"
        )));
    }
    Ok(inverse.into_par_iter().map(AtomicU32::into_inner).collect())
}

impl Permutation {
    /// The identity on `n` vertices.
    ///
    /// # Panics
    /// If `n > u32::MAX` (vertex ids are `u32`).
    pub fn identity(n: usize) -> Permutation {
        assert!(n <= u32::MAX as usize, "{n} vertices do not fit u32 ids");
        let ids: Vec<u32> = (0..n as u32).collect();
        Permutation {
            new_of_old: ids.clone(),
            old_of_new: ids,
        }
    }

    /// The permutation that lists the original ids in their new order:
    /// `old_of_new[new]` is the vertex that gets id `new`. An error
    /// ([`Error::InvalidArgument`]) unless it is a bijection of `0..n`.
    pub fn from_old_of_new(old_of_new: Vec<u32>) -> Result<Permutation> {
        let new_of_old = invert(&old_of_new, "old_of_new")?;
        Ok(Permutation {
            new_of_old,
            old_of_new,
        })
    }

    /// The permutation that gives each original vertex `old` the id
    /// `new_of_old[old]`. An error ([`Error::InvalidArgument`]) unless it is a
    /// bijection of `0..n`.
    pub fn from_new_of_old(new_of_old: Vec<u32>) -> Result<Permutation> {
        let old_of_new = invert(&new_of_old, "new_of_old")?;
        Ok(Permutation {
            new_of_old,
            old_of_new,
        })
    }

    /// From an order known to be a bijection (built by this module).
    fn from_order(old_of_new: Vec<u32>) -> Permutation {
        let mut new_of_old = vec![0u32; old_of_new.len()];
        for (new, &old) in old_of_new.iter().enumerate() {
            new_of_old[old as usize] = new as u32;
        }
        debug_assert!(invert(&old_of_new, "old_of_new").is_ok());
        Permutation {
            new_of_old,
            old_of_new,
        }
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.new_of_old.len()
    }

    /// Whether it permutes no vertices.
    pub fn is_empty(&self) -> bool {
        self.new_of_old.is_empty()
    }

    /// Whether every vertex keeps its id.
    pub fn is_identity(&self) -> bool {
        self.new_of_old
            .iter()
            .enumerate()
            .all(|(old, &new)| old == new as usize)
    }

    /// The new id of the original vertex `old`.
    ///
    /// # Panics
    /// If `old` is out of range.
    pub fn new_id(&self, old: usize) -> usize {
        self.new_of_old[old] as usize
    }

    /// The original id of the vertex that has id `new` after relabelling.
    ///
    /// # Panics
    /// If `new` is out of range.
    pub fn old_id(&self, new: usize) -> usize {
        self.old_of_new[new] as usize
    }

    /// The new id of every original vertex.
    pub fn new_of_old(&self) -> &[u32] {
        &self.new_of_old
    }

    /// The original id of every new vertex (the order itself).
    pub fn old_of_new(&self) -> &[u32] {
        &self.old_of_new
    }

    /// The permutation that undoes this one.
    pub fn inverse(&self) -> Permutation {
        Permutation {
            new_of_old: self.old_of_new.clone(),
            old_of_new: self.new_of_old.clone(),
        }
    }

    /// The graph with every vertex relabelled: vertex `new_id(u)` gets the edges
    /// of `u`, in their order, each `(u, v, w)` becoming `(new_id(u),
    /// new_id(v), w)`. Runs on all cores; the result does not depend on their
    /// number.
    ///
    /// # Panics
    /// If the graph does not have [`len`](Self::len) vertices.
    pub fn apply(&self, graph: &Graph) -> Graph<'static> {
        let n = graph.num_vertices();
        assert_eq!(
            self.len(),
            n,
            "a permutation of {} vertices applied to a graph of {n}",
            self.len()
        );
        let (old_offsets, old_targets, old_weights) =
            (graph.offsets(), graph.targets(), graph.weights());
        // The degrees in the new order on all threads (random reads), then
        // their sums in one pass.
        let degrees: Vec<u32> = self
            .old_of_new
            .par_iter()
            .map(|&old| old_offsets[old as usize + 1] - old_offsets[old as usize])
            .collect();
        let mut offsets = vec![0u32; n + 1];
        let mut total = 0u32;
        for (new, degree) in degrees.into_iter().enumerate() {
            total += degree;
            offsets[new + 1] = total;
        }
        let m = graph.num_edges();
        let mut targets = vec![0u32; m];
        let mut weights = vec![0u32; m];
        let old_list =
            |old: u32| old_offsets[old as usize] as usize..old_offsets[old as usize + 1] as usize;
        let fill = |vertices: std::ops::Range<usize>, t: &mut [u32], w: &mut [u32]| {
            // The reads are random unless the graph already has locality:
            // prefetch the offsets, the lists and the new ids of the heads of
            // the vertices a few steps ahead.
            const AHEAD: usize = 8;
            let order = &self.old_of_new[..vertices.end];
            let mut k = 0;
            for new in vertices {
                if let Some(&ahead) = order.get(new + 2 * AHEAD) {
                    prefetch(&old_offsets[ahead as usize]);
                }
                if let Some(&ahead) = order.get(new + AHEAD) {
                    let list = old_list(ahead);
                    if let (Some(t), Some(w)) =
                        (old_targets.get(list.start), old_weights.get(list.start))
                    {
                        prefetch(t);
                        prefetch(w);
                    }
                }
                if let Some(&ahead) = order.get(new + AHEAD / 2) {
                    for &v in &old_targets[old_list(ahead)] {
                        prefetch(&self.new_of_old[v as usize]);
                    }
                }
                let list = old_list(order[new]);
                for (&v, &weight) in old_targets[list.clone()].iter().zip(&old_weights[list]) {
                    t[k] = self.new_of_old[v as usize];
                    w[k] = weight;
                    k += 1;
                }
            }
            debug_assert_eq!(k, t.len());
        };
        let threads = threads_for(m);
        if threads == 1 {
            fill(0..n, &mut targets, &mut weights);
        } else {
            std::thread::scope(|scope| {
                let (mut t_rest, mut w_rest) = (&mut targets[..], &mut weights[..]);
                for vertices in split_by_edges(&offsets, threads) {
                    let len = (offsets[vertices.end] - offsets[vertices.start]) as usize;
                    let (t, t_next) = std::mem::take(&mut t_rest).split_at_mut(len);
                    let (w, w_next) = std::mem::take(&mut w_rest).split_at_mut(len);
                    (t_rest, w_rest) = (t_next, w_next);
                    let fill = &fill;
                    scope.spawn(move || fill(vertices, t, w));
                }
            });
        }
        Graph::new(offsets, targets, weights)
            .and_then(|g| g.with_weight_kind(graph.weight_kind()))
            .expect("a relabelled CSR of valid weights is a valid graph")
    }

    /// Values indexed by new ids (the distances of a solve on the relabelled
    /// graph) re-indexed by original ids: `result[old] = values[new_id(old)]`.
    ///
    /// # Panics
    /// If `values` does not have [`len`](Self::len) entries.
    pub fn map_back<T: Copy + Send + Sync>(&self, values: &[T]) -> Vec<T> {
        assert_eq!(
            values.len(),
            self.len(),
            "{} values for a permutation of {} vertices",
            values.len(),
            self.len()
        );
        // A gather of random reads: on all cores where it is long enough to
        // repay the threads (a solve's distances, millions of vertices).
        if self.new_of_old.len() >= PARALLEL_GATHER {
            self.new_of_old
                .par_iter()
                .map(|&new| values[new as usize])
                .collect()
        } else {
            self.new_of_old
                .iter()
                .map(|&new| values[new as usize])
                .collect()
        }
    }

    /// Values indexed by original ids re-indexed by new ids:
    /// `result[new] = values[old_id(new)]` (the inverse of [`map_back`](Self::map_back)).
    ///
    /// # Panics
    /// If `values` does not have [`len`](Self::len) entries.
    pub fn map_forward<T: Copy + Send + Sync>(&self, values: &[T]) -> Vec<T> {
        self.inverse().map_back(values)
    }

    /// Distances computed on the relabelled graph, indexed by original ids:
    /// `result[old] = dist_new[new_id(old)]`.
    ///
    /// # Panics
    /// If `dist_new` does not have [`len`](Self::len) entries.
    pub fn map_distances_back(&self, dist_new: &[u32]) -> Vec<u32> {
        self.map_back(dist_new)
    }
}

/// Entries from which [`Permutation::map_back`] gathers on all cores.
const PARALLEL_GATHER: usize = 1 << 16;

/// The undirected view of a graph: for each vertex, the distinct vertices
/// adjacent to it in either direction, self excluded, in increasing id order.
struct Undirected {
    /// `n + 1` offsets (`usize`: the view can have up to `2m` entries).
    offsets: Vec<usize>,
    neighbors: Vec<u32>,
}

impl Undirected {
    fn new(graph: &Graph) -> Undirected {
        let n = graph.num_vertices();
        let transposed = graph.transpose();
        let (pred_offsets, preds) = (transposed.offsets(), transposed.targets());
        let threads = threads_for(graph.num_edges());
        let ranges = split_by_edges(graph.offsets(), threads);
        let mut degree = vec![0u32; n];
        // Each part lists its vertices' neighbors into its own vector...
        let mut parts: Vec<Vec<u32>> = Vec::with_capacity(ranges.len());
        std::thread::scope(|scope| {
            let mut degree_rest = &mut degree[..];
            let mut handles = Vec::new();
            for vertices in ranges {
                let (d, next) = std::mem::take(&mut degree_rest).split_at_mut(vertices.len());
                degree_rest = next;
                let (pred_offsets, preds) = (&pred_offsets, &preds);
                handles.push(scope.spawn(move || {
                    let csr = graph.csr();
                    // At most every out- and in-edge of the part's vertices.
                    let count = |offsets: &[u32]| {
                        (offsets[vertices.end] - offsets[vertices.start]) as usize
                    };
                    let bound = count(csr.offsets) + count(pred_offsets);
                    let mut out = Vec::with_capacity(bound);
                    let mut scratch = Vec::new();
                    for (u, d) in vertices.zip(d) {
                        let before = out.len();
                        let succ =
                            &csr.targets[csr.offsets[u] as usize..csr.offsets[u + 1] as usize];
                        let pred = &preds[pred_offsets[u] as usize..pred_offsets[u + 1] as usize];
                        merge_neighbors(u as u32, succ, pred, &mut scratch, &mut out);
                        *d = (out.len() - before) as u32;
                    }
                    out
                }));
            }
            parts.extend(handles.into_iter().map(|h| h.join().expect("no panic")));
        });
        drop(transposed);
        // ...then they are concatenated.
        let mut neighbors = Vec::with_capacity(parts.iter().map(Vec::len).sum());
        for part in parts {
            neighbors.extend_from_slice(&part);
        }
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0usize);
        let mut total = 0usize;
        for &d in &degree {
            total += d as usize;
            offsets.push(total);
        }
        Undirected { offsets, neighbors }
    }

    fn num_vertices(&self) -> usize {
        self.offsets.len() - 1
    }

    fn neighbors(&self, u: usize) -> &[u32] {
        &self.neighbors[self.offsets[u]..self.offsets[u + 1]]
    }

    fn degree(&self, u: usize) -> usize {
        self.offsets[u + 1] - self.offsets[u]
    }

    /// For a breadth-first search about to process `queue[head]`: prefetches
    /// the offsets of the vertex `2·AHEAD` places further in the queue and the
    /// neighbor list of the one `AHEAD` places further (whose offsets came in
    /// `AHEAD` steps ago). On a graph without locality each visit costs a few
    /// cache misses; this overlaps them.
    #[inline(always)]
    fn prefetch_ahead(&self, queue: &[u32], head: usize) {
        const AHEAD: usize = 8;
        if let Some(&v) = queue.get(head + 2 * AHEAD) {
            prefetch(&self.offsets[v as usize]);
        }
        if let Some(&v) = queue.get(head + AHEAD)
            && let Some(first) = self.neighbors.get(self.offsets[v as usize])
        {
            prefetch(first);
        }
    }
}

/// Appends to `out` the union of `succ` and `pred` (sorted), without
/// duplicates and without `u`. `pred` is sorted; `succ` is sorted through
/// `scratch` if it is not already.
fn merge_neighbors(u: u32, succ: &[u32], pred: &[u32], scratch: &mut Vec<u32>, out: &mut Vec<u32>) {
    let succ = if succ.is_sorted() {
        succ
    } else {
        scratch.clear();
        scratch.extend_from_slice(succ);
        scratch.sort_unstable();
        &scratch[..]
    };
    let (mut i, mut j) = (0, 0);
    let mut last = None;
    while i < succ.len() || j < pred.len() {
        let x = if j == pred.len() || (i < succ.len() && succ[i] <= pred[j]) {
            i += 1;
            succ[i - 1]
        } else {
            j += 1;
            pred[j - 1]
        };
        if x != u && last != Some(x) {
            out.push(x);
            last = Some(x);
        }
    }
}

/// The identity order: every vertex keeps its id.
pub fn identity(graph: &Graph) -> Permutation {
    Permutation::identity(graph.num_vertices())
}

/// Breadth-first order over the undirected view (an edge in either direction
/// makes two vertices neighbors), from `root`: new ids are given in the order
/// vertices are discovered; a vertex's undiscovered neighbors are discovered in
/// increasing id order. Vertices that `root` does not reach are visited the
/// same way from the smallest unvisited id, component after component.
///
/// Good for: a frontier-by-frontier solver started at `root` (its frontiers
/// follow the BFS levels, which are contiguous id ranges); any locality where a
/// natural root exists. An error ([`Error::InvalidArgument`]) if `root` is not
/// a vertex (a graph of no vertices takes any root).
pub fn bfs(graph: &Graph, root: usize) -> Result<Permutation> {
    let n = graph.num_vertices();
    if n == 0 {
        return Ok(Permutation::identity(0));
    }
    if root >= n {
        return Err(Error::InvalidArgument(format!(
            "BFS root {root} is out of range: the graph has {n} vertices"
        )));
    }
    let view = Undirected::new(graph);
    let mut visited = vec![false; n];
    let mut order: Vec<u32> = Vec::with_capacity(n);
    // `order` is the queue: its unprocessed tail.
    let search = |start: usize, order: &mut Vec<u32>, visited: &mut [bool]| {
        visited[start] = true;
        let mut head = order.len();
        order.push(start as u32);
        while head < order.len() {
            let end = order.len();
            visit_level(&view, order, head..end, visited);
            head = end;
        }
    };
    search(root, &mut order, &mut visited);
    let mut next = 0;
    while order.len() < n {
        while visited[next] {
            next += 1;
        }
        search(next, &mut order, &mut visited);
    }
    Ok(Permutation::from_order(order))
}

/// Reverse Cuthill–McKee order over the undirected view.
///
/// Components are taken in the order of their vertex of smallest (degree, id)
/// (degrees in the undirected view). Each is searched breadth-first from a
/// pseudo-peripheral vertex (George and Liu: start at that smallest vertex,
/// move to the smallest (degree, id) vertex of the last BFS level while that
/// lengthens the eccentricity, at most 8 rounds), visiting each vertex's
/// undiscovered neighbors by increasing (degree, id). The concatenated order is
/// then reversed as a whole.
///
/// Good for: a small bandwidth (every edge joins nearby ids) independent of the
/// source, e.g. a graph relabelled once and solved from many sources; on a grid
/// the order runs along anti-diagonals, so a bandwidth near the shorter side.
pub fn rcm(graph: &Graph) -> Permutation {
    let n = graph.num_vertices();
    let view = Undirected::new(graph);
    // Vertices by increasing (degree, id): a counting sort by degree (< n).
    let mut start_of_degree = vec![0usize; n + 1];
    for u in 0..n {
        start_of_degree[view.degree(u) + 1] += 1;
    }
    for d in 0..n {
        start_of_degree[d + 1] += start_of_degree[d];
    }
    let mut by_degree = vec![0u32; n];
    for u in 0..n {
        let slot = &mut start_of_degree[view.degree(u)];
        by_degree[*slot] = u as u32;
        *slot += 1;
    }
    drop(start_of_degree);

    let mut placed = vec![false; n];
    let mut mark = vec![false; n];
    let mut queue = Vec::new();
    let mut order: Vec<u32> = Vec::with_capacity(n);
    let mut fresh = Vec::new();
    for &first in &by_degree {
        if placed[first as usize] {
            continue;
        }
        let start = pseudo_peripheral(&view, first as usize, &mut mark, &mut queue);
        // Cuthill–McKee from `start`; `order` is the queue.
        placed[start] = true;
        let mut head = order.len();
        order.push(start as u32);
        while head < order.len() {
            view.prefetch_ahead(&order, head);
            let u = order[head] as usize;
            head += 1;
            fresh.clear();
            for &v in view.neighbors(u) {
                if !placed[v as usize] {
                    placed[v as usize] = true;
                    fresh.push(v);
                }
            }
            // Neighbors come in increasing id: a stable sort by degree keeps
            // the id order among equal degrees.
            fresh.sort_by_key(|&v| view.degree(v as usize));
            order.extend_from_slice(&fresh);
        }
    }
    debug_assert_eq!(order.len(), view.num_vertices());
    order.reverse();
    Permutation::from_order(order)
}

/// One step of a breadth-first search over `view`: the vertices at
/// `queue[range]`, in order, mark their unmarked neighbours and append them to
/// `queue`.
fn visit_level(view: &Undirected, queue: &mut Vec<u32>, range: Range<usize>, mark: &mut [bool]) {
    for head in range {
        view.prefetch_ahead(queue, head);
        let u = queue[head] as usize;
        for &v in view.neighbors(u) {
            if !mark[v as usize] {
                mark[v as usize] = true;
                queue.push(v);
            }
        }
    }
}

/// A BFS of `root`'s component over `view`: fills `queue` with the component in
/// BFS order and returns its eccentricity and where the last level starts in
/// `queue`. `mark` is all false before and after.
fn levels(
    view: &Undirected,
    root: usize,
    mark: &mut [bool],
    queue: &mut Vec<u32>,
) -> (usize, usize) {
    queue.clear();
    queue.push(root as u32);
    mark[root] = true;
    let (mut level_start, mut depth, mut head) = (0, 0, 0);
    loop {
        let level_end = queue.len();
        visit_level(view, queue, head..level_end, mark);
        head = level_end;
        if queue.len() == level_end {
            break;
        }
        level_start = level_end;
        depth += 1;
    }
    for &v in queue.iter() {
        mark[v as usize] = false;
    }
    (depth, level_start)
}

/// George and Liu's pseudo-peripheral vertex of `first`'s component.
fn pseudo_peripheral(
    view: &Undirected,
    first: usize,
    mark: &mut [bool],
    queue: &mut Vec<u32>,
) -> usize {
    let mut root = first;
    let (mut eccentricity, mut last_level) = levels(view, root, mark, queue);
    for _ in 0..PERIPHERAL_ROUNDS {
        if eccentricity == 0 {
            break;
        }
        let candidate = queue[last_level..]
            .iter()
            .map(|&v| (view.degree(v as usize), v))
            .min()
            .expect("the last level is not empty")
            .1 as usize;
        let (e, l) = levels(view, candidate, mark, queue);
        if e <= eccentricity {
            break;
        }
        (root, eccentricity, last_level) = (candidate, e, l);
    }
    root
}

/// Vertices by decreasing out-degree; equal degrees keep their order (stable).
///
/// Good for: load balance rather than locality. Threads of a warp (one vertex
/// each) get vertices of similar degree, so fewer idle while one walks a long
/// list, and the high-degree vertices come first and together.
pub fn degree_sorted(graph: &Graph) -> Permutation {
    let n = graph.num_vertices();
    let offsets = graph.offsets();
    let degree = |u: usize| offsets[u + 1] - offsets[u];
    let max_degree = (0..n).map(degree).max().unwrap_or(0) as usize;
    let order: Vec<u32> = if max_degree <= n {
        // Counting sort by decreasing degree (buckets no larger than the graph).
        let mut start = vec![0usize; max_degree + 2];
        for u in 0..n {
            start[max_degree - degree(u) as usize + 1] += 1;
        }
        for d in 0..=max_degree {
            start[d + 1] += start[d];
        }
        let mut order = vec![0u32; n];
        for u in 0..n {
            let slot = &mut start[max_degree - degree(u) as usize];
            order[*slot] = u as u32;
            *slot += 1;
        }
        order
    } else {
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_by_key(|&u| std::cmp::Reverse(degree(u as usize)));
        order
    };
    Permutation::from_order(order)
}

/// The mean of `|u − v|` over all edges `(u, v)` (0 for a graph without edges):
/// how far apart, in ids and so in memory, the two ends of an edge lie on
/// average. A random order gives about `n / 3`.
pub fn mean_edge_span(graph: &Graph) -> f64 {
    let (sum, _) = spans(graph);
    if graph.num_edges() == 0 {
        0.0
    } else {
        sum as f64 / graph.num_edges() as f64
    }
}

/// The bandwidth: the largest `|u − v|` over all edges `(u, v)` (0 for a graph
/// without edges).
pub fn bandwidth(graph: &Graph) -> u32 {
    spans(graph).1
}

/// The sum and the maximum of `|u − v|` over all edges.
fn spans(graph: &Graph) -> (u64, u32) {
    let csr = graph.csr();
    let (mut sum, mut max) = (0u64, 0u32);
    for u in 0..graph.num_vertices() {
        for &v in &csr.targets[csr.offsets[u] as usize..csr.offsets[u + 1] as usize] {
            let span = v.abs_diff(u as u32);
            sum += span as u64;
            max = max.max(span);
        }
    }
    (sum, max)
}

/// The orders by name, for a command-line choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// [`identity`].
    Identity,
    /// [`bfs`], rooted at the solve's source.
    Bfs,
    /// [`rcm`].
    Rcm,
    /// [`degree_sorted`].
    DegreeSorted,
}

impl Order {
    /// Every order.
    pub const ALL: [Order; 4] = [Order::Identity, Order::Bfs, Order::Rcm, Order::DegreeSorted];

    /// The order's name: `none`, `bfs`, `rcm`, `degree`.
    pub fn name(self) -> &'static str {
        match self {
            Order::Identity => "none",
            Order::Bfs => "bfs",
            Order::Rcm => "rcm",
            Order::DegreeSorted => "degree",
        }
    }

    /// The permutation of `graph` in this order; `source` is the root of
    /// [`Order::Bfs`] and otherwise only checked to be a vertex (an
    /// [`Error::SourceOutOfRange`] if not).
    pub fn permutation(self, graph: &Graph, source: usize) -> Result<Permutation> {
        crate::distances::check_source(graph, source)?;
        Ok(match self {
            Order::Identity => identity(graph),
            Order::Bfs => bfs(graph, source)?,
            Order::Rcm => rcm(graph),
            Order::DegreeSorted => degree_sorted(graph),
        })
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Order {
    type Err = Error;

    fn from_str(text: &str) -> Result<Order> {
        Order::ALL
            .into_iter()
            .find(|o| o.name() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = Order::ALL.iter().map(|o| o.name()).collect();
                Error::InvalidArgument(format!(
                    "unknown vertex order `{text}`; one of: {}",
                    names.join(", ")
                ))
            })
    }
}
