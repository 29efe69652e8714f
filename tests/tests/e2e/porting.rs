//! Coming from criterion: a criterion bench file ported as the README says
//! (`src/bin/ported.rs`): group names in member names, criterion's flags,
//! settings for the file and the group, `--quick`, binary byte units,
//! `iter_custom`, and a misuse reported at the user's line.

use bench_tests::{quick_bench, run, run_with_env, scratch_dir, Run, QUICK};
use serde_json::Value;

use crate::common::ported_binary;

fn ported(args: &[&str]) -> Run {
    run(ported_binary(), args)
}

/// A measured run's JSON document (stdout), with the table's lines gone.
fn json_of(out: &Run) -> Value {
    assert_eq!(out.code, Some(0), "{out:?}");
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout))
}

/// Benchmark `name`'s record in a document.
fn record<'a>(document: &'a Value, name: &str) -> &'a Value {
    document["benchmarks"]
        .as_array()
        .expect("a list of benchmarks")
        .iter()
        .find(|b| b["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {document}"))
}

#[test]
fn a_group_filter_selects_exactly_its_members_under_criterions_ids() {
    let group = ported(&["--list", "find_byte"]);
    assert_eq!(
        group.listed(),
        [
            "find_byte/naive/64",
            "find_byte/naive/1024",
            "find_byte/chunked/64",
            "find_byte/chunked/1024",
        ]
    );
    let exact = ported(&["--list", "--exact", "find_byte/naive/1024"]);
    assert_eq!(exact.listed(), ["find_byte/naive/1024"]);
    // And so in a measured run's rows.
    let out = quick_bench(ported_binary(), &["find_byte/naive"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    for name in ["find_byte/naive/64", "find_byte/naive/1024"] {
        out.row(name);
    }
    assert!(
        out.stdout.contains("2 measured, 0 failed"),
        "{}",
        out.stdout
    );
}

#[test]
fn criterions_flags_are_refused_with_the_flag_to_use() {
    for (flag, value, ours) in [
        ("--sample-size", "10", "--min-samples"),
        ("--measurement-time", "5", "--measure-time"),
        ("--load-baseline", "main", "--baseline NAME"),
        ("--discard-baseline", "", "--save-baseline"),
        ("--significance-level", "0.05", "--noise-threshold"),
        ("--output-format", "bencher", "--format bencher"),
    ] {
        let mut args = vec!["--bench", flag];
        if !value.is_empty() {
            args.push(value);
        }
        let out = ported(&args);
        assert_eq!(out.code, Some(2), "{flag}: {out:?}");
        assert_eq!(out.stderr.lines().count(), 1, "{flag}: {}", out.stderr);
        assert!(
            out.stderr
                .contains(&format!("'{flag}' is criterion's flag"))
                && out.stderr.contains(ours),
            "{flag}: {}",
            out.stderr
        );
        assert!(
            out.stdout.is_empty(),
            "{flag}: nothing runs: {}",
            out.stdout
        );
    }
    // A flag neither harness has keeps the plain error.
    let out = ported(&["--bench", "--frobnicate"]);
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.contains("unknown flag '--frobnicate'"),
        "{}",
        out.stderr
    );
}

#[test]
fn noplot_is_accepted_with_a_note_pointing_at_the_report() {
    let out = ported(&["--noplot", "--list", "find_byte/naive/64"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(out.listed(), ["find_byte/naive/64"]);
    assert!(
        out.stderr.contains(
            "note: --noplot is criterion's and is ignored: the plots here are in the HTML report"
        ),
        "{}",
        out.stderr
    );
}

#[test]
fn quick_measures_briefly_and_says_the_figures_are_rough() {
    let out = ported(&[
        "--bench",
        "--quick",
        "--format",
        "json",
        "find_byte/naive/64",
    ]);
    let document = json_of(&out);
    let config = &record(&document, "find_byte/naive/64")["measurement"]["config"];
    // Shorter than the file's own `measure_time = 0.2`: the command line wins.
    assert_eq!(config["measure_time_s"], 0.05);
    assert_eq!(config["max_time_s"], 0.5);
    assert_eq!(config["stop_rule"], "time_budget");
    assert!(out.stderr.contains("--quick"), "{}", out.stderr);
    assert!(out.stderr.contains("rough"), "{}", out.stderr);
    // A flag given beside it still says what it says.
    let out = ported(&[
        "--bench",
        "--quick",
        "--measure-time",
        "0.03",
        "--format",
        "json",
        "find_byte/naive/64",
    ]);
    let document = json_of(&out);
    let config = &record(&document, "find_byte/naive/64")["measurement"]["config"];
    assert_eq!(config["measure_time_s"], 0.03);
}

#[test]
fn settings_come_from_the_command_line_attribute_group_and_file_in_that_order() {
    let measured = |extra: &[&str]| {
        let mut args = vec![
            "--bench",
            "--precision",
            "0",
            "--max-time",
            "1",
            "--format",
            "json",
            "--exact",
            "find_byte/naive/64",
            "sum_on_2_threads",
        ];
        args.extend_from_slice(extra);
        json_of(&ported(&args))
    };
    let document = measured(&[]);
    let member = &record(&document, "find_byte/naive/64")["measurement"]["config"];
    let other = &record(&document, "sum_on_2_threads")["measurement"]["config"];
    // main!(measure_time = 0.2, warm_up_time = 0.05) for the whole file.
    for config in [member, other] {
        assert_eq!(config["measure_time_s"], 0.2);
        assert_eq!(config["warm_up_time_s"], 0.05);
    }
    // group!(min_samples = 20) for the group's members only.
    assert_eq!(member["min_samples"], 20);
    assert_eq!(other["min_samples"], 10);
    // The command line over all of them.
    let document = measured(&["--min-samples", "12", "--measure-time", "0.05"]);
    let member = &record(&document, "find_byte/naive/64")["measurement"]["config"];
    assert_eq!(member["min_samples"], 12);
    assert_eq!(member["measure_time_s"], 0.05);
}

#[test]
fn byte_rates_print_in_binary_units_where_chosen() {
    // group!(bytes_unit = "binary") for find_byte's members.
    let out = quick_bench(ported_binary(), &["--exact", "find_byte/naive/1024"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let row = out.row("find_byte/naive/1024").line;
    assert!(
        ["KiB/s", "MiB/s", "GiB/s"]
            .iter()
            .any(|unit| row.contains(unit)),
        "{row}"
    );
    // --bytes-unit on the command line overrides the group.
    let out = quick_bench(
        ported_binary(),
        &["--exact", "find_byte/naive/1024", "--bytes-unit", "decimal"],
    );
    let row = out.row("find_byte/naive/1024").line;
    assert!(!row.contains("iB/s"), "{row}");
    assert!(
        ["KB/s", "MB/s", "GB/s"]
            .iter()
            .any(|unit| row.contains(unit)),
        "{row}"
    );
    let out = ported(&["--bench", "--bytes-unit", "kibi"]);
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr
            .contains("--bytes-unit must be decimal or binary, got 'kibi'"),
        "{}",
        out.stderr
    );
}

#[test]
fn iter_custom_durations_are_the_bodys_own_with_nothing_subtracted() {
    // The "device" reports 50 µs per iteration whatever the clock says: the
    // harness's loop overhead, subtracted from timed samples, is not
    // subtracted from these.
    let mut args = QUICK.to_vec();
    args.extend([
        "--format",
        "json",
        "--exact",
        "device_reported",
        "sum_on_2_threads",
    ]);
    let document = json_of(&ported(&args));
    let estimate = record(&document, "device_reported")["measurement"]["estimate"]["time_ns"]
        .as_f64()
        .unwrap_or_else(|| panic!("an estimate in {document}"));
    assert!((estimate - 50_000.0).abs() < 1e-6, "{estimate}");
    let threads = &record(&document, "sum_on_2_threads")["outcome"];
    assert_eq!(*threads, "measured");
    // And a smoke test runs each body once.
    let out = ported(&["sum_on_2_threads", "device_reported"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout.contains("test sum_on_2_threads ... ok"),
        "{}",
        out.stdout
    );
}

#[test]
fn iter_custom_durations_stay_the_bodys_own_across_processes() {
    // Under --forks the parent analyses each child's samples again: it
    // must know from the child's document that they are self-timed, or it
    // takes the child's loop overhead out of them (49,968 ns in this
    // debug build).
    let mut args = QUICK.to_vec();
    args.extend([
        "--forks",
        "2",
        "--format",
        "json",
        "--exact",
        "device_reported",
    ]);
    let document = json_of(&ported(&args));
    let measurement = &record(&document, "device_reported")["measurement"];
    let estimate = measurement["estimate"]["time_ns"]
        .as_f64()
        .unwrap_or_else(|| panic!("an estimate in {document}"));
    assert!((estimate - 50_000.0).abs() < 1e-6, "{estimate}");
    assert_eq!(measurement["self_timed"], true, "{measurement}");
    let processes = &measurement["forks"]["process_estimates_ns"];
    assert_eq!(processes.as_array().map(Vec::len), Some(2), "{measurement}");
}

#[test]
fn measuring_twice_is_reported_at_the_users_line() {
    let out = ported(&["--ignored"]);
    assert_eq!(out.code, Some(101), "{out:?}");
    assert!(
        out.stdout.contains("test iterates_twice ... FAILED"),
        "{}",
        out.stdout
    );
    let source = include_str!("../../src/bin/ported.rs");
    let line = source
        .lines()
        .position(|line| line.contains("b.iter(|| black_box(2));"))
        .expect("the second call in the source")
        + 1;
    assert!(
        out.stdout
            .contains(&format!("(at tests/src/bin/ported.rs:{line}:")),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("bench-runtime"), "{}", out.stdout);
}

#[test]
fn a_baseline_saved_under_the_old_names_says_so_once() {
    let target = scratch_dir("porting-old-names");
    let env = [("CARGO_TARGET_DIR", target.as_os_str())];
    let measure = |extra: &[&str]| {
        let mut args = QUICK.to_vec();
        args.extend(["find_byte/naive"]);
        args.extend_from_slice(extra);
        run_with_env(ported_binary(), &args, &env)
    };
    let saved = measure(&["--save-baseline", "old"]);
    assert_eq!(saved.code, Some(0), "{saved:?}");
    // As an older version saved it: members named without their group.
    let file = target
        .join("bench-harness")
        .join("baselines")
        .join("old")
        .join("ported.json");
    let text = std::fs::read_to_string(&file).expect("the baseline was saved");
    std::fs::write(&file, text.replace("\"find_byte/naive/", "\"naive/")).unwrap();

    let out = measure(&["--baseline", "old"]);
    let notes: Vec<&str> = out
        .stderr
        .lines()
        .filter(|line| line.contains("without the group"))
        .collect();
    assert_eq!(notes.len(), 1, "{}", out.stderr);
    assert!(
        notes[0].contains("'naive/64', now 'find_byte/naive/64'")
            && notes[0].contains("--save-baseline old"),
        "{}",
        notes[0]
    );
}
