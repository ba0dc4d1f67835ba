//! `--index … --nearest --output FILE`: each vertex's nearest source and its
//! distance, equal to the oracle's, written whole (an existing file replaced,
//! no temporary file left), and an output that cannot be created refused
//! before the work with exit status 1.

mod common;

use common::*;

/// The sources of the query, 1-based as on the command line.
const SOURCES: [usize; 3] = [1, 77, 3353];

#[test]
fn nearest_sources_are_the_oracles_and_written_whole() {
    let dir = TempDir::new("nearest");
    let index = preprocessed_rome99(&dir);
    let output = dir.path("nearest.txt");
    std::fs::write(&output, "old\n".repeat(10_000)).unwrap();
    let (code, out, err) = run(host()
        .arg("--graph")
        .arg(rome99())
        .arg("--index")
        .arg(&index)
        .args(["--device", "cpu", "--sources", "1,77,3353", "--nearest"])
        .arg("--output")
        .arg(&output));
    assert_eq!(code, 0, "{out}{err}");
    let rows: Vec<Vec<u32>> = SOURCES
        .iter()
        .map(|&s| rome99_bounded(s, u32::MAX))
        .collect();
    let text = std::fs::read_to_string(&output).unwrap();
    assert!(!text.contains("old"), "the old file was not replaced");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), rows[0].len(), "one line a vertex");
    for (v, line) in lines.iter().enumerate() {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 3, "line {line:?}");
        assert_eq!(fields[0], (v + 1).to_string(), "line {line:?}");
        let best = rows.iter().map(|row| row[v]).min().unwrap();
        if best == u32::MAX {
            assert_eq!(&fields[1..], ["inf", "-"], "vertex {}", v + 1);
            continue;
        }
        assert_eq!(fields[1], best.to_string(), "vertex {}", v + 1);
        let source: usize = fields[2].parse().unwrap();
        let i = SOURCES.iter().position(|&s| s == source);
        let i = i.unwrap_or_else(|| panic!("vertex {}: {source} is no source", v + 1));
        assert_eq!(rows[i][v], best, "vertex {}: source {source}", v + 1);
    }
    let hidden: Vec<String> = std::fs::read_dir(dir.path("."))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.'))
        .collect();
    assert!(hidden.is_empty(), "temporary files left: {hidden:?}");

    // An output below a regular file cannot be created: refused first.
    let unwritable = index.join("nearest.txt");
    let (code, out, err) = run(host()
        .arg("--graph")
        .arg(rome99())
        .arg("--index")
        .arg(&index)
        .args(["--device", "cpu", "--sources", "1,77", "--nearest"])
        .arg("--output")
        .arg(&unwritable));
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("cannot write"), "{err}");
    assert!(!out.contains("nearest "), "refused before the work: {out}");
}
