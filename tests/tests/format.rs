//! The g.csr file format: round trips, zero-copy reading, the exact layout, and
//! the rejection of every kind of malformed file with the right field and byte
//! offset, without panics or allocations proportional to a lying header.

use std::path::Path;

use sssp::formats::csr::{
    self, GraphFile, HEADER_BYTES, MAGIC, VERSION, WEIGHT_TYPE_F32, WEIGHT_TYPE_U32,
};
use sssp::graph::{WeightKind, check_csr};
use sssp::{Error, Graph};
use sssp_tests::allocation::{LargestAllocation, largest_allocation};
use sssp_tests::{TempDir, TestRng, random_graph, random_small_graph};

// Records the largest allocation of each thread (see `sssp_tests::allocation`).
#[global_allocator]
static ALLOCATOR: LargestAllocation = LargestAllocation;

// ---------------------------------------------------------------------------
// Helpers.

fn path() -> &'static Path {
    Path::new("test.csr")
}

fn put_u32(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

fn put_u64(bytes: &mut [u8], at: usize, value: u64) {
    bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
}

fn assert_same(a: &Graph, b: &Graph) {
    assert_eq!(a.offsets(), b.offsets(), "offsets differ");
    assert_eq!(a.targets(), b.targets(), "targets differ");
    assert_eq!(a.weights(), b.weights(), "weights differ");
    assert_eq!(a.weight_kind(), b.weight_kind(), "weight kinds differ");
}

/// Whether all of `inner` lies within `outer`.
fn within<T>(inner: &[T], outer: &[u8]) -> bool {
    let (start, end) = (
        inner.as_ptr() as usize,
        inner.as_ptr() as usize + std::mem::size_of_val(inner),
    );
    let (lo, hi) = (
        outer.as_ptr() as usize,
        outer.as_ptr() as usize + outer.len(),
    );
    lo <= start && end <= hi
}

/// `bytes` copied into a buffer at an address that is `misalign` past a multiple of 4.
fn placed(bytes: &[u8], misalign: usize) -> (Vec<u8>, usize) {
    let mut buf = vec![0u8; bytes.len() + 8];
    let skip = (4 + misalign - buf.as_ptr() as usize % 4) % 4;
    buf[skip..skip + bytes.len()].copy_from_slice(bytes);
    (buf, skip)
}

/// The field and offset of a format error, failing the test on anything else.
#[track_caller]
fn format_error(result: sssp::Result<Graph<'_>>) -> (&'static str, u64, String) {
    match result {
        Err(Error::Format {
            field,
            offset,
            reason,
            ..
        }) => (field, offset, reason),
        Err(e) => panic!("expected a format error, got {e}"),
        Ok(g) => panic!(
            "a malformed file was accepted: {} vertices, {} edges",
            g.num_vertices(),
            g.num_edges()
        ),
    }
}

#[track_caller]
fn assert_rejected(bytes: &[u8], field: &str, offset: u64) -> String {
    let (f, o, reason) = format_error(csr::parse(bytes, path()));
    assert_eq!(
        (f, o),
        (field, offset),
        "wrong field or offset; reason: {reason}"
    );
    reason
}

/// A random small graph with at least `min_n` vertices and `min_m` edges.
fn graph_at_least(rng: &mut TestRng, min_n: usize, min_m: usize) -> Graph<'static> {
    let n = rng.range(min_n as u64, min_n as u64 + 30) as usize;
    let m = rng.range(min_m as u64, min_m as u64 + 60) as usize;
    random_graph(rng, n, m, 1000)
}

/// The graph of `n` vertices and no edges.
fn edgeless(n: usize) -> Graph<'static> {
    Graph::new(vec![0u32; n + 1], Vec::new(), Vec::new()).unwrap()
}

fn offsets_at(_g: &Graph) -> usize {
    HEADER_BYTES
}

fn targets_at(g: &Graph) -> usize {
    HEADER_BYTES + 4 * (g.num_vertices() + 1)
}

// ---------------------------------------------------------------------------
// Layout and round trips.

#[test]
fn layout_matches_the_specification() {
    // Vertex 0 -> 1 with weight 7, vertex 2 -> 0 with weight 0x01020304.
    let g = Graph::from_edges(3, &[(0, 1, 7), (2, 0, 0x0102_0304)]).unwrap();
    let mut expected = Vec::new();
    expected.extend_from_slice(b"SSSPCSR\0");
    for word in [1u32, 1, 1, 0] {
        expected.extend_from_slice(&word.to_le_bytes());
    }
    expected.extend_from_slice(&3u64.to_le_bytes());
    expected.extend_from_slice(&2u64.to_le_bytes());
    for word in [
        0u32,
        1,
        1,
        2,
        /* targets */ 1,
        0,
        /* weights */ 7,
        0x0102_0304,
    ] {
        expected.extend_from_slice(&word.to_le_bytes());
    }
    assert_eq!(expected.len(), 40 + 4 * 4 + 8 * 2);
    assert_eq!(csr::to_bytes(&g), expected);
    assert_eq!(&expected[..8], &MAGIC);
    assert_eq!(VERSION, 1);
    assert_eq!(HEADER_BYTES, 40);
}

fn round_trip_graphs(rng: &mut TestRng) -> Vec<Graph<'static>> {
    let mut graphs = vec![
        edgeless(0),
        edgeless(1),
        random_graph(rng, 1, 0, 10),
        random_graph(rng, 1, 5, 0),
        random_graph(rng, 2000, 10_000, u32::MAX),
    ];
    graphs.extend((0..200).map(|_| random_small_graph(rng, 40)));
    graphs
}

#[test]
fn round_trip_in_memory() {
    let mut rng = TestRng::new("round_trip_in_memory");
    for g in round_trip_graphs(&mut rng) {
        let bytes = csr::to_bytes(&g);
        assert_eq!(
            bytes.len(),
            40 + 4 * (g.num_vertices() + 1) + 8 * g.num_edges()
        );
        for misalign in [0, 1, 2, 3] {
            let (buf, skip) = placed(&bytes, misalign);
            let file = &buf[skip..skip + bytes.len()];
            let parsed = csr::parse(file, path()).expect("a written graph parses");
            assert_same(&parsed, &g);
            // Aligned input is borrowed; unaligned input must be copied.
            let borrowed = within(parsed.offsets(), file)
                && within(parsed.targets(), file)
                && within(parsed.weights(), file);
            if cfg!(target_endian = "little") {
                assert_eq!(
                    borrowed,
                    misalign == 0,
                    "misalignment {misalign}: borrowed = {borrowed}"
                );
            }
            // Every accepted file is the canonical encoding of its graph.
            assert_eq!(csr::to_bytes(&parsed), bytes);
        }
    }
}

#[test]
fn round_trip_through_files() {
    let mut rng = TestRng::new("round_trip_through_files");
    let dir = TempDir::new("round_trip_through_files");
    for (i, g) in round_trip_graphs(&mut rng).into_iter().enumerate() {
        let file = dir.path(&format!("g{i}.csr"));
        csr::write(&g, &file).expect("write");
        assert_eq!(
            std::fs::read(&file).unwrap(),
            csr::to_bytes(&g),
            "write and to_bytes differ"
        );
        let mapped = GraphFile::open(&file).expect("open");
        assert_eq!(mapped.path(), file);
        assert_same(&mapped.graph().expect("parse mapped file"), &g);
        assert_same(&csr::read(&file).expect("read"), &g);
    }
}

#[test]
fn graph_file_borrows_from_the_map() {
    let mut rng = TestRng::new("graph_file_borrows_from_the_map");
    let dir = TempDir::new("graph_file_borrows_from_the_map");
    let file = dir.path("g.csr");
    let g = graph_at_least(&mut rng, 1, 1);
    csr::write(&g, &file).unwrap();
    let mapped = GraphFile::open(&file).unwrap();
    let parsed = mapped.graph().unwrap();
    let bytes = mapped.bytes();
    assert_eq!(bytes.len() as u64, std::fs::metadata(&file).unwrap().len());
    assert!(
        within(parsed.offsets(), bytes),
        "offsets were copied out of the map"
    );
    assert!(
        within(parsed.targets(), bytes),
        "targets were copied out of the map"
    );
    assert!(
        within(parsed.weights(), bytes),
        "weights were copied out of the map"
    );
    assert_eq!(
        parsed.offsets().as_ptr() as usize,
        bytes.as_ptr() as usize + HEADER_BYTES
    );
    // `read` hands back an owned copy instead.
    let owned = csr::read(&file).unwrap();
    assert!(!within(owned.offsets(), bytes));
    assert_same(&owned, &g);
}

// ---------------------------------------------------------------------------
// f32 weights (weight_type 2).

/// A random graph with `f32` weights: zeros, small fractions, and floats of
/// every magnitude up to `f32::MAX`.
fn random_f32_graph(rng: &mut TestRng, max_n: usize) -> Graph<'static> {
    let g = random_small_graph(rng, max_n);
    let weights: Vec<f32> = (0..g.num_edges())
        .map(|_| match rng.below(4) {
            0 => 0.0,
            1 => rng.below(64) as f32 / 16.0,
            2 => f32::MAX,
            _ => f32::from_bits(rng.below(f32::MAX.to_bits() as u64 + 1) as u32),
        })
        .collect();
    Graph::from_f32_weights(g.offsets().to_vec(), g.targets().to_vec(), &weights).unwrap()
}

#[test]
fn f32_graphs_round_trip_with_weight_type_2() {
    let mut rng = TestRng::new("f32_graphs_round_trip_with_weight_type_2");
    let dir = TempDir::new("f32_graphs_round_trip_with_weight_type_2");
    // The exact layout: weight_type 2, the weights as little-endian f32s.
    let g = Graph::from_f32_weights(vec![0u32, 1, 2], vec![1u32, 0], &[0.5, 0.0]).unwrap();
    let bytes = csr::to_bytes(&g);
    assert_eq!(&bytes[16..20], &WEIGHT_TYPE_F32.to_le_bytes());
    assert_eq!((WEIGHT_TYPE_U32, WEIGHT_TYPE_F32), (1, 2));
    assert_eq!(
        &bytes[bytes.len() - 8..bytes.len() - 4],
        &0.5f32.to_le_bytes()
    );
    assert_eq!(&bytes[bytes.len() - 4..], &0.0f32.to_le_bytes());
    // u32 graphs keep weight_type 1.
    let bytes = csr::to_bytes(&random_small_graph(&mut rng, 5));
    assert_eq!(&bytes[16..20], &WEIGHT_TYPE_U32.to_le_bytes());
    for i in 0..100 {
        let g = random_f32_graph(&mut rng, 30);
        assert_eq!(g.weight_kind(), WeightKind::F32);
        let bytes = csr::to_bytes(&g);
        for misalign in [0, 3] {
            let (buf, skip) = placed(&bytes, misalign);
            let parsed = csr::parse(&buf[skip..skip + bytes.len()], path()).unwrap();
            assert_same(&parsed, &g);
            assert_eq!(csr::to_bytes(&parsed), bytes);
        }
        let file = dir.path(&format!("g{i}.csr"));
        csr::write(&g, &file).unwrap();
        let mapped = GraphFile::open(&file).unwrap();
        assert_eq!(mapped.weight_kind(), WeightKind::F32);
        assert_same(&mapped.graph().unwrap(), &g);
        assert_same(&csr::read(&file).unwrap(), &g);
    }
}

#[test]
fn rejects_f32_weights_that_are_negative_nan_infinite_or_minus_zero() {
    let mut rng = TestRng::new("rejects_f32_weights_that_are_negative_nan_infinite_or_minus_zero");
    let bad = [
        -1.0f32,
        -0.0,
        -f32::MIN_POSITIVE,
        f32::NAN,
        -f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::from_bits(0x7fc0_0001),
    ];
    for _ in 0..50 {
        let g = loop {
            let g = random_f32_graph(&mut rng, 20);
            if g.num_edges() > 0 {
                break g;
            }
        };
        let weights_at = targets_at(&g) + 4 * g.num_edges();
        for w in bad {
            let mut bytes = csr::to_bytes(&g);
            let e = rng.below(g.num_edges() as u64) as usize;
            put_u32(&mut bytes, weights_at + 4 * e, w.to_bits());
            let reason = assert_rejected(&bytes, "weights", (weights_at + 4 * e) as u64);
            assert!(
                reason.contains(&format!("weights[{e}]")) && reason.contains("f32"),
                "{reason}"
            );
            // The same words are fine as u32 weights.
            put_u32(&mut bytes, 16, WEIGHT_TYPE_U32);
            let parsed = csr::parse(&bytes, path()).unwrap();
            assert_eq!(parsed.weight_kind(), WeightKind::U32);
            assert_eq!(parsed.weights()[e], w.to_bits());
        }
    }
    // The message names the file, field, offset and value.
    let g = Graph::from_f32_weights(vec![0u32, 2], vec![0u32, 0], &[1.0, 2.0]).unwrap();
    let mut bytes = csr::to_bytes(&g);
    put_u32(&mut bytes, targets_at(&g) + 8 + 4, (-0.0f32).to_bits());
    let err = csr::parse(&bytes, Path::new("graphs/x.csr")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "graphs/x.csr: invalid g.csr file: weights (byte offset 60): weights[1]: weight -0 of \
         edge 1 is not a finite non-negative f32 (`-0.0` included)"
    );
}

// ---------------------------------------------------------------------------
// Malformed headers and lengths.

#[test]
fn rejects_bad_magic() {
    let mut rng = TestRng::new("rejects_bad_magic");
    let valid = csr::to_bytes(&random_small_graph(&mut rng, 20));
    for _ in 0..100 {
        let mut bytes = valid.clone();
        let at = rng.below(8) as usize;
        bytes[at] ^= rng.range(1, 255) as u8;
        let reason = assert_rejected(&bytes, "magic", 0);
        assert!(reason.contains("SSSPCSR"), "{reason}");
        // Also when the file is shorter than the header.
        let short = rng.range(at as u64 + 1, HEADER_BYTES as u64 - 1) as usize;
        assert_rejected(&bytes[..short], "magic", 0);
    }
}

#[test]
fn rejects_unknown_version() {
    let mut rng = TestRng::new("rejects_unknown_version");
    let mut bytes = csr::to_bytes(&random_small_graph(&mut rng, 20));
    for version in [0, 2, 3, rng.range(2, u32::MAX as u64) as u32, u32::MAX] {
        put_u32(&mut bytes, 8, version);
        let reason = assert_rejected(&bytes, "version", 8);
        assert!(
            reason.contains(&format!("expected 1, found {version}")),
            "{reason}"
        );
    }
}

#[test]
fn rejects_unknown_index_type() {
    let mut rng = TestRng::new("rejects_unknown_index_type");
    let mut bytes = csr::to_bytes(&random_small_graph(&mut rng, 20));
    for code in [0, 2, 7, rng.range(2, u32::MAX as u64) as u32] {
        put_u32(&mut bytes, 12, code);
        let reason = assert_rejected(&bytes, "index_type", 12);
        assert!(reason.contains(&format!("found {code}")), "{reason}");
    }
}

#[test]
fn rejects_unknown_weight_type() {
    let mut rng = TestRng::new("rejects_unknown_weight_type");
    let mut bytes = csr::to_bytes(&random_small_graph(&mut rng, 20));
    // 1 (u32) and 2 (f32) are defined.
    for code in [0, 3, 7, rng.range(3, u32::MAX as u64) as u32] {
        put_u32(&mut bytes, 16, code);
        let reason = assert_rejected(&bytes, "weight_type", 16);
        assert!(reason.contains(&format!("found {code}")), "{reason}");
        assert!(reason.contains("2 (f32 weights)"), "{reason}");
    }
}

#[test]
fn rejects_nonzero_flags() {
    let mut rng = TestRng::new("rejects_nonzero_flags");
    let mut bytes = csr::to_bytes(&random_small_graph(&mut rng, 20));
    for flags in [1, 1 << 31, rng.range(1, u32::MAX as u64) as u32] {
        put_u32(&mut bytes, 20, flags);
        assert_rejected(&bytes, "flags", 20);
    }
}

#[test]
fn rejects_too_many_vertices() {
    let mut rng = TestRng::new("rejects_too_many_vertices");
    let mut bytes = csr::to_bytes(&random_small_graph(&mut rng, 20));
    for n in [
        u32::MAX as u64 + 1,
        rng.range(u32::MAX as u64 + 1, u64::MAX),
        u64::MAX,
    ] {
        put_u64(&mut bytes, 24, n);
        let reason = assert_rejected(&bytes, "num_vertices", 24);
        assert!(reason.contains(&n.to_string()), "{reason}");
    }
}

#[test]
fn rejects_too_many_edges() {
    let mut rng = TestRng::new("rejects_too_many_edges");
    let mut bytes = csr::to_bytes(&random_small_graph(&mut rng, 20));
    for m in [
        u32::MAX as u64 + 1,
        rng.range(u32::MAX as u64 + 1, u64::MAX),
        u64::MAX,
    ] {
        put_u64(&mut bytes, 32, m);
        let reason = assert_rejected(&bytes, "num_edges", 32);
        assert!(reason.contains(&m.to_string()), "{reason}");
    }
}

#[test]
fn rejects_every_truncation() {
    let mut rng = TestRng::new("rejects_every_truncation");
    let bytes = csr::to_bytes(&graph_at_least(&mut rng, 1, 1));
    for len in 0..bytes.len() {
        let reason = assert_rejected(&bytes[..len], "file length", len as u64);
        assert!(
            reason.contains(&format!("the file is {len} bytes")),
            "{reason}"
        );
        if len >= HEADER_BYTES {
            assert!(
                reason.contains(&format!("describes {} bytes", bytes.len())),
                "{reason}"
            );
        }
    }
}

#[test]
fn rejects_trailing_bytes() {
    let mut rng = TestRng::new("rejects_trailing_bytes");
    let bytes = csr::to_bytes(&random_small_graph(&mut rng, 20));
    for extra in [1, 3, 4, 8, rng.range(1, 100) as usize] {
        let mut longer = bytes.clone();
        longer.extend((0..extra).map(|_| rng.bits() as u8));
        let reason = assert_rejected(&longer, "file length", bytes.len() as u64);
        let expected = format!(
            "the file is {} bytes but the header describes {} bytes",
            longer.len(),
            bytes.len()
        );
        assert!(reason.contains(&expected), "{reason}");
    }
}

#[test]
fn rejects_huge_claims_without_allocating() {
    let mut rng = TestRng::new("rejects_huge_claims_without_allocating");
    let dir = TempDir::new("rejects_huge_claims_without_allocating");
    let mut bytes = csr::to_bytes(&edgeless(0));
    bytes.truncate(HEADER_BYTES);
    let claims = [
        (u32::MAX as u64, u32::MAX as u64),
        (u32::MAX as u64, 0),
        (0, u32::MAX as u64),
        (
            rng.range(1 << 20, u32::MAX as u64),
            rng.range(1 << 20, u32::MAX as u64),
        ),
    ];
    for (n, m) in claims {
        put_u64(&mut bytes, 24, n);
        put_u64(&mut bytes, 32, m);
        let (result, largest) = largest_allocation(|| csr::parse(&bytes, path()));
        let (field, offset, _) = format_error(result);
        assert_eq!((field, offset), ("file length", HEADER_BYTES as u64));
        assert!(
            largest < 4096,
            "parsing a 40-byte file allocated {largest} bytes at once"
        );

        let file = dir.path("huge.csr");
        std::fs::write(&file, &bytes).unwrap();
        let (result, largest) = largest_allocation(|| GraphFile::open(&file).map(|_| ()));
        match result {
            Err(Error::Format {
                field: "file length",
                offset: 40,
                ..
            }) => {}
            other => panic!("expected a file length error, got {other:?}"),
        }
        assert!(
            largest < 4096,
            "opening a 40-byte file allocated {largest} bytes at once"
        );
    }
}

/// Found by fuzzing (`gzip`): a gzipped g.csr file's length is not known
/// before it is decompressed, so a header that claims gigabytes must not be
/// believed up front. A few kilobytes that claim 2 GiB and more are refused
/// at their end with memory in proportion to what arrived.
#[test]
fn a_gzipped_claim_of_gigabytes_allocates_what_arrives() {
    use std::io::Write;
    let mut rng = TestRng::new("a_gzipped_claim_of_gigabytes_allocates_what_arrives");
    let dir = TempDir::new("a_gzipped_claim_of_gigabytes_allocates_what_arrives");
    let file = dir.path("claim.csr.gz");
    for (n, m) in [(1 << 20, 1 << 28), (u32::MAX as u64, u32::MAX as u64)] {
        let mut bytes = csr::to_bytes(&edgeless(0));
        bytes.truncate(HEADER_BYTES);
        put_u64(&mut bytes, 24, n);
        put_u64(&mut bytes, 32, m);
        // Offsets that start right: a plausible body, cut short.
        let arrived = rng.range(0, 64 << 10) as usize;
        bytes.extend((0..arrived).map(|i| if i % 4 == 0 { 0 } else { rng.bits() as u8 }));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&bytes).unwrap();
        std::fs::write(&file, gz.finish().unwrap()).unwrap();
        let (result, largest) = largest_allocation(|| {
            sssp::formats::load(&file, None).and_then(|loaded| loaded.into_graph().map(drop))
        });
        match result {
            Err(Error::Format {
                field: "file length",
                offset,
                ..
            }) => assert_eq!(offset, bytes.len() as u64, "n {n}, m {m}"),
            other => panic!("n {n}, m {m}: expected a file length error, got {other:?}"),
        }
        assert!(
            largest <= 16 << 20,
            "n {n}, m {m}, seed {}: {} bytes in a gzip file allocated {largest} bytes at once",
            rng.seed,
            bytes.len()
        );
    }
    // A whole file of several times the first allocation loads as it was.
    let graph = random_graph(&mut rng, 100_000, 700_000, 1_000);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&csr::to_bytes(&graph)).unwrap();
    std::fs::write(&file, gz.finish().unwrap()).unwrap();
    let loaded = sssp::formats::load(&file, None)
        .and_then(|loaded| loaded.into_graph())
        .expect("loads");
    assert_eq!(
        csr::to_bytes(&loaded),
        csr::to_bytes(&graph),
        "seed {}",
        rng.seed
    );
}

#[test]
fn empty_file_is_a_format_error() {
    let dir = TempDir::new("empty_file_is_a_format_error");
    let file = dir.path("empty.csr");
    std::fs::write(&file, b"").unwrap();
    match GraphFile::open(&file) {
        Err(Error::Format {
            field: "file length",
            offset: 0,
            path,
            reason,
        }) => {
            assert_eq!(path, file);
            assert!(reason.contains("the file is 0 bytes"), "{reason}");
        }
        Err(e) => panic!("expected a format error, got {e}"),
        Ok(_) => panic!("an empty file was accepted"),
    }
    assert!(matches!(
        csr::read(&file),
        Err(Error::Format {
            field: "file length",
            offset: 0,
            ..
        })
    ));
    // And a short file with a valid magic.
    std::fs::write(&file, &MAGIC[..5]).unwrap();
    assert!(matches!(
        GraphFile::open(&file),
        Err(Error::Format {
            field: "file length",
            offset: 5,
            ..
        })
    ));
}

#[test]
fn missing_file_is_an_io_error() {
    let dir = TempDir::new("missing_file_is_an_io_error");
    let file = dir.path("missing.csr");
    match GraphFile::open(&file) {
        Err(Error::Io { path, source }) => {
            assert_eq!(path, file);
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
        }
        Err(e) => panic!("expected an I/O error, got {e}"),
        Ok(_) => panic!("a missing file was opened"),
    }
    assert!(matches!(csr::read(&file), Err(Error::Io { .. })));
    let g = edgeless(0);
    let unwritable = dir.path("no-such-dir").join("g.csr");
    assert!(
        matches!(csr::write(&g, &unwritable), Err(Error::Io { path, .. }) if path == unwritable)
    );
}

// ---------------------------------------------------------------------------
// Malformed arrays.

#[test]
fn rejects_nonzero_first_offset() {
    let mut rng = TestRng::new("rejects_nonzero_first_offset");
    for _ in 0..50 {
        let g = graph_at_least(&mut rng, 1, 0);
        let mut bytes = csr::to_bytes(&g);
        put_u32(
            &mut bytes,
            offsets_at(&g),
            rng.range(1, u32::MAX as u64) as u32,
        );
        let reason = assert_rejected(&bytes, "offsets", HEADER_BYTES as u64);
        assert!(reason.contains("offsets[0]"), "{reason}");
    }
}

#[test]
fn rejects_decreasing_offsets() {
    let mut rng = TestRng::new("rejects_decreasing_offsets");
    for _ in 0..50 {
        let g = graph_at_least(&mut rng, 2, 0);
        let n = g.num_vertices();
        let mut bytes = csr::to_bytes(&g);
        // Raise offsets[k] above every later offset: the decrease is at k + 1.
        let k = rng.range(1, n as u64 - 1) as usize;
        put_u32(
            &mut bytes,
            offsets_at(&g) + 4 * k,
            rng.range(g.num_edges() as u64 + 1, u32::MAX as u64) as u32,
        );
        let reason = assert_rejected(&bytes, "offsets", (offsets_at(&g) + 4 * (k + 1)) as u64);
        assert!(reason.contains(&format!("offsets[{}]", k + 1)), "{reason}");
        assert!(reason.contains("must not decrease"), "{reason}");
    }
}

#[test]
fn rejects_last_offset_other_than_m() {
    let mut rng = TestRng::new("rejects_last_offset_other_than_m");
    for _ in 0..50 {
        let g = graph_at_least(&mut rng, 1, 0);
        let n = g.num_vertices();
        let mut bytes = csr::to_bytes(&g);
        let last = rng.range(g.num_edges() as u64 + 1, u32::MAX as u64) as u32;
        put_u32(&mut bytes, offsets_at(&g) + 4 * n, last);
        let reason = assert_rejected(&bytes, "offsets", (offsets_at(&g) + 4 * n) as u64);
        assert!(reason.contains(&format!("found {last}")), "{reason}");
    }
}

#[test]
fn rejects_target_out_of_range() {
    let mut rng = TestRng::new("rejects_target_out_of_range");
    for _ in 0..50 {
        let g = graph_at_least(&mut rng, 1, 1);
        let (n, m) = (g.num_vertices(), g.num_edges());
        let mut bytes = csr::to_bytes(&g);
        let e = rng.below(m as u64) as usize;
        let bad = rng.range(n as u64, u32::MAX as u64) as u32;
        put_u32(&mut bytes, targets_at(&g) + 4 * e, bad);
        let reason = assert_rejected(&bytes, "targets", (targets_at(&g) + 4 * e) as u64);
        assert!(reason.contains(&format!("vertex id {bad}")), "{reason}");
        assert!(reason.contains(&format!("targets[{e}]")), "{reason}");
        assert!(reason.contains(&format!("{n} vertices")), "{reason}");
    }
}

#[test]
fn error_message_names_file_field_and_offset() {
    let g = Graph::from_edges(5, &[(0, 1, 1), (1, 2, 1), (2, 3, 1), (3, 4, 1)]).unwrap();
    let mut bytes = csr::to_bytes(&g);
    put_u32(&mut bytes, targets_at(&g) + 4 * 3, 9);
    let err = csr::parse(&bytes, Path::new("graphs/x.csr")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "graphs/x.csr: invalid g.csr file: targets (byte offset 76): \
         targets[3]: vertex id 9 is out of range: the graph has 5 vertices"
    );
}

// ---------------------------------------------------------------------------
// Garbage never panics.

/// Parses `bytes` (aligned and not) and checks that the outcome is a valid
/// graph that re-encodes to `bytes`, or a format error.
fn parse_or_reject(bytes: &[u8]) -> bool {
    let mut accepted = None;
    for misalign in [0, 1] {
        let (buf, skip) = placed(bytes, misalign);
        let file = &buf[skip..skip + bytes.len()];
        let ok = match csr::parse(file, path()) {
            Ok(g) => {
                check_csr(g.offsets(), g.targets(), g.weights())
                    .expect("an accepted graph is a valid CSR");
                assert_eq!(
                    csr::to_bytes(&g),
                    bytes,
                    "an accepted file is not canonical"
                );
                true
            }
            Err(Error::Format { offset, .. }) => {
                assert!(
                    offset <= bytes.len().max(HEADER_BYTES) as u64,
                    "offset {offset} past the file"
                );
                false
            }
            Err(e) => panic!("unexpected error kind: {e}"),
        };
        assert_eq!(
            *accepted.get_or_insert(ok),
            ok,
            "alignment changed the outcome"
        );
    }
    accepted.unwrap_or(false)
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = TestRng::new("random_bytes_never_panic");
    for _ in 0..5000 {
        let len = rng.below(200) as usize;
        let mut bytes: Vec<u8> = (0..len).map(|_| rng.bits() as u8).collect();
        // Half of them get a valid magic, so that parsing gets further.
        if rng.chance(0.5) {
            let k = len.min(8);
            bytes[..k].copy_from_slice(&MAGIC[..k]);
        }
        parse_or_reject(&bytes);
    }
}

#[test]
fn random_bodies_never_panic() {
    // Valid headers whose counts match the length, followed by random arrays.
    let mut rng = TestRng::new("random_bodies_never_panic");
    for _ in 0..5000 {
        let n = rng.below(8);
        let m = rng.below(8);
        let mut bytes = csr::to_bytes(&edgeless(0));
        bytes.truncate(HEADER_BYTES);
        put_u64(&mut bytes, 24, n);
        put_u64(&mut bytes, 32, m);
        let small = rng.chance(0.5);
        for _ in 0..(n + 1 + 2 * m) {
            let word = if small {
                rng.below(n.max(m) + 2) as u32
            } else {
                rng.bits() as u32
            };
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        parse_or_reject(&bytes);
    }
}

#[test]
fn corrupted_files_never_panic() {
    let mut rng = TestRng::new("corrupted_files_never_panic");
    for _ in 0..200 {
        let g = random_small_graph(&mut rng, 12);
        let valid = csr::to_bytes(&g);
        for _ in 0..20 {
            let mut bytes = valid.clone();
            let at = rng.below(bytes.len() as u64) as usize;
            bytes[at] = if rng.chance(0.5) {
                bytes[at] ^ (1 << rng.below(8))
            } else {
                rng.bits() as u8
            };
            parse_or_reject(&bytes);
        }
    }
}
