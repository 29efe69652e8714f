//! Saving and comparing baselines, and every way a baseline file can be bad,
//! with the fixture binary. Each test keeps its baselines in a target
//! directory of its own through CARGO_TARGET_DIR, as a user's CI would.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use bench_tests::{run_with_env, scratch_dir, Run, QUICK};

use crate::common::fixture_binary;

fn baseline_path(target: &Path, name: &str) -> PathBuf {
    target
        .join("bench-harness")
        .join("baselines")
        .join(format!("{name}.json"))
}

/// Runs the fixture with quick budgets, CARGO_TARGET_DIR=`target` and
/// `env` set.
fn fixture(target: &Path, env: &[(&str, &str)], args: &[&str]) -> Run {
    let mut vars = vec![("CARGO_TARGET_DIR", target.as_os_str())];
    vars.extend(env.iter().map(|&(key, value)| (key, OsStr::new(value))));
    let mut all = QUICK.to_vec();
    all.extend_from_slice(args);
    run_with_env(fixture_binary(), &all, &vars)
}

/// A one-line error, exit code 2, nothing measured.
fn assert_refused(out: &Run, expected: &str) {
    assert_eq!(out.code, Some(2), "{out:?}");
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains(expected), "{}", out.stderr);
    assert!(
        !out.stdout.contains("measured"),
        "nothing runs: {}",
        out.stdout
    );
}

#[test]
fn a_saved_baseline_lands_under_cargo_target_dir_and_is_listed() {
    let target = scratch_dir("baselines-save");
    let out = fixture(
        &target,
        &[],
        &["--exact", "passes", "--save-baseline", "main"],
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    let path = baseline_path(&target, "main");
    assert!(
        out.stderr
            .contains(&format!("saved baseline 'main' to {}", path.display())),
        "{}",
        out.stderr
    );
    let document: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(document["schema_version"], 2);
    assert!(document["machine_reference"]["block_medians_ns"].is_array());
    // The loop overhead is in the open: its raw samples and estimate, which
    // is the cost per iteration that was subtracted, with its uncertainty.
    let overhead = &document["methodology"]["overhead"];
    let loop_measured = &overhead["measurement"];
    assert!(
        !loop_measured["samples"].as_array().unwrap().is_empty(),
        "{overhead}"
    );
    let loop_time = loop_measured["estimate"]["time_ns"].as_f64().unwrap();
    assert_eq!(
        loop_time.max(0.0),
        overhead["per_iter_ns"].as_f64().unwrap(),
        "{overhead}"
    );
    assert!(overhead["per_iter_uncertainty_ns"].as_f64().unwrap() >= 0.0);

    let list = bench_tests::run(fixture_binary(), &["--list-baselines"]);
    // Without CARGO_TARGET_DIR the fixture looks in its own target dir.
    assert_eq!(list.code, Some(0));
    let mut command = Command::new(fixture_binary());
    let listed = command
        .arg("--list-baselines")
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout);
    assert!(listed.starts_with("main: saved 20"), "{listed}");
    assert!(listed.contains(", 1 benchmarks"), "{listed}");
}

#[test]
fn a_regression_is_reported_and_fails_ci_on_request() {
    let target = scratch_dir("baselines-regression");
    let saved = fixture(
        &target,
        &[],
        &[
            "--exact",
            "spins",
            "--measure-time",
            "0.3",
            "--save-baseline",
            "before",
        ],
    );
    assert_eq!(saved.code, Some(0), "{saved:?}");

    // Four times the work, measured long enough for the machine reference to
    // be known (in a 20 ms run under the parallel tests' load its interval
    // was ±50%, and the harness rightly refused a verdict).
    let slower = [("BENCH_FIXTURE_SLOWER", "1")];
    let out = fixture(
        &target,
        &slower,
        &[
            "--exact",
            "spins",
            "--measure-time",
            "0.3",
            "--baseline",
            "before",
        ],
    );
    assert_eq!(
        out.code,
        Some(0),
        "a regression alone does not fail: {out:?}"
    );
    assert!(
        out.stdout.contains("compared with baseline 'before'"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("1 regressed"), "{}", out.stdout);
    assert!(out.stdout.contains("regressed: spins"), "{}", out.stdout);

    let gated = fixture(
        &target,
        &slower,
        &[
            "--exact",
            "spins",
            "--measure-time",
            "0.3",
            "--baseline",
            "before",
            "--fail-on-regression",
        ],
    );
    assert_eq!(gated.code, Some(1), "{gated:?}");
}

#[test]
fn new_and_gone_benchmarks_are_not_errors() {
    let target = scratch_dir("baselines-new-gone");
    let saved = fixture(
        &target,
        &[],
        &["--exact", "passes", "--save-baseline", "old"],
    );
    assert_eq!(saved.code, Some(0), "{saved:?}");
    // A benchmark the baseline lacks, and one it has that this binary lacks.
    let path = baseline_path(&target, "old");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("\"passes\"", "\"renamed_away\"")).unwrap();
    let out = fixture(&target, &[], &["--exact", "passes", "--baseline", "old"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout.contains("new: not measured in the baseline"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("gone (in the baseline, no longer in this binary): renamed_away"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_missing_baseline_names_the_path_and_the_saved_ones() {
    let target = scratch_dir("baselines-missing");
    let saved = fixture(
        &target,
        &[],
        &["--exact", "passes", "--save-baseline", "main"],
    );
    assert_eq!(saved.code, Some(0), "{saved:?}");
    let out = fixture(&target, &[], &["--baseline", "mian"]);
    assert_refused(&out, "no baseline 'mian' at ");
    assert!(out
        .stderr
        .contains(&baseline_path(&target, "mian").display().to_string()));
    assert!(
        out.stderr.contains("saved baselines: main"),
        "{}",
        out.stderr
    );
}

#[test]
fn bad_baseline_files_are_reported_and_never_overwritten() {
    let target = scratch_dir("baselines-bad-files");
    let future = r#"{"schema_version": 99, "harness": "bench-harness", "benchmarks": []}"#;
    let cases = [
        ("empty", "", "is empty"),
        (
            "truncated",
            r#"{"schema_version": 1, "harness": "bench-harness", "environ"#,
            "truncated",
        ),
        ("corrupt", "{\"schema_version\": 1,, }", "not valid JSON"),
        (
            "foreign",
            r#"{"mean": {"point_estimate": 12.5}}"#,
            "not a bench-harness",
        ),
        ("future", future, "99"),
        (
            "shape",
            r#"{"schema_version": 1, "harness": "bench-harness", "benchmarks": 3}"#,
            "bench-harness",
        ),
    ];
    for (name, contents, expected) in cases {
        let path = baseline_path(&target, name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, contents).unwrap();
        // Comparing with it, and saving over it in the same run: refused
        // before anything runs, and the file is left as it was.
        let out = fixture(
            &target,
            &[],
            &[
                "--exact",
                "passes",
                "--baseline",
                name,
                "--save-baseline",
                name,
            ],
        );
        assert_refused(&out, expected);
        assert!(
            out.stderr.contains(&format!("{name}.json")),
            "{}",
            out.stderr
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            contents,
            "{name} was overwritten"
        );
    }
}

#[test]
fn a_huge_damaged_baseline_is_reported_and_kept() {
    // 48 MiB: a document whose benchmark list holds numbers, not objects.
    let target = scratch_dir("baselines-huge");
    let path = baseline_path(&target, "huge");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut contents =
        String::from(r#"{"schema_version": 1, "harness": "bench-harness", "benchmarks": ["#);
    contents.push_str(&"1,".repeat(24 << 20));
    contents.push_str("1]}");
    std::fs::write(&path, &contents).unwrap();
    let out = fixture(
        &target,
        &[],
        &[
            "--exact",
            "passes",
            "--baseline",
            "huge",
            "--save-baseline",
            "huge",
        ],
    );
    assert_refused(&out, "missing or mistyped fields");
    assert!(
        std::fs::read_to_string(&path).unwrap() == contents,
        "overwritten"
    );
    let _ = std::fs::remove_dir_all(&target);
}

#[test]
fn an_unwritable_target_directory_is_reported() {
    let target = scratch_dir("baselines-unwritable");
    // A file where the baselines directory should be.
    std::fs::write(target.join("bench-harness"), "not a directory").unwrap();
    let out = fixture(
        &target,
        &[],
        &["--exact", "passes", "--save-baseline", "main"],
    );
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr.contains("cannot write baseline"),
        "{}",
        out.stderr
    );
}

#[test]
fn two_runs_saving_the_same_baseline_at_once_leave_one_whole_file() {
    let target = scratch_dir("baselines-concurrent");
    let spawn = || {
        Command::new(fixture_binary())
            .args(QUICK)
            .args(["--exact", "passes", "--save-baseline", "shared"])
            .env("CARGO_TARGET_DIR", &target)
            .output()
    };
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(spawn);
        let b = s.spawn(spawn);
        (a.join().unwrap().unwrap(), b.join().unwrap().unwrap())
    });
    assert!(a.status.success() && b.status.success());
    let text = std::fs::read_to_string(baseline_path(&target, "shared")).unwrap();
    let document: serde_json::Value = serde_json::from_str(&text).expect("a whole document");
    assert_eq!(document["benchmarks"][0]["name"], "passes");
    let dir = target.join("bench-harness/baselines");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    files.sort();
    assert_eq!(
        files,
        ["shared.fixture.exe", "shared.json"],
        "no temporary files are left behind"
    );
    assert_eq!(
        std::fs::metadata(dir.join("shared.fixture.exe"))
            .unwrap()
            .len(),
        std::fs::metadata(fixture_binary()).unwrap().len(),
        "one whole copy of the executable"
    );
}

#[test]
fn formats_go_to_stdout_or_to_the_output_file() {
    let target = scratch_dir("baselines-formats");
    let out = fixture(&target, &[], &["--exact", "passes", "--format", "json"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let document: serde_json::Value =
        serde_json::from_str(&out.stdout).expect("stdout is JSON only");
    assert_eq!(document["benchmarks"][0]["outcome"], "measured");

    let file = target.join("out.csv");
    let out = fixture(
        &target,
        &[],
        &[
            "--exact",
            "passes",
            "--format",
            "csv",
            "--output",
            file.to_str().unwrap(),
        ],
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout.contains("1 measured"),
        "the table still goes to stdout"
    );
    let csv = std::fs::read_to_string(&file).unwrap();
    assert!(csv.starts_with("name,group,outcome,time_ns"), "{csv}");

    let out = fixture(&target, &[], &["--exact", "passes", "--format", "bencher"]);
    assert!(
        out.stdout.contains("test passes ... bench:"),
        "{}",
        out.stdout
    );

    let nowhere = target.join("missing-dir/out.md");
    std::fs::write(target.join("missing-dir"), "a file, not a directory").unwrap();
    let out = fixture(
        &target,
        &[],
        &[
            "--exact",
            "passes",
            "--format",
            "markdown",
            "-o",
            nowhere.to_str().unwrap(),
        ],
    );
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr.contains("cannot write --output"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_run_with_a_failed_benchmark_keeps_the_old_baseline() {
    let target = scratch_dir("baselines-failed-run");
    let saved = fixture(
        &target,
        &[],
        &["--exact", "passes", "--save-baseline", "main"],
    );
    assert_eq!(saved.code, Some(0), "{saved:?}");
    let path = baseline_path(&target, "main");
    let before = std::fs::read(&path).unwrap();
    let out = fixture(
        &target,
        &[],
        &["pa", "--skip", "touches", "--save-baseline", "main"],
    );
    assert_eq!(out.code, Some(101), "{out:?}");
    assert!(
        out.stderr
            .contains("baseline 'main' not saved, the old one is kept"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("panics_in_routine"), "{}", out.stderr);
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_filter_matching_nothing_cannot_pass_the_gate_or_save_nothing() {
    let target = scratch_dir("baselines-empty-selection");
    // A missing baseline is reported even when nothing would run.
    let out = fixture(
        &target,
        &[],
        &["--baseline", "nope", "--fail-on-regression", "zzz"],
    );
    assert_refused(&out, "no baseline 'nope'");
    let out = fixture(&target, &[], &["--save-baseline", "main", "zzz"]);
    assert_refused(
        &out,
        "no benchmark matches the filter 'zzz': there is nothing to save",
    );
    assert!(!baseline_path(&target, "main").exists());
}

#[test]
fn a_failing_output_file_does_not_lose_the_baseline() {
    let target = scratch_dir("baselines-output-fails");
    std::fs::write(target.join("not-a-dir"), "a file").unwrap();
    let nowhere = target.join("not-a-dir/out.json");
    let out = fixture(
        &target,
        &[],
        &[
            "--exact",
            "passes",
            "--format",
            "json",
            "-o",
            nowhere.to_str().unwrap(),
            "--save-baseline",
            "kept",
        ],
    );
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr.contains("cannot write --output"),
        "{}",
        out.stderr
    );
    // Refused before measuring, so nothing is saved (a write that fails at
    // the end keeps the baseline: e2e `outputs::devices_…`, /dev/full).
    assert!(!baseline_path(&target, "kept").exists(), "{}", out.stderr);
}
