//! The scheduler: one worker thread per benchmark, slices handed out in
//! sequence or in shuffled rounds, A/B groups sampled round by round.

use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::Instant;

use bench_runtime::{Measurement, Nanos, Sample, Sampler};

use super::slices::{Command, PrecisionCheck, Reply, Slices};
use super::watch::{Reporter, Watch};
use super::{call, early_exit_message, ExitWatch, Job, Plan, RoundLog, GROUP_ROUNDS};
use crate::failure::Failure;
use crate::instruments::{Extras, Instruments};
use crate::settings::Schedule;

/// Measures the jobs as the plan's schedule says and calls `done(index,
/// result, round log)` as each finishes (in completion order, not job
/// order; the round log only for members of A/B groups). `watch`, if any,
/// hears which job runs and each round, and the workers' progress.
///
/// A/B groups are one unit of the schedule whatever the schedule: in each of
/// their rounds every member takes one slice, in a shuffled order, so the
/// machine's drift hits all members alike and their slices pair up.
pub(crate) fn measure(
    jobs: &[Job],
    plan: &Plan,
    watch: Option<&Arc<Watch>>,
    mut done: impl FnMut(usize, Result<(Measurement, Extras), Failure>, Option<RoundLog>),
) {
    match plan.schedule {
        Schedule::Sequential => {
            let mut rng = fastrand::Rng::with_seed(plan.seed);
            for unit in units(jobs) {
                let mut unit = Unit::spawn(unit, jobs, plan, watch);
                while !unit.step(Nanos(f64::INFINITY), &mut rng, watch, &mut done) {}
            }
        }
        Schedule::Interleaved => {
            // Every unit is live for the whole run, so that each sees the
            // same mix of the machine's states as the hidden jobs (the loop
            // overhead, the machine reference) measured alongside; the cost
            // is that every benchmark's set-up stays alive until the end.
            let mut rounds = Rounds::start(jobs, plan, watch);
            while rounds.step(watch, &mut done) {}
        }
    }
}

/// The interleaved schedule a round at a time, for a caller that does
/// other work between rounds (`--forks` runs its processes there).
pub(crate) struct Rounds {
    live: Vec<Unit>,
    slice: Nanos,
    rng: fastrand::Rng,
    round: usize,
}

impl Rounds {
    /// Every job's worker started, none measuring yet.
    pub(crate) fn start(jobs: &[Job], plan: &Plan, watch: Option<&Arc<Watch>>) -> Rounds {
        Rounds {
            live: units(jobs)
                .into_iter()
                .map(|unit| Unit::spawn(unit, jobs, plan, watch))
                .collect(),
            slice: plan.slice,
            rng: fastrand::Rng::with_seed(plan.seed),
            round: 0,
        }
    }

    /// One round: a slice of every job still measuring, in a shuffled
    /// order, `done` called as in [`measure`] for each that finished. False
    /// once none is left (then nothing was run).
    pub(crate) fn step(
        &mut self,
        watch: Option<&Arc<Watch>>,
        done: &mut impl FnMut(usize, Result<(Measurement, Extras), Failure>, Option<RoundLog>),
    ) -> bool {
        if self.live.is_empty() {
            return false;
        }
        self.round += 1;
        if let Some(watch) = watch {
            watch.round(self.round);
        }
        self.rng.shuffle(&mut self.live);
        let (slice, rng) = (self.slice, &mut self.rng);
        self.live
            .retain_mut(|unit| !unit.step(slice, rng, watch, done));
        true
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
    Group {
        members: Vec<Member>,
        /// Each member's slice, whatever the schedule's: its members'
        /// longest measuring time over [`GROUP_ROUNDS`].
        slice: Nanos,
    },
}

struct Member {
    index: usize,
    worker: Worker,
    recorded: usize,
    log: RoundLog,
    finished: bool,
}

impl Member {
    /// Logs the round just run, in which the member had recorded `recorded`
    /// samples by the end.
    fn log_round(&mut self, recorded: usize) {
        let took = (recorded > self.recorded).then_some(self.recorded..recorded);
        self.log.push(took);
        self.recorded = recorded;
    }
}

impl Unit {
    fn spawn(indices: Vec<usize>, jobs: &[Job], plan: &Plan, watch: Option<&Arc<Watch>>) -> Unit {
        let spawn = |i: usize| {
            let reporter = watch.map_or_else(Reporter::none, |watch| watch.reporter(i));
            Worker::spawn(jobs[i].clone(), plan, reporter)
        };
        if jobs[indices[0]].paired_group.is_none() {
            return Unit::Single(indices[0], spawn(indices[0]));
        }
        let slice = indices
            .iter()
            .map(|&i| jobs[i].config.measure_time)
            .fold(Nanos::ZERO, Nanos::max)
            / GROUP_ROUNDS as f64;
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
        Unit::Group { members, slice }
    }

    /// Runs one slice (a single benchmark) or one round (a group); true when
    /// the unit is finished.
    fn step(
        &mut self,
        slice: Nanos,
        rng: &mut fastrand::Rng,
        watch: Option<&Arc<Watch>>,
        done: &mut impl FnMut(usize, Result<(Measurement, Extras), Failure>, Option<RoundLog>),
    ) -> bool {
        let running = |index: usize| {
            if let Some(watch) = watch {
                watch.running(index);
            }
        };
        match self {
            Unit::Single(index, worker) => {
                running(*index);
                match worker.run_slice(slice, true) {
                    Slice::Paused { .. } => false,
                    Slice::Finished(result) => {
                        done(*index, *result, None);
                        true
                    }
                }
            }
            Unit::Group { members, slice } => {
                rng.shuffle(members);
                for member in members.iter_mut().filter(|m| !m.finished) {
                    running(member.index);
                    // Each round's slice is a block of the member's headline.
                    match member.worker.run_slice(*slice, true) {
                        Slice::Paused { recorded, .. } => member.log_round(recorded),
                        Slice::Finished(result) => {
                            let result = *result;
                            let recorded = result.as_ref().map_or(0, |(m, _)| m.samples.len());
                            member.log_round(recorded);
                            member.finished = true;
                            done(member.index, result, Some(std::mem::take(&mut member.log)));
                        }
                    }
                }
                members.iter().all(|m| m.finished)
            }
        }
    }
}

/// What a slice ended with.
enum Slice {
    /// The benchmark paused, having recorded this many samples so far,
    /// `latest` in the slice just run, of which those at `preempted` were
    /// preempted.
    Paused {
        recorded: usize,
        latest: Vec<Sample>,
        preempted: Vec<usize>,
    },
    Finished(Box<Result<(Measurement, Extras), Failure>>),
}

/// Seconds since the run's first slice: the clock of
/// [`Extras::slice_clock`], shared by every worker of the process.
fn run_clock() -> f64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// A benchmark on its own thread, waiting for slices.
struct Worker {
    commands: Sender<Command>,
    replies: Receiver<Reply>,
    /// Samples recorded so far, and when each slice was handed out.
    recorded: usize,
    slice_clock: Vec<(usize, f64)>,
    // Dropping an unfinished worker closes `commands`; the thread then
    // abandons its sampler and exits. A finished one is joined, so its
    // teardown does not overlap the next benchmark's slice.
    thread: Option<thread::JoinHandle<()>>,
    /// What an `exit` while this benchmark runs prints.
    exit_message: Arc<str>,
}

impl Worker {
    fn spawn(job: Job, plan: &Plan, reporter: Reporter) -> Worker {
        let exit_message = early_exit_message(&job.bench);
        let (commands, inbox) = mpsc::channel();
        let (outbox, replies) = mpsc::channel();
        let clock = plan.clock;
        // A job that stops at its time budget never asks for the check.
        let target = job.config.stop_rule.precision_target().unwrap_or(0.0);
        let precision = PrecisionCheck::sharing(target, plan.overhead.clone(), job.body);
        let publish = job.publishes_overhead.then(|| plan.overhead.clone());
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
                    publish,
                    publish_at: 0,
                    reporter,
                };
                let result = call(&job.bench, &mut driver, clock).map(|body| {
                    // A body that returned early (or panicked) leaves its
                    // sampler unfinished; a finished one always is.
                    driver.sampler.abandon();
                    let mut measurement = driver
                        .sampler
                        .finish()
                        .expect("an abandoned sampler is done");
                    let mut instruments = driver.instruments;
                    // `iter_custom`'s durations are the body's own.
                    if !body.self_timed {
                        instruments.time_preempted_by_cpu(&mut measurement.samples);
                    }
                    let mut extras = instruments.extras;
                    extras.throughput = body.throughput;
                    extras.self_timed = body.self_timed;
                    (measurement, extras)
                });
                let _ = outbox.send(Reply::Finished(Box::new(result)));
            })
            .expect("the OS starts a benchmark thread");
        Worker {
            commands,
            replies,
            recorded: 0,
            slice_clock: Vec::new(),
            thread: Some(thread),
            exit_message,
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
        // Until the reply: the worker's set-up, its slice, and at the end
        // its teardown (it is joined below) are its code.
        let _watch = ExitWatch::arm(&self.exit_message);
        self.slice_clock.push((self.recorded, run_clock()));
        if self
            .commands
            .send(Command::Run { slice, new_block })
            .is_err()
        {
            return lost();
        }
        match self.replies.recv() {
            Ok(Reply::Paused {
                recorded,
                latest,
                preempted,
            }) => {
                self.recorded = recorded;
                Slice::Paused {
                    recorded,
                    latest,
                    preempted,
                }
            }
            Ok(Reply::Finished(mut result)) => {
                if let Some(thread) = self.thread.take() {
                    let _ = thread.join();
                }
                if let Ok((_, extras)) = result.as_mut() {
                    extras.slice_clock = std::mem::take(&mut self.slice_clock);
                }
                Slice::Finished(result)
            }
            Err(_) => lost(),
        }
    }
}

/// One benchmark measured slice by slice at the caller's pace, on a worker
/// thread as in a scheduled run (`--against` pairs two of these, one in
/// each process).
pub(crate) struct Stepper {
    worker: Option<Worker>,
}

impl Stepper {
    pub(crate) fn spawn(job: Job, plan: &Plan) -> Stepper {
        Stepper {
            worker: Some(Worker::spawn(job, plan, Reporter::none())),
        }
    }

    /// Runs one slice of `length` (each slice after the first starts a new
    /// block, with its re-warming sample discarded): the samples it
    /// recorded (none while the sampler calibrates and warms up) less those
    /// during which the thread was preempted, as the headline leaves them
    /// out; `None` once the sampler has stopped, or the benchmark's failure.
    pub(crate) fn slice(&mut self, length: Nanos) -> Result<Option<Vec<Sample>>, Failure> {
        let Some(worker) = &mut self.worker else {
            return Ok(None);
        };
        match worker.run_slice(length, true) {
            Slice::Paused {
                latest, preempted, ..
            } => Ok(Some(
                (latest.into_iter().enumerate())
                    .filter(|(i, _)| !preempted.contains(i))
                    .map(|(_, sample)| sample)
                    .collect(),
            )),
            Slice::Finished(result) => {
                self.worker = None;
                (*result).map(|_| None)
            }
        }
    }
}
