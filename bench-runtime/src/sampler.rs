//! The sampling loop's decisions, as a state machine that never reads a clock.
//!
//! A [`Sampler`] says how many iterations the next sample should run
//! ([`Sampler::next_iters`]) and is told what that sample measured
//! ([`Sampler::record`]). Whoever drives it owns the clock: the real
//! [`Bencher`](crate::Bencher) times user code, the tests feed scripted costs
//! from a fake clock. Every stopping rule is therefore deterministic under test.
//!
//! Phases, in order:
//! 1. **Calibrate**: double the iterations per sample (GMPBench style) until one
//!    sample lasts at least [`SamplerConfig::min_sample_time`].
//! 2. **Warm up**: run samples until [`SamplerConfig::warm_up_time`]
//!    (calibration included) is spent; they are discarded. A warm sample that
//!    falls below the floor doubles the size again, since calibration may have
//!    run on cold, slow first iterations.
//! 3. **Measure**: record samples until [`SamplerConfig::measure_time`] is spent
//!    and at least [`SamplerConfig::min_samples`] were taken.
//!
//! [`SamplerConfig::max_time`] bounds all three phases together: a sample that
//! would cross it is not started, so a benchmark slower than its budget stops
//! after a few samples instead of hanging, and says so.

#![forbid(unsafe_code)]

use crate::units::Nanos;

/// Budgets and limits for one benchmark.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplerConfig {
    /// Time spent running (and discarding) samples before recording.
    pub warm_up_time: Nanos,
    /// Time spent recording samples.
    pub measure_time: Nanos,
    /// Hard bound on everything, calibration and warm-up included.
    pub max_time: Nanos,
    /// Samples to record even when `measure_time` is spent.
    pub min_samples: usize,
    /// Recording stops at this many samples whatever the time.
    pub max_samples: usize,
    /// A sample must last at least this long: the larger of 1,000 timer
    /// resolutions and 100 timer overheads (see [`SamplerConfig::sample_floor`]).
    pub min_sample_time: Nanos,
}

impl SamplerConfig {
    /// The shortest sample a timer with this precision measures to better
    /// than 1%: 1,000 resolutions (quantisation) and 100 read-pair overheads
    /// (the read cost is inside every sample).
    pub fn sample_floor(precision: crate::TimerPrecision) -> Nanos {
        (precision.resolution * 1000.0).max(precision.overhead * 100.0)
    }
}

impl Default for SamplerConfig {
    fn default() -> Self {
        SamplerConfig {
            warm_up_time: Nanos::from_secs(0.1),
            measure_time: Nanos::from_secs(0.4),
            max_time: Nanos::from_secs(5.0),
            min_samples: 10,
            max_samples: 200_000,
            min_sample_time: Nanos(10_000.0),
        }
    }
}

/// One recorded sample: `iters` iterations took `elapsed` in total.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sample {
    pub iters: u64,
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
    /// `measure_time` was spent and `min_samples` reached.
    TimeBudget,
    /// `max_samples` reached.
    SampleCap,
    /// `max_time` reached (or the next sample would have crossed it).
    MaxTime,
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
    /// Samples run and discarded.
    pub samples: usize,
}

/// Everything a driver hands back once a sampler is done.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    pub samples: Vec<Sample>,
    pub stop: StopReason,
    pub warm_up: WarmUp,
    /// Wall time spent on this benchmark, overheads between samples included.
    pub total_time: Nanos,
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
    samples: Vec<Sample>,
}

impl Sampler {
    pub fn new(config: SamplerConfig) -> Sampler {
        Sampler {
            config,
            phase: Phase::Calibrate,
            iters: 1,
            spent: Nanos::ZERO,
            phase_spent: Nanos::ZERO,
            last_wall: Nanos::ZERO,
            warm_up: WarmUp::default(),
            samples: Vec::new(),
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
    /// `elapsed` (timed region only) and cost `wall` overall (the sample plus
    /// the harness's work around it; at least `elapsed`).
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
            Phase::WarmUp => {
                self.warm_up.samples += 1;
                // Calibration may have run on cold, slow first iterations:
                // keep growing the sample until warm samples reach the floor.
                if sample.elapsed.0 < self.config.min_sample_time.0 && self.iters < u64::MAX / 2 {
                    self.iters *= 2;
                }
                // Calibration samples warm up too: the budget covers both.
                // The sample cap bounds warm-up where time does not advance.
                if self.spent.0 >= self.config.warm_up_time.0
                    || self.warm_up.samples >= self.config.max_samples
                {
                    self.enter(Phase::Measure);
                }
            }
            Phase::Measure => self.samples.push(sample),
            Phase::Done(_) => {}
        }
        self.check_limits(sample);
    }

    fn calibrate(&mut self, sample: Sample) {
        self.warm_up.samples += 1;
        if sample.elapsed.0 >= self.config.min_sample_time.0 {
            self.enter(Phase::WarmUp);
            // A calibration that already used the warm-up budget (a slow
            // benchmark) has warmed up.
            if self.spent.0 >= self.config.warm_up_time.0 {
                self.enter(Phase::Measure);
            }
        } else if self.iters >= u64::MAX / 2 {
            // Nothing measurable in 2^63 iterations: the clock is not moving
            // or the routine is empty. Measure at this size rather than loop.
            self.enter(Phase::WarmUp);
        } else {
            self.iters *= 2;
        }
    }

    fn enter(&mut self, phase: Phase) {
        if matches!(self.phase, Phase::Calibrate | Phase::WarmUp) {
            self.warm_up.time = self.spent;
        }
        self.phase = phase;
        self.phase_spent = Nanos::ZERO;
    }

    fn check_limits(&mut self, last: Sample) {
        if let Phase::Done(_) = self.phase {
            return;
        }
        let config = &self.config;
        if self.phase == Phase::Measure {
            if self.samples.len() >= config.max_samples {
                return self.enter(Phase::Done(StopReason::SampleCap));
            }
            if self.phase_spent.0 >= config.measure_time.0
                && self.samples.len() >= config.min_samples
            {
                return self.enter(Phase::Done(StopReason::TimeBudget));
            }
        }
        // Do not start a sample that would end past the hard bound: the next
        // one is assumed to cost what the last one did.
        if self.spent.0 + self.last_wall.0 > config.max_time.0 {
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

    /// Wall time spent so far on this benchmark.
    pub fn spent(&self) -> Nanos {
        self.spent
    }

    /// The result; `None` until done.
    pub fn finish(self) -> Option<Measurement> {
        match self.phase {
            Phase::Done(stop) => Some(Measurement {
                samples: self.samples,
                stop,
                warm_up: self.warm_up,
                total_time: self.spent,
            }),
            _ => None,
        }
    }
}
