//! The embedded PTX: every kernel the host launches is an entry of it (and no
//! other), for the configured architecture, with no unresolved functions, and
//! takes exactly the parameters of its argument struct (`gpu_kernels::args`);
//! the partition solver touches shared memory only with atomics.

use gpu_kernels::args::*;
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

/// The text of entry `name` in `ptx`: from its `.entry` header to the next
/// entry (or the end).
fn entry_text<'a>(ptx: &'a str, name: &str) -> &'a str {
    let start = ptx
        .find(&format!(".entry {name}("))
        .unwrap_or_else(|| panic!("no entry `{name}`"));
    let rest = &ptx[start..];
    let end = rest[1..].find(".entry ").map_or(rest.len(), |e| e + 1);
    &rest[..end]
}

#[test]
fn every_launch_bound_is_written_into_its_entry() {
    for &(name, threads, blocks) in gpu_kernels::launch::LAUNCH_BOUNDS {
        let entry = entry_text(PTX, name);
        let header = &entry[..entry.find('{').expect("an entry has a body")];
        assert!(
            header.contains(&format!(".maxntid {threads}, 1, 1")),
            "`{name}` lacks `.maxntid {threads}, 1, 1` before its body"
        );
        assert_eq!(
            header.contains(&format!(".minnctapersm {blocks}")),
            blocks > 0,
            "`{name}`: `.minnctapersm {blocks}` before its body where asked, none elsewhere"
        );
    }
}

/// The parameters of entry `name` in `ptx`, `(offset, size)` each, laid out
/// as the driver lays out kernel parameters: in order, each at a multiple of
/// its alignment (its size for a scalar, `.align` for a `.b8` array).
fn parameter_layout(ptx: &str, name: &str) -> Vec<(usize, usize)> {
    let entry = entry_text(ptx, name);
    let list = &entry[..entry.find(')').expect("a parameter list ends")];
    let mut end = 0usize;
    list.lines()
        .filter_map(|line| line.trim().strip_prefix(".param "))
        .map(|param| {
            let words: Vec<&str> = param.split_whitespace().collect();
            let (size, align) = if words[0] == ".align" {
                let align: usize = words[1].parse().expect("an alignment");
                let count = param.split('[').nth(1).expect("a .b8 array has a length");
                let count: usize = count
                    .trim_end_matches([']', ','])
                    .parse()
                    .expect("a length");
                (count, align)
            } else {
                let size = match &words[0][2..] {
                    "8" => 1,
                    "16" => 2,
                    "32" => 4,
                    "64" => 8,
                    other => panic!("`{name}`: parameter type `{other}` in `{param}`"),
                };
                (size, size)
            };
            let offset = end.next_multiple_of(align);
            end = offset + size;
            (offset, size)
        })
        .collect()
}

/// Why `A`'s fields are not entry `name`'s parameters in `ptx`, if they are not.
fn layout_mismatch<A: KernelArgs>(ptx: &str, name: &str) -> Option<String> {
    let expected: Vec<(usize, usize)> = A::PARAMS.iter().map(|p| (p.offset, p.size)).collect();
    let found = parameter_layout(ptx, name);
    (expected != found).then(|| {
        format!(
            "`{name}` takes parameters at (offset, size) {found:?}, but {} lays out {:?} as {expected:?}",
            std::any::type_name::<A>(),
            A::PARAMS.iter().map(|p| p.name).collect::<Vec<_>>(),
        )
    })
}

/// Checks every entry of `A` against the PTX and notes it as covered.
fn check_args<A: KernelArgs>(covered: &mut Vec<&'static str>) {
    for &name in A::ENTRIES {
        if let Some(why) = layout_mismatch::<A>(PTX, name) {
            panic!("{why}");
        }
        assert!(
            !covered.contains(&name),
            "`{name}` has two argument structs"
        );
        covered.push(name);
    }
}

#[test]
fn every_entry_takes_the_fields_of_its_argument_struct() {
    let mut covered = Vec::new();
    macro_rules! check {
        ($($args:ty),+ $(,)?) => { $(check_args::<$args>(&mut covered);)+ };
    }
    check!(
        VertexFlagsArgs,
        Da2cfRelaxArgs,
        Da2cfMinimum1Args,
        Da2cfMinimum2Args,
        CrauserDeltaNodeArgs,
        CrauserMinimum1Args,
        BellmanFordBlockArgs,
        BellmanFordGridArgs,
        StatsCountFlagsArgs,
        MatrixRelaxArgs,
        MatrixDeltaNodeArgs,
        CompactInitializeArgs,
        CompactBlockLoopArgs,
        CompactGridLoopArgs,
        ParentsJoinRoundArgs,
        CertificateCheckArgs,
        CertificateTreeArgs,
        CertificatePushArgs,
        CertificateVerdictArgs,
        RowsGatherArgs,
        NearFarInitializeArgs,
        NearFarBlockLoopArgs,
        NearFarGridLoopArgs,
        PartitionInitializeArgs,
        PartitionSolveArgs,
        PhastClearArgs,
        PhastScatterArgs,
        PhastColumnsArgs,
        PhastSweepArgs,
        PhastRowsArgs,
        CchCustomizeArgs,
        PairQueryArgs,
        ReductionsWithinPartArgs,
        ReductionsWithinTotalArgs,
        ReductionsNearestArgs,
    );
    for entry in entries(PTX) {
        assert!(
            covered.contains(&entry),
            "PTX entry `{entry}` has no argument struct in gpu_kernels::args"
        );
    }
}

#[test]
fn a_struct_that_is_not_the_entrys_parameters_is_caught() {
    // Same count, other sizes: pointers where the entry takes `u32`s.
    assert!(layout_mismatch::<VertexFlagsArgs>(PTX, names::DA2CF_MINIMUM2).is_some());
    // One parameter more: the grid loop's barrier.
    let block_loop = names::NEAR_FAR_BLOCK_LOOP.u32;
    assert!(layout_mismatch::<NearFarGridLoopArgs>(PTX, block_loop).is_some());
    // A by-value struct parameter is laid out from its `.align` and length.
    let by_value = ".entry k(\n\t.param .align 8 .b8 k_param_0[24],\n\t.param .u32 k_param_1\n)";
    assert_eq!(parameter_layout(by_value, "k"), vec![(0, 24), (24, 4)]);
    let scalars = ".entry k(\n\t.param .u32 k_param_0,\n\t.param .u64 .ptr .align 1 k_param_1\n)";
    assert_eq!(parameter_layout(scalars, "k"), vec![(0, 4), (8, 8)]);
}

/// The shared-memory loads and stores of `body` that are neither relaxed
/// atomics nor `atom`s, and how many shared-memory loads and stores it has.
fn non_atomic_shared_accesses(body: &str) -> (Vec<&str>, usize) {
    let shared: Vec<&str> = body
        .lines()
        .map(str::trim)
        .filter(|l| (l.starts_with("ld.") || l.starts_with("st.")) && l.contains(".shared"))
        .collect();
    let count = shared.len();
    let plain = shared
        .into_iter()
        .filter(|l| !l.contains(".relaxed."))
        .collect();
    (plain, count)
}

#[test]
fn the_partition_solver_touches_shared_memory_only_atomically() {
    // Its roles hand words over with fences and no barrier
    // (`gpu_kernels::partition`), so every shared-memory load and store must
    // be a relaxed atomic (morally strong in the PTX memory model) or an
    // `atom`: a plain `ld.shared`/`st.shared` there would be a data race.
    // (compute-sanitizer's racecheck does not model relaxed atomics and
    // reports the handovers anyway; docs/PERFORMANCE.md.)
    for name in [
        names::PARTITION_SOLVE.u32,
        names::PARTITION_SOLVE.f32,
        names::PARTITION_PAGED.u32,
        names::PARTITION_PAGED.f32,
    ] {
        let (plain, count) = non_atomic_shared_accesses(entry_text(PTX, name));
        assert!(count > 0, "`{name}` has no shared-memory load or store");
        assert!(
            plain.is_empty(),
            "`{name}` accesses shared memory non-atomically: {plain:?}"
        );
    }
    // The check itself tells the two kinds apart.
    let sample = "\tld.relaxed.sys.shared.b32 \t%r1, [%rd2];\n\tld.shared.u32 \t%r3, [%rd4];\n\tst.global.b32 \t[%rd5], %r1;";
    assert_eq!(
        non_atomic_shared_accesses(sample),
        (vec!["ld.shared.u32 \t%r3, [%rd4];"], 2)
    );
}

/// The PTX shipped with the crate (what a toolchain other than the pinned
/// nightly, stable Rust say, embeds) is the PTX the kernels' sources build:
/// after a kernel change, `cargo run -p host -- ptx --output
/// host/kernels/kernels.ptx` brings it up to date.
#[test]
fn the_shipped_ptx_is_what_the_sources_build() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../host/kernels/kernels.ptx");
    let shipped = std::fs::read_to_string(path).expect("host/kernels/kernels.ptx is readable");
    if sssp::gpu::ptx::BUILT_FROM != "source" || ARCH != "sm_90" {
        eprintln!("the kernels were not built from source here: nothing to compare");
        return;
    }
    let first_difference = shipped.lines().zip(PTX.lines()).position(|(a, b)| a != b);
    assert!(
        shipped == PTX,
        "host/kernels/kernels.ptx differs from the PTX built from gpu-kernels/src \
         (first differing line: {first_difference:?}, {} against {} bytes); run \
         `cargo run -p host -- ptx --output host/kernels/kernels.ptx`",
        shipped.len(),
        PTX.len()
    );
}
