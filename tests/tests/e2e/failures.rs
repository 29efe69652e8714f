//! Benchmarks that panic, never iterate, are ignored or are too slow, in a
//! binary of their own (`src/bin/fixture.rs`).

use bench_tests::{quick_bench, run, Run};

use crate::common::{empty_binary, fixture_binary};

fn fixture(args: &[&str]) -> Run {
    run(fixture_binary(), args)
}

fn bench(args: &[&str]) -> Run {
    quick_bench(fixture_binary(), args)
}

#[test]
fn a_panicking_benchmark_fails_and_the_others_still_run() {
    let out = fixture(&[]);
    assert_eq!(out.code, Some(101), "{out:?}");
    assert!(out.stdout.contains("test passes ... ok"));
    assert!(out.stdout.contains("test also_passes ... ok"));
    assert!(out.stdout.contains("test panics_in_setup ... FAILED"));
    assert!(out.stdout.contains("test panics_in_routine ... FAILED"));
    assert!(out.stdout.contains("test never_iterates ... FAILED"));
    // A panic in the `args` expression fails that function's benchmarks.
    assert!(out.stdout.contains("test bad_args ... FAILED"));
    assert!(out
        .stdout
        .contains("no sizes today (at tests/src/bin/fixture.rs:"));
    assert!(out.stdout.contains("test ignored_by_attribute ... ignored"));
    // The message and where it came from, not a backtrace.
    assert!(out
        .stdout
        .contains("set-up failed on purpose (at tests/src/bin/fixture.rs:"));
    assert!(out
        .stdout
        .contains("the routine failed on purpose (at tests/src/bin/fixture.rs:"));
    assert!(out
        .stdout
        .contains("returned without calling Bencher::iter"));
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    assert!(
        out.stdout
            .contains("test result: FAILED. 5 passed; 4 failed; 30 ignored;"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_failed_benchmark_is_listed_in_the_bench_summary() {
    let out = bench(&["pa", "--skip", "touches", "--skip", "hostile"]);
    assert_eq!(out.code, Some(101), "{out:?}");
    assert!(out.stdout.contains("panics_in_routine"));
    assert!(out.stdout.contains("FAILED: the routine failed on purpose"));
    assert!(
        out.stdout.contains("2 measured, 2 failed, 0 ignored"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("failed: panics_in_setup, panics_in_routine"),
        "{}",
        out.stdout
    );
}

#[test]
fn ignored_benchmarks_run_only_when_asked() {
    let out = bench(&["ignored"]);
    assert!(out.stdout.contains("ignored_by_attribute") && out.stdout.contains("  ignored"));
    assert!(
        out.stdout.contains("0 measured, 0 failed, 1 ignored"),
        "{}",
        out.stdout
    );

    // (sleeps_20s, aborts, same_name, the by_size group and the hostile
    // module are ignored too, for the Ctrl-C, --forks, A/B, attack and
    // allocator tests: left out here.)
    let out = bench(&[
        "--ignored",
        "--skip",
        "sleeps_20s",
        "--skip",
        "aborts",
        "--skip",
        "same_name",
        "--skip",
        "by_size",
        "--skip",
        "hostile",
        "--skip",
        "leaves_orphan",
        "--skip",
        "floods_stderr",
        "--skip",
        "differs_by_process",
        "--skip",
        "reads_stdin",
        "--skip",
        "allocates_from_the_main_arena",
        "--skip",
        "runs_two_threads",
        "--skip",
        "cools_between_slices",
    ]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout.contains("1 measured, 0 failed, 0 ignored"),
        "{}",
        out.stdout
    );

    let out = fixture(&["--include-ignored", "--list", "--format", "terse"]);
    assert!(out.stdout.contains("ignored_by_attribute: benchmark"));
}

#[test]
fn a_benchmark_slower_than_max_time_stops_with_a_note() {
    let out = bench(&["sleeps_30ms", "--max-time", "0.2"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let samples = out.row("sleeps_30ms").samples();
    assert!((1..10).contains(&samples), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("note: stopped at --max-time (200.0 ms)"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_binary_without_benchmarks_says_how_to_add_them() {
    let out = run(empty_binary(), &["--bench"]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr.contains("no benchmarks are registered"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("#[benchmark]"));
}

#[test]
fn a_benchmark_slower_than_a_slice_still_records_a_sample_per_round() {
    // 30 ms per iteration against slices of 1.7 ms (a third of 0.3 s over
    // 60 rounds in each of 3 processes), interleaved: every slice
    // records its one sample instead of discarding it as a re-warm.
    let out = fixture(&[
        "--bench",
        "--details",
        "--warm-up-time",
        "0.01",
        "--measure-time",
        "0.3",
        "--max-time",
        "2",
        "--precision",
        "0",
        "--exact",
        "sleeps_30ms",
    ]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let samples = out.row("sleeps_30ms").samples();
    assert!(samples >= 10, "{samples} samples:\n{}", out.stdout);
}

const EXITED: &str = "error: benchmark hostile::exits ended the process by calling exit, \
                      before the run could report (nothing was printed or saved)";

/// Issue 14 item 4: a benchmark that calls `std::process::exit(0)` no longer
/// ends the run with status 0 and no output, in smoke mode (`cargo test
/// --benches`), measured, or with a machine format on stdout.
#[test]
fn a_benchmark_that_calls_exit_fails_the_run_with_one_line() {
    for (mode, out) in [
        (
            "smoke",
            fixture(&["--ignored", "--exact", "hostile::exits"]),
        ),
        // Measured in this process (`--forks 0`).
        (
            "bench",
            bench(&["--forks", "0", "--ignored", "--exact", "hostile::exits"]),
        ),
        (
            "json",
            bench(&[
                "--forks",
                "0",
                "--ignored",
                "--exact",
                "hostile::exits",
                "--format",
                "json",
            ]),
        ),
        // The others before it ran and reported nothing either: the run
        // ends where the benchmark ended it, and says so.
        (
            "among others",
            bench(&[
                "--forks",
                "0",
                "--include-ignored",
                "passes",
                "hostile::exits",
            ]),
        ),
    ] {
        assert_eq!(out.code, Some(101), "{mode}: {out:?}");
        let lines: Vec<&str> = out.stderr.lines().filter(|l| l.contains("exit")).collect();
        assert_eq!(lines.len(), 1, "{mode}: {}", out.stderr);
        assert!(lines[0].starts_with(EXITED), "{mode}: {}", out.stderr);
    }
    // Measured in processes of its own (the default), the benchmark fails
    // alone, with the same line quoted.
    let out = bench(&["--include-ignored", "--exact", "hostile::exits", "passes"]);
    assert_eq!(out.code, Some(101), "{out:?}");
    assert!(out.stdout.contains(EXITED), "{}", out.stdout);
    assert!(
        out.stdout.contains("1 measured, 1 failed"),
        "{}",
        out.stdout
    );
}

/// Issue 14 item 16: a panic whose payload panics again when dropped is
/// reported as the benchmark's failure, with both messages, in smoke mode
/// (where it used to end the run) and measured (where the message was lost).
#[test]
fn a_panic_payload_whose_drop_panics_fails_only_its_benchmark() {
    let expected = "the benchmark panicked with a non-string payload \
                    (then dropping the panic's payload panicked too: \
                    the payload's drop failed on purpose)";
    let out = fixture(&[
        "--include-ignored",
        "--exact",
        "hostile::payload_drop_panics",
        "passes",
    ]);
    assert_eq!(out.code, Some(101), "{out:?}");
    assert!(
        out.stdout
            .contains("test hostile::payload_drop_panics ... FAILED"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains(expected), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("test result: FAILED. 1 passed; 1 failed;"),
        "{}",
        out.stdout
    );
    assert!(!out.stderr.contains("panicked at"), "{}", out.stderr);

    let out = bench(&[
        "--include-ignored",
        "--exact",
        "hostile::payload_drop_panics",
        "passes",
    ]);
    assert_eq!(out.code, Some(101), "{out:?}");
    assert!(
        out.stdout.contains(&format!("FAILED: {expected}")),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("1 measured, 1 failed"),
        "{}",
        out.stdout
    );
}
