//! Streamed trees and the reductions over an index's trees on the GPU,
//! against the CPU sweep and the oracle: random graphs, a few hundred
//! sources (several batches of lanes), every row and value compared.
//! Values are small integers, so sums are exact in any order.
//! Ignored unless run with `--include-ignored` on a machine with a CUDA GPU.

use sssp::ch::{self, BuildOptions, Values};
use sssp::options::Stop;
use sssp::{Graph, Solver};
use sssp_tests::reductions::{check_nearest, check_within, random_sources_and_trees};
use sssp_tests::{TestRng, random_graph};

fn index_of(graph: &Graph) -> ch::Hierarchy {
    let options = BuildOptions {
        max_core_ratio: usize::MAX,
        ..BuildOptions::default()
    };
    ch::build(graph, &options).expect("build")
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn gpu_streamed_trees_and_reductions_match_the_oracle() {
    let solver = Solver::new(sssp::Device::Gpu(0)).expect("a GPU");
    let mut rng = TestRng::new("gpu_reductions");
    for case in 0..12 {
        let n = rng.range(50, 600) as usize;
        let graph = random_graph(&mut rng, n, 3 * n, 1000);
        let h = index_of(&graph);
        let k = rng.range(100, 400) as usize;
        let (sources, expected) = random_sources_and_trees(&mut rng, &graph, k);
        let lanes = [32, 64, 100, 256][rng.below(4) as usize];
        let mut trees = solver.index_trees(&h, Some(lanes)).expect("trees");
        assert!(trees.gpu_shape().is_some(), "case {case}: on the GPU");
        let limit = rng.below(3000) as u32;
        let target = rng.below(n as u64) as usize;
        let stop = [
            Stop::default(),
            Stop {
                limit: Some(limit),
                target: None,
            },
            Stop {
                limit: None,
                target: Some(target),
            },
        ][case % 3];
        for _pass in 0..2 {
            let mut next = 0;
            trees
                .solve_rows(&sources, stop, &mut |i, row| {
                    assert_eq!(i, next, "case {case}: rows in order");
                    let mut want = expected[i].clone();
                    stop.apply(&mut want);
                    assert!(row == &want[..], "case {case}: tree {i} differs");
                    next += 1;
                    Ok(())
                })
                .expect("rows");
            assert_eq!(next, k, "case {case}: every tree");
        }
        let values: Vec<f64> = (0..n).map(|_| rng.below(20) as f64).collect();
        // Values given, then none again: nothing of the kept values stays.
        for with_values in [false, true, false] {
            let given = with_values.then_some(Values::F64(&values));
            let within = trees.within(&sources, limit, given).expect("within");
            let value = |v: usize| values[v];
            let value = with_values.then_some(&value as &dyn Fn(usize) -> f64);
            check_within(&within, &expected, limit, value, &format!("case {case}"));
        }
        // Kept values over batches of growing size, as the spread runs them.
        let other: Vec<f64> = (0..n).map(|_| rng.below(7) as f64 - 3.0).collect();
        trees.keep_values(Some(Values::F64(&other))).expect("keep");
        let value = |v: usize| other[v];
        for end in [k / 3, k] {
            let within = trees.within_kept(&sources[..end], limit).expect("kept");
            let what = format!("case {case}: kept values, {end} sources");
            check_within(&within, &expected[..end], limit, Some(&value), &what);
        }
        let nearest = trees.nearest(&sources).expect("nearest");
        check_nearest(&nearest, &expected, &format!("case {case}"));
    }
}
