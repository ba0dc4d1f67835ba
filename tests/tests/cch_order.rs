//! The nested-dissection order of a CCH finds small separators: a grid is
//! cut along a line (the top separator is at most a side long, each side at
//! least 15% of the grid); the order is a deterministic permutation. Vertex ids are shuffled so that no cut follows from them.

use std::collections::VecDeque;

use sssp::cch::neighbours::Neighbours;
use sssp::cch::order::nested_dissection;
use sssp_tests::TestRng;

/// The edges of a `w` × `h` grid, vertex `y * w + x`.
fn grid_edges(w: usize, h: usize) -> Vec<(usize, usize)> {
    let mut edges = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let v = y * w + x;
            if x + 1 < w {
                edges.push((v, v + 1));
            }
            if y + 1 < h {
                edges.push((v, v + w));
            }
        }
    }
    edges
}

/// A random permutation of `0..n`.
fn shuffled(rng: &mut TestRng, n: usize) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        p.swap(i, rng.below(i as u64 + 1) as usize);
    }
    p
}

/// The neighbours of `n` vertices joined by `edges`, renamed by `name`.
fn neighbours(n: usize, edges: &[(usize, usize)], name: &[usize]) -> Neighbours {
    let mut rows = vec![Vec::new(); n];
    for &(u, v) in edges {
        rows[name[u]].push(name[v] as u32);
        rows[name[v]].push(name[u] as u32);
    }
    for row in &mut rows {
        row.sort_unstable();
        row.dedup();
    }
    Neighbours::from_rows(&rows)
}

/// The size of the largest connected component once `removed` is gone.
fn largest_component(graph: &Neighbours, removed: &[u32]) -> usize {
    let n = graph.num_vertices();
    let mut seen = vec![false; n];
    removed.iter().for_each(|&v| seen[v as usize] = true);
    let mut largest = 0;
    for s in 0..n {
        if seen[s] {
            continue;
        }
        seen[s] = true;
        let mut queue = VecDeque::from([s]);
        let mut size = 0;
        while let Some(v) = queue.pop_front() {
            size += 1;
            for &u in graph.of(v) {
                if !seen[u as usize] {
                    seen[u as usize] = true;
                    queue.push_back(u as usize);
                }
            }
        }
        largest = largest.max(size);
    }
    largest
}

/// The order of `graph`, checked to be a permutation and the same twice.
fn checked_order(graph: &Neighbours, context: &str) -> Vec<u32> {
    let order = nested_dissection(graph);
    let mut sorted = order.clone();
    sorted.sort_unstable();
    let n = graph.num_vertices() as u32;
    assert!(
        sorted.iter().copied().eq(0..n),
        "{context}: not a permutation"
    );
    assert_eq!(
        order,
        nested_dissection(graph),
        "{context}: not deterministic"
    );
    order
}

#[test]
fn a_grid_is_cut_along_a_line() {
    let mut rng = TestRng::new("cch_order_grid");
    for case in 0..3 {
        let (w, h) = (rng.range(40, 90) as usize, rng.range(40, 90) as usize);
        let n = w * h;
        let graph = neighbours(n, &grid_edges(w, h), &shuffled(&mut rng, n));
        let context = format!("case {case} ({w}×{h}, seed {})", rng.seed);
        let order = checked_order(&graph, &context);
        let line = w.min(h) + 1;
        let largest = largest_component(&graph, &order[n - line..]);
        assert!(
            largest * 20 <= n * 17,
            "{context}: the top {line} vertices leave a component of {largest} of {n}"
        );
    }
}
