//! The certificate checked on the GPU after every GPU solve
//! (`sssp::gpu::certificate`): every GPU algorithm behind the front door
//! solves random seeded graphs (zero weights, `f32`, unreachable parts,
//! bounds, trees) with the certificate on and answers the oracle's distances;
//! distances uploaded with one entry corrupted are rejected.

use sssp::algorithms::{Algorithm, Processor};
use sssp::gpu::certificate::{Certificate, PushCheck};
use sssp::gpu::device_graph::DeviceGraph;
use sssp::options::{Device, Stop};
use sssp::{Error, Graph, Query, Solver, oracle};
use sssp_tests::gpu::gpu;
use sssp_tests::{TestRng, exact_algorithms, random_small_f32_graph, random_small_graph};

/// A random graph of up to `max_n` vertices, a third of them `f32`.
fn random_graph(rng: &mut TestRng, max_n: usize) -> Graph<'static> {
    if rng.below(3) == 0 {
        random_small_f32_graph(rng, max_n)
    } else {
        random_small_graph(rng, max_n)
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn every_gpu_algorithm_passes_its_certificate_on_random_graphs() {
    let mut rng = TestRng::new("every_gpu_algorithm_passes_its_certificate_on_random_graphs");
    let solver = Solver::new(Device::Gpu(0)).expect("a CUDA GPU");
    let mut algorithms = exact_algorithms(Processor::Gpu, 0, 0);
    if !algorithms.contains(&Algorithm::Auto) {
        algorithms.push(Algorithm::Auto);
    }
    for case in 0..120 {
        let graph = random_graph(&mut rng, 300);
        let n = graph.num_vertices();
        let source = rng.below(n as u64) as usize;
        let Ok(expected) = oracle::dijkstra(&graph, source) else {
            continue;
        };
        let algo = algorithms[case % algorithms.len()];
        let query = Query::from_sources([source]).algorithm(algo);
        let query = if rng.chance(0.3) {
            query.with_parents()
        } else {
            query
        };
        let context = format!("case {case}, {algo}: {n} vertices, source {source}");
        let solution = solver
            .solve(&graph, &query)
            .unwrap_or_else(|e| panic!("{context}: {e}"));
        assert_eq!(solution.rows[0].dist, expected, "{context}");
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn bounded_solves_pass_their_certificate() {
    let mut rng = TestRng::new("bounded_solves_pass_their_certificate");
    let solver = Solver::new(Device::Gpu(0)).expect("a CUDA GPU");
    let algorithms = exact_algorithms(Processor::Gpu, 0, 0);
    for case in 0..60 {
        let graph = random_small_graph(&mut rng, 300);
        let n = graph.num_vertices();
        let source = rng.below(n as u64) as usize;
        if oracle::dijkstra(&graph, source).is_err() {
            continue;
        }
        let algo = algorithms[case % algorithms.len()];
        let target = rng.below(n as u64) as usize;
        let query = Query::from_sources([source]).algorithm(algo).target(target);
        let context = format!("case {case}, {algo}: source {source}, target {target}");
        solver
            .solve(&graph, &query)
            .unwrap_or_else(|e| panic!("{context}: {e}"));
    }
}

/// A case of the corruption tests: a random graph of up to 400 vertices, a
/// source, the oracle's distances, and the same with vertex `v`'s changed
/// (lowered, raised, or reached and unreached swapped); `None` where the
/// oracle overflows.
struct Corrupted {
    graph: Graph<'static>,
    source: usize,
    dist: Vec<u32>,
    v: usize,
    wrong: Vec<u32>,
}

impl Corrupted {
    fn draw(rng: &mut TestRng) -> Option<Corrupted> {
        let graph = random_graph(rng, 400);
        let n = graph.num_vertices();
        let source = rng.below(n as u64) as usize;
        let dist = oracle::dijkstra(&graph, source).ok()?;
        let mut wrong = dist.clone();
        let v = rng.below(n as u64) as usize;
        wrong[v] = match rng.below(3) {
            0 if dist[v] > 0 && dist[v] != u32::MAX => dist[v] - 1,
            1 if dist[v] < u32::MAX - 2 => dist[v] + 1,
            _ if dist[v] == u32::MAX => 0,
            _ => u32::MAX,
        };
        Some(Corrupted {
            graph,
            source,
            dist,
            v,
            wrong,
        })
    }

    fn context(&self, case: usize) -> String {
        let n = self.graph.num_vertices();
        format!("case {case}: {n} vertices, source {}", self.source)
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn a_corrupted_distance_is_rejected() {
    let mut rng = TestRng::new("a_corrupted_distance_is_rejected");
    let gpu = gpu();
    let mut rejected = 0;
    for case in 0..200 {
        let Some(c) = Corrupted::draw(&mut rng) else {
            continue; // the overflow is the solver's error, tested elsewhere
        };
        let context = c.context(case);
        let mut certificate = Certificate::new(&gpu, &c.graph).expect("the certificate's state");
        let bound = gpu_kernels::distance::INFINITY;
        certificate
            .check(&gpu, c.source, bound, &c.dist)
            .unwrap_or_else(|e| panic!("{context}: the oracle's distances: {e}"));
        match certificate.check(&gpu, c.source, bound, &c.wrong) {
            Err(Error::CertificateFailed { .. }) => rejected += 1,
            other => panic!(
                "{context}: vertex {} changed to {} gave {other:?}",
                c.v, c.wrong[c.v]
            ),
        }
    }
    assert!(rejected > 0);
}

/// The push form on the GPU (over the forward CSR and distances already on
/// the device, as near-far's solves leave them) proves the oracle's
/// distances or leaves them to the tree's rounds, and never proves one entry
/// corrupted: it rejects it, or leaves it to the rounds, whose pull form
/// then rejects it.
#[test]
#[ignore = "needs a CUDA GPU"]
fn the_push_form_never_proves_a_corrupted_distance() {
    let mut rng = TestRng::new("gpu_certificate::push_form");
    let gpu = gpu();
    let mut rejected = 0;
    for case in 0..200 {
        let Some(c) = Corrupted::draw(&mut rng) else {
            continue;
        };
        let context = c.context(case);
        let successors = DeviceGraph::upload(gpu.stream(), &c.graph).expect("the graph");
        let mut push = PushCheck::new(&gpu, c.graph.num_vertices()).expect("the push form's state");
        let upload = |d: &[u32]| gpu.stream().clone_htod(d).expect("the distances");
        let stop = (c.source as u32, Stop::default());
        let proven = push.check(&gpu, &successors, stop, &upload(&c.dist));
        assert!(
            proven.is_ok(),
            "{context}: the oracle's distances: {proven:?}"
        );
        match push.check(&gpu, &successors, stop, &upload(&c.wrong)) {
            Err(Error::CertificateFailed { .. }) => rejected += 1,
            Ok(false) => {}
            other => panic!(
                "{context}: vertex {} changed to {} gave {other:?}",
                c.v, c.wrong[c.v]
            ),
        }
    }
    assert!(rejected > 0);
}
