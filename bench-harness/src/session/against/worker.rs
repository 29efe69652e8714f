//! The worker's side: a bench binary started with this run's token in
//! [`WORKER_ENV`] and after `--`[`TOKEN_FLAG`] serves the protocol instead of running, timing each slice with its own
//! clock and subtracting the loop overhead the parent sends (its own, when
//! none is sent).

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

use bench_runtime::{Clock, Nanos, TimerPrecision};

use super::protocol::{Reply, Request, PROTOCOL_VERSION, TOKEN_FLAG, WORKER_ENV, WORKER_NAME};
use super::stepping_job;
use crate::analysis::{self, Overhead};
use crate::registry;
use crate::results::RunInfo;
use crate::run::{self, Stepper};
use crate::session::plan;
use crate::settings::Settings;

/// Whether this process was started as a worker by another build's
/// `--against`: the run's token in [`WORKER_ENV`] and on the command line,
/// the same. The variable alone (left in a shell, any value) is ignored
/// with a note, as `--forks`'s is.
pub(crate) fn is_worker() -> bool {
    crate::supervisor::started_with_token(WORKER_ENV, TOKEN_FLAG, "--against")
}

/// Serves requests from standard input until it ends; the exit code.
pub(crate) fn serve(settings: &Settings) -> i32 {
    // Replies go to the real standard output; what benchmarks print goes
    // to standard error, where the parent keeps its last lines.
    let mut replies = match bench_runtime::stdio::divert_stdout() {
        Ok(file) => std::io::BufWriter::new(file),
        Err(error) => {
            eprintln!("error: the --against worker cannot set up its output: {error}");
            return 2;
        }
    };
    // A worker never outlives the run that started it.
    bench_runtime::signal::exit_with_parent();
    let side = match Side::new(settings) {
        Ok(side) => side,
        Err(message) => {
            eprintln!("error: {message}");
            return 2;
        }
    };
    let hello = Reply::Hello {
        worker: WORKER_NAME.to_string(),
        protocol: PROTOCOL_VERSION,
        harness_version: env!("CARGO_PKG_VERSION").to_string(),
        benchmarks: side.names(),
    };
    let mut side = side;
    let mut send = |reply: Reply| -> bool {
        replies.write_all(reply.line().as_bytes()).is_ok() && replies.flush().is_ok()
    };
    if !send(hello) {
        return 2;
    }
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let reply = match crate::json::from_str::<Request>(&line) {
            Ok(request) => side.handle(request),
            Err(error) => Reply::Error {
                message: format!("not a request of protocol {PROTOCOL_VERSION}: {error}"),
            },
        };
        if !send(reply) {
            break;
        }
    }
    0
}

/// One side of a paired comparison: this process's benchmarks, clock and
/// loop overhead, and the benchmark being measured.
pub(super) struct Side {
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
    pub(super) fn new(settings: &Settings) -> Result<Side, String> {
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
    pub(super) fn overhead(&self) -> Overhead {
        self.overhead
    }

    pub(super) fn names(&self) -> Vec<String> {
        self.benchmarks.iter().map(|b| b.full_name()).collect()
    }

    pub(super) fn handle(&mut self, request: Request) -> Reply {
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
        }
    }

    /// What the document's methodology says of this side's measuring.
    pub(super) fn info(&self) -> RunInfo {
        RunInfo {
            harness_version: env!("CARGO_PKG_VERSION"),
            clock_name: self.clock.name(),
            clock_hz: self.clock.frequency_hz(),
            precision: self.precision,
            sample_floor: self.floor,
            overhead: self.overhead,
            schedule: self.plan.schedule,
            target_precision: 0.0,
            seed: 0,
            partial: false,
            forks: None,
        }
    }
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
        let name = side.names().remove(0);
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
