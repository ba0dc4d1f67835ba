//! The `host` binary end to end: input numbering, output files and formats, the JSON summary, paths and trees, conversion, help.

mod common;

use sssp::Graph;
use sssp::formats::csr;

use common::*;

#[test]
fn rome99_solves_on_the_cpu_and_verifies() {
    let (code, out, err) = solve(&rome99(), &["--device", "cpu", "--verify"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("format       DIMACS .gr"), "{out}");
    assert!(out.contains("vertices     3353"), "{out}");
    assert!(out.contains("edges        8870"), "{out}");
    assert!(
        out.contains("source       1 "),
        "the default source is vertex 1: {out}"
    );
    assert!(
        out.contains("verified: all 3353 distances equal the oracle's"),
        "{out}"
    );
}

#[test]
fn one_based_inputs_read_and_write_one_based_ids() {
    let dir = TempDir::new("one-based");
    let graph = dir.path("small.gr");
    std::fs::write(&graph, SMALL_GR).unwrap();
    let output = dir.path("dist.txt");
    let (code, out, err) = solve(
        &graph,
        &["--device", "cpu", "--output", output.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("source       1"), "{out}");
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        "1 0\n2 7\n3 10\n4 inf\n"
    );
    // --source 4 is the file's vertex 4.
    let (code, _, err) = solve(
        &graph,
        &[
            "--device",
            "cpu",
            "--source",
            "4",
            "--output",
            output.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        "1 1\n2 8\n3 11\n4 0\n"
    );
    // Vertex 0 does not exist in a 1-based file, nor does vertex 5.
    for bad in ["0", "5"] {
        let (code, _, err) = solve(&graph, &["--device", "cpu", "--source", bad]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains(&format!("source vertex {bad} is out of range"))
                && err.contains("numbered 1 to 4"),
            "{err}"
        );
    }
    // The same graph as a Matrix Market file gives the same lines.
    let mtx = dir.path("small.mtx");
    std::fs::write(
        &mtx,
        "%%MatrixMarket matrix coordinate integer general\n4 4 3\n1 2 7\n2 3 3\n4 1 1\n",
    )
    .unwrap();
    let (code, _, err) = solve(
        &mtx,
        &["--device", "cpu", "--output", output.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        "1 0\n2 7\n3 10\n4 inf\n"
    );
    // An edge list is 0-based.
    let el = dir.path("small.el");
    std::fs::write(&el, "# 0-based\n0 1 7\n1 2 3\n3 0 1\n").unwrap();
    let (code, _, err) = solve(
        &el,
        &["--device", "cpu", "--output", output.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        "0 0\n1 7\n2 10\n3 inf\n"
    );
}

#[test]
fn output_format_bin_is_raw_little_endian_u32() {
    let dir = TempDir::new("bin");
    let graph = dir.path("small.gr");
    std::fs::write(&graph, SMALL_GR).unwrap();
    let words = bin_words(&graph, &dir.path("dist.bin"));
    assert_eq!(words, [0u32, 7, 10, u32::MAX]);
    let (code, _, err) = solve(&graph, &["--device", "cpu", "--output-format", "csv"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn json_summary_is_the_only_stdout() {
    let (code, out, err) = solve(
        &rome99(),
        &[
            "--device",
            "cpu",
            "--verify",
            "--json",
            "--algo",
            "dijkstra,f-cpu",
            "--source",
            "7",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"));
    assert!(json["graph"].as_str().unwrap().ends_with("rome99.gr"));
    assert_eq!(json["format"], "DIMACS .gr");
    assert_eq!(json["vertices"], 3353);
    assert_eq!(json["edges"], 8870);
    assert_eq!(json["source"], 7);
    assert_eq!(json["numbering_base"], 1);
    let algorithms = json["algorithms"].as_array().unwrap();
    assert_eq!(algorithms.len(), 2);
    for (entry, name) in algorithms.iter().zip(["dijkstra", "f-cpu"]) {
        assert_eq!(entry["name"], name);
        assert_eq!(entry["verified"], true);
        assert_eq!(entry["reached"], 3353);
        assert!(entry["max_distance"].as_u64().unwrap() > 0);
        assert_eq!(entry["checksum"].as_str().unwrap().len(), 16);
        assert!(entry["solve_ms"]["median"].as_f64().unwrap() >= 0.0);
        assert!(entry.get("iterations").is_some());
    }
    assert_eq!(algorithms[0]["checksum"], algorithms[1]["checksum"]);
    assert!(algorithms[1]["iterations"].as_u64().unwrap() > 0);
    // Without --verify, `verified` is null.
    let (code, out, err) = solve(&rome99(), &["--device", "cpu", "--json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(json["algorithms"][0]["verified"].is_null());
}

#[test]
fn parse_errors_exit_with_2_and_name_file_and_line() {
    let dir = TempDir::new("parse-error");
    let graph = dir.path("bad.gr");
    std::fs::write(&graph, "p sp 3 2\na 1 2 1\na 1 2 -4\n").unwrap();
    let (code, out, err) = solve(&graph, &["--device", "cpu"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains(&format!("{}:3: ", graph.display())) && err.contains("negative"),
        "{err}"
    );
    // An unknown extension asks for --format, which then works.
    let odd = dir.path("graph.data");
    std::fs::write(&odd, SMALL_GR).unwrap();
    let (code, _, err) = solve(&odd, &["--device", "cpu"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--format"), "{err}");
    let (code, out, err) = solve(&odd, &["--device", "cpu", "--format", "dimacs"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("vertices     4"), "{out}");
}

#[test]
fn convert_round_trips_every_format() {
    let dir = TempDir::new("convert");
    let expected = Graph::from_edges(4, &[(0, 1, 7), (1, 2, 3), (3, 0, 1)]).unwrap();
    let mtx = "%%MatrixMarket matrix coordinate integer general\n4 4 3\n1 2 7\n2 3 3\n4 1 1\n";
    let inputs: [(&str, &[u8], &[&str]); 4] = [
        ("small.gr", SMALL_GR.as_bytes(), &[]),
        ("small.mtx", mtx.as_bytes(), &[]),
        ("small.el", b"0 1 7\n1 2 3\n3 0 1\n", &[]),
        (
            "small.tsv",
            b"0\t1\t7\n1\t2\t3\n3\t0\t1\n",
            &["--format", "edgelist"],
        ),
    ];
    for (name, text, extra) in inputs {
        let input = dir.path(name);
        std::fs::write(&input, text).unwrap();
        let output = dir.path(&format!("{name}.csr"));
        let (code, out, err) = run(host().arg("convert").args(extra).arg(&input).arg(&output));
        assert_eq!(code, 0, "{name}: {err}");
        assert!(out.contains("4 vertices, 3 edges"), "{out}");
        let graph = csr::read(&output).unwrap();
        assert_eq!(graph, expected, "{name}");
        // The text parsed directly gives the same graph.
        let direct = sssp::formats::load(
            &input,
            extra.get(1).map(|_| sssp::formats::Format::EdgeList),
        )
        .unwrap()
        .into_graph()
        .unwrap();
        assert_eq!(direct, expected, "{name}");
    }
    // rome99: solving the converted file from vertex 0 gives the checksum of
    // solving the text from vertex 1.
    let csr = dir.path("rome99.csr");
    let (code, _, err) = run(host().args(["convert", "--quiet"]).arg(rome99()).arg(&csr));
    assert_eq!(code, 0, "{err}");
    let checksum = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("checksum"))
            .map(str::to_string)
            .unwrap()
    };
    let (_, from_text, _) = solve(&rome99(), &["--device", "cpu"]);
    let (_, from_csr, _) = solve(&csr, &["--device", "cpu"]);
    assert_eq!(checksum(&from_text), checksum(&from_csr));
    // Bad input: exit 2, the file and line named, no output file.
    let bad = dir.path("bad.gr");
    std::fs::write(&bad, "p sp 2 1\n\na 1 2 0.5\n").unwrap();
    let out_path = dir.path("bad.csr");
    let (code, _, err) = run(host().arg("convert").arg(&bad).arg(&out_path));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(":3: ") && err.contains("--weights f32"),
        "{err}"
    );
    assert!(!out_path.exists());
}

#[test]
fn every_subcommand_help_has_an_example() {
    for sub in [
        &[][..],
        &["gen"],
        &["convert"],
        &["bench"],
        &["algos"],
        &["ptx"],
    ] {
        let (code, out, err) = run(host().args(sub).arg("--help"));
        assert_eq!(code, 0, "{sub:?}: {err}");
        assert!(
            out.contains("Example"),
            "{sub:?} --help has no example: {out}"
        );
    }
    let (_, out, _) = run(host().arg("--help"));
    for flag in ["--format", "--output-format", "--json", "--source"] {
        assert!(out.contains(flag), "--help does not mention {flag}");
    }
    assert!(out.contains("--source 1 is the first vertex"), "{out}");
}

#[test]
fn parents_and_path_to_use_the_inputs_numbering() {
    let dir = TempDir::new("parents");
    let graph = dir.path("small.gr");
    std::fs::write(&graph, SMALL_GR).unwrap();
    let tree = dir.path("tree.txt");
    let tree_arg = tree.to_str().unwrap();
    let (code, out, err) = solve(
        &graph,
        &[
            "--device",
            "cpu",
            "--parents",
            tree_arg,
            "--path-to",
            "3",
            "--verify",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(&tree).unwrap(),
        "1 -\n2 1\n3 2\n4 -\n"
    );
    assert!(
        out.contains("path         to 3: length 10, 2 edges: 1 2 3"),
        "{out}"
    );
    assert!(
        out.contains("verified: the tree is the one the oracle's distances give"),
        "{out}"
    );
    let (code, out, err) = solve(&graph, &["--device", "cpu", "--path-to", "4"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("path         to 4: unreachable from 1"),
        "{out}"
    );
    let (code, out, err) = solve(
        &graph,
        &["--device", "cpu", "--source", "4", "--path-to", "3"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("to 3: length 11, 3 edges: 4 1 2 3"), "{out}");
    let (code, out, err) = solve(&graph, &["--device", "cpu", "--path-to", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("to 1: length 0, 0 edges: 1"), "{out}");
    // Binary: 0-based ids, u32::MAX for no parent.
    let (code, _, err) = solve(
        &graph,
        &[
            "--device",
            "cpu",
            "--parents",
            tree_arg,
            "--output-format",
            "bin",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let expected: Vec<u8> = [u32::MAX, 0, 1, u32::MAX]
        .iter()
        .flat_map(|p| p.to_le_bytes())
        .collect();
    assert_eq!(std::fs::read(&tree).unwrap(), expected);
    // A 0-based edge list writes 0-based parents.
    let el = dir.path("small.el");
    std::fs::write(&el, "0 1 7\n1 2 3\n3 0 1\n").unwrap();
    let (code, _, err) = solve(&el, &["--device", "cpu", "--parents", tree_arg]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(&tree).unwrap(),
        "0 -\n1 0\n2 1\n3 -\n"
    );
}

#[test]
fn path_to_goes_into_the_json_summary() {
    let (code, out, err) = solve(
        &rome99(),
        &["--device", "cpu", "--json", "--verify", "--path-to", "3353"],
    );
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"));
    let path = &json["path"];
    assert_eq!(path["target"], 3353);
    assert_eq!(path["reachable"], true);
    let vertices: Vec<u64> = path["vertices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!((vertices[0], vertices[vertices.len() - 1]), (1, 3353));
    assert!(path["distance"].as_u64().unwrap() > 0);
    assert_eq!(json["algorithms"][0]["tree_verified"], true);
    // Without --path-to there is no path.
    let (code, out, err) = solve(&rome99(), &["--device", "cpu", "--json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(json["path"].is_null() && json["algorithms"][0]["tree_verified"].is_null());
}

#[test]
fn bad_parents_and_path_to_arguments_exit_with_2() {
    let dir = TempDir::new("parents-bad");
    let graph = dir.path("small.gr");
    std::fs::write(&graph, SMALL_GR).unwrap();
    // Ids outside the file's numbering.
    for bad in ["0", "5"] {
        let (code, out, err) = solve(&graph, &["--device", "cpu", "--path-to", bad]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains(&format!("--path-to vertex {bad} is out of range"))
                && err.contains("numbered 1 to 4"),
            "{err}"
        );
        assert!(!out.contains("algorithm"), "rejected before solving: {out}");
    }
    let el = dir.path("small.el");
    std::fs::write(&el, "0 1 7\n1 2 3\n3 0 1\n").unwrap();
    let (code, _, err) = solve(&el, &["--device", "cpu", "--path-to", "4"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("numbered 0 to 3"), "{err}");
    // Not a number, several algorithms, a file that cannot be written.
    let (code, _, err) = solve(&graph, &["--device", "cpu", "--path-to", "x"]);
    assert_eq!(code, 2, "{err}");
    for flag in [&["--parents", "t.txt"][..], &["--path-to", "2"]] {
        let (code, _, err) = solve(
            &graph,
            &[&["--device", "cpu", "--algo", "dijkstra,f-cpu"][..], flag].concat(),
        );
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains(&format!("{} takes a single --algo", flag[0])),
            "{err}"
        );
    }
    let unwritable = dir.path("no-such-dir/tree.txt");
    let (code, _, err) = solve(
        &graph,
        &["--device", "cpu", "--parents", unwritable.to_str().unwrap()],
    );
    // A file that cannot be written is a failure at run time, found before the solve.
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no-such-dir/tree.txt"), "{err}");
}
