//! The embedded PTX: every kernel the host launches is an entry of it (and no
//! other), for the configured architecture, with no unresolved functions.

use gpu_kernels::launch::names;
use sssp::gpu::ptx::{ARCH, PTX, entries};

#[test]
fn every_kernel_name_is_an_entry_of_the_ptx() {
    let found = entries(PTX);
    for name in names::ALL {
        assert!(
            found.contains(name),
            "kernel `{name}` is not an .entry of the PTX (entries: {found:?})"
        );
    }
    for entry in &found {
        assert!(
            names::ALL.contains(entry),
            "PTX entry `{entry}` is not listed in gpu_kernels::launch::names::ALL"
        );
    }
}

#[test]
fn ptx_targets_the_configured_architecture() {
    assert!(
        PTX.lines().any(|l| l.trim() == format!(".target {ARCH}")),
        "no `.target {ARCH}` line"
    );
    assert!(
        !PTX.contains(".extern .func"),
        "the PTX calls a function it does not define"
    );
}

#[test]
fn every_launch_bound_is_written_into_its_entry() {
    for &(name, threads) in gpu_kernels::launch::LAUNCH_BOUNDS {
        let start = PTX
            .find(&format!(".entry {name}("))
            .unwrap_or_else(|| panic!("no entry `{name}`"));
        let body = start + PTX[start..].find('{').expect("an entry has a body");
        assert!(
            PTX[start..body].contains(&format!(".maxntid {threads}, 1, 1")),
            "`{name}` lacks `.maxntid {threads}, 1, 1` before its body"
        );
    }
}
