//! Records the profile this crate is compiled with, for `bench_runtime::build`.
//!
//! The measurement core holds the timed loops (every `Bencher` method is
//! generic and compiled with it or with the benchmarks), so its opt-level is
//! the one the figures depend on. bench-harness reads it from here rather
//! than from its own build, and compares the two: a per-package profile
//! override may compile bench-harness otherwise (see its audit).

use std::env;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // Cargo sets these for every build script; a different profile is a
    // different build, so none needs a rerun-if-env-changed.
    for (variable, name) in [
        // `0` ... `3`, `s`, `z`.
        ("OPT_LEVEL", "BENCH_RUNTIME_OPT_LEVEL"),
        // `release` for profiles that inherit from release (bench does),
        // `debug` for the others.
        ("PROFILE", "BENCH_RUNTIME_PROFILE"),
    ] {
        let value = env::var(variable).unwrap_or_else(|_| "unknown".to_string());
        println!("cargo:rustc-env={name}={value}");
    }
}
