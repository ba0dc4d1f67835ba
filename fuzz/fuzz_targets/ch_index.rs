//! Fuzzes the contraction-hierarchy index reader
//! (`sssp::ch::index::Hierarchy::load`): no input may panic; a rejection is
//! an `Error::Index`. Half the inputs get their trailing checksum fixed up
//! (FNV-1a over the rest), so that the fuzzer reaches the arrays' checks
//! behind it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sssp::Error;
use sssp::ch::index::Hierarchy;

/// FNV-1a, 64 bits, over `bytes`: the index file's checksum.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fuzz_target!(|data: &[u8]| {
    let mut fixed = data.to_vec();
    if fixed.len() >= 8 {
        let body = fixed.len() - 8;
        let checksum = fnv1a(&fixed[..body]);
        fixed[body..].copy_from_slice(&checksum.to_le_bytes());
    }
    for bytes in [data, &fixed[..]] {
        let path = sssp_fuzz::scratch_file("fuzz-input.ch", bytes);
        match Hierarchy::load(&path) {
            Ok(hierarchy) => drop(hierarchy),
            Err(Error::Index { .. }) => {}
            Err(e) => panic!("the index reader returned a non-index error: {e}"),
        }
    }
});
