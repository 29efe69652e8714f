//! The sampling loop's decisions, driven by a fake clock: every figure here is
//! exact because no real time is involved.

use bench_runtime::{Measurement, Nanos, Sampler, SamplerConfig, StopReason, StopRule};

/// Where the fake routine is when a sample starts.
#[derive(Copy, Clone, Debug)]
struct At {
    /// Samples run before this one (calibration and warm-up included).
    sample: usize,
    /// Iterations run before this one.
    iterations: u64,
}

/// A scripted routine: `cost(at)` is the per-iteration cost of the sample
/// starting `at`, so noise and outliers are injected per sample. The harness
/// adds `overhead` of wall time around each sample, and each iteration's
/// input takes `setup` of untimed wall time to build (`iter_batched`).
struct FakeClock<F: Fn(At) -> f64> {
    cost: F,
    overhead: f64,
    setup: f64,
    at: At,
    now: f64,
}

impl<F: Fn(At) -> f64> FakeClock<F> {
    fn new(cost: F) -> Self {
        FakeClock {
            cost,
            overhead: 0.0,
            setup: 0.0,
            at: At {
                sample: 0,
                iterations: 0,
            },
            now: 0.0,
        }
    }

    /// Runs one sample if the sampler wants one.
    fn step(&mut self, sampler: &mut Sampler) -> bool {
        let Some(iters) = sampler.next_iters() else {
            return false;
        };
        let elapsed = (self.cost)(self.at) * iters as f64;
        self.at.sample += 1;
        self.at.iterations = self.at.iterations.saturating_add(iters);
        let setup = self.setup * iters as f64;
        self.now += elapsed + setup + self.overhead;
        sampler.record(Nanos(elapsed), Nanos(elapsed + setup + self.overhead));
        true
    }

    fn run(&mut self, mut sampler: Sampler) -> Measurement {
        let mut guard = 0;
        while self.step(&mut sampler) {
            guard += 1;
            assert!(guard < 10_000_000, "sampler never stopped");
        }
        sampler.finish().expect("a sampler that stops has a result")
    }
}

/// Small budgets, the time-budget stop rule and a warm-up that only ends at
/// its cap (a threshold no window reaches), unless a test says otherwise.
// Every field is said; one added later takes its default.
#[allow(clippy::needless_update)]
fn config() -> SamplerConfig {
    SamplerConfig {
        warm_up_time: Nanos(1_000_000.0), // 1 ms
        warm_up_window: 10,
        warm_up_cv: 0.0,
        measure_time: Nanos(10_000_000.0), // 10 ms
        stop_rule: StopRule::TimeBudget,
        max_time: Nanos(100_000_000.0), // 100 ms
        min_samples: 10,
        max_samples: 100_000,
        min_sample_time: Nanos(10_000.0), // 10 µs
        ..SamplerConfig::default()
    }
}

fn constant(ns: f64) -> impl Fn(At) -> f64 {
    move |_| ns
}

#[test]
fn iterations_per_sample_double_until_a_sample_reaches_the_floor() {
    // 3 ns per iteration: 2^11 = 2048 iterations (6,144 ns) is short of
    // 10 µs, 2^12 = 4096 (12,288 ns) is the first size past it.
    let m = FakeClock::new(constant(3.0)).run(Sampler::new(config()));
    assert!(m.samples.iter().all(|s| s.iters == 4096));
    assert!(m.samples.iter().all(|s| s.per_iter() == Nanos(3.0)));
}

#[test]
fn time_budget_is_respected_and_reported() {
    let mut clock = FakeClock::new(constant(3.0));
    let m = clock.run(Sampler::new(config()));
    assert_eq!(m.stop, StopReason::TimeBudget);
    let measured: f64 = m.samples.iter().map(|s| s.elapsed.0).sum();
    // Recording stops at the first sample that reaches the budget.
    assert!(measured >= 10_000_000.0);
    assert!(measured < 10_000_000.0 + 12_288.0 + 1.0);
    // Warm-up ran for its cap (calibration included) and was not recorded.
    assert!(m.warm_up.time.0 >= 1_000_000.0);
    assert!(m.warm_up.time.0 < 1_000_000.0 + 12_288.0 + 1.0);
    assert!(!m.warm_up.steady);
    assert_eq!(m.total_time.0, clock.now);
}

#[test]
fn warm_up_samples_are_discarded() {
    // The first 20,000 iterations are ten times slower (a cold cache, a
    // first-call penalty); warm-up absorbs them and none is recorded.
    // Calibration ran on slow iterations (512 per sample reached 10 µs);
    // warm-up grows the sample again once iterations speed up.
    let cold_start = |at: At| if at.iterations < 20_000 { 30.0 } else { 3.0 };
    let m = FakeClock::new(cold_start).run(Sampler::new(config()));
    assert!(m.warm_up.samples > 0);
    assert!(m.samples.iter().all(|s| s.per_iter() == Nanos(3.0)));
    assert!(m.samples.iter().all(|s| s.iters == 4096));
}

/// Per-iteration cost of sample `k` in a script that is noisy (±20%,
/// alternating) for its first 30 samples and steady (±1%) after.
fn settles_after_30_samples(at: At) -> f64 {
    let swing = if at.sample < 30 { 0.2 } else { 0.01 };
    let sign = if at.sample % 2 == 0 { 1.0 } else { -1.0 };
    3.0 * (1.0 + sign * swing)
}

#[test]
fn warm_up_ends_when_the_rolling_cv_settles() {
    let config = SamplerConfig {
        warm_up_cv: 0.05,
        warm_up_time: Nanos(100_000_000.0),
        max_time: Nanos(1e9),
        ..config()
    };
    let m = FakeClock::new(settles_after_30_samples).run(Sampler::new(config));
    assert!(m.warm_up.steady);
    // The window of 10 fills with steady samples at sample 39 (calibration
    // took 13 of the noisy ones): 40 samples in warm-up, then recording.
    assert_eq!(m.warm_up.samples, 40);
    let cv = m.warm_up.final_cv.unwrap();
    assert!(cv < 0.05 && cv > 0.009, "{cv}");
    // Nothing noisy was recorded.
    assert!(m
        .samples
        .iter()
        .all(|s| (s.per_iter().0 - 3.0).abs() <= 0.0301));
}

#[test]
fn warm_up_that_never_settles_stops_at_its_cap_and_says_so() {
    let always_noisy = |at: At| if at.sample % 2 == 0 { 3.6 } else { 2.4 };
    let config = SamplerConfig {
        warm_up_cv: 0.05,
        ..config()
    };
    let m = FakeClock::new(always_noisy).run(Sampler::new(config));
    assert!(!m.warm_up.steady);
    assert!(m.warm_up.time.0 >= 1_000_000.0);
    // ±20% alternating: the window's CV is 0.2 · sqrt(10/9) ≈ 0.21.
    let cv = m.warm_up.final_cv.unwrap();
    assert!((cv - 0.2108).abs() < 0.001, "{cv}");
}

#[test]
fn harness_overhead_counts_against_the_budget() {
    // 10 µs of harness work around every ~12 µs sample: the wall-time budget
    // is reached with about half the sample time a zero-overhead run gets.
    let mut clock = FakeClock::new(constant(3.0));
    clock.overhead = 10_000.0;
    let m = clock.run(Sampler::new(config()));
    let measured: f64 = m.samples.iter().map(|s| s.elapsed.0).sum();
    assert!(measured < 6_000_000.0, "measured {measured} ns");
}

#[test]
fn min_samples_extends_measurement_past_the_time_budget() {
    // 2 ms per iteration: the 10 ms budget holds 5 samples, min_samples asks 10.
    let m = FakeClock::new(constant(2_000_000.0)).run(Sampler::new(config()));
    assert_eq!(m.samples.len(), 10);
    assert_eq!(m.stop, StopReason::TimeBudget);
    assert!(m.samples.iter().all(|s| s.iters == 1));
}

#[test]
fn sample_cap_stops_recording() {
    let m = FakeClock::new(constant(3.0)).run(Sampler::new(SamplerConfig {
        max_samples: 25,
        ..config()
    }));
    assert_eq!(m.samples.len(), 25);
    assert_eq!(m.stop, StopReason::SampleCap);
}

#[test]
fn precision_rule_asks_only_after_the_budget_and_min_samples() {
    let config = SamplerConfig {
        stop_rule: StopRule::Precision { target: 0.01 },
        ..config()
    };
    let mut clock = FakeClock::new(constant(3.0));
    let mut sampler = Sampler::new(config);
    let mut asked_at = None;
    while clock.step(&mut sampler) {
        if sampler.wants_precision_check() {
            asked_at = Some(sampler.samples().len());
            break;
        }
        // Calling it early changes nothing.
        sampler.stop_precise();
    }
    // 10 ms of 12,288 ns samples: the 814th sample crosses the budget.
    assert_eq!(asked_at, Some(814));
    sampler.stop_precise();
    let m = sampler.finish().unwrap();
    assert_eq!(m.stop, StopReason::Precise);
    assert_eq!(m.samples.len(), 814);
}

#[test]
fn an_estimate_never_precise_runs_to_max_time() {
    let config = SamplerConfig {
        stop_rule: StopRule::Precision { target: 0.01 },
        ..config()
    };
    let mut clock = FakeClock::new(constant(3.0));
    let m = clock.run(Sampler::new(config));
    assert_eq!(m.stop, StopReason::MaxTime);
    assert!(clock.now <= 100_000_000.0);
    assert!(clock.now > 100_000_000.0 - 2.0 * 12_288.0);
}

#[test]
fn set_up_time_counts_against_max_time() {
    let mut sampler = Sampler::new(SamplerConfig {
        stop_rule: StopRule::Precision { target: 0.01 },
        ..config()
    });
    sampler.charge(Nanos(90_000_000.0)); // 90 ms of set-up
    let mut clock = FakeClock::new(constant(3.0));
    let m = clock.run(sampler);
    assert_eq!(m.stop, StopReason::MaxTime);
    assert!(clock.now <= 10_000_000.0, "{} ns of sampling", clock.now);
    assert_eq!(m.setup_time, Nanos(90_000_000.0));
    // Set-up does not eat the warm-up: it still ran for its 1 ms cap.
    assert!(m.warm_up.time.0 >= 1_000_000.0 && m.warm_up.time.0 < 1_100_000.0);
}

#[test]
fn a_resumed_sampler_discards_its_first_sample() {
    // Samples 100 and 101 are slow (another benchmark ran in between and left
    // cold caches); the pause is signalled before sample 100.
    let after_pause = |at: At| if at.sample == 100 { 30.0 } else { 3.0 };
    let mut clock = FakeClock::new(after_pause);
    let mut sampler = Sampler::new(config());
    while clock.at.sample < 100 {
        clock.step(&mut sampler);
    }
    sampler.resume();
    let recorded_before_pause = sampler.samples().len();
    let m = clock.run(sampler);
    assert_eq!(m.rewarm_samples, 1);
    assert_eq!(m.slice_starts, [0, recorded_before_pause]);
    assert!(m.samples.iter().all(|s| s.per_iter() == Nanos(3.0)));
}

#[test]
fn a_routine_slower_than_the_whole_budget_stops_after_few_samples() {
    // 30 ms per iteration against a 100 ms hard bound: the calibration run
    // (30 ms) also warms up; then samples at 60 and 90 ms; a fourth would end
    // at 120 ms, past the bound, so it is not started.
    let mut clock = FakeClock::new(constant(30_000_000.0));
    let m = clock.run(Sampler::new(config()));
    assert_eq!(m.stop, StopReason::MaxTime);
    assert_eq!(m.samples.len(), 2);
    assert!(clock.now <= 100_000_000.0);
}

#[test]
fn a_routine_slower_than_max_time_reports_its_one_sample() {
    // One iteration takes 250 ms against a 100 ms bound: the run stops after
    // that single iteration and keeps it as the only sample, never more.
    let mut clock = FakeClock::new(constant(250_000_000.0));
    let m = clock.run(Sampler::new(config()));
    assert_eq!(m.stop, StopReason::MaxTime);
    assert_eq!(m.samples.len(), 1);
    assert_eq!(m.samples[0].iters, 1);
    assert_eq!(clock.at.iterations, 1);
}

#[test]
fn a_routine_too_fast_to_measure_does_not_calibrate_forever() {
    // A clock that never moves: calibration gives up at 2^63 iterations per
    // sample; max_time is never reached by zero-cost samples, so the sample
    // cap ends it.
    let m = FakeClock::new(constant(0.0)).run(Sampler::new(SamplerConfig {
        max_samples: 5,
        ..config()
    }));
    assert_eq!(m.stop, StopReason::SampleCap);
    assert_eq!(m.samples.len(), 5);
}

#[test]
fn sampler_floor_follows_the_timer() {
    use bench_runtime::TimerPrecision;
    let coarse = TimerPrecision {
        resolution: Nanos(1_000.0),
        overhead: Nanos(25.0),
    };
    let fine = TimerPrecision {
        resolution: Nanos(0.5),
        overhead: Nanos(25.0),
    };
    assert_eq!(SamplerConfig::sample_floor(coarse), Nanos(1_000_000.0));
    assert_eq!(SamplerConfig::sample_floor(fine), Nanos(2_500.0));
}

#[test]
fn a_long_sample_after_a_pause_is_kept() {
    // 2 ms per iteration: a cold start is amortised, nothing is discarded.
    let mut clock = FakeClock::new(constant(2_000_000.0));
    let mut sampler = Sampler::new(config());
    while sampler.samples().len() < 3 {
        clock.step(&mut sampler);
    }
    sampler.resume();
    clock.step(&mut sampler);
    assert_eq!(sampler.samples().len(), 4);
    assert_eq!(sampler.slice_starts(), [0, 3]);
}

#[test]
fn a_set_up_far_slower_than_the_routine_keeps_samples_short_and_finishes() {
    // 50 µs of untimed set-up per input around a 1 ns routine (divan's
    // issue #80). Growing samples until 10 µs are timed would take 16,384
    // inputs, 0.8 s of set-up, per sample; a sample stops growing at
    // max_sample_wall (1 ms here) instead.
    let mut clock = FakeClock::new(constant(1.0));
    clock.setup = 50_000.0;
    let config = config();
    let cap = config.max_sample_wall();
    assert_eq!(cap, Nanos(1_000_000.0));
    let m = clock.run(Sampler::new(config.clone()));
    assert_eq!(m.stop, StopReason::TimeBudget);
    assert!(m.wall_capped);
    assert!(m.samples.len() >= config.min_samples, "{}", m.samples.len());
    for sample in &m.samples {
        assert!(sample.iters as f64 * 50_000.0 <= cap.0, "{sample:?}");
        assert_eq!(sample.per_iter(), Nanos(1.0));
    }
    // Warm-up (1 ms) and measurement (10 ms), each overshooting by at most
    // one capped sample.
    assert!(clock.now <= 13_000_000.0, "took {} ns", clock.now);
}

#[test]
fn a_cheap_set_up_does_not_limit_the_sample_size() {
    // 10 ns of set-up per input around a 5 ns routine: the wall cap is far
    // away, and samples grow to the floor as without set-up.
    let mut clock = FakeClock::new(constant(5.0));
    clock.setup = 10.0;
    let m = clock.run(Sampler::new(config()));
    assert_eq!(m.samples[0].iters, 2048);
    assert!(!m.wall_capped);
}
