//! The text input formats (DIMACS `.gr`, Matrix Market `.mtx`, edge lists): exact graphs from hand-written files, rome99.gr against an independent reading and the oracle, round trips of random graphs, the input numbering.

mod formats_helpers;

use std::path::PathBuf;

use sssp::formats::{self, Format, InputNumbering};
use sssp::oracle;
use sssp_tests::{TestRng, find_graph, random_small_graph};

use formats_helpers::*;

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
