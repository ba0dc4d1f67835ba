//! The `host` binary end to end: commands, devices, exit codes, messages.

mod common;

use sssp::Graph;
use sssp::formats::csr;

use common::*;

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
    // A one-off solve of a graph this small runs on the CPU at once, which
    // the summary says; a larger one without a GPU after a notice.
    assert!(
        out.contains("device       the CPU: 1 solve of at most"),
        "a one-off solve of 3000 vertices runs on the CPU: {out}"
    );
    let (code, out, err) = solve(&graph, &["--verify", "--runs", "3"]);
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
fn the_partition_solver_pages_a_grid_too_large_for_resident_mode_and_auto_plans_one_solve() {
    // 2048² vertices need pieces larger than a block's shared memory (an
    // H100 has ~30 MB in all): the partition solver pages the grid's pieces.
    let dir = TempDir::new("auto_large_grid");
    let graph = dir.path("grid.csr");
    let (code, _, err) = run(host()
        .args([
            "gen", "--kind", "grid", "--width", "2048", "--height", "2048",
        ])
        .args(["--seed", "5", "--output"])
        .arg(&graph));
    assert_eq!(code, 0, "gen failed: {err}");
    let (code, out, err) = solve(&graph, &["--algo", "partition", "--certify", "--runs", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("layout       ") && out.contains(", paged on "),
        "{out}"
    );
    assert!(
        out.contains("certified: all 4194304 distances are shortest"),
        "{out}"
    );
    // One solve: `auto` takes its choice for the grid's depth without a
    // trial, which would cost more than it saves (what does not depend on
    // the clock: no trial's times in the reason).
    let (code, out, err) = solve(&graph, &["--certify", "--runs", "1", "--warmup", "0"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("auto         chose near-far"), "{out}");
    assert!(
        out.contains("for one solve near-far without a trial"),
        "{out}"
    );
    assert!(!out.contains("in a trial from the source ("), "{out}");
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
