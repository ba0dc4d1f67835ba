//! FNV-1a, the 64-bit hash of the index files' trailer and of the graph
//! checksum an index stores; the files written with it and read whole.

use std::io::{Read, Write};
use std::path::Path;

use crate::{Error, Result};

/// The hash of no bytes.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// `hash` continued over `bytes`.
pub fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= b as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// `hash` continued over the little-endian bytes of `words`.
pub fn fnv1a_words(hash: u64, words: &[u32]) -> u64 {
    words
        .iter()
        .fold(hash, |hash, word| fnv1a(hash, &word.to_le_bytes()))
}

/// Writes `bytes` and their FNV-1a trailer to `path`.
pub fn write_with_trailer(path: &Path, mut bytes: Vec<u8>) -> Result<()> {
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let checksum = fnv1a(FNV_OFFSET, &bytes);
    bytes.extend_from_slice(&checksum.to_le_bytes());
    let mut file = std::fs::File::create(path).map_err(io)?;
    file.write_all(&bytes).map_err(io)?;
    file.flush().map_err(io)
}

/// The whole file at `path`.
pub fn read_whole(path: &Path) -> Result<Vec<u8>> {
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(io)?
        .read_to_end(&mut bytes)
        .map_err(io)?;
    Ok(bytes)
}
