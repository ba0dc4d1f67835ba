//! `--limit` and `--target` on the GPU where stopping early is hardest: deep
//! graphs (rome99, grids of 300² and more, cut by the partition solver into
//! many pieces, paged too), one solve at a time through the facade, each
//! row against the oracle bounded independently of the solver.

use gpu_kernels::distance::INFINITY;
use sssp::algorithms::Algorithm;
use sssp::formats;
use sssp::generate::{GridSpec, grid_graph};
use sssp::options::{Device, Stop};
use sssp::solver::{Query, Solver};
use sssp::{Graph, oracle};
use sssp_tests::queries::bounded;
use sssp_tests::{TestRng, find_graph};

/// The GPU algorithms that stop early on deep graphs.
const ALGORITHMS: [Algorithm; 6] = [
    Algorithm::Partition,
    Algorithm::PartitionPaged,
    Algorithm::NearFar,
    Algorithm::Fast,
    Algorithm::BfGrid,
    Algorithm::Auto,
];

/// Solves `graph` from a random source with a random limit, a random
/// target, and both, with each algorithm; every row equals the bounded
/// oracle's.
fn check_stops(solver: &Solver, rng: &mut TestRng, graph: &Graph, name: &str) {
    let n = graph.num_vertices() as u64;
    let source = rng.below(n) as usize;
    let full = oracle::dijkstra(graph, source).expect("the oracle solves");
    // A limit around a random reached vertex's distance: part of the graph.
    let reached: Vec<u32> = full.iter().copied().filter(|&d| d != INFINITY).collect();
    let limit = reached[rng.below(reached.len() as u64) as usize];
    let target = rng.below(n) as usize;
    let stops = [
        Stop {
            limit: Some(limit),
            target: None,
        },
        Stop {
            limit: None,
            target: Some(target),
        },
        Stop {
            limit: Some(limit / 2),
            target: Some(target),
        },
    ];
    for stop in stops {
        let expected = bounded(&full, stop);
        for algorithm in ALGORITHMS {
            let context = format!(
                "{name} from {source}, {algorithm}, {stop:?}, seed {}",
                rng.seed
            );
            let mut query = Query::from_sources([source]).algorithm(algorithm);
            if let Some(limit) = stop.limit {
                query = query.limit(limit);
            }
            if let Some(target) = stop.target {
                query = query.target(target);
            }
            let solution = solver
                .solve(graph, &query)
                .unwrap_or_else(|e| panic!("{context}: {e}"));
            let dist = &solution.rows[0].dist;
            if let Some(v) = (0..dist.len()).find(|&v| dist[v] != expected[v]) {
                panic!(
                    "{context}: vertex {v} has {} where the bounded oracle has {}",
                    dist[v], expected[v]
                );
            }
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn limits_and_targets_stop_early_on_deep_graphs_like_the_bounded_oracle() {
    let mut rng = TestRng::new("gpu_early_stop::deep_graphs");
    let solver = Solver::new(Device::Gpu(0)).expect("a CUDA GPU");
    let rome = formats::load(find_graph("rome99.gr"), None)
        .and_then(|loaded| loaded.into_graph())
        .expect("rome99");
    for _ in 0..3 {
        check_stops(&solver, &mut rng, &rome, "rome99");
    }
    for (width, height) in [(300, 300), (1000, 600)] {
        let grid = grid_graph(&GridSpec::new(width, height, rng.bits())).expect("a grid");
        check_stops(&solver, &mut rng, &grid, &format!("grid {width}×{height}"));
    }
}
