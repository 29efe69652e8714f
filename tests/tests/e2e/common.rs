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

/// Whether process `pid` is gone (or a zombie: ended, not yet reaped).
pub fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// The rows of an `--against` comparison table: name and the rest of the
/// row (a failure's message wrapped to the width joined again).
pub fn against_rows(stdout: &str) -> Vec<(String, String)> {
    let mut rows: Vec<(String, String)> = Vec::new();
    let table = stdout
        .lines()
        .skip_while(|l| !l.starts_with("  benchmark "))
        .skip(1) // the column names
        .take_while(|line| line.starts_with("  "));
    for line in table {
        if let (Some(continued), Some((_, rest))) = (line.strip_prefix("    "), rows.last_mut()) {
            rest.push(' ');
            rest.push_str(continued.trim());
            continue;
        }
        let (name, rest) = line
            .trim_start()
            .split_once(' ')
            .unwrap_or((line.trim(), ""));
        rows.push((name.to_string(), rest.trim_start().to_string()));
    }
    rows
}

/// The fixture's body that cools between its slices, beside two steady
/// ones, for long enough (0.6 s each) that its pause test has pairs to
/// judge: the warm pass's tests.
pub const COOLING: [&str; 8] = [
    "--bench",
    "--include-ignored",
    "--exact",
    "cools_between_slices",
    "spins",
    "passes",
    "--measure-time",
    "0.6",
];
