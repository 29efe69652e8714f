//! Bad command lines, tried systematically: every flag that takes a value,
//! with a missing, malformed, negative, zero or absurd one, plus unknown and
//! conflicting flags and a non-UTF-8 argument. Each is one line on stderr
//! naming the flag, exit code 2, nothing measured and nothing written (the
//! run also asks to save a baseline, which must not appear).

use std::path::Path;
use std::process::Command;

use bench_tests::{run_with_env, scratch_dir, Run};

use crate::common::fixture_binary;

/// `(arguments, text the error must contain)`.
const CASES: &[(&[&str], &str)] = &[
    // Missing values.
    (&["--measure-time"], "--measure-time"),
    (&["--max-time"], "--max-time"),
    (&["--warm-up-time"], "--warm-up-time"),
    (&["--min-samples"], "--min-samples"),
    (&["--precision"], "--precision"),
    (&["--warm-up-window"], "--warm-up-window"),
    (&["--warm-up-cv"], "--warm-up-cv"),
    (&["--noise-threshold"], "--noise-threshold"),
    (&["--seed"], "--seed"),
    (&["--pin"], "--pin"),
    (&["--forks"], "--forks"),
    (&["--timer"], "--timer"),
    (&["--schedule"], "--schedule"),
    (&["--format"], "--format"),
    (&["--color"], "--color"),
    (&["--output"], "--output"),
    (&["--baseline"], "--baseline"),
    (&["--skip"], "--skip"),
    // Malformed.
    (&["--measure-time", "soon"], "--measure-time"),
    (&["--max-time", "1s"], "--max-time"),
    (&["--min-samples", "ten"], "--min-samples"),
    (&["--precision", "fine"], "--precision"),
    (&["--seed", "0x1f"], "--seed"),
    (&["--pin", "first"], "--pin"),
    (&["--forks", "three"], "--forks"),
    (&["--forks", "-2"], "--forks"),
    (&["--forks", "1e3"], "--forks"),
    (&["--timer", "sundial"], "--timer"),
    (&["--schedule", "random"], "--schedule"),
    (&["--format", "xml"], "--format"),
    (&["--color", "purple"], "--color"),
    (&["--warm-up-cv", "low"], "--warm-up-cv"),
    // Negative.
    (&["--measure-time", "-1"], "--measure-time"),
    (&["--max-time", "-0.5"], "--max-time"),
    (&["--min-samples", "-3"], "--min-samples"),
    (&["--precision", "-1"], "--precision"),
    (&["--noise-threshold", "-2"], "--noise-threshold"),
    (&["--warm-up-window", "-10"], "--warm-up-window"),
    (&["--pin", "-1"], "--pin"),
    // Zero where zero means nothing.
    (&["--measure-time", "0"], "--measure-time"),
    (&["--max-time", "0"], "--max-time"),
    (&["--min-samples", "0"], "--min-samples"),
    (&["--warm-up-window", "0"], "--warm-up-window"),
    // Absurd.
    (&["--measure-time", "1e309"], "--measure-time"),
    (&["--max-time", "NaN"], "--max-time"),
    (&["--precision", "250"], "--precision"),
    (
        &["--min-samples", "99999999999999999999999"],
        "--min-samples",
    ),
    (&["--noise-threshold", "inf"], "--noise-threshold"),
    (&["--pin", "100000"], "--pin"),
    (&["--forks", "1001"], "--forks"),
    // Unknown and conflicting.
    (&["--frobnicate"], "--frobnicate"),
    (&["-z"], "-z"),
    (&["--baseline", "../escape"], "baseline"),
    (&["--save-baseline", "a/b"], "baseline"),
    // `cargo bench -- --save-baseline`: cargo's `--bench` comes after it.
    (
        &["--save-baseline", "--bench"],
        "--save-baseline needs a baseline name right after it, like `--save-baseline main`",
    ),
    (
        &["--save-baseline"],
        "--save-baseline needs a baseline name",
    ),
    // A missing directory for --output is refused, not created.
    (
        &["--format", "json", "-o", "no-such-dir/r.json"],
        "no-such-dir does not exist; create it (mkdir -p",
    ),
];

fn fixture(target: &Path, args: &[&str]) -> Run {
    let mut all = vec!["--bench", "--save-baseline", "must_not_appear"];
    all.extend_from_slice(args);
    run_with_env(
        fixture_binary(),
        &all,
        &[("CARGO_TARGET_DIR", target.as_os_str())],
    )
}

#[test]
fn every_bad_flag_is_refused_in_one_line_with_nothing_run_or_written() {
    let target = scratch_dir("bad-input");
    for (args, names) in CASES {
        let Run {
            code,
            stdout,
            stderr,
        } = fixture(&target, args);
        assert_eq!(code, Some(2), "{args:?}: {stdout}{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(
            stderr.contains(names),
            "{args:?} should name {names}: {stderr}"
        );
        assert!(
            !stdout.contains("benchmark "),
            "{args:?}: measured: {stdout}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    let written: Vec<_> = walk(&target);
    assert!(written.is_empty(), "files written: {written:?}");
    let _ = std::fs::remove_dir_all(&target);
}

#[cfg(unix)]
#[test]
fn a_non_utf8_argument_is_refused() {
    use std::os::unix::ffi::OsStrExt;
    let output = Command::new(fixture_binary())
        .arg("--bench")
        .arg(std::ffi::OsStr::from_bytes(b"pa\xffsses"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("UTF-8"), "{stderr}");
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}
