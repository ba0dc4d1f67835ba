//! Compiles the `gpu-kernels` crate to PTX and hands it to the host crate.
//!
//! With the pinned nightly (`rust-toolchain.toml`, with `rust-src`), a nested
//! `cargo rustc` builds the kernels for `nvptx64-nvidia-cuda` with `core` built
//! from source (`-Zbuild-std=core`), panics as immediate aborts (they trap) and
//! `--emit=asm`, which for this target is PTX; no linker runs. Any other
//! toolchain (stable Rust, say) takes the PTX shipped with the crate,
//! `host/kernels/kernels.ptx`, which a test keeps equal to what the sources
//! build. The PTX lands in `$OUT_DIR/kernels.ptx`, which `src/gpu/ptx.rs`
//! embeds.
//!
//! - `SSSP_PTX_ARCH` picks the GPU architecture (default `sm_90`, Hopper);
//!   another architecture needs the pinned nightly.
//! - `SSSP_KERNELS=source` insists on building from source (an error where the
//!   toolchain cannot), `SSSP_KERNELS=shipped` takes the shipped PTX.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "nvptx64-nvidia-cuda";
const DEFAULT_ARCH: &str = "sm_90";
/// The PTX shipped with the crate, for `DEFAULT_ARCH`, relative to `host/`.
const SHIPPED_PTX: &str = "kernels/kernels.ptx";

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
    let shipped = manifest_dir.join(SHIPPED_PTX);
    println!("cargo::rerun-if-changed={}", shipped.display());
    println!("cargo::rerun-if-env-changed=SSSP_PTX_ARCH");
    println!("cargo::rerun-if-env-changed=SSSP_KERNELS");
    let arch = env::var("SSSP_PTX_ARCH").unwrap_or_else(|_| DEFAULT_ARCH.to_string());
    if !arch.starts_with("sm_") {
        fail(&format!(
            "SSSP_PTX_ARCH must look like `sm_90`, got `{arch}`"
        ));
    }

    let source = kernel_source(workspace, &arch);
    let from = match source {
        Source::Build => "source",
        Source::Shipped(_) => "shipped",
    };
    let text = match source {
        Source::Build => build_ptx(workspace, &out_dir, &arch),
        Source::Shipped(why) => {
            println!(
                "cargo::warning=using the kernels' shipped PTX ({why}); \
                 the pinned nightly of rust-toolchain.toml builds them from source"
            );
            fs::read_to_string(&shipped)
                .unwrap_or_else(|e| fail(&format!("reading {}: {e}", shipped.display())))
        }
    };
    let ptx_path = out_dir.join("kernels.ptx");
    fs::write(&ptx_path, text).unwrap_or_else(|e| fail(&format!("writing kernels.ptx: {e}")));
    // Machine code for the architecture, so that no process waits for the
    // driver to compile the PTX (seconds on a machine whose compile cache is
    // empty); an empty file where no ptxas is found.
    let cubin_path = out_dir.join("kernels.cubin");
    let cubin = assemble(&ptx_path, &cubin_path, &arch);
    if !cubin {
        fs::write(&cubin_path, []).unwrap_or_else(|e| fail(&format!("writing kernels.cubin: {e}")));
    }
    println!("cargo::rustc-env=SSSP_PTX_ARCH={arch}");
    println!("cargo::rustc-env=SSSP_KERNELS_FROM={from}");
}

/// Assembles `ptx` into `cubin` for `arch` with `ptxas` (`SSSP_PTXAS`, else
/// `ptxas` on the `PATH`, else the one of the PyPI package
/// `nvidia-cuda-nvcc-cu12`); false, with a warning, where there is none or
/// it fails (the driver then compiles the PTX when the kernels load).
fn assemble(ptx: &Path, cubin: &Path, arch: &str) -> bool {
    println!("cargo::rerun-if-env-changed=SSSP_PTXAS");
    let Some(ptxas) = find_ptxas() else {
        println!(
            "cargo::warning=no ptxas found (SSSP_PTXAS, PATH, or pip's nvidia-cuda-nvcc-cu12): \
             the kernels ship as PTX only, which the driver compiles on first use"
        );
        return false;
    };
    let status = Command::new(&ptxas)
        .arg(format!("-arch={arch}"))
        .arg(ptx)
        .arg("-o")
        .arg(cubin)
        .status();
    match status {
        Ok(status) if status.success() => true,
        Ok(status) => {
            println!(
                "cargo::warning={} failed ({status}): the kernels ship as PTX only",
                ptxas.display()
            );
            false
        }
        Err(e) => {
            println!(
                "cargo::warning=could not run {}: {e}; the kernels ship as PTX only",
                ptxas.display()
            );
            false
        }
    }
}

/// `ptxas`: `SSSP_PTXAS`, the `PATH`, or pip's `nvidia-cuda-nvcc-cu12`.
fn find_ptxas() -> Option<PathBuf> {
    if let Some(path) = env::var_os("SSSP_PTXAS") {
        return Some(PathBuf::from(path));
    }
    let runs = |program: &Path| {
        Command::new(program)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let on_path = PathBuf::from("ptxas");
    if runs(&on_path) {
        return Some(on_path);
    }
    let python = env::var_os("PYTHON").unwrap_or_else(|| "python3".into());
    let package = Command::new(python)
        .args(["-c", "import nvidia.cuda_nvcc as m; print(m.__path__[0])"])
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let folder = String::from_utf8_lossy(&package.stdout).trim().to_string();
    let ptxas = Path::new(&folder).join("bin").join("ptxas");
    runs(&ptxas).then_some(ptxas)
}

/// Where the PTX comes from.
enum Source {
    /// Built from `gpu-kernels` with this toolchain.
    Build,
    /// The crate's shipped PTX, for this reason.
    Shipped(String),
}

/// Builds from source with the pinned nightly (the date in
/// `rust-toolchain.toml`) and its `rust-src`; takes the shipped PTX on any
/// other toolchain, unless `SSSP_KERNELS` says otherwise.
fn kernel_source(workspace: &Path, arch: &str) -> Source {
    let asked = env::var("SSSP_KERNELS").unwrap_or_default();
    let pinned = pinned_channel(workspace);
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let version = Command::new(&rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    // `nightly-2026-05-20` builds a rustc dated the day before.
    let on_pin = pinned
        .as_deref()
        .and_then(|channel| channel.strip_prefix("nightly-"))
        .is_some_and(|date| version.contains("-nightly") && nightly_matches(&version, date));
    match asked.as_str() {
        "source" => {
            check_rust_src();
            Source::Build
        }
        "shipped" if arch == DEFAULT_ARCH => Source::Shipped("SSSP_KERNELS=shipped".into()),
        "" | "shipped" if on_pin && has_rust_src() => Source::Build,
        "" if arch == DEFAULT_ARCH => Source::Shipped(format!("rustc is `{version}`")),
        "" | "shipped" => fail(&format!(
            "the kernels for {arch} must be built from source, which needs the pinned \
             nightly with rust-src (run `rustup toolchain install` in the repository root)"
        )),
        other => fail(&format!(
            "SSSP_KERNELS must be `source` or `shipped`, got `{other}`"
        )),
    }
}

/// The `channel` of `rust-toolchain.toml`.
fn pinned_channel(workspace: &Path) -> Option<String> {
    let text = fs::read_to_string(workspace.join("rust-toolchain.toml")).ok()?;
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("channel"))
        .filter_map(|rest| rest.trim().strip_prefix('='))
        .map(|value| value.trim().trim_matches('"').to_string())
        .next()
}

/// Whether the rustc `version` (`rustc 1.97.0-nightly (hash 2026-05-19)`) is
/// the nightly of `date` (`2026-05-20`): a nightly carries the date of its
/// last commit, the day before its channel's date, or that date itself.
fn nightly_matches(version: &str, date: &str) -> bool {
    let Some(built) = version.rsplit(' ').next().map(|d| d.trim_end_matches(')')) else {
        return false;
    };
    built == date || next_day(built).as_deref() == Some(date)
}

/// The ISO date after `date` (within a month's end; enough for a nightly's).
fn next_day(date: &str) -> Option<String> {
    let mut parts = date.split('-').map(|p| p.parse::<u32>().ok());
    let (y, m, d) = (parts.next()??, parts.next()??, parts.next()??);
    let days = match m {
        2 if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    let (y, m, d) = match (d + 1 > days, m) {
        (false, _) => (y, m, d + 1),
        (true, 12) => (y + 1, 1, 1),
        (true, _) => (y, m + 1, 1),
    };
    Some(format!("{y:04}-{m:02}-{d:02}"))
}

/// Builds the kernels' PTX from source (see the module docs).
fn build_ptx(workspace: &Path, out_dir: &Path, arch: &str) -> String {
    // A target dir of its own: the outer cargo holds the lock of its own, and the
    // kernels must not share artifacts with host builds.
    let target_dir = kernel_target_dir(out_dir);
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
    // Panics trap on the GPU: `core` and the kernels are built with immediate
    // aborts. Given here rather than in the profile, so that the workspace's
    // manifest needs no unstable Cargo feature and stable Cargo reads it.
    command.env("RUSTFLAGS", "-Zunstable-options -Cpanic=immediate-abort");
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
    with_launch_bounds(&text)
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

/// The sources of `core` in the toolchain's `rust-src` component, which
/// `-Zbuild-std` needs.
fn rust_src_core() -> PathBuf {
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
    sysroot.join("lib/rustlib/src/rust/library/core")
}

fn has_rust_src() -> bool {
    rust_src_core().is_dir()
}

/// `-Zbuild-std` needs the standard library's sources from the `rust-src`
/// component; say how to get it instead of letting cargo fail obscurely.
fn check_rust_src() {
    let core = rust_src_core();
    if !core.is_dir() {
        fail(&format!(
            "the `rust-src` component is missing from the toolchain ({} is not there).\n\
             The GPU kernels are built with -Zbuild-std=core, which needs it. Install the \
             pinned toolchain with all its components by running, in the repository root:\n    \
             rustup toolchain install\n\
             (or: rustup component add rust-src llvm-tools --toolchain nightly-2026-05-20)",
            core.display()
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
