//! The check behind `--verify` and the bench's verdict must be able to fail:
//! `distances::compare` reports a wrong row (a word off, a reached vertex
//! unreached, an unreached one reached, a short row), with the first
//! differing vertex and the count.

use gpu_kernels::distance::INFINITY;
use sssp::graph::WeightKind;
use sssp::{Error, distances, oracle};
use sssp_tests::{TestRng, random_graph};

#[test]
fn compare_reports_every_kind_of_wrong_row() {
    let mut rng = TestRng::new("verify_fails::compare_reports_every_kind_of_wrong_row");
    for case in 0..20 {
        let n = rng.range(2, 2_000) as usize;
        let graph = random_graph(&mut rng, n, 4 * n, 1_000);
        let source = rng.below(n as u64) as usize;
        let expected = oracle::dijkstra(&graph, source).expect("oracle");
        let context = format!("case {case}, n {n}, seed {}", rng.seed);
        assert!(
            distances::compare(WeightKind::U32, &expected, &expected).is_ok(),
            "{context}: the oracle's own row"
        );
        // One word off by one, one reached vertex marked unreached, or an
        // unreached one given a distance: each is a mismatch at that vertex.
        let mut wrong = expected.clone();
        let vertex = rng.below(n as u64) as usize;
        wrong[vertex] = match wrong[vertex] {
            INFINITY => 7,
            d if rng.chance(0.5) => d.wrapping_add(1).min(INFINITY - 1),
            _ => INFINITY,
        };
        if wrong[vertex] == expected[vertex] {
            wrong[vertex] = expected[vertex].wrapping_sub(1);
        }
        match distances::compare(WeightKind::U32, &expected, &wrong) {
            Err(Error::Mismatch {
                vertex: first,
                count,
                num_vertices,
                ..
            }) => {
                assert_eq!(first, vertex, "{context}");
                assert_eq!(count, 1, "{context}");
                assert_eq!(num_vertices, n, "{context}");
            }
            other => panic!("{context}: a wrong row compared as {other:?}"),
        }
        // A row of the wrong length.
        let short = &expected[..n - 1];
        assert!(
            matches!(
                distances::compare(WeightKind::U32, &expected, short),
                Err(Error::Mismatch { .. })
            ),
            "{context}: a short row"
        );
    }
}
