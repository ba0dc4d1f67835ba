//! A tiny benchmark on the CPU path: the harness runs, verifies and reports
//! (CSV, JSON, markdown, plots). Speed is not asserted: benchmarks are not tests.

use indicatif::ProgressBar;
use sssp::bench::{self, BenchPlan, Report, plot, report};
use sssp_tests::TestRng;

#[test]
fn cpu_benchmark_runs_verifies_and_reports() {
    let mut rng = TestRng::new("cpu_benchmark_runs_verifies_and_reports");
    let mut plan = BenchPlan::preset("quick").unwrap().remove(0);
    plan.sizes = vec![300, 1000];
    plan.algorithm_names = [
        "f-cpu",
        "u-cpu",
        "crauser-general-succ-cpu",
        "crauser-economic-pred-cpu",
        "dijkstra",
    ]
    .map(String::from)
    .to_vec();
    plan.graphs_per_size = 2;
    plan.cpu_repetitions = 2;
    plan.seed = rng.bits();
    // After each graph the records so far: 5 more each time.
    let mut saved = Vec::new();
    let mut save = |so_far: &[bench::Record]| {
        saved.push(so_far.len());
        Ok(())
    };
    let solver = sssp::Solver::new(sssp::Device::Cpu).unwrap();
    let records = bench::run(&plan, &solver, &ProgressBar::hidden(), &mut save).unwrap();
    assert_eq!(saved, [5, 10, 15, 20]);
    assert_eq!(records.len(), 2 * 2 * 5);
    assert!(
        records
            .iter()
            .all(|r| r.verified && r.wrong == 0 && r.times_ms.len() == 2),
        "seed {}",
        plan.seed
    );
    assert!(
        records
            .iter()
            .filter(|r| r.algorithm != "dijkstra")
            .all(|r| r.iterations.is_some_and(|i| i > 0))
    );

    let report = Report {
        device: "none".into(),
        copy_bytes_per_s: None,
        plans: vec![plan.clone()],
        records,
    };
    let csv = report::csv(&report);
    assert_eq!(
        csv.lines().count(),
        1 + 2 * 2 * 5 * 2,
        "one CSV row per repetition plus the header"
    );
    let json: serde_json::Value = serde_json::from_str(&report::json(&report).unwrap()).unwrap();
    assert_eq!(json["records"].as_array().unwrap().len(), 20);
    let summary = report::markdown(&report);
    assert!(
        summary.contains("| crauser-general-succ-cpu |"),
        "{summary}"
    );
    assert!(
        !summary.contains("Table I"),
        "Table I compares with GPU algorithms, which did not run: {summary}"
    );

    let dir = std::env::temp_dir().join(format!("sssp-bench-smoke-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let refs: Vec<&bench::Record> = report.records.iter().collect();
    let rows = report::rows(&refs, &plan.algorithm_names);
    for file in plot::draw(&dir, &plan.name, plan.layout, &rows).unwrap() {
        let bytes = std::fs::read(&file).unwrap();
        assert!(
            bytes.len() > 1000,
            "{} is too small to hold a plot",
            file.display()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn real_graph_bench_verifies_every_candidate_and_reports_them() {
    use sssp::algorithms::Algorithm;
    use sssp::bench::real::{self, RealPlan};
    let rome = sssp_tests::find_graph("rome99.gr");
    let dir = sssp_tests::TempDir::new("real-bench");
    let plan = RealPlan {
        graphs: vec![rome],
        algorithms: vec![Algorithm::Auto, Algorithm::NearFarCpu, Algorithm::Dijkstra],
        timing: sssp::solver::Timing { warmup: 0, runs: 2 },
        gapbs: None,
        gapbs_trials: 1,
        scratch: dir.path(""),
    };
    let solver = sssp::Solver::new(sssp::Device::Cpu).unwrap();
    let mut steps = Vec::new();
    let report = real::run(&plan, &solver, &mut |s| steps.push(s.to_string())).unwrap();
    assert_eq!(report.records.len(), 3);
    for record in &report.records {
        assert!(record.verified, "{record:?}");
        assert_eq!((record.n, record.m), (3353, 8870));
        assert_eq!(record.times_ms.len(), 2);
    }
    // Without a GPU, `auto` runs the CPU fallback.
    assert_eq!(report.records[0].ran, sssp::solver::FALLBACK.name());
    let summary = real::markdown(&report);
    assert!(
        summary.contains("| rome99.gr | 3353 | 8870 | near-far-cpu |"),
        "{summary}"
    );
    assert!(summary.contains("auto is"), "{summary}");
    // Its choice was no candidate of this run, and the summary says so.
    assert!(
        summary.contains("auto ran delta-cpu (not in --algos) in"),
        "{summary}"
    );
    assert_eq!(real::csv(&report).lines().count(), 1 + 3);
    // The preparation's column: CPU solvers prepare nothing.
    assert!(summary.contains("| median ms | prepare ms |"), "{summary}");
    assert!(report.records.iter().all(|r| r.prepare_ms.is_none()));
    let csv = real::csv(&report);
    assert!(csv.starts_with(
        "graph,n,m,solver,ran,device,iterations,delta,median_ms,verified,prepare_ms\n"
    ));
    assert!(
        csv.lines().all(|line| line.split(',').count() == 11),
        "{csv}"
    );
}

#[test]
fn gapbs_deltas_span_the_mean_weight() {
    let graph = sssp::Graph::from_edges(3, &[(0, 1, 100), (1, 2, 300)]).unwrap();
    let deltas = sssp::bench::real::gapbs_deltas(&graph);
    // Mean 200: 200/16 rounded .. 200·1024, ascending powers of two.
    assert_eq!(deltas.first(), Some(&13));
    assert_eq!(deltas.last(), Some(&204_800));
    assert!(deltas.contains(&200));
    assert!(deltas.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn gapbs_sweep_goes_below_its_range_while_the_smallest_delta_is_fastest() {
    use sssp::bench::real::gapbs_lower_delta;
    assert_eq!(
        gapbs_lower_delta(&[(8, 100.0), (16, 120.0), (32, 130.0)]),
        Some(4)
    );
    assert_eq!(gapbs_lower_delta(&[(3, 90.0), (8, 100.0)]), Some(1));
    assert_eq!(
        gapbs_lower_delta(&[(8, 100.0), (16, 100.0)]),
        Some(4),
        "a tie counts"
    );
    assert_eq!(
        gapbs_lower_delta(&[(8, 100.0), (16, 90.0), (32, 130.0)]),
        None
    );
    assert_eq!(
        gapbs_lower_delta(&[(1, 80.0), (2, 100.0)]),
        None,
        "Δ 1 is the least"
    );
    assert_eq!(gapbs_lower_delta(&[]), None);
}
