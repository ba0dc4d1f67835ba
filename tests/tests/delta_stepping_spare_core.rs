//! `delta-cpu` in rayon's global pool at its default size, the one case in
//! which it leaves a core free (`threads_for_pool`) and takes fewer threads
//! for a small graph (`EDGES_PER_THREAD`). Its own test binary, since the
//! global pool is built once per process: here with 12 threads, whatever the
//! machine has, so that CI's two cores take this path.

use sssp::cpu::delta_stepping::{
    EDGES_PER_THREAD, SPARE_CORE_FROM, delta_stepping, threads_for_pool,
};
use sssp::options::Stop;
use sssp::oracle;
use sssp_tests::{TestRng, check_against_oracle, random_graph, random_small_graph};

const POOL: usize = 12;

#[test]
fn a_default_global_pool_leaves_a_core_free_and_matches_the_oracle() {
    // SAFETY: the only test of this binary, run before any thread of its own
    // reads the environment; rayon reads it when the pool below is built.
    unsafe { std::env::remove_var("RAYON_NUM_THREADS") };
    rayon::ThreadPoolBuilder::new()
        .num_threads(POOL)
        .build_global()
        .expect("the global pool, built once");
    const { assert!(POOL >= SPARE_CORE_FROM) };
    assert_eq!(rayon::current_num_threads(), POOL);
    assert_eq!(threads_for_pool(POOL, false), POOL - 1);
    let mut rng = TestRng::new("a_default_global_pool_leaves_a_core_free_and_matches_the_oracle");
    for round in 0..60 {
        // Large enough for all 11 threads, then for fewer, then for one.
        let graph = if round % 10 == 0 {
            random_graph(&mut rng, 60_000, 11 * EDGES_PER_THREAD, 100)
        } else if round % 3 == 0 {
            random_graph(&mut rng, 5_000, 3 * EDGES_PER_THREAD, 100)
        } else {
            random_small_graph(&mut rng, 80)
        };
        let source = rng.below(graph.num_vertices() as u64) as usize;
        check_against_oracle(
            &oracle::dijkstra(&graph, source),
            delta_stepping(&graph, source, None, Stop::default()).map(|r| (r.dist, r.rounds)),
            &format!("round {round}, source {source}, seed {}", rng.seed),
        );
    }
}
