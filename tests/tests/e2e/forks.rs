//! `--forks N`: each benchmark measured in N child processes of the
//! benchmark binary, their samples pooled, a crash contained to its
//! benchmark.

use std::ffi::OsStr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bench_tests::{quick_bench, run, run_with_env, scratch_dir, Run, QUICK};

use crate::common::fixture_binary;

fn bench(args: &[&str]) -> Run {
    quick_bench(fixture_binary(), args)
}

#[test]
fn an_aborting_benchmark_fails_alone_under_forks() {
    // In one process an abort takes the whole run down: nothing is reported.
    let out = bench(&["--include-ignored", "--exact", "aborts", "passes"]);
    assert_eq!(out.code, None, "killed by SIGABRT: {out:?}");
    assert!(!out.stdout.contains("measured"), "{}", out.stdout);

    // Under --forks the abort kills one child: its benchmark fails with the
    // signal, the next process of it is not started, and the others run.
    let started = Instant::now();
    let out = bench(&[
        "--forks",
        "2",
        "--include-ignored",
        "--exact",
        "aborts",
        "passes",
    ]);
    assert_eq!(out.code, Some(101), "{out:?}");
    assert!(
        out.stdout.contains(
            "aborts              FAILED: process 1 of 2 was killed by signal 6 (SIGABRT)"
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("1 measured, 1 failed, 0 ignored"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("failed: aborts"), "{}", out.stdout);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn a_panic_in_a_child_is_reported_with_its_message_and_location() {
    let out = bench(&["--forks", "2", "panics_in_routine", "passes"]);
    assert_eq!(out.code, Some(101), "{out:?}");
    assert!(
        out.stdout
            .contains("FAILED: process 1 of 2: the routine failed on purpose"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("  at tests/src/bin/fixture.rs:"),
        "{}",
        out.stdout
    );
}

#[test]
fn forked_processes_are_pooled_and_their_spread_reported() {
    let dir = scratch_dir("forks-pooled");
    let json = dir.join("forks.json");
    // The children's scratch files go to the temporary directory.
    let mut args = QUICK.to_vec();
    let json_arg = json.to_str().unwrap();
    args.extend([
        "--forks", "3", "--exact", "spins", "--format", "json", "--output", json_arg,
    ]);
    let out = run_with_env(fixture_binary(), &args, &[("TMPDIR", dir.as_os_str())]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout
            .contains("each benchmark in 3 processes (--forks), samples pooled"),
        "{}",
        out.stdout
    );
    let line = out.line_starting("  3 processes: ");
    assert!(line.contains("spread between processes"), "{line}");

    let document: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let measurement = &document["benchmarks"][0]["measurement"];
    let forks = &measurement["forks"];
    let estimates: Vec<f64> = forks["process_estimates_ns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(estimates.len(), 3, "{forks}");
    // The headline pools every process's blocks, so it lies among them.
    let headline = measurement["estimate"]["time_ns"].as_f64().unwrap();
    let (low, high) = estimates
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    assert!(
        low <= headline && headline <= high,
        "{headline} {estimates:?}"
    );
    // Three processes' samples: each ran the 20 ms budget with at least 10.
    assert!(measurement["samples"].as_array().unwrap().len() >= 30);
    let p = forks["p_value"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&p), "{forks}");
    // The children's scratch files are gone.
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["forks.json"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_child_that_hangs_is_killed_and_fails_its_benchmark() {
    // One iteration of sleeps_20s takes 20 s; a child may run twice
    // --max-time plus 10 s.
    let started = Instant::now();
    let out = bench(&[
        "--forks",
        "1",
        "--max-time",
        "0.5",
        "--ignored",
        "--exact",
        "sleeps_20s",
    ]);
    let took = started.elapsed();
    assert_eq!(out.code, Some(101), "{out:?}");
    assert!(
        out.stdout
            .contains("FAILED: process 1 of 1 was still running after 11 s"),
        "{}",
        out.stdout
    );
    assert!(took < Duration::from_secs(18), "{took:?}");
}

#[test]
fn ctrl_c_under_forks_stops_the_children_and_reports_what_finished() {
    // As from a terminal: SIGINT to the whole foreground process group.
    let mut command = Command::new(fixture_binary());
    command
        .args([
            "--bench",
            "--flat",
            "--precision",
            "0",
            "--measure-time",
            "0.5",
            "--forks",
            "20",
            "--exact",
            "sleeps_30ms",
        ])
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let child = command.spawn().unwrap();
    // 20 processes of about 0.6 s each, asleep (no load on the tests running
    // alongside): interrupted well before the end.
    std::thread::sleep(Duration::from_secs(3));
    let started = Instant::now();
    let group = format!("-{}", child.id());
    let status = Command::new("kill")
        .args(["-INT", "--", &group])
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stdout}\n{stderr}");
    // The child in flight was told once, by the parent, and stopped at a
    // sample boundary: not killed after the 5 s grace, not counted as
    // failed.
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert!(!stdout.contains("FAILED"), "{stdout}");
    // The processes that finished are pooled: fewer than 20.
    let line = stdout
        .lines()
        .find(|l| l.contains(" processes: "))
        .unwrap_or_else(|| panic!("a processes line in {stdout}"));
    let processes: usize = line.split_whitespace().next().unwrap().parse().unwrap();
    assert!((1..20).contains(&processes), "{line}");
}

#[test]
fn benchmarks_of_one_name_fail_under_forks_instead_of_mixing() {
    let out = bench(&["--forks", "2", "--ignored", "same_name"]);
    assert_eq!(out.code, Some(101), "{out:?}");
    assert!(
        out.stdout
            .contains("FAILED: 2 benchmarks are named 'same_name/twin'"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_child_does_not_fork_again() {
    // What a child sees: measured in its own process, whatever the flags.
    let mut args = QUICK.to_vec();
    args.extend(["--forks", "3", "--exact", "passes"]);
    let child = [("BENCH_HARNESS_FORK_CHILD", OsStr::new("1"))];
    let out = run_with_env(fixture_binary(), &args, &child);
    let stdout = &out.stdout;
    assert_eq!(out.code, Some(0), "{stdout}");
    assert!(stdout.contains("1 measured"), "{stdout}");
    assert!(!stdout.contains("processes"), "{stdout}");
}

#[test]
fn forks_go_with_a_measured_run() {
    let out = run(fixture_binary(), &["--forks", "2"]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr.contains("--forks goes with a measured run"),
        "{}",
        out.stderr
    );
}
