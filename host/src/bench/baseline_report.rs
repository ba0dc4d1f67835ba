//! A baseline's driver run once, and the `key=value` fields of what it
//! printed (RoutingKit's `rk_ch` and `rk_cch`, `../shared/baselines`).

use std::path::Path;
use std::process::Command;

use sssp::{Error, Result};

/// What a driver printed, and whether it exited successfully.
pub struct Report {
    /// Its standard output.
    pub text: String,
    /// Whether it exited with status 0.
    pub success: bool,
    /// Its exit status, for a message.
    pub status: String,
}

impl Report {
    /// Runs `program` with `args` and keeps its standard output.
    pub fn of(program: &Path, args: &[&std::ffi::OsStr]) -> Result<Report> {
        let output = Command::new(program)
            .args(args)
            .output()
            .map_err(|source| Error::Io {
                path: program.to_path_buf(),
                source,
            })?;
        Ok(Report {
            text: String::from_utf8_lossy(&output.stdout).into_owned(),
            success: output.status.success(),
            status: output.status.to_string(),
        })
    }

    /// The number after `key` (which ends with `=`) in the first field
    /// that starts with it.
    pub fn value<T: std::str::FromStr>(&self, key: &str) -> Option<T> {
        self.text
            .split_whitespace()
            .find_map(|field| field.strip_prefix(key))
            .and_then(|v| v.parse().ok())
    }
}
