//! The `host` binary end to end: exit codes, messages, output files.
//! `SSSP_HOST_BIN` overrides the binary's path (for test binaries run elsewhere).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use sssp::Graph;
use sssp::formats::csr;

fn host() -> Command {
    let bin =
        std::env::var("SSSP_HOST_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_host").to_string());
    Command::new(bin)
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir =
            std::env::temp_dir().join(format!("sssp-cli-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
    fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(command: &mut Command) -> (i32, String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = command.output().expect("the host binary runs");
    (
        status.code().unwrap_or(-1),
        String::from_utf8_lossy(&stdout).into(),
        String::from_utf8_lossy(&stderr).into(),
    )
}

fn solve(graph: &Path, extra: &[&str]) -> (i32, String, String) {
    run(host().arg("--graph").arg(graph).args(extra))
}

#[test]
fn gen_then_solve_on_the_cpu_verifies() {
    let dir = TempDir::new("gen");
    let graph = dir.path("g.csr");
    let (code, out, err) = run(host()
        .args(["gen", "--vertices", "2Ki", "--seed", "3", "--output"])
        .arg(&graph));
    assert_eq!(code, 0, "gen failed: {err}");
    assert!(out.contains("2048 vertices, 14336 edges"), "{out}");
    let (code, out, err) = solve(&graph, &["--device", "cpu", "--verify"]);
    assert_eq!(code, 0, "solve failed: {err}");
    assert!(
        out.contains("verified: all 2048 distances equal the oracle's"),
        "{out}"
    );
}

#[test]
fn auto_device_solves_and_verifies_with_or_without_a_gpu() {
    let dir = TempDir::new("auto");
    let graph = dir.path("g.csr");
    assert_eq!(
        run(host()
            .args(["gen", "--vertices", "3000", "--output"])
            .arg(&graph))
        .0,
        0
    );
    let (code, out, err) = solve(&graph, &["--verify"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("verified: all 3000 distances equal the oracle's"),
        "{out}"
    );
    if !out.contains("iterations") {
        assert!(
            err.contains("notice: no CUDA GPU available"),
            "a CPU fallback must say so: {err}"
        );
    }
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn auto_runs_the_paged_partition_solver_on_a_grid_too_large_for_resident_mode() {
    // 2048² vertices need pieces larger than a block's shared memory (an
    // H100 has ~30 MB in all): `auto` picks the partition solver for the
    // grid's depth, which pages the grid's pieces.
    let dir = TempDir::new("auto_large_grid");
    let graph = dir.path("grid.csr");
    let (code, _, err) = run(host()
        .args([
            "gen", "--kind", "grid", "--width", "2048", "--height", "2048",
        ])
        .args(["--seed", "5", "--output"])
        .arg(&graph));
    assert_eq!(code, 0, "gen failed: {err}");
    let (code, out, err) = solve(&graph, &["--algo", "auto", "--certify", "--runs", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("auto         chose partition"), "{out}");
    assert!(
        out.contains("layout       ") && out.contains(", paged on "),
        "{out}"
    );
    assert!(
        out.contains("certified: all 4194304 distances are shortest"),
        "{out}"
    );
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn partition_runs_in_the_block_size_asked_for_and_refuses_others() {
    let dir = TempDir::new("block_threads");
    let graph = dir.path("grid.csr");
    let (code, _, err) = run(host()
        .args(["gen", "--kind", "grid", "--width", "120", "--height", "90"])
        .args(["--seed", "2", "--output"])
        .arg(&graph));
    assert_eq!(code, 0, "gen failed: {err}");
    for threads in ["256", "384", "768"] {
        let (code, out, err) = solve(
            &graph,
            &[
                "--algo",
                "partition",
                "--block-threads",
                threads,
                "--verify",
            ],
        );
        assert_eq!(code, 0, "{threads} threads: {err}");
        assert!(out.contains(&format!("of {threads} threads")), "{out}");
        assert!(
            out.contains("verified: all 10800 distances equal the oracle's"),
            "{out}"
        );
    }
    let (code, _, err) = solve(&graph, &["--algo", "partition", "--block-threads", "500"]);
    assert_ne!(code, 0, "500 threads accepted");
    assert!(err.contains("not 500"), "{err}");
}

#[test]
fn output_file_has_one_line_per_vertex_with_inf_for_unreachable() {
    let dir = TempDir::new("output");
    let graph_path = dir.path("g.csr");
    let graph = Graph::from_edges(4, &[(0, 1, 7), (1, 2, 3), (3, 0, 1)]).unwrap();
    csr::write(&graph, &graph_path).unwrap();
    let output = dir.path("dist.txt");
    let (code, _, err) = solve(
        &graph_path,
        &["--device", "cpu", "--output", output.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        "0 0\n1 7\n2 10\n3 inf\n"
    );
}

#[test]
fn bad_input_exits_with_2_and_names_the_problem() {
    let dir = TempDir::new("bad");
    let bad = dir.path("bad.csr");
    std::fs::write(
        &bad,
        b"NOTACSR!garbage that is long enough to hold a header....",
    )
    .unwrap();
    let (code, _, err) = solve(&bad, &["--device", "cpu"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("invalid g.csr file") && err.contains("magic"),
        "{err}"
    );

    let (code, _, err) = solve(&dir.path("missing.csr"), &["--device", "cpu"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("missing.csr"), "{err}");

    let good = dir.path("good.csr");
    csr::write(&Graph::from_edges(2, &[(0, 1, 1)]).unwrap(), &good).unwrap();
    let (code, _, err) = solve(&good, &["--device", "cpu", "--source", "5"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("source vertex 5 is out of range"), "{err}");

    let (code, _, err) = run(&mut host());
    assert_eq!(code, 2, "no arguments is a usage error: {err}");
    let (code, _, err) = run(host().args(["gen", "--vertices", "lots", "--output", "x.csr"]));
    assert_eq!(code, 2, "{err}");
}

#[test]
fn overflow_exits_with_2_and_says_so() {
    let dir = TempDir::new("overflow");
    let path = dir.path("g.csr");
    csr::write(
        &Graph::from_edges(3, &[(0, 1, u32::MAX), (1, 2, u32::MAX)]).unwrap(),
        &path,
    )
    .unwrap();
    let (code, _, err) = solve(&path, &["--device", "cpu"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("does not fit in a u32 distance"), "{err}");
    assert!(
        err.contains("vertex 1 does not fit"),
        "0-based in a g.csr file: {err}"
    );
    // A DIMACS file numbers from 1: the message names the file's id.
    let dimacs = dir.path("g.gr");
    let max = u32::MAX;
    std::fs::write(&dimacs, format!("p sp 3 2\na 1 2 {max}\na 2 3 {max}\n")).unwrap();
    for device in ["cpu", "auto"] {
        let (code, _, err) = solve(&dimacs, &["--device", device]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("vertex 2 does not fit"),
            "1-based in a DIMACS file: {err}"
        );
    }
}

#[test]
fn a_reader_that_closes_the_pipe_early_causes_no_panic() {
    use std::io::Read;
    let mut child = host()
        .arg("ptx")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the host binary runs");
    let mut first = [0u8; 16];
    let mut stdout = child.stdout.take().expect("piped stdout");
    stdout.read_exact(&mut first).expect("the PTX starts");
    drop(stdout);
    let output = child.wait_with_output().expect("the host binary ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("panicked") && output.status.code() != Some(101),
        "status {:?}, stderr: {stderr}",
        output.status
    );
}

#[test]
fn ptx_subcommand_prints_the_kernels() {
    let (code, out, _) = run(host().arg("ptx"));
    assert_eq!(code, 0);
    assert!(
        out.contains(".entry da2cf_relax_f"),
        "{}",
        &out[..out.len().min(400)]
    );
}

#[test]
fn several_algorithms_are_compared_in_a_table() {
    let dir = TempDir::new("algos");
    let graph = dir.path("g.csr");
    assert_eq!(
        run(host()
            .args(["gen", "--vertices", "1500", "--output"])
            .arg(&graph))
        .0,
        0
    );
    let (code, out, err) = solve(
        &graph,
        &[
            "--device",
            "cpu",
            "--verify",
            "--algo",
            "f-cpu,u-cpu,crauser-general-pred-cpu",
        ],
    );
    assert_eq!(code, 0, "{err}");
    for name in ["f-cpu", "u-cpu", "crauser-general-pred-cpu"] {
        let row = out
            .lines()
            .find(|l| l.starts_with(name) && l.ends_with("verified"));
        assert!(row.is_some(), "no verified table row for {name}: {out}");
    }
}

#[test]
fn algos_lists_every_algorithm_and_unknown_names_are_usage_errors() {
    let (code, out, _) = run(host().arg("algos"));
    assert_eq!(code, 0);
    for algo in sssp::algorithms::Algorithm::ALL {
        assert!(
            out.lines().any(|l| l.starts_with(algo.name())),
            "`host algos` misses {algo}"
        );
    }
    let (code, _, err) = run(host().args(["--graph", "x.csr", "--algo", "nope"]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unknown algorithm `nope`"), "{err}");
}

// ---------------------------------------------------------------------------
// Text input formats, convert, --output-format, --json.

/// graphs/rome99.gr: from the source tree, or, for test binaries run elsewhere
/// (dist/run-tests.sh), from the working directory or its parent.
fn rome99() -> PathBuf {
    let from_env = std::env::var_os("SSSP_GRAPHS_DIR").map(|d| PathBuf::from(d).join("rome99.gr"));
    let candidates: Vec<PathBuf> = from_env
        .into_iter()
        .chain([
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../graphs/rome99.gr"),
            PathBuf::from("graphs/rome99.gr"),
            PathBuf::from("../graphs/rome99.gr"),
        ])
        .collect();
    candidates
        .iter()
        .find(|p| p.exists())
        .cloned()
        .unwrap_or_else(|| panic!("graphs/rome99.gr not found (tried {candidates:?})"))
}

/// A 4-vertex DIMACS graph: 1 -> 2 (7), 2 -> 3 (3), 4 -> 1 (1); vertex 4 is
/// unreachable from 1.
const SMALL_GR: &str = "c small\np sp 4 3\na 1 2 7\na 2 3 3\na 4 1 1\n";

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

/// Solves `graph` on the CPU with `--output OUTPUT --output-format bin` and
/// returns the file's little-endian 4-byte words (distances, or `f32` bits).
fn bin_words(graph: &Path, output: &Path) -> Vec<u32> {
    let (code, _, err) = solve(
        graph,
        &[
            "--device",
            "cpu",
            "--output",
            output.to_str().unwrap(),
            "--output-format",
            "bin",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(output).unwrap();
    assert_eq!(bytes.len() % 4, 0, "{} bytes: not whole words", bytes.len());
    bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
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
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no-such-dir/tree.txt"), "{err}");
}

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

// ---------------------------------------------------------------------------
// f32 weights: Matrix Market `real`, --weights, output, convert, --delta.

/// A 5-vertex Matrix Market `real` graph: 1 -> 2 (0.5), 2 -> 3 (0.25),
/// 1 -> 3 (1), 3 -> 4 (0.1), 5 -> 1 (2); vertex 5 is unreachable from 1.
const REAL_MTX: &str = "%%MatrixMarket matrix coordinate real general\n% reals\n5 5 5\n\
                        1 2 0.5\n2 3 0.25\n1 3 1.0\n3 4 1e-1\n5 1 2\n";

/// The distances from vertex 1 of [`REAL_MTX`] in f32 arithmetic (`None`:
/// unreachable).
fn real_mtx_distances() -> [Option<f32>; 5] {
    let d3 = 0.5f32 + 0.25;
    [Some(0.0), Some(0.5), Some(d3), Some(d3 + 0.1), None]
}

/// The `vertex distance` lines of a text `--output` file, as floats.
fn read_distances(path: &Path) -> Vec<(u64, Option<f32>)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| {
            let (v, d) = line.split_once(' ').unwrap();
            let d = (d != "inf").then(|| d.parse::<f32>().unwrap());
            (v.parse().unwrap(), d)
        })
        .collect()
}

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

/// The oracle's distances of rome99 from the 1-based `source`, words above
/// `bound` unreached.
fn rome99_bounded(source: usize, bound: u32) -> Vec<u32> {
    let graph = sssp::formats::load(rome99(), None)
        .and_then(|g| g.into_graph())
        .expect("rome99 loads");
    sssp::oracle::dijkstra(&graph, source - 1)
        .expect("oracle")
        .into_iter()
        .map(|d| if d <= bound { d } else { u32::MAX })
        .collect()
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

/// `host preprocess` of rome99 into `dir`: the index file.
fn preprocessed_rome99(dir: &TempDir) -> PathBuf {
    let index = dir.path("rome99.ch");
    let (code, stdout, stderr) = run(host()
        .arg("preprocess")
        .arg("--graph")
        .arg(rome99())
        .arg("--output")
        .arg(&index));
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("levels"), "{stdout}");
    index
}

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
