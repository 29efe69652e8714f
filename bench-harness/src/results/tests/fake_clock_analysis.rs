//! A sampler driven by a fake clock, with scripted per-iteration costs that
//! carry injected noise and outliers of known classes, analysed as the
//! harness analyses real runs. Every expected figure was computed
//! independently (Python's `statistics`, type-7 percentiles) from the same
//! script:
//!
//! ```text
//! q1 = 9.9, q3 = 10.1; low severe 0, low mild 1, high mild 16, high severe 24;
//! beyond 3σ 24 (mean 10.41233, sd 1.96286); 20 blocks of 30: medians 10.0,
//! then 19 × 10.1, headline 10.095
//! ```

use bench_runtime::{
    Measurement, Nanos, Sampler, SamplerConfig, StopReason, StopRule, TimerPrecision,
};

use crate::analysis::Overhead;
use crate::instruments::Evidence;
use crate::results::{Context, Measured};

/// The true per-iteration cost of the k-th recorded sample: 9.9 / 10.1 ns
/// alternating (noise), 20 ns every 25th (interrupted: high severe), 10.5 ns
/// every 37th (high mild), 9.5 ns once (low mild).
fn script(k: usize) -> f64 {
    if k % 25 == 24 {
        20.0
    } else if k % 37 == 36 {
        10.5
    } else if k == 13 {
        9.5
    } else if k % 2 == 0 {
        9.9
    } else {
        10.1
    }
}

/// What the timing loop adds: two clock reads per sample, a loop per iteration.
const OVERHEAD: Overhead = Overhead {
    per_sample: Nanos(30.0),
    per_iter: Nanos(0.5),
    per_iter_uncertainty: Nanos::ZERO,
};

// Every field is said; one added later takes its default.
#[allow(clippy::needless_update)]
fn config() -> SamplerConfig {
    SamplerConfig {
        warm_up_time: Nanos(1_000_000.0),
        warm_up_window: 10,
        warm_up_cv: 0.05,
        measure_time: Nanos(1e12),
        stop_rule: StopRule::TimeBudget,
        max_time: Nanos(1e12),
        min_samples: 10,
        max_samples: 600,
        min_sample_time: Nanos(10_000.0),
        ..SamplerConfig::default()
    }
}

/// Runs the sampler on a fake clock: a sample of `iters` iterations reads
/// `iters × (cost + loop) + clock reads` nanoseconds.
fn measure() -> Measurement {
    let mut sampler = Sampler::new(config());
    while let Some(iters) = sampler.next_iters() {
        let cost = script(sampler.samples().len());
        let elapsed = iters as f64 * (cost + OVERHEAD.per_iter.0) + OVERHEAD.per_sample.0;
        sampler.record(Nanos(elapsed), Nanos(elapsed + 50.0));
    }
    sampler.finish().unwrap()
}

fn analyse() -> Measured {
    let measurement = measure();
    Measured::analyse(
        measurement,
        config(),
        &Context {
            overhead: OVERHEAD,
            timer: TimerPrecision {
                resolution: Nanos(1.0),
                overhead: Nanos(30.0),
            },
            probe_level: None,
        },
        Evidence::default(),
    )
}

#[test]
fn warm_up_settles_on_the_steady_script_and_is_not_recorded() {
    let m = measure();
    assert!(m.warm_up.steady);
    // Identical warm-up samples: no variation, up to rounding.
    assert!(m.warm_up.final_cv.unwrap() < 1e-12);
    assert_eq!(m.stop, StopReason::SampleCap);
    assert_eq!(m.samples.len(), 600);
}

#[test]
fn overhead_subtraction_recovers_the_scripted_costs_exactly() {
    let m = analyse();
    for (k, value) in m.per_iter.iter().enumerate() {
        assert!((value - script(k)).abs() < 1e-9, "sample {k}: {value}");
    }
    // What the clock saw included the loop: 0.5 ns per iteration more, plus
    // the clock reads spread over 1,024 iterations per sample.
    let raw = &m.measurement.samples[1];
    assert_eq!(raw.iters, 1024);
    assert!((raw.per_iter().0 - (10.1 + 0.5 + 30.0 / 1024.0)).abs() < 1e-9);
    // Relative figures are relative to the time itself here: the body costs
    // more than the loop.
    assert_eq!(m.reference, m.headline());
}

#[test]
fn outliers_are_counted_by_class() {
    let m = analyse();
    let o = &m.outliers;
    assert_eq!(
        (o.low_severe, o.low_mild, o.high_mild, o.high_severe),
        (0, 1, 16, 24)
    );
    assert_eq!(o.beyond_3_sigma, 24);
    assert_eq!(o.fences.q1, 9.9);
    assert_eq!(o.fences.q3, 10.1);
}

#[test]
fn outliers_are_reported_beside_the_full_figures_never_dropped() {
    let m = analyse();
    assert_eq!(m.per_iter.len(), 600, "raw samples stay");
    assert_eq!(m.summary.n, 600);
    assert!((m.summary.mean - 10.412333333333333).abs() < 1e-9);
    let filtered = m.filtered.as_ref().expect("outliers exist");
    assert_eq!(filtered.n, 600 - 41);
    assert!(filtered.max <= 10.1 + 1e-9);
}

#[test]
fn a_steady_script_is_read_by_its_fast_regime() {
    let m = analyse();
    // One slice: 20 blocks of 30 samples. Its few slow samples lift the
    // blocks' mean cost of a call less than 10% above their medians: a
    // steady body, whose headline is the mean of the fast regime's block
    // medians. The first block's median is 10.0 (the low outlier tips its
    // middle pair), the others' 10.1.
    assert!(m.estimate.steady);
    assert_eq!(m.estimate.block_medians.len(), 20);
    assert!((m.estimate.block_medians[0] - 10.0).abs() < 1e-9);
    assert!((m.headline() - 10.095).abs() < 1e-9, "{}", m.headline());
}

/// An empty body measured against a loop overhead a little too large (the
/// run's own measurement of the loop is known to ±0.05 ns): its times sit
/// just below zero.
fn empty_body(overestimate: f64) -> Measured {
    steady_body(0.0, 0.001, overestimate, 0.05)
}

/// A body of `cost` ns a call whose samples alternate `jitter` ns a call
/// either side of it, measured against a loop overhead `overestimate` ns
/// too large and known to ±`uncertainty` ns.
fn steady_body(cost: f64, jitter: f64, overestimate: f64, uncertainty: f64) -> Measured {
    let overhead = Overhead {
        per_iter: Nanos(OVERHEAD.per_iter.0 + overestimate),
        per_iter_uncertainty: Nanos(uncertainty),
        ..OVERHEAD
    };
    let mut sampler = Sampler::new(config());
    let mut k = 0;
    while let Some(iters) = sampler.next_iters() {
        k += 1;
        let jitter = if k % 2 == 0 { jitter } else { -jitter };
        let elapsed = iters as f64 * (OVERHEAD.per_iter.0 + cost + jitter) + OVERHEAD.per_sample.0;
        sampler.record(Nanos(elapsed), Nanos(elapsed + 50.0));
    }
    Measured::analyse(
        sampler.finish().unwrap(),
        config(),
        &Context {
            overhead,
            timer: TimerPrecision {
                resolution: Nanos(1.0),
                overhead: Nanos(30.0),
            },
            probe_level: None,
        },
        Evidence::default(),
    )
}

#[test]
fn near_the_loops_cost_only_where_the_overhead_is_a_share_of_the_time() {
    let near = |m: &Measured| m.notes.iter().any(|n| n.kind() == "near_overhead");
    // Half a nanosecond a call, its interval mostly the overhead's ±0.0016
    // ns (the example suite's `int_add` here): compare it in a group.
    let small = steady_body(0.54, 0.002, 0.0, 0.0016);
    assert!(
        near(&small),
        "{:?} {:?}",
        small.estimate.interval,
        small.notes
    );
    // 832 ns a call, every sample alike, so its interval is zero wide: any
    // overhead uncertainty is at least half of it, but a millionth of a
    // nanosecond is no share of its time (the calibration target's
    // `imul_1020` was told it cost about as little as the harness resolves).
    let large = steady_body(832.5, 0.0, 0.0, 1.5e-15);
    let half = large.estimate.half_width().unwrap();
    assert!(half < 1e-9, "{half}");
    assert!(!near(&large), "{:?}", large.notes);
}

#[test]
fn a_time_within_the_overheads_uncertainty_says_so_and_is_never_printed_negative() {
    let m = empty_body(0.02);
    assert!(m.headline() < 0.0, "{}", m.headline());
    // The overhead's ±0.05 ns is in the interval.
    let ci = m.estimate.interval.unwrap();
    assert!(ci.upper - m.headline() >= 0.05, "{ci:?}");
    assert!(
        m.notes.iter().any(|n| n.kind() == "near_overhead"),
        "{:?}",
        m.notes
    );
    let shown = crate::report::format::headline_time(&m);
    assert!(shown.starts_with('<') || shown == "≈0 ps", "{shown}");
    // A value and a unit, like every other time in the table.
    assert_eq!(shown.split_whitespace().count(), 2, "{shown}");
    assert!(!shown.contains('-'), "{shown}");
}

/// A slice whose median is below zero (the loop's cost over-subtracted,
/// with no loop cost to fall back on), or above it by a hair (a row that
/// timed itself, with no loop), is no scale for its own spread: the row's
/// reference (0.5 ns) is: values 0.01 ns apart spread about 1%.
#[test]
fn a_slice_below_zero_spreads_relative_to_the_row() {
    let slice = [-0.02, -0.01, -0.03, -0.02, -0.015, -0.025, -0.02, -0.01];
    for shift in [0.0, 0.020_001] {
        let per_iter: Vec<f64> = [slice, slice].concat().iter().map(|v| v + shift).collect();
        let spread = crate::results::within_spread(&per_iter, &[0, 8], &Overhead::NONE, 0.5);
        assert!((0.005..0.02).contains(&spread), "{shift}: {spread}");
    }
}
