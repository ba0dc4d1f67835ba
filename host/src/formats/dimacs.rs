//! The 9th DIMACS Implementation Challenge shortest-path format (`.gr`):
//!
//! ```text
//! c comment lines, anywhere
//! p sp N M        the problem line: N vertices, M arcs; exactly one, before any arc
//! a U V W         an arc from U to V with weight W; vertices 1..=N; exactly M of them
//! ```
//!
//! Vertex `k` of the file is vertex `k - 1` of the graph. Blank lines are
//! skipped. Weights are non-negative integers that fit in `u32`, or with
//! [`LoadOptions::weights`](super::options::LoadOptions::weights) = `f32` (`--weights f32`) non-negative reals
//! (`a 1 2 0.5`), each rounded to the nearest `f32`.

use std::io::BufRead;

use super::text::{self, Arcs, TextInput, WeightSyntax, shown, tokens};
use crate::Result;
use crate::graph::{Graph, WeightKind};

/// Bytes of the shortest arc line, `a 1 2 3\n`.
const MIN_ARC_LINE: u64 = 8;

/// The problem line once seen.
struct Problem {
    vertices: u64,
    arcs: u64,
    line: u64,
}

/// Parses a DIMACS `.gr` text. The size of the text, when known, bounds what is
/// reserved for the declared arcs; the options give the weight type (default
/// `u32`).
pub fn parse<R: BufRead>(input: TextInput<'_, R>) -> Result<Graph<'static>> {
    let mut lines = input.lines;
    // Integers are these formats' own weights; --weights may ask for f32.
    let weights = input
        .options
        .text_weights(WeightKind::U32)
        .map_err(|m| lines.error(m))?;
    let mut problem: Option<Problem> = None;
    let mut arcs = Arcs::default();
    while lines.advance()? {
        let mut fields = tokens(lines.text());
        let Some(kind) = fields.next() else {
            continue; // blank line
        };
        match kind {
            // Comments: `c` and anything after it (some files omit the space).
            k if k.starts_with(b"c") => {}
            b"p" => {
                if let Some(first) = &problem {
                    return Err(lines.error(format!(
                        "a second problem line: the problem line is on line {}, and there must be exactly one",
                        first.line
                    )));
                }
                let p = problem_line(fields).map_err(|m| lines.error(m))?;
                arcs = Arcs::with_declared(p.1, input.text_bytes, MIN_ARC_LINE);
                problem = Some(Problem {
                    vertices: p.0,
                    arcs: p.1,
                    line: lines.line(),
                });
            }
            b"a" => {
                let Some(p) = &problem else {
                    return Err(lines.error(
                        "an arc before the problem line: expected `p sp N M` first".into(),
                    ));
                };
                if arcs.len() >= p.arcs {
                    return Err(lines.error(format!(
                        "more arcs than the {} declared by the problem line (line {})",
                        p.arcs, p.line
                    )));
                }
                let (u, v, w) =
                    arc_line(fields, p.vertices, weights).map_err(|m| lines.error(m))?;
                arcs.push(u, v, w).map_err(|m| lines.error(m))?;
            }
            other => {
                return Err(lines.error(format!(
                    "expected a line starting with `c`, `p` or `a`, found `{}`",
                    shown(other)
                )));
            }
        }
    }
    let Some(p) = problem else {
        let what = if lines.line() == 0 {
            "the file is empty"
        } else {
            "end of file"
        };
        return Err(lines.error_at_end(format!(
            "{what}: expected the problem line `p sp N M` (there is none)"
        )));
    };
    if arcs.len() < p.arcs {
        return Err(lines.error_at_end(format!(
            "end of file after {} arcs, but the problem line (line {}) declares {}",
            arcs.len(),
            p.line,
            p.arcs
        )));
    }
    text::check_vertex_count(&lines, p.line, p.vertices, "the problem line declares")?;
    arcs.into_graph(p.vertices, weights)
}

/// The fields of `p sp N M` after the `p`: (N, M).
fn problem_line<'a>(
    mut fields: impl Iterator<Item = &'a [u8]>,
) -> std::result::Result<(u64, u64), String> {
    const EXPECTED: &str = "expected `p sp N M`";
    match fields.next() {
        Some(b"sp") => {}
        Some(other) => {
            return Err(format!(
                "{EXPECTED}: the problem type must be `sp` (shortest paths), found `{}`",
                shown(other)
            ));
        }
        None => return Err(format!("{EXPECTED}, found `p` alone")),
    }
    let vertices = fields
        .next()
        .ok_or_else(|| format!("{EXPECTED}: the vertex count N is missing"))
        .and_then(|t| text::unsigned(t, "the vertex count N"))?;
    let arcs = fields
        .next()
        .ok_or_else(|| format!("{EXPECTED}: the arc count M is missing"))
        .and_then(|t| text::unsigned(t, "the arc count M"))?;
    if let Some(extra) = fields.next() {
        return Err(format!("{EXPECTED}, found `{}` after M", shown(extra)));
    }
    text::check_declared(vertices, arcs, "arcs")?;
    Ok((vertices, arcs))
}

/// The fields of `a U V W` after the `a`, as a 0-based arc with a weight word
/// of `kind`.
fn arc_line<'a>(
    mut fields: impl Iterator<Item = &'a [u8]>,
    num_vertices: u64,
    kind: WeightKind,
) -> std::result::Result<(u32, u32, u32), String> {
    let mut next = |what: &str| {
        fields
            .next()
            .ok_or_else(|| format!("expected `a U V W`: {what} is missing"))
    };
    let u = text::vertex(next("the tail U")?, "tail vertex", 1, Some(num_vertices))?;
    let v = text::vertex(next("the head V")?, "head vertex", 1, Some(num_vertices))?;
    let w = text::weight(next("the weight W")?, WeightSyntax::Integer, kind)?;
    if let Some(extra) = fields.next() {
        return Err(format!(
            "expected `a U V W`, found `{}` after the weight",
            shown(extra)
        ));
    }
    Ok((u, v, w))
}
