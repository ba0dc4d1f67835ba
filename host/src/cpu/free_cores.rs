//! How many cores the machine leaves to a solve now: `delta-cpu`'s threads
//! wait for each other at every round, so a thread without a core stalls
//! them all. Where other work keeps the cores busy, the solve starts with
//! fewer threads instead of finding out round by round
//! ([`super::crowding`]).

/// The threads running on the machine now, this one included: Linux's
/// `procs_running` (in `/proc/stat`); `None` where it cannot be read.
fn running_now() -> Option<usize> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    parse_running(&stat)
}

/// `procs_running` of a `/proc/stat` text.
fn parse_running(stat: &str) -> Option<usize> {
    stat.lines()
        .find_map(|line| line.strip_prefix("procs_running "))
        .and_then(|count| count.trim().parse().ok())
}

/// Of `cores`, those that no other running thread holds now (at least one:
/// the calling thread's own); all of them where that cannot be told.
pub fn free_cores(cores: usize) -> usize {
    free_of(cores, running_now())
}

/// [`free_cores`] given the running threads (`None`: unknown).
fn free_of(cores: usize, running: Option<usize>) -> usize {
    match running {
        // The caller is one of the running threads.
        Some(running) => cores.saturating_sub(running.saturating_sub(1)).max(1),
        None => cores.max(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_procs_running() {
        let stat = "cpu  1 2 3\nctxt 99\nprocs_running 17\nprocs_blocked 0\n";
        assert_eq!(parse_running(stat), Some(17));
        assert_eq!(parse_running("cpu 1 2 3\n"), None);
    }

    #[test]
    fn counts_the_caller_as_its_own() {
        assert_eq!(free_of(16, Some(1)), 16);
        assert_eq!(free_of(16, Some(9)), 8);
        assert_eq!(free_of(16, Some(40)), 1);
        assert_eq!(free_of(16, None), 16);
        assert_eq!(free_of(0, Some(0)), 1);
    }
}
