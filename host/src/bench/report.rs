//! The benchmark's outputs: every repetition as CSV, every record as JSON, and
//! a markdown summary with medians, min and max, speed-ups, achieved bandwidth
//! and working threads, plus the papers' Tables I and II where a plan has what
//! they compare.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use super::{LayoutNames, Record, Report, median};
use sssp::algorithms::{Algorithm, Layout};
use sssp::{Error, Result};

/// Writes `text` to `path`, whole or not at all.
pub fn write_file(path: &Path, text: &str) -> Result<()> {
    sssp::formats::atomic::write_atomically(path, |out| out.write_all(text.as_bytes()))
}

/// One CSV row per timed repetition.
pub fn csv(report: &Report) -> String {
    let mut out = String::from(
        "plan,layout,n,m,graph,seed,algorithm,device,repetition,time_ms,iterations,prepare_ms,oracle_ms,verified,wrong,launched_threads,working_threads\n",
    );
    let opt = |v: Option<u64>| v.map_or(String::new(), |v| v.to_string());
    for r in &report.records {
        for (rep, t) in r.times_ms.iter().enumerate() {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{rep},{t:.4},{},{:.3},{:.3},{},{},{},{}",
                r.plan,
                r.layout,
                r.n,
                r.m,
                r.graph,
                r.seed,
                r.algorithm,
                r.device,
                opt(r.iterations.map(u64::from)),
                r.prepare_ms,
                r.oracle_ms,
                r.verified,
                r.wrong,
                opt(r.launched_threads),
                opt(r.working_threads)
            );
        }
    }
    out
}

/// All records as pretty JSON.
pub fn json(report: &Report) -> Result<String> {
    serde_json::to_string_pretty(report)
        .map_err(|e| Error::InvalidArgument(format!("serializing the report: {e}")))
}

/// Summary of one algorithm at one size, over all graphs and repetitions.
#[derive(Clone, Debug)]
pub struct Row {
    /// Vertices.
    pub n: usize,
    /// Mean edge count over the graphs.
    pub m: usize,
    /// `--algo` name.
    pub algorithm: String,
    /// Median iterations over graphs.
    pub iterations: Option<u32>,
    /// Median, min and max over every repetition on every graph, ms.
    pub median_ms: f64,
    /// Smallest time.
    pub min_ms: f64,
    /// Largest time.
    pub max_ms: f64,
    /// Median oracle time, ms.
    pub oracle_ms: f64,
    /// Graphs on which every distance was right, of those run.
    pub verified: (usize, usize),
    /// Median achieved bytes/s under the floor model.
    pub achieved_bytes_per_s: f64,
    /// Working / launched `relax` threads, summed over graphs.
    pub working_share: Option<f64>,
}

/// Rows of one plan, by size then algorithm (in plan order).
pub fn rows(records: &[&Record], order: &[String]) -> Vec<Row> {
    let mut groups: BTreeMap<(usize, usize), Vec<&Record>> = BTreeMap::new();
    for r in records {
        let rank = order
            .iter()
            .position(|a| *a == r.algorithm)
            .unwrap_or(usize::MAX);
        groups.entry((r.n, rank)).or_default().push(r);
    }
    groups
        .into_values()
        .map(|group| {
            let times: Vec<f64> = group
                .iter()
                .flat_map(|r| r.times_ms.iter().copied())
                .collect();
            let iterations: Vec<f64> = group
                .iter()
                .filter_map(|r| r.iterations.map(f64::from))
                .collect();
            let launched: u64 = group.iter().filter_map(|r| r.launched_threads).sum();
            let working: u64 = group.iter().filter_map(|r| r.working_threads).sum();
            Row {
                n: group[0].n,
                m: group.iter().map(|r| r.m).sum::<usize>() / group.len(),
                algorithm: group[0].algorithm.clone(),
                iterations: (!iterations.is_empty()).then(|| median(&iterations) as u32),
                median_ms: median(&times),
                min_ms: times.iter().copied().fold(f64::INFINITY, f64::min),
                max_ms: times.iter().copied().fold(0.0, f64::max),
                oracle_ms: median(&group.iter().map(|r| r.oracle_ms).collect::<Vec<_>>()),
                verified: (group.iter().filter(|r| r.verified).count(), group.len()),
                achieved_bytes_per_s: median(
                    &group
                        .iter()
                        .map(|r| r.achieved_bytes_per_s)
                        .collect::<Vec<_>>(),
                ),
                working_share: (launched > 0).then(|| working as f64 / launched as f64),
            }
        })
        .collect()
}

/// The F^CPU-style baseline of a plan: `f-cpu` or `matrix-f-cpu`.
fn cpu_baseline(order: &[String]) -> Option<&str> {
    order
        .iter()
        .map(String::as_str)
        .find(|a| *a == "f-cpu" || *a == "matrix-f-cpu")
}

/// The markdown summary of a whole report.
pub fn markdown(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Benchmark summary\n");
    let _ = writeln!(out, "- device: {}", report.device);
    if let Some(bw) = report.copy_bytes_per_s {
        let _ = writeln!(
            out,
            "- device-to-device copy bandwidth (read + write), measured: {:.0} GB/s",
            bw / 1e9
        );
    }
    for plan in &report.plans {
        let records: Vec<&Record> = report
            .records
            .iter()
            .filter(|r| r.plan == plan.name)
            .collect();
        if records.is_empty() {
            continue;
        }
        let (unit, unit_name) = plan.layout.size_unit();
        let _ = writeln!(
            out,
            "\n## {} ({}, degree {}, {}, {} timed GPU repetitions after {} warm-up, {} CPU repetition(s))\n",
            plan.name,
            plan.layout.plural(),
            plan.degree.map_or_else(
                || if plan.layout.name() == "list" {
                    "7".into()
                } else {
                    "n/5".into()
                },
                |d| d.to_string()
            ),
            graphs_per_size(&records),
            plan.repetitions,
            plan.warmup,
            plan.cpu_repetitions
        );
        let rows = rows(&records, &plan.algorithm_names);
        let baseline = cpu_baseline(&plan.algorithm_names);
        let _ = writeln!(
            out,
            "| n ({unit_name}) | m | algorithm | iterations | median ms | min ms | max ms | × oracle | × {} | GB/s (floor model) | % of copy bw | working threads | verified |",
            baseline.unwrap_or("F^CPU")
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for row in &rows {
            let base_ms = baseline
                .and_then(|b| rows.iter().find(|r| r.n == row.n && r.algorithm == b))
                .map(|r| r.median_ms);
            let gbps = row.achieved_bytes_per_s / 1e9;
            let share_bw = report.copy_bytes_per_s.map_or("-".into(), |bw| {
                format!("{:.1}", 100.0 * row.achieved_bytes_per_s / bw)
            });
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {:.3} | {:.3} | {:.3} | {:.1} | {} | {:.1} | {} | {} | {}/{} |",
                fmt_size(row.n, unit),
                row.m,
                row.algorithm,
                row.iterations.map_or("-".into(), |i| i.to_string()),
                row.median_ms,
                row.min_ms,
                row.max_ms,
                row.oracle_ms / row.median_ms,
                base_ms.map_or("-".into(), |b| format!("{:.1}", b / row.median_ms)),
                gbps,
                share_bw,
                row.working_share
                    .map_or("-".into(), |s| format!("{:.1}%", 100.0 * s)),
                row.verified.0,
                row.verified.1,
            );
        }
        paper_tables(&mut out, &rows);
    }
    out
}

/// "k graphs per size", or the range when sizes differ (runs merged from
/// several calls): counted from the records, not the plan.
fn graphs_per_size(records: &[&Record]) -> String {
    let mut seeds: BTreeMap<usize, BTreeSet<u64>> = BTreeMap::new();
    for r in records {
        seeds.entry(r.n).or_default().insert(r.seed);
    }
    let counts = seeds.values().map(BTreeSet::len);
    let (low, high) = (counts.clone().min().unwrap_or(0), counts.max().unwrap_or(0));
    if low == high {
        format!("{low} graph{} per size", if low == 1 { "" } else { "s" })
    } else {
        format!("{low}–{high} graphs per size (the `verified` column counts them)")
    }
}

/// Ortega-Arranz et al.'s Table I (CPU Martín over GPU Crauser general) and
/// Table II (gain of GPU Crauser general over GPU Martín), per size and on
/// average over sizes, for the forms a plan has.
fn paper_tables(out: &mut String, rows: &[Row]) {
    let matrix = rows.iter().any(|r| {
        r.algorithm
            .parse::<Algorithm>()
            .is_ok_and(|a| a.spec().layout == Layout::Matrix)
    });
    let time = |n: usize, algo: Algorithm| {
        let algo = if matrix { algo.on_matrix()? } else { algo };
        rows.iter()
            .find(|r| r.n == n && r.algorithm == algo.name())
            .map(|r| r.median_ms)
    };
    // (Table, form, numerator, denominator, as a gain): Table I is CPU Martín /
    // GPU Crauser; Table II is 1 - GPU Crauser / GPU Martín.
    let cells: [(Algorithm, Algorithm, &str, bool); 4] = [
        (
            Algorithm::FCpu,
            Algorithm::CrauserGeneralSucc,
            "Table I successors",
            false,
        ),
        (
            Algorithm::UCpu,
            Algorithm::CrauserGeneralPred,
            "Table I predecessors",
            false,
        ),
        (
            Algorithm::FGpu,
            Algorithm::CrauserGeneralSucc,
            "Table II successors",
            true,
        ),
        (
            Algorithm::UGpu,
            Algorithm::CrauserGeneralPred,
            "Table II predecessors",
            true,
        ),
    ];
    let mut sizes: Vec<usize> = rows.iter().map(|r| r.n).collect();
    sizes.dedup();
    let value = |n: usize, (martin, crauser, _, gain): (Algorithm, Algorithm, &str, bool)| {
        let (m, c) = (time(n, martin)?, time(n, crauser)?);
        Some(if gain { (m - c) / m } else { m / c })
    };
    if !sizes
        .iter()
        .any(|&n| cells.iter().any(|&cell| value(n, cell).is_some()))
    {
        return;
    }
    let show = |v: Option<f64>, gain: bool| match v {
        None => "-".to_string(),
        Some(v) if gain => format!("{:.1}%", 100.0 * v),
        Some(v) => format!("{v:.1}×"),
    };
    let _ = writeln!(
        out,
        "\nOrtega-Arranz et al. Table I (CPU Martín time / GPU Crauser general time) and Table II \
         (gain of GPU Crauser general over GPU Martín, (t_Martín − t_Crauser) / t_Martín):\n"
    );
    let _ = writeln!(out, "| n | {} |", cells.map(|c| c.2).join(" | "));
    let _ = writeln!(out, "|---|---|---|---|---|");
    for &n in &sizes {
        let row: Vec<String> = cells
            .iter()
            .map(|&cell| show(value(n, cell), cell.3))
            .collect();
        let _ = writeln!(out, "| {n} | {} |", row.join(" | "));
    }
    let means: Vec<String> = cells
        .iter()
        .map(|&cell| {
            let values: Vec<f64> = sizes.iter().filter_map(|&n| value(n, cell)).collect();
            show(
                (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64),
                cell.3,
            )
        })
        .collect();
    let _ = writeln!(out, "| mean | {} |", means.join(" | "));
}

fn fmt_size(n: usize, unit: usize) -> String {
    if n.is_multiple_of(unit) {
        format!("{}", n / unit)
    } else {
        format!("{:.3}", n as f64 / unit as f64)
    }
}

/// A tiny benchmark on the CPU path: the harness runs, verifies and reports
/// (CSV, JSON, markdown, plots). Speed is not asserted: benchmarks are not tests.
#[cfg(test)]
mod tests {
    use indicatif::ProgressBar;
    use sssp_tests::TestRng;

    use super::{csv, json, markdown, rows};
    use crate::bench::{BenchPlan, Record, Report, plot, run};

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
        let mut save = |so_far: &[Record]| {
            saved.push(so_far.len());
            Ok(())
        };
        let solver = sssp::Solver::new(sssp::Device::Cpu).unwrap();
        let records = run(&plan, &solver, &ProgressBar::hidden(), &mut save).unwrap();
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
        let csv = csv(&report);
        assert_eq!(
            csv.lines().count(),
            1 + 2 * 2 * 5 * 2,
            "one CSV row per repetition plus the header"
        );
        let json: serde_json::Value = serde_json::from_str(&json(&report).unwrap()).unwrap();
        assert_eq!(json["records"].as_array().unwrap().len(), 20);
        let summary = markdown(&report);
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
        let refs: Vec<&Record> = report.records.iter().collect();
        let rows = rows(&refs, &plan.algorithm_names);
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
}
