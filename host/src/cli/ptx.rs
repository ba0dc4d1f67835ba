//! `host ptx`: the PTX of the kernels embedded in this binary.

use std::path::PathBuf;

use sssp::Result;

/// Writes the PTX to `output`, or to standard output.
pub fn write(output: Option<PathBuf>) -> Result<()> {
    let ptx = sssp::gpu::ptx::PTX;
    match output {
        Some(path) => std::fs::write(&path, ptx).map_err(|source| sssp::Error::Io { path, source }),
        None => {
            print!("{ptx}");
            Ok(())
        }
    }
}
