//! Fuzzes the sources-file reader (`sssp::formats::sources::parse_sources`,
//! `--sources-file` and `--targets-file`): no input may panic; an accepted
//! file lists at least one source; a rejection is an `Error::Parse` whose
//! line lies in the file, or (a line that is not UTF-8) an `Error::Io`.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use sssp::Error;
use sssp::formats::sources::parse_sources;

fuzz_target!(|data: &[u8]| {
    match parse_sources(data, Path::new("fuzz-input.ss")) {
        Ok(sources) => assert!(!sources.is_empty(), "an empty list accepted"),
        Err(Error::Parse { line, message, .. }) => {
            let lines = data.iter().filter(|&&b| b == b'\n').count() as u64;
            assert!(
                (1..=lines + 2).contains(&line),
                "line {line} past the end ({lines} line breaks): {message}"
            );
        }
        Err(Error::Io { .. }) => {}
        Err(e) => panic!("the sources reader returned a non-parse error: {e}"),
    }
});
