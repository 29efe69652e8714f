//! The history file: what measured runs append, what writes nothing, and
//! that a cut line or concurrent runs leave it readable. Each test keeps
//! its history in a target directory of its own through CARGO_TARGET_DIR.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use bench_tests::{run_with_env, scratch_dir, Run, QUICK};
use serde_json::Value;

use crate::common::fixture_binary;

fn history_file(target: &Path) -> PathBuf {
    target
        .join("bench-harness")
        .join("history")
        .join("fixture.jsonl")
}

/// The fixture with CARGO_TARGET_DIR=`target` and `args`, git left alone
/// (BENCH_HARNESS_NO_GIT: the records then carry no commit).
fn fixture(target: &Path, args: &[&str]) -> Run {
    let vars = [
        ("CARGO_TARGET_DIR", target.as_os_str()),
        ("BENCH_HARNESS_NO_GIT", OsStr::new("1")),
    ];
    run_with_env(fixture_binary(), args, &vars)
}

fn quick(target: &Path, args: &[&str]) -> Run {
    let mut all = QUICK.to_vec();
    all.extend_from_slice(args);
    fixture(target, &all)
}

/// Every line of the history, parsed; panics on a line that is not JSON.
fn records(target: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(history_file(target)).unwrap_or_default();
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

fn names(records: &[Value]) -> Vec<&str> {
    records
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect()
}

#[test]
fn three_runs_leave_three_records_per_benchmark() {
    let target = scratch_dir("history-three");
    for _ in 0..3 {
        let out = quick(&target, &["--exact", "passes", "also_passes"]);
        assert_eq!(out.code, Some(0), "{out:?}");
    }
    let records = records(&target);
    assert_eq!(
        names(&records),
        [
            "passes",
            "also_passes",
            "passes",
            "also_passes",
            "passes",
            "also_passes",
        ]
    );
    let mut runs: Vec<&str> = records.iter().map(|r| r["run"].as_str().unwrap()).collect();
    runs.dedup();
    assert_eq!(runs.len(), 3, "one id per run: {runs:?}");
    for record in &records {
        let time = record["time_ns"].as_f64().unwrap();
        assert!(time.is_finite(), "{record}");
        assert_eq!(record["v"], 1);
        assert_eq!(record["machine"], records[0]["machine"]);
        assert!(record["timestamp"].as_str().unwrap().ends_with('Z'));
        assert!(
            record.get("commit").is_none(),
            "git was turned off: {record}"
        );
    }
    // --history shows them, oldest first.
    let out = fixture(&target, &["--history", "--exact", "passes"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.starts_with("passes: 3 runs\n"), "{}", out.stdout);
    assert_eq!(out.stdout.lines().count(), 4, "{}", out.stdout);
    assert!(out.stdout.contains("(no git)"), "{}", out.stdout);
    // The last run's report draws them: a history chart per benchmark and
    // a sparkline in the summary.
    let page = target
        .join("bench-harness")
        .join("report")
        .join("fixture")
        .join("index.html");
    let html = std::fs::read_to_string(&page).expect("the report was written");
    assert_eq!(
        html.matches("History: this benchmark's last 3 runs")
            .count(),
        2
    );
    assert_eq!(html.matches(r#"<svg class="spark""#).count(), 2);
}

#[test]
fn no_history_smoke_tests_and_lists_write_nothing() {
    let target = scratch_dir("history-none");
    let out = quick(&target, &["--exact", "passes", "--no-history"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    // A smoke test, as `cargo test --benches` runs it, and --list.
    let out = fixture(&target, &["--exact", "passes"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let out = fixture(&target, &["--list"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(!history_file(&target).exists());
    let out = fixture(&target, &["--history", "passes"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout
            .starts_with("no history for the selected benchmarks in "),
        "{}",
        out.stdout
    );
}

#[test]
fn a_history_that_cannot_be_written_is_a_warning_not_a_failure() {
    let target = scratch_dir("history-unwritable");
    // A directory where the file should be.
    std::fs::create_dir_all(history_file(&target)).unwrap();
    let out = quick(&target, &["--exact", "passes"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let warning = out
        .stderr
        .lines()
        .find(|line| line.starts_with("warning: this run was not added to the history "))
        .unwrap_or_else(|| panic!("{}", out.stderr));
    assert!(warning.ends_with("or run with --no-history"), "{warning}");
}

#[test]
fn a_failed_benchmark_has_no_record_and_the_others_keep_theirs() {
    let target = scratch_dir("history-failed");
    let out = quick(&target, &["--exact", "passes", "panics_in_routine"]);
    assert_eq!(out.code, Some(101), "{out:?}");
    assert_eq!(names(&records(&target)), ["passes"]);
}

#[test]
fn a_line_cut_by_a_killed_run_is_skipped_with_a_note() {
    let target = scratch_dir("history-cut");
    let out = quick(&target, &["--exact", "passes"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    // What a run killed in the middle of its write would leave.
    let path = history_file(&target);
    let text = std::fs::read_to_string(&path).unwrap();
    let cut = &text[..text.len() / 2];
    std::fs::write(&path, format!("{text}{cut}")).unwrap();

    let out = quick(&target, &["--exact", "passes"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let out = fixture(&target, &["--history", "--exact", "passes"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.starts_with("passes: 2 runs\n"), "{}", out.stdout);
    assert!(
        out.stderr
            .contains("skipped 1 line that is not a whole record (line 2)"),
        "{}",
        out.stderr
    );
    // The run after the cut started on a line of its own.
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(
        serde_json::from_str::<Value>(lines[2]).is_ok(),
        "{}",
        lines[2]
    );
}

#[test]
fn concurrent_runs_append_whole_lines() {
    let target = scratch_dir("history-concurrent");
    let runs: Vec<_> = (0..4)
        .map(|_| {
            let target = target.to_path_buf();
            std::thread::spawn(move || quick(&target, &["--exact", "passes", "also_passes"]))
        })
        .collect();
    for run in runs {
        let out = run.join().unwrap();
        assert_eq!(out.code, Some(0), "{out:?}");
    }
    let records = records(&target);
    assert_eq!(records.len(), 8);
    // Each run's two records are together.
    for pair in records.chunks(2) {
        assert_eq!(pair[0]["run"], pair[1]["run"]);
    }
}

#[test]
fn bmf_output_is_an_object_of_measures() {
    let target = scratch_dir("history-bmf");
    let out = quick(
        &target,
        &["--exact", "passes", "panics_in_routine", "--format", "bmf"],
    );
    assert_eq!(out.code, Some(101), "{out:?}");
    let document: Value = serde_json::from_str(&out.stdout).unwrap();
    let benchmarks = document.as_object().unwrap();
    assert_eq!(benchmarks.keys().collect::<Vec<_>>(), ["passes"]);
    let latency = &document["passes"]["latency"];
    assert!(latency["value"].is_number(), "{document}");
}

#[cfg(unix)]
#[test]
fn an_interrupted_run_writes_nothing() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::{Command, Stdio};

    let target = scratch_dir("history-interrupted");
    let mut child = Command::new(fixture_binary())
        .args(["--bench", "--measure-time", "20", "--exact", "spins"])
        .env("NO_COLOR", "1")
        .env("CARGO_TARGET_DIR", &target)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the fixture starts");
    // The machine line: by then Ctrl-C is handled.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while !line.starts_with("machine:") {
        line.clear();
        assert_ne!(stdout.read_line(&mut line).unwrap(), 0, "ended early");
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(130), "{rest}");
    assert!(!history_file(&target).exists());
}

// Issue 27, "History that knows when code changed": each record carries a
// hash of the machine code its benchmark runs, and a step across runs of
// one hash is labelled a step of the machine or the layout.

/// The `--history` line of `name` that marks a change point.
/// Runs on each side of a planted step. The change-point test's 1% level
/// needs about six a side to find even a 4x step (its permutations put the
/// two levels apart again in about 2 of C(12, 6) orders), and a run that
/// reads as a bound under load is left out of the series: with 5 and 6 the
/// step went unfound once in CI. Eight leave room for two.
const SIDE: usize = 8;

fn change_point_line(history: &str) -> Option<&str> {
    history.lines().find(|l| l.contains("◆ change point"))
}

/// The `code` field of every record of `name` in `target`'s history of
/// bench target `bench`.
fn codes(target: &std::path::Path, bench: &str, name: &str) -> Vec<String> {
    let path = target.join(format!("bench-harness/history/{bench}.jsonl"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{e}: {path:?}"))
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| r["name"] == name)
        .map(|r| r["code"].as_str().expect("a code hash").to_string())
        .collect()
}

#[test]
fn a_step_of_one_binary_is_labelled_code_unchanged() {
    let target = scratch_dir("history-code-unchanged");
    let env = |slower: bool| {
        let mut env = vec![("CARGO_TARGET_DIR", target.as_os_str())];
        if slower {
            // Four times the work, from the environment: same binary, same
            // code, a step of what it is given.
            env.push(("BENCH_FIXTURE_SLOWER", std::ffi::OsStr::new("1")));
        }
        env
    };
    let mut args = QUICK.to_vec();
    // One process for 100 ms, not three for the quick 20 ms: the test is
    // of the code label, and with ten tests beside it three processes of
    // the debug `spins` read ±19-78% (one disturbed process put a run's
    // interval at `<381.1 µs` for a 75 µs body), so the step went unfound
    // in 3 of 9 runs.
    args.extend(["--exact", "spins", "--measure-time", "0.1", "--forks", "1"]);
    for slower in [[false; SIDE], [true; SIDE]].concat() {
        let run = run_with_env(fixture_binary(), &args, &env(slower));
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
    let codes = codes(&target, "fixture", "spins");
    assert_eq!(codes.len(), 2 * SIDE);
    assert!(codes.iter().all(|c| c == &codes[0]), "{codes:?}");
    let history = run_with_env(
        fixture_binary(),
        &["--history", "--exact", "spins"],
        &env(false),
    );
    let line = change_point_line(&history.stdout).unwrap_or_else(|| panic!("{}", history.stdout));
    assert!(
        line.contains("code unchanged: a step of the machine or the layout"),
        "{line}"
    );
}

/// Two builds of `benches/against.rs` whose `chain` and `body_changes`
/// bodies differ (1000 multiplies against 1020 and 4000): [`SIDE`] runs of
/// each, one history.
#[test]
fn a_step_between_builds_of_another_body_is_not_labelled_code_unchanged() {
    let (shorter, longer) = bench_tests::against_builds();
    let target = scratch_dir("history-code-changed");
    let env = [("CARGO_TARGET_DIR", target.as_os_str())];
    let mut args = QUICK.to_vec();
    args.extend(["--exact", "chain", "unchanged", "body_changes"]);
    for build in [[shorter; SIDE], [longer; SIDE]].concat() {
        let run = run_with_env(build, &args, &env);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
    let chain = codes(&target, "against", "chain");
    assert_eq!(chain.len(), 2 * SIDE);
    assert!(chain[..SIDE].iter().all(|c| c == &chain[0]), "{chain:?}");
    assert!(chain[SIDE..].iter().all(|c| c == &chain[SIDE]), "{chain:?}");
    assert_ne!(chain[0], chain[SIDE], "two bodies, one hash");
    // The benchmark whose body is the same in both builds keeps its hash,
    // though the other's change moved code about in the binary.
    let unchanged = codes(&target, "against", "unchanged");
    assert!(
        unchanged.iter().all(|c| c == &unchanged[0]),
        "{unchanged:?}"
    );
    // Four times the work: a step, and across a change of code.
    let history = run_with_env(longer, &["--history", "--exact", "body_changes"], &env);
    let line = change_point_line(&history.stdout).unwrap_or_else(|| panic!("{}", history.stdout));
    assert!(line.contains("code changed"), "{line}");
    assert!(!line.contains("code unchanged"), "{line}");
}

/// Replaces the history with one run per factor: copies of `first` (a
/// record of this machine's), each with its own run id and `scale`d by its
/// factor.
fn plant_history(target: &Path, first: &Value, factors: &[f64], scale: impl Fn(&mut Value, f64)) {
    let lines: String = factors
        .iter()
        .enumerate()
        .map(|(i, &factor)| {
            let mut record = first.clone();
            record["run"] = Value::from(format!("planted-{i}-{factor}"));
            scale(&mut record, factor);
            format!("{record}\n")
        })
        .collect();
    std::fs::write(history_file(target), lines).unwrap();
}

/// Every run that writes the history measures the machine's reference
/// kernel; once three earlier runs have it, the run says how its machine
/// compares: within their spread, that it is; beyond it, a warning that
/// every time is off. The earlier runs are planted
/// (copies of this machine's own record) so that the machine's change is
/// known.
#[test]
fn the_machine_is_compared_with_its_recent_runs() {
    let target = scratch_dir("history-drift");
    let out = quick(&target, &["--exact", "passes"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let first = records(&target).remove(0);
    let reference = first["reference_ns"]
        .as_f64()
        .unwrap_or_else(|| panic!("no reference kernel in {first}"));
    let plant = |factors: &[f64]| {
        plant_history(&target, &first, factors, |record, factor| {
            record["reference_ns"] = Value::from(reference * factor);
        });
    };
    // What a run says on stderr (with the machine's other lines) after the
    // planted runs.
    let said_after = |factors: &[f64], more: &[&str]| {
        plant(factors);
        let mut args = vec!["--exact", "passes"];
        args.extend_from_slice(more);
        let out = quick(&target, &args);
        assert_eq!(out.code, Some(0), "{out:?}");
        assert!(!out.stdout.contains("its last"), "{}", out.stdout);
        out.stderr
    };
    // Runs far apart: this one is within their spread.
    let said = said_after(&[0.8, 1.0, 1.25], &[]);
    assert!(
        said.contains("machine: as fast as in its last 3 runs"),
        "{said}"
    );
    // Runs on a machine twice as fast as this one, close together: a
    // machine warning, silenced with the others.
    let slower = [0.499, 0.5, 0.501];
    let said = said_after(&slower, &[]);
    assert!(
        said.contains("warning: the machine ran")
            && said.contains("slower than in its last 3 runs"),
        "{said}"
    );
    let said = said_after(&slower, &["--no-machine-warnings"]);
    assert!(!said.contains("its last"), "{said}");
    // Too few earlier runs: nothing said.
    let said = said_after(&[1.0], &[]);
    assert!(!said.contains("its last"), "{said}");
}

/// Once the history holds three earlier runs of a benchmark's code on this
/// machine, its row says where a rerun's time falls: the distance from
/// their centre plus a prediction bound over their spread, combined with
/// this run's own ± on logs. The header says what it is; the row's ± and
/// the JSON's interval stay this run's. The earlier runs are planted
/// (copies of this machine's own record, their times scaled) so that the
/// term is known.
#[test]
fn a_row_says_where_a_rerun_falls_from_its_last_runs() {
    let target = scratch_dir("history-rerun");
    // `spins` (75 µs), whose own ± is narrower than the empty `passes'`
    // (often over 100% in 20 ms: a bound either way), in one process for
    // 100 ms, not three for 33 ms each: under CI's load three of the debug
    // body kept 4 of 59 slices and read as a bound.
    let args = ["--exact", "spins", "--measure-time", "0.1", "--forks", "1"];
    let out = quick(&target, &args);
    assert_eq!(out.code, Some(0), "{out:?}");
    let first = records(&target).remove(0);
    let time_ns = first["time_ns"].as_f64().unwrap();
    let plant = |factors: &[f64], code: &str| {
        plant_history(&target, &first, factors, |record, factor| {
            record["time_ns"] = Value::from(time_ns * factor);
            record["lower_ns"] = Value::from(time_ns * factor * 0.99);
            record["upper_ns"] = Value::from(time_ns * factor * 1.01);
            if !code.is_empty() {
                record["code"] = Value::from(code);
            }
        });
    };
    let json = target.join("run.json");
    let run = |factors: &[f64], code: &str| {
        plant(factors, code);
        let mut all = args.to_vec();
        all.extend(["--format", "json", "-o", json.to_str().unwrap()]);
        let out = quick(&target, &all);
        assert_eq!(out.code, Some(0), "{out:?}");
        let text = std::fs::read_to_string(&json).unwrap();
        let document: Value = serde_json::from_str(&text).unwrap();
        (out, document["benchmarks"][0]["measurement"].clone())
    };
    let factors = [0.95, 1.0, 1.05];
    // A bound says nothing of a rerun: measured again, up to three times.
    let bound = |m: &Value| {
        let number = |key: &str| m["estimate"][key].as_f64().unwrap();
        let (now, lower, upper) = (number("time_ns"), number("ci_low_ns"), number("ci_high_ns"));
        lower <= 0.0 || (now - lower).max(upper - now) >= now
    };
    let mut attempts = 1;
    let (out, measurement) = loop {
        let (out, measurement) = run(&factors, "");
        if !bound(&measurement) || attempts == 3 {
            break (out, measurement);
        }
        attempts += 1;
    };
    let term = measurement["rerun_half_width"]
        .as_f64()
        .unwrap_or_else(|| panic!("no rerun_half_width in {measurement}\n{}", out.stderr));
    let estimate = &measurement["estimate"];
    let number = |key: &str| estimate[key].as_f64().unwrap();
    let (now, lower, upper) = (number("time_ns"), number("ci_low_ns"), number("ci_high_ns"));
    // The term: |ln now − mean| + t(2) · sd · √(4/3) over the planted logs.
    let logs: Vec<f64> = factors.iter().map(|f| (time_ns * f).ln()).collect();
    let mean = logs.iter().sum::<f64>() / 3.0;
    let sd = (logs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 2.0).sqrt();
    let expected = ((now.ln() - mean).abs() + 4.302653 * sd * (4.0f64 / 3.0).sqrt()).exp() - 1.0;
    assert!((term - expected).abs() < 1e-5, "{term} against {expected}");
    // The row's ± is this run's own; the rerun line combines it with the
    // term on logs.
    let own = (now - lower).max(upper - now) / now;
    let row = out.stdout.lines().find(|l| l.starts_with("spins")).unwrap();
    if bound(&measurement) {
        // This run's interval reached zero three times (a debug body on a
        // busy machine): a bound, which a rerun cannot be held to.
        assert!(row.contains('<'), "{row}");
        assert!(!out.stdout.contains("rerun: where"), "{}", out.stdout);
        assert!(!out.stdout.contains("    rerun "), "{}", out.stdout);
        return;
    }
    assert!(
        out.stdout
            .contains("rerun: where 95% of reruns' times fall"),
        "the header says what the rerun figure is:\n{}",
        out.stdout
    );
    let rerun_line = (out.stdout.lines())
        .find(|l| l.trim_start().starts_with("rerun "))
        .unwrap_or_else(|| panic!("no rerun line:\n{}", out.stdout));
    let percent_after = |text: &str, mark: &str| -> f64 {
        text.split(mark)
            .nth(1)
            .and_then(|rest| rest.split('%').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no {mark} in {text}"))
    };
    // Within the printing's rounding: 2 decimals below 10%, 1 above.
    let as_printed = |printed: f64, exact: f64| {
        (printed - exact).abs() <= if exact < 10.0 { 0.005 } else { 0.05 } + 1e-9
    };
    let printed_own = percent_after(row, "±");
    assert!(
        as_printed(printed_own, 100.0 * own),
        "{row}: this run's ±{}%",
        100.0 * own
    );
    let printed = percent_after(rerun_line, "±");
    let expected = 100.0 * (own.ln_1p().hypot(term.ln_1p())).exp_m1();
    assert!(
        as_printed(printed, expected),
        "{rerun_line}: ±{expected}% expected"
    );
    // Two earlier runs, or three of other code: nothing said of a rerun.
    for (factors, code) in [(&factors[..2], ""), (&factors[..], "0123456789abcdef")] {
        let (out, measurement) = run(factors, code);
        assert!(
            measurement.get("rerun_half_width").is_none(),
            "{measurement}"
        );
        assert!(!out.stdout.contains("reruns"), "{}", out.stdout);
    }
}
