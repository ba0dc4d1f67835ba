//! The one error type of the host crate. Every variant says what went wrong and
//! where (which file and field, which kernel, which vertex).

use std::path::PathBuf;

use cudarc::driver::DriverError;

use crate::graph::CsrDefect;

/// Everything that can go wrong between reading a graph and printing distances.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading a file failed (or, in the library's own writers, writing one).
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },

    /// Writing an output file failed (or it cannot be created); the file
    /// keeps its old contents, if it had any.
    #[error("{}: cannot write: {source}", path.display())]
    Write {
        /// The output file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },

    /// A graph file is malformed.
    #[error("{}: invalid g.csr file: {field} (byte offset {offset}): {reason}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// The field of the format that is wrong.
        field: &'static str,
        /// Byte offset of that field in the file.
        offset: u64,
        /// What is wrong with it.
        reason: String,
    },

    /// A text graph file (DIMACS, Matrix Market, edge list) has a bad line.
    #[error("{}:{line}: {message}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The 1-based line number (the line after the last one for errors
        /// found at the end of the file).
        line: u64,
        /// What was expected and what was found.
        message: String,
    },

    /// An in-memory graph is not a valid CSR.
    #[error("invalid graph: {0}")]
    InvalidGraph(#[from] CsrDefect),

    /// A command-line value or an API argument is out of range.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),

    /// The source vertex does not exist.
    #[error("source vertex {vertex} is out of range: the graph has {num_vertices} vertices")]
    SourceOutOfRange {
        /// The requested source.
        vertex: u64,
        /// Vertices in the graph.
        num_vertices: usize,
    },

    /// A shortest distance is larger than the largest distance of its type.
    #[error(
        "the shortest distance of vertex {vertex} does not fit in a {weight_type} distance \
         (it is larger than {max}); {count} vertices are affected"
    )]
    DistanceOverflow {
        /// The first vertex affected.
        vertex: usize,
        /// How many vertices are affected.
        count: usize,
        /// The distance type (`u32`, `f32`).
        weight_type: &'static str,
        /// The largest representable distance.
        max: String,
    },

    /// A contraction-hierarchy index file is malformed, corrupt, or was
    /// built from another graph.
    #[error("{}: invalid contraction-hierarchy index: {reason}", path.display())]
    Index {
        /// The index file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },

    /// Contraction found no useful hierarchy in the graph (it would add too
    /// many shortcuts).
    #[error("the graph has no useful contraction hierarchy: {0}")]
    NoHierarchy(String),

    /// No usable CUDA driver or device.
    #[error("no CUDA GPU available: {0}")]
    NoGpu(String),

    /// A CUDA driver call failed.
    #[error("CUDA error in {context}: {source}")]
    Cuda {
        /// What was being done (which kernel, which copy).
        context: String,
        /// The driver's error.
        #[source]
        source: DriverError,
    },

    /// The device has too little free memory.
    #[error("out of GPU memory: {what} needs {needed} bytes but only {free} bytes are free")]
    OutOfMemory {
        /// What was being allocated.
        what: String,
        /// Bytes needed.
        needed: u64,
        /// Bytes free on the device.
        free: u64,
    },

    /// Host memory for something the input sizes (a graph of the counts a
    /// file declares, rows of distances) could not be allocated.
    #[error("out of memory: {what} needs {bytes} bytes, which could not be allocated")]
    HostMemory {
        /// What was being allocated.
        what: String,
        /// Bytes needed.
        bytes: u64,
    },

    /// `--verify` found distances that differ from the oracle's.
    #[error(
        "verification failed: {count} of {num_vertices} distances differ from the oracle; \
         first at vertex {vertex}: expected {expected}, got {found}"
    )]
    Mismatch {
        /// First vertex that differs.
        vertex: usize,
        /// The oracle's distance there.
        expected: String,
        /// The solver's distance there.
        found: String,
        /// How many vertices differ.
        count: usize,
        /// Vertices compared.
        num_vertices: usize,
    },

    /// A failure inside the program, not caused by its input: a buffer
    /// shorter than a kernel's launch needs, a kernel contract the host broke.
    /// A bug: please report it with the command that caused it.
    #[error("internal error (a bug in this program, please report it): {0}")]
    Internal(String),

    /// A shortest-path tree differs from the one that the distances give
    /// (`--verify` with `--parents` or `--path-to`; [`crate::parents::check`]).
    #[error(
        "shortest-path tree check failed: {count} of {num_vertices} parents differ from the \
         expected tree; first at vertex {vertex}: expected parent {expected}, got {found}"
    )]
    TreeMismatch {
        /// First vertex that differs.
        vertex: usize,
        /// The expected parent there (`none` for no parent).
        expected: String,
        /// The checked tree's parent there.
        found: String,
        /// How many vertices differ.
        count: usize,
        /// Vertices compared.
        num_vertices: usize,
    },

    /// The certificate checked after a GPU solve rejected its distances (or
    /// its shortest-path tree): they are not shortest distances, and nothing
    /// is answered.
    #[error(
        "the distances from source {source_vertex} failed their certificate at vertex {vertex}: {reason}"
    )]
    CertificateFailed {
        /// The solve's source.
        source_vertex: usize,
        /// The first vertex that fails.
        vertex: usize,
        /// Why it fails.
        reason: String,
    },
}

impl Error {
    /// Process exit code: 2 for bad input or usage, 1 for failures at run time.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Io { .. }
            | Error::Format { .. }
            | Error::Parse { .. }
            | Error::InvalidGraph(_)
            | Error::InvalidArgument(_)
            | Error::SourceOutOfRange { .. }
            | Error::DistanceOverflow { .. }
            | Error::Index { .. }
            | Error::NoHierarchy(_) => 2,
            Error::Write { .. }
            | Error::NoGpu(_)
            | Error::Cuda { .. }
            | Error::OutOfMemory { .. }
            | Error::HostMemory { .. }
            | Error::Mismatch { .. }
            | Error::TreeMismatch { .. }
            | Error::CertificateFailed { .. }
            | Error::Internal(_) => 1,
        }
    }

    /// The same error with its vertex ids in an input numbering that starts at
    /// `base` (1 for DIMACS and Matrix Market files): the library speaks of
    /// 0-based graph vertices, a person of the file's ids.
    pub fn renumbered(self, base: u32) -> Error {
        self.with_vertex(|v| v + base as usize)
    }

    /// The same error with the vertex it names mapped by `map` (into another
    /// numbering, or from an index into a list of vertices).
    pub fn with_vertex(self, map: impl Fn(usize) -> usize) -> Error {
        let shift = map;
        match self {
            Error::DistanceOverflow {
                vertex,
                count,
                weight_type,
                max,
            } => Error::DistanceOverflow {
                vertex: shift(vertex),
                count,
                weight_type,
                max,
            },
            Error::Mismatch {
                vertex,
                expected,
                found,
                count,
                num_vertices,
            } => Error::Mismatch {
                vertex: shift(vertex),
                expected,
                found,
                count,
                num_vertices,
            },
            Error::TreeMismatch {
                vertex,
                expected,
                found,
                count,
                num_vertices,
            } => Error::TreeMismatch {
                vertex: shift(vertex),
                expected,
                found,
                count,
                num_vertices,
            },
            Error::CertificateFailed {
                source_vertex,
                vertex,
                reason,
            } => Error::CertificateFailed {
                source_vertex: shift(source_vertex),
                vertex: shift(vertex),
                reason,
            },
            other => other,
        }
    }

    /// Wraps a driver error with what was being done.
    pub fn cuda(context: impl Into<String>) -> impl FnOnce(DriverError) -> Error {
        let context = context.into();
        move |source| Error::Cuda { context, source }
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
