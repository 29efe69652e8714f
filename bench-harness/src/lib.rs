//! bench-harness: micro-benchmarks whose numbers you can trust.
//!
//! Annotate functions with [`#[benchmark]`](benchmark), end the bench file
//! with [`main!`], and declare the bench target with `harness = false`:
//!
//! ```no_run
//! use bench_harness::{benchmark, black_box, Bencher};
//!
//! fn fib(n: u64) -> u64 { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }
//!
//! #[benchmark]
//! fn fib_20() -> u64 {
//!     fib(black_box(20)) // the return value is sunk through black_box
//! }
//!
//! #[benchmark]
//! fn sort_1k(b: &mut Bencher) {
//!     let data: Vec<u32> = (0..1000).rev().collect(); // set-up, not timed
//!     b.iter(|| {
//!         let mut v = data.clone();
//!         v.sort();
//!         v
//!     })
//! }
//!
//! bench_harness::main!();
//! ```
//!
//! `cargo bench --bench suite` measures every benchmark and prints a table;
//! `cargo bench --bench suite -- fib` runs those whose name contains `fib`;
//! `cargo test --benches` runs each body once as a smoke test.
//!
//! The run is a pipeline, one module per stage: [`cli`] → [`select`] →
//! [`run`] → [`analysis`] (through [`results`]) → [`report`].
#![forbid(unsafe_code)]

pub mod analysis;
pub mod audit;
pub mod baseline;
pub mod cli;
pub mod document;
pub mod environment;
pub mod forks;
mod fs;
pub mod instruments;
mod registry;
pub mod report;
pub mod results;
pub mod run;
pub mod select;

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::time::Instant;

pub use bench_macros::benchmark;
pub use bench_runtime::clock::known_cost;
pub use bench_runtime::counter::alloc::CountingAlloc;
pub use bench_runtime::{black_box, Bencher, Throughput};

use bench_runtime::{Clock, Nanos, SamplerConfig, StopRule, TimerPrecision};
use termcolor::{ColorChoice, NoColor, StandardStream, WriteColor};

use analysis::compare::Verdict;
use cli::{Action, Args, Color, ListFormat, OutputFormat};
use report::terminal::{Layout, Terminal};
use results::{BenchResult, Compared, ComplexityReport, GroupReport, Measured, Outcome, RunInfo};
use select::Selected;

/// Items the `#[benchmark]` attribute's expansion refers to. Not a public
/// API: they change without notice.
#[doc(hidden)]
pub mod __private {
    pub use crate::registry::{
        all as benchmarks, arg_owned, arg_ref, collect_args, ArgName, ArgNameByDebug,
        ArgNameByDisplay, BenchEntry, BenchFn, BenchOptions, Benchmark, FromArg, FromOwnedArg,
    };
    pub use bench_runtime::{black_box, Bencher, Clock, Driver, Nanos, Routine, Throughput};
    pub use inventory;
    pub use std::string::String;
    pub use std::vec::Vec;
}

/// Declares `fn main` for a bench target with `harness = false`.
#[macro_export]
macro_rules! main {
    () => {
        fn main() {
            $crate::main()
        }
    };
}

/// Runs the benchmarks registered in this binary as the command line says,
/// then exits: 0 on success, 101 when a benchmark failed, 2 on bad input,
/// 1 when a benchmark regressed under `--fail-on-regression`.
pub fn main() {
    let run = run_suite(std::env::args_os().skip(1));
    std::process::exit(run.exit_code);
}

/// What [`run_suite`] did: the exit code [`main`] would use and every
/// benchmark's result, for a bench target that wants to post-process them
/// (the calibration target prints ratios of its estimates).
#[derive(Debug)]
pub struct SuiteRun {
    pub exit_code: i32,
    /// Empty when nothing was measured or run (`--list`, `--help`, errors).
    pub results: Vec<BenchResult>,
}

/// The headline's 95% CI must be within ±1% (`--precision`).
const DEFAULT_PRECISION: f64 = 0.01;
/// Interleaving is the default: see docs/ARCHITECTURE.md for the run-to-run
/// spread it was chosen on.
const DEFAULT_SCHEDULE: run::Schedule = run::Schedule::Interleaved;
/// Interleaved runs spread `--measure-time` over at least this many rounds:
/// more, shorter slices average the machine's speed changes better (60
/// rounds halved the worst calibration-ratio error of 10 on the development
/// machine; see docs/ARCHITECTURE.md).
const MIN_ROUNDS: usize = 60;

/// Exit codes: libtest's for failures and bad input, 1 for a regression
/// under `--fail-on-regression`.
const EXIT_FAILED: i32 = 101;
const EXIT_USAGE: i32 = 2;
const EXIT_REGRESSED: i32 = 1;

/// The whole pipeline for one command line (the arguments after the
/// program name): prints the report and returns the results.
pub fn run_suite(args: impl IntoIterator<Item = OsString>) -> SuiteRun {
    let mut results = Vec::new();
    let exit_code = run_pipeline(args, &mut results);
    SuiteRun { exit_code, results }
}

fn run_pipeline(args: impl IntoIterator<Item = OsString>, results: &mut Vec<BenchResult>) -> i32 {
    let mut args = match cli::parse(args) {
        Ok(args) => args,
        Err(error) => return usage_error(&error),
    };
    if forks::is_child() {
        // Measuring for a parent's --forks: no forks of its own, and no
        // life after the parent's.
        args.forks = None;
        bench_runtime::signal::exit_with_parent();
    }
    if args.action == Action::Help {
        print!("{}", cli::HELP);
        return 0;
    }
    if matches!(args.action, Action::Bench | Action::Test) {
        bench_runtime::signal::install();
    }

    let registered = registry::all();
    if registered.is_empty() {
        eprintln!(
            "error: no benchmarks are registered in this binary; mark functions with \
             #[benchmark] in this bench target, or, for benchmarks in a library's src/, \
             call a function of their module (like `your_crate::benches::link()`) from the \
             bench target's main so the linker keeps them (see \"Benchmarks inside a library\" in the README)"
        );
        return EXIT_USAGE;
    }
    let selected = select::select(
        &args,
        registered
            .iter()
            .map(|bench| (bench.full_name(), bench.entry.options.ignore, bench.clone())),
    );
    let filtered_out = registered.len() - selected.len();

    // The table goes to stdout, unless stdout carries a machine format.
    let table: Box<dyn WriteColor> = if args.action == Action::Bench
        && args.format != OutputFormat::Pretty
        && args.output.is_none()
    {
        Box::new(NoColor::new(io::sink()))
    } else {
        Box::new(StandardStream::stdout(color_choice(args.color)))
    };
    let mut out = Terminal::new(table, selected.iter().map(|s| s.name.as_str()));
    let written = match args.action {
        Action::List => list(&selected, args.list_format),
        Action::ListBaselines => list_baselines(&baseline::Store::locate()),
        Action::Test => Ok(smoke_test(&mut out, &selected, filtered_out, results)),
        Action::Bench => {
            let names: Vec<String> = registered.iter().map(|e| e.full_name()).collect();
            measure_all(&mut out, &args, &selected, &names, results)
        }
        Action::Help => unreachable!("handled above"),
    };
    match written {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error}");
            EXIT_USAGE
        }
    }
}

fn usage_error(error: &dyn std::fmt::Display) -> i32 {
    eprintln!("error: {error}");
    EXIT_USAGE
}

fn color_choice(color: Color) -> ColorChoice {
    match color {
        Color::Always => ColorChoice::Always,
        Color::Never => ColorChoice::Never,
        Color::Auto => {
            let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
            if std::io::stdout().is_terminal() && !no_color {
                ColorChoice::Auto
            } else {
                ColorChoice::Never
            }
        }
    }
}

type Selection = [Selected<registry::Benchmark>];

/// `--list`: libtest's `NAME: benchmark` lines.
fn list(selected: &Selection, format: ListFormat) -> Result<i32, String> {
    let mut stdout = std::io::stdout().lock();
    let mut write = || -> std::io::Result<()> {
        for s in selected {
            writeln!(stdout, "{}: benchmark", s.name)?;
        }
        if format == ListFormat::Pretty {
            let n = selected.len();
            writeln!(stdout, "\n{n} benchmark{}", if n == 1 { "" } else { "s" })?;
        }
        Ok(())
    };
    write().map_err(|e| format!("cannot write the list: {e}"))?;
    Ok(0)
}

/// `cargo test --benches`: each body once, libtest's output.
fn smoke_test(
    out: &mut Terminal<Box<dyn WriteColor>>,
    selected: &Selection,
    filtered_out: usize,
    results: &mut Vec<BenchResult>,
) -> i32 {
    let started = Instant::now();
    // The OS clock is enough for one iteration and costs no calibration.
    let clock = Clock::os();
    // Output errors (a closed pipe) must not stop the benchmarks themselves.
    let _ = out.test_header(selected.len());
    *results = run_each_once(
        selected,
        |bench| match run::run_once(bench, clock) {
            Ok(()) => Outcome::Passed,
            Err(failure) => Outcome::Failed(failure),
        },
        |result| {
            let _ = out.test_line(result);
        },
    );
    let _ = out.test_summary(results, filtered_out, started.elapsed().as_secs_f64());
    if bench_runtime::signal::interrupted() {
        eprintln!(
            "interrupted: stopped at Ctrl-C after {} benchmarks",
            results.len()
        );
        return bench_runtime::signal::EXIT_INTERRUPTED;
    }
    exit_code(results)
}

/// `cargo bench`: measure the selected benchmarks on the schedule, then
/// print the table (a tree, or flat) once all are done.
fn measure_all(
    out: &mut Terminal<Box<dyn WriteColor>>,
    args: &Args,
    selected: &Selection,
    registered: &[String],
    results: &mut Vec<BenchResult>,
) -> Result<i32, String> {
    // Bad input stops the run before anything is measured: a missing or
    // unreadable baseline is reported, and nothing is written.
    let store = baseline::Store::locate();
    let baseline = match &args.baseline {
        Some(name) => Some(store.load(name).map_err(|e| e.to_string())?),
        None => None,
    };
    if selected.is_empty() {
        let nothing = format!("no benchmark matches {}", describe_filters(args));
        if args.save_baseline.is_some() || args.fail_on_regression {
            // A typo in a CI filter must not pass the gate or save nothing.
            return Err(format!(
                "{nothing}: there is nothing to save or compare; run with --list to see the names"
            ));
        }
        eprintln!("{nothing}; run with --list to see the names");
        return Ok(0);
    }
    if let Some(cpu) = args.pin {
        let allowed = bench_runtime::affinity::allowed_cpus().unwrap_or_default();
        if !allowed.contains(&cpu) {
            let list: Vec<String> = allowed.iter().map(usize::to_string).collect();
            return Err(format!(
                "--pin {cpu}: this process may run on CPUs {} only; pick one of them",
                list.join(", ")
            ));
        }
    }
    let environment = environment::Environment::capture();
    let cold_bytes = args.cold.then(|| cold_buffer_bytes(&environment));
    let header = audit::header(&environment);
    let warnings = audit::audit(&environment);
    if args.format != OutputFormat::Pretty && args.output.is_none() {
        // stdout carries a machine format: the machine goes to stderr.
        let mut stderr = Terminal::new(
            StandardStream::stderr(color_choice(args.color)),
            std::iter::empty(),
        );
        let _ = stderr.machine(&header, &warnings, args.pin, cold_bytes);
    } else {
        let _ = out.machine(&header, &warnings, args.pin, cold_bytes);
    }
    let started = Instant::now();
    let clock = Clock::select(args.timer).map_err(|e| e.to_string())?;
    let timer = TimerPrecision::measure(&clock);
    let floor = sample_floor(timer);
    let target_precision = args.precision.unwrap_or(DEFAULT_PRECISION);
    let mut info = RunInfo {
        harness_version: env!("CARGO_PKG_VERSION"),
        clock_name: clock.name(),
        clock_hz: clock.frequency_hz(),
        precision: timer,
        sample_floor: floor,
        // Provisional, for the precision rule while measuring; replaced by
        // the interleaved measurement of the empty loop below.
        overhead: run::measure_overhead(clock, floor),
        schedule: args.schedule.unwrap_or(DEFAULT_SCHEDULE),
        target_precision,
        seed: args.seed.unwrap_or_else(|| fastrand::u64(..)),
        partial: false,
        forks: args.forks,
    };

    // Ignored benchmarks are settled at once; the others become jobs.
    let mut rows: Vec<Option<BenchResult>> = Vec::with_capacity(selected.len());
    let mut jobs = Vec::new();
    let mut job_rows = Vec::new();
    let paired_groups = paired_groups(selected);
    for s in selected {
        if s.ignored {
            rows.push(Some(result_of(s, Outcome::Ignored)));
        } else {
            job_rows.push(rows.len());
            rows.push(None);
            let options = &s.bench.entry.options;
            let paired_group = options
                .group
                .and_then(|g| paired_groups.iter().position(|p| *p == g));
            let mut config = sampler_config(args, options, &info);
            if paired_group.is_some() {
                // One sample per member per round: samples of 1 ms make the
                // hand-over between members a negligible share, and a fixed
                // budget keeps the members' rounds aligned.
                config.min_sample_time = config.min_sample_time.max(Nanos(1_000_000.0));
                config.stop_rule = StopRule::TimeBudget;
            }
            jobs.push(run::Job {
                bench: s.bench.clone(),
                precision: job_precision(args, options),
                config,
                paired_group,
                counters: args.counters || options.counters,
            });
        }
    }
    // A run that saves or compares a baseline also measures the harness's
    // reference kernel, in the same schedule: the machine's own change of
    // speed between two runs.
    let mut hidden_job = |entry: &'static registry::BenchEntry| {
        jobs.push(run::Job {
            bench: entry.plain(),
            precision: target_precision,
            config: sampler_config(args, &entry.options, &info),
            paired_group: None,
            counters: false,
        });
        jobs.len() - 1
    };
    let reference_job = (args.baseline.is_some() || args.save_baseline.is_some())
        .then(|| hidden_job(&registry::MACHINE_REFERENCE));
    // The empty loop, measured in the same schedule as everything it is
    // subtracted from: a probe at start-up inherits whatever state the
    // machine was in at that moment (10% apart between two runs here).
    let overhead_job = hidden_job(&registry::LOOP_OVERHEAD);
    let plan = run::Plan {
        schedule: info.schedule,
        clock,
        slice: jobs
            .iter()
            .map(|job| job.config.measure_time)
            .fold(Nanos::ZERO, Nanos::max)
            / MIN_ROUNDS as f64,
        seed: info.seed,
        overhead: info.overhead,
        pin: args.pin,
        cold: cold_bytes.map(|bytes| std::sync::Arc::new(std::sync::Mutex::new(vec![1u8; bytes]))),
    };
    // Under --forks the benchmarks run in child processes, and only the
    // machine reference (when a baseline needs it) runs here.
    let forked = args.forks.map(|processes| {
        let jobs = &jobs[..job_rows.len()];
        forks::measure(args, jobs, processes, info.seed, &context(&info))
    });
    let in_process: Vec<usize> = match (&forked, reference_job) {
        (None, _) => (0..jobs.len()).collect(),
        (Some(_), Some(reference)) => vec![reference, overhead_job],
        (Some(_), None) => Vec::new(),
    };
    type Reported = Result<(bench_runtime::Measurement, instruments::Extras), run::Failure>;
    let mut measured: Vec<Option<Reported>> = vec![None; jobs.len()];
    let mut round_logs: Vec<Option<run::RoundLog>> = vec![None; jobs.len()];
    if !in_process.is_empty() {
        let subset: Vec<run::Job> = in_process.iter().map(|&j| jobs[j].clone()).collect();
        run::measure(&subset, &plan, |i, result, round_log| {
            round_logs[in_process[i]] = round_log;
            measured[in_process[i]] = Some(result);
        });
    }

    let mut take = |job: usize| measured[job].take();
    let mut harness_allocations = Default::default();
    if let Some(Ok((empty, extras))) = take(overhead_job) {
        info.overhead = run::loop_overhead(&empty, info.overhead.per_sample);
        harness_allocations = extras.allocations_per_sample();
    }
    let context = context(&info);
    let analyse = |job: usize, (m, extras)| {
        let context = results::Context {
            target_precision: jobs[job].precision,
            ..context
        };
        let mut measured = Measured::analyse(m, jobs[job].config.clone(), &context);
        measured.attach(extras, harness_allocations);
        measured
    };
    // `None` for a job stopped by Ctrl-C before its first sample.
    let mut result = |job: usize| match take(job)? {
        Ok((m, _)) if m.samples.is_empty() => None,
        Ok(m) => Some(Ok(analyse(job, m))),
        Err(failure) => Some(Err(failure)),
    };
    let machine_reference = reference_job.and_then(|job| result(job)?.ok());
    info.partial = bench_runtime::signal::interrupted();
    if let Some(overhead) = forked.as_ref().and_then(|forked| forked.overhead) {
        // The header shows what the children subtracted.
        info.overhead = overhead;
    }
    let mut forked_outcomes = forked.map(|forked| forked.outcomes);
    for (job, &row) in job_rows.iter().enumerate() {
        let measured = match &mut forked_outcomes {
            Some(outcomes) => outcomes[job].take(),
            None => result(job),
        };
        let outcome = match measured {
            // Left out: stopped by Ctrl-C before its first sample.
            None => continue,
            Some(Ok(m)) => Outcome::Measured(Box::new(m)),
            Some(Err(failure)) => Outcome::Failed(failure),
        };
        rows[row] = Some(result_of(&selected[row], outcome));
    }
    *results = rows.into_iter().flatten().collect();
    let reports = complexity_reports(args, selected, results);
    let _ = out.bench_table(&info, results, &reports, layout(args), args.details);
    let machine_change = match (&baseline, &machine_reference) {
        (Some(baseline), Some(now)) => baseline.machine_reference.as_ref().map(|then| {
            analysis::compare::compare(&then.block_medians_ns, &now.estimate.block_medians, 0.0)
        }),
        _ => None,
    };
    if let Some(baseline) = &baseline {
        let threshold = comparison_threshold(args.noise_threshold, machine_change.as_ref());
        for result in results.iter_mut() {
            result.comparison = compare_with(baseline, result, threshold);
        }
    }
    if args.forks.is_none() {
        for group in &group_reports(&jobs, &job_rows, &round_logs, results) {
            let _ = out.group_table(group);
        }
    } else if !paired_groups.is_empty() {
        eprintln!(
            "note: A/B groups ({}) are not paired under --forks: each member ran in processes \
             of its own, so compare their rows, or run without --forks for paired ratios",
            paired_groups.join(", ")
        );
    }
    if let (Some(name), Some(baseline)) = (&args.baseline, &baseline) {
        let threshold = comparison_threshold(args.noise_threshold, machine_change.as_ref());
        let _ = out.comparison_table(
            name,
            baseline,
            results,
            registered,
            machine_change.as_ref(),
            threshold,
        );
    }
    let _ = out.bench_summary(results, started.elapsed().as_secs_f64());
    // The outputs and the baseline are written independently: one failing
    // does not lose the other.
    let reference = machine_reference.as_ref().map(report::json::estimate);
    let mut errors = Vec::new();
    if let Err(error) = write_outputs(
        args,
        &environment,
        &info,
        results,
        &reports,
        reference.clone(),
    ) {
        errors.push(error);
    }
    if let Some(name) = &args.save_baseline {
        match save_baseline(&store, name, &environment, &info, results, reference) {
            Ok(message) => eprintln!("{message}"),
            Err(error) => errors.push(error),
        }
    }
    for error in &errors {
        eprintln!("error: {error}");
    }
    let regressed = results.iter().any(
        |r| matches!(&r.comparison, Some(Compared::Against(c)) if c.verdict == Verdict::Regressed),
    );
    if info.partial {
        eprintln!(
            "interrupted: the results above are partial (measuring stopped at Ctrl-C); \
             any outputs written say \"partial\": true"
        );
        return Ok(bench_runtime::signal::EXIT_INTERRUPTED);
    }
    Ok(match exit_code(results) {
        0 if !errors.is_empty() => EXIT_USAGE,
        0 if regressed && args.fail_on_regression => EXIT_REGRESSED,
        code => code,
    })
}

/// Saves the run as baseline `name`, unless a benchmark failed: a partial
/// run would replace a good baseline and turn its benchmarks into `new`,
/// silently disabling the regression gate.
fn save_baseline(
    store: &baseline::Store,
    name: &str,
    environment: &environment::Environment,
    info: &RunInfo,
    results: &[BenchResult],
    reference: Option<report::json::EstimateRecord>,
) -> Result<String, String> {
    let failed: Vec<&str> = results
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Failed(_)))
        .map(|r| r.name.as_str())
        .collect();
    if !failed.is_empty() {
        return Err(format!(
            "baseline '{name}' not saved, the old one is kept: {} failed ({}); fix it or leave it out with --skip",
            if failed.len() == 1 { "a benchmark" } else { "benchmarks" },
            failed.join(", ")
        ));
    }
    let mut document = report::json::document(environment, info, results);
    document.machine_reference = reference;
    let path = store.save(name, &document).map_err(|e| e.to_string())?;
    Ok(format!("saved baseline '{name}' to {}", path.display()))
}

/// The practical threshold of the baseline verdicts: `--noise-threshold`
/// widened by how much the machine itself changed speed since the baseline
/// was saved (the farther end of the reference kernel's 95% interval), so
/// that a slower machine is not reported as slower code.
fn comparison_threshold(
    noise_threshold: f64,
    machine_change: Option<&analysis::compare::Comparison>,
) -> f64 {
    // An unknown change (too few slices for an interval) allows for any:
    // no verdict of change can then be made.
    let machine = machine_change.map_or(0.0, |c| {
        let (low, high) = c.change_interval;
        let farther = low.abs().max(high.abs());
        if farther.is_nan() {
            f64::INFINITY
        } else {
            farther
        }
    });
    noise_threshold + machine
}

/// `--cold` walks twice the last-level cache (64 MiB where sysfs does not
/// say), so whatever it held is gone; at most 256 MiB, since a virtual
/// machine may report the host's whole cache (480 MiB here).
fn cold_buffer_bytes(environment: &environment::Environment) -> usize {
    environment
        .last_level_cache_bytes
        .map_or(64 << 20, |bytes| (2 * bytes).min(256 << 20) as usize)
}

/// A benchmark's result, with its group.
fn result_of(s: &Selected<registry::Benchmark>, outcome: Outcome) -> BenchResult {
    let throughput = match &outcome {
        Outcome::Measured(m) => m.extras.throughput,
        _ => None,
    };
    BenchResult {
        path: s.bench.path(),
        type_name: s.bench.entry.type_name.map(str::to_string),
        arg: s.bench.arg.as_ref().map(|arg| arg.name.clone()),
        group: s.bench.entry.options.group.map(str::to_string),
        throughput: throughput.or(s.bench.entry.options.throughput),
        ..BenchResult::new(s.name.clone(), outcome)
    }
}

/// `result` against the same benchmark in the baseline: the headline's
/// block medians on both sides, compared by [`analysis::compare::compare`].
fn compare_with(
    baseline: &report::json::Document,
    result: &BenchResult,
    noise_threshold: f64,
) -> Option<Compared> {
    let new = result.measured()?;
    let old = baseline
        .benchmark(&result.name)
        .and_then(|record| record.measurement.as_ref());
    // A side measured under --forks is compared by its processes' times:
    // its blocks are not independent of each other (see Measured::pool).
    let new_values = match &new.forks {
        Some(forks) if forks.process_estimates.len() >= 2 => &forks.process_estimates,
        _ => &new.estimate.block_medians,
    };
    Some(match old {
        Some(old) => {
            let old_values = match &old.forks {
                Some(forks) if forks.process_estimates_ns.len() >= 2 => &forks.process_estimates_ns,
                _ => &old.estimate.block_medians_ns,
            };
            Compared::Against(analysis::compare::compare(
                old_values,
                new_values,
                noise_threshold,
            ))
        }
        None => Compared::New,
    })
}

/// Each A/B group's members against its baseline, from the samples the
/// scheduler paired round by round.
fn group_reports(
    jobs: &[run::Job],
    job_rows: &[usize],
    round_logs: &[Option<run::RoundLog>],
    results: &[BenchResult],
) -> Vec<GroupReport> {
    let per_round = |job: usize| -> Option<Vec<Option<f64>>> {
        let measured = results[job_rows[job]].measured()?;
        let log = round_logs[job].as_ref()?;
        Some(
            log.iter()
                .map(|sample| sample.map(|i| measured.per_iter[i]))
                .collect(),
        )
    };
    let mut reports = Vec::new();
    let groups = jobs
        .iter()
        .filter_map(|j| j.paired_group)
        .max()
        .map_or(0, |g| g + 1);
    for group in 0..groups {
        let members: Vec<usize> = (0..jobs.len())
            .filter(|&j| jobs[j].paired_group == Some(group))
            .collect();
        let Some(&base) = members
            .iter()
            .find(|&&j| jobs[j].bench.entry.options.baseline)
        else {
            continue;
        };
        let base_rounds = per_round(base);
        let base_name = &results[job_rows[base]].name;
        let compared = members
            .iter()
            .filter(|&&j| j != base)
            .map(|&j| {
                let name = &results[job_rows[j]].name;
                let paired = match (&base_rounds, per_round(j)) {
                    (None, _) => Err(format!("the baseline {base_name} failed")),
                    (_, None) => Err(format!("{name} failed")),
                    (Some(b), Some(m)) => {
                        let (b, m): (Vec<f64>, Vec<f64>) =
                            b.iter().zip(&m).filter_map(|(b, m)| b.zip(*m)).unzip();
                        if b.len() < 2 {
                            Err("fewer than 2 rounds in common with the baseline: a sample \
                                 outlasts the budget; raise --measure-time"
                                .to_string())
                        } else {
                            Ok(analysis::compare::compare_paired(&b, &m))
                        }
                    }
                };
                (name.clone(), paired)
            })
            .collect();
        reports.push(GroupReport {
            group: jobs[base]
                .bench
                .entry
                .options
                .group
                .unwrap_or_default()
                .to_string(),
            baseline: results[job_rows[base]].name.clone(),
            members: compared,
        });
    }
    reports
}

/// The `--format` output: to `--output` (atomically) or to stdout.
fn write_outputs(
    args: &Args,
    environment: &environment::Environment,
    info: &RunInfo,
    results: &[BenchResult],
    reports: &[ComplexityReport],
    reference: Option<report::json::EstimateRecord>,
) -> Result<(), String> {
    let rendered = match (args.format, &args.output) {
        // The table is on stdout already.
        (OutputFormat::Pretty, None) => return Ok(()),
        (OutputFormat::Pretty, Some(_)) => {
            render_table(info, results, reports, layout(args), args.details)
        }
        (format, _) => {
            let mut bytes = Vec::new();
            let written = match format {
                OutputFormat::Json => {
                    let mut document = report::json::document(environment, info, results);
                    document.machine_reference = reference;
                    document.complexity = reports.iter().map(report::json::complexity).collect();
                    report::json::write(&mut bytes, &document)
                }
                OutputFormat::Csv => report::csv::write(&mut bytes, info, results),
                OutputFormat::Markdown => report::markdown::write(&mut bytes, info, results),
                OutputFormat::Bencher => report::bencher::write(&mut bytes, info, results),
                OutputFormat::Pretty => unreachable!("handled above"),
            };
            written.map(|()| bytes)
        }
    };
    let bytes = rendered.map_err(|e| format!("cannot render the results: {e}"))?;
    match &args.output {
        Some(path) => baseline::write_atomically(path, &bytes).map_err(|e| {
            format!(
                "cannot write --output {}: {e}; check the directory exists and is writable",
                path.display()
            )
        }),
        None => match io::stdout().write_all(&bytes) {
            // A reader that stopped early (`| head`) is not an error.
            Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                Err(format!("cannot write the results to stdout: {e}"))
            }
            _ => Ok(()),
        },
    }
}

/// The table as plain text, for `--output` with `--format pretty`.
fn render_table(
    info: &RunInfo,
    results: &[BenchResult],
    reports: &[ComplexityReport],
    layout: Layout,
    details: bool,
) -> io::Result<Vec<u8>> {
    let mut table = Terminal::new(NoColor::new(Vec::new()), std::iter::empty());
    table.bench_table(info, results, reports, layout, details)?;
    table.bench_summary(results, 0.0)?;
    Ok(table.into_inner().into_inner())
}

fn layout(args: &Args) -> Layout {
    if args.flat {
        Layout::Flat
    } else {
        Layout::Tree
    }
}

/// A growth class for each function marked `complexity` (every function
/// with at least three numeric arguments under `--complexity`), over its
/// measured benchmarks.
fn complexity_reports(
    args: &Args,
    selected: &Selection,
    results: &[BenchResult],
) -> Vec<ComplexityReport> {
    let mut functions: Vec<String> = Vec::new();
    for s in selected.iter().filter(|s| s.bench.arg.is_some()) {
        let function = s.bench.entry.full_name();
        let wanted = s.bench.entry.options.complexity
            || (args.complexity && numeric_args(selected, &function) >= 3);
        if wanted && !functions.contains(&function) {
            functions.push(function);
        }
    }
    functions
        .iter()
        .filter_map(|function| ComplexityReport::fit(function, results))
        .collect()
}

/// How many of `function`'s selected benchmarks have a numeric argument.
fn numeric_args(selected: &Selection, function: &str) -> usize {
    selected
        .iter()
        .filter(|s| s.bench.entry.full_name() == function && s.bench.numeric_arg().is_some())
        .count()
}

/// `--list-baselines`: each saved baseline with its date and size.
fn list_baselines(store: &baseline::Store) -> Result<i32, String> {
    let names = store.names();
    if names.is_empty() {
        println!(
            "no baselines saved in {}; save one with --save-baseline NAME",
            store.dir().display()
        );
        return Ok(0);
    }
    for name in names {
        match store.load(&name) {
            Ok(document) => println!(
                "{name}: saved {}, {} benchmarks",
                document.environment.timestamp,
                document.benchmarks.len()
            ),
            Err(error) => println!("{name}: unreadable: {error}"),
        }
    }
    Ok(0)
}

/// Runs each selected benchmark that is not ignored, in order, and shows
/// each result as soon as it exists.
fn run_each_once(
    selected: &Selection,
    mut run: impl FnMut(&registry::Benchmark) -> Outcome,
    mut show: impl FnMut(&BenchResult),
) -> Vec<BenchResult> {
    selected
        .iter()
        // Ctrl-C: the ones run so far, then stop.
        .take_while(|_| !bench_runtime::signal::interrupted())
        .map(|s| {
            let outcome = if s.ignored {
                Outcome::Ignored
            } else {
                run(&s.bench)
            };
            let result = result_of(s, outcome);
            show(&result);
            result
        })
        .collect()
}

/// Groups measured as in-run A/B comparisons: those with a `baseline`
/// member among the benchmarks that run, in name order.
fn paired_groups(selected: &Selection) -> Vec<&'static str> {
    let mut groups: Vec<&'static str> = selected
        .iter()
        .filter(|s| !s.ignored && s.bench.entry.options.baseline)
        .filter_map(|s| s.bench.entry.options.group)
        .collect();
    groups.sort_unstable();
    groups.dedup();
    groups
}

fn describe_filters(args: &Args) -> String {
    let quoted: Vec<String> = args.filters.iter().map(|f| format!("'{f}'")).collect();
    match quoted.len() {
        0 => "the selection".to_string(),
        1 => format!("the filter {}", quoted[0]),
        _ => format!("the filters {}", quoted.join(", ")),
    }
}

/// What the analysis of every benchmark in the run shares.
fn context(info: &RunInfo) -> results::Context {
    results::Context {
        overhead: info.overhead,
        timer: info.precision,
        target_precision: info.target_precision,
    }
}

/// No sample is shorter than the timer allows, nor than 10 µs: below that
/// the harness's own work between samples is a large share of the budget.
fn sample_floor(precision: TimerPrecision) -> Nanos {
    SamplerConfig::sample_floor(precision).max(SamplerConfig::default().min_sample_time)
}

/// The precision rule's target for one benchmark: `--precision`, else the
/// attribute's `precision`, else the default.
fn job_precision(args: &Args, options: &registry::BenchOptions) -> f64 {
    args.precision
        .or(options.precision)
        .unwrap_or(DEFAULT_PRECISION)
}

/// The command line overrides the attribute, which overrides the defaults.
fn sampler_config(args: &Args, options: &registry::BenchOptions, info: &RunInfo) -> SamplerConfig {
    let defaults = SamplerConfig::default();
    let secs = |cli: Option<f64>, attr: Option<f64>, default: Nanos| {
        cli.or(attr).map(Nanos::from_secs).unwrap_or(default)
    };
    let warm_up_time = secs(
        args.warm_up_time,
        options.warm_up_time,
        defaults.warm_up_time,
    );
    let measure_time = secs(
        args.measure_time,
        options.measure_time,
        defaults.measure_time,
    );
    // By default the hard bound leaves room for the budgets three times over.
    let default_max = defaults.max_time.max((warm_up_time + measure_time) * 3.0);
    SamplerConfig {
        warm_up_time,
        warm_up_window: args.warm_up_window.unwrap_or(defaults.warm_up_window),
        warm_up_cv: args.warm_up_cv.unwrap_or(defaults.warm_up_cv),
        measure_time,
        stop_rule: if job_precision(args, options) > 0.0 {
            StopRule::Precision
        } else {
            StopRule::TimeBudget
        },
        max_time: secs(args.max_time, options.max_time, default_max),
        min_samples: args
            .min_samples
            .or(options.min_samples)
            .unwrap_or(defaults.min_samples),
        max_samples: defaults.max_samples,
        min_sample_time: info.sample_floor,
    }
}

fn exit_code(results: &[BenchResult]) -> i32 {
    let failed = results
        .iter()
        .any(|r| matches!(r.outcome, Outcome::Failed(_)));
    if failed {
        EXIT_FAILED
    } else {
        0
    }
}
