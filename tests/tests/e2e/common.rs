//! The bench binaries of this crate. Cargo tells only integration tests where
//! it put them (`CARGO_BIN_EXE_*`), so their paths live here rather than in
//! the helper library.

use std::path::Path;

/// Benchmarks that misbehave on purpose: panic, never iterate, sleep, abort
/// (`src/bin/fixture.rs`).
pub fn fixture_binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_fixture"))
}

/// The authoring API: args, types, throughput, complexity, async
/// (`src/bin/authoring.rs`).
pub fn authoring_binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_authoring"))
}

/// A bench binary with no benchmark in it (`src/bin/empty.rs`).
pub fn empty_binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_empty"))
}

/// `CountingAlloc` as the global allocator (`src/bin/counting.rs`).
pub fn counting_binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_counting"))
}

/// Benchmarks that print to stdout, change directory, close stdout
/// (`src/bin/noisy.rs`).
pub fn noisy_binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_noisy"))
}

/// A criterion bench file ported: groups, file and group settings,
/// `iter_custom` (`src/bin/ported.rs`).
pub fn ported_binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_ported"))
}
