//! Saving and comparing baselines, and every way a baseline file can be bad,
//! with the fixture binary. Each test keeps its baselines in a target
//! directory of its own through CARGO_TARGET_DIR, as a user's CI would.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use bench_tests::{run_with_env, scratch_dir, Run, QUICK};

use crate::common::fixture_binary;

/// Where the fixture keeps baseline `name`: `NAME/TARGET.json`.
fn baseline_path(target: &Path, name: &str) -> PathBuf {
    baselines_dir(target).join(name).join("fixture.json")
}

fn baselines_dir(target: &Path) -> PathBuf {
    target.join("bench-harness").join("baselines")
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
    // Measured in this process (`--forks 0`): its own loop overhead job is
    // the one subtracted (in processes of their own, each process's is, in
    // the benchmark's `forks` record).
    let out = fixture(
        &target,
        &[],
        &[
            "--forks",
            "0",
            "--exact",
            "passes",
            "--save-baseline",
            "main",
        ],
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
    assert_eq!(document["schema_version"], 5);
    assert_eq!(document["raw_samples"], "full");
    assert!(document["machine_reference"]["block_means_ns"].is_array());
    // The loop overhead is in the open: its raw samples and estimate, which
    // is the cost per iteration that was subtracted, with its uncertainty.
    let overhead = &document["methodology"]["overhead"];
    let loop_measured = &overhead["measurement"];
    assert!(
        !loop_measured["samples"]["iters"]
            .as_array()
            .unwrap()
            .is_empty(),
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
    assert!(listed.contains(", 1 benchmark, "), "{listed}");
}

/// A baseline of `spins` saved under `target`, then `spins` with four times
/// the work compared with it, without and with `--fail-on-regression`.
fn regression_sitting(target: &Path) -> (Run, Run) {
    let saved = fixture(
        target,
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
    let compare = |gate: &[&str]| {
        let mut args = vec![
            "--exact",
            "spins",
            "--measure-time",
            "0.3",
            "--baseline",
            "before",
        ];
        args.extend_from_slice(gate);
        fixture(target, &slower, &args)
    };
    (compare(&[]), compare(&["--fail-on-regression"]))
}

#[test]
fn a_regression_is_reported_and_fails_ci_on_request() {
    // On a machine disturbed most of the time (one sitting here: the speed
    // probe slow beside 88-92% of the suite's slices), a 0.3 s debug run's
    // processes can differ 1.7x, in the baseline or in the new run, and the
    // comparison reads `unclear` (2 of 19 runs of this test in that
    // sitting; under CI's load, with 2-3 of 62 slices undisturbed, twice
    // in a row once). Then the sitting is measured again, baseline and
    // all, up to twice, and a third unclear one fails; a wrong verdict
    // fails at once.
    let target = scratch_dir("baselines-regression");
    let (mut out, mut gated) = regression_sitting(&target.join("sitting-1"));
    for again in 2..=3 {
        if !(out.stdout.contains("1 unclear") || gated.stdout.contains("1 unclear")) {
            break;
        }
        eprintln!(
            "unclear, measuring again:\n{}\n{}",
            out.stdout, gated.stdout
        );
        (out, gated) = regression_sitting(&target.join(format!("sitting-{again}")));
    }
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
    assert!(out.stdout.contains("1 slower"), "{}", out.stdout);
    assert!(out.stdout.contains("slower: spins"), "{}", out.stdout);
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
    assert_refused(&out, "no baseline 'mian' for bench target 'fixture' at ");
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
            out.stderr.contains(&format!("{name}/fixture.json")),
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
    let dir = target.join("bench-harness/baselines/shared");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    files.sort();
    assert_eq!(
        files,
        ["fixture.exe", "fixture.json"],
        "no temporary files are left behind"
    );
    assert_eq!(
        std::fs::metadata(dir.join("fixture.exe")).unwrap().len(),
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

/// Saves baseline `name` of `passes` with the fixture and returns its
/// document.
fn save_passes(target: &Path, name: &str) -> serde_json::Value {
    save_one(target, name, "passes")
}

/// Saves baseline `name` of `benchmark` with the fixture and returns its
/// document.
fn save_one(target: &Path, name: &str, benchmark: &str) -> serde_json::Value {
    let saved = fixture(
        target,
        &[],
        &["--exact", benchmark, "--save-baseline", name],
    );
    assert_eq!(saved.code, Some(0), "{saved:?}");
    serde_json::from_slice(&std::fs::read(baseline_path(target, name)).unwrap()).unwrap()
}

#[test]
fn two_bench_targets_keep_their_own_baseline_of_one_name() {
    // `cargo bench -- --save-baseline main` runs every bench target: each
    // saves its own, and neither replaces the other's.
    let target = scratch_dir("baselines-per-target");
    let vars = [("CARGO_TARGET_DIR", target.as_os_str())];
    let mut suite_args = QUICK.to_vec();
    suite_args.extend(["--exact", "primitives::int_add", "--save-baseline", "main"]);
    let suite = run_with_env(bench_tests::suite_binary(), &suite_args, &vars);
    assert_eq!(suite.code, Some(0), "{suite:?}");
    save_one(&target, "main", "also_passes");
    let suite_doc = baselines_dir(&target).join("main/suite.json");
    let text = std::fs::read_to_string(&suite_doc).unwrap();
    assert!(text.contains("primitives::int_add"), "the suite's is kept");

    let gated = fixture(
        &target,
        &[],
        &[
            "--exact",
            "also_passes",
            "--baseline",
            "main",
            "--fail-on-regression",
            "--noise-threshold",
            "100",
        ],
    );
    assert_eq!(gated.code, Some(0), "{gated:?}");
    assert!(
        !gated.stdout.contains("new: not measured"),
        "{}",
        gated.stdout
    );
    assert!(gated.stdout.contains("1 unclear") || gated.stdout.contains("1 no difference"));

    // A target with no baseline of that name is told who has one.
    let mut calibration_like = QUICK.to_vec();
    calibration_like.extend(["--exact", "primitives::int_add", "--baseline", "other"]);
    save_passes(&target, "other");
    let out = run_with_env(bench_tests::suite_binary(), &calibration_like, &vars);
    assert_refused(&out, "no baseline 'other' for bench target 'suite' at ");
    assert!(
        out.stderr
            .contains("'other' is saved by bench target fixture only"),
        "{}",
        out.stderr
    );
    let _ = std::fs::remove_dir_all(&target);
}

#[test]
fn a_gate_that_compared_nothing_fails_loudly() {
    // What an older version left: one NAME.json for every target, written
    // by whichever ran last (here another binary's benchmarks).
    let target = scratch_dir("baselines-gate-nothing");
    let mut document = save_passes(&target, "mine");
    document["benchmarks"][0]["name"] = "primitives::int_add".into();
    let mut extra = document["benchmarks"][0].clone();
    extra["name"] = "primitives::int_mul".into();
    document["benchmarks"].as_array_mut().unwrap().push(extra);
    let legacy = baselines_dir(&target).join("main.json");
    std::fs::write(&legacy, document.to_string()).unwrap();

    let gated = fixture(
        &target,
        &[],
        &[
            "--exact",
            "passes",
            "--baseline",
            "main",
            "--fail-on-regression",
        ],
    );
    assert_eq!(gated.code, Some(1), "{gated:?}");
    assert!(
        gated.stderr.contains(
            "error: --fail-on-regression: nothing was compared with baseline 'main': 1 new · 0 \
             compared (it holds 2 benchmarks, 0 of them in this binary), so the gate cannot pass"
        ),
        "{}",
        gated.stderr
    );
    assert!(
        gated.stderr.contains("note: baseline 'main' (")
            && gated
                .stderr
                .contains("was saved before baselines were kept per bench target"),
        "{}",
        gated.stderr
    );
    // Without the gate: a warning, and the run's own exit code.
    let out = fixture(&target, &[], &["--exact", "passes", "--baseline", "main"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stderr
            .contains("warning: nothing was compared with baseline 'main'"),
        "{}",
        out.stderr
    );
    // Far fewer compared than the baseline had: 1 of 3, 2 gone.
    let mut document = save_one(&target, "most-gone", "also_passes");
    for gone in ["renamed_a", "renamed_b"] {
        let mut extra = document["benchmarks"][0].clone();
        extra["name"] = gone.into();
        document["benchmarks"].as_array_mut().unwrap().push(extra);
    }
    std::fs::write(baseline_path(&target, "most-gone"), document.to_string()).unwrap();
    let gated = fixture(
        &target,
        &[],
        &[
            "--exact",
            "also_passes",
            "--baseline",
            "most-gone",
            "--fail-on-regression",
            "--noise-threshold",
            "100",
        ],
    );
    assert_eq!(gated.code, Some(1), "{gated:?}");
    assert!(
        gated.stderr.contains(
            "only 1 of baseline 'most-gone''s 3 benchmarks were compared: 2 are not in this \
             binary (renamed_a, renamed_b)"
        ),
        "{}",
        gated.stderr
    );
    // A filter that selects a few of the baseline's benchmarks is fine.
    let mut document = save_one(&target, "both", "also_passes");
    let mut also = document["benchmarks"][0].clone();
    also["name"] = "passes".into();
    document["benchmarks"].as_array_mut().unwrap().push(also);
    std::fs::write(baseline_path(&target, "both"), document.to_string()).unwrap();
    let out = fixture(
        &target,
        &[],
        &[
            "--exact",
            "also_passes",
            "--baseline",
            "both",
            "--fail-on-regression",
            "--noise-threshold",
            "100",
        ],
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(!out.stderr.contains("compared"), "{}", out.stderr);
}

#[test]
fn a_partial_baseline_cannot_gate_and_is_warned_about() {
    let target = scratch_dir("baselines-partial");
    let mut document = save_passes(&target, "cut");
    document["partial"] = true.into();
    let path = baseline_path(&target, "cut");
    std::fs::write(&path, document.to_string()).unwrap();
    let before = std::fs::read(&path).unwrap();

    let gated = fixture(
        &target,
        &[],
        &[
            "--exact",
            "passes",
            "--baseline",
            "cut",
            "--fail-on-regression",
            "--save-baseline",
            "cut",
        ],
    );
    assert_refused(&gated, "baseline 'cut' (");
    assert!(
        gated.stderr.contains(
            "was saved by an interrupted run (\"partial\": true; 1 benchmark measured), so a \
             benchmark it lacks passes as new: it cannot gate --fail-on-regression"
        ),
        "{}",
        gated.stderr
    );
    assert_eq!(std::fs::read(&path).unwrap(), before, "kept as it was");

    let out = fixture(&target, &[], &["--exact", "passes", "--baseline", "cut"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stderr.contains("warning: baseline 'cut' (") && out.stderr.contains("interrupted run"),
        "{}",
        out.stderr
    );
    let listed = fixture(&target, &[], &["--list-baselines"]);
    assert!(
        listed.stdout.contains("cut: saved ")
            && listed
                .stdout
                .contains("PARTIAL (an interrupted run saved it; it cannot gate)"),
        "{}",
        listed.stdout
    );
}

#[test]
fn impossible_figures_in_a_baseline_are_refused_in_one_line() {
    let target = scratch_dir("baselines-impossible");
    let good = save_passes(&target, "good");
    type Edit = fn(&mut serde_json::Value);
    let cases: [(&str, Edit, &str); 8] = [
        (
            "zero-medians",
            |d| {
                d["benchmarks"][0]["measurement"]["estimate"]["block_means_ns"] =
                    [0.0, 0.0][..].into()
            },
            "has only block values of exactly 0 ns",
        ),
        (
            "negative-medians",
            |d| {
                d["benchmarks"][0]["measurement"]["estimate"]["block_means_ns"] =
                    [-5e6, -4e6][..].into()
            },
            "has a block value of -5000000 ns, not a time",
        ),
        (
            "no-medians",
            |d| {
                d["benchmarks"][0]["measurement"]["estimate"]["block_means_ns"] =
                    serde_json::json!([])
            },
            "has an empty list of block values",
        ),
        (
            "no-samples",
            |d| d["benchmarks"][0]["measurement"]["samples"] = serde_json::json!([]),
            "has no samples",
        ),
        (
            "zero-time-sample",
            |d| {
                d["benchmarks"][0]["measurement"]["samples"] =
                    serde_json::json!({"iters": [[1, 1]], "elapsed_ns": [0.0]})
            },
            "in 0 ns, not a measured time",
        ),
        (
            "twice",
            |d| {
                let again = d["benchmarks"][0].clone();
                d["benchmarks"].as_array_mut().unwrap().push(again);
            },
            "benchmark 'passes' is recorded twice",
        ),
        (
            "empty",
            |d| d["benchmarks"] = serde_json::json!([]),
            "it holds no benchmarks",
        ),
        (
            "negative-reference",
            |d| d["benchmarks"][0]["measurement"]["estimate"]["reference_ns"] = (-1.0).into(),
            "has a reference time of -1 ns",
        ),
    ];
    for (name, edit, expected) in cases {
        let mut document = good.clone();
        edit(&mut document);
        let path = baseline_path(&target, name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let text = document.to_string();
        std::fs::write(&path, &text).unwrap();
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
            out.stderr.contains(&format!(
                "{name}/fixture.json is a bench-harness document with impossible figures"
            )),
            "{}",
            out.stderr
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "{name} kept");
    }
    // A number no f64 holds (JSON has no infinity) is refused too.
    let path = baseline_path(&target, "infinite");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let text = good
        .to_string()
        .replacen("\"block_means_ns\":[", "\"block_means_ns\":[1e999,", 1);
    std::fs::write(&path, text).unwrap();
    let out = fixture(
        &target,
        &[],
        &["--exact", "passes", "--baseline", "infinite"],
    );
    assert_refused(&out, "(number out of range at line 1, column ");
}

/// Runs the fixture's `--list-baselines` in `target` with at most 400 MB of
/// address space, killed after 60 s: a hang or a file read whole fails it.
fn list_bounded(target: &Path) -> Run {
    let mut child = Command::new("sh")
        .args(["-c", "ulimit -v 400000 && exec \"$0\" --list-baselines"])
        .arg(fixture_binary())
        .env("CARGO_TARGET_DIR", target)
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            panic!("--list-baselines hung");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_device_among_the_baselines_is_named_not_read() {
    let target = scratch_dir("baselines-fifo");
    save_passes(&target, "good");
    let dir = baselines_dir(&target);
    let made = Command::new("mkfifo")
        .arg(dir.join("fifo.json"))
        .status()
        .unwrap();
    assert!(made.success());
    // Never opened: its type is read through the link, and a device is
    // refused before any open.
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.json")).unwrap();
    std::fs::create_dir_all(dir.join("fifo-per-target")).unwrap();
    Command::new("mkfifo")
        .arg(dir.join("fifo-per-target/fixture.json"))
        .status()
        .unwrap();
    let out = list_bounded(&target);
    assert_eq!(out.code, Some(0), "{out:?}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", out.stdout);
    assert!(lines[0].starts_with("fifo: unreadable: file ") && lines[0].contains("is a FIFO"));
    assert!(
        lines[1].starts_with("fifo-per-target: unreadable: ") && lines[1].contains("is a FIFO")
    );
    assert!(lines[2].starts_with("good: saved "), "{}", lines[2]);
    assert!(
        lines[3].starts_with("zero: unreadable: ") && lines[3].contains("is a character device"),
        "{}",
        lines[3]
    );
    // Comparing with them: one line, at once.
    for name in ["fifo", "zero"] {
        let out = fixture(&target, &[], &["--exact", "passes", "--baseline", name]);
        assert_refused(&out, "not a regular file, so it was not read");
    }
}

#[test]
fn a_big_baseline_is_listed_without_reading_it_into_memory() {
    // 7.2 million samples, about 115 MB: listing one of 100 MB whole took
    // 1.4 GB.
    let target = scratch_dir("baselines-big");
    let mut document = save_passes(&target, "big");
    let sample = "17034.5,\n            17034.5,\n            17034.5,\n";
    let marker = "\"elapsed_ns\": [";
    document["benchmarks"][0]["measurement"]["samples"] =
        serde_json::json!({"iters": [[1024, 1]], "elapsed_ns": [17034.5]});
    let text = serde_json::to_string_pretty(&document).unwrap();
    let at = text.find(marker).unwrap() + marker.len();
    let mut big = String::with_capacity(text.len() + sample.len() * 2_400_000);
    big.push_str(&text[..at]);
    for _ in 0..2_400_000 {
        big.push_str(sample);
    }
    big.push_str(&text[at..]);
    let path = baseline_path(&target, "big");
    std::fs::write(&path, &big).unwrap();
    assert!(std::fs::metadata(&path).unwrap().len() > 90_000_000);
    drop(big);
    let out = list_bounded(&target);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout.starts_with("big: saved 20") && out.stdout.contains(", 1 benchmark, "),
        "{out:?}"
    );
    let _ = std::fs::remove_dir_all(&target);
}
