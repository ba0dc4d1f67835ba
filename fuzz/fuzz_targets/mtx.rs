//! Fuzzes the MatrixMarket parser (`sssp::formats`): no input may panic, every
//! rejection is a parse error with a line number inside the file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sssp::formats::Format;

fuzz_target!(|data: &[u8]| sssp_fuzz::check_text(data, Format::MatrixMarket));
