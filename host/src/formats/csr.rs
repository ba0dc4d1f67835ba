//! The `g.csr` binary graph file format, version 1: a 40-byte header followed by
//! the three arrays of a successor CSR, all 32-bit little-endian words.
//!
//! ```text
//! offset  size      field         value
//! 0       8         magic         b"SSSPCSR\0"
//! 8       4         version       u32 = 1
//! 12      4         index_type    u32: 1 = u32 (offsets and vertex ids are u32)
//! 16      4         weight_type   u32: 1 = u32, 2 = f32 (IEEE-754 binary32)
//! 20      4         flags         u32, must be 0 (reserved)
//! 24      8         num_vertices  u64 n, at most u32::MAX
//! 32      8         num_edges     u64 m, at most u32::MAX
//! 40      4(n+1)    offsets       u32 each, successor CSR row offsets
//! ...     4m        targets       u32 each, head vertex of each edge
//! ...     4m        weights       u32 or f32 each, as weight_type says
//! ```
//!
//! The file is exactly `40 + 4(n + 1) + 8m` bytes long. Reading checks every
//! field and the CSR invariants ([`check_csr`](crate::graph::check_csr)), and
//! for `f32` weights that each is finite, non-negative and not `-0.0` (what
//! [`WeightKind::F32`] words are, so the bytes are the graph's words as they
//! are); any defect is an [`Error::Format`] that names the field and its byte
//! offset in the file. [`GraphFile`] reads a file into memory it owns and hands
//! out a [`Graph`] that borrows its arrays from it without a second copy. `graphs/README.md` is the
//! written specification.

use std::borrow::Cow;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::graph::{CsrArray, CsrDefect, Graph, WeightKind};
use crate::{Error, Result};

/// The first 8 bytes of every `g.csr` file.
pub const MAGIC: [u8; 8] = *b"SSSPCSR\0";

/// The format version this module reads and writes.
pub const VERSION: u32 = 1;

/// Size of the header in bytes; the offsets section starts here.
pub const HEADER_BYTES: usize = 40;

/// `index_type` code: offsets and vertex ids are little-endian `u32`s. The only
/// code defined in version 1; all others are reserved.
pub const INDEX_TYPE_U32: u32 = 1;

/// `weight_type` code: weights are little-endian `u32`s ([`WeightKind::U32`]).
pub const WEIGHT_TYPE_U32: u32 = 1;

/// `weight_type` code: weights are little-endian IEEE-754 binary32 floats
/// ([`WeightKind::F32`]): finite, non-negative and never `-0.0`. With
/// [`WEIGHT_TYPE_U32`] the only codes defined in version 1; all others are
/// reserved.
pub const WEIGHT_TYPE_F32: u32 = 2;

/// The `weight_type` code of `kind`.
pub fn weight_type(kind: WeightKind) -> u32 {
    match kind {
        WeightKind::U32 => WEIGHT_TYPE_U32,
        WeightKind::F32 => WEIGHT_TYPE_F32,
    }
}

/// Byte offsets of the header fields.
const MAGIC_AT: usize = 0;
const VERSION_AT: usize = 8;
const INDEX_TYPE_AT: usize = 12;
const WEIGHT_TYPE_AT: usize = 16;
const FLAGS_AT: usize = 20;
const NUM_VERTICES_AT: usize = 24;
const NUM_EDGES_AT: usize = 32;

/// Buffer size of [`write`]: large enough that the bulk section writes go
/// straight through in few system calls.
const WRITE_BUFFER_BYTES: usize = 8 << 20;

/// Where the sections of a file lie, computed from a header that has been
/// checked against the file length.
struct Layout {
    num_vertices: u64,
    num_edges: u64,
    /// What `weight_type` says the weights are.
    weight_kind: WeightKind,
    /// Start of the offsets section (always [`HEADER_BYTES`]).
    offsets_at: u64,
    /// Start of the targets section.
    targets_at: u64,
    /// Start of the weights section.
    weights_at: u64,
    /// Total file length.
    file_len: u64,
}

/// The file length that a header with `n` vertices and `m` edges describes:
/// `40 + 4(n + 1) + 8m`, or `None` on overflow.
fn described_len(n: u64, m: u64) -> Option<u64> {
    let offsets = n.checked_add(1)?.checked_mul(4)?;
    let edges = m.checked_mul(8)?;
    (HEADER_BYTES as u64)
        .checked_add(offsets)?
        .checked_add(edges)
}

fn format_error(path: &Path, field: &'static str, offset: u64, reason: String) -> Error {
    Error::Format {
        path: path.to_path_buf(),
        field,
        offset,
        reason,
    }
}

/// The `N` bytes at `at` of the header (zeros if out of range, which the
/// constant field offsets never are).
fn field<const N: usize>(header: &[u8; HEADER_BYTES], at: usize) -> [u8; N] {
    header
        .get(at..)
        .and_then(|rest| rest.first_chunk::<N>())
        .copied()
        .unwrap_or([0; N])
}

fn le_u32(header: &[u8; HEADER_BYTES], at: usize) -> u32 {
    u32::from_le_bytes(field(header, at))
}

fn le_u64(header: &[u8; HEADER_BYTES], at: usize) -> u64 {
    u64::from_le_bytes(field(header, at))
}

/// Checks the header at the start of `prefix` (which holds the file's first
/// bytes, at least [`HEADER_BYTES`] of them unless the file is shorter) against
/// a file of `file_len` bytes. Touches nothing beyond the header and allocates
/// nothing proportional to the counts it reads.
fn check_header(prefix: &[u8], file_len: u64, path: &Path) -> Result<Layout> {
    let err = |field, offset: usize, reason| format_error(path, field, offset as u64, reason);

    // The magic first, on as much of it as there is, so that a short file that
    // is not a g.csr file at all is reported as such.
    let magic_len = prefix.len().min(MAGIC.len());
    let found_magic = prefix.get(..magic_len).unwrap_or_default();
    if found_magic != MAGIC.get(..magic_len).unwrap_or_default() {
        return Err(err(
            "magic",
            MAGIC_AT,
            format!(
                "expected \"{}\", found \"{}\": this is not a g.csr file",
                MAGIC.escape_ascii(),
                found_magic.escape_ascii()
            ),
        ));
    }
    let Some(header) = prefix.first_chunk::<HEADER_BYTES>() else {
        return Err(format_error(
            path,
            "file length",
            file_len,
            format!("the file is {file_len} bytes, shorter than the {HEADER_BYTES}-byte header"),
        ));
    };

    let version = le_u32(header, VERSION_AT);
    let index_type = le_u32(header, INDEX_TYPE_AT);
    let weight_type = le_u32(header, WEIGHT_TYPE_AT);
    let weight_kind = match weight_type {
        WEIGHT_TYPE_U32 => Some(WeightKind::U32),
        WEIGHT_TYPE_F32 => Some(WeightKind::F32),
        _ => None,
    };
    let flags = le_u32(header, FLAGS_AT);
    let n = le_u64(header, NUM_VERTICES_AT);
    let m = le_u64(header, NUM_EDGES_AT);
    // The fields in file order: whether each is valid, and what is wrong if not.
    let fields = [
        (
            version == VERSION,
            ("version", VERSION_AT),
            format!(
                "expected {VERSION}, found {version}: this reader supports version {VERSION} only"
            ),
        ),
        (
            index_type == INDEX_TYPE_U32,
            ("index_type", INDEX_TYPE_AT),
            format!(
                "expected {INDEX_TYPE_U32} (u32 offsets and vertex ids), found {index_type}; other codes are reserved"
            ),
        ),
        (
            weight_kind.is_some(),
            ("weight_type", WEIGHT_TYPE_AT),
            format!(
                "expected {WEIGHT_TYPE_U32} (u32 weights) or {WEIGHT_TYPE_F32} (f32 weights), \
                 found {weight_type}; other codes are reserved"
            ),
        ),
        (
            flags == 0,
            ("flags", FLAGS_AT),
            format!("expected 0 (no flags are defined), found {flags:#x}"),
        ),
        (
            n <= u32::MAX as u64,
            ("num_vertices", NUM_VERTICES_AT),
            format!("expected at most {} (u32 vertex ids), found {n}", u32::MAX),
        ),
        (
            m <= u32::MAX as u64,
            ("num_edges", NUM_EDGES_AT),
            format!("expected at most {} (u32 offsets), found {m}", u32::MAX),
        ),
    ];
    for (valid, (field, offset), reason) in fields {
        if !valid {
            return Err(err(field, offset, reason));
        }
    }
    let weight_kind = weight_kind.unwrap_or(WeightKind::U32);
    // Cannot overflow with n, m <= u32::MAX, but stay checked regardless.
    let Some(expected) = described_len(n, m) else {
        return Err(err(
            "num_edges",
            NUM_EDGES_AT,
            format!("the file length described by {n} vertices and {m} edges overflows 64 bits"),
        ));
    };
    if file_len != expected {
        return Err(format_error(
            path,
            "file length",
            file_len.min(expected),
            format!(
                "the file is {file_len} bytes but the header describes {expected} bytes \
                 ({HEADER_BYTES}-byte header, {} offsets, {m} targets and {m} weights of 4 bytes each \
                 for {n} vertices and {m} edges)",
                n + 1
            ),
        ));
    }
    let offsets_at = HEADER_BYTES as u64;
    let targets_at = offsets_at + 4 * (n + 1);
    let weights_at = targets_at + 4 * m;
    Ok(Layout {
        num_vertices: n,
        num_edges: m,
        weight_kind,
        offsets_at,
        targets_at,
        weights_at,
        file_len: expected,
    })
}

/// The `count` little-endian `u32`s at byte `at` of `bytes`: borrowed when the
/// section is 4-byte aligned and the host is little-endian, copied otherwise.
/// `None` if the section does not lie within `bytes`.
fn section(bytes: &[u8], at: u64, count: u64) -> Option<Cow<'_, [u32]>> {
    let start = usize::try_from(at).ok()?;
    let len = usize::try_from(count.checked_mul(4)?).ok()?;
    let raw = bytes.get(start..start.checked_add(len)?)?;
    // The bytes are the array itself only on a little-endian host.
    let in_place =
        cfg!(target_endian = "little").then(|| bytemuck::try_cast_slice::<u8, u32>(raw).ok());
    if let Some(words) = in_place.flatten() {
        return Some(Cow::Borrowed(words));
    }
    let (words, _) = raw.as_chunks::<4>();
    Some(Cow::Owned(
        words.iter().map(|&w| u32::from_le_bytes(w)).collect(),
    ))
}

/// Parses and validates a whole `g.csr` file held in `bytes`. The graph borrows
/// its arrays from `bytes` when `bytes` is 4-byte aligned and the host is
/// little-endian, and copies them otherwise. `path` is only used in errors.
///
/// Every defect is an [`Error::Format`] naming the field and the byte offset
/// of the field (header) or of the first bad element (arrays). Never panics,
/// and allocates nothing proportional to the header's counts before the file
/// length has been checked against them.
pub fn parse<'a>(bytes: &'a [u8], path: &Path) -> Result<Graph<'a>> {
    let layout = check_header(bytes, bytes.len() as u64, path)?;
    let (n, m, file_len) = (layout.num_vertices, layout.num_edges, layout.file_len);
    let sections = (
        section(bytes, layout.offsets_at, n + 1),
        section(bytes, layout.targets_at, m),
        section(bytes, layout.weights_at, m),
    );
    let (Some(offsets), Some(targets), Some(weights)) = sections else {
        // Unreachable after the length check, short of a 32-bit host that
        // cannot address the file; report it rather than panic.
        return Err(format_error(
            path,
            "file length",
            0,
            format!("the {file_len}-byte file does not fit in this host's address space"),
        ));
    };
    let graph =
        Graph::new(offsets, targets, weights).and_then(|g| g.with_weight_kind(layout.weight_kind));
    graph.map_err(|defect| {
        let CsrDefect { array, index, .. } = &defect;
        let start = match array {
            CsrArray::Offsets => layout.offsets_at,
            CsrArray::Targets => layout.targets_at,
            CsrArray::Weights => layout.weights_at,
        };
        let offset = (*index as u64)
            .checked_mul(4)
            .and_then(|k| k.checked_add(start))
            .unwrap_or(start);
        format_error(path, array.name(), offset, defect.to_string())
    })
}

/// A `g.csr` file read whole into memory that this value owns, after its
/// header was checked against the file's length. The arrays are checked, and
/// borrowed without copying, by [`GraphFile::graph`]. Since the bytes are a
/// copy, nothing done to the file on disk afterwards changes the graph.
pub struct GraphFile {
    path: PathBuf,
    /// The file's bytes, in `u32` words so that the sections are aligned
    /// (the last word is padded with zeros if the length is not a multiple of 4).
    words: Vec<u32>,
    /// The file's length in bytes.
    len: usize,
    weight_kind: WeightKind,
}

/// An [`Error::HostMemory`] saying that `bytes` bytes for `what` (read from
/// `path`) could not be allocated.
pub(crate) fn out_of_memory(path: &Path, what: &str, bytes: u64) -> Error {
    Error::HostMemory {
        what: format!("{what} ({})", path.display()),
        bytes,
    }
}

/// A zeroed vector of `len` words, or an out-of-memory error instead of an abort.
fn zeroed_words(len: usize, path: &Path, what: &str) -> Result<Vec<u32>> {
    let mut words = Vec::new();
    words
        .try_reserve_exact(len)
        .map_err(|_| out_of_memory(path, what, (len as u64).saturating_mul(4)))?;
    words.resize(len, 0);
    Ok(words)
}

/// Reads the header at the start of `reader` (all of it, or up to its end if
/// it is shorter).
fn read_header(reader: &mut impl Read) -> std::io::Result<Vec<u8>> {
    let mut header = Vec::with_capacity(HEADER_BYTES);
    reader.take(HEADER_BYTES as u64).read_to_end(&mut header)?;
    Ok(header)
}

/// The words a stream of unknown length ([`read_from`]) gets at first: 4 MiB,
/// doubled as its bytes arrive.
const STREAM_FIRST_WORDS: usize = 1 << 20;

/// Reads the body of a file whose `header` was checked to describe
/// `layout.file_len` bytes: exactly that many bytes in all, as aligned words.
/// A reader that ends early is an [`Error::Format`] ("file length"); one with
/// bytes left over after the described length is one too, found by reading one
/// byte past the end and no more. The words are allocated `first_words` at
/// first (all of them for a file whose length was checked) and doubled as the
/// bytes arrive, so that a stream that claims more than it holds (a small
/// gzip file's header claiming gigabytes) costs memory in proportion to what
/// it delivered.
fn read_body(
    reader: &mut impl Read,
    header: &[u8],
    layout: &Layout,
    path: &Path,
    first_words: usize,
) -> Result<(Vec<u32>, usize)> {
    let len = usize::try_from(layout.file_len)
        .map_err(|_| out_of_memory(path, "the g.csr file", layout.file_len))?;
    let all_words = len.div_ceil(4);
    let first = all_words.min(first_words.max(HEADER_BYTES.div_ceil(4)));
    let mut words = zeroed_words(first, path, "the g.csr file")?;
    bytemuck::cast_slice_mut::<u32, u8>(&mut words)[..HEADER_BYTES].copy_from_slice(header);
    let short = |read: u64| {
        format_error(
            path,
            "file length",
            read,
            format!(
                "the file ends after {read} bytes but the header describes {}",
                layout.file_len
            ),
        )
    };
    let mut filled = HEADER_BYTES;
    while filled < len {
        if filled == words.len() * 4 {
            let grown = all_words.min(words.len().saturating_mul(2));
            words
                .try_reserve_exact(grown - words.len())
                .map_err(|_| out_of_memory(path, "the g.csr file", layout.file_len))?;
            words.resize(grown, 0);
        }
        let bytes = bytemuck::cast_slice_mut::<u32, u8>(&mut words);
        let end = bytes.len().min(len);
        match reader.read(&mut bytes[filled..end]) {
            Ok(0) => return Err(short(filled as u64)),
            Ok(read) => filled += read,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(source) => {
                return Err(Error::Io {
                    path: path.to_path_buf(),
                    source,
                });
            }
        }
    }
    let mut extra = [0u8; 1];
    let more = loop {
        match reader.read(&mut extra) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            other => break other,
        }
    }
    .map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if more > 0 {
        return Err(format_error(
            path,
            "file length",
            layout.file_len,
            format!(
                "the file is longer than the {} bytes that the header describes",
                layout.file_len
            ),
        ));
    }
    Ok((words, len))
}

/// Reads a whole `g.csr` file from `reader` (uncompressed or decompressing):
/// its header first, then exactly the number of bytes it describes, refusing a
/// stream that is shorter or longer. Nothing proportional to the header's
/// counts is allocated before the header has been checked, never more than
/// the header describes, nor more than about twice what the stream delivered
/// (4 MiB at least).
/// `path` is only used in errors.
pub fn read_from(mut reader: impl Read, path: &Path) -> Result<Graph<'static>> {
    let header = read_header(&mut reader).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    // The length the header describes, which the stream must then have (a
    // short header is checked against its own length, which it fails).
    let described = match header.first_chunk::<HEADER_BYTES>() {
        Some(full) => described_len(le_u64(full, NUM_VERTICES_AT), le_u64(full, NUM_EDGES_AT))
            .unwrap_or(u64::MAX),
        None => header.len() as u64,
    };
    let layout = check_header(&header, described, path)?;
    let (words, len) = read_body(&mut reader, &header, &layout, path, STREAM_FIRST_WORDS)?;
    let bytes = bytemuck::cast_slice::<u32, u8>(&words);
    let graph = parse(bytes.get(..len).unwrap_or_default(), path)?.into_owned();
    Ok(graph)
}

impl GraphFile {
    /// Opens the file at `path`, checks its header and length, and reads it
    /// whole into memory owned by the result (a missing file is an
    /// [`Error::Io`]; an empty, short or malformed one, or one that is not a
    /// regular file, an [`Error::Format`] or [`Error::InvalidArgument`]).
    /// Nothing is allocated for the arrays until the header's counts agree
    /// with the file length; a file that shrinks or grows while it is read is
    /// refused.
    pub fn open(path: impl AsRef<Path>) -> Result<GraphFile> {
        let path = path.as_ref();
        let io = |source| Error::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = File::open(path).map_err(io)?;
        let metadata = file.metadata().map_err(io)?;
        if !metadata.is_file() {
            return Err(Error::InvalidArgument(format!(
                "{}: not a regular file (a device, pipe or directory): a g.csr graph must be a file",
                path.display()
            )));
        }
        let file_len = metadata.len();
        let header = read_header(&mut file).map_err(io)?;
        let layout = check_header(&header, file_len, path)?;
        let (words, len) = read_body(&mut file, &header, &layout, path, usize::MAX)?;
        Ok(GraphFile {
            path: path.to_path_buf(),
            words,
            len,
            weight_kind: layout.weight_kind,
        })
    }

    /// The path the file was opened from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The weight type that the header declares (the weights themselves are
    /// checked by [`GraphFile::graph`]).
    pub fn weight_kind(&self) -> WeightKind {
        self.weight_kind
    }

    /// The whole file, as read.
    pub fn bytes(&self) -> &[u8] {
        bytemuck::cast_slice::<u32, u8>(&self.words)
            .get(..self.len)
            .unwrap_or_default()
    }

    /// The graph, validated in full, with its arrays borrowed from the bytes
    /// read (zero copy: they are held in aligned words).
    pub fn graph(&self) -> Result<Graph<'_>> {
        parse(self.bytes(), &self.path)
    }
}

/// Reads the `g.csr` file at `path` into a graph that owns its arrays.
pub fn read(path: impl AsRef<Path>) -> Result<Graph<'static>> {
    let file = GraphFile::open(path)?;
    let graph = file.graph()?.into_owned();
    Ok(graph)
}

/// The header of `graph`'s file.
///
/// # Panics
///
/// If the graph has more than `u32::MAX` vertices, which the format cannot
/// hold (only possible with an offsets array of over 16 GiB).
fn header(graph: &Graph) -> [u8; HEADER_BYTES] {
    let n = graph.num_vertices() as u64;
    let m = graph.num_edges() as u64;
    assert!(
        n <= u32::MAX as u64,
        "a g.csr file holds at most {} vertices, the graph has {n}",
        u32::MAX
    );
    // m <= u32::MAX holds for every valid graph: its last u32 offset is m.
    let mut header = [0u8; HEADER_BYTES];
    let fields: [(usize, &[u8]); 7] = [
        (MAGIC_AT, &MAGIC),
        (VERSION_AT, &VERSION.to_le_bytes()),
        (INDEX_TYPE_AT, &INDEX_TYPE_U32.to_le_bytes()),
        (
            WEIGHT_TYPE_AT,
            &weight_type(graph.weight_kind()).to_le_bytes(),
        ),
        (FLAGS_AT, &0u32.to_le_bytes()),
        (NUM_VERTICES_AT, &n.to_le_bytes()),
        (NUM_EDGES_AT, &m.to_le_bytes()),
    ];
    for (at, value) in fields {
        header[at..at + value.len()].copy_from_slice(value);
    }
    header
}

/// Writes `words` as little-endian bytes: one bulk write of the array's own
/// bytes on a little-endian host, converted blocks otherwise.
fn write_words(out: &mut impl Write, words: &[u32]) -> std::io::Result<()> {
    if cfg!(target_endian = "little") {
        return out.write_all(bytemuck::cast_slice(words));
    }
    let mut block = Vec::with_capacity(words.len().min(1 << 16) * 4);
    for chunk in words.chunks(1 << 16) {
        block.clear();
        block.extend(chunk.iter().flat_map(|w| w.to_le_bytes()));
        out.write_all(&block)?;
    }
    Ok(())
}

fn write_graph(out: &mut impl Write, graph: &Graph) -> std::io::Result<()> {
    out.write_all(&header(graph))?;
    write_words(out, graph.offsets())?;
    write_words(out, graph.targets())?;
    write_words(out, graph.weights())
}

/// Writes `graph` to `path` as a `g.csr` file (created or truncated), through
/// one large buffer with bulk writes of whole sections. The `weight_type` is
/// that of the graph's [`WeightKind`]; the weight words are written as they
/// are (for `f32`, their bit patterns are the floats).
///
/// A graph with more than `u32::MAX` vertices, which the format cannot hold,
/// is an [`Error::InvalidArgument`] (and no file is created).
pub fn write(graph: &Graph, path: &Path) -> Result<()> {
    if graph.num_vertices() as u64 > u32::MAX as u64 {
        return Err(Error::InvalidArgument(format!(
            "{}: a g.csr file holds at most {} vertices, the graph has {}",
            path.display(),
            u32::MAX,
            graph.num_vertices()
        )));
    }
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = File::create(path).map_err(io)?;
    let mut out = BufWriter::with_capacity(WRITE_BUFFER_BYTES, file);
    write_graph(&mut out, graph).map_err(io)?;
    out.flush().map_err(io)
}

/// The bytes of `graph`'s `g.csr` file.
///
/// # Panics
///
/// If the graph has more than `u32::MAX` vertices, which the format cannot hold.
pub fn to_bytes(graph: &Graph) -> Vec<u8> {
    let words = graph
        .offsets()
        .len()
        .saturating_add(graph.num_edges().saturating_mul(2));
    let len = HEADER_BYTES.saturating_add(words.saturating_mul(4));
    let mut bytes = Vec::with_capacity(len);
    write_graph(&mut bytes, graph).expect("writing to a Vec cannot fail");
    bytes
}
