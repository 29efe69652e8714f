//! Ctrl-C: the first SIGINT stops the run at the next sample boundary and
//! reports what was measured, marked partial, with exit code 130; a second
//! one ends the process at once. The tests send real signals (`kill -INT`).
#![cfg(unix)]

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use bench_tests::{read_json, scratch_dir, QUICK};

use crate::common::{fixture_binary, COOLING};

/// A running fixture, and what it has printed so far.
struct Running {
    child: Child,
    /// Read through this reader only: it may hold output already read.
    stdout: BufReader<ChildStdout>,
    seen: String,
}

/// Starts the fixture with `args` and returns once its stdout shows
/// `marker` (the machine line: by then it handles SIGINT).
fn start(args: &[&str], marker: &str) -> Running {
    let mut child = Command::new(fixture_binary())
        .args(args)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the fixture starts");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    while !seen.contains(marker) {
        let mut line = String::new();
        if stdout.read_line(&mut line).unwrap() == 0 {
            panic!("the fixture ended before printing {marker:?}: {seen}");
        }
        seen.push_str(&line);
    }
    Running {
        child,
        stdout,
        seen,
    }
}

fn interrupt(child: &Child) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

/// Two Ctrl-Cs. Signals sent back to back can merge into one, hence the
/// pause between them.
fn interrupt_twice(child: &Child) {
    interrupt(child);
    std::thread::sleep(Duration::from_millis(300));
    interrupt(child);
}

/// Waits for the child and returns its exit code and full stdout/stderr.
fn finish(mut running: Running) -> (Option<i32>, String, String) {
    let mut stdout = running.seen;
    running.stdout.read_to_string(&mut stdout).unwrap();
    let mut stderr = String::new();
    running
        .child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (running.child.wait().unwrap().code(), stdout, stderr)
}

#[test]
fn ctrl_c_stops_at_a_sample_boundary_and_writes_partial_results() {
    let dir = scratch_dir("interrupt-partial");
    let json = dir.join("out.json");
    let mut args = QUICK.to_vec();
    // A budget far longer than the test waits: only Ctrl-C ends this run.
    // Sequential, so `also_passes` is measuring when it comes.
    args.extend([
        "--schedule",
        "sequential",
        "--measure-time",
        "600",
        "--max-time",
        "900",
        "--format",
        "json",
        "-o",
        json.to_str().unwrap(),
        "--exact",
        "passes",
        "also_passes",
    ]);
    let running = start(&args, "machine: ");
    // Long enough for calibration and warm-up even on a loaded machine.
    std::thread::sleep(Duration::from_secs(2));
    interrupt(&running.child);
    let (code, stdout, stderr) = finish(running);
    assert_eq!(code, Some(130), "{stdout}\n{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    // Each benchmark that had recorded samples reports them, stopped; one
    // that had not started (`passes`, after `also_passes`) is left out.
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|l| matches!(l.split_whitespace().next(), Some("passes" | "also_passes")))
        .collect();
    assert!(!rows.is_empty(), "{stdout}");
    for row in &rows {
        assert!(row.trim_end().ends_with("stopped"), "{row}");
    }
    let document = read_json(&json);
    assert_eq!(document["partial"], true);
    let benchmarks = document["benchmarks"].as_array().unwrap();
    assert_eq!(benchmarks.len(), rows.len(), "{document}");
    assert_eq!(benchmarks[0]["measurement"]["stop"], "abandoned");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interrupted_a_b_group_says_so_not_that_forks_split_it() {
    let mut args = QUICK.to_vec();
    args.extend([
        "--measure-time",
        "600",
        "--max-time",
        "900",
        "--ignored",
        "by_size",
    ]);
    let running = start(&args, "machine: ");
    std::thread::sleep(Duration::from_secs(2));
    interrupt(&running.child);
    let (code, stdout, stderr) = finish(running);
    assert_eq!(code, Some(130), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("A/B groups (by_size) have no ratios: the run was interrupted"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("--forks"),
        "no --forks was given: {stderr}"
    );
}

#[test]
fn a_second_ctrl_c_exits_at_once() {
    // One iteration sleeps 20 s: the first Ctrl-C waits for its end, the
    // second does not.
    let mut args = QUICK.to_vec();
    args.extend(["--ignored", "--exact", "sleeps_20s"]);
    let running = start(&args, "machine: ");
    let started = Instant::now();
    std::thread::sleep(Duration::from_millis(300));
    interrupt_twice(&running.child);
    let (code, stdout, stderr) = finish(running);
    assert_eq!(code, Some(130), "{stdout}\n{stderr}");
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "waited for the iteration: {:?}",
        started.elapsed()
    );
}

#[test]
fn ctrl_c_during_a_smoke_test_ends_it_with_the_benchmarks_run_so_far() {
    // Wait for `passes`, which runs first (name order).
    let running = start(
        &[
            "--test",
            "--include-ignored",
            "--exact",
            "sleeps_20s",
            "passes",
        ],
        "test passes ... ok",
    );
    // Now the 20 s sleeper runs: the first Ctrl-C would wait for it, the
    // second ends the run.
    std::thread::sleep(Duration::from_millis(300));
    interrupt_twice(&running.child);
    let (code, stdout, stderr) = finish(running);
    assert_eq!(code, Some(130), "{stdout}\n{stderr}");
    assert!(stdout.contains("test passes ... ok"), "{stdout}");
}

/// Ctrl-C during the warm pass (a row whose slices cooled between them,
/// measured again in one stretch: `session/warm.rs`) leaves the run as
/// partial as one during the first pass: exit 130, `"partial": true` in
/// the document, and nothing in the history.
#[test]
fn ctrl_c_during_the_warm_pass_leaves_the_run_partial() {
    let dir = scratch_dir("interrupt-warm");
    let json = dir.join("out.json");
    let mut child = Command::new(fixture_binary())
        .args(COOLING)
        .args(["--format", "json", "-o", json.to_str().unwrap()])
        .env("NO_COLOR", "1")
        .env("CARGO_TARGET_DIR", &*dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the fixture starts");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    while !seen.contains("measuring again in one stretch, warm: cools_between_slices") {
        let mut line = String::new();
        if stderr.read_line(&mut line).unwrap() == 0 {
            panic!("the run ended without a warm pass: {seen}");
        }
        seen.push_str(&line);
    }
    // Into the warm pass's first process (about a second in all).
    std::thread::sleep(Duration::from_millis(300));
    interrupt(&child);
    stderr.read_to_string(&mut seen).unwrap();
    let code = child.wait().unwrap().code();
    assert_eq!(code, Some(130), "{seen}");
    assert!(
        seen.contains("interrupted: the results above are partial"),
        "{seen}"
    );
    assert_eq!(read_json(&json)["partial"], true);
    let history = dir.join("bench-harness").join("history");
    assert!(!history.join("fixture.jsonl").exists(), "{history:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
