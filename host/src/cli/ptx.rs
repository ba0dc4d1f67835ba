//! `host ptx`: the PTX of the kernels embedded in this binary.

use std::io::Write;
use std::path::PathBuf;

use sssp::Result;

/// Writes the PTX to `output`, or to standard output.
pub fn write(output: Option<PathBuf>) -> Result<()> {
    let ptx = sssp::gpu::ptx::PTX;
    match output {
        Some(path) => {
            sssp::formats::atomic::write_atomically(&path, |out| out.write_all(ptx.as_bytes()))
        }
        None => {
            print!("{ptx}");
            Ok(())
        }
    }
}
