//! Graph input formats: the binary `g.csr` ([`csr`]) and three text
//! formats, each parsed into a [`Graph`] (successor CSR):
//!
//! | format | extensions | vertex ids | module |
//! | --- | --- | --- | --- |
//! | g.csr | `.csr` | 0-based | [`csr`] |
//! | DIMACS 9th Challenge | `.gr` | 1-based | [`dimacs`] |
//! | Matrix Market coordinate | `.mtx` | 1-based | [`matrix_market`] |
//! | edge list (SNAP style) | `.el`, `.txt` | 0-based | [`edge_list`] |
//!
//! Any of them may be gzip-compressed, with `.gz` appended (`rome99.gr.gz`).
//! [`load`] picks the format from the extension unless told.
//!
//! Weights: a g.csr file says in its header whether they are `u32` or `f32`;
//! a text file's weights are `u32` except for Matrix Market `real` files,
//! which are `f32`. [`LoadOptions::weights`] (`--weights`) reads a text file's
//! weights as the other type instead: `f32` for any text format, `u32` for
//! none that is `f32` by nature (a `real` file is rejected rather than
//! truncated).
//!
//! The text parsers stream the file line by line through one reused buffer.
//! Every defect is an [`Error::Parse`] naming the file, the line and what was
//! expected and found; they never panic, and never allocate from a count
//! that the file declares beyond what its size can hold. A file's vertex ids
//! are kept in an [`InputNumbering`] so that results can be reported in them.

pub mod atomic;
pub mod csr;
pub mod dimacs;
pub mod edge_list;
pub mod matrix_market;
pub mod options;
pub mod output;
pub mod sources;
pub mod text;

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use flate2::bufread::MultiGzDecoder;

use crate::graph::Graph;
use crate::{Error, Result};
use csr::GraphFile;
pub use options::LoadOptions;
use text::{Lines, TextInput};

/// Buffer size of the text readers.
const READ_BUFFER_BYTES: usize = 256 << 10;

/// A graph file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// The binary `g.csr` format (`graphs/README.md`).
    Csr,
    /// DIMACS 9th Implementation Challenge `.gr`.
    Dimacs,
    /// Matrix Market coordinate `.mtx`.
    MatrixMarket,
    /// A plain edge list, `.el` or `.txt`.
    EdgeList,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 4] = [
        Format::Csr,
        Format::Dimacs,
        Format::MatrixMarket,
        Format::EdgeList,
    ];

    /// The name people know it by.
    pub fn name(self) -> &'static str {
        match self {
            Format::Csr => "g.csr",
            Format::Dimacs => "DIMACS .gr",
            Format::MatrixMarket => "Matrix Market",
            Format::EdgeList => "edge list",
        }
    }

    /// How the format numbers vertices.
    pub fn numbering(self) -> InputNumbering {
        match self {
            Format::Csr | Format::EdgeList => InputNumbering::ZERO_BASED,
            Format::Dimacs | Format::MatrixMarket => InputNumbering::ONE_BASED,
        }
    }

    /// The format of a file extension (without the dot, any case).
    pub fn from_extension(extension: &str) -> Option<Format> {
        match extension.to_ascii_lowercase().as_str() {
            "csr" => Some(Format::Csr),
            "gr" => Some(Format::Dimacs),
            "mtx" => Some(Format::MatrixMarket),
            "el" | "wel" | "txt" => Some(Format::EdgeList),
            _ => None,
        }
    }

    /// Parses a whole file of this format from `reader` with `options`.
    /// `path` is for error messages; `text_bytes`, the size of the
    /// (uncompressed) file when known, bounds what the text parsers reserve for
    /// declared counts.
    pub fn parse_with<R: BufRead>(
        self,
        reader: R,
        path: &Path,
        text_bytes: Option<u64>,
        options: LoadOptions,
    ) -> Result<Graph<'static>> {
        let parse: fn(TextInput<'_, R>) -> Result<Graph<'static>> = match self {
            Format::Csr => {
                let graph = csr::read_from(reader, path)?;
                options.check_csr_weights(path, graph.weight_kind())?;
                return Ok(graph);
            }
            Format::Dimacs => dimacs::parse,
            Format::MatrixMarket => matrix_market::parse,
            Format::EdgeList => edge_list::parse,
        };
        parse(TextInput {
            lines: Lines::new(reader, path),
            text_bytes,
            options,
        })
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How an input file numbers its vertices: vertex `v` of the graph is `v + base`
/// in the file. The CLI reads `--source` and writes distances in this numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InputNumbering {
    /// The file's id of the graph's vertex 0: 0 or 1.
    pub base: u32,
}

impl InputNumbering {
    /// Ids as in the graph (g.csr, edge lists).
    pub const ZERO_BASED: InputNumbering = InputNumbering { base: 0 };
    /// Ids from 1 (DIMACS, Matrix Market).
    pub const ONE_BASED: InputNumbering = InputNumbering { base: 1 };

    /// The file's id of graph vertex `v`.
    pub fn external(self, v: usize) -> u64 {
        v as u64 + self.base as u64
    }

    /// The graph vertex of the file's id `id`, if it is one of `num_vertices`.
    pub fn internal(self, id: u64, num_vertices: usize) -> Option<usize> {
        let v = id.checked_sub(self.base as u64)?;
        usize::try_from(v).ok().filter(|&v| v < num_vertices)
    }

    /// The first and last ids of a graph of `num_vertices` vertices, as text:
    /// `1 to 3353`, or `none` for a graph without vertices.
    pub fn id_range(self, num_vertices: usize) -> String {
        if num_vertices == 0 {
            return "none (the graph has no vertices)".into();
        }
        format!(
            "{} to {}",
            self.external(0),
            self.external(num_vertices - 1)
        )
    }
}

/// The format of `path` from its extension, and whether it is gzip-compressed
/// (a `.gz` after the format's extension). An unknown extension is an
/// [`Error::InvalidArgument`] that lists the known ones.
pub fn detect(path: &Path) -> Result<(Format, bool)> {
    let gzip = is_gzip(path);
    let inner = if gzip {
        Path::new(path.file_stem().unwrap_or_default())
    } else {
        path
    };
    inner
        .extension()
        .and_then(|e| e.to_str())
        .and_then(Format::from_extension)
        .map(|format| (format, gzip))
        .ok_or_else(|| {
            Error::InvalidArgument(format!(
                "{}: cannot tell the graph format from the file name: expected the extension \
                 .csr (g.csr), .gr (DIMACS), .mtx (Matrix Market), .el or .txt (edge list), \
                 optionally followed by .gz; or name the format with --format",
                path.display()
            ))
        })
}

/// Whether the file name ends in `.gz` (any case).
pub fn is_gzip(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"))
}

/// A graph loaded from a file, with how the file numbers its vertices.
pub struct LoadedGraph {
    path: PathBuf,
    format: Format,
    gzip: bool,
    storage: Storage,
}

enum Storage {
    /// An uncompressed g.csr file, read whole into memory that it owns: the
    /// graph borrows from it.
    Read(GraphFile),
    /// A graph parsed from text (or decompressed).
    Owned(Graph<'static>),
}

impl LoadedGraph {
    /// The graph. For an uncompressed g.csr file this validates the arrays on
    /// every call (and borrows them from the bytes read); call it once.
    pub fn graph(&self) -> Result<Graph<'_>> {
        match &self.storage {
            Storage::Read(file) => file.graph(),
            Storage::Owned(graph) => Ok(graph.view()),
        }
    }

    /// The graph, owning its arrays.
    pub fn into_graph(self) -> Result<Graph<'static>> {
        match self.storage {
            Storage::Read(file) => Ok(file.graph()?.into_owned()),
            Storage::Owned(graph) => Ok(graph),
        }
    }

    /// The file it came from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Whether the file was gzip-compressed.
    pub fn gzip(&self) -> bool {
        self.gzip
    }

    /// How the file numbers vertices.
    pub fn numbering(&self) -> InputNumbering {
        self.format.numbering()
    }
}

/// Loads the graph in `path`, in `format` or the format its extension names
/// ([`detect`]); `.gz` files are decompressed as they are read. An
/// uncompressed g.csr file is read whole into memory that the result owns, so
/// that later changes to the file do not reach the graph (its header and
/// length are checked here, its arrays by [`LoadedGraph::graph`]). A
/// compressed g.csr stream is decompressed up to the length its header
/// describes and no further.
pub fn load(path: impl AsRef<Path>, format: Option<Format>) -> Result<LoadedGraph> {
    load_with(path, format, LoadOptions::default(), &mut |_| {})
}

/// [`load`] with `options` (`--weights`), calling `progress` with the number
/// of bytes of the file (as stored, compressed or not) read since the last
/// call.
pub fn load_with(
    path: impl AsRef<Path>,
    format: Option<Format>,
    options: LoadOptions,
    progress: &mut dyn FnMut(u64),
) -> Result<LoadedGraph> {
    let path = path.as_ref();
    let (format, gzip) = match format {
        Some(format) => (format, is_gzip(path)),
        None => detect(path)?,
    };
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let storage = if format == Format::Csr && !gzip {
        let file = GraphFile::open(path)?;
        options.check_csr_weights(path, file.weight_kind())?;
        progress(file.bytes().len() as u64);
        Storage::Read(file)
    } else {
        let file = File::open(path).map_err(io)?;
        let metadata = file.metadata().map_err(io)?;
        if !metadata.is_file() {
            return Err(Error::InvalidArgument(format!(
                "{}: not a regular file (a device, pipe or directory): a graph must be a file",
                path.display()
            )));
        }
        let size = metadata.len();
        let counted = BufReader::with_capacity(
            READ_BUFFER_BYTES,
            Counted {
                inner: file,
                progress,
            },
        );
        let graph = if gzip {
            let text = BufReader::with_capacity(READ_BUFFER_BYTES, MultiGzDecoder::new(counted));
            format.parse_with(text, path, None, options)?
        } else {
            format.parse_with(counted, path, Some(size), options)?
        };
        Storage::Owned(graph)
    };
    Ok(LoadedGraph {
        path: path.to_path_buf(),
        format,
        gzip,
        storage,
    })
}

/// Parses `bytes`, a whole file in `format` (not compressed); `path` is for
/// error messages. The entry point of the fuzz targets.
pub fn parse_bytes(bytes: &[u8], format: Format, path: &Path) -> Result<Graph<'static>> {
    parse_bytes_with(bytes, format, path, LoadOptions::default())
}

/// [`parse_bytes`] with `options` (`--weights`).
pub fn parse_bytes_with(
    bytes: &[u8],
    format: Format,
    path: &Path,
    options: LoadOptions,
) -> Result<Graph<'static>> {
    format.parse_with(bytes, path, Some(bytes.len() as u64), options)
}

/// A reader that reports how many bytes pass through it.
struct Counted<'a, R> {
    inner: R,
    progress: &'a mut dyn FnMut(u64),
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = self.inner.read(buf)?;
        (self.progress)(read as u64);
        Ok(read)
    }
}
