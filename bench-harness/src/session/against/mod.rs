//! `--against NAME` / `--against-exe PATH`: this build and another,
//! measured in one run, slice by slice in turn, so that the machine's drift
//! cancels in each round's ratio.
//!
//! Both builds run as worker processes (`super::worker`, the run's one
//! worker layer, which `--forks` measures with too): this build from the file
//! this process runs, so that neither side carries the parent's heap. The
//! parent only schedules and pairs. A comparison takes several pairs of
//! fresh processes (one of each build, the start order alternated), since a
//! process's memory layout moves some bodies by several percent; in each
//! pair every benchmark still to settle is opened on both sides and takes
//! [`ROUNDS_PER_PAIR`] rounds: one slice each, in ABBA order (this build
//! first in even rounds, the other first in odd ones, so a linear drift
//! within a pair of rounds cancels), only one process measuring at a time.
//! Each side reports its slice's median time per iteration (the preempted
//! samples left out), read with its own clock, with the parent's loop
//! overhead taken out on both sides. A round's ratio is new/old; the pairs
//! are combined by [`compare_replicated`]: each pair of processes counts
//! once, the interval the wider of the one over the pairs and the one over
//! all rounds, never narrower than the clock's quantum.
//!
//! A benchmark stops once its verdict is settled (the interval beyond the
//! noise band, or inside it) after [`MIN_PROCESS_PAIRS`] pairs, or when
//! each side has spent `--max-time` measuring it, or after
//! [`MAX_PROCESS_PAIRS`]; what is not settled then is `unclear`, with the
//! largest change its interval allows.

use std::ffi::OsString;
use std::path::Path;
use std::time::{Duration, Instant};

use bench_runtime::Nanos;

use super::rows::{Selection, EXIT_FAILED, EXIT_REGRESSED, EXIT_USAGE};
use super::worker::{Peer, Reply, Request, Side, PROTOCOL_VERSION};
use crate::analysis::compare::{compare_replicated, PairedComparison};
use crate::analysis::mean;
use crate::baseline::Store;
use crate::cli::{Against, Args};
use crate::console;
use crate::environment::Environment;
use crate::report::progress::{self, Figure, Progress};
use crate::report::terminal::Terminal;
use crate::results::against::{AgainstOutcome, AgainstReport, AgainstRow, Paired};
use crate::results::RunInfo;
use crate::run::Watch;
use crate::select::{self, Filter};
use crate::settings::Settings;

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
    // This build measures in fresh processes too, started from the file
    // this process runs: neither side carries the harness's own heap. Both
    // files are held open for the whole comparison (a rebuild of either
    // path cannot slip another program into its pairs) and started alike.
    let this = crate::supervisor::Program::open().map_err(|why| format!("--against: {why}"))?;
    let other = crate::supervisor::Program::at(&exe).map_err(|why| format!("--against: {why}"))?;
    let builds = Builds {
        this: &this,
        other: &other,
        args: &request.worker_args,
    };
    // Clock, loop overhead and the run's figures: measured here once, the
    // overhead sent to both sides so that both take out the same.
    let local = Side::new(&request.settings)?;
    let config = request.settings.sampler_config(Nanos::ZERO);
    let limits = Limits {
        slice: config.measure_time / SLICES_PER_MEASURE_TIME,
        wait: Duration::from_secs_f64(2.0 * config.max_time.0 / 1e9) + SLACK,
        budget: config.max_time,
        overhead: local.overhead(),
        // The clock's quantum over the shortest sample, relative, both
        // sides together: what no interval may be narrower than.
        floor: std::f64::consts::SQRT_2 * local.info().precision.resolution.0
            / local.info().sample_floor.0,
    };
    let (mode, started) = request.progress;
    let watch = Watch::against(selected.to_vec(), config.max_time.0 / 1e9, started);
    let display = Progress::start(mode, watch.clone());
    // From here a SIGTERM or SIGHUP (or a second Ctrl-C) kills the
    // workers' groups and is recorded: the loop stops, the workers are
    // stopped and what they left is swept, then the process ends with it.
    let deferred = bench_runtime::signal::defer_exit();
    let first = builds.start(true)?;
    let theirs: Vec<String> = first.1.benchmarks.clone();
    // Later pairs are started when a benchmark needs them: none after the
    // last one.
    let mut pairs = Some(first);
    let mut states: Vec<Pairing> = selected
        .iter()
        .map(|name| Pairing {
            gone_there: !theirs.contains(name),
            ..Pairing::default()
        })
        .collect();
    let mut own_overhead = false;
    'pairs: for pair in 0..MAX_PROCESS_PAIRS {
        if pair > 0 {
            // Fresh processes, the other build started first every other
            // pair: the start order's own effect cancels too.
            pairs = None;
        }
        watch.round(pair + 1);
        for (index, name) in selected.iter().enumerate() {
            let state = &mut states[index];
            if !state.wants_more(request.noise_threshold, &limits) {
                continue;
            }
            if bench_runtime::signal::stopping() {
                break 'pairs;
            }
            watch.running(index);
            let workers = match &mut pairs {
                Some(workers) => workers,
                None => pairs.insert(builds.start(pair % 2 == 0)?),
            };
            match measure_pair(name, workers, &limits, &mut own_overhead) {
                Ok((old, new, spent)) => {
                    state.spent += spent;
                    state.pairs.push((old, new));
                }
                // Ctrl-C: the benchmark under way keeps the pairs it has.
                Err(_) if bench_runtime::signal::stopping() => break 'pairs,
                Err(why) => {
                    // A worker that failed, crashed, hung or answered out
                    // of step fails this benchmark only, and is never asked
                    // again: the next benchmark gets fresh workers.
                    state.failed = Some(why);
                    pairs = None;
                }
            }
            if !state.wants_more(request.noise_threshold, &limits) {
                report_finished(&watch, &display, (index, name), state, request, &limits);
            }
        }
        if states
            .iter()
            .all(|s| !s.wants_more(request.noise_threshold, &limits))
        {
            break;
        }
    }
    drop(pairs);
    drop(deferred);
    // What the last pair left unsettled (at most pairs, or Ctrl-C).
    for (index, (name, state)) in selected.iter().zip(&mut states).enumerate() {
        if !state.pairs.is_empty() || state.failed.is_some() {
            report_finished(&watch, &display, (index, name), state, request, &limits);
        }
    }
    display.end();
    let interrupted = bench_runtime::signal::interrupted();
    let mut rows: Vec<AgainstRow> = selected
        .iter()
        .zip(&states)
        // After Ctrl-C, a benchmark not measured at all is left out.
        .filter(|(_, state)| !interrupted || !state.pairs.is_empty() || state.failed.is_some())
        .map(|(name, state)| AgainstRow {
            name: name.clone(),
            outcome: state.outcome(request.noise_threshold, &limits),
        })
        .collect();
    let others = theirs.iter().map(|n| (n.clone(), false, ()));
    for gone in select::select(filter, others) {
        if !registered.contains(&gone.name) {
            rows.push(AgainstRow {
                name: gone.name,
                outcome: AgainstOutcome::Gone,
            });
        }
    }
    let mut info = local.info();
    info.partial = interrupted;
    let report = AgainstReport {
        baseline: shown,
        protocol_version: PROTOCOL_VERSION,
        noise_threshold: request.noise_threshold,
        rows,
        own_overhead,
        partial: interrupted,
    };
    Ok((report, info))
}

/// Shows benchmark `index` (`name`) as finished, once.
fn report_finished(
    watch: &Watch,
    display: &Progress,
    (index, name): (usize, &str),
    state: &mut Pairing,
    request: &Comparison,
    limits: &Limits,
) {
    if std::mem::replace(&mut state.reported, true) {
        return;
    }
    if let Some(done) = watch.finished(index) {
        let figure = || {
            Some(match state.outcome(request.noise_threshold, limits) {
                AgainstOutcome::Compared(paired) => Figure::Ratio {
                    ratio: paired.comparison.ratio,
                    verdict: paired.verdict.to_string(),
                },
                AgainstOutcome::Failed(_) => Figure::Failed,
                _ => Figure::TooFast,
            })
        };
        display.finished(done, watch.shown(), name, figure);
    }
}

/// Pairs of fresh processes, one of each build, before a verdict may
/// settle: each pair is one memory layout of each build, and fewer than
/// three say nothing of how far layouts move a body.
const MIN_PROCESS_PAIRS: usize = 3;

/// The confidence of the interval a comparison may stop on, looked at
/// after every pair of processes (the row prints the 95% one).
const SETTLED_CONFIDENCE: f64 = 0.99;

/// Pairs of processes at most, whatever the budget left.
const MAX_PROCESS_PAIRS: usize = 12;

/// Paired rounds each benchmark takes in each pair of processes.
const ROUNDS_PER_PAIR: usize = MIN_PAIRS;

/// The two builds as workers are started.
struct Builds<'a> {
    this: &'a crate::supervisor::Program,
    other: &'a crate::supervisor::Program,
    args: &'a [OsString],
}

impl Builds<'_> {
    /// A fresh worker of each build, `(this, other)`, started in that order
    /// when `this_first`.
    fn start(&self, this_first: bool) -> Result<(Peer, Peer), String> {
        let start = |program: &crate::supervisor::Program| {
            Peer::start(program, self.args, None, crate::supervisor::CtrlC::Kill)
        };
        let this = || start(self.this);
        let other = || start(self.other);
        if this_first {
            let this = this()?;
            Ok((this, other()?))
        } else {
            let other = other()?;
            Ok((this()?, other))
        }
    }
}

/// How long each side measures, and what each side's times have in common.
struct Limits {
    slice: Nanos,
    /// How long a worker may take to answer.
    wait: Duration,
    /// Each benchmark's measuring time, per side, over all its pairs.
    budget: Nanos,
    overhead: crate::analysis::Overhead,
    /// The narrowest interval of a log ratio.
    floor: f64,
}

/// One benchmark's comparison so far.
#[derive(Default)]
struct Pairing {
    /// The other build has no benchmark of this name.
    gone_there: bool,
    /// Per pair of processes, the rounds' times `(other build, this build)`.
    pairs: Vec<(Vec<f64>, Vec<f64>)>,
    /// Measuring time spent per side.
    spent: Nanos,
    failed: Option<String>,
    /// Its progress line was shown.
    reported: bool,
}

impl Pairing {
    fn comparison(&self, limits: &Limits) -> Option<PairedComparison> {
        let resolution = limits.overhead.resolution().0;
        compare_replicated(&self.pairs, resolution, limits.floor)
    }

    /// Whether another pair of processes should measure it: not failed,
    /// budget left, and the verdict not settled (beyond the noise band or
    /// inside it) after [`MIN_PROCESS_PAIRS`].
    fn wants_more(&self, noise_threshold: f64, limits: &Limits) -> bool {
        if self.gone_there || self.failed.is_some() || self.spent.0 >= limits.budget.0 {
            return false;
        }
        self.pairs.len() < MIN_PROCESS_PAIRS
            || self
                .comparison(limits)
                .is_some_and(|c| !c.settled_at(noise_threshold, SETTLED_CONFIDENCE))
    }

    fn outcome(&self, noise_threshold: f64, limits: &Limits) -> AgainstOutcome {
        if self.gone_there {
            return AgainstOutcome::New;
        }
        if let Some(why) = &self.failed {
            return AgainstOutcome::Failed(why.clone());
        }
        let (old, new): (Vec<f64>, Vec<f64>) = (self.pairs.iter())
            .flat_map(|(o, n)| o.iter().copied().zip(n.iter().copied()))
            .unzip();
        if new.len() < 2 {
            return AgainstOutcome::Failed(
                "fewer than 2 paired rounds: a sample outlasts the slices; raise \
                 --measure-time"
                    .to_string(),
            );
        }
        let (new_ns, old_ns) = (mean(&new), mean(&old));
        match self.comparison(limits) {
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
        }
    }
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
    let (report, info) = match compare(
        &comparison,
        &Store::locate(),
        &args.filter,
        &names,
        registered,
    ) {
        // Ctrl-C before a pair of workers was up: nothing to show.
        Err(why) if bench_runtime::signal::interrupted() => {
            console::status(&format_args!("{why}: nothing was compared"));
            return Ok(bench_runtime::signal::EXIT_INTERRUPTED);
        }
        result => result?,
    };
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
    if let Some(path) = &args.output.logfile {
        let log = crate::report::logfile::against(&report);
        errors.extend(super::outputs::write_logfile(path, &log).err());
    }
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

/// One benchmark in one pair of processes, `(this, other)`: both open it
/// with the same loop overhead taken out, then take [`ROUNDS_PER_PAIR`]
/// rounds in ABBA order (this build first in even rounds, the other in odd
/// ones, so that a linear drift within two rounds cancels), only one
/// process measuring at a time. The rounds' times `(other, this)` and the
/// measuring time spent per side.
fn measure_pair(
    name: &str,
    (this, other): &mut (Peer, Peer),
    limits: &Limits,
    own_overhead: &mut bool,
) -> Result<(Vec<f64>, Vec<f64>, Nanos), String> {
    let open = Request::Open {
        name: name.to_string(),
        overhead: Some(limits.overhead),
    };
    let opened_at = Instant::now();
    let setting_up = format!("setting up {name}");
    expect_opened(this.ask(&open, limits.wait, &setting_up)?, "this build")?;
    if !expect_opened(
        other.ask(&open, limits.wait, &setting_up)?,
        "the other build",
    )? {
        *own_overhead = true;
    }
    // Both take out this run's loop cost: what is left of an empty body is
    // zero give or take the estimate's noise (a few hundred picoseconds
    // below zero on a loaded machine). More than the whole loop's cost
    // below zero would be a loop that took less than nothing: no
    // measurement, a worker to disbelieve.
    let lowest = -(limits.overhead.per_iter.0 + limits.overhead.resolution().0);
    let doing = format!("measuring {name}");
    let slice = |peer: &mut Peer, side: &str| {
        let reply = peer.ask(
            &Request::Slice {
                nanos: limits.slice.0,
            },
            limits.wait,
            &doing,
        )?;
        if let Reply::Slice {
            per_iter_ns,
            samples,
        } = &reply
        {
            check_reply(*per_iter_ns, *samples, lowest, opened_at.elapsed()).map_err(|why| {
                format!(
                    "{side} sent {why} while {doing}: it is not a worker this build can \
                     believe; rebuild it with this bench-harness"
                )
            })?;
        }
        per_iter(reply, side)
    };
    let (mut new, mut old) = (Vec::new(), Vec::new());
    let mut rounds = 0;
    let mut spent = Nanos::ZERO;
    // Warm-up rounds give no times: at most as many again.
    let result = loop {
        let pair = if rounds % 2 == 0 {
            slice(this, "this build").and_then(|n| Ok((n, slice(other, "the other build")?)))
        } else {
            slice(other, "the other build").and_then(|o| Ok((slice(this, "this build")?, o)))
        };
        let (n, o) = match pair {
            Ok(pair) => pair,
            Err(why) => break Err(why),
        };
        rounds += 1;
        spent += limits.slice;
        if let (Some(n), Some(o)) = (n, o) {
            new.push(n);
            old.push(o);
        }
        let enough = new.len() >= ROUNDS_PER_PAIR && new.len() % 2 == 0;
        if enough || rounds >= 4 * ROUNDS_PER_PAIR || bench_runtime::signal::stopping() {
            break Ok(());
        }
    };
    let closing = format!("closing {name}");
    let closed = this.ask(&Request::Close, limits.wait, &closing);
    let closed_there = other.ask(&Request::Close, limits.wait, &closing);
    result?;
    for (reply, side) in [(closed?, "this build"), (closed_there?, "the other build")] {
        if reply != Reply::Closed {
            return Err(format!(
                "{side} answered out of step ('{}' to closing {name}): it was stopped",
                reply.kind()
            ));
        }
    }
    Ok((old, new, spent))
}

/// Whether the side opened the benchmark, and took out the overhead sent.
fn expect_opened(reply: Reply, side: &str) -> Result<bool, String> {
    match reply {
        Reply::Opened { shared_overhead } => Ok(shared_overhead),
        Reply::Error { message } | Reply::Failed { message } => Err(format!("{side}: {message}")),
        other => Err(format!(
            "{side} answered out of step ('{}' to opening a benchmark): it was stopped",
            other.kind()
        )),
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
        other => Err(format!(
            "{side} answered out of step ('{}' to a slice): it was stopped",
            other.kind()
        )),
    }
}
