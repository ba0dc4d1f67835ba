//! Reading files that lie about their size: bounded decompression, owned
//! graphs, special files, declared counts that memory cannot hold.

mod formats_helpers;

use std::path::Path;
use std::time::{Duration, Instant};

use sssp::Error;
use sssp::formats::{self, csr, sources};
use sssp::oracle;
use sssp_tests::{TempDir, TestRng, random_graph};

use formats_helpers::*;

#[test]
fn csr_gz_longer_than_its_header_is_refused_without_reading_it_all() {
    let dir = TempDir::new("csr_gz_longer");
    let mut rng = TestRng::new("csr_gz_longer");
    let g = random_graph(&mut rng, 5, 8, 100);
    let mut bytes = csr::to_bytes(&g);
    bytes.resize(bytes.len() + (64 << 20), 0);
    let file = dir.path("long.csr.gz");
    std::fs::write(&file, gzip(&bytes)).unwrap();
    let start = Instant::now();
    let result = formats::load(&file, None);
    assert!(
        matches!(
            result,
            Err(Error::Format {
                field: "file length",
                ..
            })
        ),
        "expected a file length error, got {:?}",
        result.err()
    );
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn truncated_csr_gz_is_refused() {
    let dir = TempDir::new("csr_gz_truncated");
    let mut rng = TestRng::new("csr_gz_truncated");
    let g = random_graph(&mut rng, 50, 200, 100);
    let bytes = csr::to_bytes(&g);
    let file = dir.path("short.csr.gz");
    std::fs::write(&file, gzip(&bytes[..bytes.len() - 5])).unwrap();
    match formats::load(&file, None) {
        Err(Error::Format {
            field: "file length",
            ..
        }) => {}
        other => panic!("expected a file length error, got {:?}", other.err()),
    }
    // The exact stream still loads.
    std::fs::write(&file, gzip(&bytes)).unwrap();
    assert_same(&formats::load(&file, None).unwrap().graph().unwrap(), &g);
}

#[test]
fn a_loaded_csr_file_does_not_change_with_the_file() {
    let dir = TempDir::new("csr_owned");
    let mut rng = TestRng::new("csr_owned");
    let g = random_graph(&mut rng, 200, 1000, 100);
    let file = dir.path("g.csr");
    csr::write(&g, &file).unwrap();
    let loaded = formats::load(&file, None).unwrap();
    // Rewrite in place with other weights, then truncate.
    let mut other = csr::to_bytes(&g);
    let weights_at = other.len() - 4 * g.num_edges();
    for b in &mut other[weights_at..] {
        *b = b.wrapping_add(7);
    }
    std::fs::write(&file, &other).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&file)
        .unwrap()
        .set_len(10)
        .unwrap();
    let graph = loaded.graph().unwrap();
    assert_same(&graph, &g);
    assert_eq!(
        oracle::dijkstra(&graph, 0).unwrap(),
        oracle::dijkstra(&g, 0).unwrap()
    );
}

#[test]
fn special_files_are_refused() {
    let zero = Path::new("/dev/zero");
    match sources::read_sources(zero) {
        Err(Error::InvalidArgument(message)) => {
            assert!(message.contains("not a regular file"), "{message}")
        }
        other => panic!("expected a special file error, got {other:?}"),
    }
    for format in [formats::Format::Csr, formats::Format::Dimacs] {
        let result = formats::load(zero, Some(format));
        assert!(
            matches!(&result, Err(Error::InvalidArgument(m)) if m.contains("not a regular file")),
            "{:?}",
            result.err()
        );
    }
}

#[test]
fn a_huge_declared_vertex_count_is_an_error() {
    let dir = TempDir::new("huge_declared");
    for text in ["p sp 4294967295 1\na 1 2 3\n", "p sp 4000000000 0\n"] {
        for gz in [false, true] {
            let file = dir.path(if gz { "g.gr.gz" } else { "g.gr" });
            let bytes = text.as_bytes();
            std::fs::write(&file, if gz { gzip(bytes) } else { bytes.to_vec() }).unwrap();
            let start = Instant::now();
            assert!(formats::load(&file, None).is_err(), "{text} accepted");
            assert!(start.elapsed() < Duration::from_secs(3));
        }
    }
}
