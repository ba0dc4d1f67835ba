//! Fuzzes gzipped input (`sssp::formats::load` of a `.gr.gz` and a
//! `.csr.gz` file holding the input): no input may panic; an accepted file
//! is a valid CSR; a rejection is an error about the file (a bad gzip stream
//! is an I/O error, a bad graph inside a parse or format error).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sssp::Error;

fuzz_target!(|data: &[u8]| {
    for name in ["fuzz-input.gr.gz", "fuzz-input.csr.gz"] {
        let path = sssp_fuzz::scratch_file(name, data);
        match sssp::formats::load(&path, None).and_then(|loaded| loaded.into_graph()) {
            Ok(graph) => sssp_fuzz::check_graph(&graph),
            Err(Error::Io { .. } | Error::Parse { .. } | Error::Format { .. }) => {}
            Err(Error::HostMemory { .. }) => {}
            Err(e) => panic!("{name}: an unexpected error: {e}"),
        }
    }
});
