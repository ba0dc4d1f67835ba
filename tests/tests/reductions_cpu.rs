//! The reductions over an index's trees and the streamed trees, on the CPU:
//! the per-thread logic of the kernels (`gpu_kernels::phast::row_item`,
//! `gpu_kernels::reductions`) against plain computations, and
//! `TreeSolver`'s CPU paths (`solve_rows`, `within`, `nearest`) against the
//! oracle's trees on seeded random graphs. Values are small integers, so
//! every sum is exact in any order and compared for equality.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use gpu_kernels::distance::{INFINITY, SATURATED};
use gpu_kernels::phast::row_item;
use gpu_kernels::reductions::{
    NO_SOURCE, WITHIN_TOTAL_THREADS, Within, nearest_update, nearest_vertex, within_part,
    within_total,
};
use gpu_kernels::rows::ROW_FLAGS;
use sssp::ch::{TreeSolver, Values};
use sssp::options::Stop;
use sssp_tests::TestRng;
use sssp_tests::reductions::{
    check_nearest, check_within, random_graph_and_index, random_sources_and_trees,
};

/// A random distance word: often unreached, sometimes saturated.
fn word(rng: &mut TestRng) -> u32 {
    match rng.below(10) {
        0 => INFINITY,
        1 => SATURATED,
        _ => rng.below(50) as u32,
    }
}

/// A random permutation of `0..n`.
fn permutation(rng: &mut TestRng, n: usize) -> Vec<u32> {
    let mut p: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        p.swap(i, rng.below(i as u64 + 1) as usize);
    }
    p
}

#[test]
fn row_items_put_each_lane_in_graph_order_bounded_with_its_flags() {
    let mut rng = TestRng::new("reductions_row_items");
    for case in 0..200 {
        let n = rng.range(1, 40) as usize;
        let lanes = rng.range(1, 12) as usize;
        let first = rng.below(lanes as u64) as usize;
        let rows = rng.range(1, (lanes - first) as u64) as usize;
        let dist: Vec<u32> = (0..n * lanes).map(|_| word(&mut rng)).collect();
        let position = permutation(&mut rng, n);
        let limit = if rng.chance(0.5) {
            INFINITY
        } else {
            rng.below(60) as u32
        };
        let target = if rng.chance(0.5) {
            INFINITY
        } else {
            rng.below(n as u64) as u32
        };
        let atomic: Vec<AtomicU32> = dist.iter().map(|&d| AtomicU32::new(d)).collect();
        let out: Vec<AtomicU32> = (0..rows * (n + ROW_FLAGS))
            .map(|_| AtomicU32::new(7))
            .collect();
        for r in 0..rows {
            out[r * (n + ROW_FLAGS) + n].store(0, Relaxed);
            out[r * (n + ROW_FLAGS) + n + 1].store(0, Relaxed);
        }
        for item in 0..n * rows {
            row_item(
                &atomic,
                (&position, lanes),
                (first, rows),
                (limit, target),
                &out,
                item,
            );
        }
        for r in 0..rows {
            let lane = first + r;
            let bound = match target {
                INFINITY => limit,
                t => limit.min(dist[t as usize * lanes + lane]),
            };
            let expected: Vec<u32> = (0..n)
                .map(|v| dist[position[v] as usize * lanes + lane])
                .map(|d| if d > bound { INFINITY } else { d })
                .collect();
            let row: Vec<u32> = out[r * (n + ROW_FLAGS)..][..n + ROW_FLAGS]
                .iter()
                .map(|w| w.load(Relaxed))
                .collect();
            assert_eq!(row[..n], expected[..], "case {case}: row {r}");
            let saturated: Vec<usize> = (0..n).filter(|&v| expected[v] == SATURATED).collect();
            assert_eq!(
                row[n] as usize,
                saturated.len(),
                "case {case}: row {r} count"
            );
            let first_flag = saturated.first().map_or(0, |&v| u32::MAX - v as u32);
            assert_eq!(row[n + 1], first_flag, "case {case}: row {r} first");
        }
    }
}

#[test]
fn within_parts_and_totals_equal_a_plain_count_and_sum() {
    let mut rng = TestRng::new("reductions_within_parts");
    for case in 0..200 {
        let n = rng.range(1, 60) as usize;
        let lanes = rng.range(1, 10) as usize;
        let strides = rng.range(1, n as u64 + 40) as usize;
        let dist: Vec<u32> = (0..n * lanes).map(|_| word(&mut rng)).collect();
        let values: Vec<f64> = if rng.chance(0.3) {
            Vec::new()
        } else {
            (0..n).map(|_| rng.below(100) as f64 - 50.0).collect()
        };
        let limit = [0, rng.below(60) as u32, MAX_WORD, INFINITY][rng.below(4) as usize];
        let mut counts = vec![0u32; 2 * lanes * strides];
        let mut sums = vec![0.0; lanes * strides];
        for t in 0..lanes * strides {
            let part = within_part(
                &dist,
                (lanes, t % lanes),
                (t / lanes, strides),
                limit,
                &values,
            );
            (counts[2 * t], counts[2 * t + 1], sums[t]) = (part.count, part.saturated, part.sum);
        }
        for lane in 0..lanes {
            let mut expected = Within::default();
            for p in 0..n {
                let d = dist[p * lanes + lane];
                if d == SATURATED {
                    expected.saturated += 1;
                } else if d <= limit && d != INFINITY {
                    expected.count += 1;
                    expected.sum += values.get(p).copied().unwrap_or(0.0);
                }
            }
            let total = within_total((&counts, &sums), (lanes, lane), (0, 1), strides);
            assert_eq!(total, expected, "case {case}: lane {lane}");
            // As the kernel adds them: a warp's threads, each every 32nd
            // part, their totals added (the values are integers: any order
            // gives the same sum).
            let mut warp = Within::default();
            for j in 0..WITHIN_TOTAL_THREADS {
                let part = within_total(
                    (&counts, &sums),
                    (lanes, lane),
                    (j, WITHIN_TOTAL_THREADS),
                    strides,
                );
                warp.count += part.count;
                warp.saturated += part.saturated;
                warp.sum += part.sum;
            }
            assert_eq!(warp, expected, "case {case}: lane {lane}, a warp's threads");
        }
    }
}

const MAX_WORD: u32 = gpu_kernels::distance::MAX_DISTANCE;

#[test]
fn nearest_takes_the_smallest_distance_and_the_first_source_on_ties() {
    let mut rng = TestRng::new("reductions_nearest_vertex");
    for case in 0..200 {
        let n = rng.range(1, 30) as usize;
        let lanes = rng.range(1, 10) as usize;
        let count = rng.range(1, lanes as u64) as usize;
        let dist: Vec<u32> = (0..n * lanes).map(|_| rng.below(5) as u32 * 3).collect();
        let first_source = rng.below(100) as u32;
        for p in 0..n {
            let (mut best, mut from) = (INFINITY, NO_SOURCE);
            if rng.chance(0.5) {
                (best, from) = (rng.below(10) as u32, 1000);
            }
            let (before, before_from) = (best, from);
            nearest_vertex(
                &dist,
                (lanes, count),
                first_source,
                p,
                (&mut best, &mut from),
            );
            let row = &dist[p * lanes..p * lanes + count];
            let min = row.iter().copied().min().unwrap_or(INFINITY);
            if min < before {
                let lane = row.iter().position(|&d| d == min).unwrap_or(0);
                assert_eq!(
                    (best, from),
                    (min, first_source + lane as u32),
                    "case {case}"
                );
            } else {
                assert_eq!((best, from), (before, before_from), "case {case}");
            }
        }
        let (mut best, mut from) = (5, 9);
        nearest_update(5, 1, &mut best, &mut from);
        assert_eq!((best, from), (5, 9), "a tie keeps the earlier source");
    }
}

#[test]
fn cpu_streamed_trees_within_and_nearest_match_the_oracle() {
    let mut rng = TestRng::new("reductions_cpu_paths");
    for case in 0..80 {
        let (graph, h) = random_graph_and_index(&mut rng, 60);
        let n = graph.num_vertices();
        let k = rng.range(1, 40) as usize;
        let (sources, expected) = random_sources_and_trees(&mut rng, &graph, k);
        let mut trees = TreeSolver::new(None, &h, None).expect("solver");
        let limit = rng.below(3000) as u32;
        let stop = Stop {
            limit: rng.chance(0.5).then_some(limit),
            target: None,
        };
        let mut next = 0;
        trees
            .solve_rows(&sources, stop, &mut |i, row| {
                assert_eq!(i, next, "case {case}: rows in order");
                let mut want = expected[i].clone();
                stop.apply(&mut want);
                assert_eq!(row, &want[..], "case {case}: tree {i}");
                next += 1;
                Ok(())
            })
            .expect("rows");
        assert_eq!(next, k, "case {case}: every tree");
        let values: Vec<f32> = (0..n).map(|_| rng.below(20) as f32).collect();
        let within = trees
            .within(&sources, limit, Some(Values::F32(&values)))
            .expect("within");
        let value = |v: usize| f64::from(values[v]);
        let context = format!("case {case}");
        check_within(&within, &expected, limit, Some(&value), &context);
        let nearest = trees.nearest(&sources).expect("nearest");
        check_nearest(&nearest, &expected, &context);
        let wrong = trees.within(&sources, limit, Some(Values::F64(&[1.0])));
        assert!(
            wrong.is_err() || n == 1,
            "case {case}: a wrong number of values"
        );
    }
}

/// Many batches per thread (one and two threads): each thread reuses its
/// batch's distances and row from batch to batch, so a batch must not see
/// the one before it. Sources in batches of 8, some batches short, rows and
/// reductions against the oracle's trees.
#[test]
fn cpu_batches_reusing_a_threads_buffers_match_the_oracle() {
    let mut rng = TestRng::new("reductions_cpu_reused_buffers");
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        for case in 0..12 {
            let (graph, h) = random_graph_and_index(&mut rng, 150);
            let k = rng.range(17, 140) as usize;
            let (sources, expected) = random_sources_and_trees(&mut rng, &graph, k);
            let limit = [rng.below(3000) as u32, MAX_WORD][rng.below(2) as usize];
            let context = format!("{threads} threads, case {case}");
            pool.install(|| {
                assert_eq!(
                    sssp::ch::phast::trees(&h, &sources),
                    expected,
                    "{context}: trees"
                );
                let mut trees = TreeSolver::new(None, &h, None).expect("solver");
                let within = trees.within(&sources, limit, None).expect("within");
                check_within(&within, &expected, limit, None, &context);
                check_nearest(
                    &trees.nearest(&sources).expect("nearest"),
                    &expected,
                    &context,
                );
            });
        }
    }
}
