//! The `host` binary end to end: exit codes, messages, output files.
//! `SSSP_HOST_BIN` overrides the binary's path (for test binaries run elsewhere).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use sssp::{Graph, format};

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
fn output_file_has_one_line_per_vertex_with_inf_for_unreachable() {
    let dir = TempDir::new("output");
    let graph_path = dir.path("g.csr");
    let graph = Graph::from_edges(4, &[(0, 1, 7), (1, 2, 3), (3, 0, 1)]).unwrap();
    format::write(&graph, &graph_path).unwrap();
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
    format::write(&Graph::from_edges(2, &[(0, 1, 1)]).unwrap(), &good).unwrap();
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
    format::write(
        &Graph::from_edges(3, &[(0, 1, u32::MAX), (1, 2, u32::MAX)]).unwrap(),
        &path,
    )
    .unwrap();
    let (code, _, err) = solve(&path, &["--device", "cpu"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("does not fit in a u32 distance"), "{err}");
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
