//! GPU overflow detection where the work is spread out: grids of 300² and
//! more (the partition solver's many pieces, resident and paged) and wide
//! random graphs (many blocks in near-far's and the grid loops' rounds), with
//! weights so large that the far vertices' distances do not fit a `u32`
//! word. Every exact GPU algorithm (on the deep grids those whose rounds
//! follow the hops, not the distinct distances), and the solver facade's
//! `auto`, reports the oracle's overflow (its first vertex and count), never
//! a wrapped distance.

use sssp::algorithms::{Algorithm, Family, Processor};
use sssp::generate::{GridSpec, grid_graph};
use sssp::options::{Device, Tuning};
use sssp::solver::{Query, Solver};
use sssp::{Error, Graph, oracle};
use sssp_tests::gpu::{gpu, solve};
use sssp_tests::{TestRng, check_against_oracle, exact_algorithms, random_graph_weighted};

/// A `width × height` grid with weights in `min..=max`.
fn heavy_grid(
    rng: &mut TestRng,
    (width, height): (usize, usize),
    min: u32,
    max: u32,
) -> Graph<'static> {
    let mut spec = GridSpec::new(width, height, rng.bits());
    (spec.min_weight, spec.max_weight) = (min, max);
    grid_graph(&spec).expect("a grid")
}

/// Every exact GPU algorithm (with `deep`, those whose rounds do not follow
/// the distinct distances) and the facade's `auto` from `source` give the
/// oracle's result, which must be an overflow.
fn check_overflow(graph: &Graph, source: usize, deep: bool, context: &str) {
    let expected = oracle::dijkstra(graph, source);
    assert!(
        matches!(expected, Err(Error::DistanceOverflow { .. })),
        "{context}: the graph was meant to overflow"
    );
    let gpu = gpu();
    let algorithms = exact_algorithms(Processor::Gpu, graph.num_vertices(), 0);
    // On a deep grid with weights this large nearly every distance is
    // distinct, and the DA2CF family runs one iteration per distinct
    // distance: minutes a solve. Their overflow is checked on the wide
    // random graphs, a few hops deep.
    let rounds_by_hops = |a: &Algorithm| {
        matches!(
            a.spec().family,
            Family::BellmanFord(_) | Family::NearFar | Family::Partition(_)
        )
    };
    for algo in algorithms
        .into_iter()
        .filter(|a| !deep || rounds_by_hops(a))
    {
        let result = solve(&gpu, algo, graph, source, Tuning::default());
        check_against_oracle(&expected, result, &format!("{context}, {algo}"));
    }
    let solver = Solver::new(Device::Gpu(0)).expect("a CUDA GPU");
    for algo in [Algorithm::Auto, Algorithm::Partition, Algorithm::NearFar] {
        let query = Query::from_sources([source]).algorithm(algo);
        let result = solver
            .solve(graph, &query)
            .map(|mut solution| (solution.rows.remove(0).dist, ()));
        check_against_oracle(&expected, result, &format!("{context}, solver {algo}"));
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn deep_grids_overflow_like_the_oracle() {
    let mut rng = TestRng::new("gpu_overflow::deep_grids");
    // From a corner, 598 hops of at least 2^23 exceed 2^32 at the far corner
    // of a 300² grid (weights up to 2^24 make the overflow start midway);
    // from the centre, 299 hops of at least 2^24 do at the corners.
    let cases = [
        ((300, 300), 0, 23),
        ((700, 500), 0, 23),
        ((300, 300), 149 * 300 + 150, 24),
    ];
    for (side, source, shift) in cases {
        let graph = heavy_grid(&mut rng, side, 1 << shift, 2 << shift);
        let context = format!(
            "grid {}×{} from {source}, seed {}",
            side.0, side.1, rng.seed
        );
        check_overflow(&graph, source, true, &context);
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn wide_random_graphs_overflow_like_the_oracle() {
    let mut rng = TestRng::new("gpu_overflow::wide_random");
    for round in 0..3 {
        let n = rng.range(100_000, 300_000) as usize;
        // Frontiers of tens of thousands of vertices; four hops of 2^30
        // overflow, so most vertices do and those near the source do not.
        let graph = random_graph_weighted(&mut rng, n, 6 * n, (1 << 30)..=(1 << 31));
        // A source that reaches beyond three hops (almost any does).
        let source = (0..100)
            .map(|_| rng.below(n as u64) as usize)
            .find(|&s| oracle::dijkstra(&graph, s).is_err())
            .expect("a source whose distances overflow");
        let context = format!("round {round}, n {n}, source {source}, seed {}", rng.seed);
        check_overflow(&graph, source, false, &context);
    }
}
