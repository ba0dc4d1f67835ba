//! Compiles the `gpu-kernels` crate to PTX and hands it to the host crate.
//!
//! A nested `cargo rustc` builds the kernels for `nvptx64-nvidia-cuda` with `core`
//! built from source (`-Zbuild-std=core`), the workspace's `kernels` profile
//! (panics trap) and `--emit=asm`, which for this target is PTX; no linker runs.
//! The PTX lands in `$OUT_DIR/kernels.ptx`, which `src/gpu/ptx.rs` embeds.
//!
//! `SSSP_PTX_ARCH` picks the GPU architecture (default `sm_90`, the H100).

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "nvptx64-nvidia-cuda";
const DEFAULT_ARCH: &str = "sm_90";

fn main() {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let workspace = manifest_dir
        .parent()
        .expect("host/ lives in the workspace root");
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("set by cargo"));

    for path in [
        "gpu-kernels/src",
        "gpu-kernels/Cargo.toml",
        "Cargo.toml",
        "rust-toolchain.toml",
    ] {
        println!("cargo::rerun-if-changed={}", workspace.join(path).display());
    }
    println!("cargo::rerun-if-env-changed=SSSP_PTX_ARCH");
    let arch = env::var("SSSP_PTX_ARCH").unwrap_or_else(|_| DEFAULT_ARCH.to_string());
    if !arch.starts_with("sm_") {
        fail(&format!(
            "SSSP_PTX_ARCH must look like `sm_90`, got `{arch}`"
        ));
    }

    check_rust_src();

    // A target dir of its own: the outer cargo holds the lock of its own, and the
    // kernels must not share artifacts with host builds.
    let target_dir = kernel_target_dir(&out_dir);
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut command = Command::new(cargo);
    command
        .current_dir(workspace)
        .args([
            "rustc",
            "--package",
            "gpu-kernels",
            "--lib",
            "--profile",
            "kernels",
        ])
        .args(["--target", TARGET, "-Zbuild-std=core"])
        .arg("--target-dir")
        .arg(&target_dir)
        .args(["--", "--emit=asm", "-C"])
        .arg(format!("target-cpu={arch}"));
    // The outer build's settings are not the kernels' (clippy's wrapper, host
    // RUSTFLAGS, a target dir or target triple given to the outer cargo).
    for var in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_BUILD_RUSTC_WRAPPER",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "CARGO_PROFILE_RELEASE_DEBUG",
    ] {
        command.env_remove(var);
    }
    let status = command
        .status()
        .unwrap_or_else(|e| fail(&format!("could not run cargo for the kernels: {e}")));
    if !status.success() {
        fail("building gpu-kernels for nvptx64-nvidia-cuda failed (see the errors above)");
    }

    let deps = target_dir.join(TARGET).join("kernels").join("deps");
    let ptx = newest_ptx(&deps).unwrap_or_else(|| {
        fail(&format!(
            "the kernel build left no gpu_kernels-*.s in {}",
            deps.display()
        ))
    });
    let text = fs::read_to_string(&ptx)
        .unwrap_or_else(|e| fail(&format!("reading {}: {e}", ptx.display())));
    let text = with_launch_bounds(&text);
    fs::write(out_dir.join("kernels.ptx"), text)
        .unwrap_or_else(|e| fail(&format!("writing kernels.ptx: {e}")));
    println!("cargo::rustc-env=SSSP_PTX_ARCH={arch}");
}

/// The PTX with a `.maxntid` directive (CUDA's `__launch_bounds__`), and
/// `.minnctapersm` where asked, on each kernel of
/// [`gpu_kernels::launch::LAUNCH_BOUNDS`], between its parameter list and its
/// body: rustc has no attribute for them, and without them `ptxas` may give a
/// kernel more registers than a block of that size can have (the launch then
/// fails). `ptxas` keeps such kernels within 65536 / (threads × blocks)
/// registers.
///
/// The parameter list ends at the last `)` of the kernel's header, the text
/// from `.entry name(` to the `{` that opens its body (`.entry name()` for a
/// kernel without parameters); nothing past that `{` is searched, so another
/// kernel is never patched.
fn with_launch_bounds(ptx: &str) -> String {
    let mut out = ptx.to_string();
    for &(name, threads, blocks) in gpu_kernels::launch::LAUNCH_BOUNDS {
        let entry = format!(".entry {name}(");
        let start = out
            .find(&entry)
            .unwrap_or_else(|| fail(&format!("no `.entry {name}` in the PTX")));
        let body = out[start..]
            .find('{')
            .unwrap_or_else(|| fail(&format!("no body after `.entry {name}` in the PTX")));
        let close = out[start..start + body]
            .rfind(')')
            .unwrap_or_else(|| fail(&format!("no end of the parameters of `{name}`")));
        let at = start + close + 1;
        let mut bounds = format!("\n.maxntid {threads}, 1, 1");
        if blocks > 0 {
            bounds.push_str(&format!("\n.minnctapersm {blocks}"));
        }
        out.insert_str(at, &bounds);
    }
    out
}

/// `<target>/<profile>/kernel-ptx`, next to the outer build's `build/` folder, so
/// that core is built once per host profile, not once per build-script hash.
fn kernel_target_dir(out_dir: &Path) -> PathBuf {
    out_dir
        .ancestors()
        .find(|p| p.file_name().is_some_and(|n| n == "build"))
        .and_then(Path::parent)
        .map(|profile_dir| profile_dir.join("kernel-ptx"))
        .unwrap_or_else(|| out_dir.join("kernel-ptx"))
}

/// `-Zbuild-std` needs the standard library's sources from the `rust-src`
/// component; say how to get it instead of letting cargo fail obscurely.
fn check_rust_src() {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let sysroot = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let Some(sysroot) = sysroot else {
        fail(&format!("could not ask `{rustc} --print sysroot`"));
    };
    let core = sysroot.join("lib/rustlib/src/rust/library/core");
    if !core.is_dir() {
        fail(&format!(
            "the `rust-src` component is missing from the toolchain at {}.\n\
             The GPU kernels are built with -Zbuild-std=core, which needs it. Install the \
             pinned toolchain with all its components by running, in the repository root:\n    \
             rustup toolchain install\n\
             (or: rustup component add rust-src llvm-tools --toolchain nightly-2026-05-20)",
            sysroot.display()
        ));
    }
}

fn newest_ptx(deps: &Path) -> Option<PathBuf> {
    fs::read_dir(deps)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "s")
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("gpu_kernels-"))
        })
        .max_by_key(|p| fs::metadata(p).and_then(|m| m.modified()).ok())
}

fn fail(message: &str) -> ! {
    eprintln!("\nerror: {message}\n");
    std::process::exit(1);
}
