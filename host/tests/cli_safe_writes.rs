//! The `host` binary's outputs lose nothing: an output that names an input or
//! another output is refused before any work, an output that cannot be
//! created is found before the solve, a file is replaced only by a complete
//! write, and no temporary file is left behind.

mod common;

use std::path::Path;

use common::*;

/// A generated 1000-vertex g.csr graph in `dir`.
fn graph(dir: &TempDir) -> std::path::PathBuf {
    let path = dir.path("g.csr");
    let (code, out, err) = run(host()
        .args(["gen", "--vertices", "1000", "--output"])
        .arg(&path));
    assert_eq!(code, 0, "{out}{err}");
    path
}

fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

/// The names in `dir` that start with a dot (the temporary files).
fn hidden_files(dir: &TempDir) -> Vec<String> {
    std::fs::read_dir(dir.path("."))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.'))
        .collect()
}

/// The run was refused as a usage error naming `flags` and `path`, and
/// nothing was solved.
fn assert_refused(result: (i32, String, String), flags: &[&str], path: &Path) {
    let (code, out, err) = result;
    assert_eq!(code, 2, "{out}{err}");
    for flag in flags {
        assert!(err.contains(flag), "{flag}: {err}");
    }
    assert!(err.contains(&path.display().to_string()), "{err}");
    assert!(err.contains("same file"), "{err}");
    assert!(!out.contains("checksum"), "nothing is solved: {out}");
}

#[test]
fn an_output_over_the_graph_is_refused_and_the_graph_kept() {
    let dir = TempDir::new("safe-graph");
    let g = graph(&dir);
    let before = bytes(&g);
    let result = solve(&g, &["--device", "cpu", "--output", g.to_str().unwrap()]);
    assert_refused(result, &["--output", "--graph"], &g);
    // The same file by another name.
    let other = dir.path("./sub/../g.csr");
    std::fs::create_dir_all(dir.path("sub")).unwrap();
    let result = solve(
        &g,
        &["--device", "cpu", "--parents", other.to_str().unwrap()],
    );
    assert_refused(result, &["--parents", "--graph"], &other);
    assert_eq!(bytes(&g), before);
    assert!(hidden_files(&dir).is_empty(), "{:?}", hidden_files(&dir));
}

#[test]
fn preprocess_over_its_graph_is_refused_and_the_graph_kept() {
    let dir = TempDir::new("safe-preprocess");
    let g = graph(&dir);
    let before = bytes(&g);
    let result = run(host()
        .args(["preprocess", "--graph"])
        .arg(&g)
        .arg("--output")
        .arg(&g));
    assert_refused(result, &["--output", "--graph"], &g);
    assert_eq!(bytes(&g), before);
}

#[test]
fn an_output_over_the_index_is_refused_and_the_index_kept() {
    let dir = TempDir::new("safe-index");
    let index = preprocessed_rome99(&dir);
    let before = bytes(&index);
    let result = solve(
        &rome99(),
        &[
            "--index",
            index.to_str().unwrap(),
            "--output",
            index.to_str().unwrap(),
        ],
    );
    assert_refused(result, &["--output", "--index"], &index);
    assert_eq!(bytes(&index), before);
}

#[test]
fn output_and_parents_in_one_file_are_refused() {
    let dir = TempDir::new("safe-two-outputs");
    let g = graph(&dir);
    let file = dir.path("both.txt");
    let result = solve(
        &g,
        &[
            "--device",
            "cpu",
            "--output",
            file.to_str().unwrap(),
            "--parents",
            file.to_str().unwrap(),
        ],
    );
    assert_refused(result, &["--output", "--parents"], &file);
    assert!(!file.exists());
}

#[test]
fn convert_over_its_input_is_refused() {
    let dir = TempDir::new("safe-convert");
    let g = graph(&dir);
    let before = bytes(&g);
    let (code, out, err) = run(host().arg("convert").arg(&g).arg(dir.path("./g.csr")));
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("same file"), "{err}");
    assert_eq!(bytes(&g), before);
}

#[test]
fn an_output_that_cannot_be_created_fails_before_the_solve_with_1() {
    let dir = TempDir::new("safe-unwritable");
    let g = graph(&dir);
    // The output's folder is a regular file (a permission test would pass
    // for root).
    let unwritable = g.join("out.txt");
    for flag in ["--output", "--parents"] {
        let (code, out, err) = solve(&g, &["--device", "cpu", flag, unwritable.to_str().unwrap()]);
        assert_eq!(code, 1, "{flag}: {out}{err}");
        assert!(err.contains("cannot write"), "{err}");
        assert!(err.contains(&unwritable.display().to_string()), "{err}");
        assert!(!out.contains("checksum"), "refused before the solve: {out}");
    }
    let mut convert = host();
    convert.arg("convert").arg(&g).arg(&unwritable);
    let mut generate = host();
    generate
        .args(["gen", "--vertices", "10", "--output"])
        .arg(&unwritable);
    let mut preprocess = host();
    preprocess
        .arg("preprocess")
        .arg("--graph")
        .arg(rome99())
        .arg("--output")
        .arg(&unwritable);
    for mut command in [convert, generate, preprocess] {
        let (code, out, err) = run(&mut command);
        assert_eq!(code, 1, "{out}{err}");
        assert!(err.contains("cannot write"), "{err}");
        assert!(out.is_empty(), "refused before the work: {out}");
    }
}

#[test]
fn a_written_output_is_complete_and_leaves_no_temporary_file() {
    let dir = TempDir::new("safe-complete");
    let g = graph(&dir);
    let (output, parents) = (dir.path("d.txt"), dir.path("p.txt"));
    // An existing output is replaced.
    std::fs::write(&output, "old\n".repeat(5000)).unwrap();
    let (code, out, err) = solve(
        &g,
        &[
            "--device",
            "cpu",
            "--output",
            output.to_str().unwrap(),
            "--parents",
            parents.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    for file in [&output, &parents] {
        let text = std::fs::read_to_string(file).unwrap();
        assert_eq!(text.lines().count(), 1000, "{}", file.display());
        assert!(!text.contains("old"));
    }
    let converted = dir.path("c.csr");
    let (code, out, err) = run(host().arg("convert").arg(&g).arg(&converted));
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(bytes(&converted), bytes(&g));
    assert!(hidden_files(&dir).is_empty(), "{:?}", hidden_files(&dir));
}

#[test]
fn a_failed_solve_keeps_an_existing_output() {
    let dir = TempDir::new("safe-failed");
    let g = graph(&dir);
    let output = dir.path("d.txt");
    std::fs::write(&output, "old distances\n").unwrap();
    let (code, out, err) = solve(
        &g,
        &[
            "--device",
            "cpu",
            "--source",
            "5000",
            "--output",
            output.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(std::fs::read_to_string(&output).unwrap(), "old distances\n");
    assert!(hidden_files(&dir).is_empty(), "{:?}", hidden_files(&dir));
}

#[test]
fn an_output_to_a_device_file_is_written_in_place() {
    let dir = TempDir::new("safe-dev-null");
    let g = graph(&dir);
    let (code, out, err) = solve(&g, &["--device", "cpu", "--output", "/dev/null"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(Path::new("/dev/null").exists());
}
