//! `host`: the command-line program. `host --graph g.csr` solves SSSP on the GPU;
//! `host gen` writes the papers' random graphs; `host ptx` prints the kernels' PTX.

mod bench;
mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    restore_sigpipe();
    let args = cli::Cli::parse();
    // A panic, here or in a worker thread, is a bug: an error with exit code 1.
    let code = match sssp::panics::catching("the program", || cli::run(args)) {
        Ok(()) => 0,
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
            error.exit_code() as u8
        }
    };
    exit_now(code)
}

/// Ends the process with `code` once the output is flushed, without the
/// teardown at exit: a device still opening on another thread (the CPU
/// answered first) is not waited for, and the driver frees the device with
/// the process.
fn exit_now(code: u8) -> ExitCode {
    use std::io::Write;
    let flushed = std::io::stdout().flush().is_ok() && std::io::stderr().flush().is_ok();
    #[cfg(unix)]
    if flushed {
        // SAFETY: `_exit` ends the process; every file the program wrote was
        // closed before `cli::run` returned and the standard streams are
        // flushed, so nothing is lost by skipping destructors and atexit.
        unsafe { libc::_exit(i32::from(code)) }
    }
    ExitCode::from(code)
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
