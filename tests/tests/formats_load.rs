//! Loading graph files: load options, format detection by extension or by name, gzip.

mod formats_helpers;

use std::path::Path;

use sssp::Error;
use sssp::formats::{self, Format, LoadOptions, csr};
use sssp::graph::WeightKind;
use sssp_tests::{TempDir, TestRng, random_graph};

use formats_helpers::*;

#[test]
fn load_options_apply_to_text_and_gzip_and_must_match_a_csr_file() {
    let dir = TempDir::new("load_options");
    let text = "p sp 3 2\na 1 2 0.25\na 2 3 1.5\n";
    let expected = f32_graph(3, &[(0, 1, 0.25), (1, 2, 1.5)]);
    let plain = dir.path("g.gr");
    let packed = dir.path("g.gr.gz");
    std::fs::write(&plain, text).unwrap();
    std::fs::write(&packed, gzip(text.as_bytes())).unwrap();
    for path in [&plain, &packed] {
        let loaded = formats::load_with(path, None, F32_OPTIONS, &mut |_| {}).unwrap();
        assert_same(&loaded.graph().unwrap(), &expected);
        // Without the option, the fraction is an error naming the line.
        match formats::load(path, None) {
            Err(Error::Parse { line, message, .. }) => {
                assert_eq!(line, 2, "{message}");
                assert!(message.contains("--weights f32"), "{message}");
            }
            other => panic!("expected a parse error, got {:?}", other.err()),
        }
    }
    // A g.csr file is read as its header says: a matching option is fine, the
    // other type is refused (mapped or gzipped).
    let csr = dir.path("g.csr");
    csr::write(&expected, &csr).unwrap();
    let csr_gz = dir.path("g.csr.gz");
    std::fs::write(&csr_gz, gzip(&csr::to_bytes(&expected))).unwrap();
    for path in [&csr, &csr_gz] {
        assert_same(
            &formats::load(path, None).unwrap().into_graph().unwrap(),
            &expected,
        );
        let same = formats::load_with(path, None, F32_OPTIONS, &mut |_| {}).unwrap();
        assert_same(&same.into_graph().unwrap(), &expected);
        let as_u32 = LoadOptions {
            weights: Some(WeightKind::U32),
        };
        match formats::load_with(path, None, as_u32, &mut |_| {}) {
            Err(Error::InvalidArgument(message)) => {
                assert!(
                    message.contains("--weights u32") && message.contains("f32 weights"),
                    "{message}"
                );
            }
            Err(e) => panic!("expected an invalid-argument error, got {e}"),
            Ok(_) => panic!("--weights u32 read an f32 g.csr file"),
        }
    }
}

// ---------------------------------------------------------------------------
// Detection, loading, gzip.

#[test]
fn formats_are_detected_from_the_extension() {
    let cases = [
        ("g.csr", Format::Csr, false),
        ("rome99.gr", Format::Dimacs, false),
        ("rome99.gr.gz", Format::Dimacs, true),
        ("dir.v2/web.MTX", Format::MatrixMarket, false),
        ("web.mtx.GZ", Format::MatrixMarket, true),
        ("soc.el", Format::EdgeList, false),
        ("soc.txt.gz", Format::EdgeList, true),
        ("g.csr.gz", Format::Csr, true),
    ];
    for (name, format, gzip) in cases {
        assert_eq!(
            formats::detect(Path::new(name)).unwrap(),
            (format, gzip),
            "{name}"
        );
    }
    for name in ["graph", "graph.gz", "g.dat", "x.gr.zip", ".gz"] {
        match formats::detect(Path::new(name)) {
            Err(Error::InvalidArgument(message)) => {
                assert!(message.contains(name), "{message}");
                assert!(message.contains("--format"), "{message}");
                assert!(message.contains(".gr (DIMACS)"), "{message}");
            }
            other => panic!("{name}: expected an unknown-format error, got {other:?}"),
        }
    }
    assert_eq!(Format::Dimacs.numbering().base, 1);
    assert_eq!(Format::MatrixMarket.numbering().base, 1);
    assert_eq!(Format::EdgeList.numbering().base, 0);
    assert_eq!(Format::Csr.numbering().base, 0);
}

#[test]
fn gzip_files_load_like_plain_ones_in_every_format() {
    let mut rng = TestRng::new("gzip_files_load_like_plain_ones_in_every_format");
    let dir = TempDir::new("gzip");
    for k in 0..40 {
        let g = random_graph(&mut rng, 1 + k, 3 * k + 1, 1000);
        for (format, ext) in [
            (Format::Dimacs, "gr"),
            (Format::MatrixMarket, "mtx"),
            (Format::EdgeList, "el"),
        ] {
            let text = text_of(&g, format);
            let plain = dir.path(&format!("g{k}.{ext}"));
            let packed = dir.path(&format!("g{k}.{ext}.gz"));
            std::fs::write(&plain, &text).unwrap();
            std::fs::write(&packed, gzip(text.as_bytes())).unwrap();
            let a = formats::load(&plain, None).unwrap();
            let b = formats::load(&packed, None).unwrap();
            assert!(!a.gzip() && b.gzip());
            assert_eq!((a.format(), b.format()), (format, format));
            assert_same(&a.graph().unwrap(), &b.graph().unwrap());
        }
        // A gzipped g.csr file too.
        let csr = dir.path(&format!("g{k}.csr.gz"));
        std::fs::write(&csr, gzip(&csr::to_bytes(&g))).unwrap();
        assert_same(
            &formats::load(&csr, None).unwrap().into_graph().unwrap(),
            &g,
        );
    }
    // Concatenated gzip members are one file.
    let text = dimacs_text(&graph(2, &[(0, 1, 3), (1, 0, 4)]));
    let (head, tail) = text.split_at(text.len() / 2);
    let mut two = gzip(head.as_bytes());
    two.extend(gzip(tail.as_bytes()));
    let path = dir.path("two.gr.gz");
    std::fs::write(&path, two).unwrap();
    assert_same(
        &formats::load(&path, None).unwrap().into_graph().unwrap(),
        &graph(2, &[(0, 1, 3), (1, 0, 4)]),
    );
}

#[test]
fn parse_errors_in_gzip_files_have_the_line_of_the_text() {
    let dir = TempDir::new("gzip_errors");
    let path = dir.path("bad.gr.gz");
    std::fs::write(&path, gzip(b"p sp 2 1\nc fine\na 1 3 1\n")).unwrap();
    match formats::load(&path, None) {
        Err(Error::Parse { path: p, line, .. }) => assert_eq!((p, line), (path.clone(), 3)),
        other => panic!("expected a parse error, got {:?}", other.err()),
    }
    // Not gzip at all, and a truncated stream: I/O errors naming the file.
    std::fs::write(&path, b"p sp 2 1\na 1 2 1\n").unwrap();
    assert!(matches!(formats::load(&path, None), Err(Error::Io { path: p, .. }) if p == path));
    let packed = gzip(dimacs_text(&graph(50, &[(0, 1, 1); 40])).as_bytes());
    std::fs::write(&path, &packed[..packed.len() / 2]).unwrap();
    assert!(matches!(formats::load(&path, None), Err(Error::Io { path: p, .. }) if p == path));
}

#[test]
fn format_can_be_named_for_any_file_name() {
    let dir = TempDir::new("named");
    let path = dir.path("graph.data");
    std::fs::write(&path, "p sp 2 1\na 1 2 9\n").unwrap();
    assert!(matches!(
        formats::load(&path, None),
        Err(Error::InvalidArgument(_))
    ));
    let loaded = formats::load(&path, Some(Format::Dimacs)).unwrap();
    assert_eq!(loaded.numbering().base, 1);
    assert_same(&loaded.graph().unwrap(), &graph(2, &[(0, 1, 9)]));
    // The named format wins over the extension.
    let path = dir.path("graph.txt");
    std::fs::write(&path, "p sp 2 1\na 1 2 9\n").unwrap();
    assert!(formats::load(&path, None).is_err(), "not an edge list");
    assert!(formats::load(&path, Some(Format::Dimacs)).is_ok());
    // A missing file is an I/O error.
    assert!(matches!(
        formats::load(dir.path("missing.gr"), None),
        Err(Error::Io { .. })
    ));
}
