//! Design study for issue #20 (docs/PERFORMANCE.md, 2026-11-27, thirteenth
//! session): an *overlay* of the partition solver's pieces, as in multi-level
//! Dijkstra. It cuts a graph as the partition solver does
//! ([`sssp::partition::partition`]), builds the overlay on all threads, solves
//! one source through it on the CPU, checks every distance against the oracle
//! and prints the overlay's size, its build time and the hop depths that
//! would bound a round-based GPU solve.
//!
//!     cargo run --release -p host --example overlay_study -- GRAPH [CAPACITY] [SOURCE] [DIR]
//!
//! `u32` weights; CAPACITY vertices a piece (default: about 396 pieces, the
//! resident solver's blocks on an H100); SOURCE in the file's numbering
//! (default: its first vertex). With DIR, it writes the three steps of the
//! query as g.csr graphs whose last vertex is a super source, so that the
//! GPU solvers can time each step: `piece.csr` (the source's piece, the
//! source last), `overlay.csr` (the overlay, with arcs from the super source
//! to the source piece's nodes at their local distances), `interior.csr`
//! (the graph without its cut arcs, with arcs from the super source to every
//! entry at its overlay distance and to the source) and `augmented.csr`
//! (the graph with the partition solver's shortcuts, [`add_shortcuts`]: the
//! overlay's arcs inside the pieces, pruned, added to the graph). With
//! `SSSP_STUDY_REFINE=P`, P passes of size-constrained label propagation
//! (a vertex moves to the piece most of its neighbours are in, pieces up to
//! 1/32 over CAPACITY) shorten the pieces' borders before the overlay is
//! built: how much smaller the overlay gets with smaller cuts. With
//! `SSSP_STUDY_BISECT=1` the pieces come from a recursive bisection along
//! breadth-first "coordinates" instead (see `bisect`), as many as
//! [`partition`] cuts.
//!
//! The overlay's nodes are each piece's *entries* (vertices an arc from
//! another piece enters: the partition's boundary) and *exits* (vertices with
//! an arc to another piece); its arcs are the cut arcs and, per piece, an arc
//! from each entry to each exit it reaches inside the piece, weighted by the
//! piece-local distance. A query solves the source's piece locally, then the
//! overlay from that piece's nodes, then every piece locally from its
//! entries: a shortest path is in-piece segments joined by cut arcs, and its
//! last segment starts at an entry of the target's piece, or at the source.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::Range;
use std::time::Instant;

use gpu_kernels::csr::Csr;
use rayon::prelude::*;
use sssp::Graph;
use sssp::partition::{Partitioning, partition};
use sssp::shortcuts::add_shortcuts;

/// An overlay node's arcs: (head node, weight).
type Arcs = Vec<(u32, u64)>;

/// No node or no distance.
const NONE: u32 = u32::MAX;

/// The overlay in CSR form over its nodes.
struct Overlay {
    /// The overlay node of each (renumbered) vertex, or [`NONE`].
    node_of: Vec<u32>,
    /// How many nodes it has.
    nodes: usize,
    offsets: Vec<usize>,
    heads: Vec<u32>,
    weights: Vec<u64>,
}

/// Shortest distances and the fewest hops among shortest paths, from
/// `seeds` (vertex, distance), over the arcs of `arcs(u)`, restricted to the
/// vertices `ids` (indices are relative to its start).
fn dijkstra<'a, I>(
    ids: Range<usize>,
    seeds: &[(usize, u64)],
    arcs: impl Fn(usize) -> I,
) -> (Vec<u64>, Vec<u32>)
where
    I: Iterator<Item = (usize, u64)> + 'a,
{
    let len = ids.len();
    let (mut dist, mut hops) = (vec![u64::MAX; len], vec![NONE; len]);
    let mut heap = BinaryHeap::new();
    for &(v, d) in seeds {
        let k = v - ids.start;
        if (d, 0) < (dist[k], hops[k]) {
            (dist[k], hops[k]) = (d, 0);
            heap.push(Reverse((d, 0u32, v)));
        }
    }
    while let Some(Reverse((d, h, u))) = heap.pop() {
        if (d, h) != (dist[u - ids.start], hops[u - ids.start]) {
            continue;
        }
        for (v, w) in arcs(u) {
            if !ids.contains(&v) {
                continue;
            }
            let k = v - ids.start;
            if (d + w, h + 1) < (dist[k], hops[k]) {
                (dist[k], hops[k]) = (d + w, h + 1);
                heap.push(Reverse((d + w, h + 1, v)));
            }
        }
    }
    (dist, hops)
}

/// The arcs of vertex `u` of `csr`, with `u64` weights.
fn graph_arcs<'a>(csr: Csr<'a>) -> impl Fn(usize) -> Box<dyn Iterator<Item = (usize, u64)> + 'a> {
    move |u| Box::new(csr.edges(u).map(|(v, w)| (v, u64::from(w))))
}

/// The pieces' vertex ranges.
fn piece_ranges(parts: &Partitioning) -> Vec<Range<usize>> {
    parts
        .starts
        .windows(2)
        .map(|r| r[0] as usize..r[1] as usize)
        .collect()
}

/// Each vertex's neighbours over arcs of either direction.
fn neighbours_of(graph: &Graph) -> Vec<Vec<u32>> {
    let (n, csr) = (graph.num_vertices(), graph.csr());
    let mut neighbours: Vec<Vec<u32>> = vec![Vec::new(); n];
    for u in 0..n {
        for (v, _) in csr.edges(u).filter(|&(v, _)| v != u) {
            neighbours[u].push(v as u32);
            neighbours[v].push(u as u32);
        }
    }
    neighbours
}

/// `passes` of size-constrained label propagation on the pieces `piece`: a
/// vertex joins the piece most of its neighbours are in, if that piece holds
/// fewer than `most` vertices and its own keeps one.
fn propagate(
    neighbours: &[Vec<u32>],
    piece: &mut [u32],
    pieces: usize,
    most: usize,
    passes: usize,
) {
    let mut size = vec![0usize; pieces];
    piece.iter().for_each(|&p| size[p as usize] += 1);
    for _ in 0..passes {
        let mut moved = 0;
        for v in 0..piece.len() {
            let own = piece[v];
            let mut counts: Vec<(u32, u32)> = Vec::new();
            for &u in &neighbours[v] {
                let p = piece[u as usize];
                match counts.iter_mut().find(|c| c.0 == p) {
                    Some(c) => c.1 += 1,
                    None => counts.push((p, 1)),
                }
            }
            let at_home = counts.iter().find(|c| c.0 == own).map_or(0, |c| c.1);
            let best = counts
                .iter()
                .filter(|c| c.0 != own && size[c.0 as usize] < most)
                .max_by_key(|c| (c.1, Reverse(c.0)));
            if let Some(&(to, count)) = best
                && count > at_home
                && size[own as usize] > 1
            {
                piece[v] = to;
                size[own as usize] -= 1;
                size[to as usize] += 1;
                moved += 1;
            }
        }
        if moved == 0 {
            break;
        }
    }
}

/// Breadth-first hop counts from `start` over `neighbours` inside the set
/// of vertices whose `mark` is `set` (into `hops`, [`NONE`] where not yet
/// reached); returns the last vertex reached, one of the farthest.
fn reach(neighbours: &[Vec<u32>], start: u32, (mark, set): (&[u32], u32), hops: &mut [u32]) -> u32 {
    let mut queue = std::collections::VecDeque::from([start]);
    hops[start as usize] = 0;
    let mut farthest = start;
    while let Some(u) = queue.pop_front() {
        farthest = u;
        for &v in &neighbours[u as usize] {
            if mark[v as usize] == set && hops[v as usize] == NONE {
                hops[v as usize] = hops[u as usize] + 1;
                queue.push_back(v);
            }
        }
    }
    farthest
}

/// [`bisect`]'s working arrays, one word per vertex.
struct Bisection {
    piece: Vec<u32>,
    mark: Vec<u32>,
    set: u32,
    from_a: Vec<u32>,
    from_b: Vec<u32>,
}

/// Recursive bisection of `vertices` into `pieces` pieces numbered from
/// `first`: two far-apart vertices `a` and `b` (each the farthest by hops
/// from the one before), then the vertices in order of `hops(a) - hops(b)`,
/// a coordinate along the a–b axis, split in proportion to the pieces on
/// each side. Vertices that `a` does not reach go last.
fn bisect(
    neighbours: &[Vec<u32>],
    mut vertices: Vec<u32>,
    (pieces, first): (usize, u32),
    state: &mut Bisection,
) {
    if pieces <= 1 || vertices.is_empty() {
        vertices
            .iter()
            .for_each(|&v| state.piece[v as usize] = first);
        return;
    }
    state.set += 1;
    let set = state.set;
    let clear =
        |hops: &mut [u32], vertices: &[u32]| vertices.iter().for_each(|&v| hops[v as usize] = NONE);
    for &v in &vertices {
        state.mark[v as usize] = set;
    }
    clear(&mut state.from_a, &vertices);
    let a = reach(
        neighbours,
        vertices[0],
        (&state.mark, set),
        &mut state.from_a,
    );
    clear(&mut state.from_a, &vertices);
    let b = reach(neighbours, a, (&state.mark, set), &mut state.from_a);
    clear(&mut state.from_b, &vertices);
    reach(neighbours, b, (&state.mark, set), &mut state.from_b);
    let (from_a, from_b) = (&state.from_a, &state.from_b);
    let key = |v: u32| match (from_a[v as usize], from_b[v as usize]) {
        (NONE, _) | (_, NONE) => i64::MAX,
        (x, y) => i64::from(x) - i64::from(y),
    };
    vertices.sort_by_key(|&v| (key(v), v));
    let left_pieces = pieces / 2;
    let right = vertices.split_off(vertices.len() * left_pieces / pieces);
    bisect(neighbours, vertices, (left_pieces, first), state);
    bisect(
        neighbours,
        right,
        (pieces - left_pieces, first + left_pieces as u32),
        state,
    );
}

/// `parts` with its pieces replaced by `piece` (a piece per vertex of
/// `parts.graph`), renumbered as [`partition`] numbers them: each piece
/// contiguous, its entries first.
fn with_pieces(parts: Partitioning, piece: Vec<u32>) -> sssp::Result<Partitioning> {
    let graph = &parts.graph;
    let (n, csr) = (graph.num_vertices(), graph.csr());
    let pieces = piece.iter().map(|&p| p as usize + 1).max().unwrap_or(0);
    let mut entry = vec![false; n];
    for u in 0..n {
        for (v, _) in csr.edges(u) {
            entry[v] |= piece[u] != piece[v];
        }
    }
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_by_key(|&v| (piece[v as usize], !entry[v as usize], v));
    let renumber = sssp::reorder::Permutation::from_old_of_new(order.clone())?;
    let new_graph = renumber.apply(graph);
    let piece_of: Vec<u32> = order.iter().map(|&v| piece[v as usize]).collect();
    let (mut starts, mut boundary_ends) = (vec![0u32; pieces + 1], vec![0u32; pieces]);
    for (k, &v) in order.iter().enumerate() {
        let p = piece[v as usize] as usize;
        starts[p + 1] = k as u32 + 1;
        if entry[v as usize] {
            boundary_ends[p] = k as u32 + 1;
        }
    }
    for p in 0..pieces {
        starts[p + 1] = starts[p + 1].max(starts[p]);
        boundary_ends[p] = boundary_ends[p].max(starts[p]);
    }
    let new_of_original: Vec<u32> = (0..n)
        .map(|o| renumber.new_id(parts.permutation.new_id(o)) as u32)
        .collect();
    Ok(Partitioning {
        permutation: sssp::reorder::Permutation::from_new_of_old(new_of_original)?,
        graph: new_graph,
        starts,
        boundary_ends,
        piece_of,
    })
}

fn build_overlay(parts: &Partitioning) -> Overlay {
    let graph = &parts.graph;
    let n = graph.num_vertices();
    let csr = graph.csr();
    let leaves = |u: usize| {
        csr.edges(u)
            .any(|(v, _)| parts.piece_of[v] != parts.piece_of[u])
    };
    let is_exit: Vec<bool> = (0..n).into_par_iter().map(leaves).collect();
    let mut node_of = vec![NONE; n];
    let mut nodes = 0;
    for (p, range) in piece_ranges(parts).into_iter().enumerate() {
        let entries_end = parts.boundary_ends[p] as usize;
        for v in range {
            if v < entries_end || is_exit[v] {
                node_of[v] = nodes as u32;
                nodes += 1;
            }
        }
    }
    // Per piece, each entry's arcs to the exits it reaches, then each exit's
    // cut arcs; one list per node, in node order.
    let per_piece: Vec<Vec<Arcs>> = piece_ranges(parts)
        .into_par_iter()
        .enumerate()
        .map(|(p, range)| {
            let entries_end = parts.boundary_ends[p] as usize;
            range
                .clone()
                .filter(|&v| node_of[v] != NONE)
                .map(|u| {
                    let mut arcs = Vec::new();
                    if u < entries_end {
                        let (dist, _) = dijkstra(range.clone(), &[(u, 0)], graph_arcs(graph.csr()));
                        for x in range.clone().filter(|&x| is_exit[x] && x != u) {
                            if dist[x - range.start] != u64::MAX {
                                arcs.push((node_of[x], dist[x - range.start]));
                            }
                        }
                    }
                    for (v, w) in csr.edges(u) {
                        if !range.contains(&v) {
                            arcs.push((node_of[v], u64::from(w)));
                        }
                    }
                    arcs
                })
                .collect()
        })
        .collect();
    let mut offsets = vec![0];
    let (mut heads, mut weights) = (Vec::new(), Vec::new());
    for arcs in per_piece.into_iter().flatten() {
        for (h, w) in arcs {
            heads.push(h);
            weights.push(w);
        }
        offsets.push(heads.len());
    }
    Overlay {
        node_of,
        nodes,
        offsets,
        heads,
        weights,
    }
}

fn main() -> sssp::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: overlay_study GRAPH [CAPACITY] [SOURCE] [DIR]");
        std::process::exit(2);
    };
    let loaded = sssp::formats::load(path, None)?;
    let first = loaded.numbering().base as usize;
    let graph = loaded.into_graph()?;
    let n = graph.num_vertices();
    let capacity = match args.get(1) {
        Some(c) => c.parse().expect("CAPACITY: a number of vertices"),
        None => n.div_ceil(396).max(1),
    };
    let source_old = match args.get(2) {
        Some(s) => s.parse::<usize>().expect("SOURCE: a vertex id") - first,
        None => 0,
    };

    let start = Instant::now();
    let parts = partition(&graph, capacity)?;
    let bisection = std::env::var_os("SSSP_STUDY_BISECT").is_some();
    let refinement = std::env::var("SSSP_STUDY_REFINE")
        .ok()
        .map(|passes| passes.parse().expect("SSSP_STUDY_REFINE: passes"));
    // Pieces other than the partitioner's only where a study option asks.
    let parts = if bisection || refinement.is_some() {
        let neighbours = neighbours_of(&parts.graph);
        let mut piece = parts.piece_of.clone();
        if bisection {
            let mut state = Bisection {
                piece: vec![0; n],
                mark: vec![0; n],
                set: 0,
                from_a: vec![NONE; n],
                from_b: vec![NONE; n],
            };
            let vertices = (0..n as u32).collect();
            bisect(&neighbours, vertices, (parts.pieces(), 0), &mut state);
            piece = state.piece;
        }
        if let Some(passes) = refinement {
            let most = capacity + capacity / 32;
            propagate(&neighbours, &mut piece, parts.pieces(), most, passes);
        }
        with_pieces(parts, piece)?
    } else {
        parts
    };
    let cut_ms = start.elapsed().as_secs_f64() * 1e3;
    let start = Instant::now();
    let overlay = build_overlay(&parts);
    let build_ms = start.elapsed().as_secs_f64() * 1e3;

    let g = &parts.graph;
    let source = parts.permutation.new_id(source_old);
    let ranges = piece_ranges(&parts);
    let home = ranges[parts.piece_of[source] as usize].clone();
    let start = Instant::now();
    // (1) The source's piece.
    let (local, _) = dijkstra(home.clone(), &[(source, 0)], graph_arcs(g.csr()));
    // (2) The overlay, from that piece's nodes.
    let seeds: Vec<(usize, u64)> = home
        .clone()
        .filter(|&v| overlay.node_of[v] != NONE && local[v - home.start] != u64::MAX)
        .map(|v| (overlay.node_of[v] as usize, local[v - home.start]))
        .collect();
    let nodes = overlay.nodes;
    let (over, over_hops) = dijkstra(0..nodes, &seeds, |u| {
        let arcs = overlay.offsets[u]..overlay.offsets[u + 1];
        overlay.heads[arcs.clone()]
            .iter()
            .zip(&overlay.weights[arcs])
            .map(|(&h, &w)| (h as usize, w))
    });
    // (3) Every piece from its entries (and the source's from the source).
    let filled: Vec<(Vec<u64>, u32)> = ranges
        .par_iter()
        .enumerate()
        .map(|(p, range)| {
            let mut seeds: Vec<(usize, u64)> = (range.start..parts.boundary_ends[p] as usize)
                .map(|v| (v, over[overlay.node_of[v] as usize]))
                .filter(|&(_, d)| d != u64::MAX)
                .collect();
            if range.contains(&source) {
                seeds.push((source, 0));
            }
            let (dist, hops) = dijkstra(range.clone(), &seeds, graph_arcs(g.csr()));
            let deepest = hops
                .iter()
                .filter(|&&h| h != NONE)
                .max()
                .copied()
                .unwrap_or(0);
            (dist, deepest)
        })
        .collect();
    let query_ms = start.elapsed().as_secs_f64() * 1e3;

    let dist: Vec<u64> = filled.iter().flat_map(|(d, _)| d.iter().copied()).collect();
    let expected = sssp::oracle::dijkstra_u64(g, source);
    let wrong = dist.iter().zip(&expected).filter(|(a, b)| a != b).count();
    let (_, tree_hops) = dijkstra(0..n, &[(source, 0)], graph_arcs(g.csr()));
    let depth = |hops: &[u32]| {
        hops.iter()
            .filter(|&&h| h != NONE)
            .max()
            .copied()
            .unwrap_or(0)
    };
    println!(
        "{path}: n {n}, m {}, {} pieces of at most {capacity} (cut in {cut_ms:.1} ms); overlay {} nodes, \
         {} arcs, built in {build_ms:.1} ms on {} threads; hop depth: tree {}, overlay {}, deepest \
         interior {}; CPU query {query_ms:.1} ms; {wrong} distances differ from the oracle's",
        g.num_edges(),
        parts.pieces(),
        nodes,
        overlay.heads.len(),
        rayon::current_num_threads(),
        depth(&tree_hops),
        depth(&over_hops),
        filled.iter().map(|(_, d)| *d).max().unwrap_or(0),
    );
    if wrong > 0 {
        std::process::exit(1);
    }
    if let Some(dir) = args.get(3) {
        let dir = std::path::Path::new(dir);
        let word = |d: u64| u32::try_from(d).expect("a distance beyond u32");
        let csr = g.csr();
        // The source's piece, renumbered from 0, the source as the last vertex's
        // only arc.
        let mut piece: Vec<(u32, u32, u32)> = home
            .clone()
            .flat_map(|u| csr.edges(u).map(move |(v, w)| (u, v, w)))
            .filter(|(_, v, _)| home.contains(v))
            .map(|(u, v, w)| ((u - home.start) as u32, (v - home.start) as u32, w))
            .collect();
        piece.push((home.len() as u32, (source - home.start) as u32, 0));
        let piece = Graph::from_edges(home.len() + 1, &piece).expect("a valid piece");
        // The overlay and its super source.
        let mut arcs: Vec<(u32, u32, u32)> = (0..nodes)
            .flat_map(|u| {
                let range = overlay.offsets[u]..overlay.offsets[u + 1];
                let (heads, weights) = (&overlay.heads[range.clone()], &overlay.weights[range]);
                heads
                    .iter()
                    .zip(weights)
                    .map(move |(&h, &w)| (u as u32, h, word(w)))
            })
            .collect();
        arcs.extend(
            seeds
                .iter()
                .map(|&(v, d)| (nodes as u32, v as u32, word(d))),
        );
        let over_graph = Graph::from_edges(nodes + 1, &arcs).expect("a valid overlay");
        // The interiors and their super source.
        let mut inner: Vec<(u32, u32, u32)> = (0..n)
            .flat_map(|u| csr.edges(u).map(move |(v, w)| (u as u32, v as u32, w)))
            .filter(|&(u, v, _)| parts.piece_of[u as usize] == parts.piece_of[v as usize])
            .collect();
        for (p, range) in ranges.iter().enumerate() {
            for v in range.start..parts.boundary_ends[p] as usize {
                let d = over[overlay.node_of[v] as usize];
                if d != u64::MAX {
                    inner.push((n as u32, v as u32, word(d)));
                }
            }
        }
        inner.push((n as u32, source as u32, 0));
        let interior = Graph::from_edges(n + 1, &inner).expect("a valid interior graph");
        // The graph with the partition solver's shortcuts (the pruned overlay
        // arcs inside the pieces) and the super source.
        let mut with_shortcuts = parts.clone();
        add_shortcuts(&mut with_shortcuts, usize::MAX)?;
        let shortcut_csr = with_shortcuts.graph.csr();
        let mut augmented: Vec<(u32, u32, u32)> = (0..n)
            .flat_map(|u| {
                shortcut_csr
                    .edges(u)
                    .map(move |(v, w)| (u as u32, v as u32, w))
            })
            .collect();
        augmented.push((n as u32, source as u32, 0));
        let augmented = Graph::from_edges(n + 1, &augmented).expect("a valid augmented graph");
        for (name, graph) in [
            ("piece", &piece),
            ("overlay", &over_graph),
            ("interior", &interior),
            ("augmented", &augmented),
        ] {
            sssp::formats::csr::write(graph, &dir.join(format!("{name}.csr")))?;
            println!(
                "wrote {name}.csr: {} vertices, {} arcs, source {}",
                graph.num_vertices(),
                graph.num_edges(),
                graph.num_vertices() - 1
            );
        }
    }
    Ok(())
}
