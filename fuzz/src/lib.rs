//! What the fuzz targets share: parse a text format and check the outcome.

use std::path::Path;

use sssp::formats::{Format, LoadOptions, parse_bytes_with};
use sssp::graph::{WeightKind, check_csr};
use sssp::{Error, Graph};

/// Parses `data` as `format`, as it is and with `--weights f32` (which takes
/// the parsers through their float syntax): each must give a valid graph or an
/// [`Error::Parse`] that points into the file, never a panic or another error.
pub fn check_text(data: &[u8], format: Format) {
    check_text_with(data, format, LoadOptions::default());
    check_text_with(data, format, LoadOptions::with_weights(WeightKind::F32));
}

fn check_text_with(data: &[u8], format: Format, options: LoadOptions) {
    let path = Path::new("fuzz-input");
    match parse_bytes_with(data, format, path, options) {
        Ok(graph) => check_graph(&graph),
        Err(Error::Parse {
            path: p,
            line,
            message,
        }) => {
            assert_eq!(p, path);
            assert!(line >= 1, "line numbers are 1-based: {line}: {message}");
            let lines = data.iter().filter(|&&b| b == b'\n').count() as u64;
            assert!(
                line <= lines + 2,
                "line {line} past the end ({lines} line breaks): {message}"
            );
            assert!(!message.is_empty());
        }
        Err(e) => panic!("a text parser returned a non-parse error: {e}"),
    }
}

/// An accepted graph is a valid CSR within the text parsers' vertex limit,
/// and `f32` weights are finite, non-negative floats other than `-0.0`.
pub fn check_graph(graph: &Graph) {
    check_csr(graph.offsets(), graph.targets(), graph.weights()).expect("a valid CSR");
    assert!(graph.num_vertices() as u64 <= u32::MAX as u64);
    if graph.weight_kind() == WeightKind::F32 {
        for &w in graph.weights() {
            let x = f32::from_bits(w);
            assert!(
                x.is_finite() && x.is_sign_positive(),
                "f32 weight word {w:#x}"
            );
        }
    }
}

/// Writes `bytes` to a file named `name` in this process's scratch folder
/// (under the system's temporary folder) and returns its path: for the
/// readers that take a path.
pub fn scratch_file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sssp-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("a scratch file");
    path
}
