//! The command line refuses, with "out of memory" and exit code 1, a batch
//! of solves whose kept rows (sources × vertices distances) memory cannot
//! hold, before solving any of them.

mod common;

use std::time::{Duration, Instant};

use common::*;

#[test]
fn rows_that_memory_cannot_hold_are_refused_before_solving() {
    // Linux's "always overcommit" (mode 1) would grant the reservation; the
    // batch would then run for hours.
    let overcommit = std::fs::read_to_string("/proc/sys/vm/overcommit_memory").unwrap_or_default();
    if overcommit.trim() == "1" {
        eprintln!("skipped: vm.overcommit_memory is 1, every reservation succeeds");
        return;
    }
    let dir = TempDir::new("rows_oom");
    let grid = dir.path("grid.csr");
    let (code, _, err) = run(host()
        .args([
            "gen", "--kind", "grid", "--width", "2048", "--height", "2048", "--output",
        ])
        .arg(&grid));
    assert_eq!(code, 0, "{err}");
    // 2^22 vertices × 2^20 sources × 4 bytes: 16 TiB of rows, kept for --verify.
    let sources = dir.path("sources.txt");
    std::fs::write(&sources, "0\n".repeat(1 << 20)).unwrap();
    let start = Instant::now();
    let sources_arg = sources.to_str().unwrap();
    let (code, _, err) = solve(
        &grid,
        &[
            "--device",
            "cpu",
            "--algo",
            "dijkstra",
            "--verify",
            "--sources-file",
            sources_arg,
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("out of memory: 1048576 rows of 4194304 vertices"),
        "{err}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
}
