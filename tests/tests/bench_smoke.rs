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
