//! One test body for the library facade (`sssp::solver`), run on the CPU and
//! on the GPU: random graphs with unreachable parts and zero weights, several
//! sources (repeats included), limits, targets and trees, every row compared
//! with the oracle bounded independently of `Stop::apply`.

use gpu_kernels::distance::INFINITY;
use sssp::algorithms::Algorithm;
use sssp::options::Stop;
use sssp::solver::{Query, Solver};

use crate::{TestRng, check_tree, random_graph};

/// The oracle's distances from `source`, bounded as a query's stop says:
/// written out here, not through `Stop`, so that the facade is checked
/// against an independent reading of the contract.
pub fn bounded_oracle(graph: &sssp::Graph, source: usize, stop: Stop) -> Vec<u32> {
    let full = sssp::oracle::dijkstra(graph, source).expect("the oracle solves");
    bounded(&full, stop)
}

/// Complete distances `full` bounded as `stop` says, the same way: no
/// farther than the limit, nor than the target.
pub fn bounded(full: &[u32], stop: Stop) -> Vec<u32> {
    let limit = stop.limit.unwrap_or(INFINITY);
    let bound = stop.target.map_or(limit, |t| limit.min(full[t]));
    full.iter()
        .map(|&d| if d <= bound { d } else { INFINITY })
        .collect()
}

/// A random graph, sources and stop, and their description for messages.
pub struct RandomQuery {
    /// The graph.
    pub graph: sssp::Graph<'static>,
    /// The sources, in the order solved.
    pub sources: Vec<usize>,
    /// The stop.
    pub stop: Stop,
    /// All of it in words, for failure messages.
    pub about: String,
}

/// A graph of `min_n..max_n` vertices, from empty (every vertex but the
/// source unreachable) to dense, weights up to 0, 1, 5 or 100; up to
/// `max_sources` sources (repeats possible); a limit and a target each
/// with chance 0.4.
pub fn random_query(
    rng: &mut TestRng,
    (min_n, max_n): (usize, usize),
    max_sources: u64,
) -> RandomQuery {
    let n = rng.range(min_n as u64, max_n as u64) as usize;
    let m = rng.below(4 * n as u64 + 1) as usize;
    let max_weight = [0u32, 1, 5, 100][rng.below(4) as usize];
    let graph = random_graph(rng, n, m, max_weight);
    let sources: Vec<usize> = (0..rng.range(1, max_sources))
        .map(|_| rng.below(n as u64) as usize)
        .collect();
    let stop = Stop {
        limit: rng
            .chance(0.4)
            .then(|| rng.below(3 * max_weight as u64 + 2) as u32),
        target: rng.chance(0.4).then(|| rng.below(n as u64) as usize),
    };
    let about =
        format!("n = {n}, m = {m}, weights 0..={max_weight}, sources {sources:?}, {stop:?}");
    RandomQuery {
        graph,
        sources,
        stop,
        about,
    }
}

/// Solves random queries with each of `algorithms` on `solver` and checks
/// every distance and tree; `rounds` graphs of up to `max_n` vertices, up to
/// `max_sources` sources each, solved on `streams` GPU streams at once
/// (`Query::streams`).
pub fn check_random_queries(
    solver: &Solver,
    algorithms: &[Algorithm],
    rng: &mut TestRng,
    (rounds, max_n): (usize, usize),
    (max_sources, streams): (u64, usize),
) {
    for round in 0..rounds {
        let RandomQuery {
            graph,
            sources,
            stop,
            about,
        } = random_query(rng, (1, max_n), max_sources);
        let n = graph.num_vertices();
        for &algorithm in algorithms {
            let context = format!(
                "round {round}, {algorithm}, {about}, {streams} streams, seed {}",
                rng.seed
            );
            let mut query = Query::from_sources(sources.clone())
                .algorithm(algorithm)
                .streams(streams);
            query.stop = stop;
            query.parents = true;
            let solution = solver
                .solve(&graph, &query)
                .unwrap_or_else(|e| panic!("{context}: {e}"));
            assert_eq!(solution.rows.len(), sources.len(), "{context}: rows");
            for (row, &source) in solution.rows.iter().zip(&sources) {
                assert_eq!(row.source, source, "{context}: row order");
                let expected = bounded_oracle(&graph, source, stop);
                if let Some(v) = (0..n).find(|&v| row.dist[v] != expected[v]) {
                    panic!(
                        "{context}: from {source}, vertex {v}: expected {}, got {}",
                        expected[v], row.dist[v]
                    );
                }
                let tree = row.parents.as_deref().expect("parents were asked for");
                check_tree(&graph, source, &expected, tree, &context);
                assert!(!row.times_ms.is_empty(), "{context}: no time");
            }
        }
    }
}

/// Solves batches of random sources with each of `algorithms` through
/// [`sssp::solver::Prepared::solve_rows`] and checks that every row arrives
/// once, in order, equal to the bounded oracle; `rounds` graphs of up to
/// `max_n` vertices (at least `min_n`), up to `max_sources` sources each.
pub fn check_random_row_batches(
    solver: &Solver,
    algorithms: &[Algorithm],
    rng: &mut TestRng,
    (rounds, min_n, max_n): (usize, usize, usize),
    max_sources: u64,
) {
    for round in 0..rounds {
        let query = random_query(rng, (min_n, max_n), max_sources);
        let (graph, sources, stop) = (&query.graph, &query.sources, query.stop);
        for &algorithm in algorithms {
            let context = format!(
                "round {round}, {algorithm}, {}, seed {}",
                query.about, rng.seed
            );
            check_row_batch(solver, graph, algorithm, (sources, stop), &context);
        }
    }
}

/// Solves from `sources` within `stop` with `algorithm` through
/// [`sssp::solver::Prepared::solve_rows`], twice on one prepared solver
/// (the second batch reuses what the first made), and checks that every
/// row arrives once, in order, equal to the bounded oracle.
pub fn check_row_batch(
    solver: &Solver,
    graph: &sssp::Graph,
    algorithm: Algorithm,
    (sources, stop): (&[usize], Stop),
    context: &str,
) {
    let n = graph.num_vertices();
    let expected: Vec<Vec<u32>> = sources
        .iter()
        .map(|&s| bounded_oracle(graph, s, stop))
        .collect();
    let mut prepared = solver
        .prepare(graph, algorithm, Default::default(), sources[0])
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    for batch in 0..2 {
        let mut next = 0;
        prepared
            .solve_rows(sources, stop, &mut |i, row| {
                assert_eq!(i, next, "{context}, batch {batch}: row order");
                next += 1;
                assert_eq!(row.len(), n, "{context}: row length");
                if let Some(v) = (0..n).find(|&v| row[v] != expected[i][v]) {
                    panic!(
                        "{context}, batch {batch}: from {}, vertex {v}: expected {}, got {}",
                        sources[i], expected[i][v], row[v]
                    );
                }
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{context}: {e}"));
        assert_eq!(next, sources.len(), "{context}, batch {batch}: rows");
    }
}

/// `path` runs from `s` to `t` over arcs of `graph` (the lightest of each
/// pair) whose weights sum to `d`.
pub fn check_path(
    graph: &sssp::Graph,
    path: &[usize],
    (s, t): (usize, usize),
    d: u32,
    context: &str,
) {
    assert_eq!(path.first(), Some(&s), "{context}: path starts at {s}");
    assert_eq!(path.last(), Some(&t), "{context}: path ends at {t}");
    let csr = graph.csr();
    let mut sum = 0u64;
    for arc in path.windows(2) {
        let w = csr
            .edges(arc[0])
            .filter(|&(v, _)| v == arc[1])
            .map(|(_, w)| w)
            .min()
            .unwrap_or_else(|| panic!("{context}: path uses a missing arc {arc:?}"));
        sum += w as u64;
    }
    assert_eq!(
        sum, d as u64,
        "{context}: path {s} → {t} has the wrong length"
    );
}
