//! What differs between CPU architectures: reading the cycle counter, and
//! the known-cost multiply chain of [`known_cost`](super::known_cost).
//!
//! Each architecture has its own file behind the same small interface
//! (`NAME`, `check_usable`, `reported_frequency_hz`, `read_start`,
//! `read_stop`, `imul_chain`), re-exported below. This module picks one by
//! `cfg` and is the only code that looks at `target_arch`.

#[cfg(target_arch = "x86_64")]
#[path = "x86_64.rs"]
mod imp;

#[cfg(target_arch = "aarch64")]
#[path = "aarch64.rs"]
mod imp;

#[cfg(target_arch = "riscv64")]
#[path = "riscv64.rs"]
mod imp;

#[cfg(not(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    target_arch = "riscv64"
)))]
#[path = "fallback.rs"]
mod imp;

pub(crate) use imp::{
    check_usable, imul_chain, read_start, read_stop, reported_frequency_hz, NAME,
};
