//! What the run tells the progress display while it measures.
//!
//! The scheduler and the workers write here as they go; the display's
//! ticker thread reads it (`report::progress`). PERF: every write is a
//! relaxed atomic store, made between samples or slices (a worker's phase
//! only when it changes), so the measured code never waits on the display.

use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use bench_runtime::{Nanos, Sampler};

use super::status::{self as progress, JobClock, Phase, Source, Status};
use super::Job;
use crate::text::percent;

/// No job is running.
const NONE: usize = usize::MAX;

/// The shared state of one measured run, or of forked processes, or of an
/// `--against` comparison.
#[derive(Debug)]
pub(crate) struct Watch {
    started: Instant,
    names: Vec<String>,
    /// The first `shown` jobs are the user's benchmarks (the rest are the
    /// harness's own: the loop overhead, the machine reference, solo
    /// probes); the count and the lines are about those.
    shown: usize,
    how: How,
    jobs: Vec<JobState>,
    current: AtomicUsize,
    /// The interleaved schedule's round, a process's number under
    /// `--forks`, the round of an `--against` pair.
    round: AtomicUsize,
    finished: AtomicUsize,
    /// Units: the durations of those finished, and when the one under way
    /// started.
    units: Mutex<(Vec<f64>, Option<Instant>)>,
    /// Under `--forks`, the worker under way's own status as it relays it
    /// (`counter`, `name`, `stage`).
    child: Mutex<Option<[String; 3]>>,
}

#[derive(Debug, Clone, Copy)]
enum How {
    Sequential,
    /// Rounds of slices this long (seconds).
    Interleaved(f64),
    /// Each job in this many processes; `prior`: what one is expected to
    /// take before any has finished (seconds).
    Forks {
        processes: usize,
        prior: f64,
    },
    /// Paired rounds, one benchmark after another.
    Against {
        prior: f64,
    },
}

#[derive(Debug)]
struct JobState {
    phase: AtomicU8,
    spent: AtomicU64,
    measuring: AtomicU64,
    /// `f64` bits; NaN for none.
    half_width: AtomicU64,
    target: Option<f64>,
    budget: f64,
    max: f64,
}

impl JobState {
    fn of(job: &Job) -> JobState {
        let config = &job.config;
        JobState {
            phase: AtomicU8::new(Phase::Waiting as u8),
            spent: AtomicU64::new(0),
            measuring: AtomicU64::new(0),
            half_width: AtomicU64::new(f64::NAN.to_bits()),
            target: config.stop_rule.precision_target().filter(|t| *t > 0.0),
            budget: (config.warm_up_time + config.measure_time).0 / 1e9,
            max: config.max_time.0 / 1e9,
        }
    }

    fn clock(&self) -> JobClock {
        let half_width = f64::from_bits(self.half_width.load(Relaxed));
        JobClock {
            phase: phase_of(self.phase.load(Relaxed)),
            spent: self.spent.load(Relaxed) as f64 / 1e9,
            measuring: self.measuring.load(Relaxed) as f64 / 1e9,
            half_width: (!half_width.is_nan()).then_some(half_width),
            target: self.target,
            budget: self.budget,
            max: self.max,
        }
    }
}

fn phase_of(byte: u8) -> Phase {
    [
        Phase::Waiting,
        Phase::WarmUp,
        Phase::Measuring,
        Phase::Precision,
        Phase::Done,
    ]
    .into_iter()
    .find(|p| *p as u8 == byte)
    .unwrap_or(Phase::Waiting)
}

impl Watch {
    fn new(
        jobs: &[Job],
        names: Vec<String>,
        shown: usize,
        how: How,
        started: Instant,
    ) -> Arc<Watch> {
        Arc::new(Watch {
            started,
            names,
            shown,
            how,
            jobs: jobs.iter().map(JobState::of).collect(),
            current: AtomicUsize::new(NONE),
            round: AtomicUsize::new(0),
            finished: AtomicUsize::new(0),
            units: Mutex::new((Vec::new(), None)),
            child: Mutex::new(None),
        })
    }

    /// Jobs measured in this process on `plan`'s schedule; `names` says
    /// what each is called, the first `shown` being the user's; elapsed
    /// time counts from `started`.
    pub(crate) fn scheduled(
        jobs: &[Job],
        plan: &super::Plan,
        names: Vec<String>,
        shown: usize,
        started: Instant,
    ) -> Arc<Watch> {
        let how = match plan.schedule {
            crate::settings::Schedule::Sequential => How::Sequential,
            crate::settings::Schedule::Interleaved => How::Interleaved(plan.slice.0 / 1e9),
        };
        Watch::new(jobs, names, shown, how, started)
    }

    /// Jobs measured in `processes` worker processes, each of which
    /// measures every job, interleaved, for its share of the budgets.
    pub(crate) fn forked(jobs: &[Job], processes: usize, started: Instant) -> Arc<Watch> {
        let names = jobs.iter().map(|job| job.bench.full_name()).collect();
        // A worker starts up, then measures its benchmarks (warm-up, then
        // its share of the measuring time, often more to reach its
        // precision target).
        let prior = 0.5
            + jobs
                .iter()
                .map(|job| {
                    let config = &job.config;
                    (config.warm_up_time + config.measure_time * (2.0 / processes as f64)).0 / 1e9
                })
                .sum::<f64>();
        Watch::new(
            jobs,
            names,
            jobs.len(),
            How::Forks { processes, prior },
            started,
        )
    }

    /// Benchmarks compared with another build, one after another, each for
    /// at most `max` seconds a side.
    pub(crate) fn against(names: Vec<String>, max: f64, started: Instant) -> Arc<Watch> {
        let shown = names.len();
        Watch::new(&[], names, shown, How::Against { prior: max }, started)
    }

    /// The scheduler hands job `index` a slice (or a process, or a pair).
    pub(crate) fn running(&self, index: usize) {
        self.current.store(index, Relaxed);
    }

    /// The interleaved schedule starts round `round` (from 1); under
    /// `--forks`, process `round` of each job.
    pub(crate) fn round(&self, round: usize) {
        self.round.store(round, Relaxed);
    }

    /// Job `index` finished: the count of the user's finished benchmarks
    /// if it is one of them.
    pub(crate) fn finished(&self, index: usize) -> Option<usize> {
        if let Some(job) = self.jobs.get(index) {
            job.phase.store(Phase::Done as u8, Relaxed);
        }
        if self.current.load(Relaxed) == index {
            self.current.store(NONE, Relaxed);
        }
        (index < self.shown).then(|| self.finished.fetch_add(1, Relaxed) + 1)
    }

    /// How many of the jobs are the user's benchmarks (the count shown).
    pub(crate) fn shown(&self) -> usize {
        self.shown
    }

    /// A unit (a process, a compared benchmark) starts.
    pub(crate) fn unit_started(&self) {
        self.units.lock().unwrap_or_else(PoisonError::into_inner).1 = Some(Instant::now());
        *self.child.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }

    /// The worker under way says where it is: one line it relayed
    /// ([`progress::relayed`]).
    pub(crate) fn child_status(&self, status: [String; 3]) {
        *self.child.lock().unwrap_or_else(PoisonError::into_inner) = Some(status);
    }

    /// The unit under way ended.
    pub(crate) fn unit_ended(&self) {
        let mut units = self.units.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(started) = units.1.take() {
            units.0.push(started.elapsed().as_secs_f64());
        }
    }

    /// Job `index`'s worker side: what it publishes while it measures.
    pub(crate) fn reporter(self: &Arc<Watch>, index: usize) -> Reporter {
        Reporter {
            watch: Some((self.clone(), index)),
            phase: Phase::Waiting,
            spent: 0.0,
            measuring: 0.0,
        }
    }

    fn name(&self, index: usize) -> String {
        self.names.get(index).cloned().unwrap_or_default()
    }

    fn units_left(&self, total: usize) -> Option<f64> {
        let units = self.units.lock().unwrap_or_else(PoisonError::into_inner);
        let (done, under_way) = (&units.0, units.1.map(|s| s.elapsed().as_secs_f64()));
        let started = done.len() + usize::from(under_way.is_some());
        let prior = match self.how {
            How::Forks { prior, .. } | How::Against { prior } => prior,
            _ => return None,
        };
        Some(progress::remaining_units(
            done,
            total.saturating_sub(started),
            under_way,
            prior,
        ))
    }
}

impl Source for Watch {
    fn status(&self) -> Status {
        let elapsed = self.started.elapsed().as_secs_f64();
        let current = self.current.load(Relaxed);
        let finished = self.finished.load(Relaxed);
        let round = self.round.load(Relaxed);
        let total = self.shown;
        let name = if current == NONE {
            String::new()
        } else {
            self.name(current)
        };
        let position = || {
            let at = if current < self.shown {
                current + 1
            } else {
                (finished + 1).min(total)
            };
            format!("[{at}/{total}]")
        };
        let clocks = || self.jobs.iter().map(JobState::clock).collect::<Vec<_>>();
        match self.how {
            How::Sequential => {
                let clocks = clocks();
                let stage = clocks.get(current).map_or("starting".to_string(), stage_of);
                let counter = if current < self.shown || current == NONE {
                    format!("[{}/{total}]", (finished + 1).min(total))
                } else {
                    format!("[{finished}/{total} done]")
                };
                Status {
                    counter,
                    name,
                    stage,
                    elapsed,
                    remaining: Some(progress::remaining(&clocks, elapsed)),
                }
            }
            How::Interleaved(slice) => {
                let clocks = clocks();
                let left = progress::remaining(&clocks, elapsed);
                let rounds_left = progress::rounds_left(&clocks, slice);
                Status {
                    // Nothing of the user's (the machine reference after
                    // `--forks`): no count.
                    counter: if total == 0 {
                        String::new()
                    } else {
                        format!("[{finished}/{total} done]")
                    },
                    name,
                    stage: format!("round {} of ~{}", round.max(1), round.max(1) + rounds_left),
                    elapsed,
                    remaining: Some(left),
                }
            }
            How::Forks { processes, .. } => {
                let process = if round > processes {
                    format!("process {round}, for precision")
                } else {
                    format!("process {} of {processes}", round.max(1))
                };
                let child = self.child.lock().unwrap_or_else(PoisonError::into_inner);
                let (counter, name, stage) = match child.as_ref() {
                    Some([counter, name, stage]) => (
                        counter.clone(),
                        name.clone(),
                        format!("{stage} · {process}"),
                    ),
                    None => (format!("[{total} benchmarks]"), name, process),
                };
                Status {
                    counter,
                    name,
                    stage,
                    elapsed,
                    remaining: self.units_left(processes),
                }
            }
            How::Against { .. } => Status {
                counter: position(),
                name,
                stage: format!("round {}", round.max(1)),
                elapsed,
                remaining: self.units_left(total),
            },
        }
    }
}

/// A job's phase in words; while it waits on the precision rule, how far
/// its interval is from the target.
fn stage_of(clock: &JobClock) -> String {
    match (clock.phase, clock.half_width, clock.target) {
        (Phase::Precision, Some(h), Some(t)) => {
            format!("narrowing ±{} to ±{}", percent(h), percent(t))
        }
        (phase, ..) => phase.word().to_string(),
    }
}

/// A worker's side of the [`Watch`]: it keeps its own sums and publishes
/// them after each sample.
#[derive(Debug)]
pub(crate) struct Reporter {
    watch: Option<(Arc<Watch>, usize)>,
    phase: Phase,
    spent: f64,
    measuring: f64,
}

impl Reporter {
    /// Publishes nothing.
    pub(crate) fn none() -> Reporter {
        Reporter {
            watch: None,
            phase: Phase::Waiting,
            spent: 0.0,
            measuring: 0.0,
        }
    }

    fn job(&self) -> Option<&JobState> {
        let (watch, index) = self.watch.as_ref()?;
        watch.jobs.get(*index)
    }

    /// Time spent outside samples (the body's set-up, the harness's work).
    pub(crate) fn spend(&mut self, wall: Nanos) {
        self.spent += wall.0;
        if let Some(job) = self.job() {
            job.spent.store(self.spent as u64, Relaxed);
        }
    }

    /// A sample took `wall`; `sampler` has recorded it.
    pub(crate) fn sample(&mut self, sampler: &Sampler, wall: Nanos) {
        let measuring = sampler.is_measuring() || sampler.is_done();
        let phase = if sampler.wants_precision_check() {
            Phase::Precision
        } else if sampler.is_measuring() {
            Phase::Measuring
        } else if sampler.is_done() {
            self.phase
        } else {
            Phase::WarmUp
        };
        self.spent += wall.0;
        if measuring {
            self.measuring += wall.0;
        }
        let changed = phase != self.phase;
        self.phase = phase;
        let Some(job) = self.job() else { return };
        job.spent.store(self.spent as u64, Relaxed);
        job.measuring.store(self.measuring as u64, Relaxed);
        if changed {
            job.phase.store(phase as u8, Relaxed);
        }
    }

    /// The precision rule's latest relative half-width.
    pub(crate) fn precision(&mut self, half_width: Option<f64>) {
        if let (Some(job), Some(h)) = (self.job(), half_width) {
            job.half_width.store(h.to_bits(), Relaxed);
        }
    }
}
