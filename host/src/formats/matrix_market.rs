//! Matrix Market coordinate files (`.mtx`) as weighted adjacency matrices:
//!
//! ```text
//! %%MatrixMarket matrix coordinate {integer|real|pattern} {general|symmetric}
//! % comment lines
//! ROWS COLS NNZ    the size line; ROWS = COLS = the vertex count
//! I J [V]          NNZ entries, 1-based: an arc from vertex I to vertex J of weight V
//! ```
//!
//! `pattern` entries have no value and weigh 1. `symmetric` files list one
//! triangle; each off-diagonal entry gives arcs in both directions, a diagonal
//! entry one self-loop. Vertex `k` of the file is vertex `k - 1` of the graph.
//! `%` comment lines and blank lines may appear anywhere after the banner.
//!
//! Weight types: `integer` and `pattern` files give `u32` weights, `real` (or
//! `double`) files `f32` weights: each value rounded to the nearest `f32`
//! (`-0` read as `0`; negative values, NaN, infinities and values beyond
//! `f32::MAX` rejected). [`LoadOptions::weights`](super::options::LoadOptions::weights) = `f32` (`--weights f32`)
//! reads `integer` and `pattern` files as `f32` too; `u32` is refused for a
//! `real` file, whose values it would truncate.

use std::io::BufRead;

use super::text::{self, Arcs, TextInput, WeightSyntax, shown, tokens};
use crate::Result;
use crate::graph::{Graph, WeightKind};

const BANNER: &str =
    "`%%MatrixMarket matrix coordinate {integer|real|pattern} {general|symmetric}`";

/// The value type of the entries.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Field {
    Integer,
    Real,
    Pattern,
}

/// What the banner and size line declare, and the weight type read.
struct Header {
    field: Field,
    kind: WeightKind,
    symmetric: bool,
    vertices: u64,
    entries: u64,
    line: u64,
}

/// Parses a Matrix Market coordinate text. The size of the text, when known,
/// bounds what is reserved for the declared entries; the options may change the
/// weight type (see the module documentation).
pub fn parse<R: BufRead>(input: TextInput<'_, R>) -> Result<Graph<'static>> {
    let mut lines = input.lines;
    if !lines.advance()? {
        return Err(lines.error_at_end(format!("the file is empty: expected the banner {BANNER}")));
    }
    let (field, symmetric) = banner(lines.text()).map_err(|m| lines.error(m))?;
    let native = match field {
        Field::Real => WeightKind::F32,
        Field::Integer | Field::Pattern => WeightKind::U32,
    };
    let kind = input
        .options
        .text_weights(native)
        .map_err(|m| lines.error(format!("the banner declares `real` values: {m}")))?;

    // The size line, after comments.
    let header = loop {
        if !lines.advance()? {
            return Err(lines.error_at_end(
                "end of file: expected the size line `ROWS COLS NNZ` (there is none)".into(),
            ));
        }
        let line = lines.text();
        if line.starts_with(b"%") || text::is_blank(line) {
            continue;
        }
        let (vertices, entries) = size_line(line).map_err(|m| lines.error(m))?;
        break Header {
            field,
            kind,
            symmetric,
            vertices,
            entries,
            line: lines.line(),
        };
    };

    // Pattern entries `1 2\n` are 4 bytes; entries with a value at least 6.
    let min_line = if field == Field::Pattern { 4 } else { 6 };
    let arcs_per_entry = if header.symmetric { 2 } else { 1 };
    let mut arcs = Arcs::with_declared(
        header.entries.saturating_mul(arcs_per_entry),
        input.text_bytes.map(|b| b.saturating_mul(arcs_per_entry)),
        min_line,
    );
    let mut seen: u64 = 0;
    while lines.advance()? {
        let line = lines.text();
        if line.starts_with(b"%") || text::is_blank(line) {
            continue;
        }
        if seen == header.entries {
            return Err(lines.error(format!(
                "more entries than the {} declared by the size line (line {})",
                header.entries, header.line
            )));
        }
        let (i, j, w) = entry(line, &header).map_err(|m| lines.error(m))?;
        arcs.push(i, j, w).map_err(|m| lines.error(m))?;
        if header.symmetric && i != j {
            arcs.push(j, i, w).map_err(|m| lines.error(m))?;
        }
        seen += 1;
    }
    if seen < header.entries {
        return Err(lines.error_at_end(format!(
            "end of file after {seen} entries, but the size line (line {}) declares {}",
            header.line, header.entries
        )));
    }
    text::check_vertex_count(
        &lines,
        header.line,
        header.vertices,
        "the size line declares",
    )?;
    arcs.into_graph(header.vertices, kind)
}

/// The banner's field and whether the matrix is symmetric.
fn banner(line: &[u8]) -> std::result::Result<(Field, bool), String> {
    let mut fields = tokens(line);
    let is = |token: Option<&[u8]>, word: &str| {
        token.is_some_and(|t| t.eq_ignore_ascii_case(word.as_bytes()))
    };
    let found = || format!("expected the banner {BANNER}, found `{}`", shown(line));
    if !is(fields.next(), "%%MatrixMarket") {
        return Err(found());
    }
    if !is(fields.next(), "matrix") {
        return Err(format!("{}: only `matrix` objects are graphs", found()));
    }
    let format = fields.next();
    if is(format, "array") {
        return Err(format!(
            "{}: dense `array` matrices are not supported, only `coordinate`",
            found()
        ));
    }
    if !is(format, "coordinate") {
        return Err(found());
    }
    let field = match fields.next() {
        t if is(t, "integer") => Field::Integer,
        t if is(t, "real") || is(t, "double") => Field::Real,
        t if is(t, "pattern") => Field::Pattern,
        t if is(t, "complex") => {
            return Err(format!("{}: complex values cannot be weights", found()));
        }
        _ => return Err(found()),
    };
    let symmetric = match fields.next() {
        t if is(t, "general") => false,
        t if is(t, "symmetric") => true,
        t if is(t, "skew-symmetric") || is(t, "hermitian") => {
            return Err(format!(
                "{}: `{}` matrices are not supported (their entries are negative or complex)",
                found(),
                shown(t.unwrap_or_default())
            ));
        }
        _ => return Err(found()),
    };
    if let Some(extra) = fields.next() {
        return Err(format!(
            "expected the banner {BANNER}, found `{}` after it",
            shown(extra)
        ));
    }
    Ok((field, symmetric))
}

/// The size line `ROWS COLS NNZ`: (vertices, entries).
fn size_line(line: &[u8]) -> std::result::Result<(u64, u64), String> {
    const EXPECTED: &str = "expected the size line `ROWS COLS NNZ`";
    let mut fields = tokens(line);
    let mut next = |what: &str| {
        fields
            .next()
            .ok_or_else(|| format!("{EXPECTED}: {what} is missing"))
            .and_then(|t| text::unsigned(t, what))
    };
    let rows = next("ROWS")?;
    let cols = next("COLS")?;
    let entries = next("NNZ")?;
    if let Some(extra) = fields.next() {
        return Err(format!("{EXPECTED}, found `{}` after NNZ", shown(extra)));
    }
    if rows != cols {
        return Err(format!(
            "the matrix is {rows} × {cols}: an adjacency matrix must be square (ROWS = COLS)"
        ));
    }
    text::check_declared(rows, entries, "entries")?;
    Ok((rows, entries))
}

/// An entry `I J [V]` as a 0-based arc with a weight word of the header's kind.
fn entry(line: &[u8], header: &Header) -> std::result::Result<(u32, u32, u32), String> {
    let expected = if header.field == Field::Pattern {
        "expected a pattern entry `I J`"
    } else {
        "expected an entry `I J V`"
    };
    let mut fields = tokens(line);
    let mut next = |what: &str| {
        fields
            .next()
            .ok_or_else(|| format!("{expected}: {what} is missing"))
    };
    let n = Some(header.vertices);
    let i = text::vertex(next("the row I")?, "row", 1, n)?;
    let j = text::vertex(next("the column J")?, "column", 1, n)?;
    let w = match header.field {
        Field::Pattern => text::unit_weight(header.kind),
        Field::Integer => text::weight(next("the value V")?, WeightSyntax::Integer, header.kind)?,
        Field::Real => text::weight(next("the value V")?, WeightSyntax::Real, header.kind)?,
    };
    if let Some(extra) = fields.next() {
        let after = if header.field == Field::Pattern {
            "the column (pattern entries have no value)"
        } else {
            "the value"
        };
        return Err(format!(
            "{expected}, found `{}` after {after}",
            shown(extra)
        ));
    }
    Ok((i, j, w))
}
