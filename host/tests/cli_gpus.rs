//! `--gpus` and `--all-sources` with `--index`: the parse errors, and the
//! spread's answers equal those of one device (on the CPU here; on a GPU
//! machine `--gpus 0,0` runs two workers on it).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{TempDir, host, run, solve};

/// A 12×12 grid (DIMACS, arcs both ways, weights 1..=9 from a fixed
/// sequence) and its index, in `dir`.
fn grid_and_index(dir: &TempDir) -> (PathBuf, PathBuf) {
    let (w, h) = (12usize, 12usize);
    let mut arcs = Vec::new();
    let mut state = 7u64;
    let mut weight = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        1 + (state >> 59) % 9
    };
    for y in 0..h {
        for x in 0..w {
            let v = y * w + x + 1;
            if x + 1 < w {
                arcs.push(format!(
                    "a {v} {} {}\na {} {v} {}",
                    v + 1,
                    weight(),
                    v + 1,
                    weight()
                ));
            }
            if y + 1 < h {
                arcs.push(format!(
                    "a {v} {} {}\na {} {v} {}",
                    v + w,
                    weight(),
                    v + w,
                    weight()
                ));
            }
        }
    }
    let graph = dir.path("grid.gr");
    let text = format!("p sp {} {}\n{}\n", w * h, arcs.len() * 2, arcs.join("\n"));
    std::fs::write(&graph, text).unwrap();
    let index = dir.path("grid.ch");
    let (code, stdout, stderr) = run(host()
        .args(["preprocess", "--graph"])
        .arg(&graph)
        .arg("--output")
        .arg(&index));
    assert_eq!(code, 0, "{stdout}{stderr}");
    (graph, index)
}

/// `vertex count sum` lines, or `source V within D: C vertices, sum S`.
fn counts(text: &str) -> BTreeMap<u64, (u64, f64)> {
    text.lines()
        .filter_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[..] {
                [v, c, s] => Some((v.parse().ok()?, (c.parse().ok()?, s.parse().ok()?))),
                ["source", v, "within", _, c, "vertices,", "sum", s] => {
                    Some((v.parse().ok()?, (c.parse().ok()?, s.parse().ok()?)))
                }
                _ => None,
            }
        })
        .collect()
}

#[test]
fn all_sources_within_equals_each_sources_within() {
    let dir = TempDir::new("gpus-all-sources");
    let (graph, index) = grid_and_index(&dir);
    let index = index.to_str().unwrap();
    let values = dir.path("values.txt");
    let text: Vec<String> = (0..144).map(|v| ((v * 7) % 5).to_string()).collect();
    std::fs::write(&values, text.join(" ")).unwrap();
    let values = values.to_str().unwrap();
    let output = dir.path("access.txt");
    let (code, stdout, stderr) = solve(
        &graph,
        &[
            "--index",
            index,
            "--within",
            "20",
            "--all-sources",
            "--values",
            values,
            "--progress",
            "--output",
            output.to_str().unwrap(),
            "--gpus",
            "0,0",
        ],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stderr.contains("accessibility 144 of 144 sources"),
        "{stderr}"
    );
    assert!(
        stdout.contains("accessibility 144 vertices within 20"),
        "{stdout}"
    );
    assert!(stdout.contains("devices "), "{stdout}");
    let all = counts(&std::fs::read_to_string(&output).unwrap());
    let sources: Vec<String> = (1..=144).map(|v| v.to_string()).collect();
    let (code, stdout, stderr) = solve(
        &graph,
        &[
            "--device",
            "cpu",
            "--index",
            index,
            "--within",
            "20",
            "--values",
            values,
            "--sources",
            &sources.join(","),
        ],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    let each = counts(&stdout);
    assert_eq!(all.len(), 144);
    assert_eq!(all, each);
}

#[test]
fn gpus_nearest_and_trees_equal_one_device() {
    let dir = TempDir::new("gpus-nearest");
    let (graph, index) = grid_and_index(&dir);
    let index = index.to_str().unwrap();
    let read = |file: &Path| {
        let mut lines: Vec<String> = std::fs::read_to_string(file)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        lines.sort();
        lines
    };
    for what in [&["--nearest"][..], &[]] {
        let (one, two, all) = (
            dir.path("one.txt"),
            dir.path("two.txt"),
            dir.path("all.txt"),
        );
        // `all`: every GPU of the machine (two or more where there are).
        for (file, gpus) in [(&one, None), (&two, Some("0,0")), (&all, Some("all"))] {
            let mut args = vec![
                "--index",
                index,
                "--sources",
                "3,50,77,140,3",
                "--batch",
                "2",
            ];
            args.extend(what);
            args.extend(["--output", file.to_str().unwrap()]);
            if let Some(gpus) = gpus {
                args.extend(["--gpus", gpus]);
            }
            let (code, stdout, stderr) = solve(&graph, &args);
            assert_eq!(code, 0, "{args:?}: {stdout}{stderr}");
        }
        assert_eq!(read(&one), read(&two), "{what:?}");
        assert_eq!(read(&one), read(&all), "{what:?}, every GPU");
    }
}

#[test]
fn gpus_refuses_a_bad_list_and_what_it_does_not_spread() {
    let dir = TempDir::new("gpus-errors");
    let (graph, index) = grid_and_index(&dir);
    let index = index.to_str().unwrap();
    let (code, stdout, stderr) = solve(
        &graph,
        &["--index", index, "--sources", "1,2", "--gpus", "0,x"],
    );
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains("`x` is not a device ordinal"), "{stderr}");
    let (code, stdout, stderr) = solve(
        &graph,
        &[
            "--index",
            index,
            "--sources",
            "1,2",
            "--gpus",
            "0",
            "--verify",
        ],
    );
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains("--gpus applies to"), "{stderr}");
    let (code, stdout, stderr) = solve(&graph, &["--index", index, "--all-sources"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains("--within"), "{stderr}");
    let (code, _, stderr) = solve(&graph, &["--sources", "1,2", "--gpus", "all"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--index"), "{stderr}");
}
