//! What the text parsers share: a line reader over one reused buffer, tokens,
//! numbers with precise complaints, and the arc list that becomes a CSR.

use std::io::{BufRead, Read};
use std::path::Path;

use crate::graph::{Graph, WeightKind};
use crate::{Error, Result};

/// The longest line accepted, in bytes (without its line break). Real files have
/// lines of a few dozen bytes; a longer "line" is a binary file or corruption.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Vertices that a text file may declare (or imply through its largest id) no
/// matter how short it is. Beyond this, a file may declare at most
/// [`VERTICES_PER_BYTE`] vertices per byte of text, so that a few bytes cannot
/// make the reader allocate gigabytes of row offsets for vertices that no line
/// mentions.
pub const FREE_VERTICES: u64 = 1 << 24;

/// See [`FREE_VERTICES`].
pub const VERTICES_PER_BYTE: u64 = 16;

/// The largest vertex count that `text_bytes` bytes of text may declare.
pub fn vertex_limit(text_bytes: u64) -> u64 {
    FREE_VERTICES
        .max(text_bytes.saturating_mul(VERTICES_PER_BYTE))
        .min(u32::MAX as u64)
}

/// Checks the counts that a header line declares: vertex ids are `u32`, and so
/// are the CSR's offsets, which bound the arcs (`items` names what the file
/// counts: arcs or entries).
pub fn check_declared(vertices: u64, count: u64, items: &str) -> std::result::Result<(), String> {
    if vertices > u32::MAX as u64 {
        return Err(format!(
            "{vertices} vertices are too many: vertex ids are u32, at most {} vertices",
            u32::MAX
        ));
    }
    if count > u32::MAX as u64 {
        return Err(format!(
            "{count} {items} are too many: the CSR's offsets are u32, at most {} arcs",
            u32::MAX
        ));
    }
    Ok(())
}

/// A token or line for an error message: at most 40 bytes, non-printable and
/// non-ASCII bytes escaped.
pub fn shown(bytes: &[u8]) -> String {
    const MAX: usize = 40;
    let cut = bytes.len() > MAX;
    let mut text = bytes[..bytes.len().min(MAX)].escape_ascii().to_string();
    if cut {
        text.push('…');
    }
    text
}

/// What a text parser reads: the file's lines, the size of the text when
/// known (it bounds what is reserved for declared counts), and the load options
/// (the weight type).
pub struct TextInput<'p, R> {
    /// The lines of the file; its path is for error messages.
    pub lines: Lines<'p, R>,
    /// The size of the (uncompressed) text, when known.
    pub text_bytes: Option<u64>,
    /// The load options.
    pub options: super::options::LoadOptions,
}

/// Reads a file line by line into one buffer that is reused for every line.
pub struct Lines<'p, R> {
    reader: R,
    buf: Vec<u8>,
    path: &'p Path,
    line: u64,
    bytes: u64,
}

impl<'p, R: BufRead> Lines<'p, R> {
    /// A reader of the lines of `reader`; `path` is for error messages.
    pub fn new(reader: R, path: &'p Path) -> Self {
        Lines {
            reader,
            buf: Vec::new(),
            path,
            line: 0,
            bytes: 0,
        }
    }

    /// Reads the next line; `false` at the end of the input. The line, without
    /// `\n` or `\r\n`, is then [`Lines::text`].
    pub fn advance(&mut self) -> Result<bool> {
        self.buf.clear();
        let limit = MAX_LINE_BYTES as u64 + 2;
        let read = (&mut self.reader)
            .take(limit)
            .read_until(b'\n', &mut self.buf)
            .map_err(|source| Error::Io {
                path: self.path.to_path_buf(),
                source,
            })?;
        if read == 0 {
            return Ok(false);
        }
        self.line += 1;
        self.bytes += read as u64;
        let ended = self.buf.last() == Some(&b'\n');
        if ended {
            self.buf.pop();
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        if self.buf.len() > MAX_LINE_BYTES {
            return Err(self.error(format!(
                "the line is longer than {MAX_LINE_BYTES} bytes: this is not a text graph file \
                 (or its line breaks are missing)"
            )));
        }
        Ok(true)
    }

    /// The current line, without its line break.
    pub fn text(&self) -> &[u8] {
        &self.buf
    }

    /// The number of the current line (1-based; 0 before the first).
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Bytes read so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The file's path.
    pub fn path(&self) -> &'p Path {
        self.path
    }

    /// An error at the current line.
    pub fn error(&self, message: String) -> Error {
        self.error_at(self.line, message)
    }

    /// An error at the end of the file (the line after the last).
    pub fn error_at_end(&self, message: String) -> Error {
        self.error_at(self.line + 1, message)
    }

    /// An error at line `line`.
    pub fn error_at(&self, line: u64, message: String) -> Error {
        Error::Parse {
            path: self.path.to_path_buf(),
            line,
            message,
        }
    }
}

/// The whitespace-separated tokens of a line.
pub fn tokens(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
}

/// Whether a line holds nothing but whitespace.
pub fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// A non-negative decimal integer (digits only), or a message saying what
/// `what` should have been and what was found.
pub fn unsigned(token: &[u8], what: &str) -> std::result::Result<u64, String> {
    if !token.is_empty() && token.iter().all(u8::is_ascii_digit) {
        let mut value: u64 = 0;
        for &digit in token {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add((digit - b'0') as u64))
                .ok_or_else(|| format!("{what} `{}` is too large", shown(token)))?;
        }
        return Ok(value);
    }
    if token.first() == Some(&b'-') && token.len() > 1 {
        return Err(format!(
            "{what} must be a non-negative integer, found `{}`",
            shown(token)
        ));
    }
    Err(format!(
        "expected {what} (a non-negative integer), found `{}`",
        shown(token)
    ))
}

/// A vertex id of a file numbered from `base` (0 or 1) that declares
/// `num_vertices` vertices (`None`: no declared count, any id up to
/// `u32::MAX - 1` is fine), converted to the graph's 0-based id.
pub fn vertex(
    token: &[u8],
    what: &str,
    base: u64,
    num_vertices: Option<u64>,
) -> std::result::Result<u32, String> {
    let id = unsigned(token, what)?;
    if id < base {
        return Err(format!(
            "{what} {id} does not exist: vertices are numbered from {base} in this format"
        ));
    }
    match num_vertices {
        Some(n) if id - base >= n => Err(format!(
            "{what} {id} is out of range: {n} vertices are declared, numbered {base} to {}",
            (n + base).saturating_sub(1)
        )),
        // Without a declared count, n = the largest id + 1 must fit in u32.
        None if id >= u32::MAX as u64 => Err(format!(
            "{what} {id} is too large: vertex ids must be below {}",
            u32::MAX
        )),
        _ => Ok((id - base) as u32),
    }
}

/// How integer weights may be written (for `u32` weights; `f32` weights take
/// any decimal real, see [`weight`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum WeightSyntax {
    /// Integers only (DIMACS, Matrix Market `integer`).
    Integer,
    /// Integers, or reals with an integer value such as `3.0` or `1e3` (edge
    /// lists).
    Real,
}

/// What a fractional weight read as `u32` is told.
const F32_NOTE: &str = "the weights are read as u32; read them as f32 with --weights f32";

/// An edge weight as a weight word of `kind`: for [`WeightKind::U32`] a
/// non-negative integer that fits in `u32` (written as `syntax` allows), for
/// [`WeightKind::F32`] the bit pattern of the nearest `f32` to a non-negative
/// decimal real (see [`f32_weight`]). Negative, non-numeric, NaN, infinite,
/// too large and (for `u32`) fractional weights are each reported as such.
pub fn weight(
    token: &[u8],
    syntax: WeightSyntax,
    kind: WeightKind,
) -> std::result::Result<u32, String> {
    match kind {
        WeightKind::U32 => u32_weight(token, syntax),
        WeightKind::F32 => f32_weight(token),
    }
}

/// A `u32` weight (see [`weight`]).
fn u32_weight(token: &[u8], syntax: WeightSyntax) -> std::result::Result<u32, String> {
    let too_large = |w: &dyn std::fmt::Display| {
        format!(
            "weight {w} is too large: weights are u32, at most {}",
            u32::MAX
        )
    };
    if !token.is_empty() && token.iter().all(u8::is_ascii_digit) {
        return match unsigned(token, "weight") {
            Ok(w) => u32::try_from(w).map_err(|_| too_large(&w)),
            Err(_) => Err(too_large(&shown(token))),
        };
    }
    // Not plain digits: say precisely what it is.
    let real = std::str::from_utf8(token)
        .ok()
        .and_then(|t| t.parse::<f64>().ok());
    let Some(value) = real else {
        return Err(format!(
            "expected a weight (a non-negative integer), found `{}`",
            shown(token)
        ));
    };
    let shown = shown(token);
    reject_non_finite_or_negative(value, &shown)?;
    if value.fract() != 0.0 {
        return Err(format!("weight `{shown}` is not an integer: {F32_NOTE}"));
    }
    if syntax == WeightSyntax::Integer {
        return Err(format!(
            "expected an integer weight, found `{shown}` (write it without a fraction or exponent)"
        ));
    }
    if value > u32::MAX as f64 {
        return Err(too_large(&shown));
    }
    Ok(value as u32)
}

/// An `f32` weight word: a decimal real (`3`, `0.5`, `.5`, `2.5e-3`, `+1`),
/// rounded to the nearest `f32` like any decimal-to-binary conversion (so a
/// tiny positive value may become `0`). `-0` (any zero with a minus sign)
/// becomes `+0`; negative values, NaN, infinities and values beyond
/// [`f32::MAX`] (which would round to infinity) are rejected.
pub fn f32_weight(token: &[u8]) -> std::result::Result<u32, String> {
    let parsed = std::str::from_utf8(token)
        .ok()
        .and_then(|t| t.parse::<f32>().ok());
    let Some(value) = parsed else {
        return Err(format!(
            "expected a weight (a non-negative real number), found `{}`",
            shown(token)
        ));
    };
    let shown = shown(token);
    if value.is_nan() {
        return Err(format!("weight `{shown}` is not a number"));
    }
    if value.is_infinite() {
        return Err(if names_infinity(token) {
            format!("weight `{shown}` is infinite")
        } else {
            format!(
                "weight `{shown}` is too large: f32 weights are at most {:e}",
                f32::MAX
            )
        });
    }
    // The sign of the text, not of the rounded value: `-1e-50` rounds to
    // `-0.0` but is negative.
    if value < 0.0 || (token.first() == Some(&b'-') && !is_zero(token)) {
        return Err(format!(
            "weight `{shown}` is negative: shortest paths need non-negative weights"
        ));
    }
    // `+0.0` for every zero, `-0` included.
    Ok(if value == 0.0 { 0 } else { value.to_bits() })
}

/// Rejects a NaN, infinite or negative weight value, written `shown`.
fn reject_non_finite_or_negative(value: f64, shown: &str) -> std::result::Result<(), String> {
    if value.is_nan() {
        return Err(format!("weight `{shown}` is not a number"));
    }
    if value.is_infinite() {
        return Err(format!("weight `{shown}` is infinite"));
    }
    if value < 0.0 {
        return Err(format!(
            "weight `{shown}` is negative: shortest paths need non-negative weights"
        ));
    }
    Ok(())
}

/// Whether a token that parses as a float names infinity (`inf`, `-Infinity`,
/// ...) rather than being a finite number too large for its type.
fn names_infinity(token: &[u8]) -> bool {
    token.iter().any(|b| b.eq_ignore_ascii_case(&b'i'))
}

/// Whether a token that parses as a float is a zero (its digits before any
/// exponent are all `0`), whatever its sign and exponent.
fn is_zero(token: &[u8]) -> bool {
    token
        .iter()
        .take_while(|b| !b.eq_ignore_ascii_case(&b'e'))
        .all(|b| matches!(b, b'0' | b'.' | b'+' | b'-'))
}

/// The word of weight 1 in `kind` (unweighted arcs).
pub fn unit_weight(kind: WeightKind) -> u32 {
    match kind {
        WeightKind::U32 => 1,
        WeightKind::F32 => 1.0f32.to_bits(),
    }
}

/// The arcs read so far, in file order, 0-based.
#[derive(Default)]
pub struct Arcs {
    arcs: Vec<(u32, u32, u32)>,
}

impl Arcs {
    /// An empty list with room for `declared` arcs, but no more than a text of
    /// `text_bytes` bytes (`None`: unknown, e.g. compressed) can hold at
    /// `min_line_bytes` bytes per arc.
    pub fn with_declared(declared: u64, text_bytes: Option<u64>, min_line_bytes: u64) -> Self {
        // Without a known size, start modestly and let the vector grow.
        let room = text_bytes.map_or(1 << 16, |b| b / min_line_bytes.max(1));
        let capacity = declared.min(room).min(u32::MAX as u64) as usize;
        // Only a hint: if the room cannot be had now, the list grows as read.
        let mut arcs = Vec::new();
        let _ = arcs.try_reserve_exact(capacity);
        Arcs { arcs }
    }

    /// Arcs so far.
    pub fn len(&self) -> u64 {
        self.arcs.len() as u64
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.arcs.is_empty()
    }

    /// Adds an arc; an error message if the graph would have more than
    /// `u32::MAX` arcs (the CSR's offsets are `u32`).
    pub fn push(&mut self, tail: u32, head: u32, weight: u32) -> std::result::Result<(), String> {
        if self.arcs.len() >= u32::MAX as usize {
            return Err(format!(
                "more than {} arcs: the CSR's offsets are u32",
                u32::MAX
            ));
        }
        self.arcs.push((tail, head, weight));
        Ok(())
    }

    /// The successor CSR of `num_vertices` vertices (every arc's ends are
    /// below it), arcs leaving one vertex in file order, with weight words of
    /// `kind`.
    /// Memory that cannot be had is an out-of-memory error, not an abort.
    pub fn into_graph(self, num_vertices: u64, kind: WeightKind) -> Result<Graph<'static>> {
        let n = usize::try_from(num_vertices).map_err(|_| {
            Error::InvalidArgument(format!(
                "{num_vertices} vertices do not fit this host's memory"
            ))
        })?;
        reserve_csr(n, self.arcs.len())?;
        let graph = Graph::from_edges(n, &self.arcs)?.with_weight_kind(kind)?;
        Ok(graph)
    }
}

/// Checks that the CSR of `n` vertices and `m` arcs can be allocated (its
/// offsets, a copy of them, targets and weights: `4(2n + 1 + 2m)` bytes) by
/// reserving that much at once and freeing it, so that a count declared by a
/// file that memory cannot hold is an error rather than an abort.
fn reserve_csr(n: usize, m: usize) -> Result<()> {
    let words = (n as u64)
        .checked_mul(2)
        .and_then(|w| w.checked_add(1))
        .and_then(|w| w.checked_add((m as u64).checked_mul(2)?));
    crate::memory::check_fits(words.and_then(|w| w.checked_mul(4)), || {
        format!("the graph of {n} vertices and {m} arcs")
    })
}

/// Checks a vertex count against [`vertex_limit`] for a text of `text_bytes`
/// bytes; the error is at `line` of `lines`' file.
pub fn check_vertex_count<R: BufRead>(
    lines: &Lines<'_, R>,
    line: u64,
    num_vertices: u64,
    how: &str,
) -> Result<()> {
    let limit = vertex_limit(lines.bytes());
    if num_vertices > limit {
        return Err(lines.error_at(
            line,
            format!(
                "{how} {num_vertices} vertices, but a text of {} bytes may have at most {limit} \
                 (max({FREE_VERTICES}, {VERTICES_PER_BYTE} per byte): a guard against allocating \
                 for vertices that no line mentions)",
                lines.bytes()
            ),
        ));
    }
    Ok(())
}
