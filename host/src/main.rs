//! `host`: the command-line program. `host --graph g.csr` solves SSSP on the GPU;
//! `host gen` writes the papers' random graphs; `host ptx` prints the kernels' PTX.

mod bench;
mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    restore_sigpipe();
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            // A cause is printed unless the message above already says it
            // (an I/O error's message names its cause).
            let mut said = error.to_string();
            let mut source = std::error::Error::source(&error);
            while let Some(cause) = source {
                let text = cause.to_string();
                if !said.contains(&text) {
                    eprintln!("  caused by: {text}");
                }
                said = text;
                source = cause.source();
            }
            ExitCode::from(error.exit_code() as u8)
        }
    }
}

/// Rust ignores SIGPIPE, so printing to a pipe whose reader has gone (`host
/// ptx | head`) would panic; with the default action the process ends
/// quietly, as other command-line tools do.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first in `main`, before any other thread runs, with a
    // valid signal number and the default action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
