//! Host memory sized by the input is reserved before it is filled: what
//! cannot be had is `Error::HostMemory` (exit code 1, Python's
//! `MemoryError`), not an abort.

use sssp::Error;
use sssp::memory::{check_fits, check_rows, zeroed};

fn host_memory<T: std::fmt::Debug>(result: sssp::Result<T>) -> (String, u64) {
    match result {
        Err(error @ Error::HostMemory { .. }) => {
            assert_eq!(error.exit_code(), 1);
            let Error::HostMemory { what, bytes } = &error else {
                unreachable!()
            };
            assert!(error.to_string().starts_with("out of memory: "), "{error}");
            (what.clone(), *bytes)
        }
        other => panic!("expected an out-of-memory error, got {other:?}"),
    }
}

#[test]
fn rows_that_cannot_fit_are_refused() {
    // 4 PiB of distances: more than any address space holds today.
    let (what, bytes) = host_memory(check_rows(1 << 20, 1 << 30, 4));
    assert_eq!(bytes, 1 << 52);
    assert!(
        what.contains("1048576 rows of 1073741824 vertices"),
        "{what}"
    );
    // A product beyond 64 bits.
    let (_, bytes) = host_memory(check_rows(usize::MAX, usize::MAX, 8));
    assert_eq!(bytes, u64::MAX);
    check_rows(1000, 1000, 8).expect("8 MB fit");
}

#[test]
fn a_vector_that_cannot_fit_is_refused() {
    let (what, _) = host_memory(zeroed::<u64>(usize::MAX / 16, || "the test's words".into()));
    assert_eq!(what, "the test's words");
    assert_eq!(zeroed::<u32>(5, String::new).unwrap(), vec![0; 5]);
    host_memory(check_fits(None, || "nothing".into()));
}
