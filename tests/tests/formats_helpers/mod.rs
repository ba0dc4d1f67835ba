//! Helpers shared by the text formats' tests: parsing, expected graphs, texts written by hand and at random, rejections.
// Each test file uses some of them.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;

use sssp::formats::{Format, LoadOptions, parse_bytes, parse_bytes_with};
use sssp::graph::WeightKind;
use sssp::{Error, Graph};

// ---------------------------------------------------------------------------
// Helpers.

pub const TEXT_FORMATS: [Format; 3] = [Format::Dimacs, Format::MatrixMarket, Format::EdgeList];

pub fn path_for(format: Format) -> &'static Path {
    Path::new(match format {
        Format::Csr => "test.csr",
        Format::Dimacs => "test.gr",
        Format::MatrixMarket => "test.mtx",
        Format::EdgeList => "test.el",
    })
}

#[track_caller]
pub fn parse(text: &str, format: Format) -> Graph<'static> {
    parse_bytes(text.as_bytes(), format, path_for(format))
        .unwrap_or_else(|e| panic!("{format} input rejected: {e}\n{text}"))
}

#[track_caller]
pub fn parse_f32(text: &str, format: Format) -> Graph<'static> {
    let graph = parse_bytes_with(text.as_bytes(), format, path_for(format), F32_OPTIONS)
        .unwrap_or_else(|e| panic!("{format} input rejected with --weights f32: {e}\n{text}"));
    assert_eq!(graph.weight_kind(), WeightKind::F32, "{format}: {text}");
    graph
}

/// `--weights f32`.
pub const F32_OPTIONS: LoadOptions = LoadOptions {
    weights: Some(WeightKind::F32),
};

#[track_caller]
pub fn graph(n: usize, edges: &[(u32, u32, u32)]) -> Graph<'static> {
    Graph::from_edges(n, edges).unwrap()
}

/// The graph of `n` vertices with these arcs and `f32` weights.
#[track_caller]
pub fn f32_graph(n: usize, edges: &[(u32, u32, f32)]) -> Graph<'static> {
    let words: Vec<(u32, u32, u32)> = edges.iter().map(|&(u, v, w)| (u, v, w.to_bits())).collect();
    graph(n, &words).with_weight_kind(WeightKind::F32).unwrap()
}

/// `g` with each integer weight `w` as the `f32` nearest to it.
pub fn as_f32(g: &Graph) -> Graph<'static> {
    let weights: Vec<f32> = g.weights().iter().map(|&w| w as f32).collect();
    Graph::from_f32_weights(g.offsets().to_vec(), g.targets().to_vec(), &weights).unwrap()
}

/// The arcs of a graph in CSR order, as (tail, head, weight).
pub fn arcs(g: &Graph) -> Vec<(u32, u32, u32)> {
    (0..g.num_vertices())
        .flat_map(|u| {
            (g.offsets()[u] as usize..g.offsets()[u + 1] as usize)
                .map(move |e| (u as u32, g.targets()[e], g.weights()[e]))
        })
        .collect()
}

#[track_caller]
pub fn assert_same(a: &Graph, b: &Graph) {
    assert_eq!(a.offsets(), b.offsets(), "offsets differ");
    assert_eq!(a.targets(), b.targets(), "targets differ");
    assert_eq!(a.weights(), b.weights(), "weights differ");
    assert_eq!(a.weight_kind(), b.weight_kind(), "weight kinds differ");
}

/// Parses `text` and expects a parse error at `line` whose message contains
/// every one of `needles`; returns the message.
#[track_caller]
pub fn assert_rejected(format: Format, text: &str, line: u64, needles: &[&str]) -> String {
    assert_rejected_with(format, text, line, needles, LoadOptions::default())
}

/// [`assert_rejected`] when parsed with `options`.
#[track_caller]
pub fn assert_rejected_with(
    format: Format,
    text: &str,
    line: u64,
    needles: &[&str],
    options: LoadOptions,
) -> String {
    let path = path_for(format);
    match parse_bytes_with(text.as_bytes(), format, path, options) {
        Err(Error::Parse {
            path: p,
            line: l,
            message,
        }) => {
            assert_eq!(p, path);
            assert_eq!(
                l, line,
                "{format}: wrong line for {text:?}; message: {message}"
            );
            for needle in needles {
                assert!(
                    message.contains(needle),
                    "{format}: `{message}` does not say `{needle}` (input {text:?})"
                );
            }
            let shown = Error::Parse {
                path: p,
                line: l,
                message: message.clone(),
            }
            .to_string();
            assert!(
                shown.starts_with(&format!("{}:{line}: ", path.display())),
                "{shown}"
            );
            message
        }
        Err(e) => panic!("{format}: expected a parse error for {text:?}, got {e}"),
        Ok(g) => panic!(
            "{format}: {text:?} was accepted: {} vertices, {:?}",
            g.num_vertices(),
            arcs(&g)
        ),
    }
}

// Writers for the round trips.

pub fn dimacs_text(g: &Graph) -> String {
    let mut text = format!(
        "c written by a test\np sp {} {}\n",
        g.num_vertices(),
        g.num_edges()
    );
    for (u, v, w) in arcs(g) {
        text += &format!("a {} {} {w}\n", u + 1, v + 1);
    }
    text
}

pub fn mtx_text(g: &Graph, real: bool) -> String {
    let field = if real { "real" } else { "integer" };
    let mut text = format!(
        "%%MatrixMarket matrix coordinate {field} general\n% a test\n{n} {n} {}\n",
        g.num_edges(),
        n = g.num_vertices()
    );
    for (k, (u, v, w)) in arcs(g).into_iter().enumerate() {
        let w = match (real, k % 3) {
            (false, _) => w.to_string(),
            (true, 0) => format!("{w}.0"),
            (true, 1) => format!("{w}e0"),
            (true, _) => w.to_string(),
        };
        text += &format!("{} {} {w}\n", u + 1, v + 1);
    }
    text
}

pub fn edge_list_text(g: &Graph) -> String {
    let mut text = String::from("# written by a test\n");
    for (u, v, w) in arcs(g) {
        text += &format!("{u}\t{v} {w}\n");
    }
    text
}

/// `g` in `format` (weights written as they are).
pub fn text_of(g: &Graph, format: Format) -> String {
    match format {
        Format::Dimacs => dimacs_text(g),
        Format::MatrixMarket => mtx_text(g, false),
        Format::EdgeList => edge_list_text(g),
        Format::Csr => unreachable!("not a text format"),
    }
}

pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

// ---------------------------------------------------------------------------
// Rejections, each with its line.

pub const F32: &str = "read them as f32 with --weights f32";
