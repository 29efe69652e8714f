//! Issue 14 item 12: text from outside the program (benchmark names and
//! `args` values, panic messages, a baseline file's fields) reaches the
//! terminal with its control characters escaped: no escape sequence can
//! clear the screen, no line break can split a one-per-line format.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use bench_tests::{quick_bench, run, run_with_env, scratch_dir, Run, QUICK};

use crate::common::fixture_binary;

const HOSTILE: &[&str] = &[
    "--include-ignored",
    "--exact",
    "hostile::control_names/line\nbreak",
    "--exact",
    "hostile::control_names/\u{1b}[2Jclear",
    "--exact",
    "hostile::panics_with_escape",
];

/// No raw control character but the line breaks between lines (and tabs).
fn assert_no_raw_controls(what: &str, text: &str) {
    let raw: Vec<char> = text
        .chars()
        .filter(|&c| c.is_control() && c != '\n' && c != '\t')
        .collect();
    assert!(raw.is_empty(), "{what}: raw {raw:?} in\n{text}");
}

fn assert_escaped(what: &str, out: &Run) {
    assert_no_raw_controls(what, &out.stdout);
    assert_no_raw_controls(what, &out.stderr);
    // The name with a line break stays on one line.
    for line in out.stdout.lines().filter(|l| l.contains("break")) {
        assert!(line.contains("line\\nbreak"), "{what}: {line:?}");
    }
    assert!(
        !out.stdout.lines().any(|l| l.starts_with("break")),
        "{what}: a name was split:\n{}",
        out.stdout
    );
}

#[test]
fn names_and_panic_messages_are_escaped_in_smoke_mode() {
    let out = run(fixture_binary(), HOSTILE);
    assert_eq!(out.code, Some(101), "{out:?}");
    assert_escaped("smoke", &out);
    assert!(
        out.stdout
            .contains("test hostile::control_names/line\\nbreak ... ok"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("test hostile::control_names/\\u{1b}[2Jclear ... ok"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("\\u{1b}[2Jwiped\\rover (at "),
        "{}",
        out.stdout
    );
}

#[test]
fn names_and_panic_messages_are_escaped_in_every_table() {
    for format in [&[][..], &["--format", "bencher"], &["--format", "markdown"]] {
        let mut args = HOSTILE.to_vec();
        args.extend(format);
        let out = quick_bench(fixture_binary(), &args);
        assert_eq!(out.code, Some(101), "{format:?}: {out:?}");
        assert_escaped(&format!("{format:?}"), &out);
        // (Markdown doubles the backslashes, which it renders as one.)
        assert!(
            out.stdout.contains("u{1b}[2Jwiped\\")
                && (out.stdout.contains("\\rover") || out.stdout.contains("\\\\rover")),
            "{format:?}: {}",
            out.stdout
        );
    }
    // The tree's labels too, not only the flat table's names.
    let without_flat: Vec<&str> = QUICK.iter().copied().filter(|a| *a != "--flat").collect();
    let out = run(fixture_binary(), &[&without_flat[..], HOSTILE].concat());
    assert_eq!(out.code, Some(101), "{out:?}");
    assert_escaped("tree", &out);
    assert!(out.stdout.contains("─ line\\nbreak"), "{}", out.stdout);
}

/// The documents of baseline `name` under `dir` (`NAME/TARGET.json`).
fn baseline_files(dir: &Path, name: &str, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            baseline_files(&path, name, found);
        } else if path.extension() == Some(OsStr::new("json"))
            && path.parent().and_then(Path::file_name) == Some(OsStr::new(name))
        {
            found.push(path);
        }
    }
}

/// A baseline whose timestamp is `ESC [2J` (clear the screen) is compared
/// with, and its timestamp printed escaped.
#[test]
fn a_baseline_timestamp_cannot_clear_the_screen() {
    let target = scratch_dir("escaping-baseline");
    let env = [("CARGO_TARGET_DIR", target.as_os_str())];
    let bench = |args: &[&str]| {
        let mut all = QUICK.to_vec();
        all.extend(["--exact", "passes"]);
        all.extend(args);
        run_with_env(fixture_binary(), &all, &env)
    };
    let saved = bench(&["--save-baseline", "hostile"]);
    assert_eq!(saved.code, Some(0), "{saved:?}");
    let mut files = Vec::new();
    baseline_files(&target, "hostile", &mut files);
    assert_eq!(files.len(), 1, "{files:?}");
    let mut document: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&files[0]).unwrap()).unwrap();
    document["environment"]["timestamp"] = "\u{1b}[2J\u{1b}[H2026-01-01T00:00:00Z".into();
    std::fs::write(&files[0], serde_json::to_vec_pretty(&document).unwrap()).unwrap();

    let out = bench(&["--baseline", "hostile"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_escaped("--baseline", &out);
    assert!(
        out.stdout
            .contains("(saved \\u{1b}[2J\\u{1b}[H2026-01-01T00:00:00Z)"),
        "{}",
        out.stdout
    );
}

/// `--list` keeps one name per line, and a filter or a baseline's
/// timestamp in a status line or `--list-baselines` is escaped.
#[test]
fn lists_and_status_lines_are_escaped() {
    let out = run(fixture_binary(), &["--include-ignored", "--list"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_escaped("--list", &out);
    assert!(
        out.stdout
            .contains("\nhostile::control_names/line\\nbreak: benchmark\n"),
        "{}",
        out.stdout
    );
    let names = out.stdout.lines().take_while(|l| !l.is_empty());
    assert!(names.clone().all(|l| l.ends_with(": benchmark")));

    let out = quick_bench(fixture_binary(), &["\u{1b}[2Jnothing"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_escaped("filter", &out);
    assert!(
        out.stderr
            .contains("no benchmark matches the filter '\\u{1b}[2Jnothing'"),
        "{}",
        out.stderr
    );

    let target = scratch_dir("escaping-list-baselines");
    let env = [("CARGO_TARGET_DIR", target.as_os_str())];
    let mut args = QUICK.to_vec();
    args.extend(["--exact", "passes", "--save-baseline", "hostile"]);
    let saved = run_with_env(fixture_binary(), &args, &env);
    assert_eq!(saved.code, Some(0), "{saved:?}");
    let mut files = Vec::new();
    baseline_files(&target, "hostile", &mut files);
    let mut document: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&files[0]).unwrap()).unwrap();
    document["environment"]["timestamp"] = "\u{1b}[2J2026".into();
    std::fs::write(&files[0], serde_json::to_vec_pretty(&document).unwrap()).unwrap();
    let out = run_with_env(fixture_binary(), &["--list-baselines"], &env);
    assert_escaped("--list-baselines", &out);
    assert!(
        out.stdout.contains("hostile: saved \\u{1b}[2J2026,"),
        "{}",
        out.stdout
    );
}
