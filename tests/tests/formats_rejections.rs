//! Every rejection of a text format names its line; huge declared counts allocate nothing.

mod formats_helpers;

use std::path::Path;

use sssp::Error;
use sssp::formats::{Format, parse_bytes};
use sssp_tests::allocation::{LargestAllocation, largest_allocation};

use formats_helpers::*;

// Records the largest allocation of each thread (see `sssp_tests::allocation`).
#[global_allocator]
static ALLOCATOR: LargestAllocation = LargestAllocation;

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
