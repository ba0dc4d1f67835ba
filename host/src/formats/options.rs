//! How to read a graph file beyond its format ([`LoadOptions`]).

use std::path::Path;

use crate::graph::WeightKind;
use crate::{Error, Result};

/// How to read a graph file, beyond its format: what the file itself does not
/// settle. The default reads every file as it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LoadOptions {
    /// The type to read a text file's weights as (`--weights`); `None`: the
    /// format's own (`u32`, or `f32` for Matrix Market `real`). A g.csr file's
    /// type is in its header: asking for the other one is an error rather than
    /// a reinterpretation of its words.
    pub weights: Option<WeightKind>,
}

impl LoadOptions {
    /// Options that read weights as `kind`.
    pub fn with_weights(kind: WeightKind) -> LoadOptions {
        LoadOptions {
            weights: Some(kind),
        }
    }

    /// The weight type of a text format whose own type is `native`, or why
    /// [`LoadOptions::weights`] cannot apply (`--weights u32` on `f32` text,
    /// whose reals would be truncated).
    pub(crate) fn text_weights(
        self,
        native: WeightKind,
    ) -> std::result::Result<WeightKind, String> {
        match (self.weights, native) {
            (None, kind) => Ok(kind),
            (Some(WeightKind::U32), WeightKind::F32) => Err(
                "--weights u32 does not apply: this file's weights are reals, read as f32 \
                 (reading them as u32 would truncate them); leave out --weights"
                    .into(),
            ),
            (Some(kind), _) => Ok(kind),
        }
    }

    /// Checks a g.csr file's weight type (from its header) against
    /// [`LoadOptions::weights`].
    pub(crate) fn check_csr_weights(self, path: &Path, found: WeightKind) -> Result<()> {
        match self.weights {
            Some(kind) if kind != found => Err(Error::InvalidArgument(format!(
                "{}: --weights {} does not apply: this g.csr file has {} weights (its header's \
                 weight_type), and a g.csr file is read as its header says; leave out --weights",
                path.display(),
                kind.name(),
                found.name(),
            ))),
            _ => Ok(()),
        }
    }
}
