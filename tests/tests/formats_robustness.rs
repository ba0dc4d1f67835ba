//! Random bytes and corrupted files, plain or gzipped, never panic.

mod formats_helpers;

use sssp::Error;
use sssp::formats::{self, Format, LoadOptions, parse_bytes_with};
use sssp::graph::{WeightKind, check_csr};
use sssp_tests::{TempDir, TestRng, random_small_graph};

use formats_helpers::*;

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
