//! FNV-1a, the 64-bit hash of the index file's trailer and of the graph
//! checksum an index stores.

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
