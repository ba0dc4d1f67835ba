//! CCH customization on the GPU: on fresh random graphs and grids, with
//! random weights (zero weights, one-way arcs, unreachable parts), the GPU's
//! customized hierarchy equals the CPU's word for word (with a thread an
//! arc, a warp an arc, and the choice per level), re-customization of the
//! same uploaded CCH with other weights too, and GPU PHAST trees from it
//! equal the Dijkstra oracle's. Needs a CUDA GPU.

use sssp::cch::Cch;
use sssp::ch::Hierarchy;
use sssp::generate::{GridSpec, grid_graph};
use sssp::gpu::cch::{ArcTeams, GpuCustomizer};
use sssp::gpu::context::Gpu;
use sssp::gpu::phast::GpuPhast;
use sssp::{Graph, oracle};
use sssp_tests::gpu::gpu;
use sssp_tests::{TestRng, random_graph};

/// `graph`'s arcs with fresh weights in `0..=max_weight`, each kept with
/// probability `keep`.
fn reweighted(rng: &mut TestRng, graph: &Graph, max_weight: u32, keep: f64) -> Graph<'static> {
    let mut edges = Vec::new();
    for u in 0..graph.num_vertices() {
        for (v, _) in graph.csr().edges(u) {
            if rng.chance(keep) {
                edges.push((u as u32, v as u32, rng.range(0, max_weight as u64) as u32));
            }
        }
    }
    Graph::from_edges(graph.num_vertices(), &edges).expect("a valid graph")
}

/// The GPU customization of `graph` equals the CPU's, and GPU trees from
/// several sources equal the oracle's.
fn check(
    gpu: &Gpu,
    customizer: &mut GpuCustomizer,
    cch: &Cch,
    graph: &Graph,
    rng: &mut TestRng,
    context: &str,
) {
    let on_cpu = cch.customize(graph).expect("CPU customization");
    let mut on_gpu: Option<Hierarchy> = None;
    for teams in [ArcTeams::Threads, ArcTeams::Warps, ArcTeams::Auto] {
        customizer.set_teams(teams);
        let customized = customizer.customize(graph).expect("GPU customization");
        assert_eq!(
            customized, on_cpu,
            "{context}: the GPU ({teams:?}) and CPU customizations differ"
        );
        on_gpu = Some(customized);
    }
    let on_gpu = on_gpu.expect("customized");
    let n = graph.num_vertices();
    let sources: Vec<usize> = (0..4).map(|_| rng.below(n as u64) as usize).collect();
    let mut phast = GpuPhast::new(gpu, &on_gpu, 4).expect("PHAST");
    phast.run(&on_gpu, &sources).expect("sweep");
    let trees = phast.download(sources.len()).expect("download");
    for (tree, &s) in trees.iter().zip(&sources) {
        let expected = oracle::dijkstra(graph, s).expect("oracle");
        assert_eq!(tree, &expected, "{context}: tree of source {s}");
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn gpu_customization_equals_the_cpu_one_on_random_graphs() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_cch_random_graphs");
    for case in 0..60 {
        let n = rng.range(1, 200) as usize;
        let m = rng.below((n * 3) as u64 + 1) as usize;
        let max_weight = [0u32, 1, 10, 1000][rng.below(4) as usize];
        let mut graph = random_graph(&mut rng, n, m, max_weight);
        if rng.chance(0.4) {
            graph = graph.undirected().expect("undirected");
        }
        let cch = Cch::build(&graph).expect("build");
        let mut customizer = GpuCustomizer::new(&gpu, &cch).expect("upload");
        let context = format!("case {case} (n {n}, m {m}, seed {})", rng.seed);
        check(&gpu, &mut customizer, &cch, &graph, &mut rng, &context);
        for round in 0..2 {
            let max_weight = [0, 7, 500][rng.below(3) as usize];
            let other = reweighted(&mut rng, &graph, max_weight, [1.0, 0.7][round]);
            let context = format!("{context}, weights {round}");
            check(&gpu, &mut customizer, &cch, &other, &mut rng, &context);
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn gpu_customization_equals_the_cpu_one_on_grids() {
    let gpu = gpu();
    let mut rng = TestRng::new("gpu_cch_grids");
    for case in 0..3 {
        let (width, height) = (rng.range(50, 300) as usize, rng.range(50, 300) as usize);
        let graph = grid_graph(&GridSpec::new(width, height, rng.bits())).expect("grid");
        let cch = Cch::build(&graph).expect("build");
        let mut customizer = GpuCustomizer::new(&gpu, &cch).expect("upload");
        let context = format!("grid {width}×{height}, case {case}, seed {}", rng.seed);
        check(&gpu, &mut customizer, &cch, &graph, &mut rng, &context);
        let one_way = reweighted(&mut rng, &graph, 100, 0.85);
        check(&gpu, &mut customizer, &cch, &one_way, &mut rng, &context);
    }
}
