//! Running benchmarks: once as a smoke test, or measured on a schedule.
//!
//! Measured benchmarks each run on a worker thread of their own that blocks
//! between slices, so the scheduler can hand out slices in any order while
//! every benchmark keeps its set-up state. Exactly one thread runs at a time:
//! the scheduler waits for a worker's reply before starting the next.
//!
//! - `Sequential`: each benchmark runs to completion in one slice.
//! - `Interleaved`: rounds in which every unfinished benchmark takes one slice,
//!   in a freshly shuffled order, so all of them see the same mix of the
//!   machine's noise episodes instead of each inheriting one episode.
//!
//! Each body runs inside `catch_unwind`, so one that panics (in set-up or in
//! its routine) is reported as failed and the run goes on.

mod profile;
mod schedule;
mod slices;
pub(crate) mod status;
mod watch;

use std::sync::{Arc, Mutex};

use bench_runtime::{Bencher, Clock, Driver, Nanos, Routine, SamplerConfig, Throughput};

use crate::analysis::{Body, Overhead};
use crate::failure::{catching_panics, Failure};
use crate::registry::Benchmark;
use crate::settings::Schedule;
pub(crate) use profile::profile_for;
pub(crate) use schedule::{measure, Rounds, Stepper};
pub(crate) use slices::estimate_now;
pub(crate) use watch::Watch;

/// One benchmark to measure.
#[derive(Debug, Clone)]
pub(crate) struct Job {
    pub bench: Benchmark,
    /// The sampler's settings, the stop rule with its precision target
    /// among them.
    pub config: SamplerConfig,
    /// Members of one A/B group at one argument (by `Arg::name`; all
    /// members in a group without `args`) share a number: they are
    /// measured round by round, one slice each per round.
    pub paired_group: Option<usize>,
    /// Read hardware and software counters around each sample.
    pub counters: bool,
    /// The harness's empty loop: after each slice it publishes the loop
    /// overhead measured so far to [`Plan::overhead`].
    pub publishes_overhead: bool,
    /// Whether its cost may vary by its own state: the harness's own
    /// kernels never do ([`Body::Stateless`]).
    pub body: Body,
}

/// Settings every job shares.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub schedule: Schedule,
    pub clock: Clock,
    /// Interleaved: measurement time of one slice.
    pub slice: Nanos,
    /// Seeds the shuffles; printed so a run's order can be repeated.
    pub seed: u64,
    /// What the precision rule subtracts, and the uncertainty it adds: the
    /// start-up probe's until the empty loop's job publishes its own, the
    /// one the report uses (so the rule stops on the interval the report
    /// prints, as far as the loop is known by then).
    pub overhead: Arc<Mutex<Overhead>>,
    /// `--pin`: every worker thread runs on this CPU.
    pub pin: Option<usize>,
    /// `--cold`: the buffer walked before each sample, one for the whole run
    /// (only one benchmark runs at a time).
    pub cold: Option<Arc<Mutex<Vec<u8>>>>,
}

/// For a member of an A/B group: in round `r` of the group this member
/// took one slice, which recorded its samples `log[r]` (`None`: no sample
/// that round, e.g. still warming up). Slices of different members in the
/// same round are paired.
pub(crate) type RoundLog = Vec<Option<std::ops::Range<usize>>>;

/// Rounds an A/B group's members measure in: each member's slice is its
/// measuring time over this many, so that every member takes about as many
/// slices as the interleaved schedule gives any benchmark (`60 rounds` in
/// docs/ARCHITECTURE.md's decisions).
pub(crate) const GROUP_ROUNDS: usize = 60;

/// Runs the body once, with one iteration of its routine.
pub(crate) fn run_once(bench: &Benchmark, clock: Clock) -> Result<(), Failure> {
    struct Once;
    impl Driver for Once {
        fn drive(&mut self, routine: &mut Routine<'_>) {
            routine(1);
        }
    }
    let _watch = ExitWatch::arm(&early_exit_message(bench));
    call(bench, &mut Once, clock).map(|_| ())
}

/// The exit status of a run that a benchmark ended by calling `exit`: a
/// failed benchmark's.
const EXIT_BENCHMARK_EXITED: i32 = 101;

/// The line printed when `bench` ends the process with `exit` (directly, or
/// in a library it calls): without it the run would end with the body's
/// status, often 0, and no report, as if all had passed.
fn early_exit_message(bench: &Benchmark) -> Arc<str> {
    let own = [
        &crate::registry::LOOP_OVERHEAD,
        &crate::registry::MACHINE_REFERENCE,
    ];
    if own.iter().any(|entry| std::ptr::eq(bench.entry, *entry)) {
        // The harness's own job calls no `exit`: a thread did that a
        // benchmark started before the early-exit watch could see it start
        // (in a static's initialiser, say).
        return format!(
            "error: a thread ended the process by calling exit while the harness measured \
             its own {} (nothing was printed or saved); a thread started by one of the \
             benchmarks is the likely cause: a benchmark must return, not exit (--forks \
             contains one that does)",
            bench.entry.name
        )
        .into();
    }
    format!(
        "error: benchmark {} ended the process by calling exit, before the run could \
         report (nothing was printed or saved); a benchmark must return, not exit \
         (--forks contains one that does)",
        crate::text::escape(&bench.full_name())
    )
    .into()
}

/// While alive, a call to `exit` prints its message and ends the process
/// with [`EXIT_BENCHMARK_EXITED`]: armed while a benchmark's code runs
/// (exactly one at a time), disarmed when it pauses or returns.
struct ExitWatch;

impl ExitWatch {
    fn arm(message: &Arc<str>) -> ExitWatch {
        bench_runtime::early_exit::arm(message.clone(), EXIT_BENCHMARK_EXITED);
        ExitWatch
    }
}

impl Drop for ExitWatch {
    fn drop(&mut self) {
        bench_runtime::early_exit::disarm();
    }
}

/// Measures the timing loop's own cost with an empty routine, through the
/// same [`Bencher::iter`] path a user's benchmark takes.
pub(crate) fn measure_overhead(clock: Clock, floor: Nanos) -> Overhead {
    struct Probe {
        floor: Nanos,
        overhead: Overhead,
    }
    impl Driver for Probe {
        fn drive(&mut self, routine: &mut Routine<'_>) {
            let mut empty: Vec<f64> = (0..1001).map(|_| routine(0).0).collect();
            let per_sample = median(&mut empty);
            let mut iters = 1;
            while routine(iters).0 < self.floor.0 && iters < 1 << 40 {
                iters *= 2;
            }
            let mut per_iter: Vec<f64> = (0..101)
                .map(|_| (routine(iters).0 - per_sample) / iters as f64)
                .collect();
            // Provisional: the precision rule subtracts it while the run's
            // own measurement of the loop is under way; that measurement's
            // uncertainty, not this burst's, is the one the report adds to
            // every interval, so none is claimed here.
            self.overhead = Overhead {
                per_sample: Nanos(per_sample),
                per_iter: Nanos(median(&mut per_iter).max(0.0)),
                per_iter_uncertainty: Nanos::ZERO,
            };
        }
    }
    let mut probe = Probe {
        floor,
        overhead: Overhead::NONE,
    };
    Bencher::new(&mut probe, clock).iter(|| ());
    probe.overhead
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    crate::analysis::percentile(values, 50.0)
}

/// What a body told its bencher, besides what it measured.
#[derive(Debug, Clone, Copy)]
struct BodyRan {
    /// What it set with `Bencher::throughput`.
    throughput: Option<Throughput>,
    /// It timed itself with `Bencher::iter_custom`.
    self_timed: bool,
}

/// Runs the body, and returns what it set besides its samples.
fn call(bench: &Benchmark, driver: &mut dyn Driver, clock: Clock) -> Result<BodyRan, Failure> {
    if let Some(failure) = &bench.args_failed {
        return Err(failure.clone());
    }
    let mut bencher = Bencher::new(driver, clock);
    catching_panics(|| bench.run(&mut bencher))?;
    if bencher.has_iterated() {
        Ok(BodyRan {
            throughput: bencher.throughput_set(),
            self_timed: bencher.is_self_timed(),
        })
    } else {
        Err(Failure {
            message: "the benchmark returned without calling Bencher::iter; \
                      call b.iter(|| ...) once with the code to measure"
                .to_string(),
            location: Some(format!("{}:{}", bench.entry.file, bench.entry.line)),
        })
    }
}
