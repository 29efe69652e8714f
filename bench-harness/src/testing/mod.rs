//! What the tests of several modules share: the fixture and golden files
//! under `tests/`, scratch directories, a fixed run to format, and the
//! machines the environment and audit tests describe.
//!
//! The files stay in `tests/fixtures/` and `tests/golden/`, found through
//! `CARGO_MANIFEST_DIR`, so they are where a reader of the crate looks for
//! them whichever module's tests read them.

pub(crate) mod fixed_run;
pub(crate) mod machines;
pub(crate) mod random;

use std::fs;
use std::path::{Path, PathBuf};

/// `tests/fixtures/MACHINE`: a copy of one machine's `/proc` and `/sys`
/// files (see the README there).
pub(crate) fn fixture(machine: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(machine)
}

/// `tests/golden/NAME`: a report's exact expected output.
pub(crate) fn golden_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

/// Compares `actual` with `tests/golden/NAME` byte for byte, or writes it
/// there when `BLESS=1`: after an intended change to a format, regenerate
/// the files with `BLESS=1 cargo test -p bench-harness --lib golden` and
/// review `git diff tests/golden`.
pub(crate) fn golden(name: &str, actual: &str) {
    let path = golden_path(name);
    if std::env::var_os("BLESS").is_some_and(|v| v == "1") {
        fs::write(&path, actual).unwrap();
        return;
    }
    let expected = fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e}; run with BLESS=1 to create it",
            path.display()
        )
    });
    if expected == actual {
        return;
    }
    // Left behind on purpose, for the diff the message suggests.
    let written = std::env::temp_dir().join(format!("bench-harness-golden-{name}"));
    fs::write(&written, actual).unwrap();
    let expected_lines: Vec<&str> = expected.split('\n').collect();
    let actual_lines: Vec<&str> = actual.split('\n').collect();
    let line = expected_lines
        .iter()
        .zip(&actual_lines)
        .position(|(e, a)| e != a)
        .unwrap_or(expected_lines.len().min(actual_lines.len()));
    panic!(
        "{name} differs from the golden file at line {}:\n  expected: {:?}\n  actual:   {:?}\n\
         ({} lines expected, {} written)\n\
         see the whole difference with: diff -u {} {}\n\
         if the change is intended, rerun with BLESS=1 and review git diff tests/golden",
        line + 1,
        expected_lines.get(line).copied().unwrap_or("<end of file>"),
        actual_lines.get(line).copied().unwrap_or("<end of file>"),
        expected_lines.len(),
        actual_lines.len(),
        path.display(),
        written.display(),
    );
}

/// An empty directory of the system's temporary directory for one test,
/// removed when dropped. The process id keeps concurrent test runs apart.
#[derive(Debug)]
pub(crate) struct Scratch(PathBuf);

impl Scratch {
    /// A fresh, empty directory named after `name`.
    pub(crate) fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("bench-harness-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}
