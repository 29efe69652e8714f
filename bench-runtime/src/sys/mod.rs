//! Every call into the operating system, each behind a thin safe wrapper
//! that makes the call, checks its result and returns plain values (the
//! `errno` as an `i32` where the caller needs to know why it failed); and
//! the SIGINT handler, which the kernel calls. What a result means (a
//! refusal's advice, how a reading is scaled, what Ctrl-C does) is decided
//! by the modules that call these.
//!
//! A file here is compiled only where its calls exist (the `cfg` is on its
//! `mod` line below); the caller decides what happens elsewhere.

#[cfg(target_os = "linux")]
pub(crate) mod affinity;
#[cfg(unix)]
pub(crate) mod exit;
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(crate) mod malloc;
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) mod perf_event;
#[cfg(unix)]
pub(crate) mod signal;
#[cfg(unix)]
pub(crate) mod stdio;
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) mod time;

// Here because the SIGINT handler exits with it; `crate::signal`
// re-exports it.
/// The exit code of a run stopped by Ctrl-C: 128 + SIGINT.
pub const EXIT_INTERRUPTED: i32 = 130;

/// The `errno` the last failed call set (0 if it set none).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn last_errno() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}
