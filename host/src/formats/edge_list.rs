//! Plain edge lists (`.el`, `.wel`, `.txt`), as SNAP, GAPBS and many tools write them:
//!
//! ```text
//! # comment (or % comment)
//! U V        an arc from U to V of weight 1
//! U V W      an arc from U to V of weight W
//! ```
//!
//! Vertices are 0-based and the vertex count is the largest id + 1. Every line
//! has the same number of columns as the first arc line (2 or 3). Weights are
//! non-negative integers that fit in `u32`, also when written as reals (`3.0`);
//! with [`LoadOptions::weights`](super::options::LoadOptions::weights) = `f32` (`--weights f32`) any non-negative
//! reals, each rounded to the nearest `f32` (and 1.0 when absent). Blank lines
//! are skipped. An edge list without arcs has no vertices and is rejected.

use std::io::BufRead;

use super::text::{self, Arcs, TextInput, WeightSyntax, shown, tokens};
use crate::Result;
use crate::graph::{Graph, WeightKind};

/// Parses an edge list (there is no declared count for the size of the text to
/// bound); the options give the weight type (default `u32`).
pub fn parse<R: BufRead>(input: TextInput<'_, R>) -> Result<Graph<'static>> {
    let TextInput {
        mut lines, options, ..
    } = input;
    // Integers are these formats' own weights; --weights may ask for f32.
    let kind = options
        .text_weights(WeightKind::U32)
        .map_err(|m| lines.error(m))?;
    let mut arcs = Arcs::default();
    // Columns of the first arc line and where it is.
    let mut columns: Option<(usize, u64)> = None;
    // The largest vertex id and its line.
    let mut largest: Option<(u32, u64)> = None;
    while lines.advance()? {
        let line = lines.text();
        let trimmed = line.trim_ascii_start();
        if trimmed.is_empty() || trimmed.starts_with(b"#") || trimmed.starts_with(b"%") {
            continue;
        }
        let (u, v, w, count) = arc_line(line, columns, kind).map_err(|m| lines.error(m))?;
        columns.get_or_insert((count, lines.line()));
        if largest.is_none_or(|(id, _)| u.max(v) > id) {
            largest = Some((u.max(v), lines.line()));
        }
        arcs.push(u, v, w).map_err(|m| lines.error(m))?;
    }
    let Some((id, line)) = largest else {
        let what = if lines.line() == 0 {
            "the file is empty"
        } else {
            "end of file"
        };
        return Err(lines.error_at_end(format!(
            "{what}: expected at least one arc `U V` or `U V W` (an edge list's vertex count \
             comes from its largest vertex id, so one without arcs has no vertices)"
        )));
    };
    let num_vertices = id as u64 + 1;
    text::check_vertex_count(
        &lines,
        line,
        num_vertices,
        &format!("vertex id {id} implies"),
    )?;
    arcs.into_graph(num_vertices, kind)
}

/// An arc line: (tail, head, weight word of `kind`, number of columns).
/// `columns` is the column count of the first arc line and its line number,
/// once there is one.
fn arc_line(
    line: &[u8],
    columns: Option<(usize, u64)>,
    kind: WeightKind,
) -> std::result::Result<(u32, u32, u32, usize), String> {
    const EXPECTED: &str = "expected an arc `U V` or `U V W`";
    let mut fields = tokens(line);
    let u = fields
        .next()
        .ok_or_else(|| format!("{EXPECTED}, found an empty line"))?;
    let u = text::vertex(u, "tail vertex", 0, None)?;
    let v = fields
        .next()
        .ok_or_else(|| format!("{EXPECTED}: the head V is missing"))?;
    let v = text::vertex(v, "head vertex", 0, None)?;
    let (w, count) = match fields.next() {
        Some(w) => (text::weight(w, WeightSyntax::Real, kind)?, 3),
        None => (text::unit_weight(kind), 2),
    };
    if let Some(extra) = fields.next() {
        return Err(format!(
            "{EXPECTED}, found `{}` after the weight",
            shown(extra)
        ));
    }
    if let Some((first, first_line)) = columns
        && first != count
    {
        let shape = |c| if c == 2 { "`U V`" } else { "`U V W`" };
        return Err(format!(
            "expected {first} columns {} like line {first_line}, found {count}",
            shape(first)
        ));
    }
    Ok((u, v, w, count))
}
