//! Helpers shared by the `host` binary's end-to-end tests: the binary,
//! scratch directories, runs and their outputs, graphs.
//! `SSSP_HOST_BIN` overrides the binary's path (for test binaries run elsewhere).
// Each test file uses some of them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn host() -> Command {
    let bin =
        std::env::var("SSSP_HOST_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_host").to_string());
    Command::new(bin)
}

pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir =
            std::env::temp_dir().join(format!("sssp-cli-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
    pub fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn run(command: &mut Command) -> (i32, String, String) {
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

pub fn solve(graph: &Path, extra: &[&str]) -> (i32, String, String) {
    run(host().arg("--graph").arg(graph).args(extra))
}

// ---------------------------------------------------------------------------
// Text input formats, convert, --output-format, --json.

/// graphs/rome99.gr: from the source tree, or, for test binaries run elsewhere
/// (dist/run-tests.sh), from the working directory or its parent.
pub fn rome99() -> PathBuf {
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
pub const SMALL_GR: &str = "c small\np sp 4 3\na 1 2 7\na 2 3 3\na 4 1 1\n";

/// Solves `graph` on the CPU with `--output OUTPUT --output-format bin` and
/// returns the file's little-endian 4-byte words (distances, or `f32` bits).
pub fn bin_words(graph: &Path, output: &Path) -> Vec<u32> {
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

// ---------------------------------------------------------------------------
// f32 weights: Matrix Market `real`, --weights, output, convert, --delta.

/// A 5-vertex Matrix Market `real` graph: 1 -> 2 (0.5), 2 -> 3 (0.25),
/// 1 -> 3 (1), 3 -> 4 (0.1), 5 -> 1 (2); vertex 5 is unreachable from 1.
pub const REAL_MTX: &str = "%%MatrixMarket matrix coordinate real general\n% reals\n5 5 5\n\
                        1 2 0.5\n2 3 0.25\n1 3 1.0\n3 4 1e-1\n5 1 2\n";

/// The distances from vertex 1 of [`REAL_MTX`] in f32 arithmetic (`None`:
/// unreachable).
pub fn real_mtx_distances() -> [Option<f32>; 5] {
    let d3 = 0.5f32 + 0.25;
    [Some(0.0), Some(0.5), Some(d3), Some(d3 + 0.1), None]
}

/// The `vertex distance` lines of a text `--output` file, as floats.
pub fn read_distances(path: &Path) -> Vec<(u64, Option<f32>)> {
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

/// The oracle's distances of rome99 from the 1-based `source`, words above
/// `bound` unreached.
pub fn rome99_bounded(source: usize, bound: u32) -> Vec<u32> {
    let graph = sssp::formats::load(rome99(), None)
        .and_then(|g| g.into_graph())
        .expect("rome99 loads");
    sssp::oracle::dijkstra(&graph, source - 1)
        .expect("oracle")
        .into_iter()
        .map(|d| if d <= bound { d } else { u32::MAX })
        .collect()
}

/// `host preprocess` of rome99 into `dir`: the index file.
pub fn preprocessed_rome99(dir: &TempDir) -> PathBuf {
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
