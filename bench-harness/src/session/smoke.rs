//! `cargo test --benches`: each body once, with libtest's output.

use std::time::Instant;

use bench_runtime::Clock;

use crate::console;
use crate::report::terminal::Terminal;
use crate::results::{BenchResult, Outcome};
use crate::run;

use super::rows::{exit_code, result_of, Selection};

/// Runs each selected benchmark that is not ignored once, in order, shows
/// each result as soon as it exists (a line each, or with `terse` a
/// character each, as libtest's `--format terse`), and returns the exit
/// code.
pub(super) fn run(
    out: &mut Terminal<'_>,
    selected: &Selection,
    filtered_out: usize,
    terse: bool,
    results: &mut Vec<BenchResult>,
) -> i32 {
    let started = Instant::now();
    // The OS clock is enough for one iteration and costs no calibration.
    let clock = Clock::os();
    // Output errors (a closed pipe) must not stop the benchmarks themselves.
    let _ = out.test_header(selected.len());
    let mut done = 0;
    *results = selected
        .iter()
        // Ctrl-C: the ones run so far, then stop.
        .take_while(|_| !bench_runtime::signal::interrupted())
        .map(|s| {
            let outcome = if s.ignored {
                Outcome::Ignored
            } else {
                match run::run_once(&s.bench, clock) {
                    Ok(()) => Outcome::Passed,
                    Err(failure) => Outcome::Failed(failure),
                }
            };
            let result = result_of(s, outcome);
            if terse {
                let _ = console::test_mark(&result.outcome, done, selected.len());
                done += 1;
            } else {
                let _ = out.test_line(&result);
            }
            result
        })
        .collect();
    if terse && done % console::TERSE_COLUMNS != 0 {
        let _ = console::test_mark_end();
    }
    let _ = out.test_summary(results, filtered_out, started.elapsed().as_secs_f64());
    if bench_runtime::signal::interrupted() {
        let not_run: Vec<&str> = selected[results.len()..]
            .iter()
            .filter(|s| !s.ignored)
            .map(|s| s.name.as_str())
            .collect();
        console::status(&format_args!(
            "interrupted: stopped at Ctrl-C after {} benchmarks; {}",
            results.len(),
            match not_run.len() {
                0 => "none was left to run".to_string(),
                n => format!("{n} never ran: {}", not_run.join(", ")),
            }
        ));
        return bench_runtime::signal::EXIT_INTERRUPTED;
    }
    exit_code(results)
}
