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

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Once;
use std::sync::{Arc, Mutex};
use std::thread;

use bench_runtime::{
    Bencher, Clock, Driver, Measurement, Nanos, Routine, Sample, Sampler, SamplerConfig, Throughput,
};

use crate::analysis;
use crate::instruments::{Extras, Instruments};
use crate::registry::Benchmark;

/// Why a benchmark did not produce a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub message: String,
    /// `file:line:column` of the panic, when it was one.
    pub location: Option<String>,
}

/// How measured benchmarks share the run's time (`--schedule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schedule {
    /// Rounds of shuffled slices until every benchmark is done.
    Interleaved,
    /// One benchmark after the other, each in one go.
    Sequential,
}

/// The cost the timing loop adds to every measurement, measured at start-up
/// on an empty routine and subtracted from every sample by the analysis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Overhead {
    /// Inside each sample, independent of its size: the two clock reads.
    pub per_sample: Nanos,
    /// Each iteration of the loop around the routine.
    pub per_iter: Nanos,
}

impl Overhead {
    pub const NONE: Overhead = Overhead {
        per_sample: Nanos::ZERO,
        per_iter: Nanos::ZERO,
    };

    /// The mean of `overheads` (several processes' own, `--forks`); `None`
    /// for none.
    pub fn mean(overheads: impl IntoIterator<Item = Overhead>) -> Option<Overhead> {
        let (mut n, mut per_sample, mut per_iter) = (0.0, 0.0, 0.0);
        for overhead in overheads {
            n += 1.0;
            per_sample += overhead.per_sample.0;
            per_iter += overhead.per_iter.0;
        }
        (n > 0.0).then(|| Overhead {
            per_sample: Nanos(per_sample / n),
            per_iter: Nanos(per_iter / n),
        })
    }

    /// A sample's time per iteration with the loop's cost taken out.
    pub fn corrected_per_iter(&self, sample: &Sample) -> f64 {
        (sample.elapsed.0 - self.per_sample.0) / sample.iters as f64 - self.per_iter.0
    }

    /// What relative figures (precision, spread) of an estimate are relative
    /// to: the estimate itself, or the loop's own cost per iteration when the
    /// body is cheaper than that (an empty body is judged against the loop,
    /// not against a time near zero).
    pub fn reference(&self, estimate: f64) -> f64 {
        estimate.max(self.per_iter.0).max(f64::MIN_POSITIVE)
    }
}

/// One benchmark to measure.
#[derive(Debug, Clone)]
pub struct Job {
    pub bench: Benchmark,
    pub config: SamplerConfig,
    /// The precision rule's target: the relative half-width of the
    /// headline's 95% CI (`--precision`, or the attribute's `precision`).
    pub precision: f64,
    /// Members of one A/B group (a group with a `baseline`) share a number:
    /// they are measured round by round, one sample each per round.
    pub paired_group: Option<usize>,
    /// Read hardware and software counters around each sample.
    pub counters: bool,
}

/// Settings every job shares.
#[derive(Debug, Clone)]
pub struct Plan {
    pub schedule: Schedule,
    pub clock: Clock,
    /// Interleaved: measurement time of one slice.
    pub slice: Nanos,
    /// Seeds the shuffles; printed so a run's order can be repeated.
    pub seed: u64,
    /// Subtracted by the precision rule as by the analysis.
    pub overhead: Overhead,
    /// `--pin`: every worker thread runs on this CPU.
    pub pin: Option<usize>,
    /// `--cold`: the buffer walked before each sample, one for the whole run
    /// (only one benchmark runs at a time).
    pub cold: Option<Arc<Mutex<Vec<u8>>>>,
}

/// For a member of an A/B group: round `r` of the group recorded sample
/// `log[r]` of this member (`None`: no sample that round, e.g. still warming
/// up). Samples of different members in the same round are paired.
pub type RoundLog = Vec<Option<usize>>;

/// Rounds of an A/B group that make one block of each member's headline.
pub const ROUNDS_PER_BLOCK: usize = 10;

/// Runs the body once, with one iteration of its routine.
pub fn run_once(bench: &Benchmark, clock: Clock) -> Result<(), Failure> {
    struct Once;
    impl Driver for Once {
        fn drive(&mut self, routine: &mut Routine<'_>) {
            routine(1);
        }
    }
    call(bench, &mut Once, clock).map(|_| ())
}

/// Measures the jobs as the plan's schedule says and calls `done(index,
/// result, round log)` as each finishes (in completion order, not job
/// order; the round log only for members of A/B groups).
///
/// A/B groups are one unit of the schedule whatever the schedule: in each of
/// their rounds every member takes one sample, in a shuffled order, so the
/// machine's drift hits all members alike and their samples pair up.
pub fn measure(
    jobs: &[Job],
    plan: &Plan,
    mut done: impl FnMut(usize, Result<(Measurement, Extras), Failure>, Option<RoundLog>),
) {
    let mut rng = fastrand::Rng::with_seed(plan.seed);
    let units = units(jobs);
    match plan.schedule {
        Schedule::Sequential => {
            for unit in units {
                let mut unit = Unit::spawn(unit, jobs, plan);
                while !unit.step(Nanos(f64::INFINITY), &mut rng, &mut done) {}
            }
        }
        Schedule::Interleaved => {
            // Every unit is live for the whole run, so that each sees the
            // same mix of the machine's states as the hidden jobs (the loop
            // overhead, the machine reference) measured alongside; the cost
            // is that every benchmark's set-up stays alive until the end.
            let mut live: Vec<Unit> = units
                .into_iter()
                .map(|unit| Unit::spawn(unit, jobs, plan))
                .collect();
            while !live.is_empty() {
                rng.shuffle(&mut live);
                live.retain_mut(|unit| !unit.step(plan.slice, &mut rng, &mut done));
            }
        }
    }
}

/// The jobs grouped into units of the schedule: each paired group's
/// members together, every other job alone.
fn units(jobs: &[Job]) -> Vec<Vec<usize>> {
    let mut units: Vec<Vec<usize>> = Vec::new();
    let mut group_unit: Vec<(usize, usize)> = Vec::new();
    for (index, job) in jobs.iter().enumerate() {
        match job.paired_group {
            None => units.push(vec![index]),
            Some(group) => match group_unit.iter().find(|(g, _)| *g == group) {
                Some(&(_, unit)) => units[unit].push(index),
                None => {
                    group_unit.push((group, units.len()));
                    units.push(vec![index]);
                }
            },
        }
    }
    units
}

/// A unit of the schedule: one benchmark, or the members of an A/B group.
enum Unit {
    Single(usize, Worker),
    Group { members: Vec<Member>, round: usize },
}

struct Member {
    index: usize,
    worker: Worker,
    recorded: usize,
    log: RoundLog,
    finished: bool,
}

impl Unit {
    fn spawn(indices: Vec<usize>, jobs: &[Job], plan: &Plan) -> Unit {
        let spawn = |i: usize| Worker::spawn(jobs[i].clone(), plan);
        if jobs[indices[0]].paired_group.is_none() {
            return Unit::Single(indices[0], spawn(indices[0]));
        }
        let members = indices
            .into_iter()
            .map(|index| Member {
                index,
                worker: spawn(index),
                recorded: 0,
                log: RoundLog::new(),
                finished: false,
            })
            .collect();
        Unit::Group { members, round: 0 }
    }

    /// Runs one slice (a single benchmark) or one round (a group); true when
    /// the unit is finished.
    fn step(
        &mut self,
        slice: Nanos,
        rng: &mut fastrand::Rng,
        done: &mut impl FnMut(usize, Result<(Measurement, Extras), Failure>, Option<RoundLog>),
    ) -> bool {
        match self {
            Unit::Single(index, worker) => match worker.run_slice(slice, true) {
                Slice::Paused { .. } => false,
                Slice::Finished(result) => {
                    done(*index, *result, None);
                    true
                }
            },
            Unit::Group { members, round } => {
                rng.shuffle(members);
                let new_block = *round % ROUNDS_PER_BLOCK == 0;
                for member in members.iter_mut().filter(|m| !m.finished) {
                    // A zero-length slice records exactly one sample.
                    match member.worker.run_slice(Nanos::ZERO, new_block) {
                        Slice::Paused { recorded } => {
                            member
                                .log
                                .push((recorded > member.recorded).then(|| recorded - 1));
                            member.recorded = recorded;
                        }
                        Slice::Finished(result) => {
                            let result = *result;
                            let recorded = result.as_ref().map_or(0, |(m, _)| m.samples.len());
                            member
                                .log
                                .push((recorded > member.recorded).then(|| recorded - 1));
                            member.finished = true;
                            done(member.index, result, Some(std::mem::take(&mut member.log)));
                        }
                    }
                }
                *round += 1;
                members.iter().all(|m| m.finished)
            }
        }
    }
}

enum Command {
    /// Measure for this long, then pause (or finish). `new_block`: this
    /// slice starts a new block of the headline (and may re-warm).
    Run { slice: Nanos, new_block: bool },
}

enum Reply {
    Paused { recorded: usize },
    Finished(Box<Result<(Measurement, Extras), Failure>>),
}

/// What a slice ended with.
enum Slice {
    /// The benchmark paused, having recorded this many samples so far.
    Paused {
        recorded: usize,
    },
    Finished(Box<Result<(Measurement, Extras), Failure>>),
}

/// A benchmark on its own thread, waiting for slices.
struct Worker {
    commands: Sender<Command>,
    replies: Receiver<Reply>,
    // Dropping an unfinished worker closes `commands`; the thread then
    // abandons its sampler and exits. A finished one is joined, so its
    // teardown does not overlap the next benchmark's slice.
    thread: Option<thread::JoinHandle<()>>,
}

impl Worker {
    fn spawn(job: Job, plan: &Plan) -> Worker {
        let (commands, inbox) = mpsc::channel();
        let (outbox, replies) = mpsc::channel();
        let clock = plan.clock;
        let precision = PrecisionCheck::new(job.precision, plan.overhead);
        let (pin, cold) = (plan.pin, plan.cold.clone());
        let thread = thread::Builder::new()
            .name(job.bench.entry.name.replace('\0', "?"))
            // As much stack as the main thread has: benchmarks may recurse.
            .stack_size(8 << 20)
            .spawn(move || {
                let Ok(Command::Run { slice, .. }) = inbox.recv() else {
                    return;
                };
                if let Some(cpu) = pin {
                    if let Err(message) = bench_runtime::affinity::pin_current_thread(cpu) {
                        let failure = Failure {
                            message,
                            location: None,
                        };
                        let _ = outbox.send(Reply::Finished(Box::new(Err(failure))));
                        return;
                    }
                }
                let instruments = Instruments::open(job.counters, cold);
                let mut driver = Slices {
                    sampler: Sampler::new(job.config),
                    clock,
                    started: clock.start(),
                    slice,
                    inbox,
                    outbox: outbox.clone(),
                    precision,
                    instruments,
                };
                let result = call(&job.bench, &mut driver, clock).map(|throughput| {
                    // A body that returned early (or panicked) leaves its
                    // sampler unfinished; a finished one always is.
                    driver.sampler.abandon();
                    let measurement = driver
                        .sampler
                        .finish()
                        .expect("an abandoned sampler is done");
                    let mut extras = driver.instruments.extras;
                    extras.throughput = throughput;
                    (measurement, extras)
                });
                let _ = outbox.send(Reply::Finished(Box::new(result)));
            })
            .expect("the OS starts a benchmark thread");
        Worker {
            commands,
            replies,
            thread: Some(thread),
        }
    }

    /// Lets the worker measure for `slice`.
    fn run_slice(&mut self, slice: Nanos, new_block: bool) -> Slice {
        let lost = || {
            Slice::Finished(Box::new(Err(Failure {
                message: "the benchmark thread stopped without a result".into(),
                location: None,
            })))
        };
        if self
            .commands
            .send(Command::Run { slice, new_block })
            .is_err()
        {
            return lost();
        }
        match self.replies.recv() {
            Ok(Reply::Paused { recorded }) => Slice::Paused { recorded },
            Ok(Reply::Finished(result)) => {
                if let Some(thread) = self.thread.take() {
                    let _ = thread.join();
                }
                Slice::Finished(result)
            }
            Err(_) => lost(),
        }
    }
}

/// The worker's side: runs its sampler slice by slice.
struct Slices {
    sampler: Sampler,
    clock: Clock,
    /// When the body started: set-up time counts against `max_time`.
    started: bench_runtime::Ticks,
    slice: Nanos,
    inbox: Receiver<Command>,
    outbox: Sender<Reply>,
    precision: PrecisionCheck,
    instruments: Instruments,
}

impl Driver for Slices {
    fn drive(&mut self, routine: &mut Routine<'_>) {
        let clock = self.clock;
        let now = || clock.elapsed(bench_runtime::Ticks(0), clock.start());
        self.sampler
            .charge(clock.elapsed(self.started, clock.start()));
        loop {
            let slice_start = now();
            self.instruments.slice_started();
            run_slice(
                &mut self.sampler,
                routine,
                &mut || now(),
                self.slice,
                &mut self.precision,
                &mut self.instruments,
            );
            self.instruments.slice_ended(now() - slice_start);
            let recorded = self.sampler.samples().len();
            if self.sampler.is_done() || self.outbox.send(Reply::Paused { recorded }).is_err() {
                return;
            }
            match self.inbox.recv() {
                Ok(Command::Run { slice, new_block }) => {
                    self.slice = slice;
                    if new_block {
                        self.sampler.resume();
                    }
                }
                Err(_) => return self.sampler.abandon(),
            }
        }
    }
}

/// Runs samples until the sampler is done or `slice` of wall time is spent
/// (a slice that is measuring ends only once it has recorded a sample), and
/// applies the precision rule: at the end of a bounded slice, so the last
/// block is whole, or as the sample count grows in an unbounded one. `now`
/// reads the wall clock (a fake one in tests).
fn run_slice(
    sampler: &mut Sampler,
    routine: &mut Routine<'_>,
    now: &mut dyn FnMut() -> Nanos,
    slice: Nanos,
    precision: &mut PrecisionCheck,
    instruments: &mut Instruments,
) {
    let bounded = slice.0.is_finite();
    let recorded_before = sampler.samples().len();
    let start = now();
    let mut before = start;
    while let Some(iters) = sampler.next_iters() {
        if bench_runtime::signal::interrupted() {
            // Ctrl-C: stop at this sample boundary with what is recorded.
            sampler.abandon();
            break;
        }
        let samples_before = sampler.samples().len();
        instruments.sample_starting();
        let routine_start = now();
        let elapsed = routine(iters);
        // Read before anything else runs: the harness's own work (the
        // sampler growing its sample list) must not count as the benchmark's.
        let reading = instruments.sample_done();
        let after = now();
        sampler.spend(routine_start - before);
        sampler.record(elapsed, after - routine_start);
        instruments.account(reading, iters, sampler.samples().len() > samples_before);
        let recorded = sampler.samples().len() > recorded_before;
        if bounded {
            if (after - start).0 >= slice.0 && (recorded || !sampler.is_measuring()) {
                precision.apply(sampler);
                break;
            }
        } else {
            precision.apply(sampler);
        }
        // The check's own sorting is not part of the next sample's cost.
        before = now();
    }
}

/// The precision stopping rule: the 95% confidence interval of the headline
/// (the mean of per-slice medians, see [`analysis::block_estimate`]) must be
/// narrower than `target` relative to the headline, or to the loop's own
/// cost per iteration when the body is cheaper than that (an empty body can
/// be precise too). Checked when the sample count has grown by a tenth since
/// the last check, so the sorting stays a small share of the run.
#[derive(Debug, Clone)]
pub struct PrecisionCheck {
    target: f64,
    overhead: Overhead,
    next_at: usize,
    /// The last relative half-width computed.
    pub last: Option<f64>,
}

impl PrecisionCheck {
    pub fn new(target: f64, overhead: Overhead) -> PrecisionCheck {
        PrecisionCheck {
            target,
            overhead,
            next_at: 0,
            last: None,
        }
    }

    /// Stops `sampler` if it waits on this rule, the check is due and the
    /// estimate is precise.
    fn apply(&mut self, sampler: &mut Sampler) {
        if sampler.wants_precision_check()
            && sampler.samples().len() >= self.next_at
            && self.check(sampler.samples(), sampler.slice_starts())
        {
            sampler.stop_precise();
        }
    }

    /// True when the samples, cut into blocks at `slice_starts`, pin the
    /// headline down to the target.
    pub fn check(&mut self, samples: &[Sample], slice_starts: &[usize]) -> bool {
        self.next_at = samples.len() + (samples.len() / 10).max(1);
        let values: Vec<f64> = samples
            .iter()
            .map(|s| self.overhead.corrected_per_iter(s))
            .collect();
        let half_width = analysis::block_estimate(&values, slice_starts)
            .and_then(|e| e.half_width_relative_to(self.overhead.reference(e.estimate)));
        self.last = half_width;
        half_width.is_some_and(|h| h <= self.target)
    }
}

/// Measures the timing loop's own cost with an empty routine, through the
/// same [`Bencher::iter`] path a user's benchmark takes.
pub fn measure_overhead(clock: Clock, floor: Nanos) -> Overhead {
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
            self.overhead = Overhead {
                per_sample: Nanos(per_sample),
                per_iter: Nanos(median(&mut per_iter).max(0.0)),
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

/// The loop's cost per iteration from a measurement of the empty routine
/// taken in the run's own schedule: its block estimate (mean of per-slice
/// medians) with the per-sample cost taken out.
pub fn loop_overhead(empty: &Measurement, per_sample: Nanos) -> Overhead {
    let values: Vec<f64> = empty
        .samples
        .iter()
        .map(|s| (s.elapsed.0 - per_sample.0) / s.iters as f64)
        .collect();
    let per_iter =
        analysis::block_estimate(&values, &empty.slice_starts).map_or(0.0, |e| e.estimate.max(0.0));
    Overhead {
        per_sample,
        per_iter: Nanos(per_iter),
    }
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    analysis::percentile(values, 50.0)
}

/// Runs the body, and returns the throughput it set with
/// `Bencher::throughput`.
fn call(
    bench: &Benchmark,
    driver: &mut dyn Driver,
    clock: Clock,
) -> Result<Option<Throughput>, Failure> {
    if let Some(failure) = &bench.args_failed {
        return Err(failure.clone());
    }
    let mut bencher = Bencher::new(driver, clock);
    catching_panics(|| bench.run(&mut bencher))?;
    if bencher.has_iterated() {
        Ok(bencher.throughput_set())
    } else {
        Err(Failure {
            message: "the benchmark returned without calling Bencher::iter; \
                      call b.iter(|| ...) once with the code to measure"
                .to_string(),
            location: Some(format!("{}:{}", bench.entry.file, bench.entry.line)),
        })
    }
}

/// Runs user code (a body, an `args` expression), turning a panic into a
/// [`Failure`] with its message and location instead of printing it.
pub fn catching_panics<T>(f: impl FnOnce() -> T) -> Result<T, Failure> {
    install_panic_hook();
    CAPTURING.with(|c| c.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CAPTURING.with(|c| c.set(false));
    result.map_err(|payload| {
        LAST_PANIC
            .with(|last| last.borrow_mut().take())
            .unwrap_or_else(|| Failure {
                message: panic_message(payload.as_ref()),
                location: None,
            })
    })
}

thread_local! {
    /// The message and location of the last panic on this thread, recorded by
    /// the hook so the report can show them in place of a backtrace.
    static LAST_PANIC: RefCell<Option<Failure>> = const { RefCell::new(None) };
    /// Set while a benchmark body runs on this thread: its panics are
    /// recorded for the report; any other panic goes to the previous hook.
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
}

/// Replaces the default panic output of benchmark bodies (a message and a
/// backtrace hint on stderr, in the middle of the table) with a record the
/// report prints. Panics elsewhere (in the harness, in threads a benchmark
/// starts) still reach the previous hook.
fn install_panic_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !CAPTURING.with(Cell::get) {
                return previous(info);
            }
            let failure = Failure {
                message: panic_message(info.payload()),
                location: info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column())),
            };
            LAST_PANIC.with(|last| *last.borrow_mut() = Some(failure));
        }));
    });
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "the benchmark panicked with a non-string payload".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench_runtime::{StopReason, StopRule};
    use std::cell::Cell;

    /// Budgets of a few milliseconds on a fake clock.
    fn config() -> SamplerConfig {
        SamplerConfig {
            warm_up_time: Nanos(100_000.0),
            warm_up_window: 10,
            warm_up_cv: 0.05,
            measure_time: Nanos(2_000_000.0),
            stop_rule: StopRule::Precision,
            max_time: Nanos(50_000_000.0),
            min_samples: 10,
            max_samples: 1_000_000,
            min_sample_time: Nanos(10_000.0),
        }
    }

    /// Runs `sampler` in slices of `slice` ns on a fake clock where the
    /// per-iteration cost of the k-th sample is `cost(k, slice number)`.
    fn drive(
        sampler: &mut Sampler,
        slice: f64,
        cost: impl Fn(usize, usize) -> f64,
    ) -> PrecisionCheck {
        let now = Cell::new(0.0);
        let sample = Cell::new(0);
        let slice_number = Cell::new(0);
        let mut precision = PrecisionCheck::new(0.01, Overhead::NONE);
        let mut routine = |iters: u64| {
            let elapsed = cost(sample.get(), slice_number.get()) * iters as f64;
            sample.set(sample.get() + 1);
            now.set(now.get() + elapsed + 100.0);
            Nanos(elapsed)
        };
        let mut clock = || Nanos(now.get());
        while !sampler.is_done() {
            run_slice(
                sampler,
                &mut routine,
                &mut clock,
                Nanos(slice),
                &mut precision,
                &mut Instruments::none(),
            );
            slice_number.set(slice_number.get() + 1);
            sampler.resume();
        }
        precision
    }

    #[test]
    fn a_steady_benchmark_stops_precise_once_the_budget_is_spent() {
        // ±0.5% alternating noise around 10 ns: precise at the first check.
        let mut sampler = Sampler::new(config());
        let precision = drive(&mut sampler, 100_000.0, |k, _| {
            10.0 * if k % 2 == 0 { 1.005 } else { 0.995 }
        });
        let m = sampler.finish().unwrap();
        assert_eq!(m.stop, StopReason::Precise);
        assert!(precision.last.unwrap() <= 0.01);
        // Twenty 100 µs slices make the 2 ms budget: it stops right there.
        assert!(
            m.slice_starts.len() >= 20 && m.slice_starts.len() <= 22,
            "{}",
            m.slice_starts.len()
        );
    }

    #[test]
    fn slices_at_two_speeds_need_many_more_slices_to_be_precise() {
        // Each slice runs at one speed; odd slices are 20% slower and the
        // pattern never settles: the block estimate's interval stays wide.
        let mut sampler = Sampler::new(config());
        let precision = drive(&mut sampler, 100_000.0, |k, slice| {
            let level = if slice % 2 == 0 { 10.0 } else { 12.0 };
            level * if k % 2 == 0 { 1.001 } else { 0.999 }
        });
        let m = sampler.finish().unwrap();
        // Precise only once enough slices pin the mean of the two levels
        // down: block medians 10 and 12 (sd 1.0 around 11) need
        // k ≥ (1.97 / 0.11)² ≈ 320 slices for ±1%, where the steady
        // benchmark above needed about 20.
        assert_eq!(m.stop, StopReason::Precise);
        assert!(precision.last.unwrap() <= 0.01);
        let slices = m.slice_starts.len();
        assert!((300..400).contains(&slices), "{slices} slices");
    }

    #[test]
    fn samples_within_one_slice_do_not_count_as_independent() {
        // The same data as one slice per speed change: 10 long slices, each
        // at one of two speeds. The pooled median's interval would call this
        // precise at once; the block estimate does not.
        let mut sampler = Sampler::new(SamplerConfig {
            max_time: Nanos(4_000_000.0),
            ..config()
        });
        let precision = drive(&mut sampler, 400_000.0, |_, slice| {
            if slice % 2 == 0 {
                10.0
            } else {
                12.0
            }
        });
        let m = sampler.finish().unwrap();
        assert_eq!(m.stop, StopReason::MaxTime);
        assert!(precision.last.unwrap() > 0.02, "{:?}", precision.last);
    }

    #[test]
    fn overhead_is_subtracted_per_sample_and_per_iteration() {
        let overhead = Overhead {
            per_sample: Nanos(30.0),
            per_iter: Nanos(0.5),
        };
        let sample = Sample {
            iters: 1000,
            elapsed: Nanos(1000.0 * 10.5 + 30.0),
        };
        assert_eq!(overhead.corrected_per_iter(&sample), 10.0);
    }
}
