//! Fuzzes the g.csr reader (`sssp::formats::csr::parse`): no input may panic; an
//! accepted file is a valid CSR whose canonical encoding is the input itself;
//! a rejection is a format error with an offset inside the file or header.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use sssp::Error;
use sssp::formats::csr::{self, HEADER_BYTES};

fuzz_target!(|data: &[u8]| {
    match csr::parse(data, Path::new("fuzz-input.csr")) {
        Ok(graph) => {
            sssp_fuzz::check_graph(&graph);
            assert_eq!(
                csr::to_bytes(&graph),
                data,
                "an accepted file is not canonical"
            );
        }
        Err(Error::Format { offset, .. }) => {
            assert!(
                offset <= data.len().max(HEADER_BYTES) as u64,
                "offset {offset} past the file"
            );
        }
        Err(e) => panic!("the g.csr reader returned a non-format error: {e}"),
    }
});
