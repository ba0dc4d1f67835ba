//! `host bench`'s files (CSV, JSON, summary, plots) are written whole: an
//! existing file is replaced, no temporary file is left, and an output folder
//! that cannot be created fails before any work with exit status 1.

mod common;

use common::*;

/// A CPU-only bench of one small graph into `out`.
fn bench(out: &std::path::Path) -> (i32, String, String) {
    run(host()
        .args([
            "bench", "--preset", "quick", "--algos", "f-cpu", "--sizes", "1000",
        ])
        .args([
            "--graphs-per-size",
            "1",
            "--cpu-reps",
            "1",
            "--quiet",
            "--out",
        ])
        .arg(out))
}

#[test]
fn bench_files_are_written_whole_and_a_bad_folder_fails_first() {
    let dir = TempDir::new("bench-outputs");
    let out = dir.path("results");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("runs.json"), "old").unwrap();
    std::fs::write(out.join("quick-time.svg"), "old").unwrap();
    let (code, stdout, stderr) = bench(&out);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let expected = [
        "quick-speedup.png",
        "quick-speedup.svg",
        "quick-time.png",
        "quick-time.svg",
        "runs.csv",
        "runs.json",
        "summary.md",
    ];
    assert_eq!(names, expected, "no temporary file left");
    for name in ["runs.json", "quick-time.svg"] {
        assert_ne!(
            std::fs::read(out.join(name)).unwrap(),
            b"old",
            "{name} replaced"
        );
    }
    let png = std::fs::read(out.join("quick-time.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "a PNG file");

    // The folder below a regular file cannot be created: exit 1, no work.
    let unwritable = out.join("runs.csv").join("results");
    let (code, stdout, stderr) = bench(&unwritable);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stderr.contains("cannot write"), "{stderr}");
    assert!(
        !stdout.contains("Benchmark summary"),
        "refused before the work: {stdout}"
    );
}

#[test]
fn roads_index_reports_every_column_it_measured_and_the_customization() {
    let dir = TempDir::new("bench-roads-index");
    let out = dir.path("ri");
    let (code, stdout, stderr) = run(host()
        .args(["bench", "--preset", "roads-index", "--graphs"])
        .arg(rome99())
        .args(["--trees", "64", "--table", "50", "--quiet", "--out"])
        .arg(&out));
    assert_eq!(code, 0, "{stdout}{stderr}");
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("runs.json")).unwrap()).unwrap();
    let record = &json["records"][0];
    for field in ["build_ms", "cpu_tree_us", "one_to_one_us", "pairs_per_s"] {
        assert!(
            record[field].as_f64().is_some_and(|x| x > 0.0),
            "{field}: {record}"
        );
    }
    let cch = &record["cch"];
    assert!(cch["arcs"].as_u64().is_some_and(|a| a >= 8870 / 2), "{cch}");
    assert!(cch["triangles"].as_u64().is_some_and(|t| t > 0), "{cch}");
    assert!(cch["cpu_ms"].as_f64().is_some_and(|ms| ms > 0.0), "{cch}");
    assert!(
        summary.contains("## Live weights: the customizable index"),
        "{summary}"
    );
    assert!(summary.contains("| rome99.gr |"), "{summary}");
}
