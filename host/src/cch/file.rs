//! The `.cch` file: the metric-independent part of a CCH (`host preprocess
//! --customizable`), its supergraph. The triangles are recomputed on
//! loading.
//!
//! A header of little-endian words, the arrays as little-endian `u32`s, then
//! an FNV-1a checksum of everything before it:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `SSSPCCH\0` |
//! | 4 | format version ([`FORMAT_VERSION`]) |
//! | 4 × 3 | vertices, levels, arcs |
//! | … | graph vertex of each id (n), level starts (levels + 1), arc offsets (n + 1), arc heads |
//! | 8 | FNV-1a of all bytes before |
//!
//! Loading checks every invariant the customization relies on (a
//! permutation, levels in order, every arc to a higher id of a higher level,
//! rows sorted, every vertex's higher neighbours a clique), so a corrupt
//! file is an error, never a panic or a wrong distance.

use std::path::Path;

use rayon::prelude::*;

use super::Cch;
use super::supergraph::Supergraph;
use crate::ch::fnv::{FNV_OFFSET, fnv1a, read_whole, write_with_trailer};
use crate::{Error, Result};

/// Version of the file; a file of another version is refused.
pub const FORMAT_VERSION: u32 = 1;

const MAGIC: &[u8; 8] = b"SSSPCCH\0";

/// Magic, version and three counts.
const HEADER_BYTES: usize = 8 + 4 + 12;

impl Cch {
    /// Writes the `.cch` file.
    pub fn save(&self, path: &Path) -> Result<()> {
        let s = &self.graph;
        let arrays: [&[u32]; 4] = [&s.vertex, &s.level_starts, &s.offsets, &s.heads];
        let words: usize = arrays.iter().map(|a| a.len()).sum();
        let mut bytes = Vec::with_capacity(HEADER_BYTES + 4 * words + 8);
        bytes.extend_from_slice(MAGIC);
        for word in [
            FORMAT_VERSION,
            s.num_vertices() as u32,
            s.num_levels() as u32,
            s.num_arcs() as u32,
        ] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        for array in arrays {
            for &word in array {
                bytes.extend_from_slice(&word.to_le_bytes());
            }
        }
        write_with_trailer(path, bytes)
    }

    /// Reads a `.cch` file, checking its header, lengths, checksum and every
    /// invariant of the supergraph.
    pub fn load(path: &Path) -> Result<Cch> {
        let bytes = read_whole(path)?;
        let graph = supergraph_from_bytes(&bytes).map_err(|reason| Error::Index {
            path: path.to_path_buf(),
            reason: format!("not a valid customizable hierarchy (.cch): {reason}"),
        })?;
        Cch::from_supergraph(graph)
    }
}

/// The little-endian word at byte `at` (in range).
fn word(bytes: &[u8], at: usize) -> u32 {
    let mut le = [0u8; 4];
    le.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(le)
}

fn supergraph_from_bytes(bytes: &[u8]) -> Result<Supergraph, String> {
    if bytes.len() < HEADER_BYTES + 8 {
        return Err(format!("truncated: {} bytes", bytes.len()));
    }
    if &bytes[..8] != MAGIC {
        return Err("bad magic".into());
    }
    let version = word(bytes, 8);
    if version != FORMAT_VERSION {
        return Err(format!(
            "format version {version}; this program reads version {FORMAT_VERSION}"
        ));
    }
    let [n, levels, m] = [12, 16, 20].map(|at| word(bytes, at) as u64);
    let lengths = [n, levels + 1, n + 1, m];
    let expected = HEADER_BYTES as u64 + 4 * lengths.iter().sum::<u64>() + 8;
    if bytes.len() as u64 != expected {
        return Err(format!(
            "{} bytes where the header announces {expected}: truncated or corrupt",
            bytes.len()
        ));
    }
    let body = bytes.len() - 8;
    let mut trailer = [0u8; 8];
    trailer.copy_from_slice(&bytes[body..]);
    if fnv1a(FNV_OFFSET, &bytes[..body]) != u64::from_le_bytes(trailer) {
        return Err("checksum mismatch: the file is corrupt".into());
    }
    let mut at = HEADER_BYTES;
    let [vertex, level_starts, offsets, heads] = lengths.map(|len| {
        let array: Vec<u32> = (0..len as usize).map(|i| word(bytes, at + 4 * i)).collect();
        at += 4 * len as usize;
        array
    });
    let levels = check_levels(&level_starts, n as usize)?;
    check_permutation(&vertex)?;
    check_arcs(&offsets, &heads, &levels)?;
    Ok(Supergraph::from_parts(vertex, &levels, offsets, heads))
}

/// The level of each id, if `starts` covers `0..n` in order.
fn check_levels(starts: &[u32], n: usize) -> Result<Vec<u32>, String> {
    let ordered = starts.first() == Some(&0)
        && starts.last().map(|&s| s as usize) == Some(n)
        && starts.windows(2).all(|w| w[0] < w[1]);
    if !ordered {
        return Err("the level starts do not cover the vertices in order".into());
    }
    let mut level = vec![0u32; n];
    for (l, w) in starts.windows(2).enumerate() {
        level[w[0] as usize..w[1] as usize].fill(l as u32);
    }
    Ok(level)
}

fn check_permutation(vertex: &[u32]) -> Result<(), String> {
    let mut seen = vec![false; vertex.len()];
    for (i, &v) in vertex.iter().enumerate() {
        match seen.get_mut(v as usize) {
            Some(slot) if !*slot => *slot = true,
            _ => return Err(format!("the vertices are not a permutation (at id {i})")),
        }
    }
    Ok(())
}

/// Checks that the arcs are a CSR over the ids, each row sorted, every arc
/// to a higher level, and each vertex's higher neighbours but the lowest
/// among the lowest's (so that they are a clique: the supergraph is chordal).
fn check_arcs(offsets: &[u32], heads: &[u32], level: &[u32]) -> Result<(), String> {
    let n = level.len();
    let csr = offsets.first() == Some(&0)
        && offsets.last().map(|&o| o as usize) == Some(heads.len())
        && offsets.windows(2).all(|w| w[0] <= w[1]);
    if !csr {
        return Err("the arc offsets are not a valid CSR".into());
    }
    let row = |t: usize| &heads[offsets[t] as usize..offsets[t + 1] as usize];
    (0..n).into_par_iter().try_for_each(|t| {
        let arcs = row(t);
        if arcs.windows(2).any(|w| w[0] >= w[1]) {
            return Err(format!("the arcs of id {t} are not sorted"));
        }
        if let Some(&h) = arcs
            .iter()
            .find(|&&h| h as usize >= n || level[h as usize] <= level[t])
        {
            return Err(format!(
                "the arc from id {t} to {h} does not lead to a higher level"
            ));
        }
        if let Some((&lowest, rest)) = arcs.split_first() {
            let above = row(lowest as usize);
            if let Some(&h) = rest.iter().find(|h| above.binary_search(h).is_err()) {
                return Err(format!(
                    "ids {lowest} and {h}, higher neighbours of id {t}, are not adjacent: \
                     the graph is not chordal"
                ));
            }
        }
        Ok(())
    })
}
