//! Writing results: distances and shortest-path trees, one row per source, as
//! text in the input's numbering or as raw little-endian words. A file is
//! replaced only by a complete write ([`super::atomic`]).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use gpu_kernels::distance::INFINITY;

use super::InputNumbering;
use super::atomic::{AtomicFile, write_atomically};
use crate::Result;
use crate::distances;
use crate::graph::WeightKind;
use crate::parents::NO_PARENT;

/// How results are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// Lines with the input's vertex ids: `vertex value` for one source
    /// ([`Rows::Single`]), `source vertex value` for several; `inf` for
    /// unreached vertices, `-` for no parent; `f32` distances in the shortest
    /// form that reads back to the same float.
    Text,
    /// Raw little-endian 32-bit values, one per vertex, rows one after another
    /// (a row-major matrix, rows in the sources' order), no header: distances
    /// as `u32` (`u32::MAX` unreached) or `f32` (`+inf` unreached), parents as
    /// 0-based `u32` ids (`u32::MAX` for none).
    Bin,
}

impl OutputFormat {
    /// The name `--output-format` takes.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Text => "text",
            OutputFormat::Bin => "bin",
        }
    }
}

/// Per-vertex rows to write.
#[derive(Clone, Copy, Debug)]
pub enum Rows<'a> {
    /// One row without its source (text: `vertex value` lines).
    Single(&'a [u32]),
    /// One row per source (text: `source vertex value` lines).
    PerSource(&'a [(usize, &'a [u32])]),
}

impl<'a> Rows<'a> {
    /// Every row with its source, if written.
    fn each(self) -> Vec<(Option<usize>, &'a [u32])> {
        match self {
            Rows::Single(row) => vec![(None, row)],
            Rows::PerSource(rows) => rows.iter().map(|&(s, row)| (Some(s), row)).collect(),
        }
    }
}

/// Writes distance words of `kind`; unreached vertices are [`INFINITY`].
pub fn write_distances(
    path: &Path,
    rows: Rows,
    kind: WeightKind,
    numbering: InputNumbering,
    format: OutputFormat,
) -> Result<()> {
    let raw = |d| raw_distance(kind, d);
    write_rows(path, rows, numbering, format, raw, |d| {
        distances::display(kind, d)
    })
}

/// Writes shortest-path trees: parents as 0-based ids, [`NO_PARENT`] for none.
pub fn write_parents(
    path: &Path,
    rows: Rows,
    numbering: InputNumbering,
    format: OutputFormat,
) -> Result<()> {
    write_rows(
        path,
        rows,
        numbering,
        format,
        |p| p,
        |p| match p {
            NO_PARENT => "-".to_string(),
            p => numbering.external(p as usize).to_string(),
        },
    )
}

/// Writes `rows`: text lines with `text(value)`, or the little-endian `raw(value)`s.
fn write_rows(
    path: &Path,
    rows: Rows,
    numbering: InputNumbering,
    format: OutputFormat,
    raw: impl Fn(u32) -> u32,
    text: impl Fn(u32) -> String,
) -> Result<()> {
    write_atomically(path, |out| {
        for (source, values) in rows.each() {
            write_values(out, (source, values), (numbering, format), &raw, &text)?;
        }
        Ok(())
    })
}

/// Writes one row: text lines `[source] vertex text(value)`, or the
/// little-endian `raw(value)`s.
fn write_values(
    out: &mut impl Write,
    (source, values): (Option<usize>, &[u32]),
    (numbering, format): (InputNumbering, OutputFormat),
    raw: impl Fn(u32) -> u32,
    text: impl Fn(u32) -> String,
) -> std::io::Result<()> {
    match format {
        OutputFormat::Text => {
            let prefix = source.map_or(String::new(), |s| format!("{} ", numbering.external(s)));
            for (v, &value) in values.iter().enumerate() {
                writeln!(out, "{prefix}{} {}", numbering.external(v), text(value))?;
            }
        }
        OutputFormat::Bin => {
            // One reused buffer, filled word by word in place (collecting
            // each word's bytes into a growing Vec ran at ~1 GB/s).
            const WORDS: usize = 1 << 14;
            let mut bytes = vec![0u8; 4 * WORDS.min(values.len())];
            for chunk in values.chunks(WORDS) {
                let bytes = &mut bytes[..4 * chunk.len()];
                for (word, &d) in bytes.chunks_exact_mut(4).zip(chunk) {
                    word.copy_from_slice(&raw(d).to_le_bytes());
                }
                out.write_all(bytes)?;
            }
        }
    }
    Ok(())
}

/// Distance rows written one at a time as they are solved, as
/// [`write_distances`] writes them with [`Rows::PerSource`]: the file
/// appears whole at [`RowWriter::finish`] or not at all.
pub struct RowWriter {
    file: AtomicFile,
    out: BufWriter<File>,
    kind: WeightKind,
    numbering: InputNumbering,
    format: OutputFormat,
}

impl RowWriter {
    /// Starts the file at `path` for distance words of `kind`.
    pub fn create(
        path: &Path,
        kind: WeightKind,
        numbering: InputNumbering,
        format: OutputFormat,
    ) -> Result<RowWriter> {
        let file = AtomicFile::create(path)?;
        let out = file.open()?;
        Ok(RowWriter {
            file,
            out,
            kind,
            numbering,
            format,
        })
    }

    /// Writes `source`'s row.
    pub fn row(&mut self, source: usize, values: &[u32]) -> Result<()> {
        let kind = self.kind;
        write_values(
            &mut self.out,
            (Some(source), values),
            (self.numbering, self.format),
            |d| raw_distance(kind, d),
            |d| distances::display(kind, d),
        )
        .map_err(|e| self.file.write_error(e))
    }

    /// Flushes the rows and puts the file in place.
    pub fn finish(self) -> Result<()> {
        self.file.finish(self.out)
    }
}

/// A distance word as written raw: for `f32` the float's bits, with `+inf`
/// for unreached, so that the file is a plain `f32` array.
fn raw_distance(kind: WeightKind, d: u32) -> u32 {
    match (kind, d) {
        (WeightKind::F32, INFINITY) => f32::INFINITY.to_bits(),
        _ => d,
    }
}

/// Writes a `sources.len() × targets.len()` table of distance words of
/// `kind`, row-major: text lines `source target distance` in the input's
/// numbering, or the raw words as [`write_distances`] writes them (a
/// row-major matrix).
pub fn write_table(
    path: &Path,
    (sources, targets): (&[usize], &[usize]),
    table: &[u32],
    kind: WeightKind,
    numbering: InputNumbering,
    format: OutputFormat,
) -> Result<()> {
    let rows: Vec<(usize, &[u32])> = sources
        .iter()
        .zip(table.chunks(targets.len().max(1)))
        .map(|(&s, row)| (s, row))
        .collect();
    match format {
        OutputFormat::Bin => write_distances(path, Rows::PerSource(&rows), kind, numbering, format),
        OutputFormat::Text => write_atomically(path, |out| {
            for (s, row) in rows {
                for (&t, &d) in targets.iter().zip(row) {
                    writeln!(
                        out,
                        "{} {} {}",
                        numbering.external(s),
                        numbering.external(t),
                        distances::display(kind, d)
                    )?;
                }
            }
            Ok(())
        }),
    }
}
