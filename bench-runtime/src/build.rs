//! How the measurement core was compiled: the build the figures depend on.
//! See `build.rs` for why bench-harness reads these from here.

/// Cargo's `OPT_LEVEL` for this crate: `0` ... `3`, `s`, `z`.
pub const OPT_LEVEL: &str = env!("BENCH_RUNTIME_OPT_LEVEL");

/// Cargo's `PROFILE` for this crate: `release` for profiles that inherit
/// from release (`bench` does), `debug` for the others.
pub const PROFILE: &str = env!("BENCH_RUNTIME_PROFILE");

/// Whether this crate was compiled with debug assertions on.
pub const DEBUG_ASSERTIONS: bool = cfg!(debug_assertions);
