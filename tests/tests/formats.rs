//! The text input formats (DIMACS `.gr`, Matrix Market `.mtx`, edge lists) and
//! format detection: exact graphs from hand-written files, rome99.gr against
//! an independent reading and the oracle, gzip, every rejection with its line
//! number, and random bytes and corruptions that must never panic.

use std::io::Write;
use std::path::{Path, PathBuf};

use sssp::formats::csr;
use sssp::formats::{self, Format, InputNumbering, LoadOptions, parse_bytes, parse_bytes_with};
use sssp::graph::{WeightKind, check_csr};
use sssp::{Error, Graph, oracle};
use sssp_tests::allocation::{LargestAllocation, largest_allocation};
use sssp_tests::{TempDir, TestRng, find_graph, random_graph, random_small_graph};

// Records the largest allocation of each thread (see `sssp_tests::allocation`).
#[global_allocator]
static ALLOCATOR: LargestAllocation = LargestAllocation;

// ---------------------------------------------------------------------------
// Helpers.

const TEXT_FORMATS: [Format; 3] = [Format::Dimacs, Format::MatrixMarket, Format::EdgeList];

fn path_for(format: Format) -> &'static Path {
    Path::new(match format {
        Format::Csr => "test.csr",
        Format::Dimacs => "test.gr",
        Format::MatrixMarket => "test.mtx",
        Format::EdgeList => "test.el",
    })
}

#[track_caller]
fn parse(text: &str, format: Format) -> Graph<'static> {
    parse_bytes(text.as_bytes(), format, path_for(format))
        .unwrap_or_else(|e| panic!("{format} input rejected: {e}\n{text}"))
}

#[track_caller]
fn parse_f32(text: &str, format: Format) -> Graph<'static> {
    let graph = parse_bytes_with(text.as_bytes(), format, path_for(format), F32_OPTIONS)
        .unwrap_or_else(|e| panic!("{format} input rejected with --weights f32: {e}\n{text}"));
    assert_eq!(graph.weight_kind(), WeightKind::F32, "{format}: {text}");
    graph
}

/// `--weights f32`.
const F32_OPTIONS: LoadOptions = LoadOptions {
    weights: Some(WeightKind::F32),
};

#[track_caller]
fn graph(n: usize, edges: &[(u32, u32, u32)]) -> Graph<'static> {
    Graph::from_edges(n, edges).unwrap()
}

/// The graph of `n` vertices with these arcs and `f32` weights.
#[track_caller]
fn f32_graph(n: usize, edges: &[(u32, u32, f32)]) -> Graph<'static> {
    let words: Vec<(u32, u32, u32)> = edges.iter().map(|&(u, v, w)| (u, v, w.to_bits())).collect();
    graph(n, &words).with_weight_kind(WeightKind::F32).unwrap()
}

/// `g` with each integer weight `w` as the `f32` nearest to it.
fn as_f32(g: &Graph) -> Graph<'static> {
    let weights: Vec<f32> = g.weights().iter().map(|&w| w as f32).collect();
    Graph::from_f32_weights(g.offsets().to_vec(), g.targets().to_vec(), &weights).unwrap()
}

/// The arcs of a graph in CSR order, as (tail, head, weight).
fn arcs(g: &Graph) -> Vec<(u32, u32, u32)> {
    (0..g.num_vertices())
        .flat_map(|u| {
            (g.offsets()[u] as usize..g.offsets()[u + 1] as usize)
                .map(move |e| (u as u32, g.targets()[e], g.weights()[e]))
        })
        .collect()
}

#[track_caller]
fn assert_same(a: &Graph, b: &Graph) {
    assert_eq!(a.offsets(), b.offsets(), "offsets differ");
    assert_eq!(a.targets(), b.targets(), "targets differ");
    assert_eq!(a.weights(), b.weights(), "weights differ");
    assert_eq!(a.weight_kind(), b.weight_kind(), "weight kinds differ");
}

/// Parses `text` and expects a parse error at `line` whose message contains
/// every one of `needles`; returns the message.
#[track_caller]
fn assert_rejected(format: Format, text: &str, line: u64, needles: &[&str]) -> String {
    assert_rejected_with(format, text, line, needles, LoadOptions::default())
}

/// [`assert_rejected`] when parsed with `options`.
#[track_caller]
fn assert_rejected_with(
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

fn dimacs_text(g: &Graph) -> String {
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

fn mtx_text(g: &Graph, real: bool) -> String {
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

fn edge_list_text(g: &Graph) -> String {
    let mut text = String::from("# written by a test\n");
    for (u, v, w) in arcs(g) {
        text += &format!("{u}\t{v} {w}\n");
    }
    text
}

/// `g` in `format` (weights written as they are).
fn text_of(g: &Graph, format: Format) -> String {
    match format {
        Format::Dimacs => dimacs_text(g),
        Format::MatrixMarket => mtx_text(g, false),
        Format::EdgeList => edge_list_text(g),
        Format::Csr => unreachable!("not a text format"),
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

// ---------------------------------------------------------------------------
// DIMACS.

#[test]
fn dimacs_small_file_gives_the_exact_graph() {
    let text = "c a comment\n\
                c\n\
                p sp 4 5\n\
                a 1 2 7\n\
                a 2 3 1\n\
                \n\
                c between arcs\n\
                a 1 3 10\n\
                a 4 4 0\n\
                a 3 1 4294967295\n";
    let expected = graph(
        4,
        &[
            (0, 1, 7),
            (1, 2, 1),
            (0, 2, 10),
            (3, 3, 0),
            (2, 0, u32::MAX),
        ],
    );
    assert_same(&parse(text, Format::Dimacs), &expected);
    // CRLF line breaks, tabs, extra spaces and no final line break.
    let crlf = text.replace('\n', "\r\n").replace("a 1 2 7", "a\t1  2\t 7");
    assert_same(&parse(&crlf, Format::Dimacs), &expected);
    assert_same(&parse(text.trim_end(), Format::Dimacs), &expected);
    // Comments without a space after the `c`.
    let tight = text.replace("c a comment", "ca comment");
    assert_same(&parse(&tight, Format::Dimacs), &expected);
}

#[test]
fn dimacs_edge_cases_of_shape() {
    // No arcs; vertices without arcs; parallel arcs in file order.
    assert_same(&parse("p sp 3 0\n", Format::Dimacs), &graph(3, &[]));
    assert_same(&parse("p sp 0 0\n", Format::Dimacs), &graph(0, &[]));
    assert_same(
        &parse("p sp 5 3\na 5 1 2\na 5 1 1\na 2 5 3\n", Format::Dimacs),
        &graph(5, &[(4, 0, 2), (4, 0, 1), (1, 4, 3)]),
    );
}

/// rome99.gr, read independently of the parser: (n, arcs, 0-based).
fn rome99_by_hand() -> (usize, Vec<(u32, u32, u32)>) {
    let text = std::fs::read_to_string(rome99_path()).unwrap();
    let mut n = 0;
    let mut arcs = Vec::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.first() {
            Some(&"p") => n = fields[2].parse().unwrap(),
            Some(&"a") => {
                let id = |k: usize| fields[k].parse::<u32>().unwrap();
                arcs.push((id(1) - 1, id(2) - 1, id(3)));
            }
            _ => {}
        }
    }
    (n, arcs)
}

/// graphs/rome99.gr, wherever the test binary runs ([`find_graph`]).
fn rome99_path() -> PathBuf {
    find_graph("rome99.gr")
}

#[test]
fn rome99_parses_and_its_distances_equal_the_oracle() {
    let loaded = formats::load(rome99_path(), None).expect("rome99.gr loads");
    assert_eq!(loaded.format(), Format::Dimacs);
    assert_eq!(loaded.numbering(), InputNumbering::ONE_BASED);
    assert!(!loaded.gzip());
    let g = loaded.into_graph().unwrap();
    assert_eq!(g.num_vertices(), 3353);
    assert_eq!(g.num_edges(), 8870);
    let (n, by_hand) = rome99_by_hand();
    assert_eq!(n, 3353);
    assert_eq!(by_hand.len(), 8870);
    // The first arc of the file: `a 2958 2959 535`.
    assert_eq!(by_hand[0], (2957, 2958, 535));
    assert_same(&g, &graph(n, &by_hand));
    // Distances from vertex 1 (graph vertex 0): the oracle against Bellman-Ford
    // on the independently read arcs.
    let mut dist = vec![u64::MAX; n];
    dist[0] = 0;
    loop {
        let mut changed = false;
        for &(u, v, w) in &by_hand {
            let du = dist[u as usize];
            if du != u64::MAX && du + (w as u64) < dist[v as usize] {
                dist[v as usize] = du + w as u64;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let expected = sssp::distances::to_u32_distances(&dist).unwrap();
    assert_eq!(oracle::dijkstra(&g, 0).unwrap(), expected);
    assert!(
        expected.iter().all(|&d| d != u32::MAX),
        "rome99 is strongly connected"
    );
}

// ---------------------------------------------------------------------------
// Matrix Market.

#[test]
fn matrix_market_general_integer_gives_the_exact_graph() {
    let text = "%%MatrixMarket matrix coordinate integer general\n\
                % a comment\n\
                %\n\
                \n\
                4 4 4\n\
                1 2 7\n\
                % a comment between entries\n\
                2 3 0\n\
                4 4 3\n\
                3 1 4294967295\n";
    let expected = graph(4, &[(0, 1, 7), (1, 2, 0), (3, 3, 3), (2, 0, u32::MAX)]);
    assert_same(&parse(text, Format::MatrixMarket), &expected);
    // The banner is case-insensitive.
    let upper = text.replace(
        "matrix coordinate integer general",
        "MATRIX Coordinate INTEGER General",
    );
    assert_same(&parse(&upper, Format::MatrixMarket), &expected);
}

#[test]
fn matrix_market_real_symmetric_gives_both_directions_and_one_diagonal() {
    let text = "%%MatrixMarket matrix coordinate real symmetric\n\
                3 3 4\n\
                1 1 2.0\n\
                2 1 1e1\n\
                3 2 4\n\
                3 1 0.0\n";
    // `real` values are f32 weights.
    let expected = f32_graph(
        3,
        &[
            (0, 0, 2.0),
            (1, 0, 10.0),
            (0, 1, 10.0),
            (2, 1, 4.0),
            (1, 2, 4.0),
            (2, 0, 0.0),
            (0, 2, 0.0),
        ],
    );
    assert_same(&parse(text, Format::MatrixMarket), &expected);
    // `double` is read as `real`.
    let double = text.replace(" real ", " double ");
    assert_same(&parse(&double, Format::MatrixMarket), &expected);
}

#[test]
fn matrix_market_pattern_weighs_one() {
    let general = "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n3 3\n";
    assert_same(
        &parse(general, Format::MatrixMarket),
        &graph(3, &[(0, 1, 1), (2, 2, 1)]),
    );
    let symmetric = "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n";
    assert_same(
        &parse(symmetric, Format::MatrixMarket),
        &graph(3, &[(1, 0, 1), (0, 1, 1), (2, 2, 1)]),
    );
    // No entries at all.
    let empty = "%%MatrixMarket matrix coordinate pattern general\n5 5 0\n";
    assert_same(&parse(empty, Format::MatrixMarket), &graph(5, &[]));
}

// ---------------------------------------------------------------------------
// Edge lists.

#[test]
fn edge_list_unweighted_and_weighted() {
    let unweighted = "# SNAP style\n# FromNodeId\tToNodeId\n0\t1\n1\t2\n\n5\t0\n";
    assert_same(
        &parse(unweighted, Format::EdgeList),
        &graph(6, &[(0, 1, 1), (1, 2, 1), (5, 0, 1)]),
    );
    let weighted = "% comment\n  # indented comment\n0 1 5\n1 2 3.0\n2 0 0\n2 2 4294967295\n";
    assert_same(
        &parse(weighted, Format::EdgeList),
        &graph(3, &[(0, 1, 5), (1, 2, 3), (2, 0, 0), (2, 2, u32::MAX)]),
    );
    // CRLF and no final line break.
    let crlf = unweighted.replace('\n', "\r\n");
    assert_same(
        &parse(crlf.trim_end(), Format::EdgeList),
        &graph(6, &[(0, 1, 1), (1, 2, 1), (5, 0, 1)]),
    );
}

// ---------------------------------------------------------------------------
// Round trips of random graphs through every text format.

#[test]
fn random_graphs_round_trip_through_every_text_format() {
    let mut rng = TestRng::new("random_graphs_round_trip_through_every_text_format");
    for _ in 0..300 {
        let g = random_small_graph(&mut rng, 30);
        for format in [Format::Dimacs, Format::MatrixMarket] {
            assert_same(&parse(&text_of(&g, format), format), &g);
        }
        // Reals are f32 weights: the f32 nearest to each integer.
        assert_same(
            &parse(&mtx_text(&g, true), Format::MatrixMarket),
            &as_f32(&g),
        );
        // An edge list has as many vertices as its largest id + 1.
        if g.num_edges() > 0 {
            let parsed = parse(&edge_list_text(&g), Format::EdgeList);
            let n = arcs(&g)
                .iter()
                .map(|&(u, v, _)| u.max(v) as usize + 1)
                .max()
                .unwrap();
            assert_same(&parsed, &graph(n, &arcs(&g)));
        }
    }
}

// ---------------------------------------------------------------------------
// f32 weights: Matrix Market `real`, and `--weights f32` in every text format.

#[test]
fn f32_weights_parse_to_the_nearest_floats_in_every_text_format() {
    let expected = f32_graph(
        4,
        &[
            (0, 1, 0.5),
            (1, 2, 0.1),
            (0, 2, 7.0),
            (2, 3, 0.0),
            (3, 0, 2.5),
            (3, 1, 1e-45),
            (3, 3, f32::MAX),
            (1, 1, 0.0),
        ],
    );
    let values = [
        "0.5",
        "1e-1",
        "7",
        "-0",
        "+2.5",
        "1.4e-45",
        "3.4028235e38",
        "-0.0e5",
    ];
    let arcs = [
        (1, 2),
        (2, 3),
        (1, 3),
        (3, 4),
        (4, 1),
        (4, 2),
        (4, 4),
        (2, 2),
    ];
    let mut dimacs = String::from("c reals\np sp 4 8\n");
    let mut mtx = String::from("%%MatrixMarket matrix coordinate real general\n4 4 8\n");
    let mut edge_list = String::from("# reals\n");
    for (&(u, v), w) in arcs.iter().zip(values) {
        dimacs += &format!("a {u} {v} {w}\n");
        mtx += &format!("{u} {v} {w}\n");
        edge_list += &format!("{} {} {w}\n", u - 1, v - 1);
    }
    assert_same(&parse_f32(&dimacs, Format::Dimacs), &expected);
    assert_same(&parse_f32(&edge_list, Format::EdgeList), &expected);
    // Matrix Market `real` is f32 with or without --weights f32.
    assert_same(&parse(&mtx, Format::MatrixMarket), &expected);
    assert_same(&parse_f32(&mtx, Format::MatrixMarket), &expected);
    // -0 is +0: the bit pattern 0.
    assert_eq!(parse_f32(&dimacs, Format::Dimacs).weights()[3], 0);

    // `integer` and `pattern` files and unweighted edge lists as f32.
    let integer =
        "%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n2 1 3\n2 2 16777217\n";
    assert_same(
        &parse_f32(integer, Format::MatrixMarket),
        &f32_graph(2, &[(1, 0, 3.0), (0, 1, 3.0), (1, 1, 16777216.0)]),
    );
    let pattern = "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n";
    assert_same(
        &parse_f32(pattern, Format::MatrixMarket),
        &f32_graph(2, &[(0, 1, 1.0)]),
    );
    assert_same(
        &parse_f32("0 1\n1 0\n", Format::EdgeList),
        &f32_graph(2, &[(0, 1, 1.0), (1, 0, 1.0)]),
    );
    // Without --weights f32 these stay u32.
    for (text, format) in [
        (integer, Format::MatrixMarket),
        (pattern, Format::MatrixMarket),
        ("0 1\n", Format::EdgeList),
        ("p sp 2 1\na 1 2 3\n", Format::Dimacs),
    ] {
        assert_eq!(parse(text, format).weight_kind(), WeightKind::U32, "{text}");
        let as_u32 = LoadOptions {
            weights: Some(WeightKind::U32),
        };
        let graph = parse_bytes_with(text.as_bytes(), format, path_for(format), as_u32).unwrap();
        assert_eq!(graph.weight_kind(), WeightKind::U32, "{text}");
    }
}

#[test]
fn bad_f32_weights_are_rejected_with_their_line() {
    let cases: &[(&str, &[&str])] = &[
        ("-1", &["negative", "`-1`"]),
        ("-0.5", &["negative"]),
        ("-1e-50", &["negative"]),
        ("nan", &["not a number"]),
        ("-NaN", &["not a number"]),
        ("inf", &["infinite"]),
        ("-inf", &["infinite"]),
        ("Infinity", &["infinite"]),
        ("1e39", &["too large", "3.4028235e38"]),
        ("3.4028236e38", &["too large"]),
        ("1e400", &["too large"]),
        (
            "abc",
            &["expected a weight (a non-negative real number)", "`abc`"],
        ),
        ("0x10", &["expected a weight", "`0x10`"]),
        ("1,5", &["expected a weight", "`1,5`"]),
        ("1.5.2", &["expected a weight"]),
        ("e5", &["expected a weight"]),
        ("\u{ff}", &["expected a weight"]),
    ];
    for &(w, needles) in cases {
        // The bad weight is on line 3 of each file.
        let texts = [
            (Format::Dimacs, format!("p sp 2 2\na 1 2 1\na 2 1 {w}\n")),
            (
                Format::MatrixMarket,
                format!("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 {w}\n2 1 1\n"),
            ),
            (Format::EdgeList, format!("0 1 1\n# c\n1 0 {w}\n")),
        ];
        for (format, text) in texts {
            let message = assert_rejected_with(format, &text, 3, needles, F32_OPTIONS);
            assert!(message.contains("weight"), "{message}");
        }
    }
}

#[test]
fn real_matrix_market_refuses_u32_weights() {
    let text = "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 0.5\n";
    let as_u32 = LoadOptions {
        weights: Some(WeightKind::U32),
    };
    assert_rejected_with(
        Format::MatrixMarket,
        text,
        1,
        &["`real`", "--weights u32", "truncate"],
        as_u32,
    );
    // Even when every value is an integer.
    assert_rejected_with(
        Format::MatrixMarket,
        "%%MatrixMarket matrix coordinate double symmetric\n2 2 1\n1 2 3\n",
        1,
        &["--weights u32"],
        as_u32,
    );
}

#[test]
fn random_f32_graphs_round_trip_through_every_text_format() {
    let mut rng = TestRng::new("random_f32_graphs_round_trip_through_every_text_format");
    for _ in 0..300 {
        let g = random_small_graph(&mut rng, 30);
        // Random floats of every magnitude, zeros and f32::MAX included.
        let weights: Vec<f32> = (0..g.num_edges())
            .map(|_| match rng.below(6) {
                0 => 0.0,
                1 => f32::MAX,
                2 => rng.below(100) as f32 / 8.0,
                _ => loop {
                    let x = f32::from_bits(rng.bits() as u32 & 0x7fff_ffff);
                    if x.is_finite() {
                        break x;
                    }
                },
            })
            .collect();
        let g =
            Graph::from_f32_weights(g.offsets().to_vec(), g.targets().to_vec(), &weights).unwrap();
        // Rust prints an f32 in the shortest form that reads back to it.
        let shown = |w: u32| f32::from_bits(w).to_string();
        let mut dimacs = format!("p sp {} {}\n", g.num_vertices(), g.num_edges());
        let mut mtx = format!(
            "%%MatrixMarket matrix coordinate real general\n{n} {n} {}\n",
            g.num_edges(),
            n = g.num_vertices()
        );
        let mut edge_list = String::new();
        for (u, v, w) in arcs(&g) {
            dimacs += &format!("a {} {} {}\n", u + 1, v + 1, shown(w));
            mtx += &format!("{} {} {:e}\n", u + 1, v + 1, f32::from_bits(w));
            edge_list += &format!("{u} {v} {}\n", shown(w));
        }
        assert_same(&parse_f32(&dimacs, Format::Dimacs), &g);
        assert_same(&parse(&mtx, Format::MatrixMarket), &g);
        if g.num_edges() > 0 {
            let n = arcs(&g)
                .iter()
                .map(|&(u, v, _)| u.max(v) as usize + 1)
                .max()
                .unwrap();
            let expected = graph(n, &arcs(&g))
                .with_weight_kind(WeightKind::F32)
                .unwrap();
            assert_same(&parse_f32(&edge_list, Format::EdgeList), &expected);
        }
    }
}

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

#[test]
fn numbering_maps_ids_both_ways() {
    let one = InputNumbering::ONE_BASED;
    assert_eq!(one.external(0), 1);
    assert_eq!(one.internal(1, 5), Some(0));
    assert_eq!(one.internal(5, 5), Some(4));
    assert_eq!(one.internal(0, 5), None);
    assert_eq!(one.internal(6, 5), None);
    assert_eq!(one.id_range(5), "1 to 5");
    let zero = InputNumbering::ZERO_BASED;
    assert_eq!(zero.internal(0, 5), Some(0));
    assert_eq!(zero.internal(5, 5), None);
    assert_eq!(zero.internal(u64::MAX, 5), None);
}

// ---------------------------------------------------------------------------
// Rejections, each with its line.

const F32: &str = "read them as f32 with --weights f32";

#[test]
fn dimacs_rejections_name_the_line() {
    let d = Format::Dimacs;
    let header = "c x\np sp 3 2\n"; // arcs start on line 3
    let cases: &[(&str, u64, &[&str])] = &[
        ("", 1, &["empty", "p sp N M"]),
        ("c only\nc comments\n", 3, &["end of file", "p sp N M"]),
        ("\n\n", 3, &["p sp N M"]),
        ("a 1 2 3\np sp 2 1\n", 1, &["before the problem line"]),
        (
            "p sp 2 1\nc\np sp 2 1\na 1 2 3\n",
            3,
            &["second problem line", "line 1"],
        ),
        ("p max 2 1\n", 1, &["`sp`", "found `max`"]),
        ("p\n", 1, &["p sp N M"]),
        ("p sp 2\n", 1, &["arc count M is missing"]),
        ("p sp 2 1 7\n", 1, &["found `7` after M"]),
        ("p sp x 1\n", 1, &["vertex count N", "found `x`"]),
        ("p sp -2 1\n", 1, &["non-negative", "`-2`"]),
        ("p sp 4294967296 0\n", 1, &["too many", "4294967296"]),
        ("p sp 2 4294967296\n", 1, &["too many", "arcs"]),
        ("p sp 99999999999999999999 1\n", 1, &["too large"]),
        ("p sp 3 1\nx 1 2 3\n", 2, &["`c`, `p` or `a`", "found `x`"]),
        ("p sp 3 1\nA 1 2 3\n", 2, &["found `A`"]),
    ];
    for &(text, line, needles) in cases {
        assert_rejected(d, text, line, needles);
    }
    let arc_cases: &[(&str, &[&str])] = &[
        ("a 0 1 3", &["0 does not exist", "numbered from 1"]),
        ("a 1 0 3", &["head vertex 0 does not exist"]),
        (
            "a 4 1 3",
            &["tail vertex 4 is out of range", "3 vertices", "1 to 3"],
        ),
        (
            "a 1 99999999999 3",
            &["head vertex 99999999999 is out of range"],
        ),
        ("a -1 2 3", &["non-negative", "`-1`"]),
        ("a 1 2 -3", &["negative"]),
        ("a 1 2 nan", &["not a number"]),
        ("a 1 2 NaN", &["not a number"]),
        ("a 1 2 inf", &["infinite"]),
        ("a 1 2 -infinity", &["infinite"]),
        ("a 1 2 x7", &["expected a weight", "`x7`"]),
        ("a 1 2 3.5", &["not an integer", F32]),
        ("a 1 2 3.0", &["expected an integer weight"]),
        ("a 1 2 4294967296", &["too large", "4294967295"]),
        ("a 1 2 123456789012345678901234567890", &["too large"]),
        ("a 1 2 3 4", &["found `4` after the weight"]),
        ("a 1 2 3 garbage", &["found `garbage` after the weight"]),
        ("a 1 2", &["weight W is missing"]),
        ("a 1", &["head V is missing"]),
        ("a", &["tail U is missing"]),
        ("a 1x 2 3", &["`1x`"]),
        ("a 1 2 3\u{0}", &["expected a weight", "\\x00"]),
    ];
    for &(arc, needles) in arc_cases {
        assert_rejected(d, &format!("{header}{arc}\na 1 2 1\n"), 3, needles);
        // The same as the second arc.
        assert_rejected(d, &format!("{header}a 1 2 1\n{arc}\n"), 4, needles);
    }
    // More and fewer arcs than declared.
    assert_rejected(
        d,
        "p sp 3 2\na 1 2 1\na 2 3 1\nc\na 3 1 1\n",
        5,
        &["more arcs than the 2 declared", "line 1"],
    );
    assert_rejected(
        d,
        "c\np sp 3 2\na 1 2 1\n",
        4,
        &["end of file after 1 arcs", "(line 2) declares 2"],
    );
    assert_rejected(d, "p sp 3 2\n", 2, &["after 0 arcs"]);
}

#[test]
fn matrix_market_rejections_name_the_line() {
    let m = Format::MatrixMarket;
    let cases: &[(&str, u64, &[&str])] = &[
        ("", 1, &["empty", "%%MatrixMarket"]),
        ("1 2 3\n", 1, &["expected the banner", "found `1 2 3`"]),
        ("%%MatrixMarket\n", 1, &["expected the banner"]),
        (
            "%%MatrixMarket vector coordinate real general\n",
            1,
            &["`matrix`"],
        ),
        (
            "%%MatrixMarket matrix array real general\n2 2\n",
            1,
            &["`array`", "not supported"],
        ),
        (
            "%%MatrixMarket matrix coordinate complex general\n",
            1,
            &["complex"],
        ),
        (
            "%%MatrixMarket matrix coordinate string general\n",
            1,
            &["expected the banner"],
        ),
        (
            "%%MatrixMarket matrix coordinate real skew-symmetric\n",
            1,
            &["skew-symmetric", "not supported"],
        ),
        (
            "%%MatrixMarket matrix coordinate real hermitian\n",
            1,
            &["hermitian"],
        ),
        (
            "%%MatrixMarket matrix coordinate real general extra\n",
            1,
            &["`extra` after it"],
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n% c\n",
            3,
            &["size line", "there is none"],
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n2 3 1\n1 1 1\n",
            2,
            &["2 × 3", "square"],
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n2 2\n",
            2,
            &["NNZ is missing"],
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n2 2 1 1\n",
            2,
            &["after NNZ"],
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n2 two 1\n",
            2,
            &["COLS", "`two`"],
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n4294967296 4294967296 0\n",
            2,
            &["too many"],
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n2 2 4294967296\n",
            2,
            &["too many"],
        ),
    ];
    for &(text, line, needles) in cases {
        assert_rejected(m, text, line, needles);
    }
    let real = "%%MatrixMarket matrix coordinate real general\n%\n3 3 2\n"; // entries from line 4
    let integer = "%%MatrixMarket matrix coordinate integer general\n%\n3 3 2\n";
    let pattern = "%%MatrixMarket matrix coordinate pattern general\n%\n3 3 2\n";
    let entry_cases: &[(&str, &str, &[&str])] = &[
        (real, "0 1 1", &["row 0 does not exist", "numbered from 1"]),
        (real, "1 0 1", &["column 0 does not exist"]),
        (real, "4 1 1", &["row 4 is out of range", "3 vertices"]),
        (real, "1 4 1", &["column 4 is out of range"]),
        (real, "1 2 -1.0", &["negative"]),
        (real, "1 2 -1e-50", &["negative"]),
        (real, "1 2 nan", &["not a number"]),
        (real, "1 2 inf", &["infinite"]),
        (real, "1 2 -inf", &["infinite"]),
        (real, "1 2 1e39", &["too large", "3.4028235e38"]),
        (real, "1 2 1e400", &["too large"]),
        (real, "1 2 abc", &["expected a weight", "real number"]),
        (integer, "1 2 0.5", &["not an integer", F32]),
        (real, "1 2", &["value V is missing"]),
        (real, "1 2 3 4", &["found `4` after the value"]),
        (integer, "1 2 2.0", &["expected an integer weight"]),
        (integer, "1 2 -2", &["negative"]),
        (integer, "1 2 4294967296", &["too large"]),
        (pattern, "1 2 3", &["pattern entries have no value"]),
        (pattern, "1", &["column J is missing"]),
    ];
    for &(header, entry, needles) in entry_cases {
        assert_rejected(m, &format!("{header}{entry}\n1 1 1\n"), 4, needles);
        assert_rejected(m, &format!("{header}% c\n{entry}\n1 1 1\n"), 5, needles);
    }
    assert_rejected(
        m,
        &format!("{real}1 2 1\n2 3 1\n3 1 1\n"),
        6,
        &["more entries than the 2 declared", "line 3"],
    );
    assert_rejected(
        m,
        &format!("{real}1 2 1\n% end\n"),
        6,
        &["end of file after 1 entries", "(line 3) declares 2"],
    );
}

#[test]
fn edge_list_rejections_name_the_line() {
    let e = Format::EdgeList;
    let cases: &[(&str, u64, &[&str])] = &[
        ("", 1, &["empty", "at least one arc"]),
        (
            "# only\n% comments\n\n",
            4,
            &["end of file", "at least one arc"],
        ),
        ("0 1\n7\n", 2, &["head V is missing"]),
        ("0 1\n1 x\n", 2, &["head vertex", "`x`"]),
        ("0 1\n-1 2\n", 2, &["non-negative", "`-1`"]),
        ("0 4294967295\n", 1, &["too large", "below 4294967295"]),
        ("0 1 1\n1 2\n", 2, &["3 columns", "like line 1", "found 2"]),
        (
            "# c\n0 1\n1 2 1\n",
            3,
            &["2 columns", "like line 2", "found 3"],
        ),
        ("0 1 -2\n", 1, &["negative"]),
        ("0 1 nan\n", 1, &["not a number"]),
        ("0 1 inf\n", 1, &["infinite"]),
        ("0 1 2.5\n", 1, &["not an integer", F32]),
        ("0 1 4294967296\n", 1, &["too large"]),
        ("0 1 5e9\n", 1, &["too large"]),
        ("0 1 w\n", 1, &["expected a weight", "`w`"]),
        ("0 1 1 1700000000\n", 1, &["after the weight"]),
        ("0,1\n", 1, &["`0,1`"]),
    ];
    for &(text, line, needles) in cases {
        assert_rejected(e, text, line, needles);
    }
}

#[test]
fn huge_declared_counts_are_rejected_without_allocating_them() {
    let cases: &[(Format, &str, u64)] = &[
        (Format::Dimacs, "p sp 4294967295 4294967295\n", 2),
        (Format::Dimacs, "p sp 4294967295 0\n", 1),
        (Format::Dimacs, "c\np sp 200000000 1\na 1 2 3\n", 2),
        (
            Format::MatrixMarket,
            "%%MatrixMarket matrix coordinate pattern symmetric\n4294967295 4294967295 4294967295\n1 2\n",
            4,
        ),
        (
            Format::MatrixMarket,
            "%%MatrixMarket matrix coordinate pattern general\n300000000 300000000 0\n",
            2,
        ),
        (Format::EdgeList, "0 1\n4000000000 1\n1 2\n", 2),
    ];
    for &(format, text, line) in cases {
        let (result, largest) =
            largest_allocation(|| parse_bytes(text.as_bytes(), format, path_for(format)));
        match result {
            Err(Error::Parse {
                line: l, message, ..
            }) => {
                assert_eq!(l, line, "{format}: {text:?}: {message}");
            }
            other => panic!(
                "{format}: {text:?}: expected a parse error, got {:?}",
                other.err()
            ),
        }
        assert!(
            largest < 1 << 20,
            "{format}: {text:?}: allocated {largest} bytes at once"
        );
    }
    // The guard's message says what it is.
    assert_rejected(
        Format::Dimacs,
        "p sp 4294967295 0\n",
        1,
        &[
            "declares 4294967295 vertices",
            "may have at most 16777216",
            "guard",
        ],
    );
    assert_rejected(
        Format::EdgeList,
        "0 1\n4000000000 1\n1 2\n",
        2,
        &["vertex id 4000000000 implies 4000000001 vertices"],
    );
    // Up to the free allowance, vertices without arcs are fine.
    let g = parse("p sp 100000 1\na 100000 1 2\n", Format::Dimacs);
    assert_eq!((g.num_vertices(), g.num_edges()), (100_000, 1));
}

#[test]
fn overlong_lines_are_rejected() {
    let long = format!("p sp 2 1\na 1 2 {}\n", "7".repeat(2 << 20));
    assert_rejected(Format::Dimacs, &long, 2, &["longer than 1048576 bytes"]);
    let no_breaks = "0 ".repeat(1 << 20);
    assert_rejected(Format::EdgeList, &no_breaks, 1, &["longer than"]);
}

#[test]
fn error_message_names_file_line_expected_and_found() {
    let err = parse_bytes(
        b"c\np sp 3 1\na 1 4 7\n",
        Format::Dimacs,
        Path::new("graphs/x.gr"),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "graphs/x.gr:3: head vertex 4 is out of range: 3 vertices are declared, numbered 1 to 3"
    );
    assert_eq!(err.exit_code(), 2);
}

// ---------------------------------------------------------------------------
// Garbage never panics.

/// Parses `bytes` as `format`, as it is and with `--weights f32`: each time a
/// valid graph or a parse error inside the file. Whether the default reading
/// accepted it.
fn parse_or_reject(bytes: &[u8], format: Format) -> bool {
    parse_or_reject_with(bytes, format, F32_OPTIONS);
    parse_or_reject_with(bytes, format, LoadOptions::default())
}

fn parse_or_reject_with(bytes: &[u8], format: Format, options: LoadOptions) -> bool {
    match parse_bytes_with(bytes, format, path_for(format), options) {
        Ok(g) => {
            check_csr(g.offsets(), g.targets(), g.weights()).expect("a valid CSR");
            if g.weight_kind() == WeightKind::F32 {
                let bad = g.weights().iter().find(|&&w| {
                    let x = f32::from_bits(w);
                    !(x.is_finite() && x.is_sign_positive())
                });
                assert!(bad.is_none(), "{format}: f32 weight word {bad:?}");
            }
            true
        }
        Err(Error::Parse { line, message, .. }) => {
            let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
            assert!(
                (1..=lines + 2).contains(&line),
                "{format}: line {line} is outside the file ({lines} line breaks): {message}"
            );
            false
        }
        Err(e) => panic!("{format}: not a parse error: {e}"),
    }
}

/// Bytes that make parsers work: digits, signs, separators, keywords.
fn random_text(rng: &mut TestRng, len: usize) -> Vec<u8> {
    const PIECES: &[&[u8]] = &[
        b"0",
        b"1",
        b"2",
        b"3",
        b"9",
        b" ",
        b" ",
        b"\t",
        b"\n",
        b"\n",
        b"\r\n",
        b"-",
        b".",
        b"e",
        b"a ",
        b"p sp ",
        b"c",
        b"%",
        b"#",
        b"nan",
        b"inf",
        b"4294967295",
        b"4294967296",
        b"%%MatrixMarket matrix coordinate ",
        b"real ",
        b"pattern ",
        b"integer ",
        b"general",
        b"symmetric",
        b"\0",
        b"\xff",
    ];
    let mut bytes = Vec::with_capacity(len);
    while bytes.len() < len {
        if rng.chance(0.2) {
            bytes.push(rng.bits() as u8);
        } else {
            bytes.extend_from_slice(PIECES[rng.below(PIECES.len() as u64) as usize]);
        }
    }
    bytes
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = TestRng::new("random_bytes_never_panic");
    let mut accepted = 0;
    for k in 0..6000 {
        let len = rng.below(300) as usize;
        let bytes: Vec<u8> = if k % 2 == 0 {
            (0..len).map(|_| rng.bits() as u8).collect()
        } else {
            random_text(&mut rng, len)
        };
        for format in TEXT_FORMATS {
            // A valid start now and then, so that parsing gets further.
            let mut input = Vec::new();
            if rng.chance(0.3) {
                input.extend_from_slice(match format {
                    Format::Dimacs => b"p sp 5 3\n",
                    Format::MatrixMarket => {
                        b"%%MatrixMarket matrix coordinate integer general\n5 5 3\n"
                    }
                    _ => b"0 1 2\n",
                });
            }
            input.extend_from_slice(&bytes);
            accepted += parse_or_reject(&input, format) as u32;
        }
    }
    println!("{accepted} random inputs were valid graphs");
}

#[test]
fn corrupted_files_never_panic() {
    let mut rng = TestRng::new("corrupted_files_never_panic");
    const TOKENS: &[&[u8]] = &[
        b"-1",
        b"0",
        b"nan",
        b"inf",
        b"1e99",
        b"4294967296",
        b"18446744073709551616",
        b"\n",
        b"\r",
        b" ",
        b"p sp 3 3\n",
        b"a 1 1 1\n",
        b"%%MatrixMarket",
        b"x",
        b"\0",
        b"0.5",
        b"99999",
    ];
    let mut outcomes = [0u32; 2];
    for _ in 0..300 {
        let g = random_small_graph(&mut rng, 10);
        for format in TEXT_FORMATS {
            let valid = text_of(&g, format).into_bytes();
            for _ in 0..10 {
                let mut bytes = valid.clone();
                for _ in 0..rng.range(1, 3) {
                    let at = rng.below(bytes.len() as u64 + 1) as usize;
                    match rng.below(5) {
                        0 if at < bytes.len() => bytes[at] ^= 1 << rng.below(8),
                        1 if at < bytes.len() => {
                            bytes.remove(at);
                        }
                        2 => {
                            let token = TOKENS[rng.below(TOKENS.len() as u64) as usize];
                            bytes.splice(at..at, token.iter().copied());
                        }
                        3 => bytes.truncate(at),
                        _ => bytes.insert(at.min(bytes.len()), rng.bits() as u8),
                    }
                }
                outcomes[parse_or_reject(&bytes, format) as usize] += 1;
            }
        }
    }
    println!("rejected {}, accepted {}", outcomes[0], outcomes[1]);
    assert!(outcomes[0] > 1000, "most corruptions must be caught");
}

#[test]
fn corrupted_gzip_files_never_panic() {
    let mut rng = TestRng::new("corrupted_gzip_files_never_panic");
    let dir = TempDir::new("corrupted_gzip");
    let path = dir.path("g.gr.gz");
    for _ in 0..300 {
        let g = random_small_graph(&mut rng, 10);
        let mut bytes = gzip(dimacs_text(&g).as_bytes());
        let at = rng.below(bytes.len() as u64) as usize;
        bytes[at] ^= 1 << rng.below(8);
        if rng.chance(0.3) {
            bytes.truncate(rng.below(bytes.len() as u64) as usize);
        }
        std::fs::write(&path, &bytes).unwrap();
        match formats::load(&path, None) {
            Ok(loaded) => {
                let g = loaded.into_graph().unwrap();
                check_csr(g.offsets(), g.targets(), g.weights()).unwrap();
            }
            Err(Error::Io { .. } | Error::Parse { .. }) => {}
            Err(e) => panic!("neither an I/O nor a parse error: {e}"),
        }
    }
}
