//! Results over time: every measured run appends one compact record per
//! benchmark to `target/bench-harness/history/TARGET.jsonl` (under
//! `$CARGO_TARGET_DIR` when set, found as the baselines are), and
//! [`change_points`] finds the runs where a benchmark's time stepped.
//!
//! The file is JSON Lines, append-only: a run writes all its lines with one
//! `write` on a file opened with `O_APPEND`, so runs that end at the same
//! time never interleave their lines, and a run killed while writing leaves
//! at most one cut line at the end, which [`load`] skips with a note (see
//! [`store`]). The record format is in docs/history.md.
//!
//! What is written: the measured benchmarks of a run that was not
//! interrupted (Ctrl-C writes nothing: its figures stop short); a benchmark
//! that failed or was ignored has no figures and no record, the others of
//! the run do. Smoke tests (`cargo test --benches`), `--list`, `--against`,
//! a worker process and `--no-history` write nothing.

mod change;
#[cfg(target_os = "linux")]
mod code;
mod drift;
mod record;
mod rerun;
mod store;
#[cfg(test)]
mod tests;

#[cfg(test)]
pub(crate) use change::change_points;
pub(crate) use change::{steps, CodeAcross, Step};
pub(crate) use drift::{drift, Drift};
pub(crate) use record::{one_stretch, records, series, Record, RunRecords};
#[cfg(test)]
pub(crate) use record::{RecordedThroughput, FORMAT_VERSION};
pub(crate) use rerun::{rerun_half_width, Benchmark};
#[cfg(test)]
pub(crate) use store::parse;
pub(crate) use store::{append, file, load};

use std::path::{Path, PathBuf};

use crate::baseline::Store;

/// The target directory (`target/`, or `$CARGO_TARGET_DIR`) the baseline
/// store `store` sits in, at `TARGET_DIR/bench-harness/baselines`: history
/// sits beside it, so both are found the same way.
pub(crate) fn target_dir(store: &Store) -> PathBuf {
    store
        .dir()
        .parent()
        .and_then(Path::parent)
        .map_or_else(|| PathBuf::from("target"), Path::to_path_buf)
}

/// The code hash of each benchmark given as (full name, address of the
/// function the attribute registered), read from this executable
/// (`code.rs`); empty where it cannot be read. Benchmarks of one function
/// share its hash, which is computed once.
pub(crate) fn code_identities<'a>(
    benchmarks: impl Iterator<Item = (&'a str, usize)>,
) -> Vec<(String, String)> {
    #[cfg(target_os = "linux")]
    {
        let Some(mut image) = code::Image::open() else {
            return Vec::new();
        };
        let mut by_address: Vec<(usize, Option<String>)> = Vec::new();
        let mut codes = Vec::new();
        for (name, address) in benchmarks {
            let known = by_address.iter().find(|(a, _)| *a == address);
            let code = match known {
                Some((_, code)) => code.clone(),
                None => {
                    let code = image.identity(address);
                    by_address.push((address, code.clone()));
                    code
                }
            };
            if let Some(code) = code {
                codes.push((name.to_string(), code));
            }
        }
        codes
    }
    #[cfg(not(target_os = "linux"))]
    {
        drop(benchmarks);
        Vec::new()
    }
}

/// Appends the run's records to this bench target's history, beside the
/// baseline store `store`, and returns them; an error is one line naming
/// the file and the fix.
pub(crate) fn append_run(store: &Store, run: &RunRecords<'_>) -> Result<Vec<Record>, String> {
    let path = file(&target_dir(store), &crate::baseline::target_name());
    let appended = records(run);
    append(&path, &appended)
        .map(|()| appended)
        .map_err(|error| {
            // A refusal of what stands at the path names its own remedy.
            let remedy = if error.kind() == std::io::ErrorKind::InvalidInput {
                "or run with --no-history"
            } else {
                "check that the target directory is writable, or run with --no-history"
            };
            format!(
                "this run was not added to the history {}: {error}; {remedy}",
                path.display()
            )
        })
}
