//! `host`: the command-line program. `host --graph g.csr` solves SSSP on the GPU;
//! `host gen` writes the papers' random graphs; `host ptx` prints the kernels' PTX.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            let mut source = std::error::Error::source(&error);
            while let Some(cause) = source {
                eprintln!("  caused by: {cause}");
                source = cause.source();
            }
            ExitCode::from(error.exit_code() as u8)
        }
    }
}
