//! Lists of source vertices (`--sources-file`): one id per line, or a DIMACS
//! 9th Challenge `.ss` file (`p aux sp ss N`, then `s ID` lines). Ids are in
//! the input graph's numbering; `c` lines (DIMACS), `#` lines and blank lines
//! are skipped.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Take};
use std::path::Path;

use crate::{Error, Result};

/// The largest sources file read, in bytes: 100 million sources of 9-digit
/// ids and more. Larger files are refused before reading.
pub const MAX_SOURCES_FILE_BYTES: u64 = 1 << 30;

/// The source ids in `path`, in file order, as written (the graph's input
/// numbering). A path that is not a regular file (a device such as
/// `/dev/zero`, a pipe, a directory) or a file over
/// [`MAX_SOURCES_FILE_BYTES`] is an [`Error::InvalidArgument`], refused
/// before anything is read.
pub fn read_sources(path: &Path) -> Result<Vec<u64>> {
    parse_sources(open_list(path, "a sources file")?, path)
}

/// `path` opened for reading a list (`what`, as errors name it: "a sources
/// file"), as [`read_sources`] opens it: a path that is not a regular file or
/// a file over [`MAX_SOURCES_FILE_BYTES`] is an [`Error::InvalidArgument`],
/// and reading stops there even if the file grows.
pub fn open_list(path: &Path, what: &str) -> Result<BufReader<Take<File>>> {
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(io)?;
    let metadata = file.metadata().map_err(io)?;
    if !metadata.is_file() {
        return Err(Error::InvalidArgument(format!(
            "{}: not a regular file (a device, pipe or directory): {what} must be a file",
            path.display()
        )));
    }
    if metadata.len() > MAX_SOURCES_FILE_BYTES {
        return Err(Error::InvalidArgument(format!(
            "{}: {what} of {} bytes, more than the {MAX_SOURCES_FILE_BYTES} bytes accepted",
            path.display(),
            metadata.len()
        )));
    }
    Ok(BufReader::new(file.take(MAX_SOURCES_FILE_BYTES)))
}

/// [`read_sources`] from any reader; `path` names it in errors.
pub fn parse_sources(reader: impl BufRead, path: &Path) -> Result<Vec<u64>> {
    let parse_error = |line: u64, message: String| Error::Parse {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut sources = Vec::new();
    // `Some(n)` once a DIMACS problem line announced `n` sources.
    let mut announced: Option<u64> = None;
    let mut last_line = 0;
    for line in numbered_lines(reader, path) {
        let (number, line) = line?;
        last_line = number;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            [first, ..] if first.starts_with('#') || *first == "c" => {}
            ["p", "aux", "sp", "ss", count] if announced.is_none() && sources.is_empty() => {
                let count = count.parse::<u64>().map_err(|_| {
                    parse_error(number, format!("`{count}` is not a count of sources"))
                })?;
                announced = Some(count);
            }
            ["p", ..] => {
                return Err(parse_error(
                    number,
                    format!(
                        "expected the problem line `p aux sp ss N` before any source, found `{line}`"
                    ),
                ));
            }
            ["s", id] if announced.is_some() => sources.push(parse_id(id, number, &parse_error)?),
            [id] if announced.is_none() => sources.push(parse_id(id, number, &parse_error)?),
            _ => {
                let expected = if announced.is_some() {
                    "a source line `s ID`"
                } else {
                    "one vertex id per line"
                };
                return Err(parse_error(
                    number,
                    format!("expected {expected}, found `{line}`"),
                ));
            }
        }
    }
    if let Some(count) = announced
        && count != sources.len() as u64
    {
        return Err(parse_error(
            last_line + 1,
            format!(
                "the problem line announces {count} sources, the file lists {}",
                sources.len()
            ),
        ));
    }
    if sources.is_empty() {
        return Err(parse_error(
            last_line + 1,
            "the file lists no source".into(),
        ));
    }
    Ok(sources)
}

/// The lines of `reader` with their numbers (from 1); `path` names it in
/// errors.
pub fn numbered_lines(
    reader: impl BufRead,
    path: &Path,
) -> impl Iterator<Item = Result<(u64, String)>> {
    reader.lines().enumerate().map(move |(index, line)| {
        line.map(|line| (index as u64 + 1, line))
            .map_err(|source| Error::Io {
                path: path.to_path_buf(),
                source,
            })
    })
}

/// A vertex id of line `line`.
fn parse_id(word: &str, line: u64, parse_error: &impl Fn(u64, String) -> Error) -> Result<u64> {
    word.parse::<u64>()
        .map_err(|_| parse_error(line, format!("`{word}` is not a vertex id")))
}
