//! The `host` binary end to end: Δ and certificates, several sources, limits, targets, transformed graphs.

mod common;

use common::*;

#[test]
fn near_far_and_fast_on_the_cpu_verify_and_certify_rome99() {
    let rome = rome99();
    for algo in ["near-far-cpu", "fast-cpu", "fast-crauser-cpu"] {
        let (code, out, err) = solve(
            &rome,
            &[
                "--device",
                "cpu",
                "--algo",
                algo,
                "--verify",
                "--certify",
                "--source",
                "1",
            ],
        );
        assert_eq!(code, 0, "{algo}: {err}");
        assert!(
            out.contains("verified: all 3353 distances"),
            "{algo}: {out}"
        );
        assert!(
            out.contains("certified: all 3353 distances are shortest"),
            "{algo}: {out}"
        );
    }
    let (code, out, err) = solve(
        &rome,
        &[
            "--device",
            "cpu",
            "--algo",
            "near-far-cpu",
            "--delta",
            "7",
            "--verify",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("verified"), "{out}");
}

#[test]
fn bad_delta_and_uncertifiable_graphs_are_errors() {
    let rome = rome99();
    let (code, _, err) = solve(&rome, &["--device", "cpu", "--delta", "0"]);
    assert_eq!(code, 2, "--delta 0: {err}");
    let dir = TempDir::new("certify-zero");
    let graph = dir.path("zero.gr");
    std::fs::write(&graph, "p sp 2 1\na 1 2 0\n").unwrap();
    let (code, out, err) = solve(
        &graph,
        &["--device", "cpu", "--algo", "fast-cpu", "--certify"],
    );
    // InvalidArgument: exit code 2, like every refused input.
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("positive weights"), "{err}");
}

#[test]
fn delta_without_near_far_is_refused_and_an_unused_delta_is_noted() {
    let rome = rome99();
    // No requested algorithm takes Δ: refused before the graph is read.
    for algos in ["f-cpu,fast-cpu", "dijkstra"] {
        let (code, out, err) = solve(&rome, &["--algo", algos, "--delta", "5"]);
        assert_eq!(code, 2, "--algo {algos}: {out}{err}");
        assert!(err.contains("no requested algorithm"), "{err}");
        assert!(err.contains(algos.replace(',', ", ").as_str()), "{err}");
        assert!(out.is_empty(), "refused before loading: {out}");
    }
    let (code, out, err) = solve(&rome, &["--layout", "matrix", "--delta", "5"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("matrix-f-gpu"), "{err}");
    // One of them takes it: each other one says it does not use it.
    let (code, out, err) = solve(
        &rome,
        &["--algo", "f-cpu,near-far-cpu", "--delta", "5", "--verify"],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("notice: `f-cpu` does not use --delta"),
        "{err}"
    );
    assert!(!err.contains("`near-far-cpu` does not"), "{err}");
}

#[test]
fn several_sources_and_a_limit_write_one_row_per_source() {
    let dir = TempDir::new("sources");
    let (text, bin) = (dir.path("d.txt"), dir.path("d.bin"));
    let sources_file = dir.path("s.ss");
    std::fs::write(&sources_file, "c rome\np aux sp ss 3\ns 1\ns 5\ns 1\n").unwrap();
    let by_list = ["--sources", "1,5,1"];
    let by_file = ["--sources-file", sources_file.to_str().unwrap()];
    for given in [&by_list[..], &by_file[..]] {
        let mut args = vec!["--device", "cpu", "--verify", "--limit", "3000.7"];
        args.extend_from_slice(given);
        args.extend_from_slice(&["--output", text.to_str().unwrap()]);
        let (code, out, err) = solve(&rome99(), &args);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("sources      3: 1 5 1"), "{out}");
        assert!(out.contains("limit        3000"), "{out}");
        assert!(out.contains("checked      3 of 3 sources passed"), "{out}");
        let lines: Vec<String> = std::fs::read_to_string(&text)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        assert_eq!(lines.len(), 3 * 3353);
        for (row, source) in [1usize, 5, 1].into_iter().enumerate() {
            let expected = rome99_bounded(source, 3000);
            for (v, &d) in expected.iter().enumerate() {
                let shown = if d == u32::MAX {
                    "inf".to_string()
                } else {
                    d.to_string()
                };
                assert_eq!(lines[row * 3353 + v], format!("{source} {} {shown}", v + 1));
            }
        }
    }
    let args = [
        "--device",
        "cpu",
        "--sources",
        "5,1",
        "--limit",
        "3000",
        "--output-format",
        "bin",
        "--output",
        bin.to_str().unwrap(),
    ];
    let (code, _, err) = solve(&rome99(), &args);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&bin).unwrap();
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let mut expected = rome99_bounded(5, 3000);
    expected.extend(rome99_bounded(1, 3000));
    assert_eq!(words, expected, "a row-major 2 x n matrix");
}

#[test]
fn target_stops_at_its_vertex_and_prints_the_path() {
    let dir = TempDir::new("target");
    let output = dir.path("d.txt");
    let args = [
        "--device",
        "cpu",
        "--verify",
        "--target",
        "100",
        "--output",
        output.to_str().unwrap(),
        "--json",
    ];
    let (code, out, err) = solve(&rome99(), &args);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let full = rome99_bounded(1, u32::MAX);
    assert_eq!(json["target"], 100);
    assert_eq!(json["path"]["target"], 100);
    assert_eq!(json["path"]["distance"], full[99]);
    assert_eq!(json["algorithms"][0]["verified"], true);
    assert_eq!(json["algorithms"][0]["tree_verified"], true);
    let vertices = json["path"]["vertices"].as_array().expect("a path");
    assert_eq!(vertices.first(), Some(&serde_json::json!(1)));
    assert_eq!(vertices.last(), Some(&serde_json::json!(100)));
    let expected = rome99_bounded(1, full[99]);
    let written = std::fs::read_to_string(&output).unwrap();
    for (line, d) in written.lines().zip(&expected) {
        let shown = line.split(' ').nth(1).expect("vertex distance");
        match *d {
            u32::MAX => assert_eq!(shown, "inf", "{line}"),
            d => assert_eq!(shown, d.to_string(), "{line}"),
        }
    }
}

#[test]
fn undirected_and_unweighted_read_the_graph_as_asked() {
    let dir = TempDir::new("undirected");
    let graph = dir.path("small.gr");
    std::fs::write(&graph, SMALL_GR).unwrap();
    let output = dir.path("d.txt");
    let distances = |extra: &[&str]| {
        let mut args = vec!["--device", "cpu", "--verify", "--output"];
        args.push(output.to_str().unwrap());
        args.extend_from_slice(extra);
        let (code, out, err) = solve(&graph, &args);
        assert_eq!(code, 0, "{err}");
        (out, std::fs::read_to_string(&output).unwrap())
    };
    // 1 -> 2 (7), 2 -> 3 (3), 4 -> 1 (1): vertex 4 only reachable undirected.
    let (_, plain) = distances(&[]);
    assert_eq!(plain, "1 0\n2 7\n3 10\n4 inf\n");
    let (out, undirected) = distances(&["--undirected"]);
    assert!(out.contains("edges        6"), "{out}");
    assert_eq!(undirected, "1 0\n2 7\n3 10\n4 1\n");
    let (_, hops) = distances(&["--undirected", "--unweighted"]);
    assert_eq!(hops, "1 0\n2 1\n3 2\n4 1\n");
}

#[test]
fn bad_sources_limits_and_targets_exit_with_2() {
    let dir = TempDir::new("bad-queries");
    let empty = dir.path("empty.txt");
    std::fs::write(&empty, "\n").unwrap();
    let cases: [(&[&str], &str); 7] = [
        (&["--sources", "0,1"], "source vertex 0 is out of range"),
        (
            &["--source", "1", "--sources", "2"],
            "give the sources once",
        ),
        (&["--limit", "-1"], "not a non-negative number"),
        (
            &["--target", "3354"],
            "--target vertex 3354 is out of range",
        ),
        (
            &["--sources", "1,2", "--path-to", "3"],
            "--path-to takes a single source",
        ),
        (
            &["--sources-file", empty.to_str().unwrap()],
            "lists no source",
        ),
        (
            &["--target", "3", "--path-to", "4"],
            "name different vertices",
        ),
    ];
    for (args, message) in cases {
        let mut all = vec!["--device", "cpu"];
        all.extend_from_slice(args);
        let (code, _, err) = solve(&rome99(), &all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

/// Many sources without checks stream their rows (summarized and written
/// while the next source solves); with `--verify` the rows are kept and
/// checked. Both give the same files, byte for byte, and the same
/// checksums, in text and in binary.
#[test]
fn streamed_rows_write_what_kept_rows_write() {
    let rome = rome99();
    let dir = TempDir::new("streamed-rows");
    for format in ["text", "bin"] {
        let mut files = Vec::new();
        let mut checksums = Vec::new();
        for (name, check) in [("streamed", None), ("kept", Some("--verify"))] {
            let file = dir.path(&format!("{name}.{format}"));
            let file_arg = file.to_str().unwrap().to_string();
            let mut args = vec![
                "--device",
                "cpu",
                "--sources",
                "1,77,3353,77",
                "--limit",
                "40000",
                "--output-format",
                format,
                "--output",
                &file_arg,
            ];
            args.extend(check);
            let (code, out, err) = solve(&rome, &args);
            assert_eq!(code, 0, "{name}, {format}: {err}");
            let streamed = out.contains("while the next source solves");
            assert_eq!(streamed, check.is_none(), "{name}, {format}: {out}");
            let sums: Vec<String> = out
                .lines()
                .filter(|l| l.starts_with("source "))
                .map(|l| l.split("checksum ").nth(1).unwrap_or("").to_string())
                .map(|rest| rest.chars().take(16).collect())
                .collect();
            assert_eq!(sums.len(), 4, "{name}, {format}: {out}");
            checksums.push(sums);
            files.push(std::fs::read(&file).unwrap());
        }
        assert_eq!(checksums[0], checksums[1], "{format}");
        assert_eq!(files[0], files[1], "{format}: the files differ");
        assert!(!files[0].is_empty());
    }
}
