//! The `host` binary end to end: contraction-hierarchy indexes (`preprocess`, `--index`, tables, f32 indexes).

mod common;

use std::path::{Path, PathBuf};

use common::*;

#[test]
fn an_index_gives_the_same_outputs_as_a_solve_and_refuses_another_graph() {
    let dir = TempDir::new("index");
    let index = preprocessed_rome99(&dir);
    let outputs = |with_index: bool, name: &str| {
        let (dist, tree) = (
            dir.path(&format!("{name}.d")),
            dir.path(&format!("{name}.p")),
        );
        let mut args: Vec<std::ffi::OsString> = ["--device", "cpu", "--sources", "1,77,3353"]
            .iter()
            .map(Into::into)
            .collect();
        args.extend(["--verify".into(), "--limit".into(), "40000".into()]);
        args.extend(["--output".into(), dist.clone().into_os_string()]);
        args.extend(["--parents".into(), tree.clone().into_os_string()]);
        if with_index {
            args.extend(["--index".into(), index.clone().into_os_string()]);
        }
        let (code, stdout, stderr) = run(host().arg("--graph").arg(rome99()).args(&args));
        assert_eq!(code, 0, "{stdout}{stderr}");
        assert!(!stdout.contains("differ"), "{stdout}");
        (std::fs::read(dist).unwrap(), std::fs::read(tree).unwrap())
    };
    assert_eq!(outputs(true, "indexed"), outputs(false, "solved"));
    // The --json summaries agree on the graph, the query and every source's
    // figures; only the algorithm entry's name and times differ.
    let json = |with_index: bool| -> serde_json::Value {
        let mut args = vec!["--device", "cpu", "--sources", "1,77", "--verify", "--json"];
        let index = index.to_str().unwrap();
        if with_index {
            args.extend(["--index", index]);
        }
        let (code, stdout, stderr) = solve(&rome99(), &args);
        assert_eq!(code, 0, "{stdout}{stderr}");
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
    };
    let (indexed, solved) = (json(true), json(false));
    for field in [
        "graph",
        "vertices",
        "edges",
        "weights",
        "source",
        "sources",
        "numbering_base",
    ] {
        assert_eq!(indexed[field], solved[field], "{field}");
    }
    let sources = |j: &serde_json::Value| j["algorithms"][0]["sources"].as_array().unwrap().clone();
    assert_eq!(indexed["algorithms"][0]["name"], "phast-cpu");
    for (a, b) in sources(&indexed).iter().zip(&sources(&solved)) {
        for field in [
            "source",
            "reached",
            "max_distance",
            "checksum",
            "verified",
            "mismatches",
        ] {
            assert_eq!(a[field], b[field], "{field}");
        }
    }
    assert_eq!(sources(&indexed).len(), 2);
    // Without --verify the trees stream: the same figures in the summary.
    let index_arg = index.to_str().unwrap();
    let args = [
        "--device",
        "cpu",
        "--sources",
        "1,77",
        "--json",
        "--index",
        index_arg,
    ];
    let (code, stdout, stderr) = solve(&rome99(), &args);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let streamed: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"));
    assert_eq!(sources(&streamed).len(), 2);
    for (a, b) in sources(&streamed).iter().zip(&sources(&solved)) {
        for field in ["source", "reached", "max_distance", "checksum"] {
            assert_eq!(a[field], b[field], "streamed {field}");
        }
    }

    let other = dir.path("other.gr");
    std::fs::write(&other, "p sp 3 2\na 1 2 5\na 2 3 1\n").unwrap();
    let (code, _, stderr) = solve(&other, &["--index", index.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("contraction-hierarchy index"), "{stderr}");
    std::fs::write(&index, b"SSSPCH\0\0garbage").unwrap();
    let (code, _, stderr) = solve(&rome99(), &["--index", index.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("truncated"), "{stderr}");
}

#[test]
fn an_index_answers_tables_that_match_the_trees() {
    let dir = TempDir::new("index-table");
    let index = preprocessed_rome99(&dir);
    let table = dir.path("table.txt");
    let (code, stdout, stderr) = solve(
        &rome99(),
        &[
            "--device",
            "cpu",
            "--index",
            index.to_str().unwrap(),
            "--sources",
            "1,77",
            "--targets",
            "5,3353,1,200",
            "--verify",
            "--output",
            table.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("table        2 × 4"), "{stdout}");
    assert!(stdout.contains("verified: all 8 table entries"), "{stdout}");
    // Every entry is the tree's distance (written by the same binary without the index).
    let trees = dir.path("trees.txt");
    let (code, _, stderr) = solve(
        &rome99(),
        &[
            "--device",
            "cpu",
            "--sources",
            "1,77",
            "--output",
            trees.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let trees = std::fs::read_to_string(trees).unwrap();
    let table = std::fs::read_to_string(table).unwrap();
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 8);
    for line in lines {
        assert!(
            trees.lines().any(|t| t == line),
            "table line {line} is no tree line"
        );
    }
    let (code, _, stderr) = solve(
        &rome99(),
        &[
            "--index",
            index.to_str().unwrap(),
            "--targets",
            "1",
            "--parents",
            "p.txt",
        ],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--parents applies to trees"), "{stderr}");
}

#[test]
fn an_f32_index_verifies_within_its_bound_gives_its_paths_and_refuses_parents() {
    let dir = TempDir::new("index-f32");
    // A 25×25 grid with real weights whose sums round.
    let (w, h) = (25usize, 25usize);
    let mut text = format!("p sp {} {}\n", w * h, 2 * (w - 1) * h + 2 * w * (h - 1));
    let mut state = 12345u64;
    let mut weight = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        0.1 + (state >> 40) as f64 / (1u64 << 24) as f64 * 9.9
    };
    for y in 0..h {
        for x in 0..w {
            let v = y * w + x + 1;
            if x + 1 < w {
                text += &format!(
                    "a {v} {} {:.3}\na {} {v} {:.3}\n",
                    v + 1,
                    weight(),
                    v + 1,
                    weight()
                );
            }
            if y + 1 < h {
                text += &format!(
                    "a {v} {} {:.3}\na {} {v} {:.3}\n",
                    v + w,
                    weight(),
                    v + w,
                    weight()
                );
            }
        }
    }
    let graph = dir.path("grid.gr");
    std::fs::write(&graph, text).unwrap();
    let index = dir.path("grid.ch");
    let (code, stdout, stderr) = run(host()
        .args(["preprocess", "--weights", "f32", "--graph"])
        .arg(&graph)
        .arg("--output")
        .arg(&index));
    assert_eq!(code, 0, "{stdout}{stderr}");
    let index = index.to_str().unwrap();
    let base = ["--weights", "f32", "--device", "cpu", "--index", index];
    let (code, stdout, stderr) = solve(
        &graph,
        &[&base[..], &["--sources", "1,300,625", "--verify"]].concat(),
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(
        stdout
            .matches("verified: all 625 distances are within the index's f32 rounding bound")
            .count(),
        3,
        "{stdout}"
    );
    let (code, stdout, stderr) = solve(
        &graph,
        &[
            &base[..],
            &["--sources", "1,300", "--targets", "5,625", "--verify"],
        ]
        .concat(),
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("verified: all 4 distances are within"),
        "{stdout}"
    );
    // Distances written with the index are those of a solve without it, up to rounding.
    let (with, without) = (dir.path("with.txt"), dir.path("without.txt"));
    for (file, indexed) in [(&with, true), (&without, false)] {
        let mut args = vec!["--weights", "f32", "--device", "cpu", "--source", "300"];
        if indexed {
            args.extend(["--index", index]);
        }
        let (code, stdout, stderr) = solve(
            &graph,
            &[&args[..], &["--output", file.to_str().unwrap()]].concat(),
        );
        assert_eq!(code, 0, "{stdout}{stderr}");
    }
    let read = |file: &Path| -> Vec<f64> {
        std::fs::read_to_string(file)
            .unwrap()
            .lines()
            .map(|l| l.split_whitespace().last().unwrap().parse().unwrap())
            .collect()
    };
    let (a, b) = (read(&with), read(&without));
    assert_eq!(a.len(), w * h);
    for (x, y) in a.iter().zip(&b) {
        assert!((x - y).abs() <= 1e-4 * x.max(*y), "{x} against {y}");
    }
    // The index's own path, its shortcuts unpacked, checked with --verify.
    let path_to = ["--source", "1", "--path-to", "625", "--verify"];
    let (code, stdout, stderr) = solve(&graph, &[&base[..], &path_to].concat());
    assert_eq!(code, 0, "{stdout}{stderr}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("path "))
        .expect("a path line");
    assert!(line.contains("48 edges: 1 "), "{line}");
    assert!(
        stdout.contains("verified: the path's arcs are the graph's"),
        "{stdout}"
    );
    let (code, _, stderr) = solve(&graph, &[&base[..], &["--parents", "p.txt"]].concat());
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("index of f32 weights"), "{stderr}");
}

/// A pairs file of `count` random pairs of rome99's 1-based ids.
fn rome99_pairs(dir: &TempDir, count: usize, seed: u64) -> PathBuf {
    let path = dir.path(&format!("pairs-{count}.txt"));
    let mut x = seed | 1;
    let mut id = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        1 + x % 3353
    };
    let lines: String = (0..count).map(|_| format!("{} {}\n", id(), id())).collect();
    std::fs::write(&path, lines).unwrap();
    path
}

/// `--pairs` with `--verify` and `--output` on `device`: the output file.
fn pairs_output(dir: &TempDir, pairs: &Path, device: &str) -> (Vec<u8>, String) {
    let index = preprocessed_rome99(dir);
    let out = dir.path(&format!("pairs-{device}.txt"));
    let (code, stdout, stderr) = run(host()
        .arg("--graph")
        .arg(rome99())
        .args(["--device", device, "--verify", "--index"])
        .arg(&index)
        .arg("--pairs")
        .arg(pairs)
        .arg("--output")
        .arg(&out));
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("verified"), "{stdout}");
    (std::fs::read(&out).unwrap(), stdout)
}

#[test]
fn pairs_from_a_file_are_verified_and_written_on_the_cpu() {
    let dir = TempDir::new("pairs_cpu");
    let seed = std::process::id() as u64 * 0x9E37_79B9;
    println!("pairs seed {seed}");
    let pairs = rome99_pairs(&dir, 3000, seed);
    let (written, stdout) = pairs_output(&dir, &pairs, "cpu");
    assert!(stdout.contains("CPU"), "{stdout}");
    assert_eq!(String::from_utf8(written).unwrap().lines().count(), 3000);
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn pairs_on_the_gpu_equal_those_on_the_cpu() {
    let dir = TempDir::new("pairs_gpu");
    let seed = std::process::id() as u64 * 0x9E37_79B9;
    println!("pairs seed {seed}");
    // Enough pairs for the GPU.
    let pairs = rome99_pairs(&dir, 30_000, seed);
    let (gpu, stdout) = pairs_output(&dir, &pairs, "gpu");
    assert!(stdout.contains("on the GPU"), "{stdout}");
    let (cpu, _) = pairs_output(&dir, &pairs, "cpu");
    assert!(gpu == cpu, "the GPU's and the CPU's pairs differ");
}
