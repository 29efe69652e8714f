//! The worker's side: a bench binary started with this run's token in
//! [`super::WORKER_ENV`] and after `--`[`super::TOKEN_FLAG`] serves the
//! protocol instead of running. A slice is timed with its own clock, the
//! loop overhead the parent sends (its own, when none is sent) taken out;
//! a `measure` runs the benchmarks named as a run in one process does, and
//! sends back what it recorded, raw.

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use bench_runtime::{Clock, Nanos, StopRule, TimerPrecision};

use super::protocol::{Reply, Request, PROTOCOL_VERSION, WORKER_NAME};
use super::wire::Raw;
use crate::analysis::{self, Overhead};
use crate::registry;
use crate::report::progress;
use crate::results::RunInfo;
use crate::run::{self, Stepper};
use crate::select::Selected;
use crate::session::{collect, plan};
use crate::settings::Settings;

/// Serves requests from standard input until it ends; the exit code.
pub(crate) fn serve(settings: &Settings) -> i32 {
    // Replies go to the real standard output; what benchmarks print goes
    // to standard error, where the parent keeps its last lines.
    let mut replies = match bench_runtime::stdio::divert_stdout() {
        Ok(file) => std::io::BufWriter::new(file),
        Err(error) => {
            eprintln!("error: the worker cannot set up its output: {error}");
            return 2;
        }
    };
    // Requests come from the real standard input; a benchmark that reads
    // it (or a program it starts) sees it empty.
    let requests = match bench_runtime::stdio::take_stdin() {
        Ok(file) => std::io::BufReader::new(file),
        Err(error) => {
            eprintln!("error: the worker cannot set up its input: {error}");
            return 2;
        }
    };
    // A worker never outlives the run that started it; the parent's
    // Ctrl-C, passed on, stops a measure at a sample boundary.
    bench_runtime::signal::exit_with_parent();
    bench_runtime::signal::install();
    let hello = Reply::Hello {
        worker: WORKER_NAME.to_string(),
        protocol: PROTOCOL_VERSION,
        harness_version: env!("CARGO_PKG_VERSION").to_string(),
        benchmarks: registry::all().iter().map(|b| b.full_name()).collect(),
    };
    // Its clock and loop overhead are measured at the first slice's
    // request: a `measure` plans its own.
    let mut side: Option<Side> = None;
    let mut send = |reply: Reply| -> bool {
        replies.write_all(reply.line().as_bytes()).is_ok() && replies.flush().is_ok()
    };
    if !send(hello) {
        return 2;
    }
    for line in requests.lines() {
        let Ok(line) = line else { break };
        let sent = match crate::json::from_str::<Request>(&line) {
            Ok(Request::Measure {
                benchmarks,
                seed,
                share,
            }) => measure(settings, &benchmarks, seed, share, &mut send),
            Ok(request) => match &mut side {
                Some(side) => send(side.handle(request)),
                None => match Side::new(settings) {
                    Ok(new) => send(side.insert(new).handle(request)),
                    Err(message) => send(Reply::Error { message }),
                },
            },
            Err(error) => send(Reply::Error {
                message: format!("not a request of protocol {PROTOCOL_VERSION}: {error}"),
            }),
        };
        if !sent {
            break;
        }
    }
    0
}

/// Measures the benchmarks asked for (by name, and whether
/// `#[benchmark(ignore)]` marks it; the first of each, ignored or not) as
/// a run in one process does, with `seed`, each for its
/// share of the budgets as one of `share` processes, showing progress as
/// status lines for the parent; sends each one's [`Reply::Result`] and
/// then [`Reply::Measured`]. False if a reply could not be sent.
fn measure(
    settings: &Settings,
    asked: &[(String, bool)],
    seed: u64,
    share: usize,
    send: &mut dyn FnMut(Reply) -> bool,
) -> bool {
    let mut found = vec![false; asked.len()];
    let selected: Vec<Selected<registry::Benchmark>> = registry::all()
        .into_iter()
        .filter(|bench| {
            let this = (bench.full_name(), bench.entry.options.ignore);
            let at = asked.iter().position(|a| *a == this);
            at.is_some_and(|at| !std::mem::replace(&mut found[at], true))
        })
        .map(|bench| Selected {
            name: bench.full_name(),
            bench,
            ignored: false,
        })
        .collect();
    let settings = Settings {
        seed: Some(seed),
        ..*settings
    };
    let cold_bytes = (settings.cold_or_default())
        .then(|| plan::cold_buffer_bytes(&crate::environment::Environment::capture()));
    let processes = plan::Processes::Worker { share };
    let plan = match plan::plan(
        &settings,
        &selected,
        cold_bytes,
        plan::Reference::Off,
        processes,
    ) {
        Ok(plan) => plan,
        Err(message) => return send(Reply::Error { message }),
    };
    let mut here = collect::measure_here(&plan, progress::Mode::Relay, Instant::now());
    let measured = collect::the_loop(&plan, &mut here);
    for (job, row) in plan.job_rows.iter().enumerate() {
        // None: stopped by Ctrl-C before its first sample.
        let result = match here.measured[job].take() {
            None => continue,
            Some(Ok((m, _))) if m.samples.is_empty() => continue,
            Some(Ok((measurement, extras))) => {
                let mut raw = Raw {
                    measurement,
                    extras,
                };
                for samples in raw.take_leading_samples() {
                    if !send(Reply::Samples(samples)) {
                        return false;
                    }
                }
                Ok(Box::new(raw))
            }
            Some(Err(failure)) => Err(failure),
        };
        let name = selected[*row].name.clone();
        if !send(Reply::Result { name, result }) {
            return false;
        }
    }
    send(Reply::Measured(measured))
}

/// One side of a paired comparison: this process's benchmarks, clock and
/// loop overhead, and the benchmark being measured.
pub(crate) struct Side {
    settings: Settings,
    benchmarks: Vec<registry::Benchmark>,
    clock: Clock,
    precision: TimerPrecision,
    floor: Nanos,
    overhead: Overhead,
    plan: run::Plan,
    /// The open benchmark, and the overhead taken out of its samples.
    open: Option<(Stepper, Overhead)>,
}

impl Side {
    /// The clock the settings ask for, its precision, and the loop overhead
    /// measured once, here.
    pub(crate) fn new(settings: &Settings) -> Result<Side, String> {
        let clock = Clock::select(settings.timer_or_default()).map_err(|e| e.to_string())?;
        let precision = TimerPrecision::measure(&clock);
        let floor = plan::sample_floor(precision);
        let overhead = run::measure_overhead(clock, floor);
        let plan = run::Plan {
            schedule: settings.schedule_or_default(),
            clock,
            slice: Nanos::ZERO,
            seed: 0,
            overhead: Arc::new(Mutex::new(overhead)),
            pin: settings.pin,
            cold: None,
        };
        Ok(Side {
            settings: *settings,
            benchmarks: registry::all(),
            clock,
            precision,
            floor,
            overhead,
            plan,
            open: None,
        })
    }

    /// This side's loop overhead: the other side takes it out too, and
    /// its resolution says which times are too close to zero for a ratio.
    pub(crate) fn overhead(&self) -> Overhead {
        self.overhead
    }

    pub(crate) fn handle(&mut self, request: Request) -> Reply {
        match request {
            Request::Open { name, overhead } => {
                let Some(bench) = self.benchmarks.iter().find(|b| b.full_name() == name) else {
                    return Reply::Error {
                        message: format!("no benchmark named '{name}' in this build"),
                    };
                };
                let job = stepping_job(bench.clone(), &self.settings, self.floor);
                let shared_overhead = overhead.is_some();
                let overhead = overhead.unwrap_or(self.overhead);
                self.open = Some((Stepper::spawn(job, &self.plan), overhead));
                Reply::Opened { shared_overhead }
            }
            Request::Slice { nanos } => {
                let Some((stepper, overhead)) = &mut self.open else {
                    return Reply::Error {
                        message: "a slice was asked for with no benchmark open".into(),
                    };
                };
                match stepper.slice(Nanos(nanos)) {
                    Ok(Some(samples)) => {
                        // The slice's median, as a steady body's headline
                        // reads its blocks (the preempted samples are out).
                        let mut values: Vec<f64> = samples
                            .iter()
                            .map(|s| overhead.corrected_per_iter(s))
                            .collect();
                        values.sort_by(f64::total_cmp);
                        Reply::Slice {
                            per_iter_ns: (!values.is_empty())
                                .then(|| analysis::percentile(&values, 50.0)),
                            samples: values.len(),
                        }
                    }
                    Ok(None) => {
                        self.open = None;
                        Reply::Stopped
                    }
                    Err(failure) => {
                        self.open = None;
                        Reply::Failed {
                            message: match failure.location {
                                Some(at) => format!("{} (at {at})", failure.message),
                                None => failure.message,
                            },
                        }
                    }
                }
            }
            Request::Close => {
                self.open = None;
                Reply::Closed
            }
            Request::Measure { .. } => Reply::Error {
                message: "a measure was asked of a benchmark's side".into(),
            },
        }
    }

    /// What the document's methodology says of this side's measuring.
    pub(crate) fn info(&self) -> RunInfo {
        RunInfo {
            harness_version: env!("CARGO_PKG_VERSION"),
            clock_name: self.clock.name(),
            clock_hz: self.clock.frequency_hz(),
            precision: self.precision,
            sample_floor: self.floor,
            overhead: self.overhead,
            schedule: self.plan.schedule,
            cold: self.settings.cold_or_default(),
            target_precision: 0.0,
            seed: 0,
            partial: false,
            forks: None,
        }
    }
}

/// The sampler settings of one side's benchmark: the run's, with no stop
/// of its own (the pairing decides when to stop).
fn stepping_job(bench: registry::Benchmark, settings: &Settings, floor: Nanos) -> crate::run::Job {
    let mut job = plan::job(bench, settings, floor);
    job.config.stop_rule = StopRule::TimeBudget;
    job.config.measure_time = Nanos(f64::INFINITY);
    job.config.max_time = Nanos(f64::INFINITY);
    job.counters = false;
    job
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The empty loop opened with the overhead the parent sends: its times
    /// are what that overhead leaves, not what this side's own would.
    #[test]
    fn a_benchmark_opened_with_the_parents_overhead_has_it_taken_out() {
        let mut side = Side::new(&Settings::default()).expect("a clock");
        side.benchmarks = vec![registry::Benchmark {
            entry: &registry::LOOP_OVERHEAD,
            arg: None,
            args_failed: None,
        }];
        let name = side.benchmarks[0].full_name();
        // A per-iteration overhead 1 µs larger than the loop costs.
        let mut parents = side.overhead();
        parents.per_iter = Nanos(parents.per_iter.0 + 1_000.0);
        let mut median = |overhead: Option<Overhead>| {
            let open = Request::Open {
                name: name.clone(),
                overhead,
            };
            let shared_overhead = overhead.is_some();
            assert_eq!(side.handle(open), Reply::Opened { shared_overhead });
            // Slices until the sampler has calibrated and warmed up.
            let value = (0..200).find_map(|_| match side.handle(Request::Slice { nanos: 2e6 }) {
                Reply::Slice { per_iter_ns, .. } => per_iter_ns,
                other => panic!("{other:?}"),
            });
            assert_eq!(side.handle(Request::Close), Reply::Closed);
            value.expect("a slice with samples")
        };
        let own = median(None);
        let shared = median(Some(parents));
        assert!(own.abs() < 100.0, "{own}");
        assert!((shared - own + 1_000.0).abs() < 100.0, "{shared} vs {own}");
    }
}
