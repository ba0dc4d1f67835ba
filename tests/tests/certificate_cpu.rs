//! The certificate's per-thread logic (`gpu_kernels::certificate`) on the CPU:
//! it accepts the oracle's distances on random graphs (zero weights, `f32`,
//! unreachable parts, bounds) and rejects every wrong distance array: one
//! entry corrupted at random, and by hand a lowered and a raised distance, a
//! zero-weight cycle held at too small a distance, a wrong source distance,
//! overflow lies and bad parents.

use std::sync::atomic::AtomicU32;

use gpu_kernels::certificate::{Reason, certify, certify_push, check_tree, reported};
use gpu_kernels::distance::{INFINITY, MAX_DISTANCE, SATURATED};
use gpu_kernels::parents::{NO_PARENT, NOT_IN_TREE};
use sssp::graph::WeightKind;
use sssp::options::Stop;
use sssp::{Graph, oracle};
use sssp_tests::queries::bounded;
use sssp_tests::{TestRng, random_small_f32_graph, random_small_graph};

/// The certificate of `dist` from `source` on `graph` within `bound`.
fn check(graph: &Graph, source: usize, bound: u32, dist: &[u32]) -> Result<(), (usize, Reason)> {
    let predecessors = graph.transpose();
    let n = graph.num_vertices();
    let mut parent = vec![NO_PARENT; n];
    let level: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(NOT_IN_TREE)).collect();
    let scratch = (&mut parent[..], &level[..]);
    match graph.weight_kind() {
        WeightKind::U32 => certify::<u32>(source, bound, predecessors.csr(), dist, scratch),
        WeightKind::F32 => certify::<f32>(source, bound, predecessors.csr(), dist, scratch),
    }
}

/// The push form of `dist` from `source` on `graph` within `bound`
/// (`Ok(false)`: the tree's rounds must decide).
fn check_push(
    graph: &Graph,
    source: usize,
    bound: u32,
    dist: &[u32],
) -> Result<bool, (usize, Reason)> {
    let closer: Vec<AtomicU32> = (0..graph.num_vertices())
        .map(|_| AtomicU32::new(0))
        .collect();
    match graph.weight_kind() {
        WeightKind::U32 => certify_push::<u32>(source, bound, graph.csr(), dist, &closer),
        WeightKind::F32 => certify_push::<f32>(source, bound, graph.csr(), dist, &closer),
    }
}

fn graph(n: usize, edges: &[(u32, u32, u32)]) -> Graph<'static> {
    Graph::from_edges(n, edges).expect("a valid graph")
}

fn f32_graph(n: usize, edges: &[(u32, u32, f32)]) -> Graph<'static> {
    let edges: Vec<_> = edges.iter().map(|&(u, v, w)| (u, v, w.to_bits())).collect();
    graph(n, &edges)
        .with_weight_kind(WeightKind::F32)
        .expect("valid f32 weights")
}

/// A random small graph, half of them `f32`.
fn random_graph(rng: &mut TestRng) -> Graph<'static> {
    if rng.chance(0.5) {
        random_small_graph(rng, 40)
    } else {
        random_small_f32_graph(rng, 40)
    }
}

#[test]
fn accepts_the_oracles_distances_and_rejects_any_one_entry_changed() {
    let mut rng = TestRng::new("accepts_the_oracles_distances_and_rejects_any_one_entry_changed");
    for case in 0..3000 {
        let graph = random_graph(&mut rng);
        let n = graph.num_vertices();
        let source = rng.below(n as u64) as usize;
        let Ok(dist) = oracle::dijkstra(&graph, source) else {
            continue; // the overflow is the solver's error, tested elsewhere
        };
        let context = format!("case {case}: {n} vertices, source {source}");
        assert_eq!(check(&graph, source, INFINITY, &dist), Ok(()), "{context}");
        let mut wrong = dist.clone();
        let v = rng.below(n as u64) as usize;
        wrong[v] = match rng.below(4) {
            0 => dist[v].wrapping_sub(1).min(SATURATED),
            1 => dist[v].saturating_add(1),
            2 => INFINITY - (dist[v] == INFINITY) as u32,
            _ => rng.below(dist[v].min(MAX_DISTANCE) as u64 + 1) as u32,
        };
        // A changed distance is wrong, and rejected. (Saturated words are
        // proven only next to an exact vertex: see `checks_overflow_claims`.)
        if wrong[v] != dist[v] {
            assert!(
                check(&graph, source, INFINITY, &wrong).is_err(),
                "{context}: vertex {v} changed from {} to {} was accepted",
                dist[v],
                wrong[v]
            );
        }
    }
}

#[test]
fn accepts_bounded_distances_and_rejects_a_vertex_cut_within_the_bound() {
    let mut rng =
        TestRng::new("accepts_bounded_distances_and_rejects_a_vertex_cut_within_the_bound");
    for case in 0..1500 {
        let graph = random_small_graph(&mut rng, 40);
        let n = graph.num_vertices();
        let source = rng.below(n as u64) as usize;
        let Ok(full) = oracle::dijkstra(&graph, source) else {
            continue;
        };
        let stop = Stop {
            limit: Some(full[rng.below(n as u64) as usize].min(MAX_DISTANCE)),
            target: None,
        };
        let dist = bounded(&full, stop);
        let bound = stop.bound(&full);
        let context = format!("case {case}: source {source}, bound {bound}");
        assert_eq!(check(&graph, source, bound, &dist), Ok(()), "{context}");
        if let Some(v) = (0..n).find(|&v| v != source && dist[v] != INFINITY) {
            let mut cut = dist.clone();
            cut[v] = INFINITY;
            assert!(
                check(&graph, source, bound, &cut).is_err(),
                "{context}: {v} cut"
            );
        }
    }
}

#[test]
fn rejects_a_lowered_and_a_raised_distance() {
    let g = graph(3, &[(0, 1, 4), (1, 2, 3), (0, 2, 9)]);
    assert_eq!(check(&g, 0, INFINITY, &[0, 4, 7]), Ok(()));
    assert_eq!(
        check(&g, 0, INFINITY, &[0, 4, 6]),
        Err((2, Reason::NoTightPath))
    );
    assert_eq!(
        check(&g, 0, INFINITY, &[0, 4, 8]),
        Err((2, Reason::ArcImproves))
    );
    assert_eq!(
        check(&g, 0, INFINITY, &[0, 4, INFINITY]),
        Err((2, Reason::ArcImproves))
    );
}

#[test]
fn rejects_a_zero_weight_cycle_at_too_small_a_distance() {
    let g = graph(3, &[(0, 1, 5), (1, 2, 0), (2, 1, 0)]);
    assert_eq!(check(&g, 0, INFINITY, &[0, 5, 5]), Ok(()));
    assert_eq!(
        check(&g, 0, INFINITY, &[0, 3, 3]),
        Err((1, Reason::NoTightPath))
    );
    // The same with f32 weights too small to change the sum.
    let g = f32_graph(3, &[(0, 1, 2.0), (1, 2, 1e-30), (2, 1, 1e-30)]);
    let word = |x: f32| x.to_bits();
    assert_eq!(check(&g, 0, INFINITY, &[0, word(2.0), word(2.0)]), Ok(()));
    let low = [0, word(1.0), word(1.0)];
    assert_eq!(check(&g, 0, INFINITY, &low), Err((1, Reason::NoTightPath)));
    // An unreachable cycle claimed reached.
    let g = graph(3, &[(1, 2, 0), (2, 1, 0)]);
    assert_eq!(
        check(&g, 0, INFINITY, &[0, 7, 7]),
        Err((1, Reason::NoTightPath))
    );
    assert_eq!(check(&g, 0, INFINITY, &[0, INFINITY, INFINITY]), Ok(()));
}

#[test]
fn rejects_a_wrong_source_distance() {
    let g = graph(2, &[(0, 1, 1)]);
    assert_eq!(
        check(&g, 0, INFINITY, &[1, 2]),
        Err((0, Reason::SourceDistance))
    );
    assert_eq!(
        check(&g, 0, INFINITY, &[INFINITY, INFINITY]),
        Err((0, Reason::SourceDistance))
    );
}

#[test]
fn checks_overflow_claims() {
    let g = graph(3, &[(0, 1, MAX_DISTANCE), (1, 2, MAX_DISTANCE)]);
    // The truth: vertex 2 does not fit.
    assert_eq!(
        check(&g, 0, INFINITY, &[0, MAX_DISTANCE, SATURATED]),
        Ok(())
    );
    // An overflow claimed where the distance fits.
    let lie = [0, SATURATED, SATURATED];
    assert_eq!(check(&g, 0, INFINITY, &lie), Err((1, Reason::ArcImproves)));
    // A distance claimed to fit where it overflows.
    let fits = [0, MAX_DISTANCE, MAX_DISTANCE];
    assert_eq!(check(&g, 0, INFINITY, &fits), Err((2, Reason::NoTightPath)));
    // Unreached where it overflows.
    let lost = [0, MAX_DISTANCE, INFINITY];
    assert_eq!(check(&g, 0, INFINITY, &lost), Err((2, Reason::ArcImproves)));
    // An isolated vertex claimed to overflow.
    let g = graph(2, &[]);
    assert_eq!(
        check(&g, 0, INFINITY, &[0, SATURATED]),
        Err((1, Reason::NoTightPath))
    );
    // An unreachable cycle claimed to overflow.
    let g = graph(3, &[(1, 2, 0), (2, 1, 0)]);
    let cycle = [0, SATURATED, SATURATED];
    assert_eq!(
        check(&g, 0, INFINITY, &cycle),
        Err((1, Reason::NoTightPath))
    );
}

#[test]
fn rejects_bad_parents() {
    // 0 -> 1 -> 2 with zero weights both ways between 1 and 2.
    let g = graph(3, &[(0, 1, 1), (1, 2, 0), (2, 1, 0)]);
    let predecessors = g.transpose();
    let dist = [0, 1, 1];
    let level: Vec<AtomicU32> = [0, 0, 1].into_iter().map(AtomicU32::new).collect();
    let tree =
        |v: usize, parent: u32| check_tree::<u32>(v, 0, predecessors.csr(), &dist, parent, &level);
    assert_eq!(tree(0, NO_PARENT), None);
    assert_eq!(tree(1, 0), None);
    assert_eq!(tree(2, 1), None);
    assert_eq!(tree(0, 1), Some(Reason::BadParent));
    assert_eq!(tree(1, 2), Some(Reason::BadParent)); // same distance, later level
    assert_eq!(tree(2, 0), Some(Reason::BadParent)); // no such arc
    assert_eq!(tree(2, NO_PARENT), Some(Reason::BadParent));
}

/// The push form (over the forward CSR, as a solver holds it) decides what
/// the pull form decides, the first bad vertex and its reason included, on
/// the oracle's distances, bounded ones, and single entries corrupted; where
/// it leaves the decision to the tree's rounds, the pull form needed them
/// too. The push form reads the solver's buffer, where tentative values
/// above the bound (as a bounded solve leaves) count as unreached; the pull
/// form reads the answer, where they are unreached.
#[test]
fn the_push_form_decides_what_the_pull_form_decides() {
    let mut rng = TestRng::new("certificate_cpu::push_form");
    for case in 0..4000 {
        let graph = random_graph(&mut rng);
        let n = graph.num_vertices();
        let source = rng.below(n as u64) as usize;
        let Ok(full) = oracle::dijkstra(&graph, source) else {
            continue;
        };
        let stop = Stop {
            limit: rng.chance(0.3).then(|| rng.below(40) as u32),
            target: rng.chance(0.3).then(|| rng.below(n as u64) as usize),
        };
        let bound = stop.bound(&full);
        let mut dist = bounded(&full, stop);
        if rng.chance(0.7) {
            let v = rng.below(n as u64) as usize;
            dist[v] = match rng.below(3) {
                0 => dist[v].wrapping_sub(1).min(SATURATED),
                1 => dist[v].saturating_add(1),
                _ => rng.below(MAX_DISTANCE as u64) as u32,
            };
        }
        let context = format!("case {case}: {n} vertices, source {source}, {stop:?}");
        // What the caller gets: nothing above the bound.
        let answer: Vec<u32> = dist.iter().map(|&d| reported(d, bound)).collect();
        let pull = check(&graph, source, bound, &answer);
        // Above the bound, what a bounded solve may leave is unreached.
        let mut raw = dist.clone();
        for d in raw.iter_mut().filter(|d| **d == INFINITY) {
            if bound < MAX_DISTANCE && rng.chance(0.5) {
                *d = rng.range(bound as u64 + 1, MAX_DISTANCE as u64) as u32;
            }
        }
        match check_push(&graph, source, bound, &raw) {
            Ok(true) => assert_eq!(pull, Ok(()), "{context}: push proved it"),
            Ok(false) => {}
            Err(bad) => assert_eq!(pull, Err(bad), "{context}: push rejected it"),
        }
        if pull.is_err() {
            assert_ne!(
                check_push(&graph, source, bound, &raw),
                Ok(true),
                "{context}"
            );
        }
    }
}
