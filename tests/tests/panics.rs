//! A panic in a worker of any of the library's thread pools ends the call
//! with `Error::Internal` (exit code 1 on the command line, an exception in
//! Python) instead of hanging or aborting the process: workers of rayon's
//! pool and of `std::thread::scope` hand their panics to the waiting thread,
//! where `sssp::panics::catching` (around the CLI's `run` and Python's
//! solves) turns them into the error. Each case runs on a thread of its own
//! and must answer within a minute.

use std::sync::mpsc;
use std::time::Duration;

use rayon::prelude::*;
use sssp::Error;
use sssp::panics::catching;

/// Runs `case` on a thread of its own and returns its error, failing the
/// test if it takes longer than a minute (a worker waited for forever).
fn internal_error(case: impl FnOnce() -> sssp::Result<()> + Send + 'static) -> String {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || send.send(case()));
    let answer = receive
        .recv_timeout(Duration::from_secs(60))
        .expect("the call hung after a worker panicked");
    match answer {
        Err(Error::Internal(message)) => message,
        other => panic!("expected an internal error, got {other:?}"),
    }
}

#[test]
fn a_panic_in_a_rayon_worker_is_an_internal_error() {
    let message = internal_error(|| {
        catching("a rayon pool", || {
            let total: u64 = (0..1_000_000u64)
                .into_par_iter()
                .map(|i| {
                    if i == 777_777 {
                        panic!("worker {i} fails")
                    } else {
                        i
                    }
                })
                .sum();
            Ok(std::hint::black_box(total)).map(|_| ())
        })
    });
    assert!(message.contains("a rayon pool panicked"), "{message}");
    assert!(message.contains("worker 777777 fails"), "{message}");
    assert_eq!(
        Error::Internal(message).exit_code(),
        1,
        "an internal error exits with 1"
    );
    // The pool still works.
    let sum: u64 = (0..1000u64).into_par_iter().sum();
    assert_eq!(sum, 999 * 1000 / 2);
}

#[test]
fn a_panic_in_a_scoped_thread_is_an_internal_error() {
    let message = internal_error(|| {
        catching("scoped threads", || {
            let mut words = vec![0u32; 4096];
            std::thread::scope(|scope| {
                for (k, chunk) in words.chunks_mut(1024).enumerate() {
                    scope.spawn(move || {
                        assert!(k != 2, "chunk {k} fails");
                        chunk.fill(k as u32);
                    });
                }
            });
            Ok(())
        })
    });
    assert!(message.contains("scoped threads panicked"), "{message}");
}

#[test]
fn a_panic_in_rayon_inside_a_scoped_thread_is_an_internal_error() {
    let message = internal_error(|| {
        catching("nested pools", || {
            std::thread::scope(|scope| {
                scope.spawn(|| {
                    (0..64usize).into_par_iter().for_each(|i| {
                        if i == 63 {
                            std::panic::panic_any(format!("item {i}"));
                        }
                    })
                });
            });
            Ok(())
        })
    });
    assert!(message.contains("nested pools panicked"), "{message}");
}

#[test]
fn a_panic_without_a_message_is_named() {
    let message = internal_error(|| catching("a call", || std::panic::panic_any(7u8)));
    assert_eq!(message, "a call panicked: a panic");
}

#[test]
fn errors_and_values_pass_through() {
    assert_eq!(catching("a call", || Ok(3)).unwrap(), 3);
    let error = catching::<()>("a call", || Err(Error::InvalidArgument("x".into())));
    assert!(matches!(error, Err(Error::InvalidArgument(_))));
}
