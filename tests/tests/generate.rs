//! The papers' random graph generator: determinism and the shape of its output.

use sssp::generate::{CHUNK, RandomGraphSpec, random_graph};
use sssp::{Error, format};
use sssp_tests::TestRng;

#[test]
fn same_parameters_give_the_same_graph() {
    let mut rng = TestRng::new("same_parameters_give_the_same_graph");
    let spec = RandomGraphSpec {
        num_vertices: 2 * CHUNK + 17,
        degree: 3,
        min_weight: 1,
        max_weight: 10,
        seed: rng.bits(),
    };
    let a = random_graph(&spec).unwrap();
    let b = random_graph(&spec).unwrap();
    assert_eq!(a, b);
    let c = random_graph(&RandomGraphSpec {
        seed: spec.seed ^ 1,
        ..spec
    })
    .unwrap();
    assert_ne!(
        a.targets(),
        c.targets(),
        "another seed should give another graph"
    );
}

/// Pins the generator's output, so that a change to it (which would change every
/// published benchmark graph) is a deliberate one: FNV-1a of the g.csr bytes.
#[test]
fn output_is_pinned_across_machines_and_versions() {
    let graph = random_graph(&RandomGraphSpec::papers(1000, 1)).unwrap();
    let hash = format::to_bytes(&graph)
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
        });
    assert_eq!(
        hash, PINNED_HASH,
        "the generator's output changed (hash {hash:#018x})"
    );
}

const PINNED_HASH: u64 = 0xf5a7_0349_9686_b4dc;

#[test]
fn every_vertex_gets_degree_predecessors_with_weights_in_range() {
    let mut rng = TestRng::new("every_vertex_gets_degree_predecessors_with_weights_in_range");
    let degree = rng.range(1, 9) as u32;
    let (min_weight, max_weight) = (rng.range(0, 5) as u32, rng.range(5, 12) as u32);
    let spec = RandomGraphSpec {
        num_vertices: CHUNK + 1000,
        degree,
        min_weight,
        max_weight,
        seed: rng.bits(),
    };
    let graph = random_graph(&spec).unwrap();
    assert_eq!(graph.num_edges(), spec.num_vertices * degree as usize);
    let predecessors = graph.transpose();
    let offsets = predecessors.offsets();
    assert!((0..spec.num_vertices).all(|v| offsets[v + 1] - offsets[v] == degree));
    let mut seen = vec![false; (max_weight + 1) as usize];
    for &w in graph.weights() {
        assert!(
            (min_weight..=max_weight).contains(&w),
            "weight {w} outside {min_weight}..={max_weight}"
        );
        seen[w as usize] = true;
    }
    assert!(
        (min_weight..=max_weight).all(|w| seen[w as usize]),
        "every weight in range should occur"
    );
    // Out-degrees vary (successor interpretation of random predecessors).
    let out = graph.offsets();
    let max_out = (0..spec.num_vertices)
        .map(|v| out[v + 1] - out[v])
        .max()
        .unwrap();
    assert!(max_out > degree);
}

#[test]
fn bad_parameters_are_errors() {
    let bad = [
        RandomGraphSpec::papers(0, 1),
        RandomGraphSpec {
            min_weight: 5,
            max_weight: 4,
            ..RandomGraphSpec::papers(10, 1)
        },
        RandomGraphSpec {
            degree: u32::MAX,
            ..RandomGraphSpec::papers(10, 1)
        },
    ];
    for spec in bad {
        assert!(
            matches!(random_graph(&spec), Err(Error::InvalidArgument(_))),
            "{spec:?}"
        );
    }
}
