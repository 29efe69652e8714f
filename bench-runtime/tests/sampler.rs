//! The sampling loop's decisions, driven by a fake clock: every figure here is
//! exact because no real time is involved.

use bench_runtime::{Measurement, Nanos, Sampler, SamplerConfig, StopReason};

/// A scripted routine: iteration `i` (counting across all samples) costs
/// `cost(i)` nanoseconds, and the harness adds `overhead` around each sample.
/// Costs are piecewise constant, so a sample's time is computed per distinct
/// cost, not per iteration (calibration may ask for 2^63 iterations).
struct FakeClock<F: Fn(u64) -> f64> {
    cost: F,
    overhead: f64,
    iterations_run: u64,
    now: f64,
}

impl<F: Fn(u64) -> f64> FakeClock<F> {
    fn new(cost: F) -> Self {
        FakeClock {
            cost,
            overhead: 0.0,
            iterations_run: 0,
            now: 0.0,
        }
    }

    fn run(&mut self, mut sampler: Sampler) -> Measurement {
        let mut guard = 0;
        while let Some(iters) = sampler.next_iters() {
            let elapsed = self.sample_cost(iters);
            self.iterations_run = self.iterations_run.saturating_add(iters);
            self.now += elapsed + self.overhead;
            sampler.record(Nanos(elapsed), Nanos(elapsed + self.overhead));
            guard += 1;
            assert!(guard < 10_000_000, "sampler never stopped");
        }
        sampler.finish().expect("a sampler that stops has a result")
    }

    fn sample_cost(&self, iters: u64) -> f64 {
        const STEP: u64 = 1 << 12;
        let first = self.iterations_run;
        let (last, cost) = (first.saturating_add(iters), &self.cost);
        if cost(first) == cost(last - 1) && iters > STEP {
            // Constant over the sample (the scripts here change cost once).
            return cost(first) * iters as f64;
        }
        (first..last).map(cost).sum()
    }
}

fn config() -> SamplerConfig {
    SamplerConfig {
        warm_up_time: Nanos(1_000_000.0),  // 1 ms
        measure_time: Nanos(10_000_000.0), // 10 ms
        max_time: Nanos(100_000_000.0),    // 100 ms
        min_samples: 10,
        max_samples: 100_000,
        min_sample_time: Nanos(10_000.0), // 10 µs
    }
}

#[test]
fn iterations_per_sample_double_until_a_sample_reaches_the_floor() {
    // 3 ns per iteration: 2^11 = 2048 iterations (6,144 ns) is short of
    // 10 µs, 2^12 = 4096 (12,288 ns) is the first size past it.
    let m = FakeClock::new(|_| 3.0).run(Sampler::new(config()));
    assert!(m.samples.iter().all(|s| s.iters == 4096));
    assert!(m.samples.iter().all(|s| s.per_iter() == Nanos(3.0)));
}

#[test]
fn time_budget_is_respected_and_reported() {
    let mut clock = FakeClock::new(|_| 3.0);
    let m = clock.run(Sampler::new(config()));
    assert_eq!(m.stop, StopReason::TimeBudget);
    let measured: f64 = m.samples.iter().map(|s| s.elapsed.0).sum();
    // Recording stops at the first sample that reaches the budget.
    assert!(measured >= 10_000_000.0);
    assert!(measured < 10_000_000.0 + 12_288.0 + 1.0);
    // Warm-up ran for its budget (calibration included) and was not recorded.
    assert!(m.warm_up.time.0 >= 1_000_000.0);
    assert!(m.warm_up.time.0 < 1_000_000.0 + 12_288.0 + 1.0);
    assert_eq!(m.total_time.0, clock.now);
}

#[test]
fn warm_up_samples_are_discarded() {
    // The first 20,000 iterations are ten times slower (a cold cache, a
    // first-call penalty); warm-up absorbs them and none is recorded.
    // Calibration ran on slow iterations (512 per sample reached 10 µs);
    // warm-up grows the sample again once iterations speed up.
    let m = FakeClock::new(|i| if i < 20_000 { 30.0 } else { 3.0 }).run(Sampler::new(config()));
    assert!(m.warm_up.samples > 0);
    assert!(m.samples.iter().all(|s| s.per_iter() == Nanos(3.0)));
    assert!(m.samples.iter().all(|s| s.iters == 4096));
}

#[test]
fn harness_overhead_counts_against_the_budget() {
    // 10 µs of harness work around every ~12 µs sample: the wall-time budget
    // is reached with about half the sample time a zero-overhead run gets.
    let mut clock = FakeClock::new(|_| 3.0);
    clock.overhead = 10_000.0;
    let m = clock.run(Sampler::new(config()));
    let measured: f64 = m.samples.iter().map(|s| s.elapsed.0).sum();
    assert!(measured < 6_000_000.0, "measured {measured} ns");
}

#[test]
fn min_samples_extends_measurement_past_the_time_budget() {
    // 2 ms per iteration: the 10 ms budget holds 5 samples, min_samples asks 10.
    let m = FakeClock::new(|_| 2_000_000.0).run(Sampler::new(config()));
    assert_eq!(m.samples.len(), 10);
    assert_eq!(m.stop, StopReason::TimeBudget);
    assert!(m.samples.iter().all(|s| s.iters == 1));
}

#[test]
fn sample_cap_stops_recording() {
    let m = FakeClock::new(|_| 3.0).run(Sampler::new(SamplerConfig {
        max_samples: 25,
        ..config()
    }));
    assert_eq!(m.samples.len(), 25);
    assert_eq!(m.stop, StopReason::SampleCap);
}

#[test]
fn a_routine_slower_than_the_whole_budget_stops_after_few_samples() {
    // 30 ms per iteration against a 100 ms hard bound: the calibration run
    // (30 ms) also warms up; then samples at 60 and 90 ms; a fourth would end
    // at 120 ms, past the bound, so it is not started.
    let mut clock = FakeClock::new(|_| 30_000_000.0);
    let m = clock.run(Sampler::new(config()));
    assert_eq!(m.stop, StopReason::MaxTime);
    assert_eq!(m.samples.len(), 2);
    assert!(clock.now <= 100_000_000.0);
}

#[test]
fn a_routine_slower_than_max_time_reports_its_one_sample() {
    // One iteration takes 250 ms against a 100 ms bound: the run stops after
    // that single iteration and keeps it as the only sample, never more.
    let mut clock = FakeClock::new(|_| 250_000_000.0);
    let m = clock.run(Sampler::new(config()));
    assert_eq!(m.stop, StopReason::MaxTime);
    assert_eq!(m.samples.len(), 1);
    assert_eq!(m.samples[0].iters, 1);
    assert_eq!(clock.iterations_run, 1);
}

#[test]
fn a_routine_too_fast_to_measure_does_not_calibrate_forever() {
    // A clock that never moves: calibration gives up at 2^63 iterations per
    // sample; max_time is never reached by zero-cost samples, so the sample
    // cap ends it.
    let m = FakeClock::new(|_| 0.0).run(Sampler::new(SamplerConfig {
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
