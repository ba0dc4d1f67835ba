//! The `host` binary end to end: f32 weights (Matrix Market reals, fractional DIMACS, binary output, conversion, JSON, Δ, generation).

mod common;

use sssp::formats::csr;
use std::path::Path;

use common::*;

#[test]
fn real_matrix_market_solves_with_f32_weights_and_verifies() {
    let dir = TempDir::new("f32-mtx");
    let graph = dir.path("real.mtx");
    std::fs::write(&graph, REAL_MTX).unwrap();
    let output = dir.path("dist.txt");
    let (code, out, err) = solve(
        &graph,
        &[
            "--device",
            "cpu",
            "--verify",
            "--output",
            output.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let expected = real_mtx_distances();
    assert!(out.contains("weights      f32"), "{out}");
    assert!(out.contains("reached      4 of 5 vertices"), "{out}");
    let max = expected[3].unwrap();
    assert!(out.contains(&format!("max distance {max}\n")), "{out}");
    assert!(
        out.contains(
            "verified: all 5 distances equal the f32 oracle's and are within f32 rounding of \
             the f64 oracle's"
        ),
        "{out}"
    );
    // Shortest round-trip forms, 1-based ids.
    let text = std::fs::read_to_string(&output).unwrap();
    assert_eq!(text, format!("1 0\n2 0.5\n3 0.75\n4 {max}\n5 inf\n"));
    let read: Vec<Option<f32>> = read_distances(&output)
        .into_iter()
        .map(|(_, d)| d)
        .collect();
    assert_eq!(read, expected);
    // --weights f32 changes nothing for a real file; --weights u32 is refused.
    let (code, out2, err) = solve(&graph, &["--device", "cpu", "--weights", "f32"]);
    assert_eq!(code, 0, "{err}");
    assert!(out2.contains(&format!("max distance {max}\n")), "{out2}");
    let (code, out, err) = solve(&graph, &["--device", "cpu", "--weights", "u32"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains(&format!("{}:1: ", graph.display()))
            && err.contains("`real`")
            && err.contains("--weights u32"),
        "{err}"
    );
}

#[test]
fn weights_f32_reads_fractional_dimacs_weights() {
    let dir = TempDir::new("f32-gr");
    let graph = dir.path("roads.gr");
    std::fs::write(
        &graph,
        "c km\np sp 4 4\na 1 2 0.5\na 2 3 1.25\na 1 3 2\na 3 1 .1\n",
    )
    .unwrap();
    // As u32 (the default), the fraction is an error that names the line and
    // the option.
    let (code, out, err) = solve(&graph, &["--device", "cpu"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains(&format!("{}:3: ", graph.display()))
            && err.contains("not an integer")
            && err.contains("--weights f32"),
        "{err}"
    );
    let output = dir.path("d.txt");
    let (code, out, err) = solve(
        &graph,
        &[
            "--device",
            "cpu",
            "--weights",
            "f32",
            "--verify",
            "--output",
            output.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("weights      f32"), "{out}");
    assert!(out.contains("max distance 1.75\n"), "{out}");
    assert!(
        out.contains("verified: all 4 distances equal the f32 oracle's"),
        "{out}"
    );
    assert_eq!(
        read_distances(&output),
        vec![(1, Some(0.0)), (2, Some(0.5)), (3, Some(1.75)), (4, None)]
    );
    // The same file read as u32 integers where it can be: a different graph.
    let ints = dir.path("ints.gr");
    std::fs::write(&ints, "p sp 2 1\na 1 2 3\n").unwrap();
    let (code, out, err) = solve(&ints, &["--device", "cpu", "--weights", "u32"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("weights      u32") && out.contains("max distance 3\n"),
        "{out}"
    );
}

#[test]
fn output_format_bin_for_f32_is_raw_little_endian_f32_with_inf() {
    let dir = TempDir::new("f32-bin");
    let graph = dir.path("real.mtx");
    std::fs::write(&graph, REAL_MTX).unwrap();
    let words = bin_words(&graph, &dir.path("dist.bin"));
    assert_eq!(words.len(), 5, "five 4-byte words");
    let floats: Vec<f32> = words.into_iter().map(f32::from_bits).collect();
    let expected: Vec<f32> = real_mtx_distances()
        .iter()
        .map(|d| d.unwrap_or(f32::INFINITY))
        .collect();
    assert_eq!(
        floats.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
        expected.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
        "{floats:?}"
    );
    assert_eq!(floats[4], f32::INFINITY);
}

#[test]
fn convert_keeps_f32_weights_and_the_csr_solves_the_same() {
    let dir = TempDir::new("f32-convert");
    let mtx = dir.path("real.mtx");
    std::fs::write(&mtx, REAL_MTX).unwrap();
    let csr = dir.path("real.csr");
    let (code, out, err) = run(host().arg("convert").arg(&mtx).arg(&csr));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("5 vertices, 5 edges (f32 weights)"), "{out}");
    let graph = csr::read(&csr).unwrap();
    assert_eq!(graph.weight_kind(), sssp::graph::WeightKind::F32);
    let bytes = std::fs::read(&csr).unwrap();
    assert_eq!(&bytes[16..20], &2u32.to_le_bytes(), "weight_type 2");
    let solved = |path: &Path, name: &str| {
        let output = dir.path(name);
        let (code, out, err) = solve(
            path,
            &[
                "--device",
                "cpu",
                "--verify",
                "--output",
                output.to_str().unwrap(),
            ],
        );
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("weights      f32"), "{out}");
        read_distances(&output)
            .into_iter()
            .map(|(_, d)| d.map(f32::to_bits))
            .collect::<Vec<_>>()
    };
    let from_mtx = solved(&mtx, "mtx.txt");
    let from_csr = solved(&csr, "csr.txt");
    assert_eq!(from_mtx, from_csr);
    let expected: Vec<Option<u32>> = real_mtx_distances()
        .iter()
        .map(|d| d.map(f32::to_bits))
        .collect();
    assert_eq!(from_csr, expected);
    // A g.csr file is read as its header says.
    let (code, _, err) = solve(&csr, &["--device", "cpu", "--weights", "u32"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("f32 weights"), "{err}");
    // --weights f32 on convert turns a DIMACS file into an f32 g.csr.
    let gr = dir.path("half.gr");
    std::fs::write(&gr, "p sp 2 1\na 1 2 0.5\n").unwrap();
    let half = dir.path("half.csr");
    let (code, _, err) = run(host()
        .args(["convert", "--quiet", "--weights", "f32"])
        .arg(&gr)
        .arg(&half));
    assert_eq!(code, 0, "{err}");
    let graph = csr::read(&half).unwrap();
    assert_eq!(graph.weights(), &[0.5f32.to_bits()]);
}

#[test]
fn negative_real_weights_exit_with_2_and_name_the_line() {
    let dir = TempDir::new("f32-negative");
    let graph = dir.path("neg.mtx");
    std::fs::write(
        &graph,
        "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 0.5\n2 1 -0.25\n",
    )
    .unwrap();
    let (code, out, err) = solve(&graph, &["--device", "cpu"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains(&format!("{}:4: ", graph.display())) && err.contains("`-0.25` is negative"),
        "{err}"
    );
    let out_path = dir.path("neg.csr");
    let (code, _, err) = run(host().arg("convert").arg(&graph).arg(&out_path));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(":4: "), "{err}");
    assert!(!out_path.exists());
    // Other bad reals, each with its line.
    for (w, what) in [
        ("nan", "not a number"),
        ("inf", "infinite"),
        ("1e39", "too large"),
    ] {
        let gr = dir.path("bad.gr");
        std::fs::write(&gr, format!("p sp 2 2\na 1 2 1\na 2 1 {w}\n")).unwrap();
        let (code, _, err) = solve(&gr, &["--device", "cpu", "--weights", "f32"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(":3: ") && err.contains(what), "{w}: {err}");
    }
}

#[test]
fn json_gives_the_weight_type_and_f32_distances_as_numbers() {
    let dir = TempDir::new("f32-json");
    let graph = dir.path("real.mtx");
    std::fs::write(&graph, REAL_MTX).unwrap();
    let (code, out, err) = solve(&graph, &["--device", "cpu", "--json", "--verify"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"));
    assert_eq!(json["weights"], "f32");
    let entry = &json["algorithms"][0];
    assert_eq!(entry["verified"], true);
    assert_eq!(entry["reached"], 4);
    // The exact value of the f32, as a JSON number.
    let max = real_mtx_distances()[3].unwrap();
    assert_eq!(entry["max_distance"].as_f64(), Some(max as f64));
    assert!(entry["max_distance"].as_u64().is_none());
    // u32 graphs: "u32" and an integer, as before.
    let gr = dir.path("small.gr");
    std::fs::write(&gr, SMALL_GR).unwrap();
    let (code, out, err) = solve(&gr, &["--device", "cpu", "--json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["weights"], "u32");
    assert_eq!(json["algorithms"][0]["max_distance"].as_u64(), Some(10));
}

#[test]
fn delta_is_an_integer_for_u32_and_a_real_for_f32_weights() {
    let dir = TempDir::new("f32-delta");
    let real = dir.path("real.mtx");
    std::fs::write(&real, REAL_MTX).unwrap();
    let gr = dir.path("small.gr");
    std::fs::write(&gr, SMALL_GR).unwrap();
    // Accepted: a real for f32 weights, an integer for u32.
    for (graph, delta) in [(&real, "0.5"), (&real, "3"), (&gr, "7")] {
        let (code, _, err) = solve(graph, &["--device", "cpu", "--delta", delta]);
        assert_eq!(code, 0, "--delta {delta}: {err}");
    }
    // Refused, exit 2, saying what Δ must be.
    let cases = [
        (&gr, "0.5", "positive integer"),
        (&gr, "4294967296", "positive integer"),
        (&real, "1e39", "positive real"),
        (&real, "1e-50", "positive real"),
        (&real, "0", "not a positive number"),
        (&gr, "-1", "not a positive number"),
        (&gr, "x", "not a positive number"),
        (&real, "nan", "not a positive number"),
    ];
    for (graph, delta, what) in cases {
        let (code, _, err) = solve(graph, &["--device", "cpu", &format!("--delta={delta}")]);
        assert_eq!(code, 2, "--delta {delta}: {err}");
        assert!(err.contains(what), "--delta {delta}: {err}");
    }
}

#[test]
fn gen_writes_f32_random_graphs_that_solve_and_verify() {
    let dir = TempDir::new("f32-gen");
    let graph = dir.path("real.csr");
    let (code, out, err) = run(host()
        .args([
            "gen",
            "--vertices",
            "3000",
            "--weights",
            "f32",
            "--min-weight",
            "0",
            "--max-weight",
            "1",
            "--output",
        ])
        .arg(&graph));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("3000 vertices, 21000 edges, f32 weights"),
        "{out}"
    );
    let g = csr::read(&graph).unwrap();
    assert_eq!(g.weight_kind(), sssp::graph::WeightKind::F32);
    assert!(
        g.weights()
            .iter()
            .all(|&w| (0.0..1.0).contains(&f32::from_bits(w)))
    );
    let (code, out, err) = solve(&graph, &["--device", "cpu", "--verify"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("verified: all 3000 distances equal the f32 oracle's"),
        "{out}"
    );
    // Grids are u32 only.
    let (code, _, err) = run(host()
        .args([
            "gen",
            "--kind",
            "grid",
            "--width",
            "4",
            "--height",
            "4",
            "--weights",
            "f32",
            "--output",
        ])
        .arg(dir.path("grid.csr")));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("u32 weights only"), "{err}");
}
