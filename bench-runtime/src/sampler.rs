//! The sampling loop's decisions, as a state machine that never reads a clock.
//!
//! A [`Sampler`] says how many iterations the next sample should run
//! ([`Sampler::next_iters`]) and is told what that sample measured
//! ([`Sampler::record`]). Whoever drives it owns the clock: the harness times
//! user code, the tests feed scripted costs from a fake clock. Every rule here
//! is therefore deterministic under test.
//!
//! Phases, in order:
//! 1. **Calibrate**: double the iterations per sample (GMPBench style) until one
//!    sample lasts at least [`SamplerConfig::min_sample_time`].
//! 2. **Warm up**: run and discard samples until the rolling coefficient of
//!    variation of the last [`SamplerConfig::warm_up_window`] per-iteration
//!    times falls below [`SamplerConfig::warm_up_cv`] (steady state), or
//!    [`SamplerConfig::warm_up_time`] (calibration included) is spent. A warm
//!    sample under the floor doubles the size again: calibration may have run
//!    on cold, slow first iterations.
//! 3. **Measure**: record samples. Once [`SamplerConfig::measure_time`] is spent
//!    and [`SamplerConfig::min_samples`] are recorded, the [`StopRule`] decides:
//!    stop at once ([`StopRule::TimeBudget`]), or keep going until the driver's
//!    statistics call [`Sampler::stop_precise`] ([`StopRule::Precision`]).
//!
//! [`SamplerConfig::max_time`] bounds all phases together, set-up included
//! ([`Sampler::charge`]): a sample that would cross it is not started, so a
//! benchmark slower than its budget stops after a few samples instead of
//! hanging, and says so.
//!
//! A sample's wall time can be far more than its timed part: inputs built
//! by `Bencher::iter_batched` before the clock starts. Growing such a sample
//! until its timed part reaches the floor could take minutes (50 µs of
//! set-up around a 1 ns routine: 16,384 inputs, 0.8 s, per sample), so a
//! sample never grows past [`SamplerConfig::max_sample_wall`]: it stays
//! shorter than the floor, and the benchmark gets more samples instead. A driver may run the sampler in slices
//! ([`Sampler::resume`]), interleaved with other benchmarks; the first sample
//! after a pause is discarded when it is short (under 1 ms).

use std::collections::VecDeque;

use crate::units::Nanos;

/// When recording stops once the measurement budget is spent.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum StopRule {
    /// Stop when `measure_time` is spent (and `min_samples` recorded).
    TimeBudget,
    /// Keep recording until the driver finds the estimate precise enough and
    /// calls [`Sampler::stop_precise`], or until `max_time`.
    Precision {
        /// The relative half-width of the estimate's 95% confidence
        /// interval that counts as precise enough (0.01 for ±1%).
        target: f64,
    },
}

impl StopRule {
    /// The precision target, under [`StopRule::Precision`].
    pub fn precision_target(&self) -> Option<f64> {
        match *self {
            StopRule::Precision { target } => Some(target),
            StopRule::TimeBudget => None,
        }
    }
}

/// Budgets and limits for one benchmark.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplerConfig {
    /// The cap on warm-up, calibration included.
    pub warm_up_time: Nanos,
    /// Per-iteration times in the rolling window that judges steady state.
    pub warm_up_window: usize,
    /// Steady once the window's coefficient of variation is below this.
    pub warm_up_cv: f64,
    /// Time spent recording before the stop rule applies.
    pub measure_time: Nanos,
    /// What ends recording once `measure_time` is spent.
    pub stop_rule: StopRule,
    /// Hard bound on everything: set-up, calibration, warm-up, measurement.
    pub max_time: Nanos,
    /// Samples to record even when `measure_time` is spent.
    pub min_samples: usize,
    /// Recording stops at this many samples whatever the time.
    pub max_samples: usize,
    /// A sample must last at least this long: at least 1,000 timer
    /// resolutions and 100 timer overheads (see [`SamplerConfig::sample_floor`]).
    pub min_sample_time: Nanos,
}

impl SamplerConfig {
    /// The shortest sample a timer with this precision measures to better
    /// than 1%: 1,000 resolutions (quantisation) and 100 read-pair overheads
    /// (the read cost is inside every sample).
    pub fn sample_floor(precision: crate::clock::TimerPrecision) -> Nanos {
        (precision.resolution * 1000.0).max(precision.overhead * 100.0)
    }

    /// The longest a sample may grow in wall time, its untimed set-up
    /// included: a tenth of `measure_time` or `measure_time / min_samples`,
    /// whichever is shorter, so that the minimum sample count fits the
    /// budget several times over.
    pub fn max_sample_wall(&self) -> Nanos {
        let per_sample = self.measure_time / self.min_samples.max(1) as f64;
        Nanos(per_sample.0.min(self.measure_time.0 / 10.0))
    }
}

impl Default for SamplerConfig {
    fn default() -> Self {
        SamplerConfig {
            warm_up_time: Nanos::from_secs(0.1),
            warm_up_window: 10,
            warm_up_cv: 0.05,
            measure_time: Nanos::from_secs(0.3),
            stop_rule: StopRule::Precision { target: 0.01 },
            max_time: Nanos::from_secs(2.0),
            min_samples: 10,
            max_samples: 1_000_000,
            min_sample_time: Nanos(10_000.0),
        }
    }
}

/// One recorded sample: `iters` iterations took `elapsed` in total.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sample {
    /// Iterations the sample ran.
    pub iters: u64,
    /// Their total time, timed region only.
    pub elapsed: Nanos,
}

impl Sample {
    /// Time per iteration.
    pub fn per_iter(&self) -> Nanos {
        self.elapsed / self.iters as f64
    }
}

/// Why recording stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The driver found the estimate precise enough.
    Precise,
    /// `measure_time` was spent and `min_samples` reached ([`StopRule::TimeBudget`]).
    TimeBudget,
    /// `max_samples` reached.
    SampleCap,
    /// `max_time` reached (or the next sample would have crossed it).
    MaxTime,
    /// The driver stopped it early (the run was interrupted).
    Abandoned,
    /// Measured in several processes, each met the precision target alone,
    /// but their pooled interval did not, and no more processes were
    /// allowed. Never returned by the sampler: the harness sets it when it
    /// pools the processes.
    ProcessCap,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Phase {
    Calibrate,
    WarmUp,
    Measure,
    Done(StopReason),
}

/// What happened before recording started.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct WarmUp {
    /// Time spent calibrating and warming up.
    pub time: Nanos,
    /// Samples run and discarded, calibration included.
    pub samples: usize,
    /// Whether the rolling coefficient of variation settled (steady state)
    /// before the warm-up cap.
    pub steady: bool,
    /// The rolling coefficient of variation when warm-up ended (`None` if the
    /// window never filled).
    pub final_cv: Option<f64>,
}

/// Everything a driver hands back once a sampler is done.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// The recorded samples, in order; warm-up and re-warm samples are not
    /// among them.
    pub samples: Vec<Sample>,
    /// Why recording stopped.
    pub stop: StopReason,
    /// What happened before recording started.
    pub warm_up: WarmUp,
    /// Samples run after a pause and discarded (interleaved schedules).
    pub rewarm_samples: usize,
    /// Time charged for the benchmark's set-up (counts against `max_time`).
    pub setup_time: Nanos,
    /// Where each slice of recording begins in `samples`: `[0]` for a
    /// benchmark measured in one go, one entry per slice when interleaved.
    /// Samples within a slice share one stretch of machine time.
    pub slice_starts: Vec<usize>,
    /// Wall time spent on this benchmark, overheads between samples included.
    pub total_time: Nanos,
    /// Samples stopped growing short of the floor because their wall time
    /// (untimed set-up included) reached [`SamplerConfig::max_sample_wall`].
    pub wall_capped: bool,
}

/// The decisions of the sampling loop for one benchmark.
#[derive(Clone, Debug)]
pub struct Sampler {
    config: SamplerConfig,
    phase: Phase,
    iters: u64,
    spent: Nanos,
    phase_spent: Nanos,
    last_wall: Nanos,
    warm_up: WarmUp,
    window: VecDeque<f64>,
    discard_next: bool,
    rewarm_samples: usize,
    setup: Nanos,
    slice_starts: Vec<usize>,
    samples: Vec<Sample>,
    wall_capped: bool,
}

/// After a pause, a sample shorter than this is discarded: it runs on caches
/// and predictors another benchmark has just used. A longer one amortises
/// that cold start, and discarding it would waste a whole slice.
const REWARM_LIMIT: Nanos = Nanos(1_000_000.0);

impl Sampler {
    /// A sampler for one benchmark, about to calibrate.
    pub fn new(config: SamplerConfig) -> Sampler {
        Sampler {
            window: VecDeque::with_capacity(config.warm_up_window),
            config,
            phase: Phase::Calibrate,
            iters: 1,
            spent: Nanos::ZERO,
            phase_spent: Nanos::ZERO,
            last_wall: Nanos::ZERO,
            warm_up: WarmUp::default(),
            discard_next: false,
            rewarm_samples: 0,
            setup: Nanos::ZERO,
            slice_starts: vec![0],
            samples: Vec::new(),
            wall_capped: false,
        }
    }

    /// How many iterations the next sample runs, or `None` when done.
    pub fn next_iters(&self) -> Option<u64> {
        match self.phase {
            Phase::Done(_) => None,
            _ => Some(self.iters),
        }
    }

    /// Records that the last sample ran `next_iters()` iterations in
    /// `elapsed` (timed region only) and cost `wall` overall (the timed
    /// region plus the sample's untimed set-up and drops; at least
    /// `elapsed`). The harness's own work between samples is [`Sampler::spend`].
    pub fn record(&mut self, elapsed: Nanos, wall: Nanos) {
        let wall = wall.max(elapsed);
        self.spent += wall;
        self.phase_spent += wall;
        self.last_wall = wall;
        let sample = Sample {
            iters: self.iters,
            elapsed,
        };
        match self.phase {
            Phase::Calibrate => self.calibrate(sample),
            Phase::WarmUp => self.warm(sample),
            Phase::Measure if self.discard_next => {
                // The first sample after a pause runs on caches and predictors
                // another benchmark has just used.
                self.discard_next = false;
                self.rewarm_samples += 1;
            }
            Phase::Measure => self.samples.push(sample),
            Phase::Done(_) => {}
        }
        self.check_limits(sample);
    }

    /// Accounts for the harness's work between samples (walking the
    /// `--cold` buffer, say): it counts against every budget, like a
    /// sample's own time, but not towards the size of the next sample.
    pub fn spend(&mut self, wall: Nanos) {
        self.spent += wall;
        self.phase_spent += wall;
    }

    /// Accounts for time spent on this benchmark outside any sample (its
    /// set-up): it counts against `max_time`, not against the warm-up cap.
    pub fn charge(&mut self, wall: Nanos) {
        self.spent += wall;
        self.setup += wall;
    }

    /// The driver paused this sampler (to run other benchmarks) and is
    /// resuming it: the next sample re-warms and is discarded, if short.
    pub fn resume(&mut self) {
        if self.phase == Phase::Measure {
            self.discard_next = self.last_wall.0 < REWARM_LIMIT.0;
            if self.slice_starts.last() != Some(&self.samples.len()) {
                self.slice_starts.push(self.samples.len());
            }
        }
    }

    /// Whether the stop rule now waits on the driver's precision check:
    /// measuring under [`StopRule::Precision`], with `measure_time` spent and
    /// `min_samples` recorded.
    pub fn wants_precision_check(&self) -> bool {
        self.phase == Phase::Measure
            && self.config.stop_rule.precision_target().is_some()
            && self.budget_spent()
    }

    /// The driver's statistics found the estimate precise enough. Ignored
    /// unless [`Sampler::wants_precision_check`].
    pub fn stop_precise(&mut self) {
        if self.wants_precision_check() {
            self.enter(Phase::Done(StopReason::Precise));
        }
    }

    /// The driver gives up on this benchmark (the run was interrupted).
    pub fn abandon(&mut self) {
        if !self.is_done() {
            self.enter(Phase::Done(StopReason::Abandoned));
        }
    }

    fn budget_spent(&self) -> bool {
        self.phase_spent.0 >= self.config.measure_time.0
            && self.samples.len() >= self.config.min_samples
    }

    /// True while samples are being recorded.
    pub fn is_measuring(&self) -> bool {
        self.phase == Phase::Measure
    }

    fn is_warming_up(&self) -> bool {
        matches!(self.phase, Phase::Calibrate | Phase::WarmUp)
    }

    fn calibrate(&mut self, sample: Sample) {
        self.warm_up.samples += 1;
        if !self.should_grow(sample) {
            self.enter(Phase::WarmUp);
            self.warm_up_cap();
        } else if self.iters >= u64::MAX / 2 {
            // Nothing measurable in 2^63 iterations: the clock is not moving
            // or the routine is empty. Measure at this size rather than loop.
            self.enter(Phase::WarmUp);
        } else {
            self.iters *= 2;
        }
    }

    fn warm(&mut self, sample: Sample) {
        self.warm_up.samples += 1;
        if self.should_grow(sample) && self.iters < u64::MAX / 2 {
            // Faster than calibration saw: a larger sample, and a new window,
            // since per-iteration times at the old size are not comparable.
            self.iters *= 2;
            self.window.clear();
        } else {
            if self.window.len() == self.config.warm_up_window {
                self.window.pop_front();
            }
            self.window.push_back(sample.per_iter().0);
            if self.window.len() == self.config.warm_up_window {
                let cv = coefficient_of_variation(&self.window);
                self.warm_up.final_cv = Some(cv);
                if cv < self.config.warm_up_cv {
                    self.warm_up.steady = true;
                    self.enter(Phase::Measure);
                    return;
                }
            }
        }
        self.warm_up_cap();
    }

    /// Whether the next sample should be twice the size: `sample` was
    /// shorter than the floor, and doubling keeps the wall time (the last
    /// sample's, twice) within [`SamplerConfig::max_sample_wall`]. Notes
    /// when the cap is what stops the growth.
    fn should_grow(&mut self, sample: Sample) -> bool {
        let short = sample.elapsed.0 < self.config.min_sample_time.0;
        let may_grow = self.last_wall.0 * 2.0 <= self.config.max_sample_wall().0;
        if short && !may_grow {
            self.wall_capped = true;
        }
        short && may_grow
    }

    /// Warm-up ends at its time cap (calibration included, set-up not) or,
    /// where time does not advance, at the sample cap.
    fn warm_up_cap(&mut self) {
        if self.spent.0 - self.setup.0 >= self.config.warm_up_time.0
            || self.warm_up.samples >= self.config.max_samples
        {
            self.enter(Phase::Measure);
        }
    }

    fn enter(&mut self, phase: Phase) {
        if self.is_warming_up() {
            self.warm_up.time = self.spent - self.setup;
        }
        self.phase = phase;
        self.phase_spent = Nanos::ZERO;
    }

    fn check_limits(&mut self, last: Sample) {
        if self.is_done() {
            return;
        }
        if self.phase == Phase::Measure {
            if self.samples.len() >= self.config.max_samples {
                return self.enter(Phase::Done(StopReason::SampleCap));
            }
            if self.config.stop_rule == StopRule::TimeBudget && self.budget_spent() {
                return self.enter(Phase::Done(StopReason::TimeBudget));
            }
        }
        // Do not start a sample that would end past the hard bound: the next
        // one is assumed to cost what the last one did, twice that while
        // calibrating (which doubles the size).
        let growth = if self.phase == Phase::Calibrate {
            2.0
        } else {
            1.0
        };
        if self.spent.0 + growth * self.last_wall.0 > self.config.max_time.0 {
            if self.samples.is_empty() {
                // Stopped before recording anything (a routine slower than the
                // whole budget): the last sample is all there is. It is kept,
                // and the stop reason and sample count say how little it is.
                self.samples.push(last);
            }
            self.enter(Phase::Done(StopReason::MaxTime));
        }
    }

    /// True once recording has stopped.
    pub fn is_done(&self) -> bool {
        matches!(self.phase, Phase::Done(_))
    }

    /// Samples recorded so far.
    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }

    /// Where each slice of recording begins in [`Sampler::samples`].
    pub fn slice_starts(&self) -> &[usize] {
        &self.slice_starts
    }

    /// The result; `None` until done.
    pub fn finish(self) -> Option<Measurement> {
        match self.phase {
            Phase::Done(stop) => Some(Measurement {
                samples: self.samples,
                stop,
                warm_up: self.warm_up,
                rewarm_samples: self.rewarm_samples,
                setup_time: self.setup,
                slice_starts: self.slice_starts,
                total_time: self.spent,
                wall_capped: self.wall_capped,
            }),
            _ => None,
        }
    }
}

/// Standard deviation over mean of a handful of values (the warm-up window):
/// two passes, so no cancellation.
fn coefficient_of_variation(values: &VecDeque<f64>) -> f64 {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if mean == 0.0 {
        return 0.0;
    }
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    variance.sqrt() / mean.abs()
}
