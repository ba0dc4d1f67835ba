//! `host gen --kind grid` end to end: the file equals the library's grid, the
//! solver verifies on it, and wrong option combinations are usage errors.
//! `SSSP_HOST_BIN` overrides the binary's path (for test binaries run elsewhere).

mod common;

use common::{TempDir, host, run};
use sssp::formats::csr;
use sssp::generate::{GridSpec, grid_graph};

#[test]
fn gen_grid_writes_the_librarys_grid_and_it_verifies() {
    let dir = TempDir::new("ok");
    let path = dir.path("grid.csr");
    let (code, out, err) = run(host()
        .args(["gen", "--kind", "grid", "--width", "40", "--height", "30"])
        .args(["--seed", "5", "--output"])
        .arg(&path));
    assert_eq!(code, 0, "gen failed: {err}");
    assert!(out.contains("1200 vertices, 4660 edges"), "{out}");
    // Default weights 1..=100 for grids.
    let expected = grid_graph(&GridSpec {
        width: 40,
        height: 30,
        min_weight: 1,
        max_weight: 100,
        seed: 5,
    })
    .unwrap();
    assert_eq!(csr::read(&path).unwrap(), expected);
    let (code, out, err) = run(host()
        .arg("--graph")
        .arg(&path)
        .args(["--device", "cpu", "--verify"]));
    assert_eq!(code, 0, "solve failed: {err}");
    assert!(out.contains("verified"), "{out}");
    // Explicit weights.
    let (code, _, err) = run(host()
        .args(["gen", "--kind", "grid", "--width", "2Ki", "--height", "3"])
        .args(["--min-weight", "7", "--max-weight", "7", "--output"])
        .arg(&path));
    assert_eq!(code, 0, "gen failed: {err}");
    let graph = csr::read(&path).unwrap();
    assert_eq!(graph.num_vertices(), 2048 * 3);
    assert!(graph.weights().iter().all(|&w| w == 7));
}

#[test]
fn gen_grid_usage_errors_exit_with_2() {
    let dir = TempDir::new("bad");
    let path = dir.path("g.csr");
    for (args, says) in [
        (&["--kind", "grid", "--width", "4"][..], "--height"),
        (
            &[
                "--kind", "grid", "--width", "4", "--height", "4", "-n", "16",
            ],
            "--vertices",
        ),
        (
            &[
                "--kind", "grid", "--width", "4", "--height", "4", "--degree", "3",
            ],
            "--degree",
        ),
        (
            &["--kind", "grid", "--width", "0", "--height", "4"],
            "at least 1",
        ),
        (
            &["--kind", "grid", "--width", "64Ki", "--height", "64Ki"],
            "vertices",
        ),
        (
            &[
                "--kind",
                "grid",
                "--width",
                "4",
                "--height",
                "4",
                "--min-weight",
                "9",
                "--max-weight",
                "3",
            ],
            "min weight",
        ),
        (&["--width", "4", "--height", "4"], "--kind grid"),
        (&["--kind", "random"], "--vertices"),
    ] {
        let (code, _, err) = run(host().arg("gen").args(args).arg("--output").arg(&path));
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    assert!(!path.exists(), "no file is written on a usage error");
}
