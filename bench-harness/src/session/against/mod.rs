//! `--against NAME` / `--against-exe PATH`: this build and another,
//! measured in one run, slice by slice in turn, so that the machine's drift
//! cancels in each round's ratio.
//!
//! The other build runs as a worker process ([`worker`], speaking
//! [`protocol`] over pipes, started and stopped by [`peer`]); this build's
//! side runs the same code in this process. For each benchmark both sides
//! open it, then take rounds: one slice each, in ABBA order (this build
//! first in even rounds, the other first in odd ones, so a linear drift
//! within a pair of rounds cancels), only one process measuring at a time.
//! Each side reports its slice's median time per iteration (the preempted
//! samples left out), read with its own clock, this build's loop overhead
//! taken out on both sides. A round's
//! ratio is new/old; the rounds are analysed as an in-run A/B group's
//! ([`compare_resolved`]: log ratios, t-interval at the effective sample
//! size of the series, since rounds close in time share the machine's
//! state; no ratio when both times are within the overhead's noise).
//!
//! Sampling stops once the verdict is settled (the interval is beyond the
//! noise band, or inside it) after at least [`MIN_PAIRS`] rounds, or when
//! each side has spent `--max-time` measuring.

mod peer;
mod protocol;
mod worker;

use std::ffi::OsString;
use std::path::Path;
use std::time::{Duration, Instant};

use bench_runtime::{Nanos, StopRule};

use super::rows::{Selection, EXIT_FAILED, EXIT_REGRESSED, EXIT_USAGE};
use crate::analysis::compare::{compare_resolved, Verdict};
use crate::analysis::mean;
use crate::baseline::Store;
use crate::cli::{Against, Args};
use crate::environment::Environment;
use crate::registry;
use crate::report::console;
use crate::report::progress::{self, Figure, Progress};
use crate::report::terminal::Terminal;
use crate::results::against::{AgainstOutcome, AgainstReport, AgainstRow, Paired};
use crate::results::RunInfo;
use crate::run::Watch;
use crate::select::{self, Filter};
use crate::settings::Settings;
use peer::Peer;
use protocol::{Reply, Request};
pub(crate) use protocol::{PROTOCOL_VERSION, TOKEN_FLAG};
use worker::Side;
pub(crate) use worker::{is_worker, serve};

/// Paired rounds before the verdict may settle.
const MIN_PAIRS: usize = 10;

/// Slices per `--measure-time`: 15 ms slices at the default 0.3 s.
const SLICES_PER_MEASURE_TIME: f64 = 20.0;

/// The default noise threshold of a paired comparison (the smallest change
/// that counts), when `--noise-threshold` is not given. See the README's
/// *Comparing two builds* for the measurement it was chosen on.
pub(crate) const DEFAULT_NOISE_THRESHOLD: f64 = 0.01;

/// Beyond twice `--max-time`, plus this, a worker that does not answer is
/// taken as hung.
const SLACK: Duration = Duration::from_secs(10);

/// What `--against` needs besides the benchmarks.
struct Comparison {
    against: Against,
    settings: Settings,
    noise_threshold: f64,
    /// The worker's command line: its measuring settings.
    worker_args: Vec<OsString>,
    /// How progress is shown, and when the run started.
    progress: (progress::Mode, Instant),
}

/// Compares `selected` (this build's benchmarks the filter kept) with the
/// other build's benchmarks of the same names; the other build's names that
/// `filter` keeps and this build lacks are listed as gone. `Err` when the
/// comparison cannot start (no executable, not a worker, another protocol).
fn compare(
    request: &Comparison,
    store: &Store,
    filter: &Filter,
    selected: &[String],
    registered: &[String],
) -> Result<(AgainstReport, RunInfo), String> {
    let (exe, shown) = match &request.against {
        Against::Baseline(name) => (
            store.executable(name).map_err(|e| e.to_string())?,
            name.clone(),
        ),
        Against::Exe(given) => {
            // The file checked is the file run: a bare name is this
            // directory's, never one found on $PATH (an absolute path is
            // never looked up there), and stays so if a benchmark changes
            // the directory before a crashed worker is started again.
            let path = &std::path::absolute(given).unwrap_or_else(|_| Path::new(".").join(given));
            if !path.is_file() {
                return Err(format!(
                    "--against-exe {}: no such file; give the path of a bench executable \
                     (target/release/deps/NAME-HASH, as `cargo bench --no-run` prints)",
                    given.display()
                ));
            }
            (path.clone(), given.display().to_string())
        }
    };
    let exe = std::path::absolute(&exe).unwrap_or(exe);
    let mut remote = Peer::start(&exe, &request.worker_args)?;
    let mut local = Side::new(&request.settings)?;
    let config = request.settings.sampler_config(Nanos::ZERO);
    let slice = config.measure_time / SLICES_PER_MEASURE_TIME;
    let limit = Duration::from_secs_f64(2.0 * config.max_time.0 / 1e9) + SLACK;
    let budget = config.max_time;

    // Each benchmark's pairs take at most twice --max-time, and usually
    // less: the verdict settles.
    let (mode, started) = request.progress;
    let watch = Watch::against(selected.to_vec(), config.max_time.0 / 1e9, started);
    let display = Progress::start(mode, watch.clone());
    let mut rows = Vec::new();
    let mut own_overhead = false;
    for (index, name) in selected.iter().enumerate() {
        watch.running(index);
        watch.unit_started();
        let outcome = if !remote.benchmarks.contains(name) {
            AgainstOutcome::New
        } else if bench_runtime::signal::interrupted() {
            break;
        } else {
            match pair(
                name,
                &mut local,
                &mut remote,
                (slice, budget, limit),
                request.noise_threshold,
                &watch,
                &mut own_overhead,
            ) {
                Ok(outcome) => outcome,
                // Ctrl-C: the benchmark under way is left out, as in a
                // measured run.
                Err(_) if bench_runtime::signal::interrupted() => break,
                Err(why) => {
                    // A worker that crashed or hung fails its benchmark only:
                    // the next one gets a fresh worker.
                    if !remote.is_alive() {
                        remote = Peer::start(&exe, &request.worker_args)?;
                    }
                    AgainstOutcome::Failed(why)
                }
            }
        };
        watch.unit_ended();
        if let Some(done) = watch.finished(index) {
            let figure = match &outcome {
                AgainstOutcome::Compared(paired) => Some(Figure::Ratio {
                    ratio: paired.comparison.ratio,
                    verdict: paired.verdict.to_string(),
                }),
                AgainstOutcome::Failed(_) => Some(Figure::Failed),
                AgainstOutcome::TooFast { .. } => Some(Figure::TooFast),
                _ => None,
            };
            if let Some(figure) = figure {
                display.finished(done, selected.len(), name, figure);
            }
        }
        rows.push(AgainstRow {
            name: name.clone(),
            outcome,
        });
    }
    display.end();
    let others = remote.benchmarks.iter().map(|n| (n.clone(), false, ()));
    for gone in select::select(filter, others) {
        if !registered.contains(&gone.name) {
            rows.push(AgainstRow {
                name: gone.name,
                outcome: AgainstOutcome::Gone,
            });
        }
    }
    let mut info = local.info();
    info.partial = bench_runtime::signal::interrupted();
    let report = AgainstReport {
        baseline: shown,
        protocol_version: PROTOCOL_VERSION,
        noise_threshold: request.noise_threshold,
        rows,
        own_overhead,
    };
    Ok((report, info))
}

/// `--against`: the paired comparison instead of a measured run. Prints
/// the machine, the table and a summary; writes `--output`; returns the
/// exit code (101 when a benchmark failed on either side, 1 under
/// `--fail-on-regression` when one is slower or nothing was compared).
pub(super) fn run(
    out: &mut Terminal<'_>,
    args: &Args,
    against: &Against,
    selected: &Selection,
    registered: &[String],
    html_report: Option<&crate::report::html::Place>,
) -> Result<i32, String> {
    let environment = Environment::capture();
    super::show_machine(out, args, &environment, None);
    let started = Instant::now();
    // Both builds measure on one CPU: on a virtual machine one vCPU can run
    // 1.5× slower than the other for seconds at a time, and two processes
    // left on different ones would compare the CPUs, not the builds.
    let settings = Settings {
        pin: args.settings.pin.or_else(same_cpu),
        ..args.settings
    };
    let comparison = Comparison {
        against: against.clone(),
        settings,
        noise_threshold: if args.baselines.noise_threshold_given {
            args.baselines.noise_threshold
        } else {
            DEFAULT_NOISE_THRESHOLD
        },
        worker_args: crate::cli::worker_args(&settings),
        progress: (progress::Mode::for_stderr(args.output.quiet), started),
    };
    let names: Vec<String> = selected
        .iter()
        .filter(|s| !s.ignored)
        .map(|s| s.name.clone())
        .collect();
    let (report, info) = compare(
        &comparison,
        &Store::locate(),
        &args.filter,
        &names,
        registered,
    )?;
    let _ = out.against_table(&report);
    let failed = report
        .rows
        .iter()
        .any(|row| matches!(row.outcome, AgainstOutcome::Failed(_)));
    console::status(&format_args!(
        "{} compared against {} in {:.1} s",
        report.compared(),
        report.baseline,
        started.elapsed().as_secs_f64()
    ));
    let run = super::outputs::Against {
        environment: &environment,
        info: &info,
        report: &report,
    };
    let mut errors = super::outputs::write_against(args, &run);
    if let Some(place) = html_report {
        let target = crate::baseline::target_name();
        let page = crate::report::html::render_against(&target, &environment, &report);
        errors.extend(super::html::write(&args.output, place, &page));
    }
    if !errors.is_empty() {
        for error in &errors {
            console::error(error);
        }
        return Ok(EXIT_USAGE);
    }
    if info.partial {
        console::status(&"interrupted: the comparison above is partial (stopped at Ctrl-C)");
        return Ok(bench_runtime::signal::EXIT_INTERRUPTED);
    }
    let gate = args.baselines.fail_on_regression;
    if let Some(why) = report.nothing_compared().filter(|_| gate) {
        console::error(&format_args!(
            "--fail-on-regression: nothing was compared ({why}), so the gate cannot pass; \
             check the filter and the other build"
        ));
        return Ok(EXIT_REGRESSED);
    }
    Ok(if failed {
        EXIT_FAILED
    } else if gate && report.regressed() {
        EXIT_REGRESSED
    } else {
        0
    })
}

/// The CPU both builds measure on when `--pin` does not say: the one this
/// process runs on now, if the system says.
fn same_cpu() -> Option<usize> {
    let allowed = bench_runtime::affinity::allowed_cpus()?;
    bench_runtime::affinity::current_cpu()
        .filter(|cpu| allowed.contains(cpu))
        .or_else(|| allowed.first().copied())
}

/// One benchmark, paired round by round until the verdict settles or the
/// budget is spent.
fn pair(
    name: &str,
    local: &mut Side,
    remote: &mut Peer,
    (slice, budget, limit): (Nanos, Nanos, Duration),
    noise_threshold: f64,
    watch: &Watch,
    own_overhead: &mut bool,
) -> Result<AgainstOutcome, String> {
    let resolution = local.overhead().resolution().0;
    let open = Request::Open {
        name: name.to_string(),
        overhead: None,
    };
    expect_opened(local.handle(open), "this build")?;
    // The other build takes out this one's loop overhead: the same loop,
    // estimated once, so that the estimate's error cancels in the ratio.
    let open = Request::Open {
        name: name.to_string(),
        overhead: Some(local.overhead()),
    };
    let opened_at = Instant::now();
    let opened = remote.ask(&open, limit, &format!("setting up {name}"))?;
    if !expect_opened(opened, "the other build")? {
        *own_overhead = true;
    }

    // The worker takes this build's loop cost out of its times: what is
    // left of an empty body is zero give or take the estimate's noise
    // (a few hundred picoseconds below zero on a loaded machine). More
    // than the whole loop's cost below zero would be a loop that took less
    // than nothing: no measurement, a worker to disbelieve.
    let lowest = -(local.overhead().per_iter.0 + resolution);
    let doing = format!("measuring {name}");
    let mut local_slice = || {
        per_iter(
            local.handle(Request::Slice { nanos: slice.0 }),
            "this build",
        )
    };
    let remote_slice = |remote: &mut Peer| {
        let reply = remote.ask(&Request::Slice { nanos: slice.0 }, limit, &doing)?;
        if let Reply::Slice {
            per_iter_ns,
            samples,
        } = &reply
        {
            check_reply(*per_iter_ns, *samples, lowest, opened_at.elapsed())
                .map_err(|why| format!("the other build sent {why} while {doing}: it is not a worker this build can believe; rebuild it with this bench-harness"))?;
        }
        per_iter(reply, "the other build")
    };
    let (mut new, mut old) = (Vec::new(), Vec::new());
    let mut rounds = 0;
    watch.round(1);
    let mut spent = Nanos::ZERO;
    let result = loop {
        // ABBA: this build first in even rounds, the other in odd ones.
        let pair = if rounds % 2 == 0 {
            let n = local_slice();
            n.and_then(|n| Ok((n, remote_slice(remote)?)))
        } else {
            let o = remote_slice(remote);
            o.and_then(|o| Ok((local_slice()?, o)))
        };
        let (n, o) = match pair {
            Ok(pair) => pair,
            Err(why) => break Err(why),
        };
        rounds += 1;
        watch.round(rounds + 1);
        spent += slice;
        if let (Some(n), Some(o)) = (n, o) {
            new.push(n);
            old.push(o);
        }
        // Settled: a verdict beyond the noise band, or too fast for one.
        let settled = new.len() >= MIN_PAIRS
            && new.len() % 2 == 0
            && compare_resolved(&old, &new, resolution)
                .is_none_or(|c| c.verdict(noise_threshold) != Verdict::Unclear);
        if settled || spent.0 >= budget.0 || bench_runtime::signal::interrupted() {
            break Ok(());
        }
    };
    let _ = local.handle(Request::Close);
    let closing = remote.ask(&Request::Close, limit, &format!("closing {name}"));
    result?;
    closing?;
    if new.len() < 2 {
        return Err(format!(
            "fewer than 2 paired rounds in {rounds}: a sample outlasts the slices; raise \
             --measure-time"
        ));
    }
    let (new_ns, old_ns) = (mean(&new), mean(&old));
    Ok(match compare_resolved(&old, &new, resolution) {
        Some(comparison) => AgainstOutcome::Compared(Paired {
            verdict: comparison.verdict(noise_threshold),
            comparison,
            new_ns,
            old_ns,
        }),
        None => AgainstOutcome::TooFast {
            new_ns,
            old_ns,
            rounds: new.len(),
        },
    })
}

/// Whether the side opened the benchmark, and took out the overhead sent.
fn expect_opened(reply: Reply, side: &str) -> Result<bool, String> {
    match reply {
        Reply::Opened { shared_overhead } => Ok(shared_overhead),
        Reply::Error { message } | Reply::Failed { message } => Err(format!("{side}: {message}")),
        other => Err(format!("{side} answered {other:?} to opening a benchmark")),
    }
}

/// Whether a worker's slice reply holds figures a measurement can have: a
/// finite time per iteration no lower than `lowest` and no longer than the
/// wall time since the benchmark was opened (`since_open`, with room for
/// two clocks' disagreement), from at least one sample; else what is wrong,
/// for the benchmark's failure. A worker is another program: its numbers
/// are checked, never just believed.
fn check_reply(
    per_iter_ns: Option<f64>,
    samples: usize,
    lowest: f64,
    since_open: Duration,
) -> Result<(), String> {
    let Some(value) = per_iter_ns else {
        return Ok(());
    };
    let longest = 2.0 * since_open.as_secs_f64() * 1e9 + 1e6;
    if !value.is_finite() || value < lowest || value > longest {
        return Err(format!(
            "an impossible time per iteration ({} ns; a time here is between {lowest:.3} and \
             {longest:.0} ns)",
            shown(value)
        ));
    }
    if samples == 0 {
        return Err(format!(
            "a time per iteration ({} ns) from no samples",
            shown(value)
        ));
    }
    Ok(())
}

/// A number a worker sent, short whatever it is: `-5`, `1e300`.
fn shown(value: f64) -> String {
    if value != 0.0 && !(1e-3..1e9).contains(&value.abs()) {
        format!("{value:e}")
    } else {
        format!("{value}")
    }
}

/// A slice's time per iteration (`None` while warming up), or why there is
/// none.
fn per_iter(reply: Reply, side: &str) -> Result<Option<f64>, String> {
    match reply {
        Reply::Slice { per_iter_ns, .. } => Ok(per_iter_ns),
        Reply::Failed { message } => Err(format!("{side} failed: {message}")),
        Reply::Stopped => Err(format!("{side} stopped sampling (its sample cap)")),
        Reply::Error { message } => Err(format!("{side}: {message}")),
        other => Err(format!("{side} answered {other:?} to a slice")),
    }
}

/// The sampler settings of one side's benchmark: the run's, with no stop
/// of its own (the pairing decides when to stop).
fn stepping_job(bench: registry::Benchmark, settings: &Settings, floor: Nanos) -> crate::run::Job {
    let mut job = super::plan::job(bench, settings, floor);
    job.config.stop_rule = StopRule::TimeBudget;
    job.config.measure_time = Nanos(f64::INFINITY);
    job.config.max_time = Nanos(f64::INFINITY);
    job.counters = false;
    job
}
