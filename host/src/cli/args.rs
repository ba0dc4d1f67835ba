//! Arguments shared by the commands: the library's enums as command-line
//! values, the load options of `--weights`, and counts with binary suffixes.

use clap::ValueEnum;
use clap::builder::PossibleValue;
use sssp::formats::output::OutputFormat;
use sssp::formats::{Format, LoadOptions};
use sssp::graph::WeightKind;
use sssp::partition::shortcuts::Shortcuts;

/// A library enum as a command-line value: each variant with the name the
/// option takes and its help line.
macro_rules! value_enum {
    ($(#[$doc:meta])* $name:ident($inner:ty) {
        $($variant:path => $value:literal: $help:expr),+ $(,)?
    }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $name(pub $inner);

        impl ValueEnum for $name {
            fn value_variants<'a>() -> &'a [Self] {
                &[$($name($variant)),+]
            }

            fn to_possible_value(&self) -> Option<PossibleValue> {
                match self.0 {
                    $($variant => Some(PossibleValue::new($value).help($help)),)+
                }
            }
        }

        impl From<$name> for $inner {
            fn from(arg: $name) -> $inner {
                arg.0
            }
        }
    };
}

value_enum! {
    /// A graph file format, as `--format` names it.
    FormatArg(Format) {
        Format::Csr => "csr": "The binary g.csr format (graphs/README.md)",
        Format::Dimacs => "dimacs":
            "DIMACS 9th Challenge shortest paths (`p sp N M`, `a U V W`; 1-based)",
        Format::MatrixMarket => "mtx": "Matrix Market coordinate (1-based; entry I J V is an arc I -> J)",
        Format::EdgeList => "edgelist": "Edge list (`U V [W]` per line, `#`/`%` comments; 0-based)",
    }
}

value_enum! {
    /// A weight type, as `--weights` names it.
    WeightsArg(WeightKind) {
        WeightKind::U32 => "u32": "Non-negative integers that fit in 32 bits",
        WeightKind::F32 => "f32": "Non-negative finite IEEE-754 single-precision floats (reals \
                                   rounded to the nearest f32)",
    }
}

value_enum! {
    /// The graph's representation on the device, as `--layout` names it.
    LayoutArg(sssp::algorithms::Layout) {
        sssp::algorithms::Layout::List => "list": "Adjacency lists (CSR)",
        sssp::algorithms::Layout::Matrix => "matrix": "Adjacency matrix",
    }
}

value_enum! {
    /// Where `partition` adds shortcuts to its pieces (`sssp::partition::shortcuts`), as
    /// `--shortcuts` names it.
    ShortcutsArg(Shortcuts) {
        Shortcuts::Auto => "auto": "In resident mode, and in paged mode where fewer shortcuts \
                                    than arcs are estimated (road networks, not grids)",
        Shortcuts::Always => "always": "Always",
        Shortcuts::Never => "never": "Never",
    }
}

value_enum! {
    /// How `--output` writes distances and `--parents` the tree.
    OutputFormatArg(OutputFormat) {
        OutputFormat::Text => "text":
            "`vertex distance` (`vertex parent`) lines with the input's vertex ids (1-based for \
             .gr and .mtx), `inf` when unreachable (`-` for no parent); f32 distances in the \
             shortest form that reads back to the same float. With --sources: `source vertex \
             distance` lines",
        OutputFormat::Bin => "bin":
            "Raw little-endian values, one per vertex in order (no header): distances as u32s, \
             4294967295 (u32::MAX) when unreachable, or for f32 weights as f32s, +inf when \
             unreachable; parents as 0-based u32 ids, 4294967295 for no parent. With --sources: \
             one row per source, in order (a row-major sources × vertices matrix)",
    }
}

/// The load options of a `--weights` argument.
pub fn load_options(weights: Option<WeightsArg>) -> LoadOptions {
    LoadOptions {
        weights: weights.map(Into::into),
    }
}

/// Parses a count with an optional binary suffix: `1048576`, `1Mi`, `11Mi`, `64Ki`, `1Gi`.
pub fn parse_count(text: &str) -> std::result::Result<usize, String> {
    let (digits, scale) = match text {
        t if t.ends_with("Ki") => (&t[..t.len() - 2], 1usize << 10),
        t if t.ends_with("Mi") => (&t[..t.len() - 2], 1 << 20),
        t if t.ends_with("Gi") => (&t[..t.len() - 2], 1 << 30),
        t => (t, 1),
    };
    let value: usize = digits
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a count (examples: 1000, 64Ki, 11Mi)"))?;
    value
        .checked_mul(scale)
        .ok_or_else(|| format!("`{text}` is too large"))
}
