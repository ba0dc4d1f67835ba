//! Many sources spread over several workers (`sssp::multi`): on the CPU,
//! the split over 2–3 workers with small batches gives every tree, `within`,
//! `nearest` and accessibility of one worker and of the oracle, on seeded
//! random graphs; a failing or panicking worker's error is returned, not a
//! hang. The GPU tests spread over "0,0" (two workers on one GPU).

use std::collections::BTreeMap;

use sssp::ch::{self, BuildOptions, Values};
use sssp::generate::{GridSpec, grid_graph};
use sssp::multi::{Gpus, IndexSpread, Worker, spread};
use sssp::options::Stop;
use sssp::{Error, oracle};
use sssp_tests::reductions::{
    check_nearest, check_within, random_graph_and_index, random_sources_and_trees,
};
use sssp_tests::{TestRng, random_graph};

/// Every tree, within, nearest and accessibility of `workers` (batches of
/// 1 to 7 sources) against the oracle's trees.
fn check_spread(rng: &mut TestRng, workers: &[Worker], cases: usize, name: &str) {
    for case in 0..cases {
        let (graph, h) = random_graph_and_index(rng, 80);
        let n = graph.num_vertices();
        let k = rng.range(1, 40) as usize;
        let (sources, expected) = random_sources_and_trees(rng, &graph, k);
        let batch = rng.range(1, 7) as usize;
        let spread = IndexSpread::new(&h, workers.to_vec()).batch(batch);
        let context = format!("{name} case {case} (batch {batch})");
        let limit = rng.below(3000) as u32;
        let stop = Stop {
            limit: rng.chance(0.5).then_some(limit),
            target: None,
        };
        let mut rows = BTreeMap::new();
        let reports = spread
            .solve_rows(&sources, stop, &mut |i, row| {
                assert!(
                    rows.insert(i, row.to_vec()).is_none(),
                    "{context}: row {i} twice"
                );
                Ok(())
            })
            .expect("rows");
        assert_eq!(rows.len(), k, "{context}: every tree");
        for (i, row) in rows {
            let mut want = expected[i].clone();
            stop.apply(&mut want);
            assert_eq!(row, want, "{context}: tree {i}");
        }
        assert_eq!(reports.len(), workers.len(), "{context}: a report a worker");
        assert_eq!(
            reports.iter().map(|r| r.rows).sum::<usize>(),
            k,
            "{context}"
        );
        let values: Vec<f32> = (0..n).map(|_| rng.below(20) as f32).collect();
        let value = |v: usize| f64::from(values[v]);
        let (within, _) = spread
            .within(&sources, limit, Some(Values::F32(&values)), None)
            .expect("within");
        check_within(&within, &expected, limit, Some(&value), &context);
        let (nearest, _) = spread.nearest(&sources).expect("nearest");
        check_nearest(&nearest, &expected, &context);
        let (access, _) = spread
            .accessibility(limit, Some(Values::F32(&values)), None)
            .expect("accessibility");
        let all: Vec<Vec<u32>> = (0..n)
            .map(|s| oracle::dijkstra(&graph, s).expect("oracle"))
            .collect();
        let pairs: Vec<(u32, f64)> = access.counts.into_iter().zip(access.sums).collect();
        check_within(&pairs, &all, limit, Some(&value), &context);
    }
}

#[test]
fn cpu_workers_split_equals_the_oracle() {
    let mut rng = TestRng::new("multi_cpu_split");
    check_spread(&mut rng, &Worker::cpus(1), 20, "1 worker");
    check_spread(&mut rng, &Worker::cpus(2), 30, "2 workers");
    check_spread(&mut rng, &Worker::cpus(3), 30, "3 workers");
}

#[test]
fn every_batch_is_taken_once() {
    let mut rng = TestRng::new("multi_batches");
    for _ in 0..50 {
        let total = rng.below(200) as usize;
        let batch = rng.range(1, 20) as usize;
        let workers = Worker::cpus(rng.range(1, 4) as usize);
        let done = spread(&workers, total, batch, |_, batches| {
            Ok(batches.collect::<Vec<_>>())
        })
        .expect("spread");
        let mut seen = vec![0; total];
        for (report, ranges) in &done {
            assert_eq!(report.batches, ranges.len());
            assert_eq!(report.rows, ranges.iter().map(|r| r.len()).sum::<usize>());
            for range in ranges {
                assert!(range.len() <= batch && !range.is_empty());
                range.clone().for_each(|i| seen[i] += 1);
            }
        }
        assert!(seen.iter().all(|&c| c == 1), "total {total}, batch {batch}");
    }
}

#[test]
fn a_failing_worker_stops_the_spread_and_its_error_is_returned() {
    let workers = Worker::cpus(3);
    // An error in a batch: the others stop at their next batch.
    let result = spread(&workers, 100_000, 1, |_, batches| {
        for range in batches.by_ref() {
            if range.start == 5 {
                return Err(Error::InvalidArgument("injected batch failure".into()));
            }
            std::thread::sleep(std::time::Duration::from_micros(20));
        }
        Ok(())
    });
    let error = result.expect_err("a batch failed");
    assert!(
        error.to_string().contains("injected batch failure"),
        "{error}"
    );
    // Setup failing on the second worker to start.
    let seen = std::sync::atomic::AtomicUsize::new(0);
    let result = spread(&workers, 1_000_000, 1, |_, batches| {
        if seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 1 {
            return Err(Error::NoGpu("injected setup failure".into()));
        }
        for _ in batches.by_ref() {
            std::thread::sleep(std::time::Duration::from_micros(10));
        }
        Ok(())
    });
    let error = result.expect_err("a worker failed");
    let text = error.to_string();
    assert!(
        text.contains("injected setup failure") && text.contains("worker"),
        "{text}"
    );
    // A panic in a batch becomes an error naming it.
    let result = spread(&workers, 100, 3, |_, batches| {
        for range in batches {
            assert!(range.start != 42 && !range.contains(&42), "injected panic");
        }
        Ok(())
    });
    let error = result.expect_err("a worker panicked");
    assert!(matches!(error, Error::Internal(_)), "{error}");
    assert!(error.to_string().contains("injected panic"), "{error}");
}

#[test]
fn a_failing_sink_ends_the_rows_with_its_error() {
    let mut rng = TestRng::new("multi_sink_error");
    let graph = random_graph(&mut rng, 60, 240, 10);
    let h = ch::build(&graph, &BuildOptions::default()).expect("build");
    let sources: Vec<usize> = (0..60).collect();
    let spread = IndexSpread::new(&h, Worker::cpus(2)).batch(2);
    let result = spread.solve_rows(&sources, Stop::default(), &mut |i, _| match i {
        17 => Err(Error::InvalidArgument("injected sink failure".into())),
        _ => Ok(()),
    });
    let error = result.expect_err("the sink failed");
    assert!(
        error.to_string().contains("injected sink failure"),
        "{error}"
    );
    let bad = spread.within(&[0, 60], 5, None, None);
    assert!(matches!(bad, Err(Error::SourceOutOfRange { .. })));
    assert!(IndexSpread::new(&h, Vec::new()).nearest(&[0]).is_err());
    assert!(
        IndexSpread::new(&h, Worker::cpus(1))
            .batch(0)
            .nearest(&[0])
            .is_err()
    );
}

#[test]
fn gpus_parse() {
    assert_eq!("all".parse::<Gpus>().expect("all"), Gpus::All);
    assert_eq!(
        " 0, 1,3".parse::<Gpus>().expect("list"),
        Gpus::List(vec![0, 1, 3])
    );
    assert_eq!(
        "0,0".parse::<Gpus>().expect("twice"),
        Gpus::List(vec![0, 0])
    );
    for bad in ["0,x", "", "-1", "1,,2", "al"] {
        let error = bad.parse::<Gpus>().expect_err(bad);
        assert!(matches!(error, Error::InvalidArgument(_)), "{bad}: {error}");
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn gpu_split_over_one_gpu_twice_equals_the_oracle() {
    let workers = "0,0"
        .parse::<Gpus>()
        .expect("gpus")
        .workers()
        .expect("a GPU");
    let mut rng = TestRng::new("multi_gpu_split");
    check_spread(&mut rng, &workers[..1], 10, "GPU 0");
    check_spread(&mut rng, &workers, 30, "GPU 0 twice");
    // Every GPU of the machine: the multi-GPU split where there are two or
    // more.
    let every = Gpus::All.workers().expect("a GPU");
    check_spread(&mut rng, &every, 30, &format!("{} GPUs", every.len()));
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn gpu_accessibility_on_a_larger_graph_equals_the_oracle() {
    let workers = Gpus::All.workers().expect("a GPU");
    let mut rng = TestRng::new("multi_gpu_accessibility");
    // A grid: a random graph of this size has no hierarchy (the build
    // refuses it).
    let graph = grid_graph(&GridSpec::new(60, 50, rng.bits())).expect("a grid");
    let n = graph.num_vertices();
    let h = ch::build(&graph, &BuildOptions::default()).expect("build");
    let values: Vec<f64> = (0..n).map(|_| rng.below(50) as f64).collect();
    let limit = rng.range(100, 3000) as u32;
    let twice: Vec<Worker> = workers.iter().flat_map(|&w| [w, w]).collect();
    for workers in [workers, twice] {
        let spread = IndexSpread::new(&h, workers.clone()).batch(300);
        let (access, reports) = spread
            .accessibility(limit, Some(Values::F64(&values)), None)
            .expect("accessibility");
        assert_eq!(reports.iter().map(|r| r.rows).sum::<usize>(), n);
        for s in 0..n {
            let tree = oracle::dijkstra(&graph, s).expect("oracle");
            let near: Vec<usize> = (0..n).filter(|&v| tree[v] <= limit).collect();
            let sum: f64 = near.iter().map(|&v| values[v]).sum();
            assert_eq!(
                (access.counts[s] as usize, access.sums[s]),
                (near.len(), sum),
                "{workers:?}: vertex {s}"
            );
        }
    }
}
