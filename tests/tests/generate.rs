//! The papers' random graph generator: determinism and the shape of its output.

use sssp::Error;
use sssp::formats::csr;
use sssp::generate::{CHUNK, RandomGraphSpec, random_graph};
use sssp::graph::WeightKind;
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
        weight_kind: WeightKind::U32,
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
    let hash = csr::to_bytes(&graph)
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
        weight_kind: WeightKind::U32,
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

/// The `f32` graph of a seed: the edges of the `u32` graph of that seed, with
/// reals in `[min, max)` spread over the whole range; pinned like the `u32`
/// one, and solvable (the oracle within rounding of the `f64` one).
#[test]
fn f32_weights_are_uniform_reals_on_the_edges_of_the_u32_graph() {
    let mut rng = TestRng::new("f32_weights_are_uniform_reals_on_the_edges_of_the_u32_graph");
    let (min_weight, max_weight) = (rng.range(0, 5) as u32, rng.range(6, 12) as u32);
    let spec = RandomGraphSpec {
        num_vertices: CHUNK + 1000,
        degree: 3,
        min_weight,
        max_weight,
        seed: rng.bits(),
        weight_kind: WeightKind::F32,
    };
    let real = random_graph(&spec).unwrap();
    let integer = random_graph(&RandomGraphSpec {
        weight_kind: WeightKind::U32,
        ..spec
    })
    .unwrap();
    assert_eq!(real.weight_kind(), WeightKind::F32);
    assert_eq!(real.offsets(), integer.offsets());
    assert_eq!(real.targets(), integer.targets());
    let values: Vec<f32> = real.weights().iter().map(|&w| f32::from_bits(w)).collect();
    let (lo, hi) = (min_weight as f32, max_weight as f32);
    assert!(
        values.iter().all(|&w| lo <= w && w < hi),
        "a weight outside [{lo}, {hi})"
    );
    // Uniform: each tenth of the range holds about a tenth of the weights,
    // and most weights are not integers.
    let mut tenths = [0usize; 10];
    for &w in &values {
        tenths[((((w - lo) / (hi - lo)) * 10.0) as usize).min(9)] += 1;
    }
    let expected = values.len() / 10;
    for (k, &count) in tenths.iter().enumerate() {
        assert!(
            count.abs_diff(expected) < expected / 10,
            "tenth {k} of [{lo}, {hi}) holds {count} weights, expected about {expected}"
        );
    }
    let integers = values.iter().filter(|w| w.fract() == 0.0).count();
    assert!(integers < values.len() / 1000, "{integers} integer weights");
    // Same seed, same graph; it solves.
    assert_eq!(random_graph(&spec).unwrap(), real);
    let dist = oracle::dijkstra(&real, 0).unwrap();
    oracle::check_f32_against_f64(&real, 0, &dist).unwrap();
    // Pinned, like the u32 generator.
    let pinned = random_graph(&RandomGraphSpec {
        weight_kind: WeightKind::F32,
        ..RandomGraphSpec::papers(1000, 1)
    })
    .unwrap();
    assert_eq!(
        fnv1a(&csr::to_bytes(&pinned)),
        PINNED_F32_HASH,
        "the f32 generator's output changed"
    );
    // Equal bounds give that one weight.
    let flat = random_graph(&RandomGraphSpec {
        min_weight: 3,
        max_weight: 3,
        weight_kind: WeightKind::F32,
        ..RandomGraphSpec::papers(100, 1)
    })
    .unwrap();
    assert!(flat.weights().iter().all(|&w| w == 3.0f32.to_bits()));
}

const PINNED_F32_HASH: u64 = 0xfcb3_2f06_e0ae_2965;

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

// 2-D grids with random weights (road-network stand-ins).

use sssp::generate::{GridSpec, grid_graph};
use sssp::oracle;

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The neighbors of `(x, y)` in a `w` × `h` grid in the generator's order (up,
/// left, right, down: increasing ids), as row-major ids.
fn grid_neighbors(w: usize, h: usize, x: usize, y: usize) -> Vec<usize> {
    let mut out = Vec::new();
    if y > 0 {
        out.push((y - 1) * w + x);
    }
    if x > 0 {
        out.push(y * w + x - 1);
    }
    if x + 1 < w {
        out.push(y * w + x + 1);
    }
    if y + 1 < h {
        out.push((y + 1) * w + x);
    }
    out
}

#[test]
fn grid_has_the_exact_4_neighbor_structure_in_row_major_order() {
    let mut rng = TestRng::new("grid_has_the_exact_4_neighbor_structure_in_row_major_order");
    let random_side = rng.range(2, 400) as usize;
    for (w, h) in [
        (1, 1),
        (1, 6),
        (6, 1),
        (2, 2),
        (5, 4),
        (700, 100), // several chunks, boundaries inside rows
        (random_side, CHUNK / random_side + 3),
    ] {
        let spec = GridSpec {
            width: w,
            height: h,
            min_weight: 1,
            max_weight: 100,
            seed: rng.bits(),
        };
        let graph = grid_graph(&spec).unwrap();
        let context = format!("{w} × {h}, seed {}", spec.seed);
        assert_eq!(graph.num_vertices(), w * h, "{context}");
        assert_eq!(graph.num_edges() as u64, spec.num_edges(), "{context}");
        assert_eq!(graph.num_edges(), 4 * w * h - 2 * w - 2 * h, "{context}");
        let csr = graph.csr();
        for y in 0..h {
            for x in 0..w {
                let v = y * w + x;
                let found: Vec<usize> = csr.edges(v).map(|(t, _)| t).collect();
                assert_eq!(found, grid_neighbors(w, h, x, y), "{context}: ({x}, {y})");
                if w >= 2 && h >= 2 {
                    let border = (x == 0 || x == w - 1) as usize + (y == 0 || y == h - 1) as usize;
                    assert_eq!(found.len(), 4 - border, "{context}: ({x}, {y})");
                }
            }
        }
        // Every edge has its reverse.
        let mut forward: Vec<(usize, usize)> = (0..w * h)
            .flat_map(|u| csr.edges(u).map(move |(v, _)| (u, v)))
            .collect();
        let mut backward: Vec<(usize, usize)> = forward.iter().map(|&(u, v)| (v, u)).collect();
        forward.sort_unstable();
        backward.sort_unstable();
        assert_eq!(forward, backward, "{context}");
    }
}

#[test]
fn grid_weights_are_in_range_and_independent_per_direction() {
    let mut rng = TestRng::new("grid_weights_are_in_range_and_independent_per_direction");
    // `range` is inclusive: keep min < max so the two directions can differ.
    let (min_weight, max_weight) = (rng.range(0, 4) as u32, rng.range(5, 12) as u32);
    let spec = GridSpec {
        width: 300,
        height: 200,
        min_weight,
        max_weight,
        seed: rng.bits(),
    };
    let graph = grid_graph(&spec).unwrap();
    let mut seen = vec![false; max_weight as usize + 1];
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
    // The two directions of a pair draw their own weights.
    let csr = graph.csr();
    let weight = |u: usize, v: usize| csr.edges(u).find(|&(t, _)| t == v).unwrap().1;
    let differing = (0..spec.width - 1)
        .filter(|&x| weight(x, x + 1) != weight(x + 1, x))
        .count();
    assert!(differing > 0, "directions should differ somewhere");
    // Degenerate ranges: one weight, and the whole u32 range.
    for (lo, hi) in [(7, 7), (0, u32::MAX)] {
        let graph = grid_graph(&GridSpec {
            min_weight: lo,
            max_weight: hi,
            ..GridSpec::new(20, 30, spec.seed)
        })
        .unwrap();
        assert!(graph.weights().iter().all(|w| (lo..=hi).contains(w)));
        if lo == hi {
            assert!(graph.weights().iter().all(|&w| w == lo));
        }
    }
}

#[test]
fn grid_is_deterministic_for_a_seed() {
    let mut rng = TestRng::new("grid_is_deterministic_for_a_seed");
    let spec = GridSpec {
        width: 513,
        height: 257, // 131841 vertices: three chunks
        min_weight: 1,
        max_weight: 1000,
        seed: rng.bits(),
    };
    let a = grid_graph(&spec).unwrap();
    assert_eq!(a, grid_graph(&spec).unwrap());
    let b = grid_graph(&GridSpec {
        seed: spec.seed ^ 1,
        ..spec
    })
    .unwrap();
    assert_eq!(a.offsets(), b.offsets());
    assert_eq!(a.targets(), b.targets());
    assert_ne!(
        a.weights(),
        b.weights(),
        "another seed should give other weights"
    );
}

/// Pins the grid generator's output like the random graph's above: FNV-1a of
/// the g.csr bytes of a small grid and of one that spans several chunks.
#[test]
fn grid_output_is_pinned_across_machines_and_versions() {
    for (width, height, pinned) in [(7, 5, GRID_PINNED_SMALL), (300, 300, GRID_PINNED_CHUNKS)] {
        let spec = GridSpec {
            width,
            height,
            min_weight: 1,
            max_weight: 100,
            seed: 1,
        };
        let hash = fnv1a(&csr::to_bytes(&grid_graph(&spec).unwrap()));
        assert_eq!(
            hash, pinned,
            "the grid generator's output changed for {width} × {height} (hash {hash:#018x})"
        );
    }
}

const GRID_PINNED_SMALL: u64 = 0xec31_727c_8c22_d2e6;
const GRID_PINNED_CHUNKS: u64 = 0x3341_aa42_420d_573c;

#[test]
fn bad_grid_parameters_are_errors() {
    let bad = [
        GridSpec::new(0, 5, 1),
        GridSpec::new(5, 0, 1),
        GridSpec::new(0, 0, 1),
        // More than u32::MAX − 1 vertices.
        GridSpec::new(u32::MAX as usize, 1, 1),
        GridSpec::new(1 << 16, 1 << 16, 1),
        GridSpec::new(usize::MAX, 2, 1),
        // Few enough vertices (2^31), too many edges (about 2^33).
        GridSpec::new(1 << 16, 1 << 15, 1),
        GridSpec {
            min_weight: 5,
            max_weight: 4,
            ..GridSpec::new(3, 3, 1)
        },
    ];
    for spec in bad {
        assert!(
            matches!(grid_graph(&spec), Err(Error::InvalidArgument(_))),
            "{spec:?}"
        );
    }
}

#[test]
fn grid_distances_are_bounded_by_manhattan_distance_times_the_weights() {
    let mut rng =
        TestRng::new("grid_distances_are_bounded_by_manhattan_distance_times_the_weights");
    let (w, h) = (rng.range(1, 120) as usize, rng.range(1, 120) as usize);
    let (min_weight, max_weight) = (rng.range(0, 10) as u32, rng.range(10, 100) as u32);
    let spec = GridSpec {
        width: w,
        height: h,
        min_weight,
        max_weight,
        seed: rng.bits(),
    };
    let graph = grid_graph(&spec).unwrap();
    for source in [0, rng.below((w * h) as u64) as usize] {
        let dist = oracle::dijkstra(&graph, source).unwrap();
        let (sx, sy) = (source % w, source / w);
        for (v, &d) in dist.iter().enumerate() {
            let manhattan = ((v % w).abs_diff(sx) + (v / w).abs_diff(sy)) as u32;
            assert!(
                manhattan * min_weight <= d && d <= manhattan * max_weight,
                "{w} × {h}, source {source}, vertex {v}: distance {d}, manhattan {manhattan}, \
                 weights {min_weight}..={max_weight}, seed {}",
                spec.seed
            );
        }
    }
}
