//! The contraction-hierarchy index and its file.
//!
//! Vertices are renumbered by *position*: the top level of the hierarchy
//! first, each level contiguous, so position 0 has the highest rank. Every arc
//! of the index joins a vertex to a higher one (a smaller position) and is
//! stored once, with the lower vertex: an *up* arc `v → u` in `v`'s list of
//! [`Hierarchy::up`], a *down* arc `u → v` in `v`'s list of
//! [`Hierarchy::down`]. A downward sweep in increasing position therefore
//! reads only final distances, and the vertices of one level are independent.
//!
//! The file (`host preprocess`): a header of little-endian words, then the
//! arrays as little-endian `u32`s, then an FNV-1a checksum of everything
//! before it.
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `SSSPCH\0\0` |
//! | 4 | format version ([`FORMAT_VERSION`]) |
//! | 4 | weight kind (0 `u32`, 1 `f32`) |
//! | 8 | checksum of the graph the index was built from ([`graph_checksum`]) |
//! | 4 × 4 | vertices, levels, up arcs, down arcs |
//! | 4 | flags: bit 0 set when the down arcs equal the up arcs (a symmetric graph, such as a road network with both directions of every street), which are then stored once |
//! | … | vertex of each position, level starts (levels + 1), up offsets (n + 1), up ends, weights, middles, then (flag clear) down offsets (n + 1), down ends, weights, middles |
//! | 8 | FNV-1a of all bytes before |
//!
//! The position of each vertex is not stored: it is the inverse of the
//! vertex array.

use std::path::Path;

use gpu_kernels::distance::{Weight, WeightKind};

use super::fnv::{FNV_OFFSET, fnv1a, read_whole, write_with_trailer};
use super::lightest::Lightest;
use crate::graph::{Graph, with_weight_type};
use crate::{Error, Result};

/// A shortcut's middle vertex when the arc is an arc of the graph.
pub const NO_MIDDLE: u32 = u32::MAX;

/// Version of the index file; a file of another version is refused.
pub const FORMAT_VERSION: u32 = 3;

/// The last version whose graph checksum covered the file's arcs as they
/// were (parallel arcs and self-loops included).
const RAW_CHECKSUM_VERSION: u32 = 2;

const MAGIC: &[u8; 8] = b"SSSPCH\0\0";

/// Magic, version, weight kind, graph checksum, four counts and the flags.
const HEADER_BYTES: usize = 8 + 4 + 4 + 8 + 16 + 4;

/// Flag: the down arcs are the up arcs, stored once.
const SYMMETRIC: u32 = 1;

/// Arcs of the hierarchy grouped by their lower vertex (a CSR over
/// positions): arc `e` of vertex `v` (`offsets[v] <= e < offsets[v + 1]`)
/// joins `v` and `ends[e]` (a higher vertex: a smaller position), has weight
/// word `weights[e]`, and is a shortcut through `middles[e]` (a lower vertex)
/// or an arc of the graph ([`NO_MIDDLE`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Arcs {
    /// Row offsets, one per position and one more.
    pub offsets: Vec<u32>,
    /// The other (higher) endpoint of each arc, a position.
    pub ends: Vec<u32>,
    /// Weight words.
    pub weights: Vec<u32>,
    /// Middle vertex (a position) of each shortcut, [`NO_MIDDLE`] for an arc
    /// of the graph.
    pub middles: Vec<u32>,
}

impl Arcs {
    /// Arcs in all.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no arcs.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The arc indices of vertex (position) `v`.
    pub fn range(&self, v: usize) -> std::ops::Range<usize> {
        self.offsets[v] as usize..self.offsets[v + 1] as usize
    }

    /// The arc of `v` whose other endpoint is `end`.
    pub fn find(&self, v: usize, end: u32) -> Option<usize> {
        self.range(v).find(|&e| self.ends[e] == end)
    }

    /// The arcs of `rows`: row `v` holds vertex `v`'s arcs as `(end,
    /// weight, middle)`, in order.
    pub fn from_rows(rows: Vec<Vec<(u32, u32, u32)>>) -> Arcs {
        let len = rows.iter().map(Vec::len).sum();
        let mut arcs = Arcs {
            offsets: Vec::with_capacity(rows.len() + 1),
            ends: Vec::with_capacity(len),
            weights: Vec::with_capacity(len),
            middles: Vec::with_capacity(len),
        };
        arcs.offsets.push(0);
        for row in rows {
            for (end, weight, middle) in row {
                arcs.ends.push(end);
                arcs.weights.push(weight);
                arcs.middles.push(middle);
            }
            arcs.offsets.push(arcs.ends.len() as u32);
        }
        arcs
    }
}

/// A contraction hierarchy of a graph (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hierarchy {
    /// The weight kind of the graph (and of every weight word here).
    pub weight_kind: WeightKind,
    /// [`graph_checksum`] of the graph it was built from.
    pub graph_checksum: u64,
    /// The position of each graph vertex.
    pub position: Vec<u32>,
    /// The graph vertex at each position.
    pub vertex: Vec<u32>,
    /// Level `l` (0 the top) holds positions `level_starts[l]..level_starts[l + 1]`.
    pub level_starts: Vec<u32>,
    /// Up arcs `v → u` (to a higher `u`), grouped by `v`.
    pub up: Arcs,
    /// Down arcs `u → v` (from a higher `u`), grouped by `v`; `ends` are the `u`s.
    pub down: Arcs,
}

impl Hierarchy {
    /// Vertices.
    pub fn num_vertices(&self) -> usize {
        self.vertex.len()
    }

    /// Levels (contraction rounds).
    pub fn num_levels(&self) -> usize {
        self.level_starts.len().saturating_sub(1)
    }

    /// Arcs that are shortcuts.
    pub fn num_shortcuts(&self) -> usize {
        [&self.up, &self.down]
            .iter()
            .map(|arcs| arcs.middles.iter().filter(|&&m| m != NO_MIDDLE).count())
            .sum()
    }

    /// Bytes of the index file.
    pub fn size_bytes(&self) -> usize {
        HEADER_BYTES + 4 * self.stored_arrays().iter().map(|a| a.len()).sum::<usize>() + 8
    }

    /// Whether the down arcs equal the up arcs (and are stored once).
    pub fn is_symmetric(&self) -> bool {
        self.up == self.down
    }

    /// Writes the index file.
    pub fn save(&self, path: &Path) -> Result<()> {
        let mut bytes = Vec::with_capacity(self.size_bytes() + 64);
        bytes.extend_from_slice(MAGIC);
        push_u32(&mut bytes, FORMAT_VERSION);
        push_u32(&mut bytes, weight_kind_code(self.weight_kind));
        bytes.extend_from_slice(&self.graph_checksum.to_le_bytes());
        for count in [
            self.num_vertices(),
            self.num_levels(),
            self.up.len(),
            self.down.len(),
        ] {
            push_u32(&mut bytes, count as u32);
        }
        push_u32(&mut bytes, if self.is_symmetric() { SYMMETRIC } else { 0 });
        for array in self.stored_arrays() {
            for &word in array {
                push_u32(&mut bytes, word);
            }
        }
        write_with_trailer(path, bytes)
    }

    /// Reads an index file, checking its header, its lengths, its checksum
    /// and every array's invariants (so a corrupt file is an error, never a
    /// wrong distance).
    pub fn load(path: &Path) -> Result<Hierarchy> {
        let bytes = read_whole(path)?;
        Hierarchy::from_bytes(&bytes).map_err(|reason| Error::Index {
            path: path.to_path_buf(),
            reason,
        })
    }

    fn from_bytes(bytes: &[u8]) -> Result<Hierarchy, String> {
        if bytes.len() < HEADER_BYTES + 8 {
            return Err(format!(
                "truncated: {} bytes, shorter than the header",
                bytes.len()
            ));
        }
        if &bytes[..8] != MAGIC {
            return Err("not a contraction-hierarchy index (bad magic)".into());
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let version = word(8);
        if version <= RAW_CHECKSUM_VERSION {
            return Err(format!(
                "format version {version}, whose graph checksum this program no longer \
                 computes (version {FORMAT_VERSION}): rebuild the index with `host preprocess`"
            ));
        }
        if version != FORMAT_VERSION {
            return Err(format!(
                "format version {version}; this program reads version {FORMAT_VERSION}"
            ));
        }
        let weight_kind = match word(12) {
            0 => WeightKind::U32,
            1 => WeightKind::F32,
            other => {
                return Err(format!("unknown weight kind {other} (0 is u32, 1 is f32)"));
            }
        };
        let graph_checksum = u64::from_le_bytes(bytes[16..24].try_into().unwrap());
        let [n, levels, up, down] = [24, 28, 32, 36].map(|at| word(at) as usize);
        let flags = word(40);
        if flags & !SYMMETRIC != 0 {
            return Err(format!("unknown flags {flags:#x}"));
        }
        let symmetric = flags & SYMMETRIC != 0;
        if symmetric && up != down {
            return Err("symmetric, yet the up and down arc counts differ".into());
        }
        let mut lengths = vec![n, levels + 1, n + 1, up, up, up];
        if !symmetric {
            lengths.extend([n + 1, down, down, down]);
        }
        let words: usize = lengths.iter().sum();
        let expected = HEADER_BYTES + 4 * words + 8;
        if bytes.len() != expected {
            return Err(format!(
                "{} bytes where the header announces {expected}: truncated or corrupt",
                bytes.len()
            ));
        }
        let body = &bytes[..expected - 8];
        let stored = u64::from_le_bytes(bytes[expected - 8..].try_into().unwrap());
        if fnv1a(FNV_OFFSET, body) != stored {
            return Err("checksum mismatch: the file is corrupt".into());
        }
        let mut at = HEADER_BYTES;
        let mut arrays = lengths.iter().map(|&len| {
            let array: Vec<u32> = bytes[at..at + 4 * len]
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                .collect();
            at += 4 * len;
            array
        });
        let mut next = || arrays.next().unwrap_or_default();
        let vertex = next();
        let level_starts = next();
        let mut arcs = || Arcs {
            offsets: next(),
            ends: next(),
            weights: next(),
            middles: next(),
        };
        let up = arcs();
        let down = if symmetric { up.clone() } else { arcs() };
        let mut position = vec![u32::MAX; n];
        for (p, &v) in vertex.iter().enumerate() {
            match position.get_mut(v as usize) {
                Some(slot) if *slot == u32::MAX => *slot = p as u32,
                _ => {
                    return Err(format!(
                        "the renumbering is not a permutation at position {p}"
                    ));
                }
            }
        }
        let hierarchy = Hierarchy {
            weight_kind,
            graph_checksum,
            position,
            vertex,
            level_starts,
            up,
            down,
        };
        hierarchy.validate()?;
        Ok(hierarchy)
    }

    /// Checks the invariants the queries rely on: the renumbering is a
    /// permutation, levels cover every position in order, every arc joins a
    /// vertex to a higher one of another level, each vertex's arcs are
    /// sorted by that higher end (one arc per pair) and every middle is
    /// lower than both ends. Whether the arcs are those of a graph is
    /// [`Hierarchy::check_graph`]'s part.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.vertex.len();
        if self.position.len() != n {
            return Err("position and vertex arrays differ in length".into());
        }
        for (p, &v) in self.vertex.iter().enumerate() {
            if v as usize >= n || self.position[v as usize] as usize != p {
                return Err(format!(
                    "the renumbering is not a permutation at position {p}"
                ));
            }
        }
        let starts = &self.level_starts;
        if starts.first() != Some(&0)
            || starts.last().map(|&s| s as usize) != Some(n)
            || starts.windows(2).any(|w| w[1] <= w[0] && n > 0)
        {
            return Err("level starts do not cover the positions in order".into());
        }
        let mut level = vec![0u32; n];
        for (l, w) in starts.windows(2).enumerate() {
            level[w[0] as usize..w[1] as usize].fill(l as u32);
        }
        let max_weight = with_weight_type!(self.weight_kind, W => W::MAX_DISTANCE);
        for (name, arcs) in [("up", &self.up), ("down", &self.down)] {
            let m = arcs.ends.len();
            if arcs.offsets.len() != n + 1
                || arcs.offsets.first() != Some(&0)
                || arcs.offsets.last().map(|&o| o as usize) != Some(m)
                || arcs.offsets.windows(2).any(|w| w[1] < w[0])
                || arcs.weights.len() != m
                || arcs.middles.len() != m
            {
                return Err(format!("the {name} arcs are not a valid CSR"));
            }
            for v in 0..n {
                let row = &arcs.ends[arcs.range(v)];
                if let Some(i) = row.windows(2).position(|w| w[1] <= w[0]) {
                    return Err(format!(
                        "the {name} arcs of position {v} are not sorted by their higher end \
                         (arc {})",
                        arcs.offsets[v] as usize + i + 1
                    ));
                }
                for e in arcs.range(v) {
                    let end = arcs.ends[e] as usize;
                    let middle = arcs.middles[e];
                    if end >= n || level[end] >= level[v] {
                        return Err(format!(
                            "{name} arc {e} of position {v} does not lead to a higher level"
                        ));
                    }
                    if middle != NO_MIDDLE
                        && (middle as usize >= n || level[middle as usize] <= level[v])
                    {
                        return Err(format!("{name} arc {e} has a bad middle vertex"));
                    }
                    if arcs.weights[e] > max_weight {
                        return Err(format!("{name} arc {e} has a weight beyond every distance"));
                    }
                }
            }
        }
        Ok(())
    }

    /// The arrays the file holds, in its order.
    fn stored_arrays(&self) -> Vec<&[u32]> {
        let mut arrays: Vec<&[u32]> = vec![
            &self.vertex,
            &self.level_starts,
            &self.up.offsets,
            &self.up.ends,
            &self.up.weights,
            &self.up.middles,
        ];
        if !self.is_symmetric() {
            arrays.extend([
                &self.down.offsets[..],
                &self.down.ends,
                &self.down.weights,
                &self.down.middles,
            ]);
        }
        arrays
    }
}

fn weight_kind_code(kind: WeightKind) -> u32 {
    match kind {
        WeightKind::U32 => 0,
        WeightKind::F32 => 1,
    }
}

fn push_u32(bytes: &mut Vec<u8>, word: u32) {
    bytes.extend_from_slice(&word.to_le_bytes());
}

/// The checksum of a graph stored in its index ([`Lightest::checksum`]:
/// the weight kind, the vertex count and the lightest arc of every pair of
/// vertices, self-loops left out), so that an index is never used with
/// another graph, and is used with every file of the same graph however its
/// parallel arcs and self-loops read.
pub fn graph_checksum(graph: &Graph) -> u64 {
    lightest_checksum(&Lightest::new(graph), graph.weight_kind())
}

/// [`graph_checksum`] of a graph of `kind` weights from its lightest arcs.
pub fn lightest_checksum(lightest: &Lightest, kind: WeightKind) -> u64 {
    lightest.checksum(weight_kind_code(kind))
}
