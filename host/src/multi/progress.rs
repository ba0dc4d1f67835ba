//! A progress line on stderr for long spreads (all-pairs accessibility).

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A progress line on stderr, redrawn in place on a terminal (else a line
/// each time) at most four times a second.
pub struct Meter {
    what: &'static str,
    shown: bool,
    terminal: bool,
    last: Mutex<Option<Instant>>,
}

impl Meter {
    /// A meter of `what` (the line's first word), shown when `shown`.
    pub fn new(what: &'static str, shown: bool) -> Meter {
        Meter {
            what,
            shown,
            terminal: std::io::stderr().is_terminal(),
            last: Mutex::new(None),
        }
    }

    /// Sources `done` of `total`, if the last line is old enough.
    pub fn show(&self, done: usize, total: usize) {
        if !self.shown {
            return;
        }
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let due = last.is_none_or(|t| t.elapsed() >= Duration::from_millis(250));
        if due || done == total {
            *last = Some(Instant::now());
            let percent = 100.0 * done as f64 / total.max(1) as f64;
            let line = format!("{} {done} of {total} sources ({percent:.1}%)", self.what);
            match self.terminal {
                true => eprint!("\r{line}"),
                false => eprintln!("{line}"),
            }
        }
    }

    /// Ends the line.
    pub fn end(&self) {
        if self.shown && self.terminal {
            eprintln!();
        }
    }
}
