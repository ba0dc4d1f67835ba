//! `distances::certify`, the linear-time check behind `--certify`: it accepts
//! the oracle's distances and rejects every kind of wrong vector.

use gpu_kernels::distance::INFINITY;
use sssp::distances::certify;
use sssp::{Error, Graph, oracle};
use sssp_tests::{TestRng, random_graph_weighted};

#[test]
fn certify_accepts_the_oracle_and_rejects_any_change() {
    let mut rng = TestRng::new("certify_accepts_the_oracle_and_rejects_any_change");
    for case in 0..300 {
        let n = rng.range(1, 300) as usize;
        let m = rng.range(0, 4 * n as u64) as usize;
        let max_weight = [1u32, 3, 1000][rng.below(3) as usize];
        // Weights 1..=max_weight: the certificate needs positive weights.
        let graph = random_graph_weighted(&mut rng, n, m, 1..=max_weight);
        let source = rng.below(n as u64) as usize;
        let context = format!("case {case}, n = {n}, m = {m}, seed {}", rng.seed);
        let dist = oracle::dijkstra(&graph, source).unwrap();
        certify(&graph, source, &dist).unwrap_or_else(|e| panic!("{context}: {e}"));
        let v = rng.below(n as u64) as usize;
        let mut wrong = dist.clone();
        wrong[v] = match dist[v] {
            INFINITY => rng.below(10) as u32,
            0 => 1,
            d if rng.chance(0.5) => d - 1,
            d => d + 1,
        };
        assert!(
            matches!(certify(&graph, source, &wrong), Err(Error::Mismatch { .. })),
            "{context}: vertex {v} changed from {} to {} was accepted",
            dist[v],
            wrong[v]
        );
        if dist[v] != INFINITY && v != source {
            let mut unreached = dist.clone();
            unreached[v] = INFINITY;
            assert!(certify(&graph, source, &unreached).is_err(), "{context}");
        }
    }
}

#[test]
fn certify_refuses_zero_weights_and_wrong_lengths() {
    let graph = Graph::from_edges(3, &[(0, 1, 0), (1, 2, 4)]).unwrap();
    let dist = oracle::dijkstra(&graph, 0).unwrap();
    assert!(matches!(
        certify(&graph, 0, &dist),
        Err(Error::InvalidArgument(_))
    ));
    let graph = Graph::from_edges(3, &[(0, 1, 2), (1, 2, 4)]).unwrap();
    assert!(matches!(
        certify(&graph, 0, &[0, 2]),
        Err(Error::InvalidArgument(_))
    ));
    assert!(certify(&graph, 0, &[0, 2, 6]).is_ok());
    assert!(certify(&graph, 0, &[0, 2, 5]).is_err());
    assert!(certify(&graph, 3, &[0, 2, 6]).is_err());
}
