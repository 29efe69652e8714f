//! Records, for `environment.rs`, the compiler and target this crate is
//! compiled with: in one `cargo bench` build, the benchmarks' too. (The
//! profile comes from bench-runtime, which holds the timed loops; this
//! crate's own opt-level differs from it only under a per-package profile
//! override, which the audit warns about.)

use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC");
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = Command::new(rustc)
        .arg("-V")
        .output()
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .map(|text| text.trim().to_string())
        .filter(|text| !text.is_empty() && !text.contains('\n'))
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=BENCH_HARNESS_RUSTC_VERSION={version}");
    // Cargo sets these for every build script; a different target or
    // profile is a different build, so none needs a rerun-if-env-changed.
    for (variable, name) in [
        ("TARGET", "BENCH_HARNESS_TARGET"),
        // This crate's own `0` ... `3`, `s`, `z`.
        ("OPT_LEVEL", "BENCH_HARNESS_OPT_LEVEL"),
    ] {
        let value = env::var(variable).unwrap_or_else(|_| "unknown".to_string());
        println!("cargo:rustc-env={name}={value}");
    }
}
