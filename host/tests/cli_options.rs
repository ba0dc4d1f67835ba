//! Options of the solve command that other tests do not reach: `--streams`,
//! `--targets-file`, `--batch`, `--gpu`, `--shortcuts`, `--limit` with `f32`
//! weights, and gzipped input. GPU forms are `#[ignore]`d without a GPU.

mod common;

use std::io::Write;
use std::path::Path;

use common::*;

/// `vertex distance` lines (or any lines) of a text output, as written.
fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::to_string)
        .collect()
}

/// Solves `graph` with `extra` and `--output`, asserts success and returns
/// the output's lines and the summary.
fn solved(dir: &TempDir, name: &str, graph: &Path, extra: &[&str]) -> (Vec<String>, String) {
    let output = dir.path(name);
    let mut args = extra.to_vec();
    args.extend(["--output", output.to_str().unwrap()]);
    let (code, out, err) = solve(graph, &args);
    assert_eq!(code, 0, "{extra:?}: {out}{err}");
    (lines(&output), out)
}

#[test]
fn a_targets_file_gives_the_table_of_its_targets() {
    let dir = TempDir::new("targets_file");
    let index = preprocessed_rome99(&dir);
    let index = index.to_str().unwrap();
    let common = [
        "--device",
        "cpu",
        "--index",
        index,
        "--sources",
        "1,77",
        "--verify",
    ];
    let (expected, _) = solved(
        &dir,
        "given.txt",
        &rome99(),
        &[&common[..], &["--targets", "5,3353,1"]].concat(),
    );
    for (file, text) in [
        ("plain.txt", "5\n3353\n1\n"),
        ("dimacs.ss", "c targets\np aux sp ss 3\ns 5\ns 3353\ns 1\n"),
    ] {
        let targets = dir.path(file);
        std::fs::write(&targets, text).unwrap();
        let args = [&common[..], &["--targets-file", targets.to_str().unwrap()]].concat();
        let (table, out) = solved(&dir, "table.txt", &rome99(), &args);
        assert!(out.contains("table        2 × 3"), "{file}: {out}");
        assert!(
            out.contains("verified: all 6 table entries"),
            "{file}: {out}"
        );
        assert_eq!(table, expected, "{file}");
    }
    // A target out of range in the file is refused, naming it.
    let bad = dir.path("bad.txt");
    std::fs::write(&bad, "5\n3354\n").unwrap();
    let args = [&common[..], &["--targets-file", bad.to_str().unwrap()]].concat();
    let (code, _, err) = solve(&rome99(), &args);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("3354"), "{err}");
}

#[test]
fn batches_of_an_index_give_the_trees_of_one_batch() {
    let dir = TempDir::new("index_batch");
    let index = preprocessed_rome99(&dir);
    let index = index.to_str().unwrap();
    let sources = "1,2,3,500,3353,77,1000";
    let common = [
        "--device",
        "cpu",
        "--index",
        index,
        "--sources",
        sources,
        "--verify",
    ];
    let (expected, _) = solved(&dir, "whole.txt", &rome99(), &common);
    for batch in ["1", "3", "64"] {
        let args = [&common[..], &["--batch", batch]].concat();
        let (rows, out) = solved(&dir, "batched.txt", &rome99(), &args);
        assert!(out.contains("verified: all 3353 distances"), "{out}");
        assert_eq!(rows, expected, "--batch {batch}");
    }
}

#[test]
fn streams_on_the_cpu_solve_one_source_after_another() {
    let dir = TempDir::new("streams_cpu");
    let common = ["--device", "cpu", "--sources", "1,2,3", "--verify"];
    let (expected, _) = solved(&dir, "one.txt", &rome99(), &common);
    let args = [&common[..], &["--streams", "3"]].concat();
    let (rows, out) = solved(&dir, "three.txt", &rome99(), &args);
    assert!(out.contains("on 1 stream"), "{out}");
    assert_eq!(rows, expected);
    let (code, _, err) = solve(&rome99(), &[&common[..], &["--streams", "0"]].concat());
    assert_eq!(code, 2, "--streams 0 accepted: {err}");
}

#[test]
fn a_gpu_ordinal_that_is_not_there_is_an_error() {
    let (code, out, err) = solve(&rome99(), &["--device", "gpu", "--gpu", "9999"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_limit_on_f32_weights_keeps_the_distances_within_it() {
    let dir = TempDir::new("limit_f32");
    let graph = dir.path("g.csr");
    let (code, _, err) = run(host()
        .args([
            "gen",
            "--vertices",
            "3000",
            "--degree",
            "4",
            "--weights",
            "f32",
        ])
        .args([
            "--min-weight",
            "0",
            "--max-weight",
            "3",
            "--seed",
            "9",
            "--output",
        ])
        .arg(&graph));
    assert_eq!(code, 0, "{err}");
    let common = ["--device", "cpu", "--weights", "f32", "--verify"];
    let (whole, _) = solved(&dir, "whole.txt", &graph, &common);
    let limit = 2.75f64;
    for algo in ["delta-cpu", "near-far-cpu", "dijkstra"] {
        let args = [&common[..], &["--algo", algo, "--limit", "2.75"]].concat();
        let (bounded, out) = solved(&dir, "bounded.txt", &graph, &args);
        assert!(out.contains("verified"), "{algo}: {out}");
        assert_eq!(bounded.len(), whole.len(), "{algo}");
        let (mut kept, mut cut) = (0, 0);
        for (b, w) in bounded.iter().zip(&whole) {
            let (vertex, distance) = w.split_once(' ').unwrap();
            let value: f64 = if distance == "inf" {
                f64::INFINITY
            } else {
                distance.parse().unwrap()
            };
            if value <= limit {
                assert_eq!(b, w, "{algo}: a distance within the limit changed");
                kept += 1;
            } else {
                assert_eq!(b, &format!("{vertex} inf"), "{algo}: beyond the limit");
                cut += 1;
            }
        }
        assert!(
            kept > 1 && cut > 0,
            "{algo}: the limit cut nothing or everything"
        );
    }
}

/// `bytes` gzipped.
fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

#[test]
fn gzipped_input_solves_as_the_plain_file() {
    let dir = TempDir::new("gzip_cli");
    let plain_csr = dir.path("rome.csr");
    let (code, _, err) = run(host()
        .arg("convert")
        .arg(rome99())
        .arg(&plain_csr)
        .arg("--quiet"));
    assert_eq!(code, 0, "{err}");
    let gr_gz = dir.path("rome99.gr.gz");
    std::fs::write(&gr_gz, gzip(&std::fs::read(rome99()).unwrap())).unwrap();
    let csr_gz = dir.path("rome.csr.gz");
    std::fs::write(&csr_gz, gzip(&std::fs::read(&plain_csr).unwrap())).unwrap();
    let common = ["--device", "cpu", "--source", "1", "--verify"];
    let (expected, _) = solved(&dir, "plain.txt", &rome99(), &common);
    for graph in [&gr_gz, &csr_gz] {
        // The g.csr file numbers from 0: its vertex 0 is the text's vertex 1.
        let source = if graph == &csr_gz { "0" } else { "1" };
        let args = [
            "--device",
            "cpu",
            "--source",
            source,
            "--verify",
            "--output-format",
            "bin",
        ];
        let (code, out, err) = solve(graph, &[&args[..], &["--json"]].concat());
        assert_eq!(code, 0, "{}: {err}", graph.display());
        assert!(
            out.contains("\"gzip\":true") || out.contains("\"gzip\": true"),
            "{out}"
        );
        let bin = dir.path("gz.bin");
        let output = ["--output", bin.to_str().unwrap()];
        let (code, _, err) = solve(graph, &[&args[..], &output[..]].concat());
        assert_eq!(code, 0, "{}: {err}", graph.display());
        let words: Vec<u32> = std::fs::read(&bin)
            .unwrap()
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(words.len(), expected.len(), "{}", graph.display());
        for (word, line) in words.iter().zip(&expected) {
            assert_eq!(
                line.split_once(' ').unwrap().1,
                word.to_string(),
                "{}",
                graph.display()
            );
        }
    }
}

// ---------------------------------------------------------------------------
// GPU forms.

#[test]
#[ignore = "needs a CUDA GPU"]
fn streams_on_the_gpu_give_the_rows_of_one_stream() {
    let dir = TempDir::new("streams_gpu");
    let sources: Vec<String> = (1..=40).map(|s| (s * 83).to_string()).collect();
    let sources = sources.join(",");
    for algo in ["near-far", "fast", "partition"] {
        let common = [
            "--device",
            "gpu",
            "--algo",
            algo,
            "--sources",
            &sources,
            "--verify",
        ];
        let (expected, _) = solved(
            &dir,
            "one.txt",
            &rome99(),
            &[&common[..], &["--streams", "1"]].concat(),
        );
        for streams in ["2", "5"] {
            let args = [&common[..], &["--streams", streams]].concat();
            let (rows, out) = solved(&dir, "many.txt", &rome99(), &args);
            assert!(
                out.contains(&format!("on {streams} streams")),
                "{algo}: {out}"
            );
            assert_eq!(rows, expected, "{algo}: --streams {streams}");
        }
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn the_gpu_ordinal_picks_the_device() {
    let (code, out, err) = solve(&rome99(), &["--device", "gpu", "--gpu", "0", "--verify"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("verified: all 3353 distances"), "{out}");
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn partition_solves_alike_with_and_without_shortcuts() {
    let dir = TempDir::new("shortcuts");
    let mut outputs = Vec::new();
    for shortcuts in ["auto", "always", "never"] {
        let args = [
            "--device",
            "gpu",
            "--algo",
            "partition",
            "--shortcuts",
            shortcuts,
            "--verify",
        ];
        let (rows, out) = solved(&dir, "dist.txt", &rome99(), &args);
        assert!(
            out.contains("verified: all 3353 distances"),
            "{shortcuts}: {out}"
        );
        outputs.push(rows);
    }
    assert!(outputs.iter().all(|o| o == &outputs[0]));
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn index_batches_on_the_gpu_give_the_cpu_trees() {
    let dir = TempDir::new("index_batch_gpu");
    let index = preprocessed_rome99(&dir);
    let index = index.to_str().unwrap();
    let sources: Vec<String> = (1..=70).map(|s| (s * 47).to_string()).collect();
    let sources = sources.join(",");
    let common = ["--index", index, "--sources", &sources, "--verify"];
    let (expected, _) = solved(
        &dir,
        "cpu.txt",
        &rome99(),
        &[&common[..], &["--device", "cpu"]].concat(),
    );
    for batch in ["1", "32", "256"] {
        let args = [&common[..], &["--device", "gpu", "--batch", batch]].concat();
        let (rows, _) = solved(&dir, "gpu.txt", &rome99(), &args);
        assert_eq!(rows, expected, "--batch {batch}");
    }
}
