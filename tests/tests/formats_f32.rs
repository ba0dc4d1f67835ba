//! The text input formats with `f32` weights: the nearest floats, rejections with their line, round trips.

mod formats_helpers;

use sssp::Graph;
use sssp::formats::{Format, LoadOptions, parse_bytes_with};
use sssp::graph::WeightKind;
use sssp_tests::{TestRng, random_small_graph};

use formats_helpers::*;

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
